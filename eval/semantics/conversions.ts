// Numeric conversions: which exist (§11.2.3 implicit numeric, §11.2.10 implicit constant
// expression, §11.3.2 explicit numeric) and what they compute, checked and unchecked, as Mono 6.8
// on x86-64 does. The C# spec leaves unchecked float/double -> integral out-of-range results
// unspecified; these were measured on Mono 6.8.0.105 x86-64 (probe: unchecked casts of NaN,
// ±Infinity, ±1e20, 1e30, -1.5, 300.7, 4294967297.0, -2147483649.0, 1.9e19 to every target):
//   - int: cvttsd2si, so NaN/out of range -> int.MinValue ((int)1e20 == -2147483648);
//   - sbyte byte short ushort char: via int, then wrapped ((byte)300.7 == 44,
//     (byte)4294967297.0 == 0, (sbyte)-129.0 == 127);
//   - uint: via long, then the low 32 bits ((uint)-1.5 == 4294967295,
//     (uint)-2147483649.0 == 2147483647, (uint)1e20 == 0);
//   - long: NaN/out of range -> long.MinValue ((long)1e30);
//   - ulong: mono_fconv_u8 ((ulong)-1.0 == ulong.MaxValue, (ulong)1.9e19 == 0, (ulong)-1e20 == 2^63).
// Checked float -> integral throws when the value truncated toward zero is out of range
// (measured: checked((uint)-0.9) == 0, checked((int)2147483647.9) == int.MaxValue).
// Integral -> float: long -> float rounds once, ulong -> float twice (mcs emits conv.r.un then
// conv.r4; measured (float)(2^63 + 2^39 + 1UL) == 2^63).

import {
  type IntegralKind,
  type NumericKind,
  type PrimitiveKind,
  type PrimitiveValue,
  asValue,
  inRange,
  integralFromBigInt,
  integralToBigInt,
  isIntegralKind,
  isIntegralValue,
  primitive,
  wrapToKind,
} from './numeric-types.js';
import { decimalFromBigInt, decimalTruncateToBigInt } from './decimal.js';
import {
  decimalFromDouble,
  decimalFromFloat,
  decimalToDouble,
  decimalToFloat,
} from './decimal-convert.js';
import { noConversionError, overflowError, rangeOverflowError } from './errors.js';
import {
  bigIntToFloat32,
  truncateToInt32,
  truncateToInt64,
  truncateToUInt64,
} from './float-bits.js';

// §11.2.3 Implicit numeric conversions.
const IMPLICIT: Readonly<Record<NumericKind, readonly NumericKind[]>> = {
  sbyte: ['short', 'int', 'long', 'float', 'double', 'decimal'],
  byte: ['short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'],
  short: ['int', 'long', 'float', 'double', 'decimal'],
  ushort: ['int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'],
  int: ['long', 'float', 'double', 'decimal'],
  uint: ['long', 'ulong', 'float', 'double', 'decimal'],
  long: ['float', 'double', 'decimal'],
  ulong: ['float', 'double', 'decimal'],
  char: ['ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'],
  float: ['double'],
  double: [],
  decimal: [],
};

/** Identity or an implicit numeric conversion (§11.2.3); bool converts only to itself. */
export function hasImplicitConversion(from: PrimitiveKind, to: PrimitiveKind): boolean {
  if (from === to) return true;
  if (from === 'bool' || to === 'bool') return false;
  return IMPLICIT[from].includes(to);
}

/** Any numeric type converts explicitly to any other (§11.3.2); bool to none. */
export function hasExplicitConversion(from: PrimitiveKind, to: PrimitiveKind): boolean {
  return from === to || (from !== 'bool' && to !== 'bool');
}

/**
 * §11.2.10: a constant of type int converts to sbyte, byte, short, ushort, uint or ulong when in
 * range; a constant of type long converts to ulong when not negative. (Not to char.)
 */
export function hasImplicitConstantConversion(
  constant: PrimitiveValue,
  to: PrimitiveKind,
): boolean {
  if (constant.kind === 'int') {
    const targets: readonly PrimitiveKind[] = ['sbyte', 'byte', 'short', 'ushort', 'uint', 'ulong'];
    return targets.includes(to) && isIntegralKind(to) && inRange(to, BigInt(constant.value));
  }
  return constant.kind === 'long' && to === 'ulong' && constant.value >= 0n;
}

/** An operand as overload resolution sees it: its type and, if constant, its value. */
export interface OperandInfo {
  readonly kind: PrimitiveKind;
  readonly constant?: PrimitiveValue;
}

export function isImplicitlyConvertible(operand: OperandInfo, to: PrimitiveKind): boolean {
  return (
    hasImplicitConversion(operand.kind, to) ||
    (operand.constant !== undefined && hasImplicitConstantConversion(operand.constant, to))
  );
}

function fromIntegral(
  value: bigint,
  fromKind: IntegralKind,
  to: NumericKind,
  checked: boolean,
): PrimitiveValue {
  if (isIntegralKind(to)) {
    if (inRange(to, value)) return integralFromBigInt(to, value);
    if (checked) throw overflowError();
    return integralFromBigInt(to, wrapToKind(to, value));
  }
  switch (to) {
    case 'double':
      // Number(bigint) rounds to nearest, ties to even, as cvtsi2sd and Mono's ulong path do.
      return asValue(primitive('double', Number(value)));
    case 'float':
      return asValue(
        primitive(
          'float',
          fromKind === 'ulong' ? Math.fround(Number(value)) : bigIntToFloat32(value),
        ),
      );
    case 'decimal':
      return asValue(primitive('decimal', decimalFromBigInt(value)));
  }
}

function floatingToIntegral(x: number, to: IntegralKind, checked: boolean): PrimitiveValue {
  if (checked) {
    const t = Math.trunc(x);
    if (!Number.isFinite(t) || !inRange(to, BigInt(t))) throw overflowError();
    return integralFromBigInt(to, BigInt(t));
  }
  switch (to) {
    case 'int':
      return integralFromBigInt('int', BigInt(truncateToInt32(x)));
    case 'uint':
      return integralFromBigInt('uint', BigInt.asUintN(32, truncateToInt64(x)));
    case 'long':
      return integralFromBigInt('long', truncateToInt64(x));
    case 'ulong':
      return integralFromBigInt('ulong', truncateToUInt64(x));
    case 'sbyte':
    case 'byte':
    case 'short':
    case 'ushort':
    case 'char':
      return integralFromBigInt(to, wrapToKind(to, BigInt(truncateToInt32(x))));
  }
}

/**
 * The explicit conversion of `value` to `to` (implicit conversions are the subset that never
 * loses range, so this serves both). `checked` selects §12.7.14 checked semantics; conversions
 * from decimal and to decimal throw whatever the context (§11.3.2).
 */
export function convert(
  value: PrimitiveValue,
  to: PrimitiveKind,
  checked: boolean,
): PrimitiveValue {
  if (value.kind === to) return value;
  if (value.kind === 'bool' || to === 'bool') throw noConversionError(value.kind, to);
  if (isIntegralValue(value)) {
    return fromIntegral(integralToBigInt(value), value.kind, to, checked);
  }
  switch (value.kind) {
    case 'float':
    case 'double': {
      const x = value.value;
      if (isIntegralKind(to)) return floatingToIntegral(x, to, checked);
      if (to === 'float') return asValue(primitive('float', Math.fround(x)));
      if (to === 'double') return asValue(primitive('double', x));
      return asValue(
        primitive('decimal', value.kind === 'float' ? decimalFromFloat(x) : decimalFromDouble(x)),
      );
    }
    case 'decimal': {
      const d = value.value;
      if (to === 'double') return asValue(primitive('double', decimalToDouble(d)));
      if (to === 'float') return asValue(primitive('float', decimalToFloat(d)));
      if (!isIntegralKind(to)) return value;
      const whole = decimalTruncateToBigInt(d);
      // decimal.ToInt32 and friends: a negative fraction truncates to 0 and passes for ulong.
      if (!inRange(to, whole)) throw rangeOverflowError(to);
      return integralFromBigInt(to, whole);
    }
  }
}
