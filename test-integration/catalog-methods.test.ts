// Method signatures from metadata against the real fixture game under Mono 6.8's debugger agent:
// what METHOD.GET_PARAM_INFO does not tell (ref / out, optional defaults, params, generic arity),
// for game methods, a method of a closed generic type, an instantiated generic method, and
// mscorlib; and what a first lookup costs on the wire.

import { beforeAll, describe, expect, it } from 'vitest';

import { TypeCatalog, type MethodMember, type MethodSignature } from '../unity/catalog/index.js';
import { useAttachedFixture } from './support/attached-fixture.js';

const g = useAttachedFixture();
let catalog: TypeCatalog;

beforeAll(() => {
  catalog = new TypeCatalog(g.conn);
});

async function overloads(type: string | number, name: string): Promise<MethodMember[]> {
  const found = await catalog.findMember(type, name);
  if (found.kind !== 'method') throw new Error(`${name} is not a method`);
  return found.overloads;
}

/** The overload whose parameter types the agent names `types`. */
async function method(type: string | number, name: string, types?: string[]): Promise<number> {
  const all = await overloads(type, name);
  const m = types
    ? all.find(
        (o) => JSON.stringify(o.parameters.map((p) => p.type.name)) === JSON.stringify(types),
      )
    : all[0];
  if (!m) throw new Error(`no ${name}(${types?.join(', ')})`);
  return m.methodId;
}

async function signature(methodId: number): Promise<MethodSignature> {
  const s = await catalog.methodSignature(methodId);
  if (!s) throw new Error(`no signature for method ${methodId}`);
  return s;
}

const param = (name: string, refKind = 'none', more: object = {}): object => ({
  name,
  refKind,
  optional: false,
  isParams: false,
  ...more,
});

async function fieldType(type: string, field: string): Promise<number> {
  const found = await catalog.findMember(type, field);
  if (found.kind !== 'field') throw new Error(`${field} is not a field`);
  return found.field.type.typeId;
}

describe('Game.Probe', () => {
  // first in the file: it pays for reading Assembly-CSharp's image
  it('TryParse(string, out int): the agent says Int32, the metadata says out', async () => {
    const tryParse = await method('Game.Probe', 'TryParse');
    const params = await g.conn.send('METHOD.GET_PARAM_INFO', { methodId: tryParse });
    const info = await g.conn.send('TYPE.GET_INFO', { typeId: params.paramTypeIds[1]! });
    expect(info.fullName).toBe('System.Int32'); // not Int32&: why we read metadata at all

    const sent = g.conn.stats.commandsSent;
    const started = performance.now();
    expect(await signature(tryParse)).toEqual({
      genericArity: 0,
      parameters: [param('s'), param('value', 'out')],
    });
    const first = { commands: g.conn.stats.commandsSent - sent, ms: performance.now() - started };
    // GET_DECLARING_TYPE, GET_INFO, the image (TYPE.GET_INFO was cached by findMember)
    expect(first.commands).toBe(3);

    const swap = await method('Game.Probe', 'Swap');
    const again = g.conn.stats.commandsSent;
    await signature(tryParse);
    expect(g.conn.stats.commandsSent).toBe(again); // cached per method id
    await signature(swap);
    expect(g.conn.stats.commandsSent - again).toBe(2); // the image is cached per assembly
    console.log(
      `first signature in Assembly-CSharp: ${first.commands} commands ${first.ms.toFixed(0)} ms`,
    );
  });

  it('Swap(ref int, ref int), WithDefault(int, int b = 10), Sum(params int[])', async () => {
    expect((await signature(await method('Game.Probe', 'Swap'))).parameters).toEqual([
      param('a', 'ref'),
      param('b', 'ref'),
    ]);
    expect((await signature(await method('Game.Probe', 'WithDefault'))).parameters).toEqual([
      param('a'),
      param('b', 'none', { optional: true, defaultValue: { kind: 'int', value: 10 } }),
    ]);
    expect((await signature(await method('Game.Probe', 'Sum'))).parameters).toEqual([
      param('xs', 'none', { isParams: true }),
    ]);
    expect((await signature(await method('Game.Probe', 'Add'))).parameters).toEqual([
      param('a'),
      param('b'),
    ]);
  });

  it('Echo<T>: arity 1, and Echo<int> carries the definition token', async () => {
    const echo = await method('Game.Probe', 'Echo');
    const unconstrained = {
      name: 'T',
      constraints: [],
      defaultConstructor: false,
      referenceType: false,
      valueType: false,
    };
    expect(await signature(echo)).toEqual({
      genericArity: 1,
      genericParameters: [unconstrained],
      parameters: [param('value')],
    });
    const int32 = (
      await g.conn.send('VM.GET_TYPES', { name: 'System.Int32', ignoreCase: false })
    )[0]!;
    const echoInt = await g.conn.send('METHOD.MAKE_GENERIC_METHOD', {
      methodId: echo,
      typeArgIds: [int32],
    });
    const [definition, instance] = await Promise.all(
      [echo, echoInt].map((methodId) => g.conn.send('METHOD.GET_INFO', { methodId })),
    );
    expect(instance!.isGenericDefinition).toBe(false);
    expect(instance!.genericDefinitionId).toBe(echo);
    expect(instance!.token).toBe(definition!.token);
    expect(await signature(echoInt)).toEqual({
      genericArity: 1,
      genericParameters: [unconstrained],
      parameters: [param('value')],
    });
  });
});

describe('a closed generic type: List<int>, the type of Game.Probe.SList', () => {
  it('answers its methods from List`1 in mscorlib; their tokens are the definition rows', async () => {
    const listOfInt = await fieldType('Game.Probe', 'SList');
    const info = await g.conn.send('TYPE.GET_INFO', { typeId: listOfInt });
    expect(info.fullName).toMatch(/^System\.Collections\.Generic\.List`1\[\[System\.Int32/);
    const add = await method(listOfInt, 'Add');
    const sent = g.conn.stats.commandsSent;
    const started = performance.now();
    expect(await signature(add)).toEqual({ genericArity: 0, parameters: [param('item')] });
    const cost = { commands: g.conn.stats.commandsSent - sent, ms: performance.now() - started };
    // GET_DECLARING_TYPE, GET_INFO, GET_METADATA_BLOB of mscorlib
    expect(cost.commands).toBe(3);

    const definitionAdd = await method(info.genericDefinitionId, 'Add');
    expect(definitionAdd).not.toBe(add);
    const [instance, definition] = await Promise.all(
      [add, definitionAdd].map((methodId) => g.conn.send('METHOD.GET_INFO', { methodId })),
    );
    expect(instance!.token).toBe(definition!.token);
    expect(instance!.token >>> 24).toBe(0x06);
    const convertAll = await method(listOfInt, 'ConvertAll');
    expect((await signature(convertAll)).genericArity).toBe(1);
    console.log(
      `first signature in mscorlib (List<int>.Add): ${cost.commands} commands ` +
        `${cost.ms.toFixed(0)} ms, ${(catalog.stats.metadataBlobBytes / 1e6).toFixed(1)} MB ` +
        `of metadata so far`,
    );
  });

  it('gives undefined for an array accessor the runtime made (no MethodDef row)', async () => {
    const ints = await fieldType('Game.Probe', 'SInts');
    const methods = await g.conn.send('TYPE.GET_METHODS', { typeId: ints });
    const tokens = await Promise.all(
      methods.map((methodId) => g.conn.send('METHOD.GET_INFO', { methodId })),
    );
    // Get, Set, Address, the constructors, the IList<T> helpers: Mono 6.8 gives them token 0
    expect(methods.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.token === 0)).toBe(true);
    for (const m of methods) expect(await catalog.methodSignature(m)).toBeUndefined();
  });
});

describe('mscorlib and the ECS package', () => {
  it('Int32.TryParse(string, out int) and String.Join(string, params object[])', async () => {
    const tryParse = await method('System.Int32', 'TryParse', ['System.String', 'System.Int32']);
    expect((await signature(tryParse)).parameters).toEqual([param('s'), param('result', 'out')]);
    const join = await method('System.String', 'Join', ['System.String', 'System.Object[]']);
    expect((await signature(join)).parameters).toEqual([
      param('separator'),
      param('values', 'none', { isParams: true }),
    ]);
  });

  it('EntityManager.GetAllEntities(Allocator allocator = Allocator.Temp): the enum as its int', async () => {
    const getAll = await method('Unity.Entities.EntityManager', 'GetAllEntities', [
      'Unity.Collections.Allocator',
    ]);
    expect(await signature(getAll)).toEqual({
      genericArity: 0,
      parameters: [
        param('allocator', 'none', { optional: true, defaultValue: { kind: 'int', value: 2 } }),
      ],
    });
  });
});

describe('the local-file route', () => {
  it('gives the same signatures from MVID-checked files, without transferring images', async () => {
    const local = new TypeCatalog(g.conn, { preferLocalFiles: true });
    const ids = await Promise.all([
      method('Game.Probe', 'TryParse'),
      method('Game.Probe', 'WithDefault'),
      method('Game.Probe', 'Sum'),
    ]);
    const viaFiles = await Promise.all(ids.map((id) => local.methodSignature(id)));
    const viaBlob = await Promise.all(ids.map((id) => catalog.methodSignature(id)));
    expect(viaFiles).toEqual(viaBlob);
    expect(local.stats.metadataBlobBytes).toBe(0);
  });
});
