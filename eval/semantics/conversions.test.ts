import { describe, expect, it } from 'vitest';
import {
  convert,
  hasExplicitConversion,
  hasImplicitConstantConversion,
  hasImplicitConversion,
} from './conversions.js';
import {
  type IntegralKind,
  type PrimitiveKind,
  type PrimitiveValue,
  decimalValue,
  doubleValue,
  floatValue,
  intValue,
  longValue,
  ulongValue,
} from './numeric-types.js';
import { EvalArithmeticError, EvalCompileError } from './errors.js';

const dec = (text: string): PrimitiveValue => {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  return decimalValue({ negative, scale: fraction.length, mantissa: BigInt(whole + fraction) });
};

describe('implicit numeric conversions (§11.2.3)', () => {
  it.each<[PrimitiveKind, PrimitiveKind, boolean]>([
    ['sbyte', 'short', true],
    ['sbyte', 'byte', false],
    ['byte', 'char', false],
    ['char', 'ushort', true],
    ['char', 'short', false],
    ['ushort', 'char', false],
    ['int', 'uint', false],
    ['uint', 'long', true],
    ['long', 'ulong', false],
    ['ulong', 'float', true],
    ['long', 'decimal', true],
    ['float', 'double', true],
    ['float', 'decimal', false],
    ['double', 'float', false],
    ['decimal', 'double', false],
    ['bool', 'int', false],
    ['int', 'int', true],
  ])('%s -> %s: %s', (from, to, exists) => {
    expect(hasImplicitConversion(from, to)).toBe(exists);
  });

  it('allows every numeric pair explicitly, bool with nothing', () => {
    expect(hasExplicitConversion('double', 'char')).toBe(true);
    expect(hasExplicitConversion('decimal', 'sbyte')).toBe(true);
    expect(hasExplicitConversion('bool', 'int')).toBe(false);
    expect(() => convert(intValue(1), 'bool', false)).toThrow(EvalCompileError);
  });
});

describe('implicit constant expression conversions (§11.2.10)', () => {
  it.each<[PrimitiveValue, PrimitiveKind, boolean]>([
    [intValue(255), 'byte', true],
    [intValue(256), 'byte', false],
    [intValue(-1), 'sbyte', true],
    [intValue(-1), 'uint', false],
    [intValue(65), 'char', false],
    [intValue(5), 'ulong', true],
    [longValue(5n), 'ulong', true],
    [longValue(-5n), 'ulong', false],
    [longValue(5n), 'uint', false],
  ])('%o -> %s: %s', (constant, to, exists) => {
    expect(hasImplicitConstantConversion(constant, to)).toBe(exists);
  });
});

describe('integral -> integral', () => {
  it.each<[PrimitiveValue, IntegralKind, number | bigint]>([
    [intValue(300), 'byte', 44],
    [intValue(-1), 'uint', 4294967295],
    [intValue(-1), 'char', 65535],
    [longValue(5000000000n), 'uint', 705032704],
    [ulongValue(2n ** 64n - 1n), 'long', -1n],
    [intValue(200), 'sbyte', -56],
  ])('unchecked (%s)%o wraps to %s', (v, to, expected) => {
    expect(convert(v, to, false).value).toBe(expected);
  });

  it('checked narrowing throws OverflowException', () => {
    expect(() => convert(intValue(300), 'byte', true)).toThrow(
      new EvalArithmeticError(
        'System.OverflowException',
        'Arithmetic operation resulted in an overflow.',
      ),
    );
    expect(convert(intValue(255), 'byte', true).value).toBe(255);
  });
});

// Measured on Mono 6.8.0.105 x86-64: unchecked float/double -> integral out of range.
describe('floating -> integral (measured on Mono 6.8 x86-64)', () => {
  const cases: [number, Partial<Record<IntegralKind, number | bigint>>][] = [
    [
      NaN,
      {
        sbyte: 0,
        byte: 0,
        short: 0,
        ushort: 0,
        int: -2147483648,
        uint: 0,
        long: -(2n ** 63n),
        ulong: 0n,
        char: 0,
      },
    ],
    [1e20, { byte: 0, int: -2147483648, uint: 0, long: -(2n ** 63n), ulong: 0n }],
    [-1e20, { int: -2147483648, uint: 0, long: -(2n ** 63n), ulong: 2n ** 63n }],
    [
      -1.5,
      {
        sbyte: -1,
        byte: 255,
        ushort: 65535,
        int: -1,
        uint: 4294967295,
        ulong: 2n ** 64n - 1n,
        char: 65535,
      },
    ],
    [300.7, { sbyte: 44, byte: 44, short: 300, int: 300 }],
    [-300.7, { sbyte: -44, byte: 212, ushort: 65236, uint: 4294966996 }],
    [1e30, { long: -(2n ** 63n), ulong: 0n }],
    [-1, { ulong: 2n ** 64n - 1n }],
    [4294967296.5, { int: -2147483648, uint: 0, long: 4294967296n }],
    [-2147483649, { int: -2147483648, uint: 2147483647, ulong: 18446744071562067967n }],
    [4294967297, { byte: 0, ushort: 0 }],
    [1.9e19, { ulong: 0n }],
    [1.8e19, { ulong: 18000000000000000000n }],
    [Infinity, { int: -2147483648, ulong: 0n }],
    [-Infinity, { ulong: 2n ** 63n }],
    [-129, { sbyte: 127, byte: 127 }],
    [-0.9, { uint: 0, ulong: 0n, byte: 0 }],
  ];
  for (const [x, targets] of cases) {
    for (const [to, expected] of Object.entries(targets)) {
      it(`unchecked (${to})${x} == ${expected}`, () => {
        expect(convert(doubleValue(x), to as IntegralKind, false).value).toBe(expected);
      });
    }
  }

  it.each<[number, IntegralKind, number | bigint | 'overflow']>([
    [2147483647.9, 'int', 2147483647],
    [-2147483648.9, 'int', -2147483648],
    [2147483648, 'int', 'overflow'],
    [-0.9, 'uint', 0],
    [-1, 'uint', 'overflow'],
    [255.9, 'byte', 255],
    [256, 'byte', 'overflow'],
    [NaN, 'int', 'overflow'],
    [Infinity, 'long', 'overflow'],
    [2 ** 63, 'long', 'overflow'],
    [-(2 ** 63), 'long', -(2n ** 63n)],
    [2 ** 64, 'ulong', 'overflow'],
    [2 ** 64 - 2048, 'ulong', 2n ** 64n - 2048n],
  ])('checked (%s)%s', (x, to, expected) => {
    if (expected === 'overflow') {
      expect(() => convert(doubleValue(x), to, true)).toThrow(EvalArithmeticError);
    } else {
      expect(convert(doubleValue(x), to, true).value).toBe(expected);
    }
  });
});

describe('to float and double', () => {
  it('rounds double -> float to nearest', () => {
    expect(convert(doubleValue(0.1), 'float', false).value).toBe(Math.fround(0.1));
    expect(convert(doubleValue(1e40), 'float', false).value).toBe(Infinity);
  });

  it('rounds long -> float once but ulong -> float twice (conv.r.un + conv.r4, measured)', () => {
    const x = 2n ** 62n + 2n ** 38n + 1n;
    expect(convert(longValue(x), 'float', false).value).toBe(2 ** 62 + 2 ** 39);
    const u = 2n ** 63n + 2n ** 39n + 1n;
    expect(convert(ulongValue(u), 'float', false).value).toBe(2 ** 63);
    expect(convert(ulongValue(u), 'double', false).value).toBe(2 ** 63 + 2 ** 39);
  });

  it('rounds int -> float to nearest even', () => {
    expect(convert(intValue(16777217), 'float', false).value).toBe(16777216);
    expect(convert(intValue(16777219), 'float', false).value).toBe(16777220);
  });
});

describe('decimal conversions (measured)', () => {
  it.each<[PrimitiveValue, string]>([
    [doubleValue(0.1), '0.1'],
    [doubleValue(1 / 3), '0.333333333333333'],
    [doubleValue(Number('123456789.123456789')), '123456789.123457'],
    [doubleValue(1e-20), '0.00000000000000000001'],
    [doubleValue(3e-29), '0'],
    [floatValue(Math.fround(0.1)), '0.1'],
    [doubleValue(Math.fround(0.1)), '0.100000001490116'],
    [doubleValue(-0), '0'],
  ])('(decimal)%o is %s', (v, text) => {
    const d = convert(v, 'decimal', false);
    expect(d).toEqual(dec(text));
  });

  it.each([NaN, Infinity, 1e30, 7.9228162514264338e28])('(decimal)%s throws', (x) => {
    expect(() => convert(doubleValue(x), 'decimal', false)).toThrow(
      'Value was either too large or too small for a Decimal.',
    );
  });

  it.each<[string, IntegralKind, number | bigint | string]>([
    ['1.9', 'int', 1],
    ['-1.9', 'int', -1],
    ['-0.5', 'ulong', 0n],
    ['255.9', 'byte', 255],
    ['256', 'byte', 'Value was either too large or too small for an unsigned byte.'],
    ['-1', 'uint', 'Value was either too large or too small for a UInt32.'],
    ['128', 'sbyte', 'Value was either too large or too small for a signed byte.'],
    ['70000', 'char', 'Value was either too large or too small for a character.'],
    ['100000000000000000000', 'long', 'Value was either too large or too small for an Int64.'],
  ])('(%s)%sm, checked or not', (text, to, expected) => {
    for (const checked of [false, true]) {
      if (typeof expected === 'string') {
        expect(() => convert(dec(text), to, checked)).toThrow(expected);
      } else {
        expect(convert(dec(text), to, checked).value).toBe(expected);
      }
    }
  });

  it('converts decimal -> double the DecCalc way, not always nearest (measured)', () => {
    const third = decimalValue({
      negative: false,
      scale: 28,
      mantissa: 3333333333333333333333333333n,
    });
    expect(convert(third, 'double', false).value).toBe(0.33333333333333337);
    expect(convert(dec('0.1'), 'double', false).value).toBe(0.1);
    expect(convert(dec('0.1'), 'float', false).value).toBe(Math.fround(0.1));
  });
});
