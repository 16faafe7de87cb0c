// A decimal literal's value (`1.50m`, `1e-3m`): mcs parses it with decimal.Parse, which keeps
// trailing zeros as scale (1.50m has scale 2), folds exponents into the scale, and rounds to
// at most 28 decimal places and 96 bits of mantissa, halves to even.

import { makeDecimal, pow10 } from '../semantics/decimal.js';
import {
  DECIMAL_MAX_MANTISSA,
  DECIMAL_MAX_SCALE,
  type DecimalValue,
} from '../semantics/numeric-types.js';

/** `digits` as the lexer keeps them: `1000.50e-3` (no sign, no separators, no suffix). */
export function decimalFromLiteral(digits: string): DecimalValue | undefined {
  const m = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(digits);
  if (!m) return undefined;
  const whole = m[1] ?? '';
  const fraction = m[2] ?? '';
  const exponent = Number(m[3] ?? '0');
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - exponent;
  if (scale < 0) {
    mantissa *= pow10(-scale);
    return mantissa > DECIMAL_MAX_MANTISSA ? undefined : makeDecimal(false, 0, mantissa);
  }
  // drop digits (rounding once) until the value fits: at most 28 places, at most 96 bits
  let drop = Math.max(0, scale - DECIMAL_MAX_SCALE);
  while (mantissa / pow10(drop) > DECIMAL_MAX_MANTISSA) drop++;
  if (drop > scale) return undefined;
  if (drop > 0) {
    mantissa = roundHalfEven(mantissa, pow10(drop));
    scale -= drop;
    if (mantissa > DECIMAL_MAX_MANTISSA) {
      if (scale === 0) return undefined;
      mantissa = roundHalfEven(mantissa, 10n);
      scale--;
    }
  }
  return makeDecimal(false, scale, mantissa);
}

function roundHalfEven(value: bigint, divisor: bigint): bigint {
  const q = value / divisor;
  const r = value % divisor;
  const twice = r * 2n;
  if (twice > divisor || (twice === divisor && q % 2n === 1n)) return q + 1n;
  return q;
}
