// Unity.Entities component types: a type by name checked to be a component, its ComponentType
// made once in the game, its kind and enableable bit read from the TypeIndex flags, and a
// ComponentType seen in the game named by its runtime type. Cached per connection (ecs-calls.ts).

import { Values, type Value } from '../../sdb-protocol/index.js';
import { handleOf, typeIdOf } from '../runtime/convert.js';
import { UnityError } from '../errors.js';
import { EcsCalls } from './ecs-calls.js';
import { EcsErrors } from './ecs-errors.js';
import {
  ALLOCATOR_HANDLE,
  COMPONENT_TYPE,
  ENTITY,
  TYPE_MANAGER,
  WORLD,
  type ComponentInfo,
  type ComponentKind,
} from './ecs-model.js';

// TypeIndex flag bits (Unity.Entities.TypeManager)
const BUFFER_FLAG = 1 << 26;
const SHARED_FLAG = 1 << 27;
const MANAGED_FLAG = 1 << 28;
const ZERO_SIZE_FLAG = 1 << 30;
const ENABLEABLE_FLAG = 1 << 24;

export abstract class EcsComponentTypes extends EcsCalls {
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
}
