// Reading ECS state: worlds with entity counts, queries with bulk component values, an entity's
// components, one component. A bulk read never costs an invoke per entity: the query's component
// data is copied into one managed array in the game (ToComponentDataArray + ToArray), read in one
// ARRAY_REF.GET_VALUES and decoded here.

import { Values, type Value } from '../../sdb-protocol/index.js';
import { Errors } from '../errors.js';
import {
  ALLOCATOR_HANDLE,
  ENTITY,
  entityText,
  type ComponentInfo,
  type EcsAccess,
  type EntityRef,
  type WorldRef,
} from './ecs-access.js';
import { EcsErrors } from './ecs-errors.js';
import { toJson, toJsonMany, type Json } from './value-codec.js';

const COMPONENT_TYPE_ARRAY = 'Unity.Entities.ComponentType[]';
const QUERY_DESC = 'Unity.Entities.EntityQueryDesc';
export const MAX_QUERY_LIMIT = 10_000;

export interface WorldSummary {
  name: string;
  index: number;
  entities: number;
  is_default: boolean;
}

export async function listWorlds(ecs: EcsAccess): Promise<WorldSummary[]> {
  const worlds = await ecs.worlds();
  let defaultId = -1;
  try {
    defaultId = (await ecs.world()).objectId;
  } catch {
    // no default world: none is marked
  }
  const out: WorldSummary[] = [];
  for (const [i, w] of worlds.entries()) {
    const em = await ecs.entityManager(w);
    // UniversalQuery is owned by the EntityManager: never disposed here
    const q = await ecs.callOn(em, 'get_UniversalQuery', [], []);
    const n = await ecs.callOn(q, 'CalculateEntityCount', [], []);
    out.push({
      name: w.name,
      index: i,
      entities: n.kind === 'i4' ? n.value : 0,
      is_default: w.objectId === defaultId,
    });
  }
  return out;
}

export interface QueryArgs {
  world?: string | undefined;
  all?: readonly string[] | undefined;
  any?: readonly string[] | undefined;
  none?: readonly string[] | undefined;
  read?: readonly string[] | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface QueryRow {
  index: number;
  version: number;
  components?: Record<string, Json>;
}

export interface QueryResult {
  world: string;
  /** Entities matching, before offset and limit. */
  total: number;
  offset: number;
  entities: QueryRow[];
  truncated: boolean;
  /** Full names of the components in `components`, in the order asked. */
  read: string[];
}

async function infos(
  ecs: EcsAccess,
  names: readonly string[] | undefined,
): Promise<ComponentInfo[]> {
  const out: ComponentInfo[] = [];
  for (const n of names ?? []) {
    const info = await ecs.component(n);
    if (!out.some((o) => o.typeId === info.typeId)) out.push(info);
  }
  return out;
}

/** Creates the EntityQuery for all/any/none in the game (the caller disposes it). */
async function createQuery(
  ecs: EcsAccess,
  em: Value,
  all: ComponentInfo[],
  any: ComponentInfo[],
  none: ComponentInfo[],
): Promise<Value> {
  const ctTypeId = await ecs.type('Unity.Entities.ComponentType');
  if (em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  if (any.length === 0) {
    // CreateEntityQuery(params ComponentType[]): Exclude access puts a type in None
    const types = [
      ...(await Promise.all(all.map((c) => ecs.withAccess(c, 1)))),
      ...(await Promise.all(none.map((c) => ecs.withAccess(c, 2)))),
    ];
    const array = await ecs.newArray(ctTypeId, types);
    const m = await ecs.method(em.typeId, 'CreateEntityQuery', [COMPONENT_TYPE_ARRAY]);
    return ecs.call(m, em, [array]);
  }
  const descType = await ecs.type(QUERY_DESC);
  const ctor = await ecs.method(descType, '.ctor', []);
  const desc = await ecs.call(ctor, Values.null(), []);
  if (desc.kind !== 'object') throw Errors.invalidArgument('EntityQueryDesc was not created');
  const fields = await ecs.md.allFields({ key: String(descType) });
  const writes = [];
  for (const [name, list, mode] of [
    ['All', all, 1],
    ['Any', any, 1],
    ['None', none, 2],
  ] as const) {
    const f = fields.find((x) => x.name === name && !x.isStatic);
    if (!f) throw EcsErrors.notEcsGame(`EntityQueryDesc.${name}`);
    const values = await Promise.all(list.map((c) => ecs.withAccess(c, mode)));
    writes.push({ fieldId: f.handle as number, value: await ecs.newArray(ctTypeId, values) });
  }
  await ecs.conn.send('OBJECT_REF.SET_VALUES', { objectId: desc.objectId, writes });
  const descs = await ecs.newArray(descType, [desc]);
  const m = await ecs.method(em.typeId, 'CreateEntityQuery', [`${QUERY_DESC}[]`]);
  return ecs.call(m, em, [descs]);
}

/** NativeArray<T>.ToArray(): the native data copied into one managed array. */
async function toManaged(ecs: EcsAccess, nativeArray: Value): Promise<Value> {
  return ecs.callOn(nativeArray, 'ToArray', [], []);
}

/** The query's data copied into managed arrays in the game: a snapshot of one moment. */
export interface QueryCopy {
  world: string;
  total: number;
  offset: number;
  limit: number;
  entities: Value;
  /** Per component read: its managed array (null for a zero-size tag). */
  columns: { name: string; array: Value | null }[];
}

function checkPage(args: QueryArgs): { limit: number; offset: number } {
  const limit = args.limit ?? 100;
  const offset = args.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_QUERY_LIMIT)
    throw Errors.invalidArgument(`limit must be an integer in 0-${MAX_QUERY_LIMIT}, got ${limit}`);
  if (!Number.isInteger(offset) || offset < 0)
    throw Errors.invalidArgument(`offset must be a non-negative integer, got ${offset}`);
  return { limit, offset };
}

/**
 * Runs the query and copies its entities and the components read into managed arrays (a few
 * invokes in all, none per entity). Needs the game suspended; reading the copies does not.
 */
export async function copyQuery(ecs: EcsAccess, args: QueryArgs): Promise<QueryCopy> {
  const { limit, offset } = checkPage(args);
  const read = await infos(ecs, args.read);
  for (const r of read) {
    if (r.kind === 'buffer')
      throw EcsErrors.wrongKind(r.fullName, 'buffer', 'ecs_get_buffer per entity');
    if (r.kind === 'shared' || r.kind === 'managed')
      throw EcsErrors.wrongKind(r.fullName, r.kind, 'ecs_get_component per entity');
  }
  // components read are required: every returned entity has them
  const all = await infos(ecs, [...(args.all ?? []), ...read.map((r) => r.fullName)]);
  const any = await infos(ecs, args.any);
  const none = await infos(ecs, args.none);
  for (const n of none) {
    if (all.some((a) => a.typeId === n.typeId))
      throw Errors.invalidArgument(`${n.fullName} is both required (all/read) and excluded (none)`);
  }
  const world = await ecs.world(args.world);
  const em = await ecs.entityManager(world);
  const q = await createQuery(ecs, em, all, any, none);
  // Temp memory is copied out (ToArray) before the window closes: the frame cannot end meanwhile
  const temp = await ecs.allocator('Temp');
  try {
    const entities = await toManaged(
      ecs,
      await ecs.callOn(q, 'ToEntityArray', [ALLOCATOR_HANDLE], [temp]),
    );
    const total = await ecs.arrayLength(entities);
    const columns: QueryCopy['columns'] = [];
    for (const r of read) {
      columns.push({
        name: r.fullName,
        array:
          r.kind === 'tag' || total === 0
            ? null
            : await toManaged(ecs, await componentArray(ecs, q, r, temp)),
      });
    }
    return { world: world.name, total, offset, limit, entities, columns };
  } finally {
    await ecs.callOn(q, 'Dispose', [], []);
  }
}

/** Reads the page of a copy (one ARRAY_REF.GET_VALUES per array, sent together) and decodes it. */
export async function readCopy(ecs: EcsAccess, c: QueryCopy): Promise<QueryResult> {
  const [slice, ...columns] = await Promise.all([
    ecs.arrayValues(c.entities, c.offset, c.limit),
    ...c.columns.map((col) =>
      col.array ? ecs.arrayValues(col.array, c.offset, c.limit) : Promise.resolve(null),
    ),
  ]);
  const rows: QueryRow[] = (await toJsonMany(slice, ecs)).map((e) => {
    const o = e as { Index: number; Version: number };
    return { index: o.Index, version: o.Version };
  });
  for (const [k, col] of c.columns.entries()) {
    const values = columns[k] ? await toJsonMany(columns[k], ecs) : [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      row.components ??= {};
      row.components[col.name] = values[i] ?? {};
    }
  }
  return {
    world: c.world,
    total: c.total,
    offset: c.offset,
    entities: rows,
    truncated: c.offset + rows.length < c.total,
    read: c.columns.map((col) => col.name),
  };
}

/** Copy and read in one window (the fallback when the copies could not be read after it). */
export async function query(ecs: EcsAccess, args: QueryArgs): Promise<QueryResult> {
  return readCopy(ecs, await copyQuery(ecs, args));
}

async function componentArray(
  ecs: EcsAccess,
  q: Value,
  r: ComponentInfo,
  temp: Value,
): Promise<Value> {
  if (q.kind !== 'valuetype') throw Errors.invalidArgument('no query');
  const m = await ecs.generic(q.typeId, 'ToComponentDataArray', [ALLOCATOR_HANDLE], r.typeId);
  return ecs.call(m, q, [temp]);
}

export interface EntityAddress {
  world?: string | undefined;
  index: number;
  version?: number | undefined;
}

export interface Located {
  world: WorldRef;
  em: Value;
  entity: EntityRef;
}

export async function locate(ecs: EcsAccess, a: EntityAddress): Promise<Located> {
  const world = await ecs.world(a.world);
  const em = await ecs.entityManager(world);
  const entity = await ecs.liveEntity(em, world, a.index, a.version);
  return { world, em, entity };
}

/** One component's value, after checking the entity has it. */
export async function readComponent(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
): Promise<Value | undefined> {
  if (!(await ecs.has(at.em, at.entity, info)))
    throw EcsErrors.componentAbsent(entityText(at.entity), info.fullName);
  return readPresent(ecs, at, info);
}

async function readPresent(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
): Promise<Value | undefined> {
  if (at.em.kind !== 'valuetype') return undefined;
  const e = await ecs.entity(at.entity);
  switch (info.kind) {
    case 'tag':
      return undefined;
    case 'component':
      return ecs.call(
        await ecs.generic(at.em.typeId, 'GetComponentData', [ENTITY], info.typeId),
        at.em,
        [e],
      );
    case 'shared':
      return ecs.call(
        await ecs.generic(at.em.typeId, 'GetSharedComponentManaged', [ENTITY], info.typeId),
        at.em,
        [e],
      );
    case 'buffer':
      throw EcsErrors.wrongKind(info.fullName, 'buffer', 'ecs_get_buffer');
    case 'managed':
      throw EcsErrors.wrongKind(info.fullName, 'managed (class)', 'eval');
  }
}

export async function componentJson(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
): Promise<Json> {
  const v = await readComponent(ecs, at, info);
  return v ? toJson(v, ecs) : {};
}

export interface ListedComponent {
  name: string;
  kind: string;
  enableable: boolean;
  value?: Json;
  /** For Entity fields (by path): the entity they point at, whether it exists, its components. */
  references?: Record<
    string,
    { index: number; version: number; exists: boolean; components?: string[] }
  >;
}

/** An entity's component types (from GetComponentTypes, named by their runtime types). */
export async function listComponents(
  ecs: EcsAccess,
  at: Located,
  opts: { values?: boolean | undefined; follow?: boolean | undefined },
): Promise<ListedComponent[]> {
  if (at.em.kind !== 'valuetype') return [];
  const m = await ecs.method(at.em.typeId, 'GetComponentTypes', [ENTITY, ALLOCATOR_HANDLE]);
  const native = await ecs.call(m, at.em, [
    await ecs.entity(at.entity),
    await ecs.allocator('Temp'),
  ]);
  const types = await ecs.arrayValues(await toManaged(ecs, native));
  const out: ListedComponent[] = [];
  for (const ct of types) {
    const info = await ecs.componentFromType(ct);
    const c: ListedComponent = {
      name: info.fullName,
      kind: info.kind,
      enableable: info.enableable,
    };
    if (opts.values && (info.kind === 'component' || info.kind === 'shared')) {
      const v = await readPresent(ecs, at, info);
      if (v) {
        c.value = await toJson(v, ecs);
        if (opts.follow) {
          const refs = await entityFields(ecs, v, '');
          if (refs.length) {
            c.references = {};
            for (const [path, e] of refs) {
              const exists = e.index !== 0 || e.version !== 0 ? await ecs.exists(at.em, e) : false;
              const target: {
                index: number;
                version: number;
                exists: boolean;
                components?: string[];
              } = {
                ...e,
                exists,
              };
              if (exists) {
                const sub = await listComponents(ecs, { ...at, entity: e }, {});
                target.components = sub.map((s) => s.name);
              }
              c.references[path] = target;
            }
          }
        }
      }
    }
    out.push(c);
  }
  return out;
}

/** Entity-typed fields inside a struct value, by dotted path. */
async function entityFields(
  ecs: EcsAccess,
  v: Value,
  prefix: string,
): Promise<[string, EntityRef][]> {
  if (v.kind !== 'valuetype' || v.isEnum) return [];
  const entityType = await ecs.type(ENTITY);
  if (v.typeId === entityType) return [[prefix || 'value', await ecs.entityOf(v)]];
  const names = await ecs.fieldNames(v.typeId);
  const out: [string, EntityRef][] = [];
  for (let i = 0; i < v.fields.length; i++) {
    const path = prefix ? `${prefix}.${names[i]}` : names[i]!;
    out.push(...(await entityFields(ecs, v.fields[i]!, path)));
  }
  return out;
}
