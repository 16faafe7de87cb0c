// Everything that calls into the game or builds game objects: method invocation (with ref/out
// arguments and struct receivers written back), properties and indexers, element access,
// object, array and collection creation, interpolated strings, user-defined operators, and
// ToString for string concatenation.

import type * as A from '../syntax/index.js';
import type { InvokeResult, MethodDescriptor, PropertyDescriptor, TypeHandle } from '../runtime.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { isIntegralKind } from '../semantics/numeric-types.js';
import { CompileError, ManagedException, Messages, UnsupportedError } from './errors.js';
import type { BuiltinFunction, Interpreter } from './interpreter.js';
import type { Operand, Place, PropertyTarget } from './operand.js';
import { Overloads, type ArgInfo, type Candidate } from './overloads.js';

const INDEX_KINDS = ['int', 'uint', 'long', 'ulong'] as const;

export class Calls {
  readonly overloads: Overloads;
  private hidden = 0;

  constructor(private readonly it: Interpreter) {
    this.overloads = new Overloads(it);
  }

  private get f() {
    return this.it.facts;
  }

  private get game() {
    return this.it.rt.game;
  }

  // ---------------------------------------------------------------- invocation

  async invocation(e: A.Invocation): Promise<Operand> {
    const t = e.target;
    if (t.kind === 'Name' && t.typeArgs.length === 0 && !t.alias && !this.it.locals.has(t.name)) {
      const fn = this.it.options.functions?.get(t.name);
      if (fn) return this.builtinCall(t.name, fn, e);
    }
    const target = await this.it.resolveInChain(e.target);
    if (target.k === 'methods') {
      const args = await this.arguments(e.arguments);
      const c = await this.overloads.resolve(
        target.methods,
        args,
        target.typeArgs,
        target.name,
        e.span,
      );
      if (!c.method.isStatic && !target.receiver) {
        throw new CompileError(
          'CS0120',
          `an object reference is required for the non-static method '${target.name}'`,
          e.span,
        );
      }
      if (c.method.isStatic && target.receiver) {
        throw new CompileError(
          'CS0176',
          `static method '${target.name}' cannot be called with an instance reference; qualify it with a type name`,
          e.span,
        );
      }
      return this.call(c, target.receiver, args, e.arguments);
    }
    if (
      target.k === 'value' &&
      target.op.type !== 'null' &&
      (await this.f.describe(target.op.type)).kind === 'delegate'
    ) {
      const invoke = (await this.it.md.members(target.op.type, 'Invoke')).methods;
      const args = await this.arguments(e.arguments);
      const c = await this.overloads.resolve(invoke, args, [], 'Invoke', e.span);
      return this.call(c, target.op, args, e.arguments);
    }
    if (target.k === 'type')
      throw new CompileError(
        'CS1955',
        `'${await this.f.name(target.type)}' is a type, not a method: use 'new' to create one`,
        e.target.span,
      );
    throw new CompileError(
      'CS1955',
      'non-invocable member cannot be used like a method',
      e.target.span,
    );
  }

  private async builtinCall(name: string, fn: BuiltinFunction, e: A.Invocation): Promise<Operand> {
    const signature = fn.signatures.find((p) => p.length === e.arguments.length);
    if (!signature) {
      const counts = fn.signatures.map((p) => p.length).join(' or ');
      throw new CompileError(
        'CS1501',
        `${name}(...) takes ${counts} arguments, not ${e.arguments.length}`,
        e.span,
      );
    }
    const values: EvalValue[] = [];
    for (const [i, a] of e.arguments.entries()) {
      if (a.name || a.modifier !== 'none' || a.value.kind === 'OutDeclaration') {
        throw new CompileError('CS1503', `${name}(...) takes plain arguments`, a.span);
      }
      const v = await this.it.conversions.implicitly(
        await this.it.expr(a.value),
        signature[i]!,
        `argument ${i + 1} of ${name}`,
      );
      values.push(v.value);
    }
    if (this.it.dry) return { type: fn.returnType, value: VOID };
    return { type: fn.returnType, value: await fn.call(values) };
  }

  /** Evaluates arguments left to right; ref/out ones denote variables. */
  private async arguments(list: readonly A.Argument[]): Promise<ArgInfo[]> {
    const out: ArgInfo[] = [];
    for (const a of list) {
      const name = a.name?.name;
      if (a.value.kind === 'OutDeclaration') {
        const d = a.value;
        const type = d.type === 'var' ? undefined : await this.it.lookup.type(d.type);
        const discard = d.name.name === '_' && !this.it.locals.has('_');
        if (!discard) this.it.declareLocal(d.name.name, type ?? 'null', d.name.span);
        const op: Operand = discard
          ? { type: type ?? 'null', value: VOID }
          : { type: type ?? 'null', value: VOID, place: { k: 'local', name: d.name.name } };
        out.push({ op, name, modifier: 'out', outVar: type === undefined, span: a.span });
        continue;
      }
      if (a.modifier === 'ref' || a.modifier === 'out') {
        if (
          a.modifier === 'out' &&
          a.value.kind === 'Name' &&
          a.value.name === '_' &&
          !this.it.locals.has('_')
        ) {
          out.push({
            op: { type: 'null', value: VOID },
            name,
            modifier: 'out',
            outVar: true,
            span: a.span,
          });
          continue;
        }
        const t = await this.it.target(a.value, a.modifier === 'out' ? 'write' : 'read');
        if (!t.place)
          throw new CompileError(
            'CS0206',
            'a property or indexer may not be passed as an out or ref parameter',
            a.span,
          );
        const op = a.modifier === 'ref' ? { ...t, value: await this.it.readTarget(t) } : t;
        out.push({ op, name, modifier: a.modifier, outVar: false, span: a.span });
        continue;
      }
      out.push({
        op: await this.it.expr(a.value),
        name,
        modifier: a.modifier,
        outVar: false,
        span: a.span,
      });
    }
    return out;
  }

  /** Converts the arguments, calls, writes back ref/out arguments and a mutated struct receiver. */
  private async call(
    c: Candidate,
    receiver: Operand | undefined,
    args: readonly ArgInfo[],
    nodes: readonly A.Argument[],
  ): Promise<Operand> {
    const m = c.method;
    // out var locals take their parameter's type
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const node = nodes[i];
      if (a.outVar && node?.value.kind === 'OutDeclaration') {
        const local = this.it.locals.get(node.value.name.name);
        if (local) local.type = m.parameters[c.map[i]!]!.type;
      }
    }
    const returnType = m.returnType ?? (await this.it.wk.keyword('void'));
    const values = await this.argumentValues(c, args);
    if (this.it.dry) {
      // definitely assigned after the call (§9.4.4.4), also when only binding
      for (const a of args)
        if (a.modifier === 'out' && a.op.place?.k === 'local')
          this.it.assignLocal(a.op.place.name, VOID);
      return { type: returnType, value: VOID };
    }
    const refs = m.parameters.some((p) => p.refKind === 'ref' || p.refKind === 'out');
    const r = await this.invokeOn(m, receiver, values, refs);
    if (refs && r.outArgs) {
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a.modifier !== 'ref' && a.modifier !== 'out') continue;
        const out = r.outArgs[c.map[i]!];
        if (out && a.op.place) await this.it.write(a.op.place, out);
      }
    }
    return { type: returnType, value: r.result };
  }

  /** Each parameter's value: converted arguments, defaults, and the params array. */
  private async argumentValues(c: Candidate, args: readonly ArgInfo[]): Promise<EvalValue[]> {
    const m = c.method;
    const params = m.parameters;
    const values: (EvalValue | undefined)[] = params.map(() => undefined);
    const rest: EvalValue[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const j = c.map[i]!;
      const conversion = c.conversions[i];
      let v: EvalValue;
      if (a.modifier === 'out') v = (await this.it.defaultValue(params[j]!.type)).value;
      else if (conversion)
        v = (await this.it.conversions.apply(conversion, a.op, c.targets[i]!, this.it.checked))
          .value;
      else v = a.op.value;
      if (c.expanded && j === params.length - 1) rest.push(v);
      else values[j] = v;
    }
    for (let j = 0; j < params.length; j++) {
      if (values[j] !== undefined) continue;
      const p = params[j]!;
      if (c.expanded && j === params.length - 1) {
        const element = (await this.f.describe(p.type)).elementType!;
        values[j] = this.it.dry ? VOID : await this.newArrayOf(element, rest);
        continue;
      }
      values[j] = await this.defaultArgument(p.type, p.defaultValue);
    }
    return values as EvalValue[];
  }

  private async defaultArgument(
    type: TypeHandle,
    given: EvalValue | undefined,
  ): Promise<EvalValue> {
    if (!given) return (await this.it.defaultValue(type)).value;
    if (given.kind === 'null') return given;
    if (given.kind === 'number' && (await this.f.isEnum(type))) {
      const u = await this.f.enumUnderlying(type);
      return { kind: 'enum', type, underlying: u, value: given.value };
    }
    return given;
  }

  private async newArrayOf(element: TypeHandle, values: readonly EvalValue[]): Promise<EvalValue> {
    const array = await this.game.newArray(element, [values.length]);
    for (let i = 0; i < values.length; i++) await this.game.writeElement(array, i, values[i]!);
    return array;
  }

  /**
   * Calls a method on a receiver: virtually on references, directly on struct values (whose
   * mutated copy is written back where it came from). A null receiver throws as C# would.
   */
  async invokeOn(
    m: MethodDescriptor,
    receiver: Operand | undefined,
    values: readonly EvalValue[],
    outArgs: boolean,
    /** The call is this property's setter in an assignment. */
    propertySet?: PropertyDescriptor,
  ): Promise<InvokeResult> {
    if (m.isStatic || !receiver)
      return this.game.invoke(m, undefined, values, {
        virtual: false,
        outThis: false,
        outArgs,
        ...(propertySet ? { propertySet } : {}),
      });
    const rv = receiver.value;
    // a Nullable<T> is a struct: calling its members on "null" is fine (HasValue, GetValueOrDefault)
    if (rv.kind === 'null' && !(await this.f.nullableUnderlying(m.declaringType)))
      throw Messages.nullReference();
    const valueReceiver = rv.kind !== 'object' && rv.kind !== 'string';
    const declaredOnValueType = await this.f.isValueType(m.declaringType);
    // a readonly field's struct is copied before the call (C# §12.8.7): nothing is written back
    const writeBack =
      valueReceiver &&
      declaredOnValueType &&
      rv.kind === 'struct' &&
      !!receiver.place &&
      !this.it.isReadOnlyPlace(receiver.place);
    // a struct in a box called through an interface: the agent runs the method on a copy,
    // so the changed copy is stored back into the box (the CLR changes the box in place)
    let box = false;
    if (rv.kind === 'object' && (await this.f.describe(m.declaringType)).kind === 'interface') {
      box = await this.f.isValueType(await this.game.typeOf(rv));
    }
    // a setter on an object changes the game; on a struct value or a box's copy it changes a
    // copy, written back (when it is a variable) as the write of a field
    const set = propertySet && rv.kind === 'object' && !box ? { propertySet } : {};
    const r = await this.game.invoke(m, rv, values, {
      virtual: m.isVirtual && !declaredOnValueType,
      outThis: writeBack || box,
      outArgs,
      ...set,
    });
    if (writeBack && r.outThis && !sameStruct(r.outThis, rv))
      await this.it.write(receiver.place, r.outThis);
    if (box && r.outThis?.kind === 'struct') await this.game.rebox(rv, r.outThis);
    return r;
  }

  /** A call with already-converted arguments (user-defined conversions, ToString). */
  async invokeRaw(
    m: MethodDescriptor,
    thisArg: EvalValue | undefined,
    args: readonly EvalValue[],
  ): Promise<EvalValue> {
    const receiver = thisArg ? { type: m.declaringType, value: thisArg } : undefined;
    return (await this.invokeOn(m, receiver, args, false)).result;
  }

  // ---------------------------------------------------------------- properties

  async callGetter(t: PropertyTarget): Promise<EvalValue> {
    if (this.it.dry) return VOID;
    const getter = t.property.getter!;
    const receiver = t.property.isStatic
      ? undefined
      : { type: t.property.declaringType, value: t.receiver ?? NULL };
    return (await this.invokeOn(getter, receiver, t.args, false)).result;
  }

  async callSetter(t: PropertyTarget, value: EvalValue): Promise<void> {
    if (this.it.dry) return;
    const setter = t.property.setter!;
    const receiver = t.property.isStatic
      ? undefined
      : {
          type: t.property.declaringType,
          value: t.receiver ?? NULL,
          ...(t.receiverPlace ? { place: t.receiverPlace } : {}),
        };
    await this.invokeOn(setter, receiver, [...t.args, value], false, t.property);
  }

  // ---------------------------------------------------------------- element access

  async elementAccess(e: A.ElementAccess, mode: 'read' | 'write' = 'read'): Promise<Operand> {
    const target = await this.it.resolveInChain(e.target);
    if (target.k !== 'value')
      throw new CompileError('CS0119', 'only a value can be indexed', e.target.span);
    let op = target.op;
    if (op.type === 'null')
      throw new CompileError(
        'CS0021',
        "cannot apply indexing to an expression of type '<null>'",
        e.span,
      );
    if (e.conditional) op = await this.it.conditionalReceiver(op, e.span);
    const type = op.type as TypeHandle;
    const d = await this.f.describe(type);
    if (d.kind === 'array' && d.elementType)
      return this.arrayElement(op, d.elementType, d.rank, e, mode);
    const indexers = await this.it.lookup.indexers(type);
    if (indexers.length === 0)
      throw new CompileError(
        'CS0021',
        `cannot apply indexing with [] to an expression of type '${await this.f.name(type)}'`,
        e.span,
      );
    const args = await this.arguments(e.arguments);
    // overloads are chosen on the indexers' parameters; the accessor the mode needs is then
    // checked (a get-only indexer assigned is CS0200, as C# says, not a missing overload)
    const signatures = new Map<MethodDescriptor, PropertyDescriptor>();
    for (const p of indexers) {
      const accessor = p.getter ?? p.setter;
      if (accessor) signatures.set({ ...accessor, parameters: p.parameters }, p);
    }
    const c = await this.overloads.resolve([...signatures.keys()], args, [], 'this[]', e.span);
    const property = signatures.get(c.method)!;
    const values = await this.argumentValues(c, args);
    return this.it.lookup.propertyOperand(op, property, values, mode, e.span);
  }

  private async arrayElement(
    op: Operand,
    element: TypeHandle,
    rank: number,
    e: A.ElementAccess,
    mode: 'read' | 'write',
  ): Promise<Operand> {
    if (e.arguments.length !== rank)
      throw new CompileError(
        'CS0022',
        `wrong number of indices inside []; expected ${rank}`,
        e.span,
      );
    const indices: bigint[] = [];
    for (const a of e.arguments) {
      if (a.name)
        throw new CompileError(
          'CS1742',
          'an array access may not have a named argument specifier',
          a.span,
        );
      if (a.modifier !== 'none' || a.value.kind === 'OutDeclaration')
        throw new CompileError('CS1615', 'an index may not be passed with ref or out', a.span);
      const x = await this.it.expr(a.value);
      indices.push(await this.index(x, a.span));
    }
    if (this.it.dry)
      return { type: element, value: VOID, place: { k: 'element', array: VOID, index: 0 } };
    const array = op.value;
    if (array.kind === 'null') throw Messages.nullReference();
    const lengths = await this.game.arrayLengths(array);
    const lower = (await this.game.arrayLowerBounds?.(array)) ?? [];
    let linear = 0n;
    for (let k = 0; k < rank; k++) {
      const i = indices[k]! - BigInt(lower[k] ?? 0);
      const n = BigInt(lengths[k] ?? 0);
      if (i < 0n || i >= n) throw Messages.indexOutOfRange();
      linear = linear * n + i;
    }
    const place: Place = { k: 'element', array, index: Number(linear) };
    return { type: element, value: mode === 'read' ? await this.it.read(place) : VOID, place };
  }

  /** An array index or size: int, uint, long or ulong after an implicit conversion (§12.8.12.2). */
  private async index(x: Operand, span: A.Span): Promise<bigint> {
    for (const k of INDEX_KINDS) {
      const t = await this.it.wk.keyword(k);
      if (await this.it.conversions.implicit(x, t)) {
        const v = await this.it.conversions.implicitly(x, t);
        return this.it.dry ? 0n : BigInt((v.value as { value: number | bigint }).value);
      }
    }
    throw new CompileError(
      'CS0029',
      `cannot implicitly convert type '${await this.f.name(x.type)}' to 'int'`,
      span,
    );
  }

  // ---------------------------------------------------------------- creation

  async objectCreation(e: A.ObjectCreation): Promise<Operand> {
    const type = await this.it.lookup.type(e.type);
    const d = await this.f.describe(type);
    if (d.kind === 'interface' || d.isAbstract) {
      throw new CompileError(
        'CS0144',
        `cannot create an instance of the abstract type or interface '${await this.f.name(type)}'`,
        e.span,
      );
    }
    if (d.kind === 'delegate')
      throw new UnsupportedError('creating a delegate is not supported', e.span);
    let value: EvalValue;
    const valueType = await this.f.isValueType(type);
    const argNodes = e.arguments ?? [];
    if (valueType && argNodes.length === 0) {
      value = (await this.it.defaultValue(type)).value;
    } else {
      const ctors = (await this.it.md.members(type, '.ctor')).methods.filter((m) => !m.isStatic);
      if (ctors.length === 0)
        throw new CompileError(
          'CS0143',
          `the type '${await this.f.name(type)}' has no constructors defined`,
          e.span,
        );
      const args = await this.arguments(argNodes);
      const c = await this.overloads.resolve(ctors, args, [], await this.f.name(type), e.span);
      const values = await this.argumentValues(c, args);
      if (this.it.dry) {
        value = VOID;
      } else if (valueType) {
        const zero = (await this.it.defaultValue(type)).value;
        const r = await this.game.invoke(c.method, zero, values, {
          virtual: false,
          outThis: true,
          outArgs: false,
        });
        value = r.outThis ?? r.result;
      } else {
        value = (
          await this.game.invoke(c.method, undefined, values, {
            virtual: false,
            outThis: false,
            outArgs: false,
          })
        ).result;
      }
    }
    if (!e.initializer) return { type, value };
    return this.initialize(type, value, e.initializer);
  }

  /** Runs an object or collection initializer on a new value held in a hidden local. */
  private async initialize(
    type: TypeHandle,
    value: EvalValue,
    init: A.ObjectInitializer | A.CollectionInitializer,
  ): Promise<Operand> {
    const name = `<init${this.hidden++}>`;
    this.it.locals.set(name, { type, value, assigned: true });
    try {
      const holder: Operand = { type, value, place: { k: 'local', name } };
      await this.applyInitializer(holder, init);
      return { type, value: this.it.locals.get(name)!.value };
    } finally {
      this.it.locals.delete(name);
    }
  }

  private async current(op: Operand): Promise<Operand> {
    return op.place ? { ...op, value: await this.it.read(op.place) } : op;
  }

  private async applyInitializer(
    holder: Operand,
    init: A.ObjectInitializer | A.CollectionInitializer,
  ): Promise<void> {
    const type = holder.type as TypeHandle;
    if (init.kind === 'CollectionInitializer') {
      const enumerable = await this.it.md.findType('System.Collections.IEnumerable');
      if (enumerable && !(await this.f.assignable(enumerable, type))) {
        throw new CompileError(
          'CS1922',
          `a collection initializer needs '${await this.f.name(type)}' to implement System.Collections.IEnumerable`,
          init.span,
        );
      }
      for (const el of init.elements) {
        const exprs = el.kind === 'ElementInitializer' ? el.arguments : [el];
        const add = await this.it.lookup.member(type, 'Add');
        if (add?.k !== 'methods')
          throw new CompileError(
            'CS1061',
            `'${await this.f.name(type)}' does not contain a definition for 'Add' (needed by a collection initializer)`,
            el.span,
          );
        const args: ArgInfo[] = [];
        for (const x of exprs)
          args.push({
            op: await this.it.expr(x),
            name: undefined,
            modifier: 'none',
            outVar: false,
            span: x.span,
          });
        const c = await this.overloads.resolve(add.methods, args, [], 'Add', el.span);
        await this.call(c, await this.current(holder), args, []);
      }
      return;
    }
    const seen = new Set<string>();
    for (const mi of init.members) {
      const receiver = await this.current(holder);
      let target: Operand;
      if (Array.isArray(mi.target)) {
        const fake: A.ElementAccess = {
          kind: 'ElementAccess',
          target: {
            kind: 'Name',
            name: holderName(holder),
            typeArgs: [],
            alias: null,
            span: mi.span,
          },
          arguments: mi.target,
          conditional: false,
          span: mi.span,
        };
        target = await this.elementAccess(
          fake,
          mi.value.kind === 'ObjectInitializer' || mi.value.kind === 'CollectionInitializer'
            ? 'read'
            : 'write',
        );
      } else {
        const name = mi.target.name;
        if (seen.has(name))
          throw new CompileError(
            'CS1912',
            `duplicate initialization of member '${name}'`,
            mi.target.span,
          );
        seen.add(name);
        const m = await this.it.lookup.member(type, name);
        const nested =
          mi.value.kind === 'ObjectInitializer' || mi.value.kind === 'CollectionInitializer';
        const mode = nested ? 'read' : 'write';
        if (m?.k === 'field' && !m.field.isStatic)
          target = await this.it.lookup.fieldOperand(receiver, m.field, mode, mi.target.span);
        else if (m?.k === 'property' && !m.property.isStatic)
          target = await this.it.lookup.propertyOperand(
            receiver,
            m.property,
            [],
            mode,
            mi.target.span,
          );
        else
          throw new CompileError(
            'CS0117',
            `'${await this.f.name(type)}' does not contain an assignable member '${name}'`,
            mi.target.span,
          );
      }
      if (mi.value.kind === 'ObjectInitializer' || mi.value.kind === 'CollectionInitializer') {
        await this.applyInitializer(target, mi.value);
        continue;
      }
      const v = await this.it.conversions.implicitly(
        await this.it.expr(mi.value),
        target.type as TypeHandle,
        'the initializer',
      );
      await this.it.store(target, v.value);
    }
  }

  async arrayCreation(e: A.ArrayCreation): Promise<Operand> {
    if (!e.elementType) {
      if (!e.initializer)
        throw new CompileError(
          'CS1586',
          'array creation must have array size or array initializer',
          e.span,
        );
      return this.implicitArray(e.initializer, e.ranks[0] ?? 1, e.span);
    }
    const base = await this.it.lookup.type(e.elementType);
    const [outer = 1, ...inner] = e.ranks;
    let element = base;
    for (const r of [...inner].reverse()) element = await this.it.md.arrayOf(element, r);
    const type = await this.it.md.arrayOf(element, outer);
    const sizes: bigint[] = [];
    const constants: (bigint | undefined)[] = [];
    for (const s of e.sizes) {
      const x = await this.it.expr(s);
      const n = await this.index(x, s.span);
      const c = x.constant?.kind === 'number' ? x.constant.c.value : undefined;
      const cv =
        c && c.kind !== 'bool' && c.kind !== 'decimal' && isIntegralKind(c.kind)
          ? BigInt(c.value)
          : undefined;
      if (cv !== undefined && cv < 0n)
        throw new CompileError('CS0248', 'cannot create an array with a negative size', s.span);
      sizes.push(n);
      constants.push(cv);
    }
    if (e.initializer) {
      const shape = initializerShape(e.initializer, outer);
      for (let k = 0; k < sizes.length; k++) {
        if (constants[k] === undefined)
          throw new CompileError(
            'CS0150',
            'a constant value is expected for the size of an initialized array',
            e.sizes[k]!.span,
          );
        if (constants[k] !== BigInt(shape[k] ?? -1))
          throw new CompileError(
            'CS0847',
            `an array initializer of length '${constants[k]}' is expected`,
            e.initializer.span,
          );
      }
      return this.fillArray(type, element, outer, e.initializer);
    }
    if (sizes.length !== outer)
      throw new CompileError(
        'CS1586',
        'array creation must have array size or array initializer',
        e.span,
      );
    if (this.it.dry) return { type, value: VOID };
    if (sizes.some((n) => n < 0n))
      throw new ManagedException(
        'System.OverflowException',
        'Arithmetic operation resulted in an overflow.',
      );
    return { type, value: await this.game.newArray(element, sizes.map(Number)) };
  }

  /** `T[] a = { ... }`. */
  async arrayFromInitializer(type: TypeHandle, init: A.ArrayInitializer): Promise<Operand> {
    const d = await this.f.describe(type);
    if (d.kind !== 'array' || !d.elementType)
      throw new CompileError(
        'CS0622',
        'an array initializer can only initialize an array type; use new T { ... }',
        init.span,
      );
    return this.fillArray(type, d.elementType, d.rank, init);
  }

  private async fillArray(
    type: TypeHandle,
    element: TypeHandle,
    rank: number,
    init: A.ArrayInitializer,
  ): Promise<Operand> {
    const shape = initializerShape(init, rank);
    const leaves = flatten(init, rank, shape);
    const values: EvalValue[] = [];
    for (const x of leaves)
      values.push(
        (await this.it.conversions.implicitly(await this.it.expr(x), element, 'an array element'))
          .value,
      );
    if (this.it.dry) return { type, value: VOID };
    const array = await this.game.newArray(element, shape);
    for (let i = 0; i < values.length; i++) await this.game.writeElement(array, i, values[i]!);
    return { type, value: array };
  }

  /** `new[] { ... }`: the best common type of the elements (§12.6.3.15). */
  private async implicitArray(
    init: A.ArrayInitializer,
    rank: number,
    span: A.Span,
  ): Promise<Operand> {
    const shape = initializerShape(init, rank);
    const leaves = flatten(init, rank, shape);
    const ops: Operand[] = [];
    for (const x of leaves) ops.push(await this.it.expr(x));
    const types = ops.map((o) => o.type).filter((t): t is TypeHandle => t !== 'null');
    let best: TypeHandle | undefined;
    for (const t of types) {
      let all = true;
      for (const o of ops) if (!(await this.it.conversions.implicit(o, t))) all = false;
      if (all && (!best || !this.f.same(best, t))) {
        if (best)
          throw new CompileError('CS0826', 'no best type found for implicitly-typed array', span);
        best = t;
      }
    }
    if (!best)
      throw new CompileError('CS0826', 'no best type found for implicitly-typed array', span);
    const type = await this.it.md.arrayOf(best, rank);
    const values: EvalValue[] = [];
    for (const o of ops) values.push((await this.it.conversions.implicitly(o, best)).value);
    if (this.it.dry) return { type, value: VOID };
    const array = await this.game.newArray(best, shape);
    for (let i = 0; i < values.length; i++) await this.game.writeElement(array, i, values[i]!);
    return { type, value: array };
  }

  // ---------------------------------------------------------------- strings

  /** `$"..."`: string.Format in the game (its culture), or plain concatenation when it cannot differ. */
  async interpolated(e: A.InterpolatedString): Promise<Operand> {
    const type = await this.it.wk.keyword('string');
    const holes: { op: Operand; alignment: number | undefined; format: string | null }[] = [];
    for (const p of e.parts) {
      if (p.kind !== 'Interpolation') continue;
      const op = await this.it.expr(p.expression);
      if (op.type !== 'null' && (await this.it.lookup.isVoid(op.type)))
        throw new CompileError(
          'CS0029',
          "cannot convert type 'void' to 'object'",
          p.expression.span,
        );
      let alignment: number | undefined;
      if (p.alignment) {
        const a = await this.it.conversions.implicitly(
          await this.it.expr(p.alignment),
          await this.it.wk.keyword('int'),
          'the alignment',
        );
        if (a.constant?.kind !== 'number')
          throw new CompileError('CS0150', 'the alignment must be a constant', p.alignment.span);
        alignment = Number(a.constant.c.value.value);
      }
      holes.push({ op, alignment, format: p.format });
    }
    if (this.it.dry) return { type, value: VOID };
    let simple = true;
    for (const h of holes)
      if (h.alignment !== undefined || h.format !== null || !this.plainText(h.op)) simple = false;
    let i = 0;
    if (simple) {
      let text = '';
      for (const p of e.parts)
        text += p.kind === 'InterpolatedText' ? p.value : await this.textOf(holes[i++]!.op);
      return { type, value: { kind: 'string', text } };
    }
    let format = '';
    for (const p of e.parts) {
      if (p.kind === 'InterpolatedText') {
        format += p.value.replace(/[{}]/g, (c) => c + c);
        continue;
      }
      const h = holes[i]!;
      format += `{${i}${h.alignment !== undefined ? `,${h.alignment}` : ''}${h.format !== null ? `:${h.format}` : ''}}`;
      i++;
    }
    const stringFormat = await this.stringFormat();
    const objectType = await this.it.wk.keyword('object');
    const args = await this.newArrayOf(
      objectType,
      holes.map((h) => h.op.value),
    );
    const r = await this.game.invoke(
      stringFormat,
      undefined,
      [{ kind: 'string', text: format }, args],
      { virtual: false, outThis: false, outArgs: false },
    );
    return { type, value: r.result };
  }

  private async stringFormat(): Promise<MethodDescriptor> {
    const string = await this.it.wk.keyword('string');
    const objectArray = await this.it.md.arrayOf(await this.it.wk.keyword('object'), 1);
    const m = (await this.it.md.members(string, 'Format')).methods.find(
      (x) =>
        x.parameters.length === 2 &&
        this.f.same(x.parameters[0]!.type, string) &&
        this.f.same(x.parameters[1]!.type, objectArray),
    );
    if (!m) throw new Error('System.String.Format(string, object[]) not found');
    return m;
  }

  /** Values whose text does not depend on the game's culture. */
  private plainText(op: Operand): boolean {
    const v = op.value;
    return (
      v.kind === 'null' ||
      v.kind === 'string' ||
      v.kind === 'bool' ||
      (v.kind === 'number' && v.type !== 'float' && v.type !== 'double')
    );
  }

  /** What string concatenation appends for a value: its ToString(), "" for null. */
  async textOf(op: Operand): Promise<string> {
    const v = op.value;
    if (v.kind === 'null') return '';
    if (v.kind === 'string') return (await this.game.stringText(v)).text;
    if (v.kind === 'bool') return v.value ? 'True' : 'False';
    if (v.kind === 'number' && v.type === 'char') return String.fromCharCode(Number(v.value));
    if (v.kind === 'number' && v.type !== 'float' && v.type !== 'double') return String(v.value);
    const s = await this.toStringOf(op);
    return s.kind === 'null' ? '' : (await this.game.stringText(s)).text;
  }

  /** x.ToString() in the game (virtual: the run-time type's override). */
  async toStringOf(op: Operand): Promise<EvalValue> {
    const type = op.type === 'null' ? await this.it.wk.keyword('object') : op.type;
    const found = await this.it.lookup.member(type, 'ToString');
    const m =
      found?.k === 'methods'
        ? found.methods.find((x) => x.parameters.length === 0 && !x.isStatic)
        : undefined;
    if (!m) throw new Error(`no ToString() on ${await this.f.name(type)}`);
    return (await this.invokeOn(m, op, [], false)).result;
  }

  // ---------------------------------------------------------------- user-defined operators

  /** A user-defined operator (§12.4.4–§12.4.5) declared on an operand's type, or undefined. */
  async userOperator(
    name: string,
    operands: readonly Operand[],
    span: A.Span,
  ): Promise<Operand | undefined> {
    const methods: MethodDescriptor[] = [];
    const seen = new Set<string>();
    for (const o of operands) {
      if (o.type === 'null') continue;
      const t = (await this.f.nullableUnderlying(o.type)) ?? o.type;
      if (seen.has(t.key)) continue;
      seen.add(t.key);
      for (const level of await this.it.lookup.searchOrder(t)) {
        for (const m of (await this.it.md.members(level, name)).methods)
          if (m.isStatic) methods.push(m);
      }
    }
    if (methods.length === 0) return undefined;
    const args: ArgInfo[] = operands.map((op) => ({
      op,
      name: undefined,
      modifier: 'none',
      outVar: false,
      span,
    }));
    let c: Candidate;
    try {
      c = await this.overloads.resolve(methods, args, [], name, span);
    } catch (e) {
      if (e instanceof CompileError && e.csCode !== 'CS0121') return undefined;
      throw e;
    }
    return this.call(c, undefined, args, []);
  }
}

function holderName(holder: Operand): string {
  if (holder.place?.k !== 'local')
    throw new UnsupportedError('an indexer initializer on a nested member is not supported');
  return holder.place.name;
}

/** Lengths per dimension of a (nested) array initializer; ragged ones are refused (CS0847). */
function initializerShape(init: A.ArrayInitializer, rank: number): number[] {
  const shape: number[] = [];
  let level: A.ArrayInitializer | undefined = init;
  for (let k = 0; k < rank; k++) {
    if (!level)
      throw new CompileError('CS0846', 'a nested array initializer is expected', init.span);
    shape.push(level.elements.length);
    const first: A.Expression | A.ArrayInitializer | undefined = level.elements[0];
    level = first && first.kind === 'ArrayInitializer' ? first : undefined;
  }
  return shape;
}

function flatten(
  init: A.ArrayInitializer,
  rank: number,
  shape: readonly number[],
  depth = 0,
): A.Expression[] {
  if (init.elements.length !== shape[depth])
    throw new CompileError(
      'CS0847',
      `an array initializer of length '${shape[depth]}' is expected`,
      init.span,
    );
  const out: A.Expression[] = [];
  for (const el of init.elements) {
    if (depth + 1 < rank) {
      if (el.kind !== 'ArrayInitializer')
        throw new CompileError('CS0846', 'a nested array initializer is expected', el.span);
      out.push(...flatten(el, rank, shape, depth + 1));
    } else {
      if (el.kind === 'ArrayInitializer')
        throw new CompileError(
          'CS0623',
          'array initializers can only be used in a variable or field initializer; use new T[] { ... }',
          el.span,
        );
      out.push(el);
    }
  }
  return out;
}

function sameStruct(a: EvalValue, b: EvalValue): boolean {
  return (
    JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ===
    JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
  );
}
