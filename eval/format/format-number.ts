// ToString() and ToString(format) of C# primitives with CultureInfo.InvariantCulture, as Mono
// 6.8's corlib prints them (System.Number.FormatDouble/FormatSingle/FormatDecimal/FormatInt32...).
// Measured defaults: double prints 15 significant digits ("G15": 0.1 + 0.2 -> "0.3",
// 1.0/3 -> "0.333333333333333", 1e15 -> "1E+15", 1e-5 -> "1E-05", -0.0 -> "0"), float 7
// (1.0f/3 -> "0.3333333", 16777217f -> "1.677722E+07"); "R" tries 15 (float: 7) digits and
// falls back to 17 (9) when they do not parse back through Mono's own (inexact) parser; decimal keeps its scale (1.0m*1.0m -> "1.00")
// and never prints a minus on zero; bool is "True"/"False". char and bool are not IFormattable,
// so a format string is ignored for them (measured: $"{'A':X}" == "A").

import {
  type PrimitiveKind,
  type PrimitiveValue,
  type ValueOf,
  asValue,
  primitive,
} from '../semantics/numeric-types.js';
import {
  type FloatingDigits,
  decimalToNumber,
  doubleToNumber,
  integerToNumber,
} from './number-buffer.js';
import { monoNumberToDouble } from './number-to-double.js';
import { INVARIANT, numberToString, parseFormatSpecifier } from './standard-format.js';
import { numberToStringFormat } from './custom-format.js';

function special(n: FloatingDigits): string | undefined {
  switch (n) {
    case 'NaN':
      return INVARIANT.nanSymbol;
    case 'Infinity':
      return INVARIANT.positiveInfinitySymbol;
    case '-Infinity':
      return INVARIANT.negativeInfinitySymbol;
    default:
      return undefined;
  }
}

/**
 * Number.FormatDouble / FormatSingle: `precision` is 15 (double) or 7 (float), widened to 17 (9)
 * for "R" fallback, "E" beyond 14 (6) decimals and "G" beyond 15 (7) digits.
 */
function formatFloating(value: number, format: string, isFloat: boolean): string {
  const { specifier, digits } = parseFormatSpecifier(format);
  const base = isFloat ? 7 : 15;
  const wide = isFloat ? 9 : 17;
  if (specifier === 'R' || specifier === 'r') {
    const n = doubleToNumber(value, base);
    if (typeof n === 'string') return special(n) ?? n;
    const back = monoNumberToDouble(n);
    if ((isFloat ? Math.fround(back) : back) === value) return numberToString(n, 'G', base);
    const m = doubleToNumber(value, wide);
    return typeof m === 'string' ? (special(m) ?? m) : numberToString(m, 'G', wide);
  }
  let precision = base;
  if ((specifier === 'E' || specifier === 'e') && digits > base - 1) precision = wide;
  if ((specifier === 'G' || specifier === 'g') && digits > base) precision = wide;
  const n = doubleToNumber(value, precision);
  if (typeof n === 'string') return special(n) ?? n;
  return specifier !== '\0'
    ? numberToString(n, specifier, digits)
    : numberToStringFormat(n, format);
}

function formatDecimal(value: ValueOf<'decimal'>, format: string): string {
  const { specifier, digits } = parseFormatSpecifier(format);
  const n = decimalToNumber(value);
  return specifier !== '\0'
    ? numberToString(n, specifier, digits)
    : numberToStringFormat(n, format);
}

const HEX_WIDTH: Partial<Record<PrimitiveKind, bigint>> = {
  sbyte: 8n, // SByte.ToString("X") formats (uint)(value & 0xFF)
  short: 16n, // Int16.ToString("X") formats (uint)(value & 0xFFFF)
  int: 32n,
  long: 64n,
};

/** Number.FormatInt32/UInt32/Int64/UInt64 with their "D", "G" and "X" fast paths. */
function formatInteger(kind: PrimitiveKind, value: bigint, format: string): string {
  if (format.length === 0) return value.toString();
  const { specifier, digits } = parseFormatSpecifier(format);
  const upper = specifier.toUpperCase();
  if ((upper === 'G' && digits < 1) || upper === 'D') {
    const body = (value < 0n ? -value : value).toString().padStart(Math.max(digits, 1), '0');
    return value < 0n ? INVARIANT.negativeSign + body : body;
  }
  if (upper === 'X') {
    const width = HEX_WIDTH[kind];
    const bits = value < 0n && width !== undefined ? BigInt.asUintN(Number(width), value) : value;
    const hex = bits.toString(16).padStart(Math.max(digits, 1), '0');
    return specifier === 'X' ? hex.toUpperCase() : hex;
  }
  const precision = kind === 'long' ? 19 : kind === 'ulong' ? 20 : 10;
  const n = integerToNumber(value, precision);
  return specifier !== '\0'
    ? numberToString(n, specifier, digits)
    : numberToStringFormat(n, format);
}

/**
 * `((IFormattable)value).ToString(format, CultureInfo.InvariantCulture)`, or `ToString()` for
 * char and bool. A null or empty format is "G". Throws EvalFormatError (System.FormatException,
 * "Format specifier was invalid.") for specifiers the type rejects, e.g. "X" on a double.
 */
export function formatPrimitive(v: PrimitiveValue, format?: string | null): string {
  const f = format ?? '';
  switch (v.kind) {
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'char':
      return String.fromCharCode(v.value);
    case 'double':
      return formatFloating(v.value, f, false);
    case 'float':
      return formatFloating(v.value, f, true);
    case 'decimal':
      return formatDecimal(v.value, f);
    case 'long':
    case 'ulong':
      return formatInteger(v.kind, v.value, f);
    case 'sbyte':
    case 'byte':
    case 'short':
    case 'ushort':
    case 'int':
    case 'uint':
      return formatInteger(v.kind, BigInt(v.value), f);
  }
}

/** `value.ToString(format, CultureInfo.InvariantCulture)` for a value of `kind`. */
export function format<K extends PrimitiveKind>(
  kind: K,
  value: ValueOf<K>,
  formatString?: string | null,
): string {
  return formatPrimitive(asValue(primitive(kind, value)), formatString);
}

/** `value.ToString()` under CultureInfo.InvariantCulture. */
export function formatNumber<K extends PrimitiveKind>(kind: K, value: ValueOf<K>): string {
  return format(kind, value, null);
}
