import { describe, expect, it } from 'vitest';
import {
  type Constant,
  type ConstantContext,
  constantOf,
  evaluateWithConstants,
  foldBinary,
  foldConversion,
  foldUnary,
  materialize,
} from './constant-folding.js';
import {
  type PrimitiveKind,
  type PrimitiveValue,
  decimalValue,
  doubleValue,
  floatValue,
  intValue,
  longValue,
  uintValue,
  ulongValue,
} from './numeric-types.js';
import type { BinaryOperator } from './promotion.js';

const c = (v: PrimitiveValue): Constant => constantOf(v);
const f = (x: number) => c(floatValue(Math.fround(x)));
const dec = (negative: boolean, scale: number, mantissa: bigint) =>
  c(decimalValue({ negative, scale, mantissa }));
const INT_MAX = c(intValue(2147483647));
const INT_MIN = c(intValue(-2147483648));

// Every expectation below was measured by compiling the expression with mcs 6.8.
describe('constant arithmetic', () => {
  it.each<[string, BinaryOperator, Constant, Constant, ConstantContext, string]>([
    ['int.MaxValue + 1', '+', INT_MAX, c(intValue(1)), 'checked', 'CS0220'],
    ['uint.MaxValue + 1u', '+', c(uintValue(4294967295)), c(uintValue(1)), 'checked', 'CS0220'],
    ['1 / 0', '/', c(intValue(1)), c(intValue(0)), 'checked', 'CS0020'],
    ['1 % 0 (unchecked)', '%', c(intValue(1)), c(intValue(0)), 'unchecked', 'CS0020'],
    ['int.MinValue % -1', '%', INT_MIN, c(intValue(-1)), 'checked', 'CS0220'],
    ['unchecked(int.MinValue / -1)', '/', INT_MIN, c(intValue(-1)), 'unchecked', 'CS0220'],
    [
      'unchecked(long.MinValue % -1)',
      '%',
      c(longValue(-(2n ** 63n))),
      c(longValue(-1n)),
      'unchecked',
      'CS0220',
    ],
    ['1m / 0m', '/', dec(false, 0, 1n), dec(false, 0, 0n), 'checked', 'CS0020'],
    [
      'unchecked(decimal.MaxValue + 1m)',
      '+',
      dec(false, 0, 2n ** 96n - 1n),
      dec(false, 0, 1n),
      'unchecked',
      'CS0220',
    ],
  ])('%s is %s', (_, op, a, b, context, code) => {
    expect(() => foldBinary(op, a, b, context)).toThrow(expect.objectContaining({ code }));
  });

  it('wraps in unchecked(...)', () => {
    const r = foldBinary('*', INT_MAX, c(intValue(2)), 'unchecked');
    expect(materialize(r)).toEqual(intValue(-2));
    expect(materialize(foldUnary('-', INT_MIN, 'unchecked'))).toEqual(intValue(-2147483648));
    expect(() => foldUnary('-', INT_MIN, 'checked')).toThrow(
      expect.objectContaining({ code: 'CS0220' }),
    );
  });

  it('binds with the constants (uint + 1 stays uint)', () => {
    expect(materialize(foldBinary('+', c(uintValue(1)), c(intValue(1)), 'checked'))).toEqual(
      uintValue(2),
    );
  });
});

describe('float constants keep double precision inside mcs', () => {
  it('16777216f + 1f folds to 16777217 but materializes as 16777216', () => {
    const sum = foldBinary('+', f(16777216), f(1), 'checked');
    expect(sum.wide).toBe(16777217);
    expect(materialize(sum)).toEqual(floatValue(16777216));
    expect(materialize(foldConversion(sum, 'double', 'checked'))).toEqual(doubleValue(16777217));
    expect(materialize(foldConversion(sum, 'int', 'checked'))).toEqual(intValue(16777217));
    const same = foldBinary('==', sum, f(16777216), 'checked');
    expect(materialize(same).value).toBe(false);
  });

  it('(double)(0.1f + 0.2f) is 0.30000000447034836 and (0.1f + 0.2f) == 0.3f is false', () => {
    const sum = foldBinary('+', f(0.1), f(0.2), 'checked');
    expect(materialize(foldConversion(sum, 'double', 'checked')).value).toBe(0.30000000447034836);
    expect(materialize(foldBinary('==', sum, f(0.3), 'checked')).value).toBe(false);
    expect(materialize(sum)).toEqual(floatValue(Math.fround(0.3)));
  });

  it('(decimal)0.1f goes through double: 0.100000001490116', () => {
    expect(materialize(foldConversion(f(0.1), 'decimal', 'checked'))).toEqual(
      decimalValue({ negative: false, scale: 15, mantissa: 100000001490116n }),
    );
  });

  it('float.MaxValue * 2f stays finite inside mcs', () => {
    const big = foldBinary('*', f(3.4028234663852886e38), f(2), 'checked');
    expect(materialize(foldConversion(big, 'double', 'checked')).value).toBe(6.805646932770577e38);
    expect(materialize(big).value).toBe(Infinity);
  });

  it('conversions to float round', () => {
    expect(foldConversion(c(intValue(16777217)), 'float', 'checked').wide).toBe(16777216);
    expect(foldConversion(c(doubleValue(0.1)), 'float', 'checked').wide).toBe(Math.fround(0.1));
  });
});

describe('constant conversions', () => {
  it.each<[PrimitiveValue, PrimitiveKind, string]>([
    [intValue(300), 'byte', "Constant value `300' cannot be converted to a `byte'"],
    [intValue(-1), 'uint', "Constant value `-1' cannot be converted to a `uint'"],
    [intValue(-1), 'char', "Constant value `-1' cannot be converted to a `char'"],
    [doubleValue(1e20), 'int', "Constant value `1E+20' cannot be converted to a `int'"],
    [doubleValue(NaN), 'int', "Constant value `NaN' cannot be converted to a `int'"],
    [doubleValue(300.7), 'byte', "Constant value `300.7' cannot be converted to a `byte'"],
    // The untruncated value is range-checked: both pass at run time with checked casts.
    [
      doubleValue(2147483647.9),
      'int',
      "Constant value `2147483647.9' cannot be converted to a `int'",
    ],
    [doubleValue(-0.5), 'byte', "Constant value `-0.5' cannot be converted to a `byte'"],
    [doubleValue(1e30), 'decimal', "Constant value `1E+30' cannot be converted to a `decimal'"],
    [ulongValue(4294967296n), 'int', "Constant value `4294967296' cannot be converted to a `int'"],
  ])('(%s)%o is CS0221', (value, to, message) => {
    expect(() => foldConversion(c(value), to, 'checked')).toThrow(message);
  });

  it.each<[PrimitiveValue, PrimitiveKind, number | bigint]>([
    [intValue(300), 'byte', 44],
    [doubleValue(1e20), 'int', -2147483648],
    [doubleValue(-1.5), 'uint', 4294967295],
    [doubleValue(300.7), 'byte', 44],
    [doubleValue(NaN), 'int', -2147483648],
    [longValue(5000000000n), 'uint', 705032704],
  ])('unchecked((%s)%o) folds like the run-time cast', (value, to, expected) => {
    expect(materialize(foldConversion(c(value), to, 'unchecked')).value).toBe(expected);
  });

  it('refuses (int)2147483648UL with CS0221 as C# does (mcs 6.8 folds it to int.MinValue)', () => {
    expect(() => foldConversion(c(ulongValue(2147483648n)), 'int', 'checked')).toThrow(
      /CS0221|cannot be converted/,
    );
    expect(materialize(foldConversion(c(ulongValue(2147483648n)), 'int', 'unchecked'))).toEqual(
      intValue(-2147483648),
    );
  });

  it('decimal constants out of range are CS0031, even unchecked; in range they truncate', () => {
    const big = dec(false, 0, 10n ** 20n);
    for (const context of ['checked', 'unchecked'] as const) {
      expect(() => foldConversion(big, 'int', context)).toThrow(
        "Constant value `100000000000000000000M' cannot be converted to a `int'",
      );
    }
    expect(materialize(foldConversion(dec(false, 1, 2559n), 'byte', 'checked')).value).toBe(255);
    expect(materialize(foldConversion(dec(true, 1, 5n), 'byte', 'checked')).value).toBe(0);
  });
});

describe('evaluateWithConstants (a run-time operand meets a constant)', () => {
  const run = { checked: false };

  it('binds with the constant: someUint - 1 stays uint and wraps', () => {
    expect(
      evaluateWithConstants('-', { runtime: uintValue(0) }, { constant: c(intValue(1)) }, run),
    ).toEqual(uintValue(4294967295));
  });

  it('brings the double value of a float constant (measured: 0.30000000447034836)', () => {
    const sum = foldBinary('+', f(0.1), f(0.2), 'checked');
    const r = evaluateWithConstants('+', { runtime: doubleValue(1) }, { constant: sum }, run);
    expect(r).toEqual(doubleValue(1 + 0.30000000447034836));
  });

  it('keeps -0.0 when adding a constant zero, as mcs drops "+ 0"', () => {
    const r = evaluateWithConstants(
      '+',
      { constant: c(intValue(0)) },
      { runtime: doubleValue(-0) },
      run,
    );
    expect(Object.is(r.value, -0)).toBe(true);
    const s = evaluateWithConstants(
      '-',
      { runtime: doubleValue(-0) },
      { constant: c(intValue(0)) },
      run,
    );
    expect(Object.is(s.value, -0)).toBe(true);
  });

  it('materializes a scale-0 decimal zero constant without its sign', () => {
    const zero = foldBinary('*', dec(true, 0, 5n), dec(false, 0, 0n), 'checked');
    expect(zero.value).toEqual(decimalValue({ negative: true, scale: 0, mantissa: 0n }));
    expect(materialize(zero)).toEqual(decimalValue({ negative: false, scale: 0, mantissa: 0n }));
  });
});
