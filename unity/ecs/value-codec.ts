// Component values between the wire and JSON. A struct becomes an object of its fields by name,
// an enum its constant's name, a float a number (NaN and infinities as strings, JSON has none;
// a float32 as its shortest round-trip decimal, not the double it widens to).
// Writing goes the other way over a template (the value read just before): only the fields the
// caller names change, every field keeps its wire kind, and a value that does not fit is refused
// before anything is sent.

import { Values, type Value } from '../../sdb-protocol/index.js';
import { Errors } from '../errors.js';

import type { Json } from '../journal/journal.js';

export type { Json };

/** Type facts the codec needs, cached by the caller per connection. */
export interface CodecTypes {
  /** Instance field names in wire order. */
  fieldNames(typeId: number): Promise<string[]>;
  /** An enum's constants (name → value). */
  enumConstants(typeId: number): Promise<Map<string, number | bigint>>;
  fullName(typeId: number): Promise<string>;
}

function rawNumber(v: Value): number | bigint {
  return 'value' in v && (typeof v.value === 'number' || typeof v.value === 'bigint') ? v.value : 0;
}

function numberOut(v: number): Json {
  return Number.isFinite(v) ? v : String(v);
}

/**
 * A float32 as the game's float prints (shortest round-trip, as .NET Core's float.ToString()):
 * the shortest decimal that Math.fround maps back to the same float, so 0.1f is 0.1 rather than
 * the double it widens to (0.10000000149011612), and writing it back gives the same float.
 * Bulk reads print tens of thousands of these, so the common case is a binary search over the
 * digit count with the correctly rounded decimal (toPrecision): the float's rounding interval is
 * symmetric, so whether the nearest p-digit decimal falls inside only turns true as p grows.
 * Next to a power of two the interval is lopsided and a neighbour of the rounded decimal can be
 * the shorter one: those few floats take the exhaustive search.
 */
export function float32Shortest(x: number): number {
  const f = Math.fround(x);
  if (!Number.isFinite(f) || f === 0) return f;
  if (Number.isInteger(Math.log2(Math.abs(f)))) return shortestNearPowerOfTwo(f);
  let lo = 1;
  let hi = 9; // 9 significant digits always round-trip a float32
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(Number(f.toPrecision(mid))) === f) hi = mid;
    else lo = mid + 1;
  }
  return Number(f.toPrecision(lo));
}

/** At each digit count, the rounded decimal and its two neighbours, closest first. */
function shortestNearPowerOfTwo(f: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const [mantissa, exp] = f.toExponential(digits - 1).split('e') as [string, string];
    const negative = mantissa.startsWith('-');
    const d = BigInt(mantissa.replace('-', '').replace('.', ''));
    const scale = Number(exp) - (digits - 1);
    let best: number | undefined;
    for (const c of [d, d - 1n, d + 1n]) {
      if (c <= 0n) continue;
      const n = Number(`${negative ? '-' : ''}${c}e${scale}`);
      if (Math.fround(n) === f && (best === undefined || Math.abs(n - f) < Math.abs(best - f)))
        best = n;
    }
    if (best !== undefined) return best;
  }
  return f; // not reached: 9 digits always round-trip
}

export async function toJson(v: Value, types: CodecTypes): Promise<Json> {
  return (await toJsonMany([v], types))[0]!;
}

/** Type facts gathered once, so that many values of one type decode without awaiting. */
export interface DecodePlan {
  names: Map<number, string[]>;
  enums: Map<number, Map<string, number | bigint>>;
}

export function newPlan(): DecodePlan {
  return { names: new Map(), enums: new Map() };
}

/** Gathers what `toJsonSync` needs for values shaped like `v` (same types throughout). */
export async function prepare(v: Value, types: CodecTypes, plan: DecodePlan): Promise<void> {
  if (v.kind !== 'valuetype') return;
  if (v.isEnum) {
    if (!plan.enums.has(v.typeId)) plan.enums.set(v.typeId, await types.enumConstants(v.typeId));
    return;
  }
  if (!plan.names.has(v.typeId)) plan.names.set(v.typeId, await types.fieldNames(v.typeId));
  for (const f of v.fields) await prepare(f, types, plan);
}

class Unprepared extends Error {}

function toJsonSync(v: Value, plan: DecodePlan): Json {
  if (v.kind !== 'valuetype') return primitiveJson(v);
  const first = v.fields[0];
  if (v.isEnum && first) {
    const consts = plan.enums.get(v.typeId);
    if (!consts) throw new Unprepared();
    const raw = rawNumber(first);
    for (const [name, value] of consts)
      if (value === raw || Number(value) === Number(raw)) return name;
    return typeof raw === 'bigint' ? raw.toString() : raw;
  }
  const names = plan.names.get(v.typeId);
  if (!names) throw new Unprepared();
  const out: Record<string, Json> = {};
  for (let i = 0; i < v.fields.length; i++)
    out[names[i] ?? `field${i}`] = toJsonSync(v.fields[i]!, plan);
  return out;
}

/** Many values of (usually) one type: type facts fetched once, then decoded without awaiting. */
export async function toJsonMany(
  values: readonly Value[],
  types: CodecTypes,
  plan = newPlan(),
): Promise<Json[]> {
  const out: Json[] = [];
  for (const v of values) {
    try {
      out.push(toJsonSync(v, plan));
    } catch (e) {
      if (!(e instanceof Unprepared)) throw e;
      await prepare(v, types, plan);
      out.push(toJsonSync(v, plan));
    }
  }
  return out;
}

function primitiveJson(v: Value): Json {
  switch (v.kind) {
    case 'null':
    case 'void':
      return null;
    case 'bool':
      return v.value;
    case 'char':
      return String.fromCharCode(v.value);
    case 'i1':
    case 'u1':
    case 'i2':
    case 'u2':
    case 'i4':
    case 'u4':
    case 'r8':
      return numberOut(v.value);
    case 'r4':
      return numberOut(float32Shortest(v.value));
    case 'i8':
    case 'u8':
      return v.value >= BigInt(Number.MIN_SAFE_INTEGER) &&
        v.value <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(v.value)
        : v.value.toString();
    case 'string':
      return { $string: v.objectId };
    case 'object':
      return { $object: v.objectId };
    case 'ptr':
      return `0x${v.address.toString(16)}`;
    case 'valuetype':
    case 'type':
    case 'parent_vtype':
    case 'fixed_array':
      return `<${v.kind}>`;
  }
}

const INT_RANGES: Record<string, [number, number]> = {
  i1: [-128, 127],
  u1: [0, 255],
  i2: [-32768, 32767],
  u2: [0, 65535],
  i4: [-2147483648, 2147483647],
  u4: [0, 4294967295],
  char: [0, 65535],
};

function numberIn(x: Json, path: string): number {
  if (typeof x === 'number') return x;
  if (x === 'NaN') return NaN;
  if (x === 'Infinity') return Infinity;
  if (x === '-Infinity') return -Infinity;
  throw Errors.invalidArgument(`${path}: expected a number, got ${JSON.stringify(x)}`);
}

/** `patch` laid over `template`: the same wire shape, with the caller's values. */
export async function fromJson(
  template: Value,
  patch: Json,
  types: CodecTypes,
  path = 'value',
): Promise<Value> {
  switch (template.kind) {
    case 'bool':
      if (typeof patch !== 'boolean')
        throw Errors.invalidArgument(
          `${path}: expected true or false, got ${JSON.stringify(patch)}`,
        );
      return Values.bool(patch);
    case 'r4':
      return Values.r4(numberIn(patch, path));
    case 'r8':
      return Values.r8(numberIn(patch, path));
    case 'char':
    case 'i1':
    case 'u1':
    case 'i2':
    case 'u2':
    case 'i4':
    case 'u4': {
      const n =
        template.kind === 'char' && typeof patch === 'string' && patch.length === 1
          ? patch.charCodeAt(0)
          : numberIn(patch, path);
      const [min, max] = INT_RANGES[template.kind]!;
      if (!Number.isInteger(n) || n < min || n > max)
        throw Errors.invalidArgument(`${path}: ${n} is not a ${template.kind} (${min}..${max})`);
      return Values.number(template.kind, n);
    }
    case 'i8':
    case 'u8': {
      let b: bigint;
      try {
        b = BigInt(typeof patch === 'number' || typeof patch === 'string' ? patch : NaN);
      } catch {
        throw Errors.invalidArgument(`${path}: expected an integer, got ${JSON.stringify(patch)}`);
      }
      const ok =
        template.kind === 'i8'
          ? BigInt.asIntN(64, b) === b
          : b >= 0n && BigInt.asUintN(64, b) === b;
      if (!ok) throw Errors.invalidArgument(`${path}: ${b} is out of range for ${template.kind}`);
      return { kind: template.kind, value: b };
    }
    case 'valuetype': {
      const first = template.fields[0];
      if (template.isEnum && first) {
        const constants = await types.enumConstants(template.typeId);
        let raw: number | bigint | undefined;
        if (typeof patch === 'string' && constants.has(patch)) raw = constants.get(patch);
        else if (typeof patch === 'number' && Number.isInteger(patch)) raw = patch;
        if (raw === undefined) {
          const name = await types.fullName(template.typeId);
          throw Errors.invalidArgument(
            `${path}: ${JSON.stringify(patch)} is not a ${name} (one of ${[...constants.keys()].join(', ')}, or its number)`,
          );
        }
        const inner = await fromJson(
          first,
          typeof raw === 'bigint' ? raw.toString() : raw,
          types,
          path,
        );
        return Values.struct(template.typeId, [inner], true);
      }
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
        const name = await types.fullName(template.typeId);
        throw Errors.invalidArgument(
          `${path}: ${name} is a struct: give an object of the fields to change, got ${JSON.stringify(patch)}`,
        );
      }
      const names = await types.fieldNames(template.typeId);
      for (const key of Object.keys(patch)) {
        if (!names.includes(key)) {
          const name = await types.fullName(template.typeId);
          throw Errors.memberNotFound(name, key, names);
        }
      }
      const fields: Value[] = [];
      for (let i = 0; i < template.fields.length; i++) {
        const name = names[i]!;
        const f = template.fields[i]!;
        fields.push(name in patch ? await fromJson(f, patch[name]!, types, `${path}.${name}`) : f);
      }
      return Values.struct(template.typeId, fields, false);
    }
    case 'null':
    case 'void':
    case 'string':
    case 'object':
    case 'ptr':
    case 'type':
    case 'parent_vtype':
    case 'fixed_array':
      throw Errors.invalidArgument(
        `${path}: a ${template.kind} field cannot be written by this tool`,
      );
  }
}

/** `{a: {b: value}}` from `a.b` and a value. */
export function patchAt(path: string, value: Json): Json {
  const parts = path.split('.').filter((p) => p.length > 0);
  if (parts.length === 0)
    throw Errors.invalidArgument('field must name a field, e.g. "Stats.Level"');
  let out: Json = value;
  for (const p of parts.reverse()) out = { [p]: out };
  return out;
}

/** Deep equality of decoded values (floats compared as the wire gives them). */
export function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
