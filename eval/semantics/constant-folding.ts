// Constant expressions (§12.20) as mcs folds them. C# folds an expression whose operands are all
// constants at compile time, in a checked context unless inside unchecked(...), and a failure is
// a compile error rather than an exception. The interpreter decides what is constant; these
// functions do the folding and say which error mcs would report. Measured on mcs 6.8:
//   - integer overflow -> CS0220 (int.MaxValue + 1); unchecked(...) wraps instead, except
//     int.MinValue / -1 and % -1 (long too), which are CS0220 even in unchecked;
//   - integer or decimal division by constant zero -> CS0020, whatever the context;
//   - decimal overflow -> CS0220 even in unchecked;
//   - checked narrowing of a constant -> CS0221 (`(byte)300`, `(uint)-1`); from double/float the
//     test is NaN or value < MinValue or value > MaxValue on the untruncated value, so
//     `(int)2147483647.9` and `(byte)-0.5` are errors although the run-time checked casts pass;
//   - decimal constant -> integral out of range -> CS0031, even in unchecked;
//   - one mcs range-check bug we do NOT follow: mcs folds (int)2147483648UL to int.MinValue
//     without CS0221; C# (Roslyn) reports CS0221 and so do we (the oracle test expects it);
//   - float constants keep DOUBLE precision inside mcs (its FloatConstant stores a double):
//     `16777216f + 1f` folds to 16777217 (a float variable would give 16777216),
//     `(double)(0.1f + 0.2f)` is 0.30000000447034836, `(0.1f + 0.2f) == 0.3f` is false,
//     `(decimal)0.1f` is 0.100000001490116m (through double), `float.MaxValue * 2f` is a finite
//     double-sized value. Conversions *to* float from other types do round.
// A constant reaches run time (assigned, boxed, passed) through `materialize`, which rounds a
// float constant to binary32 — measured: `float f = 16777216f + 1f;` holds 16777216.

import {
  type PrimitiveKind,
  type PrimitiveValue,
  asValue,
  integralToBigInt,
  isFloatingKind,
  isIntegralKind,
  isIntegralValue,
  primitive,
  INTEGRAL_INFO,
} from './numeric-types.js';
import {
  type BinaryOperator,
  type UnaryOperator,
  resolveBinaryOperator,
  resolveUnaryOperator,
} from './promotion.js';
import { type ArithmeticOptions, applyBinary, applyUnary } from './arithmetic.js';
import { convert } from './conversions.js';
import { decimalFromDouble } from './decimal-convert.js';
import {
  EvalArithmeticError,
  constantConversionError,
  constantDivisionByZeroError,
  constantNotConvertibleError,
  constantOverflowError,
} from './errors.js';
import { formatNumber } from '../format/format-number.js';

/** The context a constant is folded in: checked unless inside unchecked(...) (§12.7.14). */
export type ConstantContext = 'checked' | 'unchecked';

/** A folded constant. For float, `wide` is the double mcs actually holds. */
export interface Constant {
  readonly value: PrimitiveValue;
  readonly wide?: number;
}

export function constantOf(value: PrimitiveValue): Constant {
  return value.kind === 'float' ? { value, wide: value.value } : { value };
}

/**
 * The value the compiled program sees at run time. A float constant is rounded to binary32
 * (already in `value`); a decimal zero constant of scale 0 loses its sign, because mcs emits it
 * from its integer value (measured: -5m * 0m is +0, while -5m * 0.0m keeps -0.0).
 */
export function materialize(c: Constant): PrimitiveValue {
  const v = c.value;
  if (v.kind === 'decimal' && v.value.mantissa === 0n && v.value.scale === 0 && v.value.negative) {
    return asValue(primitive('decimal', { negative: false, scale: 0, mantissa: 0n }));
  }
  return v;
}

function floatConstant(wide: number): Constant {
  return { value: asValue(primitive('float', Math.fround(wide))), wide };
}

/** The double a float/double constant stands for inside mcs. */
function asDouble(c: Constant): number | undefined {
  if (c.value.kind === 'float') return c.wide ?? c.value.value;
  if (c.value.kind === 'double') return c.value.value;
  return undefined;
}

function mapErrors<T>(fold: () => T): T {
  try {
    return fold();
  } catch (e) {
    if (e instanceof EvalArithmeticError) {
      throw e.exceptionType === 'System.DivideByZeroException'
        ? constantDivisionByZeroError()
        : constantOverflowError();
    }
    throw e;
  }
}

function literal(c: Constant): string {
  const d = asDouble(c);
  if (d !== undefined) return formatNumber('double', d);
  return formatNumber(c.value.kind, c.value.value);
}

/** Converts a constant (explicitly or implicitly) as mcs does at compile time. */
export function foldConversion(c: Constant, to: PrimitiveKind, context: ConstantContext): Constant {
  const checked = context === 'checked';
  const d = asDouble(c);
  if (d !== undefined) {
    if (to === 'float') return c.value.kind === 'float' ? c : floatConstant(Math.fround(d));
    if (to === 'double') return { value: asValue(primitive('double', d)) };
    if (to === 'decimal') {
      try {
        return { value: asValue(primitive('decimal', decimalFromDouble(d))) };
      } catch {
        throw constantConversionError(literal(c), to);
      }
    }
    if (isIntegralKind(to)) {
      const { min, max } = INTEGRAL_INFO[to];
      if (checked && (Number.isNaN(d) || d < Number(min) || d > Number(max))) {
        throw constantConversionError(literal(c), to);
      }
      return { value: convert(asValue(primitive('double', d)), to, false) };
    }
  }
  if (c.value.kind === 'decimal' && isIntegralKind(to)) {
    try {
      return { value: convert(c.value, to, true) };
    } catch {
      throw constantNotConvertibleError(`${literal(c)}M`, to);
    }
  }
  if (isIntegralValue(c.value) && isIntegralKind(to) && checked) {
    const v = integralToBigInt(c.value);
    const { min, max } = INTEGRAL_INFO[to];
    // C#'s rule (CS0221), not mcs 6.8's: mcs folds (int)2147483648UL to int.MinValue silently
    // (it checks ulong -> int against uint.MaxValue); Roslyn, which compiles Unity's code,
    // refuses it, and so do we.
    if (v < min || v > max) throw constantConversionError(literal(c), to);
  }
  // Integral ranges were checked above; nothing else can fail here.
  return constantOf(mapErrors(() => convert(c.value, to, false)));
}

/** Folds `left op right` for two constants. */
export function foldBinary(
  op: BinaryOperator,
  left: Constant,
  right: Constant,
  context: ConstantContext,
): Constant {
  const sig = resolveBinaryOperator(
    op,
    { kind: left.value.kind, constant: left.value },
    { kind: right.value.kind, constant: right.value },
  );
  const l = foldConversion(left, sig.left, context);
  const r = foldConversion(right, sig.right, context);
  if (sig.left === 'float') {
    // mcs computes float constants in double and keeps the unrounded result.
    const wide = applyBinary(
      op,
      { left: 'double', right: 'double', result: sig.result === 'bool' ? 'bool' : 'double' },
      asValue(primitive('double', asDouble(l) ?? 0)),
      asValue(primitive('double', asDouble(r) ?? 0)),
      { checked: false },
    );
    return wide.kind === 'double' ? floatConstant(wide.value) : { value: wide };
  }
  return constantOf(
    mapErrors(() => applyBinary(op, sig, l.value, r.value, { checked: context === 'checked' })),
  );
}

/** Folds `op operand` for a constant operand. */
export function foldUnary(
  op: UnaryOperator,
  operand: Constant,
  context: ConstantContext,
): Constant {
  const sig = resolveUnaryOperator(op, { kind: operand.value.kind, constant: operand.value });
  const c = foldConversion(operand, sig.operand, context);
  if (sig.operand === 'float' && isFloatingKind(c.value.kind)) {
    const wide = asDouble(c) ?? 0;
    return op === '-' ? floatConstant(-wide) : c;
  }
  return constantOf(
    mapErrors(() => applyUnary(op, sig, c.value, { checked: context === 'checked' })),
  );
}

/** An operand of an expression that mixes constants with run-time values. */
export type MixedOperand = { readonly constant: Constant } | { readonly runtime: PrimitiveValue };

function isZero(v: PrimitiveValue): boolean {
  return v.value === 0 || v.value === 0n;
}

/**
 * `left op right` where at least one operand is a compile-time constant and the expression as a
 * whole is not (both constant: foldBinary). The constant takes part in binding (`someUint + 1`
 * is uint), is converted at compile time (a float constant brings its double value, measured:
 * `d + (0.1f + 0.2f)` adds 0.30000000447034836) and the operation runs with run-time semantics.
 */
export function evaluateWithConstants(
  op: BinaryOperator,
  left: MixedOperand,
  right: MixedOperand,
  options: ArithmeticOptions,
): PrimitiveValue {
  const info = (o: MixedOperand) =>
    'constant' in o
      ? { kind: o.constant.value.kind, constant: o.constant.value }
      : { kind: o.runtime.kind };
  const sig = resolveBinaryOperator(op, info(left), info(right));
  const operand = (o: MixedOperand, to: PrimitiveKind) =>
    'constant' in o
      ? materialize(foldConversion(o.constant, to, 'checked'))
      : convert(o.runtime, to, false);
  const l = operand(left, sig.left);
  const r = operand(right, sig.right);
  if (op === '+' && (sig.left === 'float' || sig.left === 'double')) {
    // mcs drops "+ 0" when the 0 is a constant, so -0.0 + 0 stays -0.0 (measured: `y + 0`,
    // `0 + y`, `y + 0L` with double y = -0.0 all give -0.0; IEEE addition would give +0.0).
    if ('constant' in right && isZero(r)) return l;
    if ('constant' in left && isZero(l)) return r;
  }
  return applyBinary(op, sig, l, r, options);
}
