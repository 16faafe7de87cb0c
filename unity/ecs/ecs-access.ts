// Unity.Entities over one operation of the session: worlds, EntityManagers, component types and
// typed calls, with everything that does not change while the game runs (type ids, method ids,
// generic instantiations, ComponentType values, each world's EntityManager) cached per
// connection, so a warm call spends its invokes on the work itself.

import { readString, Values, type SdbConnection, type Value } from '../../sdb-protocol/index.js';
import type { MethodDescriptor } from '../../eval/runtime.js';
import { metadataFor } from '../eval-bridge/evaluate-in-game.js';
import { SessionGameAccess } from '../eval-bridge/game-access.js';
import { handleOf, typeIdOf } from '../eval-bridge/convert.js';
import type { GameMetadata } from '../eval-bridge/game-metadata.js';
import { UnityError } from '../errors.js';
import type { OperationContext } from '../session/session.js';
import { EcsErrors } from './ecs-errors.js';
import type { CodecTypes } from './value-codec.js';

export const ENTITY = 'Unity.Entities.Entity';
const WORLD = 'Unity.Entities.World';
const COMPONENT_TYPE = 'Unity.Entities.ComponentType';
const TYPE_MANAGER = 'Unity.Entities.TypeManager';
export const ALLOCATOR_HANDLE = 'Unity.Collections.AllocatorManager+AllocatorHandle';

// TypeIndex flag bits (Unity.Entities.TypeManager)
const BUFFER_FLAG = 1 << 26;
const SHARED_FLAG = 1 << 27;
const MANAGED_FLAG = 1 << 28;
const ZERO_SIZE_FLAG = 1 << 30;
const ENABLEABLE_FLAG = 1 << 24;
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

export type ComponentKind = 'component' | 'tag' | 'buffer' | 'shared' | 'managed';

export interface ComponentInfo {
  typeId: number;
  /** From the runtime type (GetManagedType().FullName): player builds strip debug names. */
  fullName: string;
  kind: ComponentKind;
  enableable: boolean;
  typeIndex: number;
  /** ComponentType.ReadWrite(type), as the game made it. */
  readWrite: Value;
}

export interface WorldRef {
  objectId: number;
  name: string;
}

export interface EntityRef {
  index: number;
  version: number;
}

export const entityText = (e: EntityRef): string => `Entity(${e.index}:${e.version})`;

/** What outlives one operation: everything here is fixed for the life of the game process. */
class EcsCache {
  readonly types = new Map<string, Promise<number>>();
  readonly names = new Map<string, Promise<number>>();
  readonly methods = new Map<string, Promise<MethodDescriptor>>();
  readonly byTypeId = new Map<number, Promise<ComponentInfo>>();
  readonly byTypeIndex = new Map<number, Promise<ComponentInfo>>();
  readonly managers = new Map<number, Value>();
  readonly enums = new Map<number, Promise<Map<string, number | bigint>>>();
  constructor(readonly md: GameMetadata) {}
}

const caches = new WeakMap<SdbConnection, EcsCache>();

export class EcsAccess implements CodecTypes {
  readonly conn: SdbConnection;
  private readonly cache: EcsCache;
  readonly md: GameMetadata;
  private game: SessionGameAccess | undefined;

  constructor(readonly ctx: OperationContext) {
    this.conn = ctx.conn;
    let c = caches.get(ctx.conn);
    if (!c) {
      c = new EcsCache(metadataFor(ctx));
      caches.set(ctx.conn, c);
    }
    this.cache = c;
    this.md = c.md;
  }

  // ---- metadata ----

  type(name: string): Promise<number> {
    let p = this.cache.types.get(name);
    if (!p) {
      p = this.md.findType(name).then((t) => {
        if (!t) throw EcsErrors.notEcsGame(name);
        return typeIdOf(t);
      });
      p.catch(() => this.cache.types.delete(name));
      this.cache.types.set(name, p);
    }
    return p;
  }

  fieldNames(typeId: number): Promise<string[]> {
    return this.md.instanceFieldNames(typeId);
  }

  fullName(typeId: number): Promise<string> {
    return this.md.fullName(typeId);
  }

  enumConstants(typeId: number): Promise<Map<string, number | bigint>> {
    let p = this.cache.enums.get(typeId);
    if (!p) {
      p = (async () => {
        const fields = await this.conn.send('TYPE.GET_FIELDS', { typeId });
        const literals = fields.filter((f) => (f.attributes & 0x40) !== 0); // Literal
        const values = literals.length
          ? await this.conn.send('TYPE.GET_VALUES', {
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
      this.cache.enums.set(typeId, p);
    }
    return p;
  }

  /**
   * A method by name and parameter types (full names; `*` matches any, e.g. a generic `T`).
   * Overloads are told apart by their parameters, never by position (rule 5).
   */
  method(
    typeId: number,
    name: string,
    params: readonly string[],
    arity = 0,
  ): Promise<MethodDescriptor> {
    const key = `${typeId}.${name}(${params.join(',')})\`${arity}`;
    let p = this.cache.methods.get(key);
    if (!p) {
      p = (async () => {
        const { methods } = await this.md.members(handleOf(typeId), name);
        for (const m of methods) {
          if (m.parameters.length !== params.length || m.genericArity !== arity) continue;
          let ok = true;
          for (let i = 0; i < params.length && ok; i++) {
            if (params[i] === '*') continue;
            ok = (await this.md.describe(m.parameters[i]!.type)).fullName === params[i];
          }
          if (ok) return m;
        }
        throw EcsErrors.notEcsGame(`${await this.fullName(typeId)}.${name}(${params.join(', ')})`);
      })();
      p.catch(() => this.cache.methods.delete(key));
      this.cache.methods.set(key, p);
    }
    return p;
  }

  /** A generic method closed over one component type (MAKE_GENERIC_METHOD, cached). */
  generic(
    typeId: number,
    name: string,
    params: readonly string[],
    component: number,
  ): Promise<MethodDescriptor> {
    const key = `${typeId}.${name}(${params.join(',')})<${component}>`;
    let p = this.cache.methods.get(key);
    if (!p) {
      p = this.method(typeId, name, params, 1).then((m) =>
        this.md.instantiateMethod(m, [handleOf(component)]),
      );
      p.catch(() => this.cache.methods.delete(key));
      this.cache.methods.set(key, p);
    }
    return p;
  }

  async call(
    m: MethodDescriptor,
    thisArg: Value,
    args: readonly Value[],
    virtual = false,
  ): Promise<Value> {
    if (m.isStatic) thisArg = Values.null();
    return (await this.ctx.invoke(m.handle as number, thisArg, args, { virtual })).result;
  }

  /** Calls a method of the struct or object `thisArg` by name (its type from the value). */
  async callOn(
    thisArg: Value,
    name: string,
    params: readonly string[],
    args: readonly Value[],
  ): Promise<Value> {
    const typeId = thisArg.kind === 'valuetype' ? thisArg.typeId : await this.objectType(thisArg);
    return this.call(await this.method(typeId, name, params), thisArg, args);
  }

  private async objectType(v: Value): Promise<number> {
    if (v.kind !== 'object') throw new UnityError('INTERNAL', `expected an object, got ${v.kind}`);
    return this.conn.send('OBJECT_REF.GET_TYPE', { objectId: v.objectId });
  }

  async staticField(typeName: string, field: string): Promise<Value | undefined> {
    const typeId = await this.type(typeName);
    const f = (await this.md.allFields(handleOf(typeId))).find((x) => x.name === field);
    if (!f) return undefined;
    const [v] = await this.conn.send('TYPE.GET_VALUES', { typeId, fieldIds: [f.handle as number] });
    return v;
  }

  async objectField(objectId: number, field: string): Promise<Value | undefined> {
    const typeId = await this.conn.send('OBJECT_REF.GET_TYPE', { objectId });
    for (let t: number | undefined = typeId; t;) {
      const f = (await this.md.allFields(handleOf(t))).find((x) => x.name === field && !x.isStatic);
      if (f) {
        const [v] = await this.conn.send('OBJECT_REF.GET_VALUES', {
          objectId,
          fieldIds: [f.handle as number],
        });
        return v;
      }
      const base: { key: string } | undefined = (await this.md.describe(handleOf(t))).baseType;
      t = base ? typeIdOf(base) : undefined;
    }
    return undefined;
  }

  async text(v: Value | undefined): Promise<string> {
    if (!v || v.kind !== 'string') return '';
    return (await readString(this.conn, v.objectId, { maxChars: 256 })).text;
  }

  /** The whole array (bounded by the caller), in one ARRAY_REF.GET_VALUES. */
  async arrayValues(array: Value, index = 0, count?: number): Promise<Value[]> {
    if (array.kind !== 'object') return [];
    const { dimensions } = await this.conn.send('ARRAY_REF.GET_LENGTH', {
      arrayId: array.objectId,
    });
    const length = dimensions[0]?.length ?? 0;
    const start = Math.min(index, length);
    const n = Math.min(count ?? length, length - start);
    if (n <= 0) return [];
    return this.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: array.objectId,
      index: start,
      count: n,
    });
  }

  async arrayLength(array: Value): Promise<number> {
    if (array.kind !== 'object') return 0;
    const { dimensions } = await this.conn.send('ARRAY_REF.GET_LENGTH', {
      arrayId: array.objectId,
    });
    return dimensions[0]?.length ?? 0;
  }

  /** A managed array of `elementTypeId` holding `values` (one invoke: Array.CreateInstance). */
  async newArray(elementTypeId: number, values: readonly Value[]): Promise<Value> {
    this.game ??= new SessionGameAccess(this.ctx, this.md);
    const game = this.game;
    const typeObject = await this.conn.send('TYPE.GET_OBJECT', { typeId: elementTypeId });
    const a = await game.createArray(typeObject, [values.length]);
    if (a.kind !== 'object')
      throw new UnityError('INTERNAL', 'Array.CreateInstance returned no array');
    if (values.length) {
      await this.conn.send('ARRAY_REF.SET_VALUES', { arrayId: a.ref.id, index: 0, values });
    }
    return Values.object(a.ref.id);
  }

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

  // ---- component types ----

  /** A component type by full or simple name: resolved, checked, its ComponentType made once. */
  async component(name: string): Promise<ComponentInfo> {
    return this.componentByTypeId(await this.componentTypeId(name), name);
  }

  /**
   * A component type's id by full or simple name, checked to be a component: metadata only, so
   * it runs without suspending the game (a bad name never holds it).
   */
  componentTypeId(name: string): Promise<number> {
    let p = this.cache.names.get(name);
    if (!p) {
      p = (async () => {
        let typeId: number;
        try {
          typeId = await this.ctx.catalog.resolveType(name);
        } catch (e) {
          if (e instanceof UnityError && e.code === 'TYPE_NOT_FOUND')
            throw new UnityError(
              'TYPE_NOT_FOUND',
              `${e.message} (no component type of that name)`,
              {
                ...(e.suggestions ? { suggestions: e.suggestions } : {}),
              },
            );
          throw e;
        }
        const interfaces = await Promise.all(
          (await this.md.interfaces(handleOf(typeId))).map(
            async (t) => (await this.md.describe(t)).fullName,
          ),
        );
        const markers = ['IComponentData', 'IBufferElementData', 'ISharedComponentData'].map(
          (m) => `Unity.Entities.${m}`,
        );
        if (!interfaces.some((i) => markers.includes(i)))
          throw EcsErrors.notAComponent(name, markers.join(', '));
        return typeId;
      })();
      p.catch(() => this.cache.names.delete(name));
      this.cache.names.set(name, p);
    }
    return p;
  }

  /** Metadata a window will need, fetched before it opens (no invoke, no suspension). */
  async prepare(names: readonly string[]): Promise<void> {
    for (const n of names) {
      const typeId = await this.componentTypeId(n);
      await this.md.allFields(handleOf(typeId));
    }
    for (const t of [ENTITY, COMPONENT_TYPE, ALLOCATOR_HANDLE, WORLD]) {
      const id = await this.type(t);
      await this.fieldNames(id);
    }
  }

  componentByTypeId(typeId: number, asked?: string): Promise<ComponentInfo> {
    let p = this.cache.byTypeId.get(typeId);
    if (!p) {
      p = (async () => {
        await this.componentTypeId(asked ?? (await this.fullName(typeId)));
        const ctType = await this.type(COMPONENT_TYPE);
        const typeObject = await this.conn.send('TYPE.GET_OBJECT', { typeId });
        const readWrite = await this.call(
          await this.method(ctType, 'ReadWrite', ['System.Type']),
          Values.null(),
          [Values.object(typeObject)],
        );
        return this.describeComponentType(readWrite, typeId);
      })();
      p.catch(() => this.cache.byTypeId.delete(typeId));
      this.cache.byTypeId.set(typeId, p);
    }
    return p;
  }

  private async describeComponentType(ct: Value, typeId: number): Promise<ComponentInfo> {
    const typeIndex = await this.typeIndexOf(ct);
    const kind: ComponentKind =
      typeIndex & BUFFER_FLAG
        ? 'buffer'
        : typeIndex & SHARED_FLAG
          ? 'shared'
          : typeIndex & MANAGED_FLAG
            ? 'managed'
            : typeIndex & ZERO_SIZE_FLAG
              ? 'tag'
              : 'component';
    const info: ComponentInfo = {
      typeId,
      fullName: await this.fullName(typeId),
      kind,
      enableable: (typeIndex & ENABLEABLE_FLAG) !== 0,
      typeIndex,
      readWrite: ct,
    };
    this.cache.byTypeIndex.set(typeIndex, Promise.resolve(info));
    return info;
  }

  async typeIndexOf(ct: Value): Promise<number> {
    if (ct.kind !== 'valuetype') return 0;
    const names = await this.fieldNames(ct.typeId);
    const ti = ct.fields[names.indexOf('TypeIndex')];
    if (ti?.kind === 'valuetype') return ti.fields[0]?.kind === 'i4' ? ti.fields[0].value : 0;
    return ti?.kind === 'i4' ? ti.value : 0;
  }

  /** A ComponentType seen in the game (e.g. from GetComponentTypes): named by its runtime type. */
  componentFromType(ct: Value): Promise<ComponentInfo> {
    return this.typeIndexOf(ct).then((typeIndex) => {
      let p = this.cache.byTypeIndex.get(typeIndex);
      if (!p) {
        p = (async () => {
          const tm = await this.type(TYPE_MANAGER);
          const typeIndexType = (await this.method(tm, 'GetType', ['Unity.Entities.TypeIndex']))
            .parameters[0]!.type;
          const tiValue = Values.struct(typeIdOf(typeIndexType), [Values.i4(typeIndex)]);
          const typeObject = await this.call(
            await this.method(tm, 'GetType', ['Unity.Entities.TypeIndex']),
            Values.null(),
            [tiValue],
          );
          const systemType = await this.type('System.Type');
          const name = await this.text(
            await this.call(
              await this.method(systemType, 'get_FullName', []),
              typeObject,
              [],
              true,
            ),
          );
          const typeId = await this.type(name);
          return this.describeComponentType(ct, typeId);
        })();
        p.catch(() => this.cache.byTypeIndex.delete(typeIndex));
        this.cache.byTypeIndex.set(typeIndex, p);
      }
      return p;
    });
  }

  /** The same ComponentType with another access mode (ReadOnly 1, Exclude 2): made here. */
  async withAccess(info: ComponentInfo, mode: 0 | 1 | 2): Promise<Value> {
    const ct = info.readWrite;
    if (ct.kind !== 'valuetype') return ct;
    const names = await this.fieldNames(ct.typeId);
    const at = names.indexOf('AccessModeType');
    return Values.struct(
      ct.typeId,
      ct.fields.map((f, i) =>
        i === at && f.kind === 'valuetype' ? Values.struct(f.typeId, [Values.i4(mode)], true) : f,
      ),
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
