// Hot code compiled to closures: a loop's body and a lambda's expression, run once per element,
// are bound once (the interpreter's own binding, in its type-only mode, gives every node's
// static type, constant and place) and turned into closures that run without the visitor and,
// when the game reads they need are already answered (a bulk-read chunk's fields), without a
// promise. Only forms whose meaning is decided by their static types alone are compiled: locals,
// constants, instance fields, numeric and logical operators on primitives, numeric casts,
// assignments, ++ and -- to primitive locals, blocks, if, while, do, for, foreach, break and
// continue. Any
// other node is run by the interpreter itself, whole, in the same scope (`delegate`): its
// meaning and errors are the interpreter's, so compiled and interpreted runs agree by
// construction, node by node, on the same kernels (semantics/).

import type * as A from '../syntax/index.js';
import { unparse } from '../syntax/index.js';
import { applyBinary, applyUnary, increment, intBinary } from '../semantics/arithmetic.js';
import { foldConversion, materialize, type Constant } from '../semantics/constant-folding.js';
import { FLOATING_COMPARE, isComparison } from '../semantics/operator-kernels.js';
import { convert } from '../semantics/conversions.js';
import type { PrimitiveKind, PrimitiveValue } from '../semantics/numeric-types.js';
import {
  resolveBinaryOperator,
  resolveUnaryOperator,
  type BinaryOperator,
} from '../semantics/promotion.js';
import type { FieldDescriptor } from '../runtime.js';
import { NULL, type EvalValue } from '../values.js';
import { Messages, sem, semError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import { LocalScope, type Local } from './local-scope.js';
import { andFinally, isPromise, type Maybe } from './maybe.js';
import type { ConstantValue, Place } from './operand.js';
import { END, eachOf, type Pull, type SequenceSource } from './sequences.js';
import { rowForeachBody, rowInputs, rowNumber, rowValue, type RowBody } from './row-lambdas.js';
import { NORMAL, Statements, type Completion } from './statements.js';
import type { SType } from './type-facts.js';
import { FALSE, TRUE, fromPrimitive, toPrimitive } from './primitives.js';

/** A compiled expression: its static type and constant (as bound), and its value when run. */
export interface CompiledExpression {
  readonly type: SType;
  readonly constant?: ConstantValue;
  readonly run: () => Maybe<EvalValue>;
  /** Runs in the interpreter (not compiled): a parent compiles no faster path around it. */
  readonly delegated?: true;
}

/** A compiled statement: its completion when run. */
export type CompiledStatement = () => Maybe<Completion>;

/** The interpreter's NullReferenceException for `target` being null (interpreter.naming). */
function nullTarget(target: A.Expression): Error {
  const e = Messages.nullReference();
  const text = unparse(target);
  e.hint = `'${text.length > 80 ? `${text.slice(0, 77)}...` : text}' is null`;
  return e;
}

/** What a compiler made: nodes compiled, and nodes left to the interpreter. */
export interface CompilerStats {
  compiled: number;
  delegated: number;
}

export class Compiler {
  constructor(private readonly it: Interpreter) {}

  readonly stats: CompilerStats = { compiled: 0, delegated: 0 };

  /** Loops compiled in this evaluation, by node, with the scope shape they were compiled in. */
  private readonly compiled = new WeakMap<A.Node, { shape: string; run: unknown }>();

  /**
   * What `make` compiles for `node` in the current scope, made once per evaluation and scope
   * shape (a loop nested in a loop the interpreter runs is compiled once, not per pass).
   */
  async cached<T>(node: A.Node, extra: string, make: () => Promise<T>): Promise<T> {
    const shape = `${extra}|${this.it.locals.shape()}`;
    const kept = this.compiled.get(node);
    if (kept && kept.shape === shape) return kept.run as T;
    const run = await make();
    this.compiled.set(node, { shape, run });
    return run;
  }

  private get f() {
    return this.it.facts;
  }

  // ---------------------------------------------------------------- expressions

  /** Compiles `e` in the current scope (the scope it will run in, with its locals' types). */
  async expression(e: A.Expression): Promise<CompiledExpression> {
    const it = this.it;
    const bound = await it.inDry(() => it.resolve(e));
    if (bound.k !== 'value') return this.delegate(e, 'null');
    // an out variable is declared by binding: its expression is bound once (above), never
    // again part by part, and the interpreter runs it whole
    if (declaresLocals(e)) return this.delegate(e, bound.op.type);
    const op = bound.op;
    if (op.constant) {
      // a constant runs no code and touches nothing in the game: its value is taken once
      const value = (await it.expr(e)).value;
      return { type: op.type, constant: op.constant, run: () => value };
    }
    const compiled = await this.compiledForm(e, op.type, op.place);
    if (compiled) {
      this.stats.compiled++;
      return compiled;
    }
    return this.delegate(e, op.type);
  }

  /** The compiled form of `e`, when it has one (else the interpreter runs it). */
  private async compiledForm(
    e: A.Expression,
    type: SType,
    place: Place | undefined,
  ): Promise<CompiledExpression | undefined> {
    if (e.kind === 'Parenthesized') {
      const inner = await this.expression(e.expression);
      return inner.delegated ? undefined : { type, run: inner.run };
    }
    if (e.kind === 'Name') {
      const local = this.it.locals.get(e.name);
      if (place?.k === 'local' && local && !local.fn && e.typeArgs.length === 0)
        return { type, run: this.localRead(e.name) };
      return undefined;
    }
    if (e.kind === 'MemberAccess') {
      if (e.conditional || !plainChain(e.target)) return undefined;
      if (place?.k === 'field') return this.fieldRead(e, type, place.field);
      if (place?.k === 'struct-field') return this.structFieldRead(e, type, place.index);
      return undefined;
    }
    if (e.kind === 'Binary') return this.binary(e, type);
    if (e.kind === 'Unary') {
      if (e.operator === '++' || e.operator === '--')
        return this.step(e.operand, e.operator === '++' ? 1 : -1, true, type);
      return this.unary(e, type);
    }
    if (e.kind === 'Postfix' && e.operator !== '!')
      return this.step(e.operand, e.operator === '++' ? 1 : -1, false, type);
    if (e.kind === 'Assignment') return this.assignment(e, type);
    if (e.kind === 'Cast') return this.cast(e, type);
    return undefined;
  }

  /**
   * A numeric conversion between primitives, `(long)x`: ConversionApplication's own (convert,
   * in the context current when it runs); any other cast (a reference, an enum, a box, a
   * lambda's delegate type) is the interpreter's.
   */
  private async cast(e: A.Cast, type: SType): Promise<CompiledExpression | undefined> {
    let operand = e.operand;
    while (operand.kind === 'Parenthesized') operand = operand.expression;
    if (operand.kind === 'Lambda' || type === 'null') return undefined;
    const to = await this.kind(type);
    const x = await this.expression(e.operand);
    const from = await this.kind(x.type);
    if (!to || !from || x.delegated || x.type === 'null') return undefined;
    const c = await this.it.conversions.explicit({ type: x.type, value: NULL }, type);
    if (c?.k === 'identity') return { type, run: x.run };
    if (c?.k !== 'numeric') return undefined;
    const it = this.it;
    return {
      type,
      run: mapped(x.run, (v) => fromPrimitive(convert(toPrimitive(v)!, to, it.checked))),
    };
  }

  /** A node the interpreter runs whole, in the scope current when it runs. */
  private delegate(e: A.Expression, type: SType): CompiledExpression {
    const it = this.it;
    this.stats.delegated++;
    return { type, run: () => it.expr(e).then((op) => op.value), delegated: true };
  }

  private localRead(name: string): () => EvalValue {
    const it = this.it;
    return () => it.locals.get(name)!.value;
  }

  private async fieldRead(
    e: A.MemberAccess,
    type: SType,
    field: FieldDescriptor,
  ): Promise<CompiledExpression> {
    const target = await this.expression(e.target);
    const game = this.it.rt.game;
    // taken once: the game access is a proxy whose every property read binds anew
    const readField = game.readField.bind(game);
    const answered = game.readFieldNow?.bind(game);
    // MemberOperands.fieldOperand on a reference: null is NullReferenceException, anything
    // else (an instance, a string) is read from the game (an answer read ahead, if any)
    const read = (t: EvalValue): Maybe<EvalValue> => {
      if (t.kind === 'null') throw nullTarget(e.target);
      return (t.kind === 'object' ? answered?.(t, field) : undefined) ?? readField(t, field);
    };
    return { type, run: mapped(target.run, read) };
  }

  private async structFieldRead(
    e: A.MemberAccess,
    type: SType,
    index: number,
  ): Promise<CompiledExpression> {
    const target = await this.expression(e.target);
    // MemberOperands.fieldOperand on a struct value: its field, by index
    const read = (t: EvalValue): EvalValue => {
      if (t.kind !== 'struct') throw new Error(`a field of a ${t.kind} value`);
      return t.fields[index] ?? NULL;
    };
    return { type, run: mapped(target.run, read) };
  }

  /** A primitive kind the binder already knows for `t` (undefined: not a primitive, or unknown). */
  private kind(t: SType): Promise<PrimitiveKind | undefined> {
    return this.f.primitive(t);
  }

  /** BinaryOperators.numeric, with the operator resolved here once. */
  private numericKernel(
    op: BinaryOperator,
    l: CompiledExpression,
    r: CompiledExpression,
    lk: PrimitiveKind,
    rk: PrimitiveKind,
    span: A.Span,
  ): ((lv: EvalValue, rv: EvalValue) => EvalValue) | undefined {
    const lc = l.constant?.kind === 'number' ? l.constant.c : undefined;
    const rc = r.constant?.kind === 'number' ? r.constant.c : undefined;
    if (lc && rc) return undefined; // folded by the binder: a constant
    const sig = sem(
      () =>
        resolveBinaryOperator(
          op,
          lc ? { kind: lk, constant: lc.value } : { kind: lk },
          rc ? { kind: rk, constant: rc.value } : { kind: rk },
        ),
      span,
    );
    const fixed = (c: Constant | undefined, to: PrimitiveKind): PrimitiveValue | undefined =>
      c && materialize(sem(() => foldConversion(c, to, 'unchecked')));
    const lfixed = fixed(lc, sig.left);
    const rfixed = fixed(rc, sig.right);
    const it = this.it;
    if (sig.left === 'int' && sig.right === 'int' && (lc || lk === 'int') && (rc || rk === 'int')) {
      // int with int (a loop's counters and sums): applyBinary's own int path, without the
      // conversions' copies; what it leaves (an overflow, a division) goes the general way
      const la = lfixed?.value as number | undefined;
      const rb = rfixed?.value as number | undefined;
      // a comparison (a filter's test) gives one of the two shared bools, with nothing made
      if (isComparison(op)) {
        const compare = FLOATING_COMPARE[op];
        return (lv, rv) =>
          compare(la ?? (lv as { value: number }).value, rb ?? (rv as { value: number }).value)
            ? TRUE
            : FALSE;
      }
      return (lv, rv) => {
        const a = la ?? (lv as { value: number }).value;
        const b = rb ?? (rv as { value: number }).value;
        const r = intBinary(op, a, b, it.checked);
        if (r) return fromPrimitive(r);
        try {
          return fromPrimitive(
            applyBinary(
              op,
              sig,
              { kind: 'int', value: a },
              { kind: 'int', value: b },
              {
                checked: it.checked,
              },
            ),
          );
        } catch (e) {
          throw semError(e);
        }
      };
    }
    return (lv, rv) => {
      const a = lfixed ?? convert(toPrimitive(lv)!, sig.left, false);
      const b = rfixed ?? convert(toPrimitive(rv)!, sig.right, false);
      // sem's translation without a closure per operation
      try {
        return fromPrimitive(applyBinary(op, sig, a, b, { checked: it.checked }));
      } catch (e) {
        throw semError(e);
      }
    };
  }

  private async binary(e: A.Binary, type: SType): Promise<CompiledExpression | undefined> {
    const l = await this.expression(e.left);
    const r = await this.expression(e.right);
    if (l.delegated && r.delegated) return undefined;
    const lk = await this.kind(l.type);
    const rk = await this.kind(r.type);
    if (!lk || !rk) return undefined;
    const lrun = l.run;
    const rrun = r.run;
    if (e.operator === '&&' || e.operator === '||') {
      if (lk !== 'bool' || rk !== 'bool') return undefined;
      // the right side runs only when it decides the value (§12.14)
      const decides = e.operator === '||';
      const after = (lv: EvalValue): Maybe<EvalValue> =>
        (lv as { value: boolean }).value === decides ? lv : rrun();
      return {
        type,
        run: () => {
          const lv = lrun();
          return isPromise(lv) ? lv.then(after) : after(lv);
        },
      };
    }
    const kernel = this.numericKernel(e.operator, l, r, lk, rk, e.span);
    if (!kernel) return undefined;
    return { type, run: () => both(lrun, rrun, kernel) };
  }

  private async unary(e: A.Unary, type: SType): Promise<CompiledExpression | undefined> {
    if (e.operator === '++' || e.operator === '--') return undefined;
    const x = await this.expression(e.operand);
    const p = await this.kind(x.type);
    if (!p || x.delegated) return undefined;
    const op = e.operator;
    const sig = sem(() => resolveUnaryOperator(op, { kind: p }), e.span);
    const it = this.it;
    const apply = (v: EvalValue): EvalValue => {
      try {
        return fromPrimitive(
          applyUnary(op, sig, convert(toPrimitive(v)!, sig.operand, false), {
            checked: it.checked,
          }),
        );
      } catch (e) {
        throw semError(e);
      }
    };
    return { type, run: mapped(x.run, apply) };
  }

  /** The local a plain name denotes, when it is a writable local of a primitive kind. */
  private async primitiveLocal(
    target: A.Expression,
  ): Promise<{ name: string; kind: PrimitiveKind } | undefined> {
    while (target.kind === 'Parenthesized') target = target.expression;
    if (target.kind !== 'Name' || target.typeArgs.length > 0) return undefined;
    const l = this.it.locals.get(target.name);
    if (!l || l.fn || l.readOnly) return undefined;
    const kind = await this.kind(l.type);
    return kind ? { name: target.name, kind } : undefined;
  }

  /** UnaryOperators.step on a primitive local (not bool): ++x, x++, --x, x--. */
  private async step(
    target: A.Expression,
    delta: 1 | -1,
    prefix: boolean,
    type: SType,
  ): Promise<CompiledExpression | undefined> {
    const local = await this.primitiveLocal(target);
    if (!local || local.kind === 'bool') return undefined;
    const it = this.it;
    const name = local.name;
    return {
      type,
      run: () => {
        const cell = it.locals.get(name)!;
        const old = cell.value;
        let next: EvalValue;
        try {
          next = fromPrimitive(increment(toPrimitive(old)!, delta, { checked: it.checked }));
        } catch (e) {
          throw semError(e);
        }
        cell.value = next;
        cell.assigned = true;
        return prefix ? next : old;
      },
    };
  }

  /** `x = v` and `x op= v` to a primitive local, where no conversion is involved. */
  private async assignment(e: A.Assignment, type: SType): Promise<CompiledExpression | undefined> {
    if (e.operator === '??=' || unparenthesized(e.value).kind === 'Lambda') return undefined;
    const local = await this.primitiveLocal(e.target);
    if (!local) return undefined;
    const value = await this.expression(e.value);
    const it = this.it;
    const name = local.name;
    const store = (v: EvalValue): EvalValue => {
      const cell = it.locals.get(name)!;
      cell.value = v;
      cell.assigned = true;
      return v;
    };
    const vrun = value.run;
    if (e.operator === '=') {
      // the identity conversion only (Conversions.implicitly gives the value itself)
      if (value.type === 'null' || !this.f.same(value.type, type)) return undefined;
      return {
        type,
        run: () => {
          const v = vrun();
          return isPromise(v) ? v.then(store) : store(v);
        },
      };
    }
    const rk = await this.kind(value.type);
    if (!rk) return undefined;
    const op = e.operator.slice(0, -1) as BinaryOperator;
    const current: CompiledExpression = { type, run: () => it.locals.get(name)!.value };
    const kernel = this.numericKernel(op, current, value, local.kind, rk, e.span);
    if (!kernel) return undefined;
    // the result must already be of x's type (int += int): else C#'s conversion back applies
    const resultKind = sem(
      () =>
        resolveBinaryOperator(
          op,
          { kind: local.kind },
          value.constant?.kind === 'number'
            ? { kind: rk, constant: value.constant.c.value }
            : { kind: rk },
        ),
      e.span,
    ).result;
    if (resultKind !== local.kind) return undefined;
    return {
      type,
      run: () => {
        const cur = it.locals.get(name)!.value;
        const v = vrun();
        return isPromise(v) ? v.then((rv) => store(kernel(cur, rv))) : store(kernel(cur, v));
      },
    };
  }

  // ---------------------------------------------------------------- statements

  /** Compiles a statement in the current scope (declarations are bound into it). */
  async statement(s: A.Statement): Promise<CompiledStatement> {
    const it = this.it;
    const delegated: CompiledStatement = () => it.statements.exec(s);
    switch (s.kind) {
      case 'EmptyStatement':
        return () => NORMAL;
      case 'ExpressionStatement': {
        const e = await this.expression(s.expression);
        const run = e.run;
        return () => {
          const v = run();
          return isPromise(v) ? v.then(() => NORMAL) : NORMAL;
        };
      }
      case 'Block':
        return this.block(s);
      case 'If':
        return this.ifStatement(s);
      case 'While':
      case 'Do':
      case 'For':
        // a condition declaring out variables: the interpreter's loop (a fresh one per pass)
        return conditionDeclares(s) ? this.delegateStatement(s) : this.loop(s);
      case 'Break':
      case 'Continue': {
        const c: Completion = { k: s.kind === 'Break' ? 'break' : 'continue', span: s.span };
        return () => c;
      }
      case 'LocalDeclaration':
        return (await this.declaration(s)) ?? this.declareDelegated(s, delegated);
      case 'Foreach':
      case 'LocalFunction':
      case 'Return':
      case 'Switch':
      case 'Throw':
      case 'Try':
        return this.delegateStatement(s);
    }
  }

  /**
   * A statement the interpreter runs whole. It is bound here too, as the binder binds it: what
   * it declares and definitely assigns is known to the statements compiled after it.
   */
  private async delegateStatement(s: A.Statement): Promise<CompiledStatement> {
    const it = this.it;
    this.stats.delegated++;
    await it.inDry(() => it.statements.exec(s));
    return () => it.statements.exec(s);
  }

  /** A declaration the interpreter runs: bound here too, so later statements see its locals. */
  private async declareDelegated(
    s: A.LocalDeclaration,
    run: CompiledStatement,
  ): Promise<CompiledStatement> {
    await this.it.inDry(() => this.it.statements.declare(s));
    return run;
  }

  /** `T x = v, ...` or `var x = v` whose values need no conversion. */
  private async declaration(s: A.LocalDeclaration): Promise<CompiledStatement | undefined> {
    const it = this.it;
    // what the interpreter runs whole: no initializer, an array initializer, a lambda, an out
    // variable (bound once, by declareDelegated)
    for (const v of s.declarators) {
      const init = v.initializer;
      if (!init || init.kind === 'ArrayInitializer') return undefined;
      if (unparenthesized(init).kind === 'Lambda' || declaresLocals(init)) return undefined;
    }
    const declared = s.type === 'var' ? undefined : await it.types.type(s.type);
    const parts: { name: string; type: SType; run: () => Maybe<EvalValue> }[] = [];
    const undo = (): undefined => {
      for (const p of parts) it.locals.delete(p.name);
      return undefined;
    };
    for (const v of s.declarators) {
      const name = v.name.name;
      // a typed local is declared before its initializer runs (Statements.declare), a var after
      if (declared) it.locals.set(name, { type: declared, value: NULL, assigned: false });
      const init = await this.expression(v.initializer as A.Expression);
      if (init.type === 'null' || (declared && !this.f.same(declared, init.type))) {
        if (declared) it.locals.delete(name);
        return undo();
      }
      const type = declared ?? init.type;
      parts.push({ name, type, run: init.run });
      it.locals.set(name, { type, value: NULL, assigned: true });
    }
    const typed = !!declared;
    const declare = (i: number): Maybe<Completion> => {
      for (; i < parts.length; i++) {
        const p = parts[i]!;
        const cell: Local = { type: p.type, value: NULL, assigned: false };
        if (typed) it.locals.set(p.name, cell);
        const v = p.run();
        if (isPromise(v)) {
          const next = i + 1;
          return v.then((value) => {
            cell.value = value;
            cell.assigned = true;
            if (!typed) it.locals.set(p.name, cell);
            return declare(next);
          });
        }
        cell.value = v;
        cell.assigned = true;
        if (!typed) it.locals.set(p.name, cell);
      }
      return NORMAL;
    };
    return () => declare(0);
  }

  /** A block: a scope of its own, a budget check before each statement. */
  private async block(s: A.Block): Promise<CompiledStatement> {
    const it = this.it;
    if (s.statements.some((x) => x.kind === 'LocalFunction')) return this.delegateStatement(s);
    const parts = await this.inCompileScope(async () => {
      const out: CompiledStatement[] = [];
      for (const x of s.statements) out.push(await this.statement(x));
      return out;
    });
    const spans = s.statements.map((x) => x.span);
    const budget = it.budget;
    const from = (i: number): Maybe<Completion> => {
      for (; i < parts.length; i++) {
        const released = budget.statement(spans[i]!);
        if (released) {
          const at = i;
          return released.then(() => runAt(at));
        }
        const c = parts[i]!();
        if (isPromise(c)) {
          const next = i + 1;
          return c.then((done) => (done.k === 'normal' ? from(next) : done));
        }
        if (c.k !== 'normal') return c;
      }
      return NORMAL;
    };
    const runAt = (i: number): Maybe<Completion> => {
      const c = parts[i]!();
      const next = i + 1;
      if (isPromise(c)) return c.then((done) => (done.k === 'normal' ? from(next) : done));
      return c.k === 'normal' ? from(next) : c;
    };
    const start = (): Maybe<Completion> => from(0);
    return () => this.scoped(start);
  }

  /** Runs `fn` in a new scope under the current one (a block's, a loop body's). */
  scoped<T>(fn: () => Maybe<T>): Maybe<T> {
    const it = this.it;
    const saved = it.locals;
    it.locals = new LocalScope(saved);
    return restoring(it, saved, fn);
  }

  /** Binding in a scope thrown away afterwards (what it declares is not left behind). */
  async inCompileScope<T>(fn: () => Promise<T>): Promise<T> {
    const it = this.it;
    const saved = it.locals;
    it.locals = new LocalScope(saved);
    try {
      return await fn();
    } finally {
      it.locals = saved;
    }
  }

  /** An embedded statement (an if's branch, a loop's body): its own scope. */
  private async embedded(s: A.Statement): Promise<CompiledStatement> {
    const delegated = this.stats.delegated;
    const body = await this.inCompileScope(() => this.statement(s));
    // a block makes its own scope; a statement compiled whole declares nothing in its own
    // (only the interpreter's nodes do: out variables, patterns), so it needs none
    return s.kind === 'Block' || this.stats.delegated === delegated
      ? body
      : () => this.scoped(body);
  }

  /** A condition: bool already (the identity conversion), else the interpreter's. */
  private async condition(e: A.Expression): Promise<() => Maybe<boolean>> {
    const c = await this.expression(e);
    const it = this.it;
    if ((await this.kind(c.type)) === 'bool') {
      const run = c.run;
      return () => {
        const v = run();
        return isPromise(v) ? v.then(truth) : truth(v);
      };
    }
    this.stats.delegated++;
    return () => it.statements.condition(e).then((op) => Statements.truth(op));
  }

  private async ifStatement(s: A.If): Promise<CompiledStatement> {
    const condition = await this.condition(s.condition);
    const then = await this.embedded(s.then);
    const otherwise = s.else ? await this.embedded(s.else) : undefined;
    const branch = (yes: boolean): Maybe<Completion> =>
      yes ? then() : otherwise ? otherwise() : NORMAL;
    return () => {
      const c = condition();
      return isPromise(c) ? c.then(branch) : branch(c);
    };
  }

  /** while, do and for (§13.9): as Loops.loop runs them. */
  async loop(s: A.While | A.Do | A.For): Promise<CompiledStatement> {
    const it = this.it;
    const compiled = await this.inCompileScope(async () => {
      let init: CompiledStatement[] = [];
      if (s.kind === 'For') {
        if (Array.isArray(s.init)) {
          for (const e of s.init) init.push(await this.statement(exprStatement(e)));
        } else init = [await this.statement(s.init)];
      }
      // bound in the order the binder binds them: a do's body before its condition (what the
      // body assigns is assigned there)
      let body: CompiledStatement | undefined;
      if (s.kind === 'Do') body = await this.loopTarget(s, () => this.embedded(s.body));
      const condition =
        s.kind === 'For'
          ? s.condition
            ? await this.condition(s.condition)
            : undefined
          : await this.condition(s.condition);
      body ??= await this.loopTarget(s, () => this.embedded(s.body));
      const iterators: CompiledStatement[] = [];
      if (s.kind === 'For')
        for (const e of s.iterators) iterators.push(await this.statement(exprStatement(e)));
      return { init, condition, body, iterators };
    });
    const { init, condition, body, iterators } = compiled;
    const budget = it.budget;
    const span = s.span;
    const isDo = s.kind === 'Do';
    // one pass of the loop from `phase`: 0 the condition, 1 the body, 2 the iterators
    const from = (phase: number): Maybe<Completion> => {
      for (;;) {
        if (phase === 0) {
          if (!isDo && condition) {
            const c = condition();
            if (isPromise(c)) return c.then((yes) => (yes ? from(1) : NORMAL));
            if (!c) return NORMAL;
          }
          phase = 1;
        }
        if (phase === 1) {
          budget.iteration(span);
          const c = body();
          if (isPromise(c))
            return c.then((done) => {
              if (done.k === 'break') return NORMAL;
              if (done.k === 'return') return done;
              return from(2);
            });
          if (c.k === 'break') return NORMAL;
          if (c.k === 'return') return c;
        }
        for (let i = 0; i < iterators.length; i++) {
          const c = iterators[i]!();
          if (isPromise(c)) return c.then(() => afterIterators(i + 1));
        }
        if (isDo) {
          const c = condition!();
          if (isPromise(c)) return c.then((yes) => (yes ? from(1) : NORMAL));
          if (!c) return NORMAL;
          phase = 1;
        } else phase = 0;
      }
    };
    const afterIterators = (i: number): Maybe<Completion> => {
      for (; i < iterators.length; i++) {
        const c = iterators[i]!();
        if (isPromise(c)) {
          const next = i + 1;
          return c.then(() => afterIterators(next));
        }
      }
      if (!isDo) return from(0);
      const c = condition!();
      if (isPromise(c)) return c.then((yes) => (yes ? from(1) : NORMAL));
      return c ? from(1) : NORMAL;
    };
    const runInit = (i: number): Maybe<Completion> => {
      for (; i < init.length; i++) {
        const c = init[i]!();
        if (isPromise(c)) {
          const next = i + 1;
          return c.then(() => runInit(next));
        }
      }
      return from(isDo ? 1 : 0);
    };
    return () => this.scoped(() => this.loopTarget(s, () => runInit(0)));
  }

  /**
   * Runs `fn` with the loop as the target of the break and continue in it, as the binder and the
   * interpreter have it: a loop body's binding, a foreach's run, a loop's passes.
   */
  private loopTarget<T>(node: A.Node, fn: () => Maybe<T>): Maybe<T> {
    const targets = this.it.statements.frame.targets;
    targets.push({ k: 'loop', node });
    return andFinally(fn, () => {
      targets.pop();
    });
  }

  /**
   * A foreach over `source`, its iteration variable of the element type (no conversion): each
   * element in a fresh scope (a closure made in the body keeps its own variable), the budget
   * counting each.
   */
  async foreach(
    s: A.Foreach,
    type: SType,
  ): Promise<(source: SequenceSource) => Promise<Completion>> {
    const it = this.it;
    const name = s.name.name;
    const delegatedBefore = this.stats.delegated;
    let rows: RowBody | undefined;
    const body = await this.inCompileScope(async () => {
      it.locals.set(name, {
        type,
        value: NULL,
        assigned: true,
        readOnly: 'foreach iteration variable',
      });
      if (type !== 'null') rows = await rowForeachBody(it, name, type, s.body);
      return this.loopTarget(s, () => this.embedded(s.body));
    });
    // a body compiled whole makes no closure (a lambda is the interpreter's): nothing can keep
    // an iteration's variable, so one scope and one cell serve every element
    const reused = this.stats.delegated === delegatedBefore;
    const budget = it.budget;
    const span = s.span;
    const run = async (whole: SequenceSource): Promise<Completion> => {
      let result: Completion = NORMAL;
      let source = whole;
      // (not when the game runs between statements: each pass sees the game as it is then)
      if (rows && whole.bulk && whole.pull && !budget.releases) {
        // a chunk at a time while it can be, then the rest element by element
        const p = whole.pull();
        if (await this.rowLoop(rows, p, span)) return NORMAL;
        source = { elementType: whole.elementType, iterate: () => whole.iterate(), pull: () => p };
      }
      const outer = it.locals;
      const only = new LocalScope(outer);
      const kept: Local = {
        type,
        value: NULL,
        assigned: true,
        readOnly: 'foreach iteration variable',
      };
      only.set(name, kept);
      const element = (v: EvalValue): Maybe<Completion> => {
        budget.iteration(span);
        let scope = only;
        if (reused) kept.value = v;
        else {
          scope = new LocalScope(outer);
          scope.set(name, {
            type,
            value: v,
            assigned: true,
            readOnly: 'foreach iteration variable',
          });
        }
        it.locals = scope;
        return restoring(it, outer, body);
      };
      // break or return ends the enumeration (the source closed, as for await's)
      const ends = (c: Completion): boolean => {
        if (c.k === 'return') result = c;
        return c.k === 'break' || c.k === 'return';
      };
      await eachOf(source, (x) => {
        const c = element(x);
        return isPromise(c) ? c.then(ends) : ends(c);
      });
      return result;
    };
    return async (source) => this.loopTarget(s, () => run(source));
  }

  /**
   * A foreach whose body is a row body (row-lambdas.ts) over a bulk source's pull: each chunk's
   * fields batched, the body run over numbers for every element, the outer locals it writes
   * set once per chunk, the budget counting a pass per element. True when the source ended;
   * false when the rest must go element by element, `p` then giving the first element not run
   * (a chunk whose fields cannot be batched, a checked context for int arithmetic, a chunk
   * that would pass the iterations bound: the interpreter stops at the same pass).
   */
  private async rowLoop(body: RowBody, p: Pull, span: A.Span): Promise<boolean> {
    const it = this.it;
    const budget = it.budget;
    const cells = body.locals.map((l) => it.locals.get(l.name)!);
    for (;;) {
      let x = p.next();
      if (isPromise(x)) x = await x;
      if (x === END) return true;
      const { elements, at } = p.chunk!()!;
      const from = at - 1;
      const n = elements.length - from;
      const inputs =
        it.checked && body.wraps ? undefined : await rowInputs(it.rt.game, body, elements);
      if (!inputs || !budget.fits(n)) {
        p.skipTo!(from);
        it.rowStats.fallbacks++;
        return false;
      }
      const initial = cells.map((c) => rowNumber(c.value));
      const state = Float64Array.from(initial);
      const { columns, value } = inputs;
      for (let i = from; i < elements.length; i++) body.run(columns, value, i, state);
      budget.iterationsDone(n, span);
      body.locals.forEach((l, k) => {
        // a local the body did not change keeps its value as it was (even unassigned)
        if (Object.is(state[k], initial[k])) return;
        cells[k]!.value = rowValue(l.kind, state[k]!);
        cells[k]!.assigned = true;
      });
      it.rowStats.chunks++;
      p.skipTo!(elements.length);
    }
  }

  /**
   * A lambda's expression body for these parameters, compiled in a scope like the one each call
   * runs in (under `captured`); undefined when its value would need a conversion to `returnType`.
   */
  async lambdaBody(
    body: A.Expression,
    parameters: readonly { name: string; type: SType }[],
    captured: LocalScope,
    returnType: SType,
  ): Promise<(CompiledExpression & { readonly whole: boolean }) | undefined> {
    const it = this.it;
    if (unparenthesized(body).kind === 'Lambda') return undefined;
    const saved = it.locals;
    it.locals = new LocalScope(captured);
    for (const p of parameters)
      it.locals.set(p.name, { type: p.type, value: NULL, assigned: true });
    const delegatedBefore = this.stats.delegated;
    try {
      const c = await this.expression(body);
      if (c.type === 'null' || returnType === 'null' || !this.f.same(c.type, returnType))
        return undefined;
      // compiled whole: it makes no closure and calls no function of the program
      return { ...c, whole: this.stats.delegated === delegatedBefore };
    } finally {
      it.locals = saved;
    }
  }
}

const truth = (v: EvalValue): boolean => (v as { value: boolean }).value === true;

/** `run`'s value through `f`: without a promise when `run` gives a value. */
function mapped(
  run: () => Maybe<EvalValue>,
  f: (v: EvalValue) => Maybe<EvalValue>,
): () => Maybe<EvalValue> {
  return () => {
    const v = run();
    return isPromise(v) ? v.then(f) : f(v);
  };
}

/** Left then right, then `kernel` of both: without a promise when neither is one. */
function both(
  l: () => Maybe<EvalValue>,
  r: () => Maybe<EvalValue>,
  kernel: (lv: EvalValue, rv: EvalValue) => EvalValue,
): Maybe<EvalValue> {
  const lv = l();
  if (isPromise(lv)) return lv.then((a) => then1(r(), (b) => kernel(a, b)));
  const rv = r();
  return isPromise(rv) ? rv.then((b) => kernel(lv, b)) : kernel(lv, rv);
}

function then1(x: Maybe<EvalValue>, f: (v: EvalValue) => EvalValue): Maybe<EvalValue> {
  return isPromise(x) ? x.then(f) : f(x);
}

/** A member access chain without `?.`, `?[`, calls or indexers: reading it changes nothing. */
function plainChain(e: A.Expression): boolean {
  if (e.kind === 'Name' || e.kind === 'Parenthesized' || e.kind === 'This') return true;
  return e.kind === 'MemberAccess' && !e.conditional && plainChain(e.target);
}

function unparenthesized(e: A.Expression): A.Expression {
  while (e.kind === 'Parenthesized') e = e.expression;
  return e;
}

/** A for's initializer or iterator expression as the statement it is. */
function exprStatement(e: A.Expression): A.ExpressionStatement {
  return { kind: 'ExpressionStatement', expression: e, semicolon: true, span: e.span };
}

/**
 * `fn`'s completion, with the interpreter's scope set back to `saved` once it is done (now, or
 * when its promise settles): a finally block without a closure per call on the sync path.
 */
export function restoring<T>(
  it: { locals: LocalScope },
  saved: LocalScope,
  fn: () => Maybe<T>,
): Maybe<T> {
  let r: Maybe<T>;
  try {
    r = fn();
  } catch (e) {
    it.locals = saved;
    throw e;
  }
  if (isPromise(r))
    return r.finally(() => {
      it.locals = saved;
    });
  it.locals = saved;
  return r;
}

/** A loop whose condition declares out variables: the interpreter runs it (fresh per pass). */
export function conditionDeclares(s: A.While | A.Do | A.For): boolean {
  return s.condition !== null && declaresLocals(s.condition);
}

/** Out variables declared by the expression (outside any lambda in it), memoized per node. */
const declaring = new WeakMap<object, boolean>();

function declaresLocals(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(declaresLocals);
  const kind = (node as { kind?: unknown }).kind;
  if (kind === 'OutDeclaration') return true;
  // a lambda's out variables are its body's own, bound in a scope of each call
  if (kind === 'Lambda') return false;
  const kept = declaring.get(node);
  if (kept !== undefined) return kept;
  let found = false;
  for (const [key, value] of Object.entries(node))
    if (key !== 'span' && typeof value === 'object' && declaresLocals(value)) {
      found = true;
      break;
    }
  declaring.set(node, found);
  return found;
}
