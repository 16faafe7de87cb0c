// The evaluator: a visitor over the owned AST that decides everything on static types, as the
// C# compiler does, and touches the game only to read, write and call. A type-only mode ("dry")
// binds expressions C# would compile but not run (the untaken branch of ?:, the right side of
// && when the left is false...) so that what C# refuses, we refuse, whatever the values are.

import type * as A from '../syntax/index.js';
import { unparse } from '../syntax/index.js';
import type { MetadataProvider, Runtime, TypeHandle } from '../runtime.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { Arrays } from './array-creation.js';
import { Assignments } from './assignment.js';
import { BinaryOperators } from './binary-operators.js';
import { Calls } from './calls.js';
import { Conditionals } from './conditional-operators.js';
import { Conversions } from './conversions.js';
import { CompileError, ManagedException, Messages, UnsupportedError } from './errors.js';
import { Elements } from './element-access.js';
import { Interpolation } from './interpolation.js';
import { Invoker } from './invoke.js';
import { Literals } from './literals.js';
import { EnclosingScope } from './enclosing-scope.js';
import { MemberAccesses } from './member-access.js';
import { MemberLookup } from './member-lookup.js';
import { MemberOperands } from './member-operands.js';
import { Creation } from './object-creation.js';
import type { Operand, Place, Resolved } from './operand.js';
import type { EvalScope } from './scope.js';
import { SimpleNames } from './simple-names.js';
import { TypeFacts, type SType } from './type-facts.js';
import { TypeNames } from './type-names.js';
import { TypeTests } from './type-tests.js';
import { UnaryOperators } from './unary-operators.js';
import { WellKnown } from './well-known.js';

export interface Builtin {
  readonly type: TypeHandle;
  value(): Promise<EvalValue>;
}

/** A function the program can call by name: `entity(index)`, `entity(index, version)`. */
export interface BuiltinFunction {
  readonly returnType: TypeHandle;
  /** Accepted parameter lists; the arguments convert implicitly to one of the same length. */
  readonly signatures: readonly (readonly TypeHandle[])[];
  call(args: readonly EvalValue[]): Promise<EvalValue>;
}

export interface InterpreterOptions {
  /** Namespaces imported by `using` (C#'s default set for a Unity script, plus any extra). */
  readonly usings: readonly string[];
  /** Also find a type by its simple name in any namespace when unique (not C#: a convenience). */
  readonly anyNamespace: boolean;
  /** Names that stand for game objects (world, em) and the previous call's value (`_`). */
  readonly builtins?: ReadonlyMap<string, Builtin>;
  readonly functions?: ReadonlyMap<string, BuiltinFunction>;
  /** Evaluating inside a method (a debugger's frame): its variables, `this`, enclosing type. */
  readonly scope?: EvalScope;
}

export interface Local {
  type: SType;
  value: EvalValue;
  assigned: boolean;
}

export class Interpreter {
  readonly facts: TypeFacts;
  readonly wk: WellKnown;
  readonly conversions: Conversions;
  readonly literals: Literals;
  readonly unaryOperators: UnaryOperators;
  readonly binaryOperators: BinaryOperators;
  readonly conditionals: Conditionals;
  readonly typeTests: TypeTests;
  readonly assignments: Assignments;
  readonly calls: Calls;
  readonly invoker: Invoker;
  readonly elements: Elements;
  readonly creation: Creation;
  readonly arrays: Arrays;
  readonly interpolation: Interpolation;
  readonly types: TypeNames;
  readonly names: SimpleNames;
  readonly enclosing: EnclosingScope;
  readonly members: MemberLookup;
  readonly memberAccess: MemberAccesses;
  readonly memberOperands: MemberOperands;
  /** > 0 while binding without running (the game is not touched). */
  dry = 0;
  /** Null-conditional accesses whose null receiver made the rest of their chain dry. */
  private shortCircuits = 0;
  /** The overflow context: default (unchecked at run time, checked for constants), checked, unchecked. */
  context: 'default' | 'checked' | 'unchecked' = 'default';
  readonly locals = new Map<string, Local>();

  constructor(
    readonly rt: Runtime,
    readonly options: InterpreterOptions,
  ) {
    this.facts = new TypeFacts(rt.metadata);
    this.wk = new WellKnown(rt.metadata);
    this.conversions = new Conversions(this);
    this.literals = new Literals(this);
    this.unaryOperators = new UnaryOperators(this);
    this.binaryOperators = new BinaryOperators(this);
    this.conditionals = new Conditionals(this);
    this.typeTests = new TypeTests(this);
    this.assignments = new Assignments(this);
    this.calls = new Calls(this);
    this.invoker = new Invoker(this);
    this.elements = new Elements(this);
    this.creation = new Creation(this);
    this.arrays = new Arrays(this);
    this.interpolation = new Interpolation(this);
    this.types = new TypeNames(this);
    this.names = new SimpleNames(this);
    this.enclosing = new EnclosingScope(this);
    this.members = new MemberLookup(this);
    this.memberAccess = new MemberAccesses(this);
    this.memberOperands = new MemberOperands(this);
  }

  get md(): MetadataProvider {
    return this.rt.metadata;
  }

  get checked(): boolean {
    return this.context === 'checked';
  }

  get constantContext(): 'checked' | 'unchecked' {
    return this.context === 'unchecked' ? 'unchecked' : 'checked';
  }

  async inDry<T>(fn: () => Promise<T>): Promise<T> {
    this.dry++;
    try {
      return await fn();
    } finally {
      this.dry--;
    }
  }

  /** Runs a program; its value is the last statement's (a declaration's is its variable's). */
  async run(program: A.Program): Promise<Operand> {
    let last: Operand = { type: await this.wk.keyword('void'), value: VOID };
    const n = program.statements.length;
    for (const [i, s] of program.statements.entries()) {
      if (s.kind === 'LocalDeclaration') {
        last = await this.declare(s);
        const name = s.declarators.at(-1)?.name.name;
        // a declaration ending the program is its value: the variable must hold one
        if (i === n - 1 && name && !this.locals.get(name)?.assigned) {
          throw new CompileError('CS0165', `use of unassigned local variable '${name}'`, s.span);
        }
      } else
        last = i === n - 1 ? await this.expr(s.expression) : await this.statement(s.expression);
    }
    return last;
  }

  /**
   * A statement before the last: C# allows only calls, assignments, ++/--, and object creation
   * (CS0201). The last one is the program's value, so any expression may end a program.
   */
  private async statement(e: A.Expression): Promise<Operand> {
    let inner = e;
    while (inner.kind === 'Parenthesized') inner = inner.expression;
    const allowed =
      inner === e &&
      (e.kind === 'Invocation' ||
        e.kind === 'Assignment' ||
        e.kind === 'ObjectCreation' ||
        (e.kind === 'Unary' && (e.operator === '++' || e.operator === '--')) ||
        (e.kind === 'Postfix' && e.operator !== '!'));
    if (!allowed)
      throw new CompileError(
        'CS0201',
        'only assignment, call, increment, decrement and new object expressions can be used as a statement',
        e.span,
      );
    return this.expr(e);
  }

  private async declare(d: A.LocalDeclaration): Promise<Operand> {
    let last: Operand | undefined;
    for (const v of d.declarators) {
      const name = v.name.name;
      if (this.locals.has(name))
        throw new CompileError(
          'CS0128',
          `a local variable named '${name}' is already defined`,
          v.name.span,
        );
      if (this.options.scope?.variables.has(name))
        throw new CompileError(
          'CS0136',
          `a local named '${name}' cannot be declared here: the method already has a variable of that name`,
          v.name.span,
        );
      if (d.type === 'var') {
        if (!v.initializer)
          throw new CompileError(
            'CS0818',
            `an implicitly typed local needs an initializer ('${name}')`,
            v.span,
          );
        if (v.initializer.kind === 'ArrayInitializer')
          throw new CompileError(
            'CS0820',
            'cannot initialize an implicitly typed local with an array initializer',
            v.span,
          );
        const init = await this.expr(v.initializer);
        if (init.type === 'null')
          throw new CompileError(
            'CS0815',
            `cannot assign <null> to an implicitly typed local ('${name}')`,
            v.span,
          );
        if (init.type.key === (await this.wk.keyword('void')).key)
          throw new CompileError(
            'CS0815',
            `cannot assign void to an implicitly typed local ('${name}')`,
            v.span,
          );
        this.locals.set(name, { type: init.type, value: init.value, assigned: true });
        last = { type: init.type, value: init.value, place: { k: 'local', name } };
        continue;
      }
      const type = await this.types.type(d.type);
      let value: EvalValue = NULL;
      let assigned = false;
      if (v.initializer) {
        const init =
          v.initializer.kind === 'ArrayInitializer'
            ? await this.arrays.arrayFromInitializer(type, v.initializer)
            : await this.conversions.implicitly(
                await this.expr(v.initializer),
                type,
                `the initializer of '${name}'`,
              );
        value = init.value;
        assigned = true;
      }
      this.locals.set(name, { type, value, assigned });
      last = { type, value, place: { k: 'local', name } };
    }
    if (!last) throw new CompileError('CS1001', 'a declaration needs a variable', d.span);
    return last;
  }

  /** An expression that must denote a value. */
  async expr(e: A.Expression): Promise<Operand> {
    const r = await this.resolve(e);
    return this.asValue(r, e);
  }

  async asValue(r: Resolved, e: A.Node): Promise<Operand> {
    switch (r.k) {
      case 'value':
        return r.op;
      case 'type':
        throw new CompileError(
          'CS0119',
          `'${await this.facts.name(r.type)}' is a type, which is not valid in the given context`,
          e.span,
        );
      case 'namespace':
        throw new CompileError(
          'CS0118',
          `'${r.name}' is a namespace but is used like a variable`,
          e.span,
        );
      case 'methods':
        throw new CompileError(
          'CS0428',
          `cannot use the method group '${r.name}' as a value: call it`,
          e.span,
        );
    }
  }

  /**
   * Any expression: names and member accesses may also denote types, namespaces and methods.
   * A postfix chain holding `?.` or `?[` ends here: when its receiver was null the rest of the
   * chain was bound without running (dry), and the whole chain is null (§12.8.8).
   */
  async resolve(e: A.Expression): Promise<Resolved> {
    if (!isChainNode(e) || !hasConditional(e)) return this.resolveNode(e);
    const mark = this.shortCircuits;
    let r: Resolved;
    let shorted = false;
    try {
      r = await this.resolveNode(e);
    } finally {
      if (this.shortCircuits > mark) {
        shorted = true;
        this.dry -= this.shortCircuits - mark;
        this.shortCircuits = mark;
      }
    }
    if (r.k !== 'value') return r;
    const t = r.op.type;
    if (t === 'null') return r;
    // a void call stays void: `a?.M()` is a statement, not a value
    if (await this.types.isVoid(t)) return { k: 'value', op: { type: t, value: VOID } };
    let type: TypeHandle = t;
    if ((await this.facts.isValueType(t)) && !(await this.facts.nullableUnderlying(t)))
      type = await this.types.nullableOf(t);
    return { k: 'value', op: { type, value: shorted ? NULL : r.op.value } };
  }

  /**
   * Runs an access on `target`; a NullReferenceException it raises itself (not one the game
   * threw) is told which part was null, in the program's own words.
   */
  async naming<T>(target: A.Expression, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ManagedException && e.type === 'System.NullReferenceException' && !e.hint) {
        e.hint = `'${unparseSource(target)}' is null`;
      }
      throw e;
    }
  }

  /** The target of a member access, invocation or element access: part of the same chain. */
  resolveInChain(e: A.Expression): Promise<Resolved> {
    return isChainNode(e) ? this.resolveNode(e) : this.resolve(e);
  }

  /** `x?.` / `x?[`: a null x makes the rest of the chain type-only (see resolve). */
  async conditionalReceiver(op: Operand, span: A.Span): Promise<Operand> {
    const t = op.type as TypeHandle;
    if ((await this.facts.isValueType(t)) && !(await this.facts.nullableUnderlying(t))) {
      throw new CompileError(
        'CS0023',
        `the '?' operator cannot be applied to operand of type '${await this.facts.name(t)}'`,
        span,
      );
    }
    const underlying = await this.facts.nullableUnderlying(t);
    if (!this.dry && op.value.kind === 'null') {
      this.dry++;
      this.shortCircuits++;
    }
    // the receiver of x?.m is x's value (for Nullable<T>, the T inside)
    return { type: underlying ?? t, value: op.value };
  }

  private async resolveNode(e: A.Expression): Promise<Resolved> {
    switch (e.kind) {
      case 'Literal':
        return { k: 'value', op: await this.literals.literal(e) };
      case 'InterpolatedString':
        return { k: 'value', op: await this.interpolation.interpolated(e) };
      case 'Name':
        return this.names.simpleName(e);
      case 'PredefinedType':
        return { k: 'type', type: await this.types.type(e) };
      case 'This':
        return this.enclosing.thisAccess(e);
      case 'MemberAccess':
        return this.naming(e.target, () => this.memberAccess.memberAccess(e));
      case 'Invocation':
        // a call's receiver is what was null (`a.b.M()`: 'a.b')
        return {
          k: 'value',
          op: await this.naming(e.target.kind === 'MemberAccess' ? e.target.target : e.target, () =>
            this.calls.invocation(e),
          ),
        };
      case 'ElementAccess':
        return {
          k: 'value',
          op: await this.naming(e.target, () => this.elements.elementAccess(e)),
        };
      case 'ObjectCreation':
        return { k: 'value', op: await this.creation.objectCreation(e) };
      case 'ArrayCreation':
        return { k: 'value', op: await this.arrays.arrayCreation(e) };
      case 'Cast':
        return { k: 'value', op: await this.cast(e) };
      case 'Unary':
        return { k: 'value', op: await this.unaryOperators.unary(e) };
      case 'Postfix':
        if (e.operator === '!') return this.resolveInChain(e.operand);
        return { k: 'value', op: await this.unaryOperators.postfix(e) };
      case 'Binary':
        return { k: 'value', op: await this.binaryOperators.binary(e) };
      case 'Coalesce':
        return { k: 'value', op: await this.conditionals.coalesce(e) };
      case 'Assignment':
        return { k: 'value', op: await this.assignments.assignment(e) };
      case 'Conditional':
        return { k: 'value', op: await this.conditionals.conditional(e) };
      case 'Is':
        return { k: 'value', op: await this.typeTests.is(e) };
      case 'As':
        return { k: 'value', op: await this.typeTests.as(e) };
      case 'TypeOf':
        return { k: 'value', op: await this.typeOf(e) };
      case 'Default':
        return { k: 'value', op: await this.defaultOf(e) };
      case 'NameOf':
        return { k: 'value', op: await this.nameOf(e) };
      case 'Checked':
        return {
          k: 'value',
          op: await this.inContext(e.checked ? 'checked' : 'unchecked', () =>
            this.expr(e.expression),
          ),
        };
      case 'Parenthesized': {
        const r = await this.resolve(e.expression);
        // parentheses make a value of a variable or property (no longer assignable, §12.7.4)
        return r.k === 'value'
          ? {
              k: 'value',
              op: {
                type: r.op.type,
                value: r.op.value,
                ...(r.op.constant ? { constant: r.op.constant } : {}),
                ...(r.op.place ? { place: r.op.place } : {}),
              },
            }
          : r;
      }
      case 'SizeOf':
        throw new UnsupportedError('sizeof is not supported', e.span);
      case 'Error':
        throw new CompileError('CS1525', 'the program has a syntax error here', e.span);
    }
  }

  async inContext<T>(context: 'checked' | 'unchecked', fn: () => Promise<T>): Promise<T> {
    const saved = this.context;
    this.context = context;
    try {
      return await fn();
    } finally {
      this.context = saved;
    }
  }

  private async cast(e: A.Cast): Promise<Operand> {
    const to = await this.types.type(e.type);
    const from = await this.expr(e.operand);
    const c = await this.conversions.explicit(from, to);
    if (!c) {
      if (from.type === 'null') {
        throw new CompileError(
          'CS0037',
          `cannot convert null to '${await this.facts.name(to)}' because it is a non-nullable value type`,
          e.span,
        );
      }
      throw new CompileError(
        'CS0030',
        `cannot convert type '${await this.facts.name(from.type)}' to '${await this.facts.name(to)}'`,
        e.span,
      );
    }
    return this.conversions.apply(c, from, to, this.checked);
  }

  private async typeOf(e: A.TypeOf): Promise<Operand> {
    const type = await this.types.type(e.type, { allowVoid: true, allowUnbound: true });
    const systemType = await this.wk.named('System.Type');
    if (this.dry) return { type: systemType, value: VOID };
    return { type: systemType, value: await this.rt.game.typeObject(type) };
  }

  private async defaultOf(e: A.Default): Promise<Operand> {
    if (!e.type)
      throw new UnsupportedError('the default literal needs a type here: write default(T)', e.span);
    const type = await this.types.type(e.type);
    return this.defaultValue(type);
  }

  /** default(T): zero for primitives and enums, null for references, a zeroed struct. */
  async defaultValue(type: TypeHandle): Promise<Operand> {
    const p = await this.facts.primitive(type);
    if (p) return this.literals.constantOperand(type, this.literals.zero(p));
    if (await this.facts.isEnum(type)) {
      const u = await this.facts.enumUnderlying(type);
      return {
        type,
        value: { kind: 'enum', type, underlying: u, value: u === 'long' || u === 'ulong' ? 0n : 0 },
      };
    }
    if ((await this.facts.nullableUnderlying(type)) || !(await this.facts.isValueType(type))) {
      return (await this.facts.isString(type))
        ? { type, value: NULL, constant: { kind: 'null' } }
        : { type, value: NULL };
    }
    return { type, value: await this.zeroStruct(type) };
  }

  async zeroStruct(type: TypeHandle): Promise<EvalValue> {
    const fields = (await this.md.allFields(type)).filter((f) => !f.isStatic);
    const values: EvalValue[] = [];
    for (const f of fields) values.push((await this.defaultValue(f.type)).value);
    return { kind: 'struct', type, fields: values };
  }

  private async nameOf(e: A.NameOf): Promise<Operand> {
    const a = e.argument;
    const name = a.kind === 'Name' ? a.name : a.kind === 'MemberAccess' ? a.name.name : undefined;
    if (!name) throw new CompileError('CS8081', 'nameof needs a simple or member name', e.span);
    await this.inDry(() => this.resolve(a)); // it must name something
    const type = await this.wk.keyword('string');
    return {
      type,
      value: { kind: 'string', text: name },
      constant: { kind: 'string', value: name },
    };
  }

  // ------------------------------------------------------------------ variables

  localOperand(name: string, span: A.Span, mode: 'read' | 'write' = 'read'): Operand | undefined {
    const l = this.locals.get(name);
    if (!l) return undefined;
    if (mode === 'read' && !l.assigned)
      throw new CompileError('CS0165', `use of unassigned local variable '${name}'`, span);
    return { type: l.type, value: l.value, place: { k: 'local', name } };
  }

  /**
   * What an assignment, ++/-- or ref/out argument writes to: a variable or a property, with
   * its receiver and indices evaluated but (in 'write' mode) its current value not read.
   */
  async target(e: A.Expression, mode: 'read' | 'write' = 'write'): Promise<Operand> {
    const conditional = (e.kind === 'MemberAccess' || e.kind === 'ElementAccess') && e.conditional;
    if (conditional)
      throw new CompileError(
        'CS0131',
        'the left-hand side of an assignment cannot be a null-conditional access',
        e.span,
      );
    let r: Resolved;
    if (e.kind === 'Name') r = await this.names.simpleName(e, mode);
    else if (e.kind === 'This') r = await this.enclosing.thisAccess(e, mode);
    else if (e.kind === 'MemberAccess')
      r = await this.naming(e.target, () => this.memberAccess.memberAccess(e, mode));
    else if (e.kind === 'ElementAccess')
      r = {
        k: 'value',
        op: await this.naming(e.target, () => this.elements.elementAccess(e, mode)),
      };
    else if (e.kind === 'Parenthesized') return this.target(e.expression, mode);
    else
      throw new CompileError(
        'CS0131',
        'the left-hand side of an assignment must be a variable, a property or an indexer',
        e.span,
      );
    const op = await this.asValue(r, e);
    if (!op.place && !op.property)
      throw new CompileError(
        'CS0131',
        'the left-hand side of an assignment must be a variable, a property or an indexer',
        e.span,
      );
    await this.checkWritable(op, e.span);
    return op;
  }

  /**
   * C# refuses writes to readonly fields (outside constructors): the field itself (CS0191,
   * CS0198 static) and the members of a readonly struct field, fields or properties (CS1648,
   * CS1650 static), however deep.
   */
  private async checkWritable(op: Operand, span: A.Span): Promise<void> {
    const place = op.place;
    if (place && (place.k === 'static' || place.k === 'field' || place.k === 'struct-field')) {
      if (place.field.isReadOnly) {
        throw new CompileError(
          place.field.isStatic ? 'CS0198' : 'CS0191',
          `a ${place.field.isStatic ? 'static ' : ''}readonly field ('${place.field.name}') cannot be assigned to`,
          span,
        );
      }
    }
    // the struct variables the write changes: a field's parents, or a struct property's receiver
    let p: Place | undefined = place?.k === 'struct-field' ? place.parent : undefined;
    if (
      op.property?.receiverPlace &&
      (await this.facts.isValueType(op.property.property.declaringType))
    )
      p = op.property.receiverPlace;
    for (; p; p = p.k === 'struct-field' ? p.parent : undefined) {
      if ((p.k === 'static' || p.k === 'field' || p.k === 'struct-field') && p.field.isReadOnly) {
        const isStatic = p.k === 'static';
        throw new CompileError(
          isStatic ? 'CS1650' : 'CS1648',
          isStatic
            ? `fields of static readonly field '${p.field.name}' cannot be assigned to`
            : `members of readonly field '${p.field.name}' cannot be modified`,
          span,
        );
      }
    }
  }

  /** Whether a variable is (inside) a readonly field: a struct method called on it runs on a copy. */
  isReadOnlyPlace(place: Place): boolean {
    for (let p: Place | undefined = place; p; p = p.k === 'struct-field' ? p.parent : undefined) {
      if ((p.k === 'static' || p.k === 'field' || p.k === 'struct-field') && p.field.isReadOnly)
        return true;
    }
    return false;
  }

  /** The current value of an assignment target. */
  async readTarget(t: Operand): Promise<EvalValue> {
    if (this.dry) return VOID;
    if (t.place) return this.read(t.place);
    if (t.property) {
      if (!t.property.property.getter)
        throw new CompileError(
          'CS0154',
          `the property or indexer '${t.property.property.name}' lacks a get accessor`,
        );
      return this.invoker.callGetter(t.property);
    }
    return t.value;
  }

  /** Stores into an assignment target (a variable, or a property through its setter). */
  async store(t: Operand, value: EvalValue): Promise<void> {
    if (this.dry) return;
    if (t.place) return this.write(t.place, value);
    if (t.property) return this.invoker.callSetter(t.property, value);
  }

  /** Reads a variable's current value. */
  async read(place: Place): Promise<EvalValue> {
    if (this.dry) return VOID;
    switch (place.k) {
      case 'local':
        return this.locals.get(place.name)!.value;
      case 'static':
        return this.rt.game.readStatic(place.field);
      case 'field':
        return this.rt.game.readField(place.target, place.field);
      case 'struct-field': {
        const parent = await this.read(place.parent);
        if (parent.kind !== 'struct') throw new Error('a struct field of a non-struct');
        return parent.fields[place.index]!;
      }
      case 'element':
        return this.rt.game.readElement(place.array, place.index);
      case 'scope':
        return place.variable.read();
    }
  }

  /** Writes a variable; a field of a struct is written by writing the whole struct back. */
  async write(place: Place, value: EvalValue): Promise<void> {
    if (this.dry) return;
    switch (place.k) {
      case 'local': {
        const l = this.locals.get(place.name)!;
        l.value = value;
        l.assigned = true;
        return;
      }
      case 'static':
        return this.rt.game.writeStatic(place.field, value);
      case 'field':
        if (place.target.kind === 'null') throw Messages.nullReference();
        return this.rt.game.writeField(place.target, place.field, value);
      case 'struct-field': {
        const parent = await this.read(place.parent);
        if (parent.kind !== 'struct') throw new Error('a struct field of a non-struct');
        const fields = [...parent.fields];
        fields[place.index] = value;
        return this.write(place.parent, { ...parent, fields });
      }
      case 'element':
        return this.rt.game.writeElement(place.array, place.index, value);
      case 'scope':
        if (!place.variable.write)
          throw new CompileError('CS1604', `cannot assign to '${place.name}': it is read-only`);
        return place.variable.write(value);
    }
  }

  /** Marks a local assigned (out arguments), without a value in dry mode. */
  assignLocal(name: string, value: EvalValue): void {
    const l = this.locals.get(name);
    if (l) {
      l.value = value;
      l.assigned = true;
    }
  }

  declareLocal(name: string, type: SType, span: A.Span): void {
    if (this.locals.has(name))
      throw new CompileError('CS0128', `a local variable named '${name}' is already defined`, span);
    this.locals.set(name, { type, value: NULL, assigned: false });
  }
}

const CHAIN_KINDS = new Set(['MemberAccess', 'Invocation', 'ElementAccess', 'Postfix']);

function isChainNode(e: A.Expression): boolean {
  return CHAIN_KINDS.has(e.kind) && (e.kind !== 'Postfix' || e.operator === '!');
}

/** Whether a `?.` or `?[` occurs in the postfix chain ending at e. */
function hasConditional(e: A.Expression): boolean {
  for (let n: A.Expression = e; isChainNode(n);) {
    if ((n.kind === 'MemberAccess' || n.kind === 'ElementAccess') && n.conditional) return true;
    n =
      n.kind === 'Postfix'
        ? n.operand
        : (n as A.MemberAccess | A.Invocation | A.ElementAccess).target;
  }
  return false;
}

/** An expression as the agent might have written it (for messages): the canonical unparse, minus outer parentheses. */
function unparseSource(e: A.Expression): string {
  const text = unparse(e);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
