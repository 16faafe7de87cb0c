// ECS queries with bulk component values. A bulk read never costs an invoke per entity: the
// query's component data is copied into one managed array in the game (ToComponentDataArray +
// ToArray), read in one ARRAY_REF.GET_VALUES and decoded here. Enabled bits are applied by the
// game's own query (All/Any need an enableable component enabled, None matches it disabled,
// Disabled asks for it disabled), never read per entity.

import { Values, type Value } from '../../sdb-protocol/index.js';
import { Errors } from '../errors.js';
import type { EcsAccess } from './ecs-access.js';
import { ALLOCATOR_HANDLE, COMPONENT_TYPE, type ComponentInfo } from './ecs-model.js';
import { EcsErrors } from './ecs-errors.js';
import { toManaged } from './ecs-read.js';
import { toJsonMany, type Json } from './value-codec.js';

const COMPONENT_TYPE_ARRAY = `${COMPONENT_TYPE}[]`;
const QUERY_DESC = 'Unity.Entities.EntityQueryDesc';
export const MAX_QUERY_LIMIT = 10_000;

export interface QueryArgs {
  world?: string | undefined;
  all?: readonly string[] | undefined;
  any?: readonly string[] | undefined;
  none?: readonly string[] | undefined;
  /** Enableable components the entities have, disabled (EntityQueryDesc.Disabled). */
  disabled?: readonly string[] | undefined;
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
  /** The bulk read after the window failed and the query was read inside a window again: why. */
  fallback?: string;
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

/**
 * Creates the EntityQuery for all/any/none/disabled in the game (the caller disposes it). Unity
 * applies enabled bits itself: all and any need an enableable component enabled, none matches it
 * disabled or absent, disabled needs it present and disabled.
 */
async function createQuery(
  ecs: EcsAccess,
  em: Value,
  all: ComponentInfo[],
  any: ComponentInfo[],
  none: ComponentInfo[],
  disabled: ComponentInfo[],
): Promise<Value> {
  const ctTypeId = await ecs.type(COMPONENT_TYPE);
  if (em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  if (any.length === 0 && disabled.length === 0) {
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
    ['Disabled', disabled, 1],
  ] as const) {
    if (name === 'Disabled' && list.length === 0) continue; // a field Entities 1.0 previews lack
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
  const disabled = await infos(ecs, args.disabled);
  for (const d of disabled) {
    if (!d.enableable)
      throw Errors.invalidArgument(
        `${d.fullName} is not enableable (IEnableableComponent), so it is never disabled`,
      );
  }
  const inDisabled = (c: ComponentInfo): boolean => disabled.some((d) => d.typeId === c.typeId);
  // components read are required (enabled, unless asked for disabled): every entity has them
  const all = await infos(ecs, [
    ...(args.all ?? []),
    ...read.filter((r) => !inDisabled(r)).map((r) => r.fullName),
  ]);
  const any = await infos(ecs, args.any);
  const none = await infos(ecs, args.none);
  for (const n of none) {
    if (all.some((a) => a.typeId === n.typeId))
      throw Errors.invalidArgument(`${n.fullName} is both required (all/read) and excluded (none)`);
  }
  for (const d of disabled) {
    if ([...all, ...any, ...none].some((c) => c.typeId === d.typeId))
      throw Errors.invalidArgument(
        `${d.fullName} is in disabled and in all, any or none: a query names a type once`,
      );
  }
  const world = await ecs.world(args.world);
  const em = await ecs.entityManager(world);
  const q = await createQuery(ecs, em, all, any, none, disabled);
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
