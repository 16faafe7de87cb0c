import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  FieldAttributes,
  MethodAttributes,
  type CommandName,
  type RuntimeKind,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import { ErrorCode, TypeInfoFlags as F } from '../../sdb-protocol/vocabulary.js';
import { TypeCatalog, type TypeCatalogOptions } from './type-catalog.js';
import { FakeGame } from './testing/fake-game.js';

const { Static: STATIC, Virtual: VIRTUAL, SpecialName: SPECIAL, Public: PUBLIC } = MethodAttributes;
const { Literal: LITERAL } = FieldAttributes;

/** mscorlib, Assembly-CSharp, UnityEngine.CoreModule, and a dynamic assembly. */
function makeGame() {
  const g = new FakeGame();
  const corlib = g.assembly('mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a');
  const object = g.type(corlib, 'System.Object');
  const valueType = g.type(corlib, 'System.ValueType', { base: object });
  const enumType = g.type(corlib, 'System.Enum', { base: valueType });
  const int32 = g.type(corlib, 'System.Int32', { base: valueType, flags: F.PRIMITIVE });
  const string = g.type(corlib, 'System.String', { base: object });
  const voidType = g.type(corlib, 'System.Void', { base: valueType, flags: F.VALUE_TYPE });
  g.method(object, '.ctor', voidType, [], { attributes: PUBLIC | SPECIAL });
  g.method(object, 'ToString', string, [], { attributes: PUBLIC | VIRTUAL });
  g.method(object, 'GetHashCode', int32, [], { attributes: PUBLIC | VIRTUAL });

  const game = g.assembly('Assembly-CSharp, Version=0.0.0.0, Culture=neutral, PublicKeyToken=null');
  const probe = g.type(game, 'Game.Probe', { base: object });
  g.field(probe, 'SInt', int32, PUBLIC | STATIC);
  g.field(probe, 'Name', string);
  g.field(probe, 'Max', int32, PUBLIC | STATIC | LITERAL);
  const getProp = g.method(probe, 'get_Prop', int32, [], { attributes: PUBLIC | SPECIAL });
  const setOnly = g.method(probe, 'set_Sink', voidType, [{ name: 'value', type: string }], {
    attributes: PUBLIC | SPECIAL | STATIC,
  });
  g.property(probe, 'Prop', getProp);
  g.property(probe, 'Sink', undefined, setOnly);
  g.method(probe, 'Over', string, [{ name: 'x', type: int32 }], { attributes: PUBLIC | STATIC });
  g.method(probe, 'Over', string, [{ name: 's', type: string }], { attributes: PUBLIC | STATIC });
  const t = g.type(game, 'T', { runtimeOnly: { namespace: '', name: 'T' } });
  g.method(probe, 'Echo', t, [{ name: 'value', type: t }], {
    attributes: PUBLIC | STATIC,
    genericParamCount: 1,
  });
  g.method(probe, 'ToString', string, [], { attributes: PUBLIC | VIRTUAL });
  const broken = g.method(probe, 'Broken', voidType);
  g.brokenMethods.add(broken.id);

  const derived = g.type(game, 'Game.DerivedProbe', { base: probe });
  g.field(derived, 'Extra', int32);
  g.method(derived, '.ctor', voidType, [], { attributes: PUBLIC | SPECIAL });
  g.method(derived, 'ToString', string, [], { attributes: PUBLIC | VIRTUAL });
  const color = g.type(game, 'Game.Color', { base: enumType, flags: F.VALUE_TYPE | F.ENUM });
  g.field(color, 'value__', int32);
  g.field(color, 'Red', color, PUBLIC | STATIC | LITERAL);
  g.type(game, 'Game.Point', { base: valueType, flags: F.VALUE_TYPE });
  const outer = g.type(game, 'Game.Outer', { base: object });
  const inner = g.type(game, 'Game.Outer+Inner`1', {
    base: valueType,
    enclosing: outer,
    flags: F.VALUE_TYPE | F.GENERIC_TYPE_DEFINITION | F.GENERIC_TYPE,
  });
  inner.typeArgs = [g.type(game, 'T', { runtimeOnly: { namespace: '', name: 'T' } })];
  // a closed generic struct: Mono omits the value-type bit on these
  const innerOfInt = g.type(game, 'Game.Outer+Inner`1[[System.Int32, mscorlib]]', {
    base: valueType,
    flags: F.GENERIC_TYPE,
    runtimeOnly: { namespace: '', name: 'Inner`1' },
  });
  innerOfInt.typeArgs = [int32];
  g.field(probe, 'SInner', innerOfInt, PUBLIC | STATIC);

  const engine = g.assembly('UnityEngine.CoreModule, Version=0.0.0.0, Culture=neutral');
  g.type(engine, 'UnityEngine.Color', { base: valueType, flags: F.VALUE_TYPE });
  g.type(engine, 'UnityEngine.Object', { base: object });
  const dyn = g.assembly('Dyn, Version=0.0.0.0', { blob: 'dynamic', location: '' });
  g.type(dyn, 'Dyn.Thing', { base: object });
  return { g, corlib, game, engine, dyn, probe, derived, color, inner, innerOfInt, int32 };
}

let agent: FakeAgent | undefined;
let conn: SdbConnection | undefined;
/** The runtime the agent answers as (the blocks under describe.each set it). */
let profile: RuntimeKind = 'debian-mono';
const PROFILES: RuntimeKind[] = ['debian-mono', 'unity-mono', 'il2cpp'];

afterEach(async () => {
  await conn?.close();
  // nothing reached the agent that its runtime must never receive
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  conn = undefined;
  agent = undefined;
  profile = 'debian-mono';
});

/** Runs a block once per runtime profile. */
function eachRuntime(name: string, body: () => void): void {
  describe.each(PROFILES)(`${name} (%s)`, (p) => {
    beforeEach(() => {
      profile = p;
    });
    body();
  });
}

async function attach(
  g: FakeGame,
  minor?: number,
  options: TypeCatalogOptions = {},
): Promise<{ catalog: TypeCatalog; sent: (name: CommandName) => number }> {
  agent = FakeAgent.inMemory({ profile, ...(minor !== undefined ? { minor } : {}) });
  g.install(agent);
  conn = await agent.connect();
  const a = agent;
  // an IL2CPP player keeps no metadata image and its assemblies are no files here: the
  // session lists their types by Assembly.GetTypes() in the game
  const il2cpp: TypeCatalogOptions =
    profile === 'il2cpp'
      ? {
          readFile: () => Promise.resolve(undefined),
          listTypeNames: (id) => Promise.resolve(g.reflectionNames(id)),
        }
      : {};
  return {
    catalog: new TypeCatalog(conn, { ...il2cpp, ...options }),
    sent: (name) => a.count(name),
  };
}

eachRuntime('assemblies', () => {
  it('lists them fresh on every call and names each assembly id once', async () => {
    const w = makeGame();
    const late = w.g.assembly('Late, Version=1.0.0.0', { loaded: false });
    const { catalog, sent } = await attach(w.g);
    expect((await catalog.assemblies()).map((a) => a.name)).toEqual([
      'mscorlib',
      'Assembly-CSharp',
      'UnityEngine.CoreModule',
      'Dyn',
    ]);
    w.g.loaded.push(late);
    const again = await catalog.assemblies();
    expect(again.at(-1)).toEqual({
      assemblyId: late.id,
      name: 'Late',
      fullName: 'Late, Version=1.0.0.0',
    });
    expect(sent('APPDOMAIN.GET_ASSEMBLIES')).toBe(2);
    expect(sent('ASSEMBLY.GET_NAME')).toBe(5);
  });
});

describe('findTypes', () => {
  it('finds exact, simple and nested generic names, with kinds from metadata', async () => {
    const w = makeGame();
    const { catalog } = await attach(w.g);
    const exact = await catalog.findTypes('Game.Probe');
    expect(exact.matches).toEqual([
      {
        fullName: 'Game.Probe',
        namespace: 'Game',
        name: 'Probe',
        assembly: 'Assembly-CSharp',
        assemblyId: w.game.id,
        kind: 'class',
        match: 'exact',
        typeId: w.probe.id,
      },
    ]);
    const inner = await catalog.findTypes('Inner');
    expect(inner.matches).toMatchObject([
      { fullName: 'Game.Outer+Inner`1', namespace: 'Game', kind: 'struct', match: 'name' },
    ]);
    const colors = await catalog.findTypes('Color');
    expect(colors.matches.map((m) => [m.fullName, m.kind, m.assembly])).toEqual([
      ['Game.Color', 'enum', 'Assembly-CSharp'],
      ['UnityEngine.Color', 'struct', 'UnityEngine.CoreModule'],
    ]);
    expect((await catalog.findTypes('Game.Point')).matches[0]?.kind).toBe('struct');
  });

  it('pages pattern results and resolves ids only for the page, once', async () => {
    const w = makeGame();
    const { catalog, sent } = await attach(w.g);
    const page = await catalog.findTypes('Game.*', { limit: 2 });
    expect(page.total).toBe(6);
    expect(page.truncated).toBe(true);
    expect(page.matches.map((m) => m.fullName)).toEqual(['Game.Color', 'Game.DerivedProbe']);
    expect(page.matches.every((m) => m.typeId !== undefined)).toBe(true);
    expect(sent('ASSEMBLY.GET_TYPE_FROM_TOKEN')).toBe(2);
    const before = conn!.stats.commandsSent;
    await catalog.findTypes('Game.*', { limit: 2 });
    expect(conn!.stats.commandsSent - before).toBe(1); // GET_ASSEMBLIES only
    expect(sent('ASSEMBLY.GET_METADATA_BLOB')).toBe(4); // one metadata blob per assembly, ever
    expect(catalog.stats.listedBy['metadata-blob']).toBe(3);
    const images = w.g.assemblies.slice(0, 3).map((a) => w.g.image(a).length);
    expect(catalog.stats.metadataBlobBytes).toBe(images.reduce((x, y) => x + y));
    const regex = await catalog.findTypes('/^Unity.*Object$/');
    expect(regex.matches.map((m) => m.fullName)).toEqual(['UnityEngine.Object']);
  });

  it('filters by assembly, and suggests assembly names on a miss', async () => {
    const { catalog } = await attach(makeGame().g);
    const engine = await catalog.findTypes('*', { assembly: 'unityengine.coremodule' });
    expect(engine.matches.map((m) => m.fullName)).toEqual([
      'UnityEngine.Color',
      'UnityEngine.Object',
    ]);
    const qualified = await catalog.findTypes('Color, UnityEngine.CoreModule');
    expect(qualified.matches.map((m) => m.fullName)).toEqual(['UnityEngine.Color']);
    await expect(
      catalog.findTypes('*', { assembly: 'UnityEngine.CoreModul' }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/did you mean UnityEngine.CoreModule/),
    });
  });

  it('suggests close names on a miss and reports assemblies it could not list', async () => {
    const { catalog } = await attach(makeGame().g);
    const miss = await catalog.findTypes('Game.Prbe');
    expect(miss).toMatchObject({ matches: [], total: 0, suggestions: ['Game.Probe'] });
    expect(miss.unlisted).toEqual([
      {
        assembly: 'Dyn',
        assemblyId: 4,
        reasons: [
          expect.stringMatching(/^metadata blob: .*NOT_IMPLEMENTED/),
          'file: the assembly has no location (loaded from memory)',
          'fallback lister: none configured',
        ],
      },
    ]);
    expect((await catalog.findTypes('Prob')).suggestions).toEqual(['Game.Probe']);
  });

  it('still finds exact full names in unlisted assemblies, through VM.GET_TYPES', async () => {
    const w = makeGame();
    const { catalog, sent } = await attach(w.g);
    const found = await catalog.findTypes('Dyn.Thing');
    expect(found.matches).toMatchObject([
      { fullName: 'Dyn.Thing', assembly: 'Dyn', match: 'exact', kind: undefined },
    ]);
    expect(found.matches[0]!.typeId).toBe(w.g.assemblies[3]!.types[0]!.id);
    expect(sent('VM.GET_TYPES')).toBe(1);
  });

  it('rejects a bad limit or regex as INVALID_ARGUMENT', async () => {
    const { catalog } = await attach(makeGame().g);
    await expect(catalog.findTypes('x', { limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(catalog.findTypes('/[/')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

eachRuntime('resolveType', () => {
  it('resolves full and unique simple names; reports ambiguity and misses', async () => {
    const w = makeGame();
    const { catalog } = await attach(w.g);
    expect(await catalog.resolveType('Game.Probe')).toBe(w.probe.id);
    expect(await catalog.resolveType('DerivedProbe')).toBe(w.derived.id);
    expect(await catalog.resolveType('Color, Assembly-CSharp')).toBe(w.color.id);
    await expect(catalog.resolveType('Color')).rejects.toMatchObject({
      code: 'AMBIGUOUS_NAME',
      message: expect.stringMatching(/ambiguous: Game.Color, Assembly-CSharp; UnityEngine.Color/),
      suggestions: ['Game.Color, Assembly-CSharp', 'UnityEngine.Color, UnityEngine.CoreModule'],
    });
    await expect(catalog.resolveType('Game.Prbe')).rejects.toMatchObject({
      code: 'TYPE_NOT_FOUND',
      suggestions: ['Game.Probe'],
    });
    await expect(catalog.resolveType('Game.*')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('prefers an exact name over simple-name matches', async () => {
    const w = makeGame();
    w.g.type(w.game, 'Probe', { base: w.g.types.get(1) });
    const { catalog } = await attach(w.g);
    expect(await catalog.resolveType('Probe')).toBe(w.game.types.at(-1)!.id);
  });
});

describe('older agents (2.45, no metadata blob)', () => {
  it('reads local files whose MVID matches, else asks the fallback lister; names give ids', async () => {
    const w = makeGame();
    const files = new Map(w.g.assemblies.map((a) => [a.location, w.g.image(a)]));
    // a file rebuilt since it was loaded: same path, another MVID
    const stale = w.g.image({ ...w.engine, mvid: new Uint8Array(16) });
    files.set(w.engine.location, stale);
    const asked: number[] = [];
    const { catalog, sent } = await attach(w.g, 45, {
      readFile: (p) => Promise.resolve(files.get(p)),
      listTypeNames: (id) => {
        asked.push(id);
        return Promise.resolve(id === w.engine.id ? ['UnityEngine.Color'] : ['Dyn.Thing']);
      },
    });
    const colors = await catalog.findTypes('Color');
    expect(colors.matches.map((m) => [m.fullName, m.kind, m.typeId !== undefined])).toEqual([
      ['Game.Color', 'enum', true],
      ['UnityEngine.Color', undefined, true],
    ]);
    expect(colors.unlisted).toEqual([]);
    expect(asked.sort()).toEqual([w.engine.id, w.dyn.id]);
    expect(catalog.stats.listedBy).toEqual({ 'metadata-blob': 0, file: 2, fallback: 2 });
    expect(sent('ASSEMBLY.GET_METADATA_BLOB')).toBe(0);
    expect(sent('ASSEMBLY.GET_TYPE_FROM_TOKEN')).toBe(0);
    expect(sent('ASSEMBLY.GET_TYPE')).toBe(2);
  });
});

describe('agents that declare 2.47+ without every 2.47 command', () => {
  it('falls back to the file and to names when the blob and token commands are missing', async () => {
    const w = makeGame();
    const files = new Map(w.g.assemblies.map((a) => [a.location, w.g.image(a)]));
    const { catalog, sent } = await attach(w.g, 54, {
      readFile: (p) => Promise.resolve(files.get(p)),
    });
    agent!.on('ASSEMBLY.GET_METADATA_BLOB', () => ({ error: ErrorCode.NOT_IMPLEMENTED }));
    agent!.on('ASSEMBLY.GET_TYPE_FROM_TOKEN', () => ({ error: ErrorCode.NOT_IMPLEMENTED }));
    const found = await catalog.findTypes('Game.Probe');
    expect(found.matches[0]?.typeId).toBe(w.probe.id);
    expect(catalog.stats.listedBy).toMatchObject({ 'metadata-blob': 0, file: 3 });
    expect([sent('ASSEMBLY.GET_TYPE_FROM_TOKEN'), sent('ASSEMBLY.GET_TYPE')]).toEqual([1, 1]);
  });
});

describe('preferLocalFiles', () => {
  it('reads MVID-checked local files first and falls back to the blob', async () => {
    const w = makeGame();
    const files = new Map(w.g.assemblies.map((a) => [a.location, w.g.image(a)]));
    const { catalog, sent } = await attach(w.g, 54, {
      preferLocalFiles: true,
      readFile: (p) => Promise.resolve(files.get(p)),
    });
    const found = await catalog.findTypes('Game.Probe');
    expect(found.matches[0]?.typeId).toBe(w.probe.id);
    expect(catalog.stats.listedBy).toEqual({ 'metadata-blob': 0, file: 3, fallback: 0 });
    expect(sent('ASSEMBLY.GET_METADATA_BLOB')).toBe(1); // only for the dynamic assembly, which has no file
    expect(sent('ASSEMBLY.GET_TYPE_FROM_TOKEN')).toBe(1); // ids still by token
    expect(found.unlisted[0]?.reasons).toEqual([
      'file: the assembly has no location (loaded from memory)',
      expect.stringMatching(/^metadata blob: .*NOT_IMPLEMENTED/),
      'fallback lister: none configured',
    ]);
  });

  it('lists at most four assemblies at a time', async () => {
    const w = makeGame();
    for (let i = 0; i < 10; i++)
      w.g.type(w.g.assembly(`Extra${i}, Version=1.0.0.0`), `Extra${i}.T`);
    const files = new Map(w.g.assemblies.map((a) => [a.location, w.g.image(a)]));
    let active = 0;
    let most = 0;
    const { catalog } = await attach(w.g, 54, {
      preferLocalFiles: true,
      readFile: async (p) => {
        most = Math.max(most, ++active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        return files.get(p);
      },
    });
    const all = await catalog.findTypes('Extra*.T');
    expect(all.matches.map((m) => m.fullName)).toHaveLength(10);
    expect(catalog.stats.listedBy.file).toBe(13);
    expect(most).toBe(4);
  });
});

eachRuntime('describe', () => {
  it('gives kind, bases, fields, properties and methods of a class', async () => {
    const w = makeGame();
    const { catalog } = await attach(w.g);
    const d = await catalog.describe('Game.Probe');
    expect(d).toMatchObject({
      typeId: w.probe.id,
      fullName: 'Game.Probe',
      namespace: 'Game',
      assembly: 'Assembly-CSharp',
      kind: 'class',
      isGenericDefinition: false,
      baseTypes: [{ name: 'System.Object' }],
      genericArguments: [],
    });
    expect(d.fields!.items.map((f) => [f.name, f.type.name, f.isStatic, f.isLiteral])).toEqual([
      ['SInt', 'System.Int32', true, false],
      ['Name', 'System.String', false, false],
      ['Max', 'System.Int32', true, true],
      ['SInner', 'Game.Outer+Inner`1[System.Int32]', true, false],
    ]);
    expect(
      d.properties!.items.map((p) => [
        p.name,
        p.type?.name,
        !!p.getterId,
        !!p.setterId,
        p.isStatic,
      ]),
    ).toEqual([
      ['Prop', 'System.Int32', true, false, false],
      ['Sink', 'System.String', false, true, true],
    ]);
    const sig = (m: {
      name: string;
      parameters: { type: { name: string } }[];
      genericArity: number;
    }) =>
      `${m.name}${m.genericArity ? `<${m.genericArity}>` : ''}(${m.parameters.map((p) => p.type.name).join(',')})`;
    expect(d.methods!.items.map(sig)).toEqual([
      'get_Prop()',
      'set_Sink(System.String)',
      'Over(System.Int32)',
      'Over(System.String)',
      'Echo<1>(T)',
      'ToString()',
    ]);
    expect(d.methods!.omitted).toBe(1); // Broken: its signature could not be read
  });

  it('adds inherited members, hiding overridden ones and base constructors', async () => {
    const w = makeGame();
    const { catalog } = await attach(w.g);
    // ids must come from the agent first (the client refuses others): resolve the name
    const derivedId = await catalog.resolveType('Game.DerivedProbe');
    const d = await catalog.describe(derivedId, {
      inherited: true,
      members: ['fields', 'methods'],
    });
    expect(d.properties).toBeUndefined();
    expect(d.baseTypes.map((b) => b.name)).toEqual(['Game.Probe', 'System.Object']);
    expect(d.fields!.items.map((f) => `${f.declaringType.name}.${f.name}`)).toEqual([
      'Game.DerivedProbe.Extra',
      'Game.Probe.SInt',
      'Game.Probe.Name',
      'Game.Probe.Max',
      'Game.Probe.SInner',
    ]);
    const methods = d.methods!.items.map((m) => `${m.declaringType.name}.${m.name}`);
    expect(methods.filter((m) => m.endsWith('.ToString'))).toEqual(['Game.DerivedProbe.ToString']);
    expect(methods.filter((m) => m.endsWith('.ctor'))).toEqual(['Game.DerivedProbe..ctor']);
    expect(methods).toContain('System.Object.GetHashCode');
    const page = await catalog.describe(derivedId, { inherited: true, limit: 2 });
    expect(page.fields).toMatchObject({ total: 5, truncated: true });
    expect(page.fields!.items).toHaveLength(2);
  });

  it('tells enums, structs, generic definitions and generic struct instances apart', async () => {
    const w = makeGame();
    const { catalog } = await attach(w.g);
    const color = await catalog.describe('Game.Color', { members: ['fields'] });
    expect(color.kind).toBe('enum');
    expect(color.fields!.items.find((f) => f.name === 'Red')).toMatchObject({ isLiteral: true });
    expect((await catalog.describe('Game.Point')).kind).toBe('struct');
    expect((await catalog.describe('System.Int32')).kind).toBe('struct');
    expect(await catalog.describe('Inner', { members: [] })).toMatchObject({
      kind: 'struct',
      isGenericDefinition: true,
      genericArguments: [{ name: 'T' }],
    });
    // a closed generic's id comes from where the agent shows it, here a field's type
    const field = await catalog.findMember('Game.Probe', 'SInner');
    expect(field.kind === 'field' && field.field.type.typeId).toBe(w.innerOfInt.id);
    const instance = await catalog.describe(w.innerOfInt.id, { members: [] });
    expect(instance).toMatchObject({
      kind: 'struct',
      genericArguments: [{ name: 'System.Int32' }],
    });
  });
});

eachRuntime('findMember', () => {
  it('finds fields, properties and overloads down the base chain, most derived first', async () => {
    const w = makeGame();
    const { catalog } = await attach(w.g);
    expect(await catalog.findMember('Game.DerivedProbe', 'SInt')).toMatchObject({
      kind: 'field',
      field: { name: 'SInt', declaringType: { name: 'Game.Probe' } },
    });
    expect(await catalog.findMember(w.probe.id, 'Prop')).toMatchObject({ kind: 'property' });
    const over = await catalog.findMember('Game.Probe', 'Over');
    expect(over.kind === 'method' && over.overloads.map((m) => m.parameters[0]!.type.name)).toEqual(
      ['System.Int32', 'System.String'],
    );
    const toString = await catalog.findMember('Game.DerivedProbe', 'ToString');
    expect(toString).toMatchObject({
      kind: 'method',
      overloads: [{ declaringType: { name: 'Game.DerivedProbe' } }],
    });
  });

  it('throws MEMBER_NOT_FOUND with close names', async () => {
    const { catalog } = await attach(makeGame().g);
    await expect(catalog.findMember('Game.DerivedProbe', 'sint')).rejects.toMatchObject({
      code: 'MEMBER_NOT_FOUND',
      message: expect.stringMatching(/^Game.DerivedProbe has no member "sint"; did you mean SInt/),
      suggestions: expect.arrayContaining(['SInt']),
    });
  });
});

eachRuntime('errors', () => {
  it('translates wire failures into the unity error catalogue', async () => {
    const { catalog } = await attach(makeGame().g);
    await conn!.close();
    await expect(catalog.findTypes('Game.Probe')).rejects.toMatchObject({
      code: 'CONNECTION_LOST',
    });
  });
});

describe('IL2CPP (no metadata image, token lookups answer 0)', () => {
  it('lists names from the game, never asks for the blob, finds ids by name', async () => {
    profile = 'il2cpp';
    const w = makeGame();
    const { catalog, sent } = await attach(w.g);
    expect(await catalog.resolveType('Game.Probe')).toBe(w.probe.id);
    expect(await catalog.resolveType('Game.Outer+Inner`1')).toBe(w.inner.id);
    expect(sent('ASSEMBLY.GET_METADATA_BLOB')).toBe(0);
    expect(sent('ASSEMBLY.GET_TYPE_FROM_TOKEN')).toBe(0);
    expect(catalog.stats.listedBy['metadata-blob']).toBe(0);
    expect(catalog.stats.listedBy.fallback).toBeGreaterThan(0);
  });

  it('an assembly the game cannot list is reported unlisted, with IL2CPP as the blob reason', async () => {
    profile = 'il2cpp';
    const w = makeGame();
    const { catalog } = await attach(w.g, undefined, {
      listTypeNames: () => Promise.reject(new Error('main thread busy')),
    });
    const miss = await catalog.findTypes('Nothing*');
    expect(miss.unlisted.length).toBe(4);
    expect(miss.unlisted[0]!.reasons.join('; ')).toMatch(/IL2CPP keeps no metadata image/);
  });
});

describe('a token lookup answered with id 0', () => {
  it('falls back to the name instead of using type id 0', async () => {
    const w = makeGame();
    const { catalog, sent } = await attach(w.g);
    agent!.on('ASSEMBLY.GET_TYPE_FROM_TOKEN', () => ({ body: Buffer.from([0, 0, 0, 0]) }));
    expect(await catalog.resolveType('Game.Probe')).toBe(w.probe.id);
    expect(sent('ASSEMBLY.GET_TYPE_FROM_TOKEN')).toBeGreaterThan(0);
    expect(sent('ASSEMBLY.GET_TYPE')).toBeGreaterThan(0);
  });
});
