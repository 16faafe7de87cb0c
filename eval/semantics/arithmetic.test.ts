import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyBinary, evaluateBinary, evaluateUnary, increment } from './arithmetic.js';
import {
  INTEGRAL_INFO,
  type IntegralKind,
  type PrimitiveValue,
  byteValue,
  charValue,
  doubleValue,
  floatValue,
  intValue,
  integralFromBigInt,
  longValue,
  sbyteValue,
  shortValue,
  uintValue,
  ulongValue,
  wrapToKind,
} from './numeric-types.js';
import { EvalArithmeticError, EvalCompileError } from './errors.js';
import type { BinaryOperator } from './promotion.js';

const unchecked = { checked: false };
const checked = { checked: true };
const overflow = new EvalArithmeticError(
  'System.OverflowException',
  'Arithmetic operation resulted in an overflow.',
);
const divideByZero = new EvalArithmeticError(
  'System.DivideByZeroException',
  'Attempted to divide by zero.',
);

describe('integer operators (measured on Mono 6.8)', () => {
  it.each<[string, PrimitiveValue, BinaryOperator, PrimitiveValue, PrimitiveValue]>([
    ['byte + byte is int', byteValue(200), '+', byteValue(100), intValue(300)],
    ['char + char is int', charValue('a'), '+', charValue('b'), intValue(195)],
    ['int.MaxValue + 1 wraps', intValue(2147483647), '+', intValue(1), intValue(-2147483648)],
    ['uint - uint wraps', uintValue(0), '-', uintValue(1), uintValue(4294967295)],
    ['int * int wraps', intValue(2147483647), '*', intValue(2), intValue(-2)],
    ['uint + int is long', uintValue(4294967295), '+', intValue(1), longValue(4294967296n)],
    ['/ truncates toward zero', intValue(-7), '/', intValue(2), intValue(-3)],
    ['% has the dividend sign', intValue(-7), '%', intValue(3), intValue(-1)],
    ['% ignores the divisor sign', intValue(7), '%', intValue(-3), intValue(1)],
    ['1 << 33 masks to 1 << 1', intValue(1), '<<', intValue(33), intValue(2)],
    ['1 << -1 is 1 << 31', intValue(1), '<<', intValue(-1), intValue(-2147483648)],
    ['long << 65 masks to << 1', longValue(1n), '<<', intValue(65), longValue(2n)],
    ['uint << 33 masks by 31', uintValue(1), '<<', intValue(33), uintValue(2)],
    ['>> is arithmetic on int', intValue(-8), '>>', intValue(1), intValue(-4)],
    ['>> is logical on uint', uintValue(0x80000000), '>>', intValue(31), uintValue(1)],
    ['sbyte >> keeps the sign', sbyteValue(-1), '>>', intValue(1), intValue(-1)],
    ['char << promotes to int', charValue('A'), '<<', intValue(1), intValue(130)],
    ['& on mixed signs', intValue(-1), '&', uintValue(5), longValue(5n)],
    ['^ on ulong', ulongValue(2n ** 64n - 1n), '^', ulongValue(1n), ulongValue(2n ** 64n - 2n)],
    [
      'uint == -1 compares as long',
      uintValue(4294967295),
      '==',
      intValue(-1),
      { kind: 'bool', value: false },
    ],
  ])('%s', (_, a, op, b, expected) => {
    expect(evaluateBinary(op, a, b, unchecked)).toEqual(expected);
  });

  it('throws OverflowException in checked context', () => {
    expect(() => evaluateBinary('+', intValue(2147483647), intValue(1), checked)).toThrow(overflow);
    expect(() => evaluateBinary('-', uintValue(0), uintValue(1), checked)).toThrow(overflow);
    expect(() => evaluateBinary('*', longValue(2n ** 62n), longValue(2n), checked)).toThrow(
      overflow,
    );
    // Shifts and bitwise operators are never checked.
    expect(evaluateBinary('<<', intValue(1), intValue(31), checked)).toEqual(intValue(-2147483648));
  });

  it('throws DivideByZeroException for / 0 and % 0', () => {
    expect(() => evaluateBinary('/', intValue(1), intValue(0), unchecked)).toThrow(divideByZero);
    expect(() => evaluateBinary('%', longValue(1n), longValue(0n), unchecked)).toThrow(
      divideByZero,
    );
  });

  it.each([
    [intValue(-2147483648), intValue(-1)],
    [longValue(-(2n ** 63n)), longValue(-1n)],
  ])('MinValue / -1 and %% -1 throw OverflowException in both contexts (%o)', (min, minusOne) => {
    for (const options of [checked, unchecked]) {
      expect(() => evaluateBinary('/', min, minusOne, options)).toThrow(overflow);
      expect(() => evaluateBinary('%', min, minusOne, options)).toThrow(overflow);
    }
  });

  it('refuses what C# does not bind', () => {
    expect(() => evaluateBinary('+', longValue(1n), ulongValue(1n), unchecked)).toThrow(
      EvalCompileError,
    );
  });
});

describe('unary operators and ++/--', () => {
  it.each<[string, () => PrimitiveValue, PrimitiveValue]>([
    ['-uint is long', () => evaluateUnary('-', uintValue(1), unchecked), longValue(-1n)],
    ['~char is int', () => evaluateUnary('~', charValue('A'), unchecked), intValue(-66)],
    [
      '-int.MinValue wraps',
      () => evaluateUnary('-', intValue(-2147483648), unchecked),
      intValue(-2147483648),
    ],
    [
      '-0.0 stays negative zero',
      () => evaluateUnary('-', doubleValue(0), unchecked),
      doubleValue(-0),
    ],
    ['byte 255 ++ wraps to 0', () => increment(byteValue(255), 1, unchecked), byteValue(0)],
    [
      'short.MaxValue ++ wraps',
      () => increment(shortValue(32767), 1, unchecked),
      shortValue(-32768),
    ],
    ['char 65535 ++ wraps', () => increment(charValue(65535), 1, unchecked), charValue(0)],
    ['float ++ rounds', () => increment(floatValue(16777216), 1, unchecked), floatValue(16777216)],
  ])('%s', (_, run, expected) => {
    expect(run()).toEqual(expected);
  });

  it('checks ++ and - in checked context', () => {
    expect(() => increment(sbyteValue(127), 1, checked)).toThrow(overflow);
    expect(() => evaluateUnary('-', intValue(-2147483648), checked)).toThrow(overflow);
    expect(() => evaluateUnary('-', ulongValue(1n), unchecked)).toThrow(EvalCompileError);
  });
});

describe('floating point', () => {
  it('rounds every float operation to binary32 (16777216f + 1f + 1f == 16777216f)', () => {
    const one = floatValue(1);
    const sum = evaluateBinary('+', floatValue(16777216), one, unchecked);
    expect(evaluateBinary('+', sum, one, unchecked)).toEqual(floatValue(16777216));
    expect(evaluateBinary('*', floatValue(Math.fround(0.1)), floatValue(3), unchecked)).toEqual(
      floatValue(Math.fround(Math.fround(0.1) * 3)),
    );
  });

  it.each<[number, BinaryOperator, number, number | boolean]>([
    [5.5, '%', 2, 1.5],
    [-5.5, '%', 2, -1.5],
    [5.5, '%', -2, 1.5],
    [5, '%', 0, NaN],
    [Infinity, '%', 5, NaN],
    [5, '%', Infinity, 5],
    [1, '/', 0, Infinity],
    [-1, '/', 0, -Infinity],
    [0, '/', 0, NaN],
    [NaN, '==', NaN, false],
    [NaN, '!=', NaN, true],
    [NaN, '<', 1, false],
    [NaN, '>=', 1, false],
    [-0, '==', 0, true],
  ])('%s %s %s is %s', (a, op, b, expected) => {
    expect(evaluateBinary(op, doubleValue(a), doubleValue(b), checked).value).toBe(expected);
  });

  it('keeps -0.0 % 1 negative', () => {
    expect(
      Object.is(evaluateBinary('%', doubleValue(-0), doubleValue(1), unchecked).value, -0),
    ).toBe(true);
  });
});

// Property tests: every integer operator against exact BigInt arithmetic.
const KINDS: IntegralKind[] = ['int', 'uint', 'long', 'ulong'];
const arbitraryOf = (kind: IntegralKind) => {
  const { min, max } = INTEGRAL_INFO[kind];
  return fc.oneof(
    fc.bigInt({ min, max }),
    fc.constantFrom(min, max, 0n, 1n, -1n, min + 1n, max - 1n).filter((v) => v >= min && v <= max),
  );
};
const exact: Record<'+' | '-' | '*' | '/' | '%', (a: bigint, b: bigint) => bigint> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
};

describe('integer arithmetic against BigInt reference math', () => {
  for (const kind of KINDS) {
    for (const op of ['+', '-', '*', '/', '%'] as const) {
      it(`${kind} ${op} wraps unchecked and throws iff out of range checked`, () => {
        fc.assert(
          fc.property(arbitraryOf(kind), arbitraryOf(kind), (a, b) => {
            const sig = { left: kind, right: kind, result: kind };
            const l = integralFromBigInt(kind, a);
            const r = integralFromBigInt(kind, b);
            const run = (options: { checked: boolean }) => () =>
              applyBinary(op, sig, l, r, options);
            if ((op === '/' || op === '%') && b === 0n) {
              expect(run(unchecked)).toThrow(divideByZero);
              return;
            }
            const { min, max, signed } = INTEGRAL_INFO[kind];
            if ((op === '/' || op === '%') && signed && a === min && b === -1n) {
              expect(run(unchecked)).toThrow(overflow);
              return;
            }
            const value = exact[op](a, b);
            const expected = integralFromBigInt(kind, wrapToKind(kind, value));
            expect(run(unchecked)()).toEqual(expected);
            if (value < min || value > max) expect(run(checked)).toThrow(overflow);
            else expect(run(checked)()).toEqual(expected);
          }),
          { numRuns: 300 },
        );
      });
    }

    it(`${kind} shifts and bitwise operators match two's complement`, () => {
      const { bits } = INTEGRAL_INFO[kind];
      fc.assert(
        fc.property(arbitraryOf(kind), fc.integer({ min: -200, max: 200 }), (a, count) => {
          const l = integralFromBigInt(kind, a);
          const masked = BigInt(count & (bits - 1));
          expect(evaluateBinary('<<', l, intValue(count), unchecked).value).toEqual(
            integralFromBigInt(kind, wrapToKind(kind, a << masked)).value,
          );
          expect(evaluateBinary('>>', l, intValue(count), unchecked).value).toEqual(
            integralFromBigInt(kind, a >> masked).value,
          );
          const bitsOf = (x: bigint) => BigInt.asUintN(bits, x);
          const r = evaluateBinary('^', l, l, unchecked);
          expect(bitsOf(BigInt(r.value as number | bigint))).toBe(0n);
        }),
        { numRuns: 300 },
      );
    });
  }
});
