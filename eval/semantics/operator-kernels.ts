// The per-type operator kernels behind arithmetic.ts: integers (exact bigint, then wrapped or
// range-checked), binary floating point (IEEE, float rounded after each operation), decimal
// (decimal.ts) and bool. Operands arrive already converted to the operator's type.

import {
  type DecimalValue,
  type IntegralKind,
  type PrimitiveValue,
  asValue,
  inRange,
  integralFromBigInt,
  primitive,
  wrapToKind,
  INTEGRAL_INFO,
} from './numeric-types.js';
import type { BinaryOperator, ComparisonOperator } from './promotion.js';
import { divideByZeroError, overflowError } from './errors.js';
import {
  decimalAdd,
  decimalCompare,
  decimalDivide,
  decimalMultiply,
  decimalRemainder,
  decimalSubtract,
} from './decimal.js';

export function integral(kind: IntegralKind, value: bigint, checked: boolean): PrimitiveValue {
  if (inRange(kind, value)) return integralFromBigInt(kind, value);
  if (checked) throw overflowError();
  return integralFromBigInt(kind, wrapToKind(kind, value));
}

export const bool = (b: boolean): PrimitiveValue => asValue(primitive('bool', b));

// Comparisons through a three-way result; NaN never reaches these (floats use FLOATING_COMPARE).
const ORDERED_COMPARE: Readonly<Record<ComparisonOperator, (sign: number) => boolean>> = {
  '==': (s) => s === 0,
  '!=': (s) => s !== 0,
  '<': (s) => s < 0,
  '>': (s) => s > 0,
  '<=': (s) => s <= 0,
  '>=': (s) => s >= 0,
};

// IEEE comparisons: NaN is unequal and unordered with everything (§12.11.3); -0 == +0. Also
// what two ints compare by (the compiled int kernels).
export const FLOATING_COMPARE: Readonly<
  Record<ComparisonOperator, (a: number, b: number) => boolean>
> = {
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
};

export function isComparison(op: BinaryOperator): op is ComparisonOperator {
  return op in ORDERED_COMPARE;
}

function unsupported(op: BinaryOperator, kind: string): Error {
  return new Error(`operator ${op} is not defined on ${kind} (resolve the operator first)`);
}

export function integerBinary(
  op: BinaryOperator,
  kind: IntegralKind,
  a: bigint,
  b: bigint,
  checked: boolean,
): PrimitiveValue {
  if (isComparison(op)) return bool(ORDERED_COMPARE[op](a < b ? -1 : a > b ? 1 : 0));
  switch (op) {
    case '+':
      return integral(kind, a + b, checked);
    case '-':
      return integral(kind, a - b, checked);
    case '*':
      return integral(kind, a * b, checked);
    case '/':
    case '%':
      if (b === 0n) throw divideByZeroError();
      // MinValue / -1 overflows; measured: Mono throws for % -1 too, in either context.
      if (b === -1n && a === INTEGRAL_INFO[kind].min && INTEGRAL_INFO[kind].signed) {
        throw overflowError();
      }
      return integral(kind, op === '/' ? a / b : a % b, checked);
    case '&':
      return integral(kind, wrapToKind(kind, a & b), false);
    case '|':
      return integral(kind, wrapToKind(kind, a | b), false);
    case '^':
      return integral(kind, wrapToKind(kind, a ^ b), false);
    case '<<':
    case '>>': {
      const mask = INTEGRAL_INFO[kind].bits === 64 ? 63n : 31n;
      const count = b & mask; // two's complement masking, also for a negative count
      const shifted = op === '<<' ? a << count : a >> count;
      return integral(kind, wrapToKind(kind, shifted), false);
    }
  }
}

export function floatingBinary(
  op: BinaryOperator,
  kind: 'float' | 'double',
  a: number,
  b: number,
): PrimitiveValue {
  if (isComparison(op)) return bool(FLOATING_COMPARE[op](a, b));
  let r: number;
  switch (op) {
    case '+':
      r = a + b;
      break;
    case '-':
      r = a - b;
      break;
    case '*':
      r = a * b;
      break;
    case '/':
      r = a / b;
      break;
    case '%':
      r = a % b;
      break;
    case '&':
    case '|':
    case '^':
    case '<<':
    case '>>':
      throw unsupported(op, kind);
  }
  // The exact double result of two binary32 operands (+ - * / %) rounds to the same binary32 as a
  // single-precision operation would: binary64 has more than 2×24+2 bits.
  return kind === 'float'
    ? asValue(primitive('float', Math.fround(r)))
    : asValue(primitive('double', r));
}

export function decimalBinary(
  op: BinaryOperator,
  a: DecimalValue,
  b: DecimalValue,
): PrimitiveValue {
  if (isComparison(op)) return bool(ORDERED_COMPARE[op](decimalCompare(a, b)));
  const d = (v: DecimalValue) => asValue(primitive('decimal', v));
  switch (op) {
    case '+':
      return d(decimalAdd(a, b));
    case '-':
      return d(decimalSubtract(a, b));
    case '*':
      return d(decimalMultiply(a, b));
    case '/':
      return d(decimalDivide(a, b));
    case '%':
      return d(decimalRemainder(a, b));
    case '&':
    case '|':
    case '^':
    case '<<':
    case '>>':
      throw unsupported(op, 'decimal');
  }
}

export function boolBinary(op: BinaryOperator, a: boolean, b: boolean): PrimitiveValue {
  switch (op) {
    case '&':
      return bool(a && b);
    case '|':
      return bool(a || b);
    case '^':
    case '!=':
      return bool(a !== b);
    case '==':
      return bool(a === b);
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '<<':
    case '>>':
    case '<':
    case '>':
    case '<=':
    case '>=':
      throw unsupported(op, 'bool');
  }
}
