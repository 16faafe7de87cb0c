// Between the wire's values and the evaluator's. Primitives become local values; objects keep
// their id; structs become field lists; a boxed primitive (how the agent sends it inside an
// object slot) becomes the primitive itself; enums and decimals get their own kinds.

import { Values, type Value } from '../../sdb-protocol/index.js';
import type { ElementColumn, EvalValue, NumericKind } from '../../eval/values.js';
import { NULL, primitiveKindOfName } from '../../eval/index.js';
import type { FieldDescriptor, TypeDescriptor, TypeHandle } from '../../eval/runtime.js';

const wireToNumeric: Record<string, NumericKind> = {
  i1: 'sbyte',
  u1: 'byte',
  i2: 'short',
  u2: 'ushort',
  i4: 'int',
  u4: 'uint',
  i8: 'long',
  u8: 'ulong',
  char: 'char',
  r4: 'float',
  r8: 'double',
};

const numericToWire: Record<NumericKind, Value['kind']> = {
  sbyte: 'i1',
  byte: 'u1',
  short: 'i2',
  ushort: 'u2',
  int: 'i4',
  uint: 'u4',
  long: 'i8',
  ulong: 'u8',
  char: 'char',
  float: 'r4',
  double: 'r8',
};

export const handleOf = (typeId: number): TypeHandle => ({ key: String(typeId) });
export const typeIdOf = (t: TypeHandle): number => Number(t.key);

/** Needs type names for structs (to recognise decimals, enums' underlying types, boxed primitives). */
export interface TypeNames {
  fullName(typeId: number): Promise<string>;
  /** Instance field names in the order the agent sends a struct's fields. */
  instanceFieldNames(typeId: number): Promise<string[]>;
  /**
   * With these, a box that contains itself (PARENT_VTYPE) is resolved: the agent counts only the
   * enclosing structs that arrived boxed, which their slots' declared types tell.
   */
  allFields?(type: TypeHandle): Promise<FieldDescriptor[]>;
  describe?(type: TypeHandle): Promise<TypeDescriptor>;
}

/** A struct being decoded, for PARENT_VTYPE: the value (filled as its fields arrive) and its slot. */
interface Enclosing {
  readonly value: EvalValue & { kind: 'struct' };
  /** Whether it arrived boxed: undefined until asked (and for the outermost, when no slot is known). */
  boxed: () => Promise<boolean | undefined>;
}

/** The wire values that need no metadata: anything but a struct and its back references. */
type PlainWire = Exclude<Value, { kind: 'valuetype' | 'parent_vtype' | 'type' | 'fixed_array' }>;

function isPlainWire(v: Value): v is PlainWire {
  return (
    v.kind !== 'valuetype' &&
    v.kind !== 'parent_vtype' &&
    v.kind !== 'type' &&
    v.kind !== 'fixed_array'
  );
}

/** A wire value that needs no metadata, decoded at once. */
function plainFromWire(v: PlainWire): EvalValue {
  switch (v.kind) {
    case 'null':
      return NULL;
    case 'void':
      return { kind: 'void' };
    case 'bool':
      return { kind: 'bool', value: v.value };
    case 'i8':
    case 'u8':
    case 'char':
    case 'i1':
    case 'u1':
    case 'i2':
    case 'u2':
    case 'i4':
    case 'u4':
    case 'r4':
    case 'r8':
      return { kind: 'number', type: wireToNumeric[v.kind]!, value: v.value };
    case 'string':
      return { kind: 'string', ref: { id: v.objectId } };
    case 'object':
      return { kind: 'object', ref: { id: v.objectId } };
    case 'ptr':
      return { kind: 'pointer', address: v.address };
  }
}

/** Codes of a column's elements: these, then a numeric kind's index in NUMERIC_CODES. */
const Code = { Null: 0, Object: 1, String: 2, False: 3, True: 4, Numbers: 5 } as const;
const NUMERIC_CODES: readonly Value['kind'][] = [
  'i1',
  'u1',
  'i2',
  'u2',
  'i4',
  'u4',
  'char',
  'r4',
  'r8',
];
const NUMERIC_OF_CODE = NUMERIC_CODES.map((k) => wireToNumeric[k]!);
const codeOfWire = new Map<Value['kind'], number>(
  NUMERIC_CODES.map((k, i) => [k, Code.Numbers + i]),
);

/**
 * A bulk read's wire values as a compact column (a code and a number per element), or undefined
 * when one of them is not a null, reference, bool or 32-bit-or-smaller number (longs, structs:
 * decoded one by one instead).
 */
export function columnFromWire(values: readonly Value[]): ElementColumn | undefined {
  const n = values.length;
  const codes = new Uint8Array(n);
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v.kind === 'object' || v.kind === 'string') {
      codes[i] = v.kind === 'object' ? Code.Object : Code.String;
      data[i] = v.objectId;
    } else if (v.kind === 'bool') {
      codes[i] = v.value ? Code.True : Code.False;
    } else if (v.kind !== 'null') {
      const code = codeOfWire.get(v.kind);
      if (code === undefined) return undefined;
      codes[i] = code;
      data[i] = (v as { value: number }).value;
    } // else Code.Null, which is 0
  }
  // the value made last: a Where and a Select reading the same element's field get one object
  let lastIndex = -1;
  let last: EvalValue = NULL;
  let numbers: Float64Array | null | undefined;
  return {
    length: n,
    at(i: number): EvalValue {
      if (i === lastIndex) return last;
      lastIndex = i;
      return (last = made(i));
    },
    objectId: (i) => (codes[i] === Code.Object ? data[i] : undefined),
    numbers: () => (numbers === undefined ? (numbers = numbersOf()) : numbers) ?? undefined,
  };

  /** The elements as numbers (bools as 1 and 0), or null when one is not a number or bool. */
  function numbersOf(): Float64Array | null {
    let out = data;
    for (let i = 0; i < n; i++) {
      const code = codes[i]!;
      if (code === Code.True || code === Code.False) {
        if (out === data) out = data.slice();
        out[i] = code === Code.True ? 1 : 0;
      } else if (code < Code.Numbers) return null;
    }
    return out;
  }

  function made(i: number): EvalValue {
    const code = codes[i]!;
    switch (code) {
      case Code.Null:
        return NULL;
      case Code.Object:
        return { kind: 'object', ref: { id: data[i]! } };
      case Code.String:
        return { kind: 'string', ref: { id: data[i]! } };
      case Code.False:
        return FALSE_VALUE;
      case Code.True:
        return TRUE_VALUE;
      default:
        return { kind: 'number', type: NUMERIC_OF_CODE[code - Code.Numbers]!, value: data[i]! };
    }
  }
}

const FALSE_VALUE: EvalValue = { kind: 'bool', value: false };
const TRUE_VALUE: EvalValue = { kind: 'bool', value: true };

/**
 * A wire value for the evaluator. `slot`, when known, is the declared type of where the value
 * came from (a field, a return type, an element type): it tells whether an outermost struct
 * arrived boxed.
 */
export function fromWire(
  v: Value,
  names: TypeNames,
  /** Asked only when a PARENT_VTYPE needs it. */
  slot?: TypeHandle | (() => Promise<TypeHandle | undefined>),
): Promise<EvalValue> {
  const outermost = async (): Promise<boolean | undefined> => {
    const t = typeof slot === 'function' ? await slot() : slot;
    return t && names.describe ? isReferenceType(await names.describe(t)) : undefined;
  };
  return decode(v, names, [], outermost);
}

async function decode(
  v: Value,
  names: TypeNames,
  enclosing: readonly Enclosing[],
  boxed: () => Promise<boolean | undefined>,
): Promise<EvalValue> {
  if (isPlainWire(v)) return plainFromWire(v);
  switch (v.kind) {
    case 'valuetype': {
      const name = await names.fullName(v.typeId);
      const [first] = v.fields;
      if (v.isEnum && first) {
        const u = await fromWire(first, names);
        if (u.kind !== 'number' || u.type === 'float' || u.type === 'double')
          throw new Error(`enum ${name} has a non-integral value`);
        return { kind: 'enum', type: handleOf(v.typeId), underlying: u.type, value: u.value };
      }
      // a boxed primitive (decimal excepted: it is a struct of four fields on the wire)
      const primitive = primitiveKindOfName(name);
      if (primitive && primitive !== 'decimal' && first) return fromWire(first, names);
      if (name.startsWith('System.Nullable`1') && v.fields.length === 2) {
        // Nullable<T> is T or null for the evaluator (C#'s view of it)
        const fieldNames = await names.instanceFieldNames(v.typeId);
        const has = fieldNames.findIndex((n) => n === 'has_value' || n === 'hasValue');
        const flag = v.fields[has];
        if (has >= 0 && flag?.kind === 'bool') {
          return flag.value ? fromWire(v.fields[1 - has]!, names) : { kind: 'null' };
        }
      }
      if (name === 'System.Decimal' && v.fields.length >= 4) {
        // Mono 6.8: flags, hi, lo, mid, then ulomidLE (a ulong over lo and mid)
        const [flags, hi, lo, mid] = v.fields
          .slice(0, 4)
          .map((f) => (f.kind === 'i4' ? f.value : 0));
        return { kind: 'decimal', bits: { flags: flags!, hi: hi!, lo: lo!, mid: mid! } };
      }
      // Filled in place: a field that is this very box (PARENT_VTYPE) refers back to it, so a
      // box that contains itself contains itself here too.
      const fields: EvalValue[] = [];
      const value = { kind: 'struct' as const, type: handleOf(v.typeId), fields };
      const self: Enclosing = { value, boxed: once(boxed) };
      const inner = [...enclosing, self];
      for (let i = 0; i < v.fields.length; i++) {
        const index = i;
        const fieldBoxed = async () => {
          const slots = await instanceFieldTypes(names, v.typeId);
          const t = slots?.[index];
          return t && names.describe ? isReferenceType(await names.describe(t)) : undefined;
        };
        fields.push(await decode(v.fields[i]!, names, inner, fieldBoxed));
      }
      return value;
    }
    case 'parent_vtype':
      return backReference((await enclosingBox(enclosing, v.index)).value);
    case 'type':
    case 'fixed_array':
      throw new Error(`values of kind ${v.kind} are not supported by the evaluator`);
  }
}

/**
 * The enclosing struct a PARENT_VTYPE names: the agent numbers the enclosing structs that
 * arrived boxed, outermost first. Whether the outermost did is not always known (no slot type):
 * then it counts as boxed only when the index needs it to.
 */
async function enclosingBox(enclosing: readonly Enclosing[], index: number): Promise<Enclosing> {
  const [outer, ...rest] = enclosing;
  if (!outer) throw new Error('a PARENT_VTYPE value outside any struct');
  const boxedRest: Enclosing[] = [];
  for (const e of rest) if ((await e.boxed()) !== false) boxedRest.push(e);
  const outerBoxed = (await outer.boxed()) ?? index === boxedRest.length;
  const boxes = outerBoxed ? [outer, ...boxedRest] : boxedRest;
  const found = boxes[index];
  if (!found)
    throw new Error(`PARENT_VTYPE ${index} names none of the ${boxes.length} enclosing boxes`);
  return found;
}

type StructValue = EvalValue & { kind: 'struct' };

const ENCLOSING = Symbol('the enclosing struct this field is');

/**
 * A field that is an enclosing box itself (PARENT_VTYPE): it reads as that struct (same fields),
 * but its `fields` are not enumerable, so the value is no cycle for JSON (the evaluator compares
 * structs by their JSON) and printing stops at the formatter's depth.
 */
function backReference(target: StructValue): StructValue {
  const ref = { kind: 'struct', type: target.type } as StructValue;
  Object.defineProperty(ref, 'fields', { get: () => target.fields, enumerable: false });
  Object.defineProperty(ref, ENCLOSING, { value: target, enumerable: false });
  return ref;
}

/** The struct a back reference stands for (itself for any other struct): its identity. */
export function structIdentity(v: StructValue): StructValue {
  return (v as StructValue & { [ENCLOSING]?: StructValue })[ENCLOSING] ?? v;
}

function isReferenceType(d: TypeDescriptor): boolean {
  return d.kind !== 'struct' && d.kind !== 'enum' && d.kind !== 'pointer';
}

async function instanceFieldTypes(
  names: TypeNames,
  typeId: number,
): Promise<TypeHandle[] | undefined> {
  if (!names.allFields) return undefined;
  return (await names.allFields(handleOf(typeId))).filter((f) => !f.isStatic).map((f) => f.type);
}

function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

/** What encoding a value needs: decimals need System.Decimal's type id, strings a game object. */
export interface WireSupport {
  decimalTypeId(): Promise<number>;
  /** System.Decimal's instance fields in wire order (Mono 6.8 adds an overlapping ulong). */
  decimalFieldNames(): Promise<string[]>;
  /** A string object in the game holding `text`. */
  gameString(text: string): Promise<number>;
  /**
   * A struct with each field encoded for its declared type (a boxed value in an object field is
   * a box in the game; a box that contains itself is rebuilt as one). Without it, fields are
   * encoded as they are, which is right only for structs of value-type fields.
   */
  structWire?(v: EvalValue & { kind: 'struct' }): Promise<Value>;
}

export async function toWire(v: EvalValue, support: WireSupport): Promise<Value> {
  switch (v.kind) {
    case 'null':
      return Values.null();
    case 'void':
      throw new Error('a void value cannot be passed to the game');
    case 'client':
      // the evaluator refuses this before a call or write reaches the wire
      throw new Error('a client-side delegate or sequence cannot be passed to the game');
    case 'bool':
      return Values.bool(v.value);
    case 'number': {
      const kind = numericToWire[v.type];
      if (kind === 'i8' || kind === 'u8') return { kind, value: BigInt(v.value) };
      return Values.number(kind as 'i4', Number(v.value));
    }
    case 'decimal': {
      const { flags, hi, lo, mid } = v.bits;
      const parts: Record<string, number> = { flags, hi, lo, mid };
      const fields = (await support.decimalFieldNames()).map((name): Value => {
        const part = parts[name];
        if (part !== undefined) return Values.i4(part | 0);
        // an overlapping 64-bit view of lo and mid (little-endian): it must agree with them
        return { kind: 'u8', value: (BigInt(mid >>> 0) << 32n) | BigInt(lo >>> 0) };
      });
      return Values.struct(await support.decimalTypeId(), fields);
    }
    case 'string':
      return Values.string(v.ref ? v.ref.id : await support.gameString(v.text ?? ''));
    case 'object':
      return Values.object(v.ref.id);
    case 'struct': {
      if (support.structWire) return support.structWire(v);
      const fields: Value[] = [];
      for (const f of v.fields) fields.push(await toWire(f, support));
      return Values.struct(typeIdOf(v.type), fields);
    }
    case 'enum': {
      const kind = numericToWire[v.underlying];
      const inner: Value =
        kind === 'i8' || kind === 'u8'
          ? { kind, value: BigInt(v.value) }
          : Values.number(kind as 'i4', Number(v.value));
      return Values.struct(typeIdOf(v.type), [inner], true);
    }
    case 'pointer':
      return { kind: 'ptr', address: v.address };
  }
}
