// The evaluator: a visitor over the owned AST that decides everything on static types, as the
// C# compiler does, and touches the game only to read, write and call. A type-only mode ("dry")
// binds expressions C# would compile but not run (the untaken branch of ?:, the right side of
// && when the left is false...) so that what C# refuses, we refuse, whatever the values are.

import type { RowStats } from './linq/row-pull.js';
import type * as A from '../syntax/index.js';
import { unparse } from '../syntax/index.js';
import type { MetadataProvider, Runtime } from '../runtime.js';
import { Arrays } from './array-creation.js';
import { Assignments } from './assignment.js';
import { BinaryOperators } from './binary-operators.js';
import { Calls } from './calls.js';
import { Conditionals } from './conditional-operators.js';
import { Conversions } from './conversions.js';
import { Defaults } from './default-values.js';
import { CompileError, ManagedException, UnsupportedError } from './errors.js';
import { Elements } from './element-access.js';
import { EnclosingScope } from './enclosing-scope.js';
import { Interpolation } from './interpolation.js';
import { Invoker } from './invoke.js';
import { Literals } from './literals.js';
import { LocalScope } from './local-scope.js';
import { MemberAccesses } from './member-access.js';
import { MemberLookup } from './member-lookup.js';
import { MemberOperands } from './member-operands.js';
import { NullConditional } from './null-conditional.js';
import { Creation } from './object-creation.js';
import type { Operand, Resolved } from './operand.js';
import type { InterpreterOptions } from './options.js';
import { SimpleNames } from './simple-names.js';
import { Statements } from './statements.js';
import { Budget } from './budget.js';
import { Compiler } from './compiled.js';
import { ClientTypeRegistry, ClientTypes } from './client-types.js';
import { ClientValues } from './client-values.js';
import { Exceptions } from './exceptions.js';
import { Functions } from './functions.js';
import { Linq } from './linq/enumerable.js';
import { Loops } from './loops.js';
import { prefetching } from './prefetch.js';
import { Sequences } from './sequences.js';
import { SwitchStatements } from './switch-statement.js';
import { TypeFacts } from './type-facts.js';
import { TypeNames } from './type-names.js';
import { TypeOperators } from './type-operators.js';
import { TypeTests } from './type-tests.js';
import { UnaryOperators } from './unary-operators.js';
import { Variables } from './variables.js';
import { WellKnown } from './well-known.js';

export type { Local } from './local-scope.js';

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
  readonly statements: Statements;
  readonly nullConditional: NullConditional;
  readonly variables: Variables;
  readonly defaults: Defaults;
  readonly typeOperators: TypeOperators;
  readonly loops: Loops;
  readonly sequences: Sequences;
  readonly exceptions: Exceptions;
  readonly switches: SwitchStatements;
  readonly functions: Functions;
  readonly clientValues: ClientValues;
  readonly linq: Linq;
  /** Loop bodies and lambdas compiled to closures for the run. */
  readonly compiler: Compiler;
  /** The game's metadata with the evaluator's own types (anonymous types) added. */
  readonly clientTypes: ClientTypes;
  /** What binding found that running needs (a program's return type...), by node. */
  readonly notes: WeakMap<object, unknown>;
  readonly budget: Budget;
  /** What the row paths did (linq/row-pull.ts, compiled.ts rowLoop). */
  readonly rowStats: RowStats;
  /** > 0 while binding without running (the game is not touched). */
  dry = 0;
  /** The overflow context: default (unchecked at run time, checked for constants), checked, unchecked. */
  context: 'default' | 'checked' | 'unchecked' = 'default';
  /** The innermost scope of locals (statements push and pop scopes). */
  locals = new LocalScope();

  readonly rt: Runtime;

  constructor(
    runtime: Runtime,
    readonly options: InterpreterOptions,
    shared: { notes?: WeakMap<object, unknown>; budget?: Budget; rowStats?: RowStats } = {},
  ) {
    this.rowStats = shared.rowStats ?? { chunks: 0, fallbacks: 0 };
    this.notes = shared.notes ?? new WeakMap();
    this.budget = shared.budget ?? new Budget();
    let registry = this.notes.get(ClientTypeRegistry) as ClientTypeRegistry | undefined;
    if (!registry) this.notes.set(ClientTypeRegistry, (registry = new ClientTypeRegistry()));
    this.clientTypes = new ClientTypes(runtime.metadata, registry);
    this.rt = {
      metadata: this.clientTypes,
      // batched reads under the counting: their invokes are reads, not the program's effects
      game: this.budget.counting(
        prefetching(runtime.game, this.clientTypes, this.budget, runtime.metadata),
      ),
    };
    const rt = this.rt;
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
    this.statements = new Statements(this);
    this.nullConditional = new NullConditional(this);
    this.variables = new Variables(this);
    this.defaults = new Defaults(this);
    this.typeOperators = new TypeOperators(this);
    this.loops = new Loops(this);
    this.sequences = new Sequences(this);
    this.exceptions = new Exceptions(this);
    this.switches = new SwitchStatements(this);
    this.functions = new Functions(this);
    this.clientValues = new ClientValues(this);
    this.linq = new Linq(this);
    this.compiler = new Compiler(this);
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
  run(program: A.Program): Promise<Operand> {
    return this.statements.run(program);
  }

  /** An expression that must denote a value. */
  async expr(e: A.Expression): Promise<Operand> {
    const r = await this.resolve(e);
    return r.k === 'value' ? r.op : this.asValue(r, e);
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
   * A postfix chain holding `?.` or `?[` ends here (see null-conditional.ts).
   */
  resolve(e: A.Expression): Promise<Resolved> {
    return this.nullConditional.resolve(e);
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
    return this.nullConditional.inChain(e);
  }

  /**
   * One node of the visitor (resolve and resolveInChain come here). Names and member accesses,
   * the nodes of every loop body, are passed on without an async frame of their own.
   */
  resolveNode(e: A.Expression): Promise<Resolved> {
    if (e.kind === 'Name') return this.names.simpleName(e);
    if (e.kind === 'MemberAccess')
      return this.naming(e.target, () => this.memberAccess.memberAccess(e));
    return this.resolveOther(e);
  }

  private async resolveOther(e: Exclude<A.Expression, A.Name | A.MemberAccess>): Promise<Resolved> {
    switch (e.kind) {
      case 'Literal':
        return { k: 'value', op: await this.literals.literal(e) };
      case 'InterpolatedString':
        return { k: 'value', op: await this.interpolation.interpolated(e) };
      case 'PredefinedType':
        return { k: 'type', type: await this.types.type(e) };
      case 'This':
        return this.enclosing.thisAccess(e);
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
      case 'AnonymousObjectCreation':
        return { k: 'value', op: await this.clientValues.anonymous(e) };
      case 'ArrayCreation':
        return { k: 'value', op: await this.arrays.arrayCreation(e) };
      case 'Cast':
        return { k: 'value', op: await this.typeOperators.cast(e) };
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
        return { k: 'value', op: await this.typeOperators.typeOf(e) };
      case 'Default':
        return { k: 'value', op: await this.typeOperators.defaultOf(e) };
      case 'NameOf':
        return { k: 'value', op: await this.typeOperators.nameOf(e) };
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
      case 'Lambda':
        return { k: 'value', op: await this.functions.lambda(e) };
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
}

/** An expression as the agent might have written it (for messages): the canonical unparse, minus outer parentheses. */
function unparseSource(e: A.Expression): string {
  const text = unparse(e);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
