// The predefined operators on values (C# 6 standard: §12.8 unary, §12.9 arithmetic, §12.10 shift,
// §12.11 relational, §12.12 logical), checked and unchecked, as Mono 6.8 on x86-64 computes them.
//   - Integers: exact bigint arithmetic, then wrapped (unchecked) or range-checked (checked).
//     Division truncates toward zero; x / 0 and x % 0 throw DivideByZeroException. Measured:
//     int.MinValue / -1, int.MinValue % -1, long.MinValue / -1 and long.MinValue % -1 throw
//     OverflowException in checked AND unchecked contexts (Mono checks before idiv).
//   - Shifts: the count is masked to 5 bits (int, uint) or 6 bits (long, ulong); >> is
//     arithmetic on signed and logical on unsigned types; checked never applies.
//   - float: every operation rounds to binary32 (Mono 6.8 x64 JIT computes float in single
//     precision; measured: 16777216f + 1f + 1f with variables is 16777216). double: IEEE.
//     % on both is fmod (result has the dividend's sign), exactly JavaScript's %.
//   - decimal: see decimal.ts; checked/unchecked does not matter.

import {
  type PrimitiveValue,
  asValue,
  integralToBigInt,
  isIntegralKind,
  isIntegralValue,
  primitive,
  wrapToKind,
} from './numeric-types.js';
import {
  type BinaryOperator,
  type BinarySignature,
  type UnaryOperator,
  type UnarySignature,
  resolveBinaryOperator,
  resolveUnaryOperator,
} from './promotion.js';
import { convert } from './conversions.js';
import { unaryOperatorError } from './errors.js';
import { DECIMAL_ONE, decimalAdd, decimalSubtract, negate } from './decimal.js';
import {
  bool,
  boolBinary,
  decimalBinary,
  floatingBinary,
  integerBinary,
  integral,
} from './operator-kernels.js';

export interface ArithmeticOptions {
  /** Inside checked(...) (or compiled with /checked). */
  readonly checked: boolean;
}

/**
 * Applies a resolved operator to operands already converted to `sig.left` and `sig.right`
 * (resolveBinaryOperator, then conversions.convert).
 */
export function applyBinary(
  op: BinaryOperator,
  sig: BinarySignature,
  left: PrimitiveValue,
  right: PrimitiveValue,
  options: ArithmeticOptions,
): PrimitiveValue {
  if (left.kind !== sig.left || right.kind !== sig.right) {
    throw new Error(`operands ${left.kind}, ${right.kind} do not match ${sig.left}, ${sig.right}`);
  }
  if (left.kind === 'int' && right.kind === 'int') {
    const fast = intBinary(op, left.value, right.value, options.checked);
    if (fast) return fast;
  }
  if (isIntegralValue(left) && isIntegralValue(right) && isIntegralKind(sig.left)) {
    const a = integralToBigInt(left);
    const b = integralToBigInt(right);
    return integerBinary(op, sig.left, a, b, options.checked);
  }
  if ((left.kind === 'float' || left.kind === 'double') && typeof right.value === 'number') {
    return floatingBinary(op, left.kind, left.value, right.value);
  }
  if (left.kind === 'decimal' && right.kind === 'decimal') {
    return decimalBinary(op, left.value, right.value);
  }
  if (left.kind === 'bool' && right.kind === 'bool') return boolBinary(op, left.value, right.value);
  throw new Error(`no evaluation for ${left.kind} ${op} ${right.kind}`);
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * `int op int` on doubles where that is exact, as the bigint path computes it: sums,
 * differences and products in range (products beyond 2^53 excepted), unchecked wrap-around,
 * and comparisons. Undefined for the rest (a checked overflow, division...): the bigint path.
 */
export function intBinary(
  op: BinaryOperator,
  a: number,
  b: number,
  checked: boolean,
): PrimitiveValue | undefined {
  switch (op) {
    case '+':
    case '-': {
      const r = op === '+' ? a + b : a - b;
      if (r >= INT_MIN && r <= INT_MAX) return { kind: 'int', value: r | 0 };
      return checked ? undefined : { kind: 'int', value: r | 0 };
    }
    case '*': {
      const r = a * b;
      if (r >= INT_MIN && r <= INT_MAX) return { kind: 'int', value: r | 0 };
      return checked ? undefined : { kind: 'int', value: Math.imul(a, b) };
    }
    case '==':
      return { kind: 'bool', value: a === b };
    case '!=':
      return { kind: 'bool', value: a !== b };
    case '<':
      return { kind: 'bool', value: a < b };
    case '>':
      return { kind: 'bool', value: a > b };
    case '<=':
      return { kind: 'bool', value: a <= b };
    case '>=':
      return { kind: 'bool', value: a >= b };
    case '/':
    case '%':
    case '&':
    case '|':
    case '^':
    case '<<':
    case '>>':
      return undefined;
  }
}

/**
 * Binds and evaluates `left op right` for run-time operands (values of their static types). When
 * an operand is a compile-time constant use constant-folding's evaluateWithConstants instead:
 * binding and conversion differ for constants.
 */
export function evaluateBinary(
  op: BinaryOperator,
  left: PrimitiveValue,
  right: PrimitiveValue,
  options: ArithmeticOptions,
): PrimitiveValue {
  const sig = resolveBinaryOperator(op, { kind: left.kind }, { kind: right.kind });
  // Implicit conversions cannot overflow, so the context does not matter for them.
  return applyBinary(
    op,
    sig,
    convert(left, sig.left, false),
    convert(right, sig.right, false),
    options,
  );
}

/** Applies a resolved unary operator to an operand already converted to `sig.operand`. */
export function applyUnary(
  op: UnaryOperator,
  sig: UnarySignature,
  operand: PrimitiveValue,
  options: ArithmeticOptions,
): PrimitiveValue {
  if (operand.kind !== sig.operand) {
    throw new Error(`operand ${operand.kind} does not match ${sig.operand}`);
  }
  if (op === '+') return operand;
  if (isIntegralValue(operand)) {
    const v = integralToBigInt(operand);
    // -int.MinValue overflows (checked) or wraps to itself (unchecked), §12.8.3.
    return op === '-'
      ? integral(operand.kind, -v, options.checked)
      : integral(operand.kind, wrapToKind(operand.kind, ~v), false);
  }
  switch (operand.kind) {
    case 'float':
    case 'double':
      return asValue(primitive(operand.kind, -operand.value));
    case 'decimal':
      return asValue(primitive('decimal', negate(operand.value)));
    case 'bool':
      return bool(!operand.value);
  }
}

/** Binds and evaluates `op operand` for a run-time operand (constants: foldUnary). */
export function evaluateUnary(
  op: UnaryOperator,
  operand: PrimitiveValue,
  options: ArithmeticOptions,
): PrimitiveValue {
  const sig = resolveUnaryOperator(op, { kind: operand.kind });
  return applyUnary(op, sig, convert(operand, sig.operand, false), options);
}

/**
 * x++ / x-- on a numeric variable (§12.7.10, §12.8.6): the operator on the promoted type, converted back
 * to the variable's type with the context's checking (measured: byte 255 ++ is 0 unchecked and
 * throws OverflowException checked; short.MaxValue += 1 is short.MinValue).
 */
export function increment(
  value: PrimitiveValue,
  delta: 1 | -1,
  options: ArithmeticOptions,
): PrimitiveValue {
  if (value.kind === 'int') {
    const r = value.value + delta;
    if (r >= INT_MIN && r <= INT_MAX) return { kind: 'int', value: r };
    if (!options.checked) return { kind: 'int', value: r | 0 };
  }
  if (isIntegralValue(value)) {
    return integral(value.kind, integralToBigInt(value) + BigInt(delta), options.checked);
  }
  switch (value.kind) {
    case 'float':
      return asValue(primitive('float', Math.fround(value.value + delta)));
    case 'double':
      return asValue(primitive('double', value.value + delta));
    case 'decimal':
      return asValue(
        primitive(
          'decimal',
          delta === 1
            ? decimalAdd(value.value, DECIMAL_ONE)
            : decimalSubtract(value.value, DECIMAL_ONE),
        ),
      );
    case 'bool':
      throw unaryOperatorError(delta === 1 ? '++' : '--', 'bool');
  }
}
