// Method invocation (ECMA-334 §12.8.10): binding a call's target and arguments (named, ref/out,
// out var, params, defaults), overload resolution, calling and writing back ref/out arguments;
// the evaluator's built-in functions; and user-defined operators, which are calls.

import type * as A from '../syntax/index.js';
import type { MethodDescriptor, TypeHandle } from '../runtime.js';
import { VOID, type EvalValue } from '../values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { BuiltinFunction } from './options.js';
import type { Operand, Resolved } from './operand.js';
import { Overloads, type ArgInfo, type Candidate } from './overloads.js';

/** What to write instead of a game method that takes a delegate, by its name. */
const LINQ_INSTEAD: Readonly<Record<string, string>> = {
  Find: 'FirstOrDefault(x => ...) or a foreach loop with if/break',
  FindLast: 'LastOrDefault(x => ...) or a foreach loop',
  FindAll: 'Where(x => ...).ToList() or a foreach loop that collects',
  FindIndex: 'a for loop over the indices',
  Exists: 'Any(x => ...) or a foreach loop',
  TrueForAll: 'All(x => ...) or a foreach loop',
  RemoveAll: 'a for loop that calls RemoveAt from the end',
  Sort: 'OrderBy(x => ...) (it sorts a copy; the list is not changed)',
  ForEach: 'a foreach loop',
  ConvertAll: 'Select(x => ...).ToList() or a foreach loop',
  CountWhere: 'Count(x => ...) or a foreach loop that counts',
};

export class Calls {
  readonly overloads: Overloads;

  constructor(private readonly it: Interpreter) {
    this.overloads = new Overloads(it);
  }

  private get f() {
    return this.it.facts;
  }

  // ---------------------------------------------------------------- invocation

  async invocation(e: A.Invocation): Promise<Operand> {
    const t = e.target;
    if (t.kind === 'Name' && t.typeArgs.length === 0 && !t.alias && !this.it.locals.has(t.name)) {
      const fn = this.it.options.functions?.get(t.name);
      if (fn) return this.builtinCall(t.name, fn, e);
    }
    const linq = await this.it.linq.invocation(e);
    if (linq) return linq;
    const target = await this.it.resolveInChain(e.target);
    await this.refuseGameDelegates(e, target);
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
      if (c.method.isStatic && target.implicitThis)
        return this.call(c, undefined, args, e.arguments);
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
      (await this.f.isDelegate(target.op.type))
    ) {
      const invoke = (await this.it.md.members(target.op.type, 'Invoke')).methods;
      const written = this.withDefaults(e);
      const args = await this.arguments(written);
      const c = await this.overloads.resolve(invoke, args, [], 'Invoke', e.span);
      return this.call(c, target.op, args, written);
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

  /**
   * A local function's call with its optional parameters' values after the arguments written
   * (positional only, as the delegate it is held in has no optional parameters of its own).
   */
  private withDefaults(e: A.Invocation): A.Argument[] {
    if (e.target.kind !== 'Name') return e.arguments;
    const fn = this.it.locals.get(e.target.name)?.fn;
    if (!fn || e.arguments.length >= fn.parameters.length) return e.arguments;
    if (e.arguments.some((a) => a.name)) return e.arguments;
    const rest: A.Argument[] = [];
    for (const p of fn.parameters.slice(e.arguments.length)) {
      if (!p.defaultValue) return e.arguments;
      rest.push({
        kind: 'Argument',
        name: null,
        modifier: 'none',
        value: p.defaultValue,
        span: e.span,
      });
    }
    return [...e.arguments, ...rest];
  }

  /**
   * A lambda (or anonymous method) passed to a game method, a delegate or a builtin: no code can
   * be created inside the game, so the call is refused with the client-side form to write.
   */
  private async refuseGameDelegates(e: A.Invocation, target: Resolved): Promise<void> {
    const lambda = e.arguments.find((a) => a.value.kind === 'Lambda');
    if (!lambda) return;
    let name = 'the method';
    if (target.k === 'methods') {
      const owner = target.methods[0]?.declaringType;
      name = owner ? `${await this.f.name(owner)}.${target.name}` : target.name;
    }
    const method = target.k === 'methods' ? target.name : '';
    const instead = LINQ_INSTEAD[method] ?? 'a foreach loop over the collection';
    throw new UnsupportedError(
      `'${name}' takes a delegate, and a lambda cannot be passed to the game (no code can be ` +
        `created inside it): write ${instead} instead`,
      lambda.value.span,
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
  async arguments(list: readonly A.Argument[]): Promise<ArgInfo[]> {
    const out: ArgInfo[] = [];
    for (const a of list) {
      const name = a.name?.name;
      if (a.value.kind === 'OutDeclaration') {
        const d = a.value;
        const type = d.type === 'var' ? undefined : await this.it.types.type(d.type);
        const discard = d.name.name === '_' && !this.it.locals.has('_');
        if (!discard) this.it.variables.declareLocal(d.name.name, type ?? 'null', d.name.span);
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
        const t = await this.it.variables.target(a.value, a.modifier === 'out' ? 'write' : 'read');
        if (!t.place)
          throw new CompileError(
            'CS0206',
            'a property or indexer may not be passed as an out or ref parameter',
            a.span,
          );
        const op =
          a.modifier === 'ref' ? { ...t, value: await this.it.variables.readTarget(t) } : t;
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
  async call(
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
          this.it.variables.assignLocal(a.op.place.name, VOID);
      return { type: returnType, value: VOID };
    }
    const refs = m.parameters.some((p) => p.refKind === 'ref' || p.refKind === 'out');
    const r = await this.it.invoker.invokeOn(m, receiver, values, refs);
    if (refs && r.outArgs) {
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a.modifier !== 'ref' && a.modifier !== 'out') continue;
        const out = r.outArgs[c.map[i]!];
        if (out && a.op.place) await this.it.variables.write(a.op.place, out);
      }
    }
    return { type: returnType, value: r.result };
  }

  /** Each parameter's value: converted arguments, defaults, and the params array. */
  async argumentValues(c: Candidate, args: readonly ArgInfo[]): Promise<EvalValue[]> {
    const m = c.method;
    const params = m.parameters;
    const values: (EvalValue | undefined)[] = params.map(() => undefined);
    const rest: EvalValue[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const j = c.map[i]!;
      const conversion = c.conversions[i];
      let v: EvalValue;
      if (a.modifier === 'out') v = (await this.it.defaults.defaultValue(params[j]!.type)).value;
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
        values[j] = this.it.dry ? VOID : await this.it.arrays.newArrayOf(element, rest);
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
    if (!given) return (await this.it.defaults.defaultValue(type)).value;
    if (given.kind === 'null') return given;
    if (given.kind === 'number' && (await this.f.isEnum(type))) {
      const u = await this.f.enumUnderlying(type);
      return { kind: 'enum', type, underlying: u, value: given.value };
    }
    return given;
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
      for (const level of await this.it.members.searchOrder(t)) {
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
