// Unary operators (ECMA-334 §12.9): +, -, !, ~ on primitives (folded when constant), on enums,
// lifted on Nullable<T> and user-defined; ++ and -- (prefix and postfix) read, step, write back.

import type * as A from '../syntax/index.js';
import { applyUnary, increment } from '../semantics/arithmetic.js';
import { foldUnary, type Constant } from '../semantics/constant-folding.js';
import { convert } from '../semantics/conversions.js';
import { type IntegralKind } from '../semantics/numeric-types.js';
import {
  resolveEnumUnaryOperator,
  resolveUnaryOperator,
  type UnaryOperator,
} from '../semantics/promotion.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';
import { sem } from './errors.js';
import { enumRaw, promotedOf } from './enum-operators.js';

const UNARY_METHODS: Readonly<Record<UnaryOperator, string>> = {
  '+': 'op_UnaryPlus',
  '-': 'op_UnaryNegation',
  '!': 'op_LogicalNot',
  '~': 'op_OnesComplement',
};

export class UnaryOperators {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  async unary(e: A.Unary): Promise<Operand> {
    if (e.operator === '++' || e.operator === '--')
      return this.step(e.operand, e.operator === '++' ? 1 : -1, true, e.span);
    return this.applyUnaryOp(e.operator, await this.it.expr(e.operand), e.span);
  }

  async postfix(e: A.Postfix): Promise<Operand> {
    if (e.operator === '!') return this.it.expr(e.operand);
    return this.step(e.operand, e.operator === '++' ? 1 : -1, false, e.span);
  }

  async applyUnaryOp(op: UnaryOperator, x: Operand, span: A.Span): Promise<Operand> {
    const t = x.type;
    if (t === 'null')
      throw new CompileError(
        'CS0023',
        `the '${op}' operator cannot be applied to operand of type '<null>'`,
        span,
      );
    const p = await this.f.primitive(t);
    if (p) {
      if (x.constant?.kind === 'number') {
        const c = sem(
          () => foldUnary(op, (x.constant as { c: Constant }).c, this.it.constantContext),
          span,
        );
        return this.it.literals.folded(await this.it.literals.typeOfKind(c.value.kind), c);
      }
      const sig = sem(() => resolveUnaryOperator(op, { kind: p }), span);
      const type = await this.it.literals.typeOfKind(sig.result);
      if (this.it.dry) return { type, value: VOID };
      const v = sem(() =>
        applyUnary(op, sig, convert(toPrimitive(x.value)!, sig.operand, false), {
          checked: this.it.checked,
        }),
      );
      return { type, value: fromPrimitive(v) };
    }
    if (await this.f.isEnum(t)) {
      const u = (await this.f.enumUnderlying(t)) as Exclude<IntegralKind, 'char'>;
      sem(() => resolveEnumUnaryOperator(op, { enumName: t.key, underlying: u }), span);
      if (this.it.dry) return { type: t, value: VOID };
      const raw = enumRaw(x.value);
      const v = sem(() =>
        applyUnary(
          '~',
          resolveUnaryOperator('~', { kind: u }),
          convert(raw, promotedOf(u), false),
          { checked: false },
        ),
      );
      return {
        type: t,
        value: {
          kind: 'enum',
          type: t,
          underlying: u,
          value: convert(v, u, false).value as number | bigint,
        },
      };
    }
    const lifted = await this.f.nullableUnderlying(t);
    if (lifted && ((await this.f.primitive(lifted)) || (await this.f.isEnum(lifted)))) {
      const inner = await this.it.inDry(() =>
        this.applyUnaryOp(op, { type: lifted, value: VOID }, span),
      );
      const type = await this.it.types.nullableOf(inner.type as TypeHandle);
      if (this.it.dry) return { type, value: VOID };
      if (x.value.kind === 'null') return { type, value: NULL };
      return {
        type,
        value: (await this.applyUnaryOp(op, { type: lifted, value: x.value }, span)).value,
      };
    }
    const user = await this.it.calls.userOperator(UNARY_METHODS[op], [x], span);
    if (user) return user;
    throw new CompileError(
      'CS0023',
      `the '${op}' operator cannot be applied to operand of type '${await this.f.name(t)}'`,
      span,
    );
  }

  /** ++x, x++, --x, x--: read, step (checked in a checked context), write back. */
  private async step(
    target: A.Expression,
    delta: 1 | -1,
    prefix: boolean,
    span: A.Span,
  ): Promise<Operand> {
    const t = await this.it.variables.target(target);
    const type = t.type as TypeHandle;
    const old = await this.it.variables.readTarget(t);
    const next = await this.stepped(type, old, delta, span);
    await this.it.variables.store(t, next);
    return { type, value: prefix ? next : old };
  }

  private async stepped(
    type: TypeHandle,
    old: EvalValue,
    delta: 1 | -1,
    span: A.Span,
  ): Promise<EvalValue> {
    const symbol = delta === 1 ? '++' : '--';
    const p = await this.f.primitive(type);
    if (p && p !== 'bool')
      return this.it.dry
        ? VOID
        : fromPrimitive(
            sem(() => increment(toPrimitive(old)!, delta, { checked: this.it.checked })),
          );
    if (await this.f.isEnum(type)) {
      if (this.it.dry) return VOID;
      const u = await this.f.enumUnderlying(type);
      const v = sem(() => increment(enumRaw(old), delta, { checked: this.it.checked }));
      return {
        kind: 'enum',
        type,
        underlying: u,
        value: convert(v, u, false).value as number | bigint,
      };
    }
    const lifted = await this.f.nullableUnderlying(type);
    if (lifted && ((await this.f.primitive(lifted)) || (await this.f.isEnum(lifted)))) {
      if (this.it.dry || old.kind === 'null') return old;
      return this.stepped(lifted, old, delta, span);
    }
    const user = await this.it.calls.userOperator(
      delta === 1 ? 'op_Increment' : 'op_Decrement',
      [{ type, value: old }],
      span,
    );
    if (user) return user.value;
    throw new CompileError(
      'CS0023',
      `the '${symbol}' operator cannot be applied to operand of type '${await this.f.name(type)}'`,
      span,
    );
  }
}
