// Between the evaluator's values and the numeric semantics' primitives (eval/semantics).

import {
  PRIMITIVE_KINDS,
  type DecimalValue,
  type PrimitiveKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import type { DecimalBits, EvalValue, NumericKind as ValueNumericKind } from '../values.js';
import { KEYWORD_TYPES } from './well-known.js';

export function decimalFromBits(bits: DecimalBits): DecimalValue {
  const mantissa =
    (BigInt(bits.hi >>> 0) << 64n) | (BigInt(bits.mid >>> 0) << 32n) | BigInt(bits.lo >>> 0);
  return { negative: (bits.flags & 0x80000000) !== 0, scale: (bits.flags >> 16) & 0xff, mantissa };
}

export function bitsFromDecimal(d: DecimalValue): DecimalBits {
  const m = d.mantissa;
  return {
    flags: (d.negative ? 0x80000000 : 0) | (d.scale << 16) | 0,
    hi: Number((m >> 64n) & 0xffffffffn) | 0,
    mid: Number((m >> 32n) & 0xffffffffn) | 0,
    lo: Number(m & 0xffffffffn) | 0,
  };
}

/** The primitive a value holds, or undefined when it is not a primitive. */
export function toPrimitive(v: EvalValue): PrimitiveValue | undefined {
  if (v.kind === 'bool') return { kind: 'bool', value: v.value };
  if (v.kind === 'decimal') return { kind: 'decimal', value: decimalFromBits(v.bits) };
  if (v.kind !== 'number') return undefined;
  return v.type === 'long' || v.type === 'ulong'
    ? { kind: v.type, value: BigInt(v.value) }
    : { kind: v.type, value: Number(v.value) };
}

/** The two bools, shared (values are never changed in place): a comparison per element makes none. */
export const TRUE: EvalValue = { kind: 'bool', value: true };
export const FALSE: EvalValue = { kind: 'bool', value: false };

export function fromPrimitive(p: PrimitiveValue): EvalValue {
  if (p.kind === 'bool') return p.value ? TRUE : FALSE;
  if (p.kind === 'decimal') return { kind: 'decimal', bits: bitsFromDecimal(p.value) };
  return { kind: 'number', type: p.kind, value: p.value };
}

export const PRIMITIVE_TYPE_NAMES = Object.fromEntries(
  PRIMITIVE_KINDS.map((k) => [k, KEYWORD_TYPES[k]]),
) as Readonly<Record<PrimitiveKind, string>>;

const BY_NAME = new Map<string, PrimitiveKind>(
  Object.entries(PRIMITIVE_TYPE_NAMES).map(([k, v]) => [v, k as PrimitiveKind]),
);

export function primitiveKindOfName(fullName: string): PrimitiveKind | undefined {
  return BY_NAME.get(fullName);
}

/** The evaluator's `number` kind for a type name: a primitive other than bool and decimal. */
export function valueNumericKindOfName(fullName: string): ValueNumericKind | undefined {
  const kind = BY_NAME.get(fullName);
  return kind === undefined || kind === 'bool' || kind === 'decimal' ? undefined : kind;
}
