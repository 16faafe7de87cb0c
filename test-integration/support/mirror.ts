// A thin, test-only convenience over the wire client: names to ids with caching, so tests read
// like the fixture's source. (The product's own catalogue lives in unity/.)

import type { SdbConnection } from '../../sdb-protocol/index.js';
import {
  BindingFlags,
  Values,
  type FieldInfo,
  type InvokeResult,
  type Value,
} from '../../sdb-protocol/index.js';

export class Mirror {
  private readonly types = new Map<string, number>();
  private readonly fields = new Map<number, FieldInfo[]>();

  constructor(readonly conn: SdbConnection) {}

  async type(fullName: string): Promise<number> {
    const cached = this.types.get(fullName);
    if (cached !== undefined) return cached;
    const ids = await this.conn.send('VM.GET_TYPES', { name: fullName, ignoreCase: false });
    if (ids.length === 0) throw new Error(`type ${fullName} not found`);
    this.types.set(fullName, ids[0]!);
    return ids[0]!;
  }

  async fieldsOf(typeId: number): Promise<FieldInfo[]> {
    let f = this.fields.get(typeId);
    if (!f) {
      f = await this.conn.send('TYPE.GET_FIELDS', { typeId });
      this.fields.set(typeId, f);
    }
    return f;
  }

  async field(typeName: string, name: string): Promise<FieldInfo & { declaringTypeId: number }> {
    let typeId = await this.type(typeName);
    for (;;) {
      const found = (await this.fieldsOf(typeId)).find((f) => f.name === name);
      if (found) return { ...found, declaringTypeId: typeId };
      const info = await this.conn.send('TYPE.GET_INFO', { typeId });
      if (!info.baseTypeId) throw new Error(`field ${typeName}.${name} not found`);
      typeId = info.baseTypeId;
    }
  }

  async static(typeName: string, name: string): Promise<Value> {
    return (await this.statics(typeName, [name]))[0]!;
  }

  async statics(typeName: string, names: string[]): Promise<Value[]> {
    const typeId = await this.type(typeName);
    const ids = await Promise.all(names.map(async (n) => (await this.field(typeName, n)).fieldId));
    return this.conn.send('TYPE.GET_VALUES', { typeId, fieldIds: ids });
  }

  async setStatic(typeName: string, name: string, value: Value): Promise<void> {
    const f = await this.field(typeName, name);
    await this.conn.send('TYPE.SET_VALUES', {
      typeId: f.declaringTypeId,
      writes: [{ fieldId: f.fieldId, value }],
    });
  }

  async instance(objectId: number, typeName: string, names: string[]): Promise<Value[]> {
    const ids = await Promise.all(names.map(async (n) => (await this.field(typeName, n)).fieldId));
    return this.conn.send('OBJECT_REF.GET_VALUES', { objectId, fieldIds: ids });
  }

  async string(v: Value): Promise<string | null> {
    if (v.kind === 'null') return null;
    if (v.kind !== 'string') throw new Error(`not a string: ${JSON.stringify(v)}`);
    return this.conn.send('STRING_REF.GET_VALUE', { objectId: v.objectId });
  }

  async typeName(typeId: number): Promise<string> {
    return (await this.conn.send('TYPE.GET_INFO', { typeId })).fullName;
  }

  async runtimeTypeName(v: Value): Promise<string> {
    if (v.kind === 'valuetype') return this.typeName(v.typeId);
    if (v.kind === 'object' || v.kind === 'string') {
      return this.typeName(await this.conn.send('OBJECT_REF.GET_TYPE', { objectId: v.objectId }));
    }
    throw new Error(`no runtime type for ${v.kind}`);
  }

  /** Methods named `name` declared on the type (static and instance, any visibility). */
  async methods(typeName: string, name: string): Promise<number[]> {
    const typeId = await this.type(typeName);
    return this.conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
      typeId,
      name,
      flags:
        BindingFlags.Static |
        BindingFlags.Instance |
        BindingFlags.Public |
        BindingFlags.NonPublic |
        BindingFlags.DeclaredOnly,
    });
  }

  async method(typeName: string, name: string, paramTypes?: string[]): Promise<number> {
    for (const id of await this.methods(typeName, name)) {
      if (!paramTypes) return id;
      const p = await this.conn.send('METHOD.GET_PARAM_INFO', { methodId: id });
      const names = await Promise.all(p.paramTypeIds.map((t) => this.typeName(t)));
      if (names.join(',') === paramTypes.join(',')) return id;
    }
    throw new Error(`method ${typeName}.${name}(${paramTypes?.join(',') ?? '*'}) not found`);
  }

  /** The fixture's main thread: the process entry thread (unnamed, like Unity's). */
  async mainThread(): Promise<number> {
    const threads = await this.conn.send('VM.ALL_THREADS');
    const named = await Promise.all(
      threads.map((t) => this.conn.send('THREAD.GET_NAME', { threadId: t })),
    );
    const info = await Promise.all(
      threads.map((t) => this.conn.send('THREAD.GET_INFO', { threadId: t })),
    );
    const candidates = threads.filter((_, i) => named[i] === '' && !info[i]!.isThreadPool);
    if (candidates.length === 0)
      throw new Error(`no unnamed non-pool thread among ${named.join(', ')}`);
    return candidates[0]!;
  }
}

export function expectReturned(r: InvokeResult): Value {
  if (r.threw) throw new Error(`invoke threw ${JSON.stringify(r.exception)}`);
  return r.result;
}

export const nullThis = Values.null();
