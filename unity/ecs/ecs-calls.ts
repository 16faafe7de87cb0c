// Unity.Entities calls over one operation of the session: type and method lookups, typed calls,
// field and array reads, with everything that does not change while the game runs (type ids,
// method ids, generic instantiations, ComponentType values, each world's EntityManager) cached
// per connection, so a warm call spends its invokes on the work itself. The base of EcsAccess.

import {
  FieldAttributes,
  readString,
  Values,
  type SdbConnection,
  type Value,
} from '../../sdb-protocol/index.js';
import type { MethodDescriptor } from '../../eval/runtime.js';
import { GAME_METADATA } from '../runtime/game-metadata.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { handleOf, typeIdOf } from '../runtime/convert.js';
import type { GameMetadata } from '../runtime/game-metadata.js';
import { UnityError } from '../errors.js';
import type { OperationContext } from '../session/session.js';
import { connectionPart } from '../session/game-connection.js';
import { EcsErrors } from './ecs-errors.js';
import type { ComponentInfo } from './ecs-model.js';
import type { CodecTypes } from './value-codec.js';

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

/** The ECS caches of one attached game. */
const ECS_CACHE = connectionPart('ECS caches', (c) => new EcsCache(c.part(GAME_METADATA)));

export abstract class EcsCalls implements CodecTypes {
  readonly conn: SdbConnection;
  protected readonly cache: EcsCache;
  readonly md: GameMetadata;
  private game: SessionGameAccess | undefined;

  constructor(readonly ctx: OperationContext) {
    this.conn = ctx.conn;
    this.cache = ctx.connection.part(ECS_CACHE);
    this.md = this.cache.md;
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
        const literals = fields.filter((f) => (f.attributes & FieldAttributes.Literal) !== 0);
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
}
