// System.Decimal arithmetic, reproducing Mono 6.8's corlib, which ships the managed
// Decimal.DecCalc of .NET Core 3.0 (measured: Decimal.Add calls DecCalc.DecAddSub, and DecCalc
// has VarDecModFull and Unscale). The 96-bit word juggling of DecCalc is replaced by exact
// bigint arithmetic followed by the same rounding decisions, which gives the same bits:
//   - + - *: exact result, then (only if it does not fit 96 bits or scale > 28) drop the fewest
//     digits that make it fit, rounding half to even (DecCalc.ScaleResult);
//   - /: the exact quotient when it terminates within the limits, otherwise as many digits as fit
//     rounded half to even; trailing zeros are removed whenever a remainder was seen;
//   - %: exact, at the larger scale, with the dividend's sign.
// OverflowException "Value was either too large or too small for a Decimal." past ±(2^96-1).

import {
  DECIMAL_MAX_MANTISSA as MAX,
  DECIMAL_MAX_SCALE as MAX_SCALE,
  type DecimalValue,
} from './numeric-types.js';
import { divideByZeroError, rangeOverflowError } from './errors.js';

const POW10: readonly bigint[] = Array.from({ length: 80 }, (_, i) => 10n ** BigInt(i));

export function pow10(n: number): bigint {
  const p = POW10[n];
  return p ?? 10n ** BigInt(n);
}

export function makeDecimal(negative: boolean, scale: number, mantissa: bigint): DecimalValue {
  return { negative, scale, mantissa };
}

export const DECIMAL_ZERO: DecimalValue = makeDecimal(false, 0, 0n);
export const DECIMAL_ONE: DecimalValue = makeDecimal(false, 0, 1n);
export const DECIMAL_MAX_VALUE: DecimalValue = makeDecimal(false, 0, MAX);
export const DECIMAL_MIN_VALUE: DecimalValue = makeDecimal(true, 0, MAX);

function decimalOverflow(): Error {
  return rangeOverflowError('decimal');
}

/** Rounds q + rem/div to an integer, half to even (rem < div). */
function roundHalfEven(q: bigint, rem: bigint, div: bigint): bigint {
  const twice = rem * 2n;
  return twice > div || (twice === div && (q & 1n) === 1n) ? q + 1n : q;
}

/**
 * DecCalc.ScaleResult: fits an exact non-negative integer result `value` at `scale` into 96 bits
 * and scale <= 28 by dropping the fewest digits, rounding half to even.
 */
export function scaleResult(value: bigint, scale: number): { mantissa: bigint; scale: number } {
  if (value <= MAX && scale <= MAX_SCALE) return { mantissa: value, scale };
  let drop = Math.max(0, scale - MAX_SCALE);
  while (value / pow10(drop) > MAX) drop++;
  if (drop > scale) throw decimalOverflow();
  const div = pow10(drop);
  let q = roundHalfEven(value / div, value % div, div);
  let newScale = scale - drop;
  if (q > MAX) {
    // Rounding carried into bit 96: one more digit goes (the rounded value is exactly 2^96).
    if (newScale === 0) throw decimalOverflow();
    q = roundHalfEven(q / 10n, q % 10n, 10n);
    newScale--;
  }
  return { mantissa: q, scale: newScale };
}

export function isZero(d: DecimalValue): boolean {
  return d.mantissa === 0n;
}

export function negate(d: DecimalValue): DecimalValue {
  return makeDecimal(!d.negative, d.scale, d.mantissa);
}

/** DecCalc.DecAddSub; `subtract` negates the right operand. */
export function decimalAddSub(d1: DecimalValue, d2: DecimalValue, subtract: boolean): DecimalValue {
  // "sign" in DecCalc: the magnitudes are subtracted.
  const differ = subtract !== (d1.negative !== d2.negative);
  if (d1.scale === d2.scale) {
    return alignedAdd(d1.mantissa, d2.mantissa, d1.negative, d1.scale, differ);
  }
  // The operand with the smaller scale is multiplied up to the larger one; the result's sign
  // flag starts as that operand's (flipped when it is the subtracted right operand).
  let scaled: DecimalValue;
  let other: DecimalValue;
  let flagsNegative: boolean;
  if (d1.scale < d2.scale) {
    scaled = d1;
    other = d2;
    flagsNegative = d1.negative;
  } else {
    scaled = d2;
    other = d1;
    flagsNegative = d1.negative !== differ;
  }
  if (scaled.mantissa === 0n) {
    // DecCalc returns the other operand untouched (its scale), with the sign worked out.
    return makeDecimal(flagsNegative !== differ, other.scale, other.mantissa);
  }
  const up = scaled.mantissa * pow10(other.scale - scaled.scale);
  return alignedAdd(up, other.mantissa, flagsNegative, other.scale, differ);
}

function alignedAdd(
  a: bigint,
  b: bigint,
  negative: boolean,
  scale: number,
  differ: boolean,
): DecimalValue {
  let sum: bigint;
  let sign = negative;
  if (differ) {
    sum = a - b;
    if (sum < 0n) {
      sum = -sum;
      sign = !sign;
    }
  } else {
    sum = a + b;
  }
  const r = scaleResult(sum, scale);
  return makeDecimal(sign, r.scale, r.mantissa);
}

export function decimalAdd(a: DecimalValue, b: DecimalValue): DecimalValue {
  return decimalAddSub(a, b, false);
}

export function decimalSubtract(a: DecimalValue, b: DecimalValue): DecimalValue {
  return decimalAddSub(a, b, true);
}

const TWO_32 = 1n << 32n;

/** DecCalc.VarDecMul. */
export function decimalMultiply(d1: DecimalValue, d2: DecimalValue): DecimalValue {
  const negative = d1.negative !== d2.negative;
  const scale = d1.scale + d2.scale;
  const product = d1.mantissa * d2.mantissa;
  if (d1.mantissa < TWO_32 && d2.mantissa < TWO_32) {
    // The 32×32 fast path rounds once to scale 28, or returns plain zero past 10^-47.
    if (scale <= MAX_SCALE) return makeDecimal(negative, scale, product);
    if (scale > MAX_SCALE + 19) return DECIMAL_ZERO;
    const div = pow10(scale - MAX_SCALE);
    return makeDecimal(negative, MAX_SCALE, roundHalfEven(product / div, product % div, div));
  }
  // A zero product on the wide path is returned as default(decimal): +0, scale 0.
  if (product === 0n) return DECIMAL_ZERO;
  const r = scaleResult(product, scale);
  return makeDecimal(negative, r.scale, r.mantissa);
}

/**
 * DecCalc.SearchScale: the largest power (<= 9, scale + power <= 28) keeping q in 96 bits. It
 * returns 9 straight away when that fits, and only otherwise insists that the scale it reaches
 * is not negative (overflow: the quotient is too large to ever get a scale >= 0).
 */
function searchScale(q: bigint, scale: number): number {
  let power = Math.min(9, MAX_SCALE - scale);
  while (power > 0 && q * pow10(power) > MAX) power--;
  if (power < 9 && power + scale < 0) throw decimalOverflow();
  return power;
}

/** DecCalc.OverflowUnscale: the quotient spilled past 96 bits; drop one digit, rounding. */
function overflowUnscale(q: bigint, scale: number, sticky: boolean): [bigint, number] {
  if (scale - 1 < 0) throw decimalOverflow();
  const digit = q % 10n;
  let r = q / 10n;
  if (digit > 5n || (digit === 5n && (sticky || (r & 1n) === 1n))) r++;
  return [r, scale - 1];
}

/** DecCalc.VarDecDiv. */
export function decimalDivide(d1: DecimalValue, d2: DecimalValue): DecimalValue {
  const den = d2.mantissa;
  if (den === 0n) throw divideByZeroError();
  let scale = d1.scale - d2.scale;
  let unscale = false;
  let q = d1.mantissa / den;
  let rem = d1.mantissa % den;
  for (;;) {
    let power: number;
    if (rem === 0n) {
      if (scale >= 0) break;
      power = Math.min(9, -scale);
    } else {
      unscale = true;
      if (scale === MAX_SCALE || (power = searchScale(q, scale)) === 0) {
        if (rem * 2n > den || (rem * 2n === den && (q & 1n) === 1n)) {
          q++;
          if (q > MAX) [q, scale] = overflowUnscale(q, scale, true);
        }
        break;
      }
    }
    scale += power;
    q *= pow10(power);
    if (q > MAX) throw decimalOverflow();
    const num = rem * pow10(power);
    q += num / den;
    rem = num % den;
    if (q > MAX) {
      [q, scale] = overflowUnscale(q, scale, rem !== 0n);
      break;
    }
  }
  if (unscale) {
    while (scale > 0 && q % 10n === 0n) {
      q /= 10n;
      scale--;
    }
  }
  return makeDecimal(d1.negative !== d2.negative, scale, q);
}

/** DecCalc.VarDecMod (the exact remainder of .NET Core 3.0, not the old x - y*trunc(x/y)). */
export function decimalRemainder(d1: DecimalValue, d2: DecimalValue): DecimalValue {
  if (d2.mantissa === 0n) throw divideByZeroError();
  if (d1.mantissa === 0n) return d1;
  const scale = Math.max(d1.scale, d2.scale);
  const a = d1.mantissa * pow10(scale - d1.scale);
  const b = d2.mantissa * pow10(scale - d2.scale);
  if (a === b) return makeDecimal(d1.negative, scale, 0n);
  if (a < b) return d1;
  return makeDecimal(d1.negative, scale, a % b);
}

/** DecCalc.VarDecCmp: -1, 0 or 1; zeros compare equal whatever their sign and scale. */
export function decimalCompare(d1: DecimalValue, d2: DecimalValue): -1 | 0 | 1 {
  if (d2.mantissa === 0n) {
    if (d1.mantissa === 0n) return 0;
    return d1.negative ? -1 : 1;
  }
  if (d1.mantissa === 0n) return d2.negative ? 1 : -1;
  if (d1.negative !== d2.negative) return d1.negative ? -1 : 1;
  const scale = Math.max(d1.scale, d2.scale);
  const a = d1.mantissa * pow10(scale - d1.scale);
  const b = d2.mantissa * pow10(scale - d2.scale);
  if (a === b) return 0;
  return a < b === d1.negative ? 1 : -1;
}

/** An exact decimal from an integer; OverflowException beyond 96 bits. */
export function decimalFromBigInt(value: bigint): DecimalValue {
  const negative = value < 0n;
  const mantissa = negative ? -value : value;
  if (mantissa > MAX) throw decimalOverflow();
  return makeDecimal(negative, 0, mantissa);
}

/** decimal.Truncate as a signed bigint (toward zero). */
export function decimalTruncateToBigInt(d: DecimalValue): bigint {
  const whole = d.mantissa / pow10(d.scale);
  return d.negative ? -whole : whole;
}
