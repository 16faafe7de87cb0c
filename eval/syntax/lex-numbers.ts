// Numeric literals (C# standard §6.4.5.3 integer literals, §6.4.5.4 real literals), including
// digit separators (C# 7.0; a separator right after 0x / 0b since C# 7.2) and binary literals.
//
// Integer values are exact bigints. Real literals keep their decimal digits as text: a float,
// double and decimal literal each need their own exact conversion, and a JS number is only a
// convenience copy.

import { Diagnostics, type ParseError } from './diagnostics.js';
import { isDecimalDigit, isHexDigit, isIdentifierPart, type Scanner } from './scanner.js';
import type { Span } from './span.js';
import type { IntegerToken, IntegerType, RealToken } from './tokens.js';

const INT_MAX = (1n << 31n) - 1n;
const UINT_MAX = (1n << 32n) - 1n;
const LONG_MAX = (1n << 63n) - 1n;
const ULONG_MAX = (1n << 64n) - 1n;
/** decimal.MaxValue × 2 + 1: a literal at or above MaxValue + 0.5 rounds out of range. */
const DECIMAL_LIMIT_TIMES_2 = 2n * 79228162514264337593543950335n + 1n;

const isBinaryDigit = (c: number): boolean => c === 0x30 || c === 0x31;

interface Digits {
  digits: string;
  /** A `_` that is not between two digits (or, for 0x / 0b, after the prefix). */
  badSeparator: boolean;
}

function readDigits(s: Scanner, isDigit: (c: number) => boolean, afterPrefix: boolean): Digits {
  let digits = '';
  let badSeparator = false;
  for (;;) {
    const c = s.code();
    if (isDigit(c)) {
      digits += s.char();
      s.pos++;
    } else if (c === 0x5f) {
      let j = s.pos;
      while (s.src.charCodeAt(j) === 0x5f) j++;
      const between = isDigit(s.src.charCodeAt(j)) && (digits !== '' || afterPrefix);
      s.pos = j;
      if (!between) {
        badSeparator = true;
        return { digits, badSeparator };
      }
    } else {
      return { digits, badSeparator };
    }
  }
}

/** The literal's type per §6.4.5.3: the first type of the suffix's list that holds the value. */
function integerLiteralType(value: bigint, suffix: IntegerToken['suffix']): IntegerType | null {
  if (value > ULONG_MAX) return null;
  switch (suffix) {
    case '':
      if (value <= INT_MAX) return 'int';
      if (value <= UINT_MAX) return 'uint';
      return value <= LONG_MAX ? 'long' : 'ulong';
    case 'u':
      return value <= UINT_MAX ? 'uint' : 'ulong';
    case 'l':
      return value <= LONG_MAX ? 'long' : 'ulong';
    case 'ul':
      return 'ulong';
  }
}

function readIntegerSuffix(s: Scanner): IntegerToken['suffix'] {
  let u = false;
  let l = false;
  for (let i = 0; i < 2; i++) {
    const c = s.char().toLowerCase();
    if (c === 'u' && !u) u = true;
    else if (c === 'l' && !l) l = true;
    else break;
    s.pos++;
  }
  return u ? (l ? 'ul' : 'u') : l ? 'l' : '';
}

function decimalInRange(mantissa: string, exponent: number): boolean {
  const m = BigInt(mantissa);
  if (m === 0n) return true;
  const order = m.toString().length + exponent; // the value is below 10^order
  if (order !== 29) return order < 29;
  return exponent >= 0
    ? 2n * m * 10n ** BigInt(exponent) < DECIMAL_LIMIT_TIMES_2
    : 2n * m < DECIMAL_LIMIT_TIMES_2 * 10n ** BigInt(-exponent);
}

/** Scans a literal starting with a digit, or with `.` followed by a digit. */
export function scanNumber(s: Scanner): IntegerToken | RealToken {
  const start = s.pos;
  let firstError: ParseError | null = null;
  const fail = (e: ParseError): void => {
    firstError ??= e;
  };
  const separatorError = (): ParseError =>
    Diagnostics.malformedNumber(s.span(start), "a digit separator '_' must sit between digits");

  // Trailing letters that are no suffix make one bad token instead of a number and a name.
  const finish = (): { text: string; span: Span } => {
    let cp = s.src.codePointAt(s.pos);
    if (cp !== undefined && isIdentifierPart(cp)) {
      while (cp !== undefined && isIdentifierPart(cp)) {
        s.pos += cp > 0xffff ? 2 : 1;
        cp = s.src.codePointAt(s.pos);
      }
      fail(Diagnostics.invalidSuffix(s.span(start), s.src.slice(start, s.pos)));
    }
    if (firstError) s.error(firstError);
    return { text: s.src.slice(start, s.pos), span: s.span(start) };
  };

  const c1 = s.code(1);
  if (s.code() === 0x30 && (c1 === 0x78 || c1 === 0x58 || c1 === 0x62 || c1 === 0x42)) {
    const hex = c1 === 0x78 || c1 === 0x58;
    s.pos += 2;
    const r = readDigits(s, hex ? isHexDigit : isBinaryDigit, true);
    if (r.digits === '') {
      const what = hex
        ? 'a hexadecimal literal needs digits after 0x'
        : 'a binary literal needs digits after 0b';
      fail(Diagnostics.malformedNumber(s.span(start), what));
    } else if (r.badSeparator) fail(separatorError());
    if (!hex && isDecimalDigit(s.code())) {
      while (isDecimalDigit(s.code()) || s.code() === 0x5f) s.pos++;
      fail(
        Diagnostics.malformedNumber(s.span(start), 'a binary literal has only the digits 0 and 1'),
      );
    }
    const value = r.digits === '' ? 0n : BigInt((hex ? '0x' : '0b') + r.digits);
    return integerToken(s, start, value, hex ? 16 : 2, readIntegerSuffix(s), fail, finish);
  }

  const whole = readDigits(s, isDecimalDigit, false);
  if (whole.badSeparator) fail(separatorError());
  let isReal = false;
  let fraction = '';
  let exponent = '';
  let exponentValue = 0;
  if (s.code() === 0x2e && isDecimalDigit(s.code(1))) {
    s.pos++;
    isReal = true;
    const r = readDigits(s, isDecimalDigit, false);
    if (r.badSeparator) fail(separatorError());
    fraction = r.digits;
  }
  if (s.code() === 0x65 || s.code() === 0x45) {
    s.pos++;
    isReal = true;
    let sign = '';
    if (s.code() === 0x2b || s.code() === 0x2d) {
      sign = s.char();
      s.pos++;
    }
    const r = readDigits(s, isDecimalDigit, false);
    if (r.digits === '') {
      fail(
        Diagnostics.malformedNumber(s.span(start), 'the exponent needs digits, as in 1e5 or 1e-5'),
      );
    } else if (r.badSeparator) fail(separatorError());
    exponent = r.digits === '' ? '' : `e${sign}${r.digits}`;
    exponentValue = r.digits === '' ? 0 : Number(`${sign}${r.digits}`);
  }

  const suffixChar = s.char().toLowerCase();
  if (suffixChar === 'f' || suffixChar === 'd' || suffixChar === 'm') {
    s.pos++;
  } else if (!isReal) {
    return integerToken(s, start, BigInt(whole.digits), 10, readIntegerSuffix(s), fail, finish);
  }

  const suffix = suffixChar === 'f' || suffixChar === 'd' || suffixChar === 'm' ? suffixChar : '';
  const type = suffix === 'f' ? 'float' : suffix === 'm' ? 'decimal' : 'double';
  const digits = `${whole.digits === '' ? '0' : whole.digits}${fraction === '' ? '' : `.${fraction}`}${exponent}`;
  let value = Number(digits);
  if (type === 'float') value = Math.fround(value);
  // A huge exponent only matters through its sign: clamp it so BigInt powers stay small.
  const scale = Math.max(-1e9, Math.min(1e9, exponentValue)) - fraction.length;
  const inRange =
    type === 'decimal'
      ? decimalInRange(`${whole.digits}${fraction}`, scale)
      : Number.isFinite(value);
  if (!inRange) fail(Diagnostics.realOutOfRange(s.span(start), type));
  const { text, span } = finish();
  return { kind: 'real', span, text, type, digits, value, suffix };
}

function integerToken(
  s: Scanner,
  start: number,
  value: bigint,
  radix: 2 | 10 | 16,
  suffix: IntegerToken['suffix'],
  fail: (e: ParseError) => void,
  finish: () => { text: string; span: Span },
): IntegerToken {
  const type = integerLiteralType(value, suffix);
  if (type === null) fail(Diagnostics.integerTooLarge(s.span(start)));
  const { text, span } = finish();
  return { kind: 'integer', span, text, value, type: type ?? 'ulong', radix, suffix };
}
