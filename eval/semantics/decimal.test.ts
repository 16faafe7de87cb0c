import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decimalAdd,
  decimalCompare,
  decimalDivide,
  decimalMultiply,
  decimalRemainder,
  decimalSubtract,
  makeDecimal,
  scaleResult,
} from './decimal.js';
import { DECIMAL_MAX_MANTISSA, type DecimalValue } from './numeric-types.js';
import { formatNumber } from '../format/format-number.js';

/** "1.50" -> 150 at scale 2, keeping every digit as C# literals do. */
const m = (text: string): DecimalValue => {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  return makeDecimal(negative, fraction.length, BigInt(whole + fraction));
};
const show = (d: DecimalValue) => formatNumber('decimal', d);
const MAX = '79228162514264337593543950335';
const overflowMessage = 'Value was either too large or too small for a Decimal.';

// Expected strings measured with Mono 6.8 (decimal.ToString()).
describe('decimal arithmetic (measured)', () => {
  it.each<[string, (a: DecimalValue, b: DecimalValue) => DecimalValue, string, string, string]>([
    ['+', decimalAdd, '1.50', '1', '2.50'],
    ['+', decimalAdd, '0.1', '0.2', '0.3'],
    ['+', decimalAdd, MAX, '-1', '79228162514264337593543950334'],
    ['+', decimalAdd, MAX, '0.4', MAX],
    ['+', decimalAdd, '7922816251426433759354395033.5', '0.1', '7922816251426433759354395034'],
    ['-', decimalSubtract, '1.0', '1', '0.0'],
    ['*', decimalMultiply, '1.0', '1.0', '1.00'],
    ['*', decimalMultiply, '0.0000000000000000000000000001', '0.0000000000000000000000000001', '0'],
    [
      '*',
      decimalMultiply,
      '0.0000000000000000000000000001',
      '0.0000000001',
      '0.0000000000000000000000000000',
    ],
    ['/', decimalDivide, '1', '3', '0.3333333333333333333333333333'],
    ['/', decimalDivide, '2', '3', '0.6666666666666666666666666667'],
    ['/', decimalDivide, '10', '4', '2.5'],
    ['/', decimalDivide, '1.00', '1', '1.00'],
    ['/', decimalDivide, '0.5', '0.25', '2'],
    ['/', decimalDivide, '100', '0.01', '10000'],
    ['/', decimalDivide, '0.0000000000000000000000000001', '3', '0'],
    ['%', decimalRemainder, '7.5', '2', '1.5'],
    ['%', decimalRemainder, '-7.5', '2', '-1.5'],
    ['%', decimalRemainder, '7.5', '-2', '1.5'],
    ['%', decimalRemainder, '1', '2.00', '1'],
    ['%', decimalRemainder, '2.00', '2', '0.00'],
  ])('%s: %s and %s gives %s', (_, op, a, b, expected) => {
    expect(show(op(m(a), m(b)))).toBe(expected);
  });

  it('1m / 3m * 3m is 0.9999999999999999999999999999', () => {
    expect(show(decimalMultiply(decimalDivide(m('1'), m('3')), m('3')))).toBe(
      '0.9999999999999999999999999999',
    );
  });

  it.each<[(a: DecimalValue, b: DecimalValue) => DecimalValue, string, string, string]>([
    [decimalAdd, MAX, '1', overflowMessage],
    [decimalSubtract, `-${MAX}`, '1', overflowMessage],
    [decimalMultiply, MAX, '2', overflowMessage],
    [decimalDivide, MAX, '0.5', overflowMessage],
    [decimalDivide, '1', '0', 'Attempted to divide by zero.'],
    [decimalRemainder, '1', '0.00', 'Attempted to divide by zero.'],
  ])('%#: throws %s', (op, a, b, message) => {
    expect(() => op(m(a), m(b))).toThrow(message);
  });

  it('compares by value, zeros equal whatever their sign and scale', () => {
    expect(decimalCompare(m('1.50'), m('1.5'))).toBe(0);
    expect(decimalCompare(m('-0.00'), m('0'))).toBe(0);
    expect(decimalCompare(m('-2'), m('-1'))).toBe(-1);
    expect(decimalCompare(m('0.1'), m('0.09'))).toBe(1);
  });
});

describe('scaleResult (DecCalc.ScaleResult) rounds half to even', () => {
  it.each([
    [DECIMAL_MAX_MANTISSA * 10n + 4n, 1, DECIMAL_MAX_MANTISSA, 0],
    [25n, 29, 2n, 28], // 2.5e-28 -> 2e-28
    [35n, 29, 4n, 28], // 3.5e-28 -> 4e-28
    [251n, 30, 3n, 28],
  ])('%d at scale %d -> %d at scale %d', (value, scale, mantissa, newScale) => {
    expect(scaleResult(value, scale)).toEqual({ mantissa, scale: newScale });
  });
});

// Property tests: results are the exact value whenever it is representable.
const smallDecimal = fc
  .record({
    negative: fc.boolean(),
    scale: fc.integer({ min: 0, max: 10 }),
    mantissa: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  })
  .map(({ negative, scale, mantissa }) => makeDecimal(negative, scale, mantissa));
const rational = (d: DecimalValue): [bigint, bigint] => [
  d.negative ? -d.mantissa : d.mantissa,
  10n ** BigInt(d.scale),
];

describe('decimal properties', () => {
  it('+, - and * of small operands are exact at the expected scale', () => {
    fc.assert(
      fc.property(smallDecimal, smallDecimal, (a, b) => {
        const [an, ad] = rational(a);
        const [bn, bd] = rational(b);
        const sum = decimalAdd(a, b);
        const [sn, sd] = rational(sum);
        expect(sn * ad * bd).toBe((an * bd + bn * ad) * sd);
        expect(sum.scale).toBe(Math.max(a.scale, b.scale));
        const product = decimalMultiply(a, b);
        const [pn, pd] = rational(product);
        expect(pn * ad * bd).toBe(an * bn * pd);
        // A zero product on DecCalc's wide path comes back as plain 0 (scale 0).
        const wide = a.mantissa >= 2n ** 32n || b.mantissa >= 2n ** 32n;
        expect(product.scale).toBe(product.mantissa === 0n && wide ? 0 : a.scale + b.scale);
        const diff = decimalSubtract(a, b);
        expect(decimalCompare(decimalAdd(diff, b), a)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it('a = (a / b) * b + a % b holds exactly when the quotient is exact', () => {
    fc.assert(
      fc.property(smallDecimal, smallDecimal, (a, b) => {
        if (b.mantissa === 0n) return;
        const r = decimalRemainder(a, b);
        expect(
          decimalCompare(r, makeDecimal(false, 0, 0n)) * (a.negative ? -1 : 1),
        ).toBeGreaterThanOrEqual(0);
        const [rn, rd] = rational(r);
        const [bn, bd] = rational(b);
        expect((rn < 0n ? -rn : rn) * bd < (bn < 0n ? -bn : bn) * rd).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
