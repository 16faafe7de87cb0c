// scene_query: every object carrying a component, with the values of members read in bulk. In
// one window: findAll<T> (FindObjectsByType or an old Unity's fallback, inactive included), the owners' instance ids and names
// (ConvertAll + one string.Join), then per member path ("health", "transform.position",
// "bounty.count") each property step is one ConvertAll over the whole array (a pinned delegate
// over its getter) and each field step one ARRAY_REF read plus a field read per object (wire
// commands, no invoke). The owners' ids, the names and the paths run side by side, their calls
// one VM.INVOKE_METHODS per level (SceneCalls.together). Values are decoded client-side with
// type facts fetched once per type.

import { bind, type EvaluateOptions } from '../../eval/index.js';
import { FieldAttributes, Values, type Value } from '../../sdb-protocol/index.js';
import { UnityError } from '../errors.js';
import { fromWire, handleOf } from '../runtime/convert.js';
import { evaluateInGame } from '../runtime/evaluate-in-game.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { metadataFor } from '../runtime/game-metadata.js';
import { toJsonMany, type CodecTypes, type Json } from '../ecs/value-codec.js';
import { findNote, type SceneCalls } from './scene-calls.js';
import { GETTERS, SEPARATOR, splitToString } from './scene-snapshot.js';

export const MAX_QUERY_OBJECTS = 1000;
/**
 * `where` runs per object (the evaluator over the component as `this`: a field a wire read, a
 * property one invoke), all in the query's window: refused above this many objects.
 */
export const MAX_WHERE_OBJECTS = 1000;

export interface SceneQueryArgs {
  component: string;
  read: readonly string[];
  /** A C# bool expression over the component as `this` ("health < 50 && gameObject.activeSelf"). */
  where?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface SceneQueryRow {
  id: number;
  name: string;
  values: Record<string, Json>;
}

export interface SceneQueryResult {
  component: string;
  /** Objects carrying the component (that `where` holds for, when given). */
  total: number;
  /** Objects carrying the component, when `where` filtered them. */
  scanned?: number;
  offset: number;
  rows: SceneQueryRow[];
  /** How the objects were found, when the reply must say so (an old Unity). */
  notes?: string[];
}

type Page = <T>(vs: T[]) => T[];

/** Where a member path stands: an array in the game (properties map it), or values read here. */
type Step =
  | { kind: 'array'; array: Value; typeId: number; typeName: string }
  | { kind: 'values'; values: Value[]; typeIds: (number | undefined)[] };

class Codec implements CodecTypes {
  private readonly enums = new Map<number, Promise<Map<string, number | bigint>>>();
  constructor(private readonly c: SceneCalls) {}
  fieldNames(typeId: number): Promise<string[]> {
    return this.c.md.instanceFieldNames(typeId);
  }
  fullName(typeId: number): Promise<string> {
    return this.c.md.fullName(typeId);
  }
  enumConstants(typeId: number): Promise<Map<string, number | bigint>> {
    let p = this.enums.get(typeId);
    if (!p) {
      p = (async () => {
        const fields = await this.c.conn.send('TYPE.GET_FIELDS', { typeId });
        const literals = fields.filter((f) => (f.attributes & FieldAttributes.Literal) !== 0);
        const values = literals.length
          ? await this.c.conn.send('TYPE.GET_VALUES', {
              typeId,
              fieldIds: literals.map((f) => f.fieldId),
            })
          : [];
        const out = new Map<string, number | bigint>();
        literals.forEach((f, i) => {
          let v = values[i];
          if (v?.kind === 'valuetype') v = v.fields[0];
          if (v && 'value' in v && (typeof v.value === 'number' || typeof v.value === 'bigint'))
            out.set(f.name, v.value);
        });
        return out;
      })();
      this.enums.set(typeId, p);
    }
    return p;
  }
}

async function isValueType(c: SceneCalls, typeId: number): Promise<boolean> {
  const k = (await c.md.describe(handleOf(typeId))).kind;
  return k === 'struct' || k === 'enum';
}

/** A property step over an array in the game: one ConvertAll. */
async function propertyStep(
  c: SceneCalls,
  s: Step & { kind: 'array' },
  name: string,
  declaring: string,
  typeId: number,
  typeName: string,
): Promise<Step> {
  // a value type must be named exactly (Converter<T, Vector3>); a reference type is read as
  // itself when its name can be looked up, else as object (then only fields can follow)
  const plain = !/[[\]<>`,]/.test(typeName) && (await c.hasType(typeName));
  if (!plain && (await isValueType(c, typeId)))
    throw new UnityError(
      'UNSUPPORTED',
      `${name} is a ${typeName}: a generic struct is not read in bulk; use eval per object`,
    );
  const output = plain ? typeName : 'System.Object';
  const array = await c.convertAll(s.array, {
    input: s.typeName,
    declaring,
    method: `get_${name}`,
    output,
  });
  return { kind: 'array', array, typeId: plain ? typeId : await c.type(output), typeName: output };
}

async function fieldStep(c: SceneCalls, s: Step, name: string, page: Page): Promise<Step> {
  const values = s.kind === 'array' ? page(await c.arrayValues(s.array)) : s.values;
  const typeIds: (number | undefined)[] =
    s.kind === 'array' ? values.map(() => s.typeId) : s.typeIds;
  const out: Value[] = new Array<Value>(values.length);
  const outTypes: (number | undefined)[] = new Array<number | undefined>(values.length);
  const fieldOf = new Map<number, Promise<{ id: number; index: number; typeId: number }>>();
  const field = (typeId: number) => {
    let p = fieldOf.get(typeId);
    if (!p) {
      p = (async () => {
        const r = await c.ctx.catalog.findMember(typeId, name);
        if (r.kind !== 'field' || r.field.isStatic)
          throw new UnityError(
            'MEMBER_NOT_FOUND',
            `${await c.md.fullName(typeId)}.${name} is not an instance field (a property after a field is not read in bulk)`,
          );
        const names = await c.md.instanceFieldNames(typeId);
        return { id: r.field.fieldId, index: names.indexOf(name), typeId: r.field.type.typeId };
      })();
      fieldOf.set(typeId, p);
    }
    return p;
  };
  await Promise.all(
    values.map(async (v, i) => {
      if (v.kind === 'null') {
        out[i] = v;
        return;
      }
      if (v.kind === 'valuetype') {
        const f = await field(v.typeId);
        out[i] = v.fields[f.index] ?? Values.null();
        outTypes[i] = f.typeId;
        return;
      }
      if (v.kind !== 'object') throw new UnityError('INVALID_ARGUMENT', `${name}: not an object`);
      const t = typeIds[i] ?? (await c.conn.send('OBJECT_REF.GET_TYPE', { objectId: v.objectId }));
      const f = await field(t);
      const [read] = await c.conn.send('OBJECT_REF.GET_VALUES', {
        objectId: v.objectId,
        fieldIds: [f.id],
      });
      out[i] = read ?? Values.null();
      outTypes[i] = f.typeId;
    }),
  );
  return { kind: 'values', values: out, typeIds: outTypes };
}

const NUMERIC = new Set([
  'System.Int32',
  'System.Int16',
  'System.SByte',
  'System.Byte',
  'System.UInt16',
  'System.UInt32',
  'System.Single',
  'System.Double',
]);
const NUMBER_TEXT = /^-?\d+(\.\d+)?(E[+-]\d+)?$/;

/**
 * The last step of a path, a number, bool or enum field: its values as one joined string (two
 * invokes, no read per object), parsed here; undefined when a text does not parse (a culture
 * that writes "3,5", an enum value without a name), and the caller reads the field per object.
 */
async function fieldTextStep(
  c: SceneCalls,
  s: Step & { kind: 'array' },
  name: string,
  declaring: string,
  fieldType: number,
  page: Page,
): Promise<Json[] | undefined> {
  const typeName = await c.md.fullName(fieldType);
  const kind = (await c.md.describe(handleOf(fieldType))).kind;
  const isBool = typeName === 'System.Boolean';
  if (!NUMERIC.has(typeName) && !isBool && kind !== 'enum') return undefined;
  const joined = await c.text(await c.fieldTexts(s.array, s.typeName, declaring, name));
  const n = await c.arrayLength(s.array);
  const texts = n ? joined.split(SEPARATOR) : [];
  if (texts.length !== n) return undefined;
  const out: Json[] = [];
  for (const t of page(texts)) {
    if (isBool) {
      if (t !== 'True' && t !== 'False') return undefined;
      out.push(t === 'True');
    } else if (kind === 'enum') {
      if (!/^[A-Za-z_][A-Za-z0-9_]*(, [A-Za-z_][A-Za-z0-9_]*)*$/.test(t)) return undefined;
      out.push(t);
    } else if (NUMBER_TEXT.test(t)) {
      out.push(Number(t));
    } else if (t === 'NaN' || t === 'Infinity' || t === '-Infinity') {
      out.push(t);
    } else return undefined;
  }
  return out;
}

/** Reads one member path for the elements of `start` on the page (properties map them all). */
async function readPath(
  c: SceneCalls,
  start: Step & { kind: 'array' },
  path: string,
  page: Page,
): Promise<{ values: Value[] } | { json: Json[] }> {
  let s: Step = start;
  const segs = path.split('.');
  for (const [k, seg] of segs.entries()) {
    if (s.kind === 'array') {
      const m = await c.ctx.catalog.findMember(s.typeId, seg);
      if (m.kind === 'field' && !m.field.isStatic && k === segs.length - 1) {
        const json = await fieldTextStep(
          c,
          s,
          seg,
          m.field.declaringType.name,
          m.field.type.typeId,
          page,
        );
        if (json) return { json };
      }
      if (m.kind === 'property') {
        const p = m.property;
        if (p.getterId === 0 || p.isStatic || p.indexParameters.length || !p.type)
          throw new UnityError('UNSUPPORTED', `${s.typeName}.${seg} has no instance getter`);
        s = await propertyStep(c, s, seg, p.declaringType.name, p.type.typeId, p.type.name);
        continue;
      }
      if (m.kind === 'method')
        throw new UnityError(
          'INVALID_ARGUMENT',
          `${s.typeName}.${seg} is a method: read fields and properties (call methods with eval)`,
        );
    }
    s = await fieldStep(c, s, seg, page);
  }
  return { values: s.kind === 'array' ? page(await c.arrayValues(s.array)) : s.values };
}

/** Replaces `{$string: id}` (the codec's string reference) by the string's text. */
async function withStrings(c: SceneCalls, j: Json): Promise<Json> {
  if (j === null || typeof j !== 'object') return j;
  if (Array.isArray(j)) return Promise.all(j.map((x) => withStrings(c, x)));
  const keys = Object.keys(j);
  if (keys.length === 1 && keys[0] === '$string' && typeof j['$string'] === 'number')
    return c.text(Values.string(j['$string']));
  const out: Record<string, Json> = {};
  for (const k of keys) out[k] = await withStrings(c, j[k]!);
  return out;
}

/** The evaluator's options for `where` over one component (`this`: `self`, absent when binding). */
function whereOptions(c: SceneCalls, typeId: number, self?: Value): EvaluateOptions {
  const metadata = metadataFor(c.ctx);
  const type = handleOf(typeId);
  return {
    scope: {
      variables: new Map(),
      enclosingType: type,
      self: {
        type,
        read: () => {
          if (!self) throw new Error('where: no object while binding');
          return fromWire(self, metadata, type);
        },
      },
    },
  };
}

/**
 * Checks `where` before anything runs in the game: as written (C#'s errors at the agent's own
 * columns), then as a bool (a predicate of another type is a compile error too).
 */
async function bindWhere(c: SceneCalls, typeId: number, where: string): Promise<string> {
  const metadata = metadataFor(c.ctx);
  const runtime = { metadata, game: new SessionGameAccess(c.ctx, metadata) };
  await bind(where, runtime, whereOptions(c, typeId));
  const asBool = `(bool)(${where})`;
  try {
    await bind(asBool, runtime, whereOptions(c, typeId));
  } catch (e) {
    throw new UnityError(
      'EVAL_COMPILE',
      `where must be a bool expression over the component: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  return asBool;
}

/** The indices of the components `where` holds for: one evaluation per object, in this window. */
async function filterWhere(
  c: SceneCalls,
  typeId: number,
  source: string,
  components: Value[],
): Promise<number[]> {
  const out: number[] = [];
  for (const [i, v] of components.entries()) {
    const r = await evaluateInGame(c.ctx, source, whereOptions(c, typeId, v), false);
    if (r.kind === 'exception')
      throw new UnityError(
        'GAME_EXCEPTION',
        `where threw ${r.type} on the component of object #${i}: ${r.message} (guard it, e.g. "x != null && ...")`,
        { details: { type: r.type, stackTrace: r.stackTrace } },
      );
    if (r.kind !== 'value' || r.value.kind !== 'bool')
      throw new UnityError('EVAL_COMPILE', 'where must be a bool expression over the component');
    if (r.value.value) out.push(i);
  }
  return out;
}

export async function sceneQuery(c: SceneCalls, args: SceneQueryArgs): Promise<SceneQueryResult> {
  const limit = args.limit ?? 100;
  const offset = args.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_OBJECTS)
    throw new UnityError('INVALID_ARGUMENT', `limit must be 1-${MAX_QUERY_OBJECTS}, got ${limit}`);
  const { typeId, fullName: typeName } = await c.component(args.component);
  const where = args.where === undefined ? undefined : await bindWhere(c, typeId, args.where);
  const all = await c.findAll(typeName);
  let selected: number[] | undefined;
  let scanned: number | undefined;
  if (where !== undefined) {
    const components = await c.arrayValues(all);
    scanned = components.length;
    if (scanned > MAX_WHERE_OBJECTS)
      throw new UnityError(
        'TOO_MANY_OBJECTS',
        `where runs once per object and ${scanned} objects carry ${typeName} (at most ${MAX_WHERE_OBJECTS}): query without where and filter the rows, or use eval`,
        { details: { objects: scanned, max: MAX_WHERE_OBJECTS } },
      );
    selected = await filterWhere(c, typeId, where, components);
  }
  const start = { kind: 'array' as const, array: all, typeId, typeName };
  // the shown indices: of all objects, or of those `where` holds for
  const shown = selected?.slice(offset, offset + limit);
  const page: Page = (vs) => (shown ? shown.map((i) => vs[i]!) : vs.slice(offset, offset + limit));
  // side by side, their calls one command per level (SceneCalls.together): the owners' ids, the
  // names (string.Join of the components' ToString()) and each member path
  const [ids, described, ...columns] = await c.together(
    async () =>
      c.convertAll(
        await c.convertAll(all, {
          input: typeName,
          declaring: 'UnityEngine.Component',
          method: 'get_gameObject',
          output: 'UnityEngine.GameObject',
        }),
        GETTERS.id,
      ),
    () => c.join(all, SEPARATOR),
    ...args.read.map((r) => () => readPath(c, start, r, page)),
  );
  const idValues = await c.arrayValues(ids);
  const text = await c.text(described);
  const names = idValues.length ? text.split(SEPARATOR).map((s) => splitToString(s)[0]) : [];
  const total = selected ? selected.length : idValues.length;
  const codec = new Codec(c);
  const rows: SceneQueryRow[] = [];
  const decoded = await Promise.all(
    columns.map(async (col) =>
      'json' in col ? col.json : withStrings(c, await toJsonMany(col.values, codec)),
    ),
  );
  const indices = shown ?? page(idValues.map((_, i) => i));
  indices.forEach((at, i) => {
    const v = idValues[at]!;
    const values: Record<string, Json> = {};
    args.read.forEach((r, k) => (values[r] = (decoded[k] as Json[])[i] ?? null));
    rows.push({
      id: v.kind === 'i4' ? v.value : 0,
      name: names[at] ?? '',
      values,
    });
  });
  const note = findNote(c.usedFind);
  return {
    component: typeName,
    total,
    ...(scanned !== undefined ? { scanned } : {}),
    offset,
    rows,
    ...(note !== undefined ? { notes: [note] } : {}),
  };
}
