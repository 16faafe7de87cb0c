// Standard numeric format strings (C D E F G N P R X) over a NumberBuffer, ported from the
// pre-3.0 corefx System.Number.NumberToString that Mono 6.8's corlib uses, with
// CultureInfo.InvariantCulture's NumberFormatInfo. Differences from .NET Core 3.0+ that matter
// (all measured on Mono 6.8): a value that rounds to zero loses its minus sign
// ((-0.001).ToString("F2") == "0.00"), doubles keep 15 significant digits, and decimal "G"
// keeps trailing zeros (1.50m -> "1.50").

import type { NumberBuffer } from './number-buffer.js';
import { badFormatError } from '../semantics/errors.js';

/** NumberFormatInfo.InvariantInfo, the fields formatting reads. */
export const INVARIANT = {
  negativeSign: '-',
  positiveSign: '+',
  decimalSeparator: '.',
  groupSeparator: ',',
  groupSizes: [3],
  numberDecimalDigits: 2,
  percentDecimalDigits: 2,
  currencyDecimalDigits: 2,
  currencySymbol: '\u00a4',
  percentSymbol: '%',
  perMilleSymbol: '\u2030',
  nanSymbol: 'NaN',
  positiveInfinitySymbol: 'Infinity',
  negativeInfinitySymbol: '-Infinity',
} as const;

/**
 * Number.ParseFormatSpecifier: a letter followed by up to two digits (leading zeros allowed)
 * is a standard format; anything else is custom ('\0'). "F100" is custom (measured).
 */
export function parseFormatSpecifier(format: string): { specifier: string; digits: number } {
  const c = format.charAt(0);
  if (format.length > 0 && /[A-Za-z]/.test(c)) {
    if (format.length === 1) return { specifier: c, digits: -1 };
    let n = 0;
    let i = 1;
    while (i < format.length && /[0-9]/.test(format.charAt(i)) && n < 10) {
      n = n * 10 + (format.charCodeAt(i) - 48);
      i++;
    }
    if (i === format.length || format.charAt(i) === '\0') return { specifier: c, digits: n };
  }
  return { specifier: format.length === 0 || c === '\0' ? 'G' : '\0', digits: -1 };
}

/** Number.RoundNumber: keep `pos` digits, rounding half up on the digit string. */
export function roundNumber(n: NumberBuffer, pos: number): void {
  const dig = n.digits;
  let i = 0;
  while (i < pos && i < dig.length) i++;
  let out: string;
  if (i === pos && i < dig.length && dig.charCodeAt(i) >= 53) {
    while (i > 0 && dig.charAt(i - 1) === '9') i--;
    if (i > 0) {
      out = dig.slice(0, i - 1) + String.fromCharCode(dig.charCodeAt(i - 1) + 1);
    } else {
      n.scale++;
      out = '1';
    }
  } else {
    while (i > 0 && dig.charAt(i - 1) === '0') i--;
    out = dig.slice(0, i);
  }
  if (out.length === 0) {
    // Pre-3.0 corefx clears the sign of anything that rounded to zero, doubles included.
    n.scale = 0;
    n.negative = false;
  }
  n.digits = out;
}

/** Reads digits left to right, then '0' once they run out (the C++ '\0'-terminated walk). */
class DigitReader {
  private index = 0;
  constructor(private readonly digits: string) {}
  get hasMore(): boolean {
    return this.index < this.digits.length;
  }
  next(): string {
    return this.index < this.digits.length ? this.digits.charAt(this.index++) : '0';
  }
  get position(): number {
    return this.index;
  }
  skip(count: number): void {
    this.index += count;
  }
}

function formatFixed(
  n: NumberBuffer,
  maxDigits: number,
  grouping: { sizes: readonly number[]; separator: string } | undefined,
  decimalSeparator: string,
): string {
  let out = '';
  let digPos = n.scale;
  const dig = new DigitReader(n.digits);
  if (digPos > 0) {
    if (grouping !== undefined) {
      const integer = Array.from({ length: digPos }, (_, i) => n.digits.charAt(i) || '0');
      dig.skip(Math.min(digPos, n.digits.length));
      // Groups from the right: sizes[0], sizes[1], ..., the last size repeating.
      const parts: string[] = [];
      let end = integer.length;
      let g = 0;
      for (;;) {
        const size = grouping.sizes[Math.min(g, grouping.sizes.length - 1)] ?? 0;
        if (size === 0 || end <= size) break;
        parts.unshift(integer.slice(end - size, end).join(''));
        end -= size;
        g++;
      }
      parts.unshift(integer.slice(0, end).join(''));
      out += parts.join(grouping.separator);
    } else {
      do {
        out += dig.next();
      } while (--digPos > 0);
    }
    digPos = 0;
  } else {
    out += '0';
  }
  if (maxDigits > 0) {
    out += decimalSeparator;
    if (digPos < 0) {
      const zeroes = Math.min(-digPos, maxDigits);
      out += '0'.repeat(zeroes);
      maxDigits -= zeroes;
    }
    for (; maxDigits > 0; maxDigits--) out += dig.next();
  }
  return out;
}

/** FormatExponent: 'E', sign, at least `minDigits` digits. */
export function formatExponent(
  value: number,
  expChar: string,
  minDigits: number,
  plus: boolean,
): string {
  const sign = value < 0 ? INVARIANT.negativeSign : plus ? INVARIANT.positiveSign : '';
  return expChar + sign + String(Math.abs(value)).padStart(minDigits, '0');
}

function formatScientific(n: NumberBuffer, maxDigits: number, expChar: string): string {
  const dig = new DigitReader(n.digits);
  let out = dig.next();
  if (maxDigits !== 1) out += INVARIANT.decimalSeparator; // "E0" has no decimal point
  while (--maxDigits > 0) out += dig.next();
  const e = n.digits.length === 0 ? 0 : n.scale - 1;
  return out + formatExponent(e, expChar, 3, true);
}

function formatGeneral(
  n: NumberBuffer,
  maxDigits: number,
  expChar: string,
  suppressScientific: boolean,
): string {
  let digPos = n.scale;
  let scientific = false;
  if (!suppressScientific && (digPos > maxDigits || digPos < -3)) {
    digPos = 1;
    scientific = true;
  }
  const dig = new DigitReader(n.digits);
  let out = '';
  if (digPos > 0) {
    do {
      out += dig.next();
    } while (--digPos > 0);
  } else {
    out += '0';
  }
  if (dig.hasMore || digPos < 0) {
    out += INVARIANT.decimalSeparator;
    for (; digPos < 0; digPos++) out += '0';
    while (dig.hasMore) out += dig.next();
  }
  return scientific ? out + formatExponent(n.scale - 1, expChar, 2, true) : out;
}

const groups = { sizes: INVARIANT.groupSizes, separator: INVARIANT.groupSeparator };

/** Number.NumberToString: a standard specifier (C E F G N P) applied to a digit buffer. */
export function numberToString(n: NumberBuffer, format: string, maxDigits: number): string {
  const neg = () => (n.negative ? INVARIANT.negativeSign : '');
  switch (format) {
    case 'C':
    case 'c': {
      if (maxDigits < 0) maxDigits = INVARIANT.currencyDecimalDigits;
      roundNumber(n, n.scale + maxDigits);
      const body = INVARIANT.currencySymbol + formatFixed(n, maxDigits, groups, '.');
      return n.negative ? `(${body})` : body; // invariant patterns "$#" and "($#)"
    }
    case 'F':
    case 'f':
      if (maxDigits < 0) maxDigits = INVARIANT.numberDecimalDigits;
      roundNumber(n, n.scale + maxDigits);
      return neg() + formatFixed(n, maxDigits, undefined, INVARIANT.decimalSeparator);
    case 'N':
    case 'n':
      if (maxDigits < 0) maxDigits = INVARIANT.numberDecimalDigits;
      roundNumber(n, n.scale + maxDigits);
      return neg() + formatFixed(n, maxDigits, groups, INVARIANT.decimalSeparator);
    case 'E':
    case 'e':
      if (maxDigits < 0) maxDigits = 6;
      maxDigits++;
      roundNumber(n, maxDigits);
      return neg() + formatScientific(n, maxDigits, format === 'E' ? 'E' : 'e');
    case 'G':
    case 'g': {
      const expChar = format === 'G' ? 'E' : 'e';
      if (maxDigits < 1) {
        if (n.isDecimal && maxDigits === -1) {
          // Decimal "G": no rounding, trailing zeros significant, never scientific.
          if (n.digits.length === 0) n.negative = false;
          return neg() + formatGeneral(n, 29, expChar, true);
        }
        maxDigits = n.precision;
      }
      roundNumber(n, maxDigits);
      return neg() + formatGeneral(n, maxDigits, expChar, false);
    }
    case 'P':
    case 'p':
      if (maxDigits < 0) maxDigits = INVARIANT.percentDecimalDigits;
      n.scale += 2;
      roundNumber(n, n.scale + maxDigits);
      // Invariant percent patterns: "# %" and "-# %".
      return `${neg()}${formatFixed(n, maxDigits, groups, INVARIANT.decimalSeparator)} ${INVARIANT.percentSymbol}`;
    default:
      throw badFormatError();
  }
}
