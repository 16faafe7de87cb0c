// Operators (ECMA-334 §12.9–§12.21): literals, unary and binary operators with C#'s binding
// (predefined numeric operators through eval/semantics, enum operators, lifted operators on
// Nullable<T>, string concatenation, reference and string equality, user-defined operators
// called in the game), ??, ?:, is, as, assignment and ++/--.

import type * as A from '../syntax/index.js';
import { applyBinary, applyUnary, increment } from '../semantics/arithmetic.js';
import {
  constantOf,
  foldBinary,
  foldConversion,
  foldUnary,
  materialize,
  type Constant,
} from '../semantics/constant-folding.js';
import { convert } from '../semantics/conversions.js';
import { EvalCompileError, EvalManagedException } from '../semantics/errors.js';
import {
  asValue,
  primitive,
  type IntegralKind,
  type PrimitiveKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import {
  resolveBinaryOperator,
  resolveEnumBinaryOperator,
  resolveEnumUnaryOperator,
  resolveUnaryOperator,
  type BinaryOperator,
  type OperandType,
  type UnaryOperator,
} from '../semantics/promotion.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, VOID, bool, type EvalValue } from '../values.js';
import { decimalFromLiteral } from './decimal-literal.js';
import { CompileError, ManagedException, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { ConstantValue, Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';
import type { SType } from './type-facts.js';

const BINARY_METHODS: Readonly<Record<BinaryOperator, string>> = {
  '+': 'op_Addition',
  '-': 'op_Subtraction',
  '*': 'op_Multiply',
  '/': 'op_Division',
  '%': 'op_Modulus',
  '&': 'op_BitwiseAnd',
  '|': 'op_BitwiseOr',
  '^': 'op_ExclusiveOr',
  '<<': 'op_LeftShift',
  '>>': 'op_RightShift',
  '==': 'op_Equality',
  '!=': 'op_Inequality',
  '<': 'op_LessThan',
  '>': 'op_GreaterThan',
  '<=': 'op_LessThanOrEqual',
  '>=': 'op_GreaterThanOrEqual',
};

const UNARY_METHODS: Readonly<Record<UnaryOperator, string>> = {
  '+': 'op_UnaryPlus',
  '-': 'op_UnaryNegation',
  '!': 'op_LogicalNot',
  '~': 'op_OnesComplement',
};

const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '>', '<=', '>=']);

/** Runs numeric semantics, turning its errors into the interpreter's. */
export function sem<T>(fn: () => T, span?: A.Span): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EvalCompileError) throw new CompileError(e.code, e.message, span);
    if (e instanceof EvalManagedException) throw new ManagedException(e.exceptionType, e.message);
    throw e;
  }
}

export class Operators {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  // ---------------------------------------------------------------- literals and constants

  async literal(e: A.Literal): Promise<Operand> {
    switch (e.type) {
      case 'int':
      case 'uint':
        return this.constantOperand(
          await this.it.wk.keyword(e.type),
          asValue(primitive(e.type, Number(e.value))),
        );
      case 'long':
      case 'ulong':
        return this.constantOperand(
          await this.it.wk.keyword(e.type),
          asValue(primitive(e.type, e.value)),
        );
      case 'float':
      case 'double': {
        if (!Number.isFinite(e.value)) {
          throw new CompileError(
            'CS0594',
            `floating-point constant is outside the range of type '${e.type}'`,
            e.span,
          );
        }
        return this.constantOperand(
          await this.it.wk.keyword(e.type),
          asValue(primitive(e.type, e.value)),
        );
      }
      case 'decimal': {
        const d = decimalFromLiteral(e.digits);
        if (!d)
          throw new CompileError(
            'CS0594',
            "floating-point constant is outside the range of type 'decimal'",
            e.span,
          );
        return this.constantOperand(
          await this.it.wk.keyword('decimal'),
          asValue(primitive('decimal', d)),
        );
      }
      case 'char':
        return this.constantOperand(
          await this.it.wk.keyword('char'),
          asValue(primitive('char', e.value)),
        );
      case 'bool':
        return this.constantOperand(
          await this.it.wk.keyword('bool'),
          asValue(primitive('bool', e.value)),
        );
      case 'string':
        return {
          type: await this.it.wk.keyword('string'),
          value: { kind: 'string', text: e.value },
          constant: { kind: 'string', value: e.value },
        };
      case 'null':
        return { type: 'null', value: NULL, constant: { kind: 'null' } };
    }
  }

  constantOperand(type: TypeHandle, p: PrimitiveValue): Operand {
    return this.folded(type, constantOf(p));
  }

  private folded(type: TypeHandle, c: Constant): Operand {
    return { type, value: fromPrimitive(materialize(c)), constant: { kind: 'number', c } };
  }

  zero(kind: PrimitiveKind): PrimitiveValue {
    if (kind === 'bool') return asValue(primitive('bool', false));
    if (kind === 'long' || kind === 'ulong') return asValue(primitive(kind, 0n));
    if (kind === 'decimal')
      return asValue(primitive('decimal', { negative: false, scale: 0, mantissa: 0n }));
    return asValue(primitive(kind, 0));
  }

  async typeOfKind(kind: PrimitiveKind): Promise<TypeHandle> {
    return kind === 'bool' ? this.it.wk.keyword('bool') : this.it.wk.numeric(kind);
  }

  // ---------------------------------------------------------------- unary

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
        return this.folded(await this.typeOfKind(c.value.kind), c);
      }
      const sig = sem(() => resolveUnaryOperator(op, { kind: p }), span);
      const type = await this.typeOfKind(sig.result);
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
      const type = await this.it.lookup.nullableOf(inner.type as TypeHandle);
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
    const t = await this.it.target(target);
    const type = t.type as TypeHandle;
    const old = await this.it.readTarget(t);
    const next = await this.stepped(type, old, delta, span);
    await this.it.store(t, next);
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

  // ---------------------------------------------------------------- binary

  async binary(e: A.Binary): Promise<Operand> {
    if (e.operator === '&&' || e.operator === '||') return this.logical(e);
    const l = await this.it.expr(e.left);
    const r = await this.it.expr(e.right);
    return this.applyBinaryOp(e.operator, l, r, e.span);
  }

  /** `&&` / `||` (§12.14): the right side runs only when it decides the value. */
  private async logical(e: A.Binary): Promise<Operand> {
    const boolType = await this.it.wk.keyword('bool');
    const need = async (x: Operand): Promise<Operand> => {
      if (
        x.type === 'null' ||
        (!this.f.same(x.type, boolType) && !(await this.it.conversions.implicit(x, boolType)))
      ) {
        throw new CompileError(
          'CS0019',
          `operator '${e.operator}' cannot be applied to operands of type '${await this.f.name(x.type)}'`,
          e.span,
        );
      }
      return this.it.conversions.implicitly(x, boolType);
    };
    const l = await need(await this.it.expr(e.left));
    const decided = !this.it.dry && (l.value as { value: boolean }).value === (e.operator === '||');
    const r = decided
      ? await this.it.inDry(async () => need(await this.it.expr(e.right)))
      : await need(await this.it.expr(e.right));
    const lc = constBool(l.constant);
    const rc = constBool(r.constant);
    if (lc !== undefined && rc !== undefined) {
      return this.constantOperand(
        boolType,
        asValue(primitive('bool', e.operator === '&&' ? lc && rc : lc || rc)),
      );
    }
    if (this.it.dry) return { type: boolType, value: VOID };
    return { type: boolType, value: decided ? l.value : r.value };
  }

  async applyBinaryOp(op: BinaryOperator, l: Operand, r: Operand, span: A.Span): Promise<Operand> {
    const [ls, rs] = await Promise.all([this.f.isString(l.type), this.f.isString(r.type)]);
    if (op === '+' && (ls || rs)) return this.concat(l, r, span);
    const [lp, rp] = await Promise.all([this.f.primitive(l.type), this.f.primitive(r.type)]);
    if (lp && rp) return this.numeric(op, l, r, lp, rp, span);
    if (l.type === 'null' && r.type === 'null') {
      if (op === '==' || op === '!=')
        return this.constantOperand(
          await this.it.wk.keyword('bool'),
          asValue(primitive('bool', op === '==')),
        );
      throw new CompileError(
        'CS0034',
        `operator '${op}' is ambiguous on operands of type '<null>' and '<null>'`,
        span,
      );
    }
    if ((op === '==' || op === '!=') && (ls || l.type === 'null') && (rs || r.type === 'null'))
      return this.stringEquality(op, l, r);
    const [le, re] = await Promise.all([this.f.isEnum(l.type), this.f.isEnum(r.type)]);
    if (le || re) return this.enumOp(op, l, r, span);
    const user = (await this.userCandidate(l.type, r.type))
      ? await this.it.calls.userOperator(BINARY_METHODS[op], [l, r], span)
      : undefined;
    if (user) return user;
    // two references compare by identity before any user-defined conversion is considered
    if ((op === '==' || op === '!=') && (await this.referenceComparable(l.type, r.type)))
      return this.referenceEquality(op, l, r);
    const converted = await this.throughUserConversion(op, l, r, span);
    if (converted) return converted;
    const [ln, rn] = await Promise.all([
      this.f.nullableUnderlying(l.type),
      this.f.nullableUnderlying(r.type),
    ]);
    if (
      ln ||
      rn ||
      (l.type === 'null' && (await this.f.isValueType(r.type))) ||
      (r.type === 'null' && (await this.f.isValueType(l.type)))
    ) {
      return this.lifted(op, l, r, ln, rn, span);
    }
    if ((op === '==' || op === '!=') && (await this.referenceComparable(l.type, r.type)))
      return this.referenceEquality(op, l, r);
    throw await this.noOperator(op, l.type, r.type, span);
  }

  /**
   * A predefined numeric operator reached through an operand's user-defined implicit conversion
   * (`meters + 1.5` with `implicit operator double(Meters)`): overload resolution over the
   * predefined operators considers user-defined conversions too (§12.4.5).
   */
  private async throughUserConversion(
    op: BinaryOperator,
    l: Operand,
    r: Operand,
    span: A.Span,
  ): Promise<Operand | undefined> {
    const options = async (x: Operand): Promise<PrimitiveKind[]> => {
      if (x.type === 'null') return [];
      const p = await this.f.primitive(x.type);
      if (p) return [p];
      const kinds: PrimitiveKind[] = [];
      for (const m of (await this.it.md.members(x.type, 'op_Implicit')).methods) {
        const k = m.returnType && (await this.f.primitive(m.returnType));
        if (k && m.parameters.length === 1 && this.f.same(m.parameters[0]!.type, x.type))
          kinds.push(k);
      }
      return kinds;
    };
    const [lo, ro] = [await options(l), await options(r)];
    if (
      (lo.length === 1 &&
        ro.length === 1 &&
        lo[0] === (await this.f.primitive(l.type)) &&
        ro[0] === (await this.f.primitive(r.type))) ||
      !lo.length ||
      !ro.length
    ) {
      return undefined;
    }
    const fits: [PrimitiveKind, PrimitiveKind][] = [];
    for (const a of lo) {
      for (const b of ro) {
        try {
          resolveBinaryOperator(op, { kind: a }, { kind: b });
          fits.push([a, b]);
        } catch (e) {
          if (!(e instanceof EvalCompileError)) throw e;
        }
      }
    }
    if (fits.length !== 1) return undefined;
    const [a, b] = fits[0]!;
    const lc = await this.it.conversions.implicitly(l, await this.typeOfKind(a));
    const rc = await this.it.conversions.implicitly(r, await this.typeOfKind(b));
    return this.applyBinaryOp(op, lc, rc, span);
  }

  private async noOperator(op: string, l: SType, r: SType, span: A.Span): Promise<CompileError> {
    return new CompileError(
      'CS0019',
      `operator '${op}' cannot be applied to operands of type '${await this.f.name(l)}' and '${await this.f.name(r)}'`,
      span,
    );
  }

  /** Whether user-defined operators may apply: an operand of a type that is not predefined. */
  private async userCandidate(l: SType, r: SType): Promise<boolean> {
    const plain = async (t: SType) =>
      t === 'null' ||
      !!(await this.f.primitive(t)) ||
      (await this.f.isString(t)) ||
      (await this.f.isObject(t));
    return !((await plain(l)) && (await plain(r)));
  }

  private async numeric(
    op: BinaryOperator,
    l: Operand,
    r: Operand,
    lk: PrimitiveKind,
    rk: PrimitiveKind,
    span: A.Span,
  ): Promise<Operand> {
    const lc = l.constant?.kind === 'number' ? l.constant.c : undefined;
    const rc = r.constant?.kind === 'number' ? r.constant.c : undefined;
    if (lc && rc) {
      const c = sem(() => foldBinary(op, lc, rc, this.it.constantContext), span);
      return this.folded(await this.typeOfKind(c.value.kind), c);
    }
    const sig = sem(
      () =>
        resolveBinaryOperator(
          op,
          lc ? { kind: lk, constant: lc.value } : { kind: lk },
          rc ? { kind: rk, constant: rc.value } : { kind: rk },
        ),
      span,
    );
    const type = await this.typeOfKind(sig.result);
    if (this.it.dry) return { type, value: VOID };
    const lv = this.operandAs(l, sig.left);
    const rv = this.operandAs(r, sig.right);
    return {
      type,
      value: fromPrimitive(sem(() => applyBinary(op, sig, lv, rv, { checked: this.it.checked }))),
    };
  }

  /** An operand converted implicitly to a kind (a constant converts as the compiler folds it). */
  private operandAs(x: Operand, kind: PrimitiveKind): PrimitiveValue {
    if (x.constant?.kind === 'number')
      return materialize(
        sem(() => foldConversion((x.constant as { c: Constant }).c, kind, 'unchecked')),
      );
    return convert(toPrimitive(x.value)!, kind, false);
  }

  private async enumOp(op: BinaryOperator, l: Operand, r: Operand, span: A.Span): Promise<Operand> {
    const info = async (x: Operand): Promise<OperandType> => {
      if (x.type !== 'null' && (await this.f.isEnum(x.type))) {
        return {
          enumName: await this.f.fullName(x.type),
          underlying: (await this.f.enumUnderlying(x.type)) as Exclude<IntegralKind, 'char'>,
        };
      }
      const p = await this.f.primitive(x.type);
      if (!p) return { enumName: `!${await this.f.name(x.type)}`, underlying: 'int' }; // matches no enum
      return x.constant?.kind === 'number'
        ? { kind: p, constant: x.constant.c.value }
        : { kind: p };
    };
    const [li, ri] = [await info(l), await info(r)];
    let res;
    try {
      res = resolveEnumBinaryOperator(op, li, ri);
    } catch (e) {
      if (e instanceof EvalCompileError) throw await this.noOperator(op, l.type, r.type, span);
      throw e;
    }
    const enumType = ('enumName' in li ? l.type : r.type) as TypeHandle;
    const u = res.underlying;
    const type =
      res.result === 'bool'
        ? await this.it.wk.keyword('bool')
        : res.result === 'enum'
          ? enumType
          : await this.it.wk.numeric(u);
    const constant = !!l.constant && !!r.constant;
    if (this.it.dry && !constant) return { type, value: VOID };
    const raw = (x: Operand) =>
      x.value.kind === 'enum'
        ? convert(enumRaw(x.value), u, false)
        : convert(toPrimitive(x.value)!, u, false);
    const checkedNow = constant ? this.it.constantContext === 'checked' : this.it.checked;
    const a = raw(l);
    const b = raw(r);
    const sig = sem(() => resolveBinaryOperator(op, { kind: u }, { kind: u }), span);
    const v = sem(
      () =>
        applyBinary(op, sig, convert(a, sig.left, false), convert(b, sig.right, false), {
          checked: checkedNow,
        }),
      span,
    );
    if (res.result === 'bool') {
      const out = fromPrimitive(v);
      return constant
        ? { type, value: out, constant: { kind: 'number', c: constantOf(v) } }
        : { type, value: out };
    }
    const back = sem(() => convert(v, u, checkedNow), span);
    if (constant && checkedNow && back.value !== convert(v, u, false).value)
      throw new CompileError(
        'CS0220',
        'the operation overflows at compile time in checked mode',
        span,
      );
    const value: EvalValue =
      res.result === 'enum'
        ? { kind: 'enum', type: enumType, underlying: u, value: back.value as number | bigint }
        : fromPrimitive(back);
    return constant
      ? { type, value, constant: { kind: 'number', c: constantOf(back) } }
      : { type, value };
  }

  /** Lifted operators (§12.4.8): on Nullable<T> operands; null in, null out (comparisons: false). */
  private async lifted(
    op: BinaryOperator,
    l: Operand,
    r: Operand,
    ln: TypeHandle | undefined,
    rn: TypeHandle | undefined,
    span: A.Span,
  ): Promise<Operand> {
    const lt = ln ?? (l.type === 'null' ? (rn ?? (r.type as TypeHandle)) : l.type);
    const rt = rn ?? (r.type === 'null' ? (ln ?? (l.type as TypeHandle)) : r.type);
    const probe = await this.it.inDry(() =>
      this.applyBinaryOp(op, { type: lt, value: VOID }, { type: rt, value: VOID }, span),
    );
    const comparison = COMPARISONS.has(op);
    const type = comparison
      ? (probe.type as TypeHandle)
      : await this.it.lookup.nullableOf(probe.type as TypeHandle);
    if (this.it.dry) return { type, value: VOID };
    const lnull = l.value.kind === 'null';
    const rnull = r.value.kind === 'null';
    if (lnull || rnull) {
      if (op === '==') return { type, value: bool(lnull && rnull) };
      if (op === '!=') return { type, value: bool(lnull !== rnull) };
      if (comparison) return { type, value: bool(false) };
      return { type, value: NULL };
    }
    const v = await this.applyBinaryOp(
      op,
      { type: lt, value: l.value },
      { type: rt, value: r.value },
      span,
    );
    return { type, value: v.value };
  }

  /** `+` with a string operand (§12.10.5): string.Concat, each non-string through ToString(). */
  private async concat(l: Operand, r: Operand, span: A.Span): Promise<Operand> {
    const type = await this.it.wk.keyword('string');
    const lc = stringConstant(l.constant);
    const rc = stringConstant(r.constant);
    if (lc !== undefined && rc !== undefined)
      return {
        type,
        value: { kind: 'string', text: lc + rc },
        constant: { kind: 'string', value: lc + rc },
      };
    if (l.type === 'null' && r.type === 'null')
      throw new CompileError(
        'CS0034',
        "operator '+' is ambiguous on operands of type '<null>' and '<null>'",
        span,
      );
    for (const x of [l, r])
      if (x.type !== 'null' && (await this.it.lookup.isVoid(x.type)))
        throw await this.noOperator('+', l.type, r.type, span);
    if (this.it.dry) return { type, value: VOID };
    const text = (await this.it.calls.textOf(l)) + (await this.it.calls.textOf(r));
    return { type, value: { kind: 'string', text } };
  }

  private async stringEquality(op: '==' | '!=', l: Operand, r: Operand): Promise<Operand> {
    const type = await this.it.wk.keyword('bool');
    const lc = stringOrNullConstant(l.constant);
    const rc = stringOrNullConstant(r.constant);
    if (lc !== undefined && rc !== undefined)
      return this.constantOperand(type, asValue(primitive('bool', (lc === rc) === (op === '=='))));
    if (this.it.dry) return { type, value: VOID };
    const text = async (v: EvalValue) =>
      v.kind === 'null' ? null : (await this.it.rt.game.stringText(v)).text;
    const equal = (await text(l.value)) === (await text(r.value));
    return { type, value: bool(equal === (op === '==')) };
  }

  /** §12.12.7: reference types compare by identity when one converts to the other. */
  private async referenceComparable(l: SType, r: SType): Promise<boolean> {
    if (!(await this.f.isReferenceType(l)) || !(await this.f.isReferenceType(r))) return false;
    if (l === 'null' || r === 'null') return true;
    const iface = async (t: TypeHandle) => (await this.f.describe(t)).kind === 'interface';
    return (
      (await this.f.assignable(l, r)) ||
      (await this.f.assignable(r, l)) ||
      (await iface(l)) ||
      (await iface(r))
    );
  }

  private async referenceEquality(op: '==' | '!=', l: Operand, r: Operand): Promise<Operand> {
    const type = await this.it.wk.keyword('bool');
    if (l.constant?.kind === 'null' && r.constant?.kind === 'null')
      return this.constantOperand(type, asValue(primitive('bool', op === '==')));
    if (this.it.dry) return { type, value: VOID };
    if (isUnboxed(l.value) && isUnboxed(r.value)) {
      // boxes reach the evaluator as their values: whether two are the same box is unknown
      throw new UnsupportedError(
        `comparing two boxed values by reference is not supported (the evaluator does not keep box identity): compare the values themselves, e.g. (int)a == (int)b, or a.Equals(b)`,
      );
    }
    return { type, value: bool(sameReference(l.value, r.value) === (op === '==')) };
  }

  // ---------------------------------------------------------------- ?? and ?:

  async coalesce(e: A.Coalesce): Promise<Operand> {
    const l = await this.it.expr(e.left);
    if (
      l.type !== 'null' &&
      (await this.f.isValueType(l.type)) &&
      !(await this.f.nullableUnderlying(l.type))
    ) {
      throw new CompileError(
        'CS0019',
        `operator '??' cannot be applied to operands of type '${await this.f.name(l.type)}' and the right side`,
        e.span,
      );
    }
    const leftNull = !this.it.dry && l.value.kind === 'null';
    const r =
      leftNull || this.it.dry
        ? await this.it.expr(e.right)
        : await this.it.inDry(() => this.it.expr(e.right));
    const a0 = await this.f.nullableUnderlying(l.type);
    const conv = this.it.conversions;
    const pick = async (type: TypeHandle, convertLeft: boolean): Promise<Operand> => {
      if (this.it.dry) return { type, value: VOID };
      if (leftNull) return conv.implicitly(r, type);
      if (!convertLeft) return { type, value: l.value };
      return conv.implicitly({ type: a0 ?? l.type, value: l.value }, type);
    };
    if (a0 && (await conv.implicit(r, a0))) return pick(a0, false);
    if (l.type !== 'null' && (await conv.implicit(r, l.type))) return pick(l.type, false);
    if (r.type !== 'null' && (await conv.implicit({ type: a0 ?? l.type, value: VOID }, r.type)))
      return pick(r.type, true);
    throw await this.noOperator('??', l.type, r.type, e.span);
  }

  async conditional(e: A.Conditional): Promise<Operand> {
    const boolType = await this.it.wk.keyword('bool');
    const c = await this.it.conversions.implicitly(
      await this.it.expr(e.condition),
      boolType,
      'the condition',
    );
    const taken = this.it.dry ? undefined : (c.value as { value: boolean }).value;
    const branch = (x: A.Expression, run: boolean) =>
      run ? this.it.expr(x) : this.it.inDry(() => this.it.expr(x));
    const t = await branch(e.whenTrue, taken === true);
    const f = await branch(e.whenFalse, taken === false);
    const type = await this.conditionalType(t, f, e.span);
    const chosen = taken === false ? f : t;
    const out =
      taken === undefined
        ? { type, value: VOID }
        : await this.it.conversions.implicitly(chosen, type);
    const cc = constBool(c.constant);
    if (cc !== undefined && t.constant && f.constant) {
      const k = await this.it.conversions.implicitly(cc ? t : f, type);
      if (k.constant) return { type, value: out.value, constant: k.constant };
    }
    return { type, value: out.value };
  }

  private async conditionalType(t: Operand, f: Operand, span: A.Span): Promise<TypeHandle> {
    const conv = this.it.conversions;
    if (t.type !== 'null' && f.type !== 'null' && this.f.same(t.type, f.type)) return t.type;
    const toF = f.type !== 'null' && !!(await conv.implicit(t, f.type));
    const toT = t.type !== 'null' && !!(await conv.implicit(f, t.type));
    if (toF && !toT) return f.type;
    if (toT && !toF) return t.type;
    throw new CompileError(
      'CS0173',
      `type of conditional expression cannot be determined because there is no implicit conversion between '${await this.f.name(t.type)}' and '${await this.f.name(f.type)}'`,
      span,
    );
  }

  // ---------------------------------------------------------------- is, as

  async is(e: A.Is): Promise<Operand> {
    const boolType = await this.it.wk.keyword('bool');
    const x = await this.it.expr(e.operand);
    if (e.pattern.kind === 'NullPattern') {
      if (
        x.type !== 'null' &&
        (await this.f.isValueType(x.type)) &&
        !(await this.f.nullableUnderlying(x.type))
      ) {
        throw new CompileError(
          'CS0037',
          `cannot convert null to '${await this.f.name(x.type)}' because it is a non-nullable value type`,
          e.span,
        );
      }
      return { type: boolType, value: this.it.dry ? VOID : bool(x.value.kind === 'null') };
    }
    const target = await this.patternType(e.pattern.type);
    if (target.k === 'constant') {
      const eq = await this.applyBinaryOp('==', x, target.op, e.span);
      return { type: boolType, value: eq.value };
    }
    const t = target.type;
    if (x.type === 'null') return { type: boolType, value: bool(false) };
    if (this.it.dry) return { type: boolType, value: VOID };
    return { type: boolType, value: bool(await this.instanceOf(x, t)) };
  }

  /** The type of an `is` pattern, or a constant when it names one (`x is Color.Red`). */
  private async patternType(
    node: A.TypeNode,
  ): Promise<{ k: 'type'; type: TypeHandle } | { k: 'constant'; op: Operand }> {
    try {
      return { k: 'type', type: await this.it.lookup.type(node) };
    } catch (err) {
      if (
        !(err instanceof CompileError) ||
        node.kind !== 'NamedType' ||
        node.parts.length < 2 ||
        node.alias
      )
        throw err;
      let expr: A.Expression = {
        kind: 'Name',
        name: node.parts[0]!.name.name,
        typeArgs: node.parts[0]!.typeArgs,
        alias: null,
        span: node.parts[0]!.span,
      };
      for (const part of node.parts.slice(1)) {
        expr = {
          kind: 'MemberAccess',
          target: expr,
          name: part.name,
          typeArgs: part.typeArgs,
          conditional: false,
          span: { ...node.span, end: part.span.end },
        };
      }
      const op = await this.it.expr(expr);
      if (!op.constant)
        throw new CompileError('CS0150', 'a constant value is expected in a pattern', node.span);
      return { k: 'constant', op };
    }
  }

  /** Whether a value's run-time type converts to `t` by identity, reference, boxing or unboxing. */
  async instanceOf(x: Operand, t: TypeHandle): Promise<boolean> {
    const v = x.value;
    if (v.kind === 'null' || v.kind === 'void') return false;
    const target = (await this.f.nullableUnderlying(t)) ?? t;
    const runtime = await this.it.rt.game.typeOf(v);
    return this.f.assignable(target, runtime);
  }

  async as(e: A.As): Promise<Operand> {
    const x = await this.it.expr(e.operand);
    const t = await this.it.lookup.type(e.type);
    if ((await this.f.isValueType(t)) && !(await this.f.nullableUnderlying(t))) {
      throw new CompileError(
        'CS0077',
        `the as operator must be used with a reference type or nullable type ('${await this.f.name(t)}' is a non-nullable value type)`,
        e.span,
      );
    }
    const c = await this.it.conversions.explicit(x, t);
    if (!c || c.k === 'user' || c.k === 'numeric' || c.k === 'enum') {
      throw new CompileError(
        'CS0039',
        `cannot convert type '${await this.f.name(x.type)}' to '${await this.f.name(t)}' via a reference, boxing, unboxing or null type conversion`,
        e.span,
      );
    }
    if (this.it.dry) return { type: t, value: VOID };
    return { type: t, value: (await this.instanceOf(x, t)) ? x.value : NULL };
  }

  // ---------------------------------------------------------------- assignment

  async assignment(e: A.Assignment): Promise<Operand> {
    const target = await this.it.target(e.target);
    const type = target.type as TypeHandle;
    if (e.operator === '=') {
      const v = await this.it.conversions.implicitly(
        await this.it.expr(e.value),
        type,
        'the assigned value',
      );
      await this.it.store(target, v.value);
      return { type, value: v.value };
    }
    if (e.operator === '??=') {
      if ((await this.f.isValueType(type)) && !(await this.f.nullableUnderlying(type))) {
        throw new CompileError(
          'CS0019',
          `operator '??=' cannot be applied to operands of type '${await this.f.name(type)}'`,
          e.span,
        );
      }
      // the value of x ??= y is of x's underlying type when x is a Nullable (C# 8, §12.21.5)
      const resultType = (await this.f.nullableUnderlying(type)) ?? type;
      const current = await this.it.readTarget(target);
      if (!this.it.dry && current.kind !== 'null') {
        await this.it.inDry(() => this.it.expr(e.value));
        return { type: resultType, value: current };
      }
      const v = await this.it.conversions.implicitly(
        await this.it.expr(e.value),
        resultType,
        'the assigned value',
      );
      await this.it.store(target, v.value);
      return { type: resultType, value: v.value };
    }
    const op = e.operator.slice(0, -1) as BinaryOperator;
    const current: Operand = { type, value: await this.readForCompound(target) };
    const rhs = await this.it.expr(e.value);
    const result = await this.applyBinaryOp(op, current, rhs, e.span);
    const conv = this.it.conversions;
    let stored: Operand;
    if (await conv.implicit(result, type)) {
      stored = await conv.implicitly(result, type);
    } else {
      // §12.21.4: x op= y is x = (T)(x op y) for a predefined operator when y converts to T
      const explicit = await conv.explicit(result, type);
      const predefined =
        !!(await this.f.primitive(result.type)) || (await this.f.isEnum(result.type));
      const rhsFits = !!(await conv.implicit(rhs, type)) || (await this.shiftCount(op, rhs));
      if (explicit && predefined && !rhsFits && rhs.constant) {
        throw new CompileError(
          'CS0031',
          `constant value cannot be converted to a '${await this.f.name(type)}'`,
          e.value.span,
        );
      }
      if (!explicit || !predefined || !rhsFits) {
        throw new CompileError(
          explicit ? 'CS0266' : 'CS0029',
          `cannot implicitly convert type '${await this.f.name(result.type)}' to '${await this.f.name(type)}'`,
          e.span,
        );
      }
      stored = await conv.apply(
        explicit,
        { type: result.type, value: result.value },
        type,
        this.it.checked,
      );
    }
    await this.it.store(target, stored.value);
    return { type, value: stored.value };
  }

  private async readForCompound(target: Operand): Promise<EvalValue> {
    return this.it.readTarget(target);
  }

  /** `x <<= n` / `x >>= n`: the count is an int whatever x is. */
  private async shiftCount(op: BinaryOperator, rhs: Operand): Promise<boolean> {
    if (op !== '<<' && op !== '>>') return false;
    return !!(await this.it.conversions.implicit(rhs, await this.it.wk.keyword('int')));
  }
}

function promotedOf(u: IntegralKind): PrimitiveKind {
  return u === 'long' || u === 'ulong' || u === 'uint' ? u : 'int';
}

/** An enum value (or a number standing for one) as a primitive of its underlying type. */
export function enumRaw(v: EvalValue): PrimitiveValue {
  if (v.kind === 'enum') {
    return v.underlying === 'long' || v.underlying === 'ulong'
      ? { kind: v.underlying, value: BigInt(v.value) }
      : { kind: v.underlying, value: Number(v.value) };
  }
  const p = toPrimitive(v);
  if (!p) throw new UnsupportedError(`expected an enum value, got ${v.kind}`);
  return p;
}

function constBool(c: ConstantValue | undefined): boolean | undefined {
  return c?.kind === 'number' && c.c.value.kind === 'bool' ? c.c.value.value : undefined;
}

function stringConstant(c: ConstantValue | undefined): string | undefined {
  if (c?.kind === 'string') return c.value;
  if (c?.kind === 'null') return '';
  return undefined;
}

function stringOrNullConstant(c: ConstantValue | undefined): string | null | undefined {
  if (c?.kind === 'string') return c.value;
  if (c?.kind === 'null') return null;
  return undefined;
}

/** A value-type value held where C# would hold a box (object, interface). */
function isUnboxed(v: EvalValue): boolean {
  return (
    v.kind === 'number' ||
    v.kind === 'bool' ||
    v.kind === 'decimal' ||
    v.kind === 'enum' ||
    v.kind === 'struct'
  );
}

/** Object identity as the game sees it (strings made here and never sent compare by text). */
export function sameReference(a: EvalValue, b: EvalValue): boolean {
  if (a.kind === 'null' || b.kind === 'null') return a.kind === b.kind;
  const ra = a.kind === 'object' || a.kind === 'string' ? a.ref : undefined;
  const rb = b.kind === 'object' || b.kind === 'string' ? b.ref : undefined;
  if (ra && rb) return ra.id === rb.id;
  if (a.kind === 'string' && b.kind === 'string' && !ra && !rb) return a.text === b.text;
  return false;
}
