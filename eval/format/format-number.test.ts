import { describe, expect, it } from 'vitest';
import { format, formatNumber, formatPrimitive } from './format-number.js';
import { EvalFormatError } from '../semantics/errors.js';
import type { DecimalValue, PrimitiveKind, ValueOf } from '../semantics/numeric-types.js';

const m = (text: string): DecimalValue => {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  return { negative, scale: fraction.length, mantissa: BigInt(whole + fraction) };
};

// All expectations measured with Mono 6.8.0.105: value.ToString() / ToString(format, Invariant).
describe('ToString() of double (15 significant digits)', () => {
  it.each<[number, string, string]>([
    [0.1, '0.1', '0.1'],
    [1 / 3, '0.333333333333333', '0.33333333333333331'],
    [1e15, '1E+15', '1E+15'],
    [1e16, '1E+16', '1E+16'],
    [1e14, '100000000000000', '100000000000000'],
    [Number('123456789012345678'), '1.23456789012346E+17', '1.2345678901234568E+17'],
    [1e-5, '1E-05', '1E-05'],
    [1e-4, '0.0001', '0.0001'],
    [-0, '0', '0'],
    [NaN, 'NaN', 'NaN'],
    [Infinity, 'Infinity', 'Infinity'],
    [-Infinity, '-Infinity', '-Infinity'],
    [5e-324, '4.94065645841247E-324', '4.94065645841247E-324'],
    [Number.MAX_VALUE, '1.79769313486232E+308', '1.7976931348623157E+308'],
    [0.1 + 0.2, '0.3', '0.30000000000000004'],
    [Math.fround(2 / 3), '0.666666686534882', '0.66666668653488159'],
    [123456789012345.6, '123456789012346', '123456789012345.59'],
    [1.23e-8, '1.23E-08', '1.23E-08'],
    [Number('9007199254740993'), '9.00719925474099E+15', '9007199254740992'],
    [Number('12345678901234567890'), '1.23456789012346E+19', '1.2345678901234567E+19'],
    [-1.1112899999999999, '-1.11129', '-1.1112899999999999'], // "R": Mono's parser disagrees
  ])('%s -> %s (R: %s)', (x, text, roundTrip) => {
    expect(formatNumber('double', x)).toBe(text);
    expect(format('double', x, 'R')).toBe(roundTrip);
  });
});

describe('ToString() of float (7 significant digits)', () => {
  it.each<[number, string, string]>([
    [3.14159, '3.14159', '3.14159'],
    [0.1, '0.1', '0.1'],
    [1e7, '1E+07', '1E+07'],
    [16777217, '1.677722E+07', '16777216'],
    [1 / 3, '0.3333333', '0.333333343'],
    [3.4028234663852886e38, '3.402823E+38', '3.40282347E+38'],
    [1.401298464324817e-45, '1.401298E-45', '1.401298E-45'],
    [123456789, '1.234568E+08', '123456792'],
    [1.21, '1.21', '1.21'],
  ])('%s -> %s (R: %s)', (x, text, roundTrip) => {
    expect(formatNumber('float', Math.fround(x))).toBe(text);
    expect(format('float', Math.fround(x), 'R')).toBe(roundTrip);
  });
});

describe('decimal, integers, char, bool', () => {
  it.each<[string, string]>([
    ['1.50', '1.50'],
    ['0', '0'],
    ['-0.00', '0.00'],
    ['0.0000000000000000000000000001', '0.0000000000000000000000000001'],
    ['79228162514264337593543950335', '79228162514264337593543950335'],
    ['-1.23456789012345678901234567', '-1.23456789012345678901234567'],
  ])('decimal %s -> %s', (text, expected) => {
    expect(formatNumber('decimal', m(text))).toBe(expected);
  });

  it.each<[PrimitiveKind, ValueOf<PrimitiveKind>, string]>([
    ['int', -2147483648, '-2147483648'],
    ['ulong', 18446744073709551615n, '18446744073709551615'],
    ['sbyte', -128, '-128'],
    ['char', 65, 'A'],
    ['bool', true, 'True'],
    ['bool', false, 'False'],
  ])('%s %s -> %s', (kind, value, expected) => {
    expect(formatNumber(kind, value as never)).toBe(expected);
  });
});

describe('standard format strings', () => {
  it.each<[number, string, string]>([
    [1234.5678, 'F2', '1234.57'],
    [1234.5678, 'N0', '1,235'],
    [-1234567.891, 'N', '-1,234,567.89'],
    [0.5, 'P', '50.00 %'],
    [-0.123456, 'P1', '-12.3 %'],
    [1234.5678, 'E3', '1.235E+003'],
    [1234.5678, 'e', '1.234568e+003'],
    [1234.5678, 'G3', '1.23E+03'],
    [0.000012345, 'G', '1.2345E-05'],
    [1.5, 'C', '\u00a41.50'],
    [-1.5, 'C', '(\u00a41.50)'],
    [1.005, 'F2', '1.01'], // rounded twice: 15 digits, then 2 decimals
    [2.5, 'F0', '3'],
    [0.125, 'F2', '0.13'],
    [1e20, 'F2', '100000000000000000000.00'],
    [1e-20, 'F3', '0.000'],
    [Number('123456789.123456789'), 'F10', '123456789.1234570000'],
    [1, 'G17', '1'],
    [0.1, 'G17', '0.10000000000000001'],
    [0.1, 'E20', '1.00000000000000010000E-001'],
    [1 / 3, 'F20', '0.33333333333333300000'],
    [1.5, 'G0', '1.5'],
    [1.5, 'E0', '2E+000'],
    [-0.001, 'F2', '0.00'], // no "-0.00" before .NET Core 3.0
    [-0.001, 'G', '-0.001'],
    [-0, 'E2', '0.00E+000'],
    [NaN, 'F2', 'NaN'],
    [-Infinity, '0.00', '-Infinity'],
  ])('%s with %s -> %s', (x, f, expected) => {
    expect(format('double', x, f)).toBe(expected);
  });

  it.each<[PrimitiveKind, ValueOf<PrimitiveKind>, string, string]>([
    ['int', 255, 'X', 'FF'],
    ['int', -1, 'X', 'FFFFFFFF'],
    ['sbyte', -1, 'X', 'FF'],
    ['short', -1, 'x', 'ffff'],
    ['long', -1n, 'X', 'FFFFFFFFFFFFFFFF'],
    ['int', 255, 'X8', '000000FF'],
    ['byte', 200, 'X', 'C8'],
    ['int', -42, 'D5', '-00042'],
    ['int', 12345, 'N', '12,345.00'],
    ['int', 12345, 'E2', '1.23E+004'],
    ['int', 12345, 'G2', '1.2E+04'],
    ['int', 12345, 'P0', '1,234,500 %'],
    ['int', -2147483648, 'N0', '-2,147,483,648'],
    ['decimal', m('1.5'), 'F0', '2'],
    ['decimal', m('2.5'), 'F0', '3'],
    ['decimal', m('1.50'), 'G2', '1.5'],
    ['decimal', m('123.450'), 'E', '1.234500E+002'],
    ['decimal', m('-0.001'), 'F2', '0.00'],
    ['char', 65, 'X', 'A'], // char and bool ignore the format
    ['bool', true, 'F2', 'True'],
  ])('%s %s with %s -> %s', (kind, value, f, expected) => {
    expect(format(kind, value as never, f)).toBe(expected);
  });

  it.each<[PrimitiveKind, ValueOf<PrimitiveKind>, string]>([
    ['double', 1.5, 'X'],
    ['decimal', m('1.5'), 'D'],
    ['int', 12345, 'R'],
    ['double', 1.5, 'Q'],
  ])('%s %s with %s throws FormatException', (kind, value, f) => {
    expect(() => format(kind, value as never, f)).toThrow(
      new EvalFormatError('Format specifier was invalid.'),
    );
  });
});

describe('custom format strings', () => {
  it.each<[number, string, string]>([
    [1234.5678, '0.00', '1234.57'],
    [1234.5678, '#,##0.0', '1,234.6'],
    [0.5, '0%', '50%'],
    [1234567, '0,,', '1'],
    [1.5, '00.000', '01.500'],
    [1.25, '0.#', '1.3'],
    [-0.001, '#.#', ''],
    [-0.001, '0.00;(0.00);zero', 'zero'],
    [12.345, '0.0E+00', '1.2E+01'],
    [12.345, '0.0e0', '1.2e1'],
    [0, '0.0E+00', '0.0E+00'],
    [1.5, '\'x\'0.0"y"', 'x1.5y'],
    [1.5, '\\#0.0', '#1.5'],
    [-5, '0;minus 0;zero', 'minus 5'],
    [0, '0;minus 0;zero', 'zero'],
    [12, '00000', '00012'],
    [-12, '00000', '-00012'],
    [1.5, 'F100', 'F102'], // more than two digits: a custom format, "F" is a literal
  ])('%s with %s -> %s', (x, f, expected) => {
    expect(format('double', x, f)).toBe(expected);
  });

  it('formats a negative decimal zero without its sign', () => {
    expect(formatPrimitive({ kind: 'decimal', value: m('-0.00') }, '0.00')).toBe('0.00');
  });
});
