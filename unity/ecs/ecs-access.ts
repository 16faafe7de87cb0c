// Unity.Entities over one operation of the session: worlds, each world's EntityManager, entities,
// the values calls take (Entity, AllocatorHandle, default(T)) and the presence check before every
// accessor, over the component types (ecs-component-types.ts) and the cached lookups and calls
// (ecs-calls.ts) it extends.

import { Values, type Value } from '../../sdb-protocol/index.js';
import { handleOf, typeIdOf } from '../runtime/convert.js';
import { UnityError } from '../errors.js';
import { EcsComponentTypes } from './ecs-component-types.js';
import { EcsErrors } from './ecs-errors.js';
import {
  ALLOCATOR_HANDLE,
  COMPONENT_TYPE,
  ENTITY,
  WORLD,
  entityText,
  type ComponentInfo,
  type EntityRef,
  type WorldRef,
} from './ecs-model.js';

/** Entity versions `index` alone tries (a reused index has a higher one). */
const VERSIONS_TRIED = 16;

const PRIMITIVE_ZERO: Record<string, Value> = {
  'System.Boolean': Values.bool(false),
  'System.SByte': Values.number('i1', 0),
  'System.Byte': Values.number('u1', 0),
  'System.Int16': Values.number('i2', 0),
  'System.UInt16': Values.number('u2', 0),
  'System.Int32': Values.i4(0),
  'System.UInt32': Values.number('u4', 0),
  'System.Int64': Values.i8(0n),
  'System.UInt64': Values.u8(0n),
  'System.Char': Values.char(0),
  'System.Single': Values.r4(0),
  'System.Double': Values.r8(0),
};

export class EcsAccess extends EcsComponentTypes {
  // ---- values ----

  async entity(e: EntityRef): Promise<Value> {
    const typeId = await this.type(ENTITY);
    const names = await this.fieldNames(typeId);
    return Values.struct(
      typeId,
      names.map((n) => Values.i4(n === 'Index' ? e.index : n === 'Version' ? e.version : 0)),
    );
  }

  async entityOf(v: Value): Promise<EntityRef> {
    if (v.kind !== 'valuetype')
      throw new UnityError('INTERNAL', `expected an Entity, got ${v.kind}`);
    const names = await this.fieldNames(v.typeId);
    const get = (n: string): number => {
      const f = v.fields[names.indexOf(n)];
      return f && f.kind === 'i4' ? f.value : 0;
    };
    return { index: get('Index'), version: get('Version') };
  }

  /** AllocatorManager.AllocatorHandle for a built-in allocator, made here (no static read). */
  async allocator(index: 'Temp' | 'Persistent'): Promise<Value> {
    const typeId = await this.type(ALLOCATOR_HANDLE);
    const names = await this.fieldNames(typeId);
    return Values.struct(
      typeId,
      names.map((n) => Values.number('u2', n === 'Index' ? (index === 'Temp' ? 2 : 4) : 0)),
    );
  }

  /** default(T) on the wire, for a type we only have metadata of (a new buffer element, say). */
  async zero(typeId: number, depth = 0): Promise<Value> {
    const d = await this.md.describe(handleOf(typeId));
    const prim = PRIMITIVE_ZERO[d.fullName];
    if (prim) return prim;
    if (depth > 16) throw new UnityError('UNSUPPORTED', `${d.fullName} nests too deeply`);
    const fields = (await this.md.allFields(handleOf(typeId))).filter((f) => !f.isStatic);
    if (d.kind === 'enum') {
      const inner = fields[0] ? await this.zero(typeIdOf(fields[0].type), depth + 1) : Values.i4(0);
      return Values.struct(typeId, [inner], true);
    }
    if (d.kind !== 'struct') return Values.null();
    const out: Value[] = [];
    for (const f of fields) out.push(await this.zero(typeIdOf(f.type), depth + 1));
    return Values.struct(typeId, out);
  }

  // ---- worlds ----

  /** World.All walked by Count and the indexer (enumerating it throws over the wire). */
  async worlds(): Promise<WorldRef[]> {
    const worldType = await this.type(WORLD);
    const all = await this.call(await this.method(worldType, 'get_All', []), Values.null(), []);
    if (all.kind !== 'valuetype') throw EcsErrors.notEcsGame('World.All');
    const count = await this.call(await this.method(all.typeId, 'get_Count', []), all, []);
    const n = count.kind === 'i4' ? count.value : 0;
    const item = await this.method(all.typeId, 'get_Item', ['System.Int32']);
    const out: WorldRef[] = [];
    for (let i = 0; i < n; i++) {
      const w = await this.call(item, all, [Values.i4(i)]);
      if (w.kind !== 'object') continue;
      out.push({ objectId: w.objectId, name: await this.worldName(w.objectId) });
    }
    return out;
  }

  private async worldName(objectId: number): Promise<string> {
    return this.text(await this.objectField(objectId, '<Name>k__BackingField'));
  }

  /** A world by name, or the default world (a static field read, no invoke). */
  async world(name?: string): Promise<WorldRef> {
    if (name === undefined) {
      const v = await this.staticField(WORLD, '<DefaultGameObjectInjectionWorld>k__BackingField');
      if (v?.kind === 'object')
        return { objectId: v.objectId, name: await this.worldName(v.objectId) };
      if (v) throw EcsErrors.noDefaultWorld();
      const worlds = await this.worlds();
      if (!worlds[0]) throw EcsErrors.noDefaultWorld();
      return worlds[0];
    }
    const worlds = await this.worlds();
    const found = worlds.find((w) => w.name === name);
    if (!found)
      throw EcsErrors.worldNotFound(
        name,
        worlds.map((w) => w.name),
      );
    return found;
  }

  /** The world's EntityManager: one invoke, then cached while the connection lives. */
  async entityManager(world: WorldRef): Promise<Value> {
    const known = this.cache.managers.get(world.objectId);
    if (known) return known;
    const worldType = await this.type(WORLD);
    const em = await this.call(
      await this.method(worldType, 'get_EntityManager', []),
      Values.object(world.objectId),
      [],
    );
    if (em.kind !== 'valuetype') throw EcsErrors.notEcsGame('World.EntityManager');
    this.cache.managers.set(world.objectId, em);
    return em;
  }

  /** Forgets the cached EntityManagers (after a game exception: a world may have gone away). */
  forgetManagers(): void {
    this.cache.managers.clear();
  }

  // ---- entities ----

  async exists(em: Value, e: EntityRef): Promise<boolean> {
    if (em.kind !== 'valuetype') return false;
    const m = await this.method(em.typeId, 'Exists', [ENTITY]);
    const r = await this.call(m, em, [await this.entity(e)]);
    return r.kind === 'bool' && r.value;
  }

  /** The live entity: the given version checked, or the live version at the index found. */
  async liveEntity(
    em: Value,
    world: WorldRef,
    index: number,
    version?: number,
  ): Promise<EntityRef> {
    if (!Number.isInteger(index) || index < 0)
      throw new UnityError(
        'INVALID_ARGUMENT',
        `entity index must be a non-negative integer, got ${index}`,
      );
    if (version !== undefined) {
      const e = { index, version };
      if (!(await this.exists(em, e))) throw EcsErrors.entityNotFound(entityText(e), world.name);
      return e;
    }
    for (let v = 1; v <= VERSIONS_TRIED; v++) {
      if (await this.exists(em, { index, version: v })) return { index, version: v };
    }
    throw EcsErrors.entityNotFound(
      `Entity(${index}:?) (versions 1-${VERSIONS_TRIED} tried)`,
      world.name,
    );
  }

  /** Presence check before every accessor: player builds have no safety checks. */
  async has(em: Value, e: EntityRef, info: ComponentInfo): Promise<boolean> {
    if (em.kind !== 'valuetype') return false;
    const m = await this.method(em.typeId, 'HasComponent', [ENTITY, COMPONENT_TYPE]);
    const r = await this.call(m, em, [await this.entity(e), info.readWrite]);
    return r.kind === 'bool' && r.value;
  }
}
