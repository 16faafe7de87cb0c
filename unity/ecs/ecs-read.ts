// Reading ECS state: worlds with entity counts, an entity's components (with the enabled state
// of enableable ones), one component. Queries with bulk component values: ecs-query.ts.

import { type Value } from '../../sdb-protocol/index.js';
import { UnityError } from '../errors.js';
import type { EcsAccess } from './ecs-access.js';
import {
  ALLOCATOR_HANDLE,
  ENTITY,
  entityText,
  type ComponentInfo,
  type EntityRef,
  type WorldRef,
} from './ecs-model.js';
import { enabledStates } from './ecs-enabled.js';
import { EcsErrors } from './ecs-errors.js';
import { toJson, type Json } from './value-codec.js';

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
  } catch (e) {
    // no default world: none is marked (anything else, a lost connection say, is an error)
    if (!(e instanceof UnityError) || e.code !== 'WORLD_NOT_FOUND') throw e;
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

/** NativeArray<T>.ToArray(): the native data copied into one managed array. */
export async function toManaged(ecs: EcsAccess, nativeArray: Value): Promise<Value> {
  return ecs.callOn(nativeArray, 'ToArray', [], []);
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
  /** Enableable components only: whether it is enabled on this entity now. */
  enabled?: boolean;
  value?: Json;
  /** For Entity fields (by path): the entity they point at, whether it exists, its components. */
  references?: Record<
    string,
    { index: number; version: number; exists: boolean; components?: string[] }
  >;
}

/**
 * An entity's component types (from GetComponentTypes, named by their runtime types), with the
 * enabled state of the enableable ones (unless `enabled: false`: names only).
 */
export async function listComponents(
  ecs: EcsAccess,
  at: Located,
  opts: {
    values?: boolean | undefined;
    follow?: boolean | undefined;
    enabled?: boolean | undefined;
  },
): Promise<ListedComponent[]> {
  if (at.em.kind !== 'valuetype') return [];
  const m = await ecs.method(at.em.typeId, 'GetComponentTypes', [ENTITY, ALLOCATOR_HANDLE]);
  const native = await ecs.call(m, at.em, [
    await ecs.entity(at.entity),
    await ecs.allocator('Temp'),
  ]);
  const types = await ecs.arrayValues(await toManaged(ecs, native));
  const infos: ComponentInfo[] = [];
  for (const ct of types) infos.push(await ecs.componentFromType(ct));
  const enabled =
    opts.enabled === false ? new Map<number, boolean>() : await enabledStates(ecs, at, infos);
  const out: ListedComponent[] = [];
  for (const info of infos) {
    const c: ListedComponent = {
      name: info.fullName,
      kind: info.kind,
      enableable: info.enableable,
    };
    const on = enabled.get(info.typeId);
    if (on !== undefined) c.enabled = on;
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
                const sub = await listComponents(ecs, { ...at, entity: e }, { enabled: false });
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
