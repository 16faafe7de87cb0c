// Lambdas and local functions (§12.19, §13.6.4), run client-side: a lambda converted to a
// delegate type (Func<>, Action<>, Predicate<>, Comparison<>, any delegate type with an Invoke)
// takes its parameter types from the target and is bound once per conversion; its value is a
// client delegate that runs its body in the interpreter. Captured variables are shared, not
// copied: the body's scope is a child of the scope the lambda was made in, whose cells are the
// variables themselves (a `for` variable is one cell for all iterations; a `foreach` body has
// a fresh scope, so a fresh variable, per iteration). A local function is such a delegate too,
// declared in its whole block before its statements run (so called before its declaration,
// recursively, and capturing what the block declares later).

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { VOID, type EvalValue } from '../values.js';
import type { ClientDelegate } from './client-values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import { rowLambda, type RowLambda } from './row-lambdas.js';
import { LocalScope, type Local } from './local-scope.js';
import type { Maybe } from './maybe.js';
import { restoring, type CompiledExpression } from './compiled.js';
import type { Operand } from './operand.js';
import type { FunctionFrame } from './statements.js';
import type { SType } from './type-facts.js';

/** A delegate type's Invoke signature; `returnType` undefined for void. */
export interface DelegateSignature {
  readonly parameters: readonly TypeHandle[];
  readonly returnType: TypeHandle | undefined;
}

/** A function body the interpreter runs: a lambda's or a local function's. */
interface Body {
  readonly parameters: readonly A.Parameter[];
  readonly body: A.Expression | A.Block;
  readonly span: A.Span;
}

/** A client-side function: what a lambda or local function becomes once bound. */
export interface ClientFunction {
  (args: readonly EvalValue[]): Promise<EvalValue>;
  /**
   * The same call, compiled (compiled.ts): its value without a promise when nothing in it
   * waits. A lambda with an expression body has one; LINQ's operators call it per element.
   */
  fast?: (args: readonly EvalValue[]) => Maybe<EvalValue>;
  /**
   * The lambda as a function of a row of numbers, when its body is one (row-lambdas.ts):
   * bound at the first ask, once.
   */
  row?: () => Promise<RowLambda | undefined>;
}

const FUNC_ARITY = 17;

export class Functions {
  constructor(private readonly it: Interpreter) {}

  // ---------------------------------------------------------------- delegate types

  /** The Invoke signature of a delegate type, or undefined for any other type. */
  async signature(type: SType): Promise<DelegateSignature | undefined> {
    if (type === 'null') return undefined;
    if (!(await this.it.facts.isDelegate(type))) return undefined;
    const d = await this.it.facts.describe(type);
    // the BCL's generic delegates by their arguments (no member lookup needed)
    if (d.genericDefinition) {
      const def = (await this.it.facts.describe(d.genericDefinition)).fullName;
      const args = d.typeArguments;
      const bool = await this.it.wk.keyword('bool');
      const int = await this.it.wk.keyword('int');
      if (def.startsWith('System.Func`'))
        return { parameters: args.slice(0, -1), returnType: args.at(-1) };
      if (def.startsWith('System.Action`')) return { parameters: args, returnType: undefined };
      if (def === 'System.Predicate`1') return { parameters: args, returnType: bool };
      if (def === 'System.Comparison`1' && args[0])
        return { parameters: [args[0], args[0]], returnType: int };
    }
    const invoke = (await this.it.md.members(type, 'Invoke')).methods.find((m) => !m.isStatic);
    if (!invoke) return undefined;
    if (invoke.parameters.some((p) => p.refKind !== 'none'))
      throw new UnsupportedError(
        `a lambda for '${await this.it.facts.name(type)}' would take ref or out parameters, which are not supported`,
      );
    return { parameters: invoke.parameters.map((p) => p.type), returnType: invoke.returnType };
  }

  /** Func<...> or Action<...> of a signature (a local function's type, a query's lambdas). */
  async delegateType(
    parameters: readonly TypeHandle[],
    returnType: TypeHandle | undefined,
    span: A.Span,
  ): Promise<TypeHandle> {
    if (parameters.length >= FUNC_ARITY)
      throw new UnsupportedError('a function of more than 16 parameters is not supported', span);
    if (!returnType && parameters.length === 0) return this.it.wk.named('System.Action');
    const name = returnType
      ? `System.Func\`${parameters.length + 1}`
      : `System.Action\`${parameters.length}`;
    const def = await this.it.wk.named(name);
    return this.it.md.constructGeneric(def, returnType ? [...parameters, returnType] : parameters);
  }

  // ---------------------------------------------------------------- lambdas

  /** An expression converted to a known type: a lambda takes the delegate type's signature. */
  async target(e: A.Expression, type: SType): Promise<Operand> {
    const lambda = unparenthesized(e);
    if (lambda.kind !== 'Lambda' || type === 'null') return this.it.expr(e);
    const sig = await this.signature(type);
    if (!sig)
      throw new CompileError(
        'CS1660',
        `cannot convert a lambda expression to type '${await this.it.facts.name(type)}' because it is not a delegate type`,
        lambda.span,
      );
    const call = await this.function(lambda, sig.parameters, sig.returnType ?? 'void');
    if (this.it.dry) return { type, value: VOID };
    return { type, value: this.delegateValue(type, sig, call!) };
  }

  /** A lambda with no type to convert to (`var f = x => x`, `object o = () => 1`). */
  lambda(e: A.Lambda): Promise<Operand> {
    throw new CompileError(
      'CS1660',
      'cannot convert a lambda expression to a type that is not a delegate type: declare it with one (Func<int, int> f = x => ...)',
      e.span,
    );
  }

  /**
   * Binds a lambda for these parameter types and returns it as a client function (undefined
   * while binding); `returnType` 'infer' finds the type its body returns (§12.6.3.13), which
   * `inferred` then holds.
   */
  async function(
    e: A.Lambda,
    parameters: readonly TypeHandle[],
    returnType: TypeHandle | 'void' | 'infer',
  ): Promise<ClientFunction | undefined> {
    return (await this.bindLambda(e, parameters, returnType)).call;
  }

  /** A lambda bound for these parameter types: its return type and (running) its function. */
  async bindLambda(
    e: Body,
    parameters: readonly TypeHandle[],
    returnType: TypeHandle | 'void' | 'infer',
  ): Promise<{ returnType: SType | 'void'; call: ClientFunction | undefined }> {
    if (e.parameters.length !== parameters.length)
      throw new CompileError(
        'CS1593',
        `the delegate takes ${parameters.length} argument${parameters.length === 1 ? '' : 's'}, the lambda ${e.parameters.length}`,
        e.span,
      );
    for (const [i, p] of e.parameters.entries()) {
      if (!p.type) continue;
      const declared = await this.it.types.type(p.type);
      if (!this.it.facts.same(declared, parameters[i]!))
        throw new CompileError(
          'CS1661',
          `the lambda's parameter '${p.name.name}' is declared '${await this.it.facts.name(declared)}' but the delegate passes '${await this.it.facts.name(parameters[i]!)}'`,
          p.span,
        );
    }
    const key = `${parameters.map((p) => p.key).join(',')}->${typeof returnType === 'string' ? returnType : returnType.key}`;
    let memo = this.it.notes.get(e) as Map<string, SType | 'void'> | undefined;
    if (!memo) this.it.notes.set(e, (memo = new Map()));
    let result = memo.get(key);
    if (result === undefined || this.it.dry) {
      const captured = this.it.locals;
      const r = await this.it.inDry(() => this.runBody(e, captured, parameters, returnType, []));
      memo.set(key, r.type);
      result = r.type;
    }
    if (this.it.dry) return { returnType: result, call: undefined };
    const captured = this.it.locals;
    const concrete: TypeHandle | 'void' = result === 'null' ? 'void' : result;
    const call: ClientFunction = async (args) =>
      (await this.runBody(e, captured, parameters, concrete, args)).value;
    if (e.body.kind !== 'Block' && concrete !== 'void' && !this.it.options.interpretOnly) {
      call.fast = this.compiledCall(e, e.body, captured, parameters, concrete, call);
      if (parameters.length === 1) {
        const body = { parameters: e.parameters, body: e.body };
        let row: Promise<RowLambda | undefined> | undefined;
        call.row = () => (row ??= rowLambda(this.it, body, captured, parameters[0]!, concrete));
      }
    }
    return { returnType: result, call };
  }

  /**
   * A lambda's expression body as runBody runs it, compiled at its first call (in a scope of
   * that call's shape); a body whose value needs a conversion to the return type is left to
   * `slow`.
   */
  private compiledCall(
    e: Body,
    body: A.Expression,
    captured: LocalScope,
    parameters: readonly TypeHandle[],
    returnType: TypeHandle,
    slow: ClientFunction,
  ): (args: readonly EvalValue[]) => Maybe<EvalValue> {
    const it = this.it;
    const names = e.parameters.map((p) => p.name.name);
    let compiled: (CompiledExpression & { readonly whole: boolean }) | null | undefined;
    let compiling: Promise<void> | undefined;
    // a body compiled whole keeps nothing of a call (no closure, no call of its own function):
    // one scope serves every call that does not overlap another
    const cells: Local[] = names.map((_, i) => ({
      type: parameters[i]!,
      value: VOID,
      assigned: true,
    }));
    const only = new LocalScope(captured);
    names.forEach((n, i) => only.set(n, cells[i]!));
    let busy = false;
    const idle = (): void => {
      busy = false;
    };
    const run = (args: readonly EvalValue[]): Maybe<EvalValue> => {
      if (!compiled) return slow(args);
      it.budget.iteration(e.span);
      const saved = it.locals;
      let scope: LocalScope;
      if (compiled.whole && !busy) {
        busy = true;
        for (let i = 0; i < cells.length; i++) cells[i]!.value = args[i] ?? VOID;
        scope = only;
      } else {
        scope = new LocalScope(captured);
        for (let i = 0; i < names.length; i++)
          scope.set(names[i]!, { type: parameters[i]!, value: args[i] ?? VOID, assigned: true });
      }
      it.locals = scope;
      if (scope !== only) return restoring(it, saved, compiled.run);
      let r: Maybe<EvalValue>;
      try {
        r = restoring(it, saved, compiled.run);
      } catch (err) {
        busy = false;
        throw err;
      }
      if (r instanceof Promise) return r.finally(idle);
      busy = false;
      return r;
    };
    const fast = (args: readonly EvalValue[]): Maybe<EvalValue> => {
      if (compiled !== undefined) return run(args);
      compiling ??= it.compiler
        .lambdaBody(
          body,
          names.map((name, i) => ({ name, type: parameters[i]! })),
          captured,
          returnType,
        )
        .then((c) => {
          compiled = c ?? null;
        });
      return compiling.then(() => run(args));
    };
    return fast;
  }

  /**
   * Runs (or, dry, binds) a body with its parameters bound to `args` in a scope under
   * `captured`, in a frame of its own (its returns are its own, break cannot leave it).
   */
  private async runBody(
    e: Body,
    captured: LocalScope,
    parameters: readonly TypeHandle[],
    returnType: TypeHandle | 'void' | 'infer',
    args: readonly EvalValue[],
  ): Promise<{ type: SType | 'void'; value: EvalValue }> {
    const it = this.it;
    if (!it.dry) it.budget.iteration(e.span);
    const voidType = it.wk.knownKeyword('void') ?? (await it.wk.keyword('void'));
    const savedLocals = it.locals;
    const savedFrame = it.statements.frame;
    const scope = new LocalScope(captured);
    it.locals = scope;
    const frame: FunctionFrame = {
      returnType:
        returnType === 'infer' ? undefined : returnType === 'void' ? voidType : returnType,
      inferred: returnType === 'infer',
      targets: [],
      broken: new Set(),
      returned: [],
    };
    it.statements.frame = frame;
    try {
      for (const [i, p] of e.parameters.entries()) {
        if (it.dry) it.statements.checkName(p.name.name, p.name.span);
        scope.set(p.name.name, {
          type: parameters[i]!,
          value: args[i] ?? VOID,
          assigned: true,
        });
      }
      if (e.body.kind !== 'Block') {
        if (returnType === 'void') {
          await it.statements.statement(e.body);
          return { type: 'void', value: VOID };
        }
        const op =
          returnType === 'infer' ? await it.expr(e.body) : await this.target(e.body, returnType);
        if (returnType === 'infer') {
          if (op.type !== 'null' && op.type.key === voidType.key)
            return { type: 'void', value: VOID };
          return { type: op.type, value: op.value };
        }
        const v = await it.conversions.implicitly(op, returnType, 'the lambda’s result');
        return { type: returnType, value: v.value };
      }
      const body = e.body;
      const c = await it.statements.inScope(() => it.statements.block(body.statements));
      if (returnType === 'infer') {
        const types = frame.returned ?? [];
        if (types.length === 0) return { type: 'void', value: VOID };
        return { type: await it.statements.bestCommonType(types, e.body), value: VOID };
      }
      if (c.k === 'return') return { type: returnType, value: c.op?.value ?? VOID };
      if (returnType !== 'void' && it.dry && c.k === 'normal')
        throw new CompileError(
          'CS1643',
          'not all code paths return a value in the lambda expression or local function',
          e.span,
        );
      return { type: returnType, value: VOID };
    } finally {
      it.locals = savedLocals;
      it.statements.frame = savedFrame;
    }
  }

  /** A client delegate of `type` running `call`. */
  delegateValue(type: TypeHandle, sig: DelegateSignature, call: ClientFunction): EvalValue {
    const payload: ClientDelegate = {
      clientKind: 'delegate',
      parameters: sig.parameters,
      returnType: sig.returnType,
      call,
    };
    return { kind: 'client', type, payload };
  }

  // ---------------------------------------------------------------- local functions

  /**
   * Declares a local function in the current scope (its block's), as a local of its
   * Func/Action type holding a client delegate; binding also binds its body.
   */
  async declareLocalFunction(s: A.LocalFunction): Promise<void> {
    const it = this.it;
    if (it.dry) it.statements.checkName(s.name.name, s.name.span);
    const parameters: TypeHandle[] = [];
    for (const p of s.parameters) {
      if (!p.type)
        throw new CompileError('CS1001', 'a local function parameter needs a type', p.span);
      parameters.push(await it.types.type(p.type));
    }
    const returnType = s.returnType === 'void' ? undefined : await it.types.type(s.returnType);
    const type = await this.delegateType(parameters, returnType, s.span);
    const captured = it.locals;
    const target = returnType ?? 'void';
    const call: ClientFunction = async (args) =>
      (await this.runBody(s, captured, parameters, target, args)).value;
    it.locals.set(s.name.name, {
      type,
      value: it.dry ? VOID : this.delegateValue(type, { parameters, returnType }, call),
      assigned: true,
      readOnly: 'local function',
      fn: s,
    });
  }

  /** Binds the bodies of a block's local functions, once all of them are declared. */
  async bindLocalFunctions(statements: readonly A.Statement[]): Promise<void> {
    if (!this.it.dry) return;
    for (const s of statements) {
      if (s.kind !== 'LocalFunction') continue;
      const local = this.it.locals.get(s.name.name)!;
      const sig = (await this.signature(local.type))!;
      await this.runBody(s, this.it.locals, sig.parameters, sig.returnType ?? 'void', []);
    }
  }
}

function unparenthesized(e: A.Expression): A.Expression {
  while (e.kind === 'Parenthesized') e = e.expression;
  return e;
}
