// The C# primitive numeric model (C# 6 standard §9.3.6 integral types, §9.3.7 floating-point
// types, §9.3.8 decimal). One representation per kind, validated at construction so every function
// downstream can trust it:
//   - sbyte byte short ushort int uint char: a JS number holding the exact integer;
//   - long ulong: a bigint (beyond 2^53 a number would silently lose digits);
//   - double: a JS number (both are IEEE 754 binary64);
//   - float: a JS number that is always Math.fround-exact (binary32 embedded in binary64);
//   - decimal: sign, scale 0..28 and a 96-bit mantissa, exactly as System.Decimal stores it
//     (keeping the scale is what makes 1.50m print "1.50");
//   - bool: a JS boolean.

export type SmallIntegralKind = 'sbyte' | 'byte' | 'short' | 'ushort' | 'int' | 'uint' | 'char';
export type LargeIntegralKind = 'long' | 'ulong';
export type IntegralKind = SmallIntegralKind | LargeIntegralKind;
export type FloatingKind = 'float' | 'double';
export type NumericKind = IntegralKind | FloatingKind | 'decimal';
export type PrimitiveKind = NumericKind | 'bool';

/** System.Decimal: (-1)^negative × mantissa / 10^scale. Negative zero exists, as in .NET. */
export interface DecimalValue {
  readonly negative: boolean;
  /** 0..28 */
  readonly scale: number;
  /** 0 .. 2^96-1 */
  readonly mantissa: bigint;
}

interface ValueByKind {
  sbyte: number;
  byte: number;
  short: number;
  ushort: number;
  int: number;
  uint: number;
  char: number;
  long: bigint;
  ulong: bigint;
  float: number;
  double: number;
  decimal: DecimalValue;
  bool: boolean;
}

export type ValueOf<K extends PrimitiveKind> = ValueByKind[K];

export interface Primitive<K extends PrimitiveKind = PrimitiveKind> {
  readonly kind: K;
  readonly value: ValueOf<K>;
}

/** A discriminated union: checking `kind` narrows `value`. */
export type PrimitiveValue = { [K in PrimitiveKind]: Primitive<K> }[PrimitiveKind];
export type NumericValue = { [K in NumericKind]: Primitive<K> }[NumericKind];
export type IntegralValue = { [K in IntegralKind]: Primitive<K> }[IntegralKind];

export interface IntegralInfo {
  readonly bits: 8 | 16 | 32 | 64;
  readonly signed: boolean;
  readonly min: bigint;
  readonly max: bigint;
}

function info(bits: 8 | 16 | 32 | 64, signed: boolean): IntegralInfo {
  const size = 1n << BigInt(bits);
  return signed
    ? { bits, signed, min: -(size >> 1n), max: (size >> 1n) - 1n }
    : { bits, signed, min: 0n, max: size - 1n };
}

/** Ranges of the integral types (§9.3.6); char is a 16-bit unsigned code unit. */
export const INTEGRAL_INFO: Readonly<Record<IntegralKind, IntegralInfo>> = {
  sbyte: info(8, true),
  byte: info(8, false),
  short: info(16, true),
  ushort: info(16, false),
  char: info(16, false),
  int: info(32, true),
  uint: info(32, false),
  long: info(64, true),
  ulong: info(64, false),
};

export const DECIMAL_MAX_SCALE = 28;
export const DECIMAL_MAX_MANTISSA = (1n << 96n) - 1n;

export const INTEGRAL_KINDS: readonly IntegralKind[] = [
  'sbyte',
  'byte',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'char',
];
export const NUMERIC_KINDS: readonly NumericKind[] = [
  ...INTEGRAL_KINDS,
  'float',
  'double',
  'decimal',
];
export const PRIMITIVE_KINDS: readonly PrimitiveKind[] = [...NUMERIC_KINDS, 'bool'];

export function isIntegralKind(kind: PrimitiveKind): kind is IntegralKind {
  return kind in INTEGRAL_INFO;
}

export function isLargeIntegralKind(kind: PrimitiveKind): kind is LargeIntegralKind {
  return kind === 'long' || kind === 'ulong';
}

export function isFloatingKind(kind: PrimitiveKind): kind is FloatingKind {
  return kind === 'float' || kind === 'double';
}

export function isNumericKind(kind: PrimitiveKind): kind is NumericKind {
  return kind !== 'bool';
}

export function isIntegralValue(v: PrimitiveValue): v is IntegralValue {
  return isIntegralKind(v.kind);
}

export function isNumericValue(v: PrimitiveValue): v is NumericValue {
  return v.kind !== 'bool';
}

/** Thrown for values that break the representation: a bug in the caller, never a C# error. */
export class InvalidPrimitiveError extends RangeError {
  override name = 'InvalidPrimitiveError';
}

function validate(kind: PrimitiveKind, value: unknown): string | undefined {
  switch (kind) {
    case 'long':
    case 'ulong': {
      if (typeof value !== 'bigint') return 'expected a bigint';
      const { min, max } = INTEGRAL_INFO[kind];
      return value < min || value > max ? 'out of range' : undefined;
    }
    case 'sbyte':
    case 'byte':
    case 'short':
    case 'ushort':
    case 'int':
    case 'uint':
    case 'char': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'expected an integer';
      const { min, max } = INTEGRAL_INFO[kind];
      return value < Number(min) || value > Number(max) ? 'out of range' : undefined;
    }
    case 'double':
      return typeof value === 'number' ? undefined : 'expected a number';
    case 'float':
      if (typeof value !== 'number') return 'expected a number';
      return Object.is(Math.fround(value), value) || Number.isNaN(value)
        ? undefined
        : 'not representable as binary32 (round with Math.fround)';
    case 'decimal': {
      if (typeof value !== 'object' || value === null) return 'expected a DecimalValue';
      const d = value as Partial<DecimalValue>;
      if (typeof d.negative !== 'boolean') return 'decimal sign must be a boolean';
      if (typeof d.scale !== 'number' || !Number.isInteger(d.scale)) return 'bad decimal scale';
      if (d.scale < 0 || d.scale > DECIMAL_MAX_SCALE) return 'decimal scale outside 0..28';
      if (typeof d.mantissa !== 'bigint') return 'decimal mantissa must be a bigint';
      return d.mantissa < 0n || d.mantissa > DECIMAL_MAX_MANTISSA
        ? 'decimal mantissa outside 0..2^96-1'
        : undefined;
    }
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'expected a boolean';
  }
}

function describe(value: unknown): string {
  return (
    JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? 'undefined'
  );
}

/** Builds a value of `kind`, refusing anything outside the kind's representation. */
export function primitive<K extends PrimitiveKind>(kind: K, value: ValueOf<K>): Primitive<K> {
  const problem = validate(kind, value);
  if (problem !== undefined) {
    throw new InvalidPrimitiveError(`invalid ${kind} value ${describe(value)}: ${problem}`);
  }
  return { kind, value };
}

/** Narrows a PrimitiveValue built from a generic kind (the mapped union cannot see through K). */
export function asValue<K extends PrimitiveKind>(p: Primitive<K>): PrimitiveValue {
  return p as unknown as PrimitiveValue;
}

/** The integral value as a bigint, whatever its width. */
export function integralToBigInt(v: IntegralValue): bigint {
  return typeof v.value === 'bigint' ? v.value : BigInt(v.value);
}

/** An integral value from an in-range bigint (callers wrap or range-check first). */
export function integralFromBigInt(kind: IntegralKind, value: bigint): IntegralValue {
  if (kind === 'long' || kind === 'ulong') return asValue(primitive(kind, value)) as IntegralValue;
  return asValue(primitive(kind, Number(value))) as IntegralValue;
}

/** Two's-complement wrap to the kind's width: what unchecked narrowing does (§11.3.2). */
export function wrapToKind(kind: IntegralKind, value: bigint): bigint {
  const { bits, signed } = INTEGRAL_INFO[kind];
  return signed ? BigInt.asIntN(bits, value) : BigInt.asUintN(bits, value);
}

export function inRange(kind: IntegralKind, value: bigint): boolean {
  const { min, max } = INTEGRAL_INFO[kind];
  return value >= min && value <= max;
}

// Short constructors for tests and the interpreter.
export const sbyteValue = (n: number): PrimitiveValue => asValue(primitive('sbyte', n));
export const byteValue = (n: number): PrimitiveValue => asValue(primitive('byte', n));
export const shortValue = (n: number): PrimitiveValue => asValue(primitive('short', n));
export const ushortValue = (n: number): PrimitiveValue => asValue(primitive('ushort', n));
export const intValue = (n: number): PrimitiveValue => asValue(primitive('int', n));
export const uintValue = (n: number): PrimitiveValue => asValue(primitive('uint', n));
export const longValue = (n: bigint): PrimitiveValue => asValue(primitive('long', n));
export const ulongValue = (n: bigint): PrimitiveValue => asValue(primitive('ulong', n));
export const charValue = (c: number | string): PrimitiveValue =>
  asValue(primitive('char', typeof c === 'string' ? c.charCodeAt(0) : c));
export const floatValue = (x: number): PrimitiveValue => asValue(primitive('float', x));
export const doubleValue = (x: number): PrimitiveValue => asValue(primitive('double', x));
export const boolValue = (b: boolean): PrimitiveValue => asValue(primitive('bool', b));
export const decimalValue = (d: DecimalValue): PrimitiveValue => asValue(primitive('decimal', d));
