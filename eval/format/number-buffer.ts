// The digit buffer every .NET number formatting path goes through (System.Number.NumberBuffer):
// significant digits, the decimal point position (`scale`: value = 0.digits × 10^scale) and a
// sign. Mono 6.8's corlib formats with corefx's pre-3.0 Number.Formatting (measured: Double
// .ToString calls System.Number.FormatDouble -> Number.DoubleToNumber -> Interop.Sys
// .DoubleToString), whose Unix DoubleToNumber prints the double with snprintf("%.40e") — the 41
// correctly rounded significant digits of glibc — and then keeps `precision` of them, rounding
// half up on the 42nd character it sees. Doubles thus show 15 digits, floats 7, and rounding for
// F2, N0, ... happens a second time on those digits (measured: 1.005.ToString("F2") == "1.01").

import type { DecimalValue } from '../semantics/numeric-types.js';

export interface NumberBuffer {
  /** Significant digits, no leading zeros; may be empty (zero) or carry trailing zeros. */
  digits: string;
  /** Decimal point position: value = 0.digits × 10^scale. */
  scale: number;
  negative: boolean;
  /** The default number of significant digits of the source type (15 for double, ...). */
  precision: number;
  readonly isDecimal: boolean;
}

export type FloatingDigits = NumberBuffer | 'NaN' | 'Infinity' | '-Infinity';

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The exact decimal expansion of a finite positive double: digits and point position. */
export function exactDigits(x: number): { digits: string; point: number } {
  f64[0] = x;
  const bits = u64[0] ?? 0n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  const all =
    exponent >= 0
      ? (mantissa << BigInt(exponent)).toString()
      : (mantissa * 5n ** BigInt(-exponent)).toString(); // m × 2^-k = m × 5^k / 10^k
  const point = exponent >= 0 ? all.length : all.length + exponent;
  return { digits: all.replace(/0+$/, ''), point };
}

/** Adds one unit in the last place of a digit string; reports a carry out of the first digit. */
function incrementDigits(digits: string): { digits: string; carried: boolean } {
  const chars = digits.split('');
  let i = chars.length - 1;
  while (i >= 0 && chars[i] === '9') {
    chars[i] = '0';
    i--;
  }
  if (i < 0) return { digits: `1${chars.join('')}`.slice(0, digits.length), carried: true };
  chars[i] = String.fromCharCode((chars[i] ?? '0').charCodeAt(0) + 1);
  return { digits: chars.join(''), carried: false };
}

/** glibc's "%.40e": 41 significant digits, rounded half to even on the exact value. */
function glibcDigits(x: number): { digits: string; point: number } {
  const { digits, point } = exactDigits(x);
  if (digits.length <= 41) return { digits: digits.padEnd(41, '0'), point };
  const head = digits.slice(0, 41);
  const rest = digits.slice(41);
  const first = rest.charCodeAt(0) - 48;
  const tail = /[1-9]/.test(rest.slice(1));
  const up = first > 5 || (first === 5 && (tail || (head.charCodeAt(40) - 48) % 2 === 1));
  if (!up) return { digits: head, point };
  const r = incrementDigits(head);
  return { digits: r.digits, point: r.carried ? point + 1 : point };
}

/** Mono 6.8's Number.DoubleToNumber(value, precision): `precision` digits, half-up rounded. */
export function doubleToNumber(value: number, precision: number): FloatingDigits {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  // value < 0.0 is false for -0.0, so negative zero formats as "0" (measured).
  const negative = value < 0;
  if (value === 0) {
    return { digits: '0'.repeat(precision), scale: 0, negative, precision, isDecimal: false };
  }
  const g = glibcDigits(Math.abs(value));
  let digits = g.digits.slice(0, precision);
  let scale = g.point;
  if (g.digits.charCodeAt(precision) >= 53 /* '5' */) {
    const r = incrementDigits(digits);
    digits = r.digits;
    if (r.carried) scale++;
  }
  return { digits, scale, negative, precision, isDecimal: false };
}

/** Number.Int32ToNumber and friends: all digits, no padding; zero has no digits. */
export function integerToNumber(value: bigint, precision: number): NumberBuffer {
  const negative = value < 0n;
  const digits = value === 0n ? '' : (negative ? -value : value).toString();
  return { digits, scale: digits.length, negative, precision, isDecimal: false };
}

/** Number.DecimalToNumber: every mantissa digit, trailing zeros included (they print in "G"). */
export function decimalToNumber(d: DecimalValue): NumberBuffer {
  const digits = d.mantissa === 0n ? '' : d.mantissa.toString();
  return {
    digits,
    scale: digits.length - d.scale,
    negative: d.negative,
    precision: 29,
    isDecimal: true,
  };
}
