import { afterEach, describe, expect, it } from 'vitest';

import {
  MethodAttributes,
  type RuntimeKind,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import { TypeInfoFlags as F } from '../../sdb-protocol/vocabulary.js';
import { ParamAttributes as PA } from './method-metadata.js';
import { ElementType as E } from './signature-blob.js';
import { FakeGame, PARAM_ARRAY_CTOR, type FakeMethod } from './testing/fake-game.js';
import { constantBytes, methodSig, sig } from './testing/sig-builder.js';
import { TypeCatalog, type TypeCatalogOptions } from './type-catalog.js';

const STATIC = MethodAttributes.Public | MethodAttributes.Static;

/** mscorlib with List<T>.Add and its List<int> instance; Game.Probe with every parameter form. */
function makeGame() {
  const g = new FakeGame();
  const corlib = g.assembly('mscorlib, Version=4.0.0.0');
  const object = g.type(corlib, 'System.Object');
  const int32 = g.type(corlib, 'System.Int32', { base: object, flags: F.PRIMITIVE });
  const string = g.type(corlib, 'System.String', { base: object });
  const voidType = g.type(corlib, 'System.Void', { base: object, flags: F.VALUE_TYPE });
  const intArray = g.type(corlib, 'System.Int32[]', {
    runtimeOnly: { namespace: 'System', name: 'Int32[]' },
  });
  const list = g.type(corlib, 'System.Collections.Generic.List`1', { base: object });
  const t = g.type(corlib, 'T', { runtimeOnly: { namespace: '', name: 'T' } });
  const add = g.method(list, 'Add', voidType, [{ name: 'item', type: t }], {
    attributes: 0x86,
    metadata: { signature: methodSig({ hasThis: true, params: [sig.var(0)] }) },
  });
  const listOfInt = g.type(corlib, 'System.Collections.Generic.List`1[[System.Int32, mscorlib]]', {
    base: object,
    flags: F.GENERIC_TYPE,
    runtimeOnly: { namespace: 'System.Collections.Generic', name: 'List`1' },
  });
  listOfInt.typeArgs = [int32];
  g.method(listOfInt, 'Add', voidType, [{ name: 'item', type: int32 }], {
    attributes: 0x86,
    definition: add,
  });
  // an array accessor: the runtime makes it, there is no MethodDef
  g.method(intArray, 'Get', int32, [{ name: 'index', type: int32 }]).runtimeToken = 0;

  const game = g.assembly('Assembly-CSharp, Version=0.0.0.0');
  const probe = g.type(game, 'Game.Probe', { base: object });
  g.field(probe, 'SList', listOfInt, 0x16);
  g.field(probe, 'SInts', intArray, 0x16);
  const i = (name: string) => ({ name, type: int32 });
  const method = (
    name: string,
    params: { name: string; type: typeof int32 }[],
    signature: number[],
    rows: FakeMethod['metadata'],
  ) =>
    g.method(probe, name, int32, params, { attributes: STATIC, metadata: { signature, ...rows } });
  method(
    'TryParse',
    [{ name: 's', type: string }, i('value')],
    methodSig({ ret: [E.BOOLEAN], params: [sig.string, sig.byRef(sig.int)] }),
    {
      params: [
        { name: 's', sequence: 1 },
        { name: 'value', sequence: 2, flags: PA.Out },
      ],
    },
  );
  method(
    'Swap',
    [i('a'), i('b')],
    methodSig({ params: [sig.byRef(sig.int), sig.byRef(sig.int)] }),
    {
      params: [
        { name: 'a', sequence: 1 },
        { name: 'b', sequence: 2 },
      ],
    },
  );
  method('WithDefault', [i('a'), i('b')], methodSig({ ret: sig.int, params: [sig.int, sig.int] }), {
    params: [
      { name: 'a', sequence: 1 },
      {
        name: 'b',
        sequence: 2,
        flags: PA.Optional | PA.HasDefault,
        constant: { type: E.I4, value: constantBytes(E.I4, 10) },
      },
    ],
  });
  method(
    'Sum',
    [{ name: 'xs', type: intArray }],
    methodSig({ ret: sig.int, params: [sig.szArray(sig.int)] }),
    {
      params: [{ name: 'xs', sequence: 1, attributes: [PARAM_ARRAY_CTOR] }],
    },
  );
  method(
    'Echo',
    [{ name: 'value', type: t }],
    methodSig({ genericArity: 1, ret: sig.mvar(0), params: [sig.mvar(0)] }),
    {
      params: [{ name: 'value', sequence: 1 }],
    },
  );
  method('Broken', [i('x')], [0x06, E.I4], { params: [{ name: 'x', sequence: 1 }] });
  return { g, corlib, game, probe, listOfInt, intArray };
}

let agent: FakeAgent | undefined;
let conn: SdbConnection | undefined;

afterEach(async () => {
  await conn?.close();
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  conn = undefined;
  agent = undefined;
});

async function attach(
  g: FakeGame,
  minor = 54,
  options: TypeCatalogOptions = {},
  profile: RuntimeKind = 'debian-mono',
) {
  agent = FakeAgent.inMemory({ minor, profile });
  g.install(agent);
  conn = await agent.connect();
  const a = agent;
  const c = conn;
  const catalog = new TypeCatalog(conn, options);
  /** A method id as the agent gives it (the client refuses ids it was never given). */
  const methodId = async (type: string | number, name: string): Promise<number> => {
    const found = await catalog.findMember(type, name);
    if (found.kind !== 'method') throw new Error(`${name} is not a method`);
    return found.overloads[0]!.methodId;
  };
  return {
    catalog,
    methodId,
    blobs: () => a.count('ASSEMBLY.GET_METADATA_BLOB'),
    sent: () => c.stats.commandsSent,
  };
}

const param = (name: string, refKind = 'none', more: object = {}) => ({
  name,
  refKind,
  optional: false,
  isParams: false,
  ...more,
});

describe('methodSignature', () => {
  it('tells ref, out, optional defaults, params and generic arity', async () => {
    const { catalog, methodId } = await attach(makeGame().g);
    const of = async (name: string) => catalog.methodSignature(await methodId('Game.Probe', name));
    expect(await of('TryParse')).toEqual({
      genericArity: 0,
      parameters: [param('s'), param('value', 'out')],
    });
    expect((await of('Swap'))?.parameters).toEqual([param('a', 'ref'), param('b', 'ref')]);
    expect((await of('WithDefault'))?.parameters).toEqual([
      param('a'),
      param('b', 'none', { optional: true, defaultValue: { kind: 'int', value: 10 } }),
    ]);
    expect((await of('Sum'))?.parameters).toEqual([param('xs', 'none', { isParams: true })]);
    expect(await of('Echo')).toEqual({ genericArity: 1, parameters: [param('value')] });
  });

  it('costs two commands and one image per assembly, then nothing', async () => {
    const { catalog, methodId, blobs, sent } = await attach(makeGame().g);
    const tryParse = await methodId('Game.Probe', 'TryParse');
    const swap = await methodId('Game.Probe', 'Swap');
    const bytesBefore = catalog.stats.metadataBlobBytes;
    const listed = blobs(); // findMember listed the types of every assembly
    let before = sent();
    await catalog.methodSignature(tryParse);
    // GET_DECLARING_TYPE, GET_INFO, GET_METADATA_BLOB (the declaring type's info is cached)
    expect(sent() - before).toBe(3);
    expect(blobs()).toBe(listed + 1);
    expect(catalog.stats.metadataBlobBytes).toBeGreaterThan(bytesBefore);
    before = sent();
    await catalog.methodSignature(tryParse);
    expect(sent() - before).toBe(0);
    await catalog.methodSignature(swap);
    expect(sent() - before).toBe(2);
    expect(blobs()).toBe(listed + 1);
  });

  it('answers a method of a closed generic type from its definition', async () => {
    const w = makeGame();
    const { catalog, methodId } = await attach(w.g);
    const field = await catalog.findMember('Game.Probe', 'SList');
    const listOfInt = field.kind === 'field' ? field.field.type.typeId : 0;
    expect(listOfInt).toBe(w.listOfInt.id);
    const add = await methodId(listOfInt, 'Add');
    expect(await catalog.methodSignature(add)).toEqual({
      genericArity: 0,
      parameters: [param('item')],
    });
  });

  it('gives undefined for methods the runtime made, without reading an image', async () => {
    const { catalog, methodId, blobs } = await attach(makeGame().g);
    const field = await catalog.findMember('Game.Probe', 'SInts');
    const ints = field.kind === 'field' ? field.field.type.typeId : 0;
    const get = await methodId(ints, 'Get');
    const listed = blobs();
    expect(await catalog.methodSignature(get)).toBeUndefined();
    expect(blobs()).toBe(listed);
  });

  it('reads MVID-checked local files on a 2.45 agent, else gives undefined', async () => {
    const w = makeGame();
    const files = new Map([[w.game.location, w.g.image(w.game)]]);
    files.set(w.corlib.location, w.g.image({ ...w.corlib, mvid: new Uint8Array(16) })); // rebuilt since
    const { catalog, methodId, blobs } = await attach(w.g, 45, {
      readFile: (p) => Promise.resolve(files.get(p)),
    });
    const tryParse = await methodId('Game.Probe', 'TryParse');
    expect((await catalog.methodSignature(tryParse))?.parameters[1]?.refKind).toBe('out');
    const listOfInt = await catalog.findMember('Game.Probe', 'SList');
    const add = await methodId(listOfInt.kind === 'field' ? listOfInt.field.type.typeId : 0, 'Add');
    expect(await catalog.methodSignature(add)).toBeUndefined();
    expect(blobs()).toBe(0);
  });

  it('rejects a malformed signature with the image error, and asks again next time', async () => {
    const { catalog, methodId, sent } = await attach(makeGame().g);
    const broken = await methodId('Game.Probe', 'Broken');
    await expect(catalog.methodSignature(broken)).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/signature of Broken .*not a method signature/),
    });
    const before = sent();
    await expect(catalog.methodSignature(broken)).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(sent() - before).toBe(2); // the failure was not cached; the image was
  });

  it('translates a lost connection', async () => {
    const { catalog, methodId } = await attach(makeGame().g);
    const swap = await methodId('Game.Probe', 'Swap');
    await conn!.close();
    await expect(catalog.methodSignature(swap)).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
  });
});

describe('methodSignature on IL2CPP (no metadata image)', () => {
  it('gives undefined without asking for the blob, and members still come from the agent', async () => {
    const w = makeGame();
    const { catalog, methodId, blobs } = await attach(
      w.g,
      58,
      {
        readFile: () => Promise.resolve(undefined),
        listTypeNames: (id) => Promise.resolve(w.g.reflectionNames(id)),
      },
      'il2cpp',
    );
    const tryParse = await methodId('Game.Probe', 'TryParse');
    expect(await catalog.methodSignature(tryParse)).toBeUndefined();
    expect(blobs()).toBe(0);
  });
});
