// Between the wire's values and the evaluator's. Primitives become local values; objects keep
// their id; structs become field lists; a boxed primitive (how the agent sends it inside an
// object slot) becomes the primitive itself; enums and decimals get their own kinds.

import { Values, type Value } from '../../sdb-protocol/index.js';
import type { EvalValue, NumericKind } from '../../eval/values.js';
import { primitiveKindOfName } from '../../eval/index.js';
import type { TypeHandle } from '../../eval/runtime.js';

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
}

export async function fromWire(v: Value, names: TypeNames): Promise<EvalValue> {
  switch (v.kind) {
    case 'null':
      return { kind: 'null' };
    case 'void':
      return { kind: 'void' };
    case 'bool':
      return { kind: 'bool', value: v.value };
    case 'i8':
    case 'u8':
      return { kind: 'number', type: wireToNumeric[v.kind]!, value: v.value };
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
      const fields: EvalValue[] = [];
      for (const f of v.fields) fields.push(await fromWire(f, names));
      return { kind: 'struct', type: handleOf(v.typeId), fields };
    }
    case 'type':
    case 'parent_vtype':
    case 'fixed_array':
      throw new Error(`values of kind ${v.kind} are not supported by the evaluator`);
  }
}

/** What encoding a value needs: decimals need System.Decimal's type id, strings a game object. */
export interface WireSupport {
  decimalTypeId(): Promise<number>;
  /** System.Decimal's instance fields in wire order (Mono 6.8 adds an overlapping ulong). */
  decimalFieldNames(): Promise<string[]>;
  /** A string object in the game holding `text`. */
  gameString(text: string): Promise<number>;
}

export async function toWire(v: EvalValue, support: WireSupport): Promise<Value> {
  switch (v.kind) {
    case 'null':
      return Values.null();
    case 'void':
      throw new Error('a void value cannot be passed to the game');
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
