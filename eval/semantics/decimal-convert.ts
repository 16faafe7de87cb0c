// Conversions between System.Decimal and the binary floating types, ported from the managed
// DecCalc of .NET Core 3.0 that Mono 6.8's corlib ships (VarDecFromR8, VarDecFromR4,
// VarR8FromDec). They are deliberately lossy the way .NET Framework always was:
//   - double -> decimal keeps 15 significant digits, float -> decimal 7 (measured:
//     (decimal)0.1 == 0.1m, (decimal)(1.0/3) == 0.333333333333333m, (decimal)0.1f == 0.1m);
//   - decimal -> double is (low64 + high * 2^64) / 10^scale in double arithmetic, which is not
//     always the nearest double (measured: (double)(1m/3m) == 0.33333333333333337);
//   - decimal -> float goes through double (two roundings).
// The double arithmetic below is IEEE binary64 in both runtimes (Mono x64 uses SSE2), so the
// JavaScript operations reproduce it bit for bit.

import { type DecimalValue, DECIMAL_MAX_SCALE } from './numeric-types.js';
import { makeDecimal, DECIMAL_ZERO, pow10 } from './decimal.js';
import { rangeOverflowError } from './errors.js';

// DecCalc.s_doublePowers10: literals, so correctly rounded doubles in both languages.
const DOUBLE_POWERS_10: readonly number[] = Array.from({ length: 81 }, (_, i) => Number(`1e${i}`));

function doublePow10(n: number): number {
  const p = DOUBLE_POWERS_10[n];
  if (p === undefined) throw new RangeError(`no double power 1e${n}`);
  return p;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** The biased exponent field of a double (DecCalc.GetExponent(double)). */
function doubleExponent(x: number): number {
  f64[0] = x;
  return ((u32[1] ?? 0) >>> 20) & 0x7ff;
}

/** The biased exponent field of a float (DecCalc.GetExponent(float)). */
function floatExponent(x: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return (view.getUint32(0) >>> 23) & 0xff;
}

/** Math.Round (half to even) of a non-negative double below 2^53. */
function roundHalfEvenDouble(x: number): number {
  const t = Math.trunc(x);
  const diff = x - t;
  return diff > 0.5 || (diff === 0.5 && t % 2 === 1) ? t + 1 : t;
}

/**
 * Shared tail of VarDecFromR8/R4: `digits` significant digits of |input| (already scaled by
 * 10^power and rounded to an integer `mant`), then trailing zeros factored out of the scale.
 */
function fromScaledMantissa(
  negative: boolean,
  mant: bigint,
  power: number,
  maxFactor: number,
): DecimalValue {
  if (mant === 0n) return DECIMAL_ZERO;
  if (power < 0) {
    const wide = mant * pow10(-power);
    if (wide >= 1n << 96n) throw rangeOverflowError('decimal');
    return makeDecimal(negative, 0, wide);
  }
  // Factor out powers of 10, at most `maxFactor` of them and never below scale 0.
  let lmax = Math.min(power, maxFactor);
  for (const step of [8, 4, 2, 1]) {
    if (lmax >= step && mant % pow10(step) === 0n) {
      mant /= pow10(step);
      power -= step;
      lmax -= step;
    }
  }
  return makeDecimal(negative, power, mant);
}

/** (decimal)double: DecCalc.VarDecFromR8; OverflowException for NaN, ±∞ and |x| >= 2^96. */
export function decimalFromDouble(input: number): DecimalValue {
  const exp = doubleExponent(input) - 1022;
  if (exp < -94) return DECIMAL_ZERO; // too small to reach 0.5e-28, also ±0
  if (exp > 96) throw rangeOverflowError('decimal'); // includes NaN and infinities
  const negative = input < 0;
  let dbl = Math.abs(input);
  // 15 digits: power of 10 from the binary exponent × log10(2) in 16.16 fixed point.
  let power = 14 - ((exp * 19728) >> 16);
  if (power >= 0) {
    if (power > DECIMAL_MAX_SCALE) power = DECIMAL_MAX_SCALE;
    dbl *= doublePow10(power);
  } else if (power !== -1 || dbl >= 1e15) {
    dbl /= doublePow10(-power);
  } else {
    power = 0;
  }
  if (dbl < 1e14 && power < DECIMAL_MAX_SCALE) {
    dbl *= 10;
    power++;
  }
  return fromScaledMantissa(negative, BigInt(roundHalfEvenDouble(dbl)), power, 14);
}

/** (decimal)float: DecCalc.VarDecFromR4 (7 significant digits). */
export function decimalFromFloat(input: number): DecimalValue {
  const exp = floatExponent(input) - 126;
  if (exp < -94) return DECIMAL_ZERO;
  if (exp > 96) throw rangeOverflowError('decimal');
  const negative = input < 0;
  let dbl = Math.abs(input);
  let power = 6 - ((exp * 19728) >> 16);
  if (power >= 0) {
    if (power > DECIMAL_MAX_SCALE) power = DECIMAL_MAX_SCALE;
    dbl *= doublePow10(power);
  } else if (power !== -1 || dbl >= 1e7) {
    dbl /= doublePow10(-power);
  } else {
    power = 0;
  }
  if (dbl < 1e6 && power < DECIMAL_MAX_SCALE) {
    dbl *= 10;
    power++;
  }
  return fromScaledMantissa(negative, BigInt(roundHalfEvenDouble(dbl)), power, 6);
}

const TWO_64 = 1.8446744073709552e19;

/** (double)decimal: DecCalc.VarR8FromDec. */
export function decimalToDouble(d: DecimalValue): number {
  const low64 = d.mantissa & ((1n << 64n) - 1n);
  const high = d.mantissa >> 64n;
  // (double)ulong and (double)uint are correctly rounded on Mono x64 (measured), as is Number().
  const dbl = (Number(low64) + Number(high) * TWO_64) / doublePow10(d.scale);
  return d.negative ? -dbl : dbl;
}

/** (float)decimal: DecCalc.VarR4FromDec = (float)VarR8FromDec. */
export function decimalToFloat(d: DecimalValue): number {
  return Math.fround(decimalToDouble(d));
}
