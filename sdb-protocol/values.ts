// The VALUE encoding (sdb-protocol.md §2.3 and §2.4): one tag byte, then a payload.
// Decoding follows what the agent sends; encoding follows what the agent accepts, which is not
// the same: objects go back as OBJECT, pointers as I8, enums with isEnum 0.

import type { PacketReader } from './buffer-reader.js';
import type { PacketWriter } from './buffer-writer.js';
import { SdbProtocolError, SdbUnsafeRequestError } from './errors.js';
import { ValueTag } from './vocabulary.js';
import type { ProtocolVersion } from './version.js';

export type NumberKind = 'char' | 'i1' | 'u1' | 'i2' | 'u2' | 'i4' | 'u4' | 'r4' | 'r8';
export type ObjectTag =
  typeof ValueTag.CLASS | typeof ValueTag.OBJECT | typeof ValueTag.ARRAY | typeof ValueTag.SZARRAY;

export type VoidValue = { readonly kind: 'void' };
export type BoolValue = { readonly kind: 'bool'; readonly value: boolean };
/** `char` holds the UTF-16 code unit; `u4` is unsigned; `r4` is the float widened exactly. */
export type NumberValue = { readonly kind: NumberKind; readonly value: number };
export type LongValue = { readonly kind: 'i8' | 'u8'; readonly value: bigint };
export type StringValue = { readonly kind: 'string'; readonly objectId: number };
/** Any reference-type instance that is not a string: class instance, exact Object, array. */
export type ObjectValue = {
  readonly kind: 'object';
  readonly tag: ObjectTag;
  readonly objectId: number;
};
export type PointerValue = {
  readonly kind: 'ptr';
  readonly address: bigint;
  readonly typeId?: number;
};
/** Structs, enums (isEnum), boxed values (arrive inline), IntPtr/UIntPtr. */
export type StructValue = {
  readonly kind: 'valuetype';
  readonly typeId: number;
  readonly isEnum: boolean;
  readonly fields: readonly Value[];
};
export type NullValue = { readonly kind: 'null' };
/** Only inside custom-attribute arguments: a System.Type value. */
export type TypeValue = { readonly kind: 'type'; readonly typeId: number };
/**
 * A boxed struct that contains itself (through an object field): the index among the enclosing
 * VALUETYPEs that arrived boxed, outermost first (structs held by value are not counted).
 */
export type ParentStructValue = { readonly kind: 'parent_vtype'; readonly index: number };
/** The contents of a C# `fixed` buffer field. */
export type FixedArrayValue = {
  readonly kind: 'fixed_array';
  readonly elementTag: number;
  readonly values: readonly (number | bigint)[];
};

export type Value =
  | VoidValue
  | BoolValue
  | NumberValue
  | LongValue
  | StringValue
  | ObjectValue
  | PointerValue
  | StructValue
  | NullValue
  | TypeValue
  | ParentStructValue
  | FixedArrayValue;

/** Nesting deeper than this is treated as a corrupt packet (guards the decoder's stack). */
export const MAX_VALUE_DEPTH = 64;

const f32 = new Float32Array(1);
const f32AsInt = new Int32Array(f32.buffer);

function f32FromBits(bits: number): number {
  f32AsInt[0] = bits;
  return f32[0]!;
}

export function readValue(r: PacketReader, v: ProtocolVersion, depth = 0): Value {
  const tag = r.u8();
  switch (tag) {
    case ValueTag.I4:
      return { kind: 'i4', value: r.i32() };
    case ValueTag.VOID:
      return { kind: 'void' };
    case ValueTag.BOOLEAN:
      return { kind: 'bool', value: r.i32() !== 0 };
    case ValueTag.CHAR:
      return { kind: 'char', value: r.i32() & 0xffff }; // sign-extended on the wire
    case ValueTag.I1:
      return { kind: 'i1', value: (r.i32() << 24) >> 24 };
    case ValueTag.U1:
      return { kind: 'u1', value: r.i32() & 0xff }; // 200 arrives as -56
    case ValueTag.I2:
      return { kind: 'i2', value: (r.i32() << 16) >> 16 };
    case ValueTag.U2:
      return { kind: 'u2', value: r.i32() & 0xffff };
    case ValueTag.U4:
      return { kind: 'u4', value: r.i32() >>> 0 };
    case ValueTag.I8:
      return { kind: 'i8', value: r.i64() };
    case ValueTag.U8:
      return { kind: 'u8', value: r.u64() };
    case ValueTag.R4:
      return { kind: 'r4', value: f32FromBits(r.i32()) };
    case ValueTag.R8:
      return { kind: 'r8', value: r.f64FromLong() };
    case ValueTag.STRING:
      return { kind: 'string', objectId: r.objectId() };
    case ValueTag.CLASS:
    case ValueTag.OBJECT:
    case ValueTag.ARRAY:
    case ValueTag.SZARRAY:
      return { kind: 'object', tag, objectId: r.objectId() };
    case ValueTag.PTR: {
      const address = r.u64();
      // since 2.46: the pointer's type id follows
      return v.atLeast(46)
        ? { kind: 'ptr', address, typeId: r.typeId() }
        : { kind: 'ptr', address };
    }
    case ValueTag.VALUETYPE:
      return readStruct(r, v, depth);
    case ValueTag.NULL:
      if (v.atLeast(59)) skipNullTypeInfo(r);
      return { kind: 'null' };
    case ValueTag.TYPE:
      return { kind: 'type', typeId: r.typeId() };
    case ValueTag.PARENT_VTYPE:
      return { kind: 'parent_vtype', index: r.i32() };
    case ValueTag.FIXED_ARRAY:
      return readFixedArray(r);
    default:
      throw new SdbProtocolError(
        `unknown value tag 0x${tag.toString(16)} at offset ${r.offset - 1}`,
      );
  }
}

function readStruct(r: PacketReader, v: ProtocolVersion, depth: number): StructValue {
  if (depth >= MAX_VALUE_DEPTH) {
    throw new SdbProtocolError(`struct nesting deeper than ${MAX_VALUE_DEPTH}`);
  }
  const isEnum = r.u8() !== 0;
  if (v.atLeast(61)) r.u8(); // since 2.61: isBoxed (never declared by this client)
  const typeId = r.typeId();
  let extra = 0;
  if (v.atLeast(65)) extra = Math.max(0, r.i32() - 1); // since 2.65: inline array length
  // Each field takes at least one byte, which bounds the count before anything is allocated.
  const n = r.count('struct field count') + extra;
  const fields = new Array<Value>(n);
  for (let i = 0; i < n; i++) fields[i] = readValue(r, v, depth + 1);
  return { kind: 'valuetype', typeId, isEnum, fields };
}

function skipNullTypeInfo(r: PacketReader): void {
  // since 2.59: element type, then type ids describing the null's static type
  const elementType = r.u8();
  if (elementType === ValueTag.SZARRAY || elementType === ValueTag.ARRAY) {
    const elementElementType = r.u8();
    r.i32(); // rank
    if (elementElementType === ValueTag.CLASS) r.typeId();
    r.typeId();
  } else {
    r.typeId();
  }
}

function readFixedArray(r: PacketReader): FixedArrayValue {
  const elementTag = r.u8();
  const wide =
    elementTag === ValueTag.I8 || elementTag === ValueTag.U8 || elementTag === ValueTag.R8;
  const n = r.count('fixed array length', Math.floor(r.remaining / (wide ? 8 : 4)));
  const values = new Array<number | bigint>(n);
  for (let i = 0; i < n; i++) {
    if (elementTag === ValueTag.R8) values[i] = r.f64FromLong();
    else if (elementTag === ValueTag.R4) values[i] = r.f32FromInt();
    else if (wide) values[i] = elementTag === ValueTag.U8 ? r.u64() : r.i64();
    else values[i] = r.i32();
  }
  return { kind: 'fixed_array', elementTag, values };
}

/** Reads `count` values: the hot path of array and field reads. */
export function readValues(r: PacketReader, v: ProtocolVersion, count: number): Value[] {
  if (count > r.remaining) {
    throw new SdbProtocolError(`value count ${count} exceeds the ${r.remaining} bytes left`);
  }
  const out = new Array<Value>(count);
  for (let i = 0; i < count; i++) out[i] = readValue(r, v);
  return out;
}

const numberTags: Record<NumberKind, number> = {
  char: ValueTag.CHAR,
  i1: ValueTag.I1,
  u1: ValueTag.U1,
  i2: ValueTag.I2,
  u2: ValueTag.U2,
  i4: ValueTag.I4,
  u4: ValueTag.U4,
  r4: ValueTag.R4,
  r8: ValueTag.R8,
};

/**
 * Writes a value the way the agent accepts it (§2.4 of the fact sheet, rules 2 and 3 of the
 * Unity notes): references as OBJECT + id, pointers as I8, structs and enums with isEnum 0.
 */
export function writeValue(w: PacketWriter, value: Value, v: ProtocolVersion, depth = 0): void {
  switch (value.kind) {
    case 'bool':
      w.u8(ValueTag.BOOLEAN).i32(value.value ? 1 : 0);
      return;
    case 'r8':
      w.u8(ValueTag.R8).f64AsLong(value.value);
      return;
    case 'r4':
      w.u8(ValueTag.R4).f32AsInt(value.value);
      return;
    case 'char':
    case 'i1':
    case 'u1':
    case 'i2':
    case 'u2':
    case 'i4':
    case 'u4':
      w.u8(numberTags[value.kind]).i32(value.value);
      return;
    case 'i8':
    case 'u8':
      w.u8(value.kind === 'i8' ? ValueTag.I8 : ValueTag.U8).i64(value.value);
      return;
    case 'string':
    case 'object':
      // Debian 6.8 accepts only OBJECT for reference slots (STRING and CLASS → INVALID_ARGUMENT).
      w.u8(ValueTag.OBJECT).objectId(value.objectId);
      return;
    case 'ptr':
      // Echoing PTR makes the agent assert and abort the game: a pointer goes back as I8.
      w.u8(ValueTag.I8).i64(BigInt.asIntN(64, value.address));
      return;
    case 'valuetype': {
      if (depth >= MAX_VALUE_DEPTH)
        throw new SdbUnsafeRequestError('struct nesting too deep to send');
      w.u8(ValueTag.VALUETYPE).u8(0); // isEnum 1 is refused with NOT_IMPLEMENTED
      if (v.atLeast(61)) w.u8(0);
      w.typeId(value.typeId);
      if (v.atLeast(65)) w.i32(1);
      w.i32(value.fields.length);
      for (const f of value.fields) writeValue(w, f, v, depth + 1);
      return;
    }
    case 'null':
      w.u8(ValueTag.NULL);
      if (v.atLeast(59)) w.u8(ValueTag.CLASS).i32(0);
      return;
    case 'fixed_array': {
      w.u8(ValueTag.FIXED_ARRAY).u8(value.elementTag).i32(value.values.length);
      for (const x of value.values) {
        if (typeof x === 'bigint') w.i64(x);
        else if (value.elementTag === ValueTag.R8) w.f64AsLong(x);
        else if (value.elementTag === ValueTag.R4) w.f32AsInt(x);
        else w.i32(x);
      }
      return;
    }
    case 'void':
    case 'type':
    case 'parent_vtype':
      throw new SdbUnsafeRequestError(`a ${value.kind} value cannot be sent to the agent`);
  }
}

/** Constructors for values a client sends. */
export const Values = {
  void: (): VoidValue => ({ kind: 'void' }),
  null: (): NullValue => ({ kind: 'null' }),
  bool: (value: boolean): BoolValue => ({ kind: 'bool', value }),
  i4: (value: number): NumberValue => ({ kind: 'i4', value }),
  number: (kind: NumberKind, value: number): NumberValue => ({ kind, value }),
  i8: (value: bigint): LongValue => ({ kind: 'i8', value }),
  u8: (value: bigint): LongValue => ({ kind: 'u8', value }),
  r8: (value: number): NumberValue => ({ kind: 'r8', value }),
  r4: (value: number): NumberValue => ({ kind: 'r4', value: Math.fround(value) }),
  char: (value: number): NumberValue => ({ kind: 'char', value }),
  string: (objectId: number): StringValue => ({ kind: 'string', objectId }),
  object: (objectId: number, tag: ObjectTag = ValueTag.OBJECT): ObjectValue => ({
    kind: 'object',
    tag,
    objectId,
  }),
  struct: (typeId: number, fields: readonly Value[], isEnum = false): StructValue => ({
    kind: 'valuetype',
    typeId,
    isEnum,
    fields,
  }),
} as const;

/** The object id a value refers to, or 0 for null and non-reference values. */
export function objectIdOf(value: Value): number {
  return value.kind === 'object' || value.kind === 'string' ? value.objectId : 0;
}
