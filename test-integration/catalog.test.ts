// The type catalogue against the real fixture game under Mono 6.8's debugger agent: type search
// over every loaded assembly, ids, descriptions and members, and what it costs on the wire.

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { buildFixture } from '../fixtures/build.js';
import {
  readAssemblyMetadata,
  TypeCatalog,
  type MethodMember,
  type TypeMatch,
} from '../unity/catalog/index.js';
import { useAttachedFixture } from './support/attached-fixture.js';

const g = useAttachedFixture();
let catalog: TypeCatalog;

beforeAll(() => {
  catalog = new TypeCatalog(g.conn);
});

const signature = (m: MethodMember): string =>
  `${m.name}(${m.parameters.map((p) => p.type.name).join(', ')})`;

describe('findTypes', () => {
  // first in the file: it pays for listing every assembly
  it('finds Game.Probe by full name, and a repeat costs one command', async () => {
    let sent = g.conn.stats.commandsSent;
    let started = performance.now();
    const first = await catalog.findTypes('Game.Probe');
    const firstCost = {
      commands: g.conn.stats.commandsSent - sent,
      ms: performance.now() - started,
    };
    sent = g.conn.stats.commandsSent;
    started = performance.now();
    const again = await catalog.findTypes('Game.Probe');
    const againCost = {
      commands: g.conn.stats.commandsSent - sent,
      ms: performance.now() - started,
    };

    const [probe] = await g.conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
    const expected: Partial<TypeMatch> = {
      fullName: 'Game.Probe',
      namespace: 'Game',
      name: 'Probe',
      assembly: 'Assembly-CSharp',
      kind: 'class',
      match: 'exact',
      typeId: probe,
    };
    expect(first.matches).toEqual([expect.objectContaining(expected)]);
    expect(again.matches).toEqual(first.matches);
    expect(first.unlisted).toEqual([]);
    expect(againCost.commands).toBe(1); // APPDOMAIN.GET_ASSEMBLIES: assemblies load late
    console.log(
      `findTypes: first ${firstCost.commands} commands ${firstCost.ms.toFixed(0)} ms ` +
        `(${(catalog.stats.metadataBlobBytes / 1e6).toFixed(1)} MB of metadata, ` +
        `${catalog.stats.listedBy['metadata-blob']} assemblies); ` +
        `repeat ${againCost.commands} command ${againCost.ms.toFixed(1)} ms`,
    );
  });

  it('finds Probe by simple name and Game.* by pattern', async () => {
    const simple = await catalog.findTypes('Probe');
    expect(simple.matches.map((m) => [m.fullName, m.match])).toEqual([['Game.Probe', 'name']]);
    const game = await catalog.findTypes('Game.*', { limit: 100 });
    const names = game.matches.map((m) => m.fullName);
    expect(names).toEqual(
      expect.arrayContaining(['Game.Probe', 'Game.DerivedProbe', 'Game.Color']),
    );
    expect(game.matches.every((m) => m.assembly === 'Assembly-CSharp' && m.typeId)).toBe(true);
    expect(names).toEqual([...names].sort());
  });

  it('finds a nested generic by simple name, with the id the agent names the same', async () => {
    const found = await catalog.findTypes('NoAllocReadOnlyCollection');
    expect(found.matches).toMatchObject([
      {
        fullName: 'Unity.Entities.World+NoAllocReadOnlyCollection`1',
        namespace: 'Unity.Entities',
        name: 'NoAllocReadOnlyCollection`1',
        assembly: 'Unity.Entities',
        kind: 'struct',
      },
    ]);
    const info = await g.conn.send('TYPE.GET_INFO', { typeId: found.matches[0]!.typeId! });
    expect(info.fullName).toBe('Unity.Entities.World+NoAllocReadOnlyCollection`1');
  });

  it('lists the types of UnityEngine.CoreModule', async () => {
    const engine = await catalog.findTypes('*', {
      assembly: 'UnityEngine.CoreModule',
      limit: 1000,
    });
    const { dir } = await buildFixture();
    const onDisk = readAssemblyMetadata(readFileSync(path.join(dir, 'UnityEngine.CoreModule.dll')));
    expect(engine.truncated).toBe(false);
    expect(engine.total).toBe(onDisk.types.length - 1); // all but <Module>
    expect(engine.matches.map((m) => m.fullName)).toEqual(
      expect.arrayContaining([
        'UnityEngine.GameObject',
        'UnityEngine.MonoBehaviour',
        'Unity.Collections.NativeArray`1',
        'UnityEngine.LowLevel.PlayerLoopSystem',
      ]),
    );
    expect(new Set(engine.matches.map((m) => m.assembly))).toEqual(
      new Set(['UnityEngine.CoreModule']),
    );
  });

  it('names every type of the game assemblies exactly as the agent does', async () => {
    for (const assembly of ['Assembly-CSharp', 'Unity.Entities', 'Unity.Mathematics']) {
      const all = await catalog.findTypes('*', { assembly, limit: 1000 });
      const infos = await Promise.all(
        all.matches.map((m) => g.conn.send('TYPE.GET_INFO', { typeId: m.typeId! })),
      );
      expect(infos.map((i) => i.fullName)).toEqual(all.matches.map((m) => m.fullName));
    }
  });

  it('suggests Game.Probe for Game.Prbe', async () => {
    const miss = await catalog.findTypes('Game.Prbe');
    expect(miss).toMatchObject({ matches: [], total: 0, suggestions: ['Game.Probe'] });
    await expect(catalog.resolveType('Game.Prbe')).rejects.toMatchObject({
      code: 'TYPE_NOT_FOUND',
      message: expect.stringContaining('did you mean Game.Probe?'),
    });
  });

  it('measures the metadata blob of mscorlib', async () => {
    const [corlib] = await catalog.assemblies();
    expect(corlib!.name).toBe('mscorlib');
    const started = performance.now();
    const blob = await g.conn.send('ASSEMBLY.GET_METADATA_BLOB', {
      assemblyId: corlib!.assemblyId,
    });
    const ms = performance.now() - started;
    const location = await g.conn.send('ASSEMBLY.GET_LOCATION', { assemblyId: corlib!.assemblyId });
    expect(blob.equals(readFileSync(location))).toBe(true); // the whole file, byte for byte
    console.log(`mscorlib metadata blob: ${blob.length} bytes in ${ms.toFixed(0)} ms`);
  });
});

describe('the local-file route', () => {
  it('lists the same types from MVID-checked files, without transferring images', async () => {
    const local = new TypeCatalog(g.conn, { preferLocalFiles: true });
    const sent = g.conn.stats.commandsSent;
    const started = performance.now();
    const viaFiles = await local.findTypes('Game.*', { limit: 100 });
    const cost = { commands: g.conn.stats.commandsSent - sent, ms: performance.now() - started };
    const viaBlob = await catalog.findTypes('Game.*', { limit: 100 });
    expect(viaFiles.matches).toEqual(viaBlob.matches);
    expect(local.stats.metadataBlobBytes).toBe(0);
    expect(local.stats.listedBy.file).toBe((await local.assemblies()).length);
    console.log(`findTypes via local files: ${cost.commands} commands ${cost.ms.toFixed(0)} ms`);
  });
});

describe('describe', () => {
  it('describes Game.Probe: fields, properties, overloads, a generic method', async () => {
    const d = await catalog.describe('Game.Probe', { limit: 500 });
    expect(d).toMatchObject({ fullName: 'Game.Probe', kind: 'class', assembly: 'Assembly-CSharp' });
    expect(d.baseTypes.map((b) => b.name)).toEqual(['System.Object']);
    const field = (n: string) => d.fields!.items.find((f) => f.name === n);
    expect(field('SInt')).toMatchObject({ type: { name: 'System.Int32' }, isStatic: true });
    expect(field('SBig')).toMatchObject({ type: { name: 'System.String' }, isStatic: true });
    expect(field('IInt')).toMatchObject({ type: { name: 'System.Int32' }, isStatic: false });
    expect(field('SList')?.type.name).toBe('System.Collections.Generic.List`1[System.Int32]');
    const prop = (n: string) => d.properties!.items.find((p) => p.name === n);
    expect(prop('SProp')).toMatchObject({
      type: { name: 'System.Int32' },
      isStatic: true,
      setterId: 0,
    });
    expect(prop('Prop')).toMatchObject({
      type: { name: 'System.Int32' },
      isStatic: false,
      setterId: 0,
    });
    expect(prop('SAutoProp')?.setterId).not.toBe(0);
    const over = d.methods!.items.filter((m) => m.name === 'Over').map(signature);
    expect(over).toEqual([
      'Over(System.Int32)',
      'Over(System.Int64)',
      'Over(System.Double)',
      'Over(System.String)',
      'Over(System.Object)',
    ]);
    const echo = d.methods!.items.find((m) => m.name === 'Echo')!;
    expect(echo).toMatchObject({ genericArity: 1, isStatic: true, returnType: { name: 'T' } });
    expect(echo.parameters).toMatchObject([{ name: 'value', type: { name: 'T' } }]);
    expect(d.methods!.items.find((m) => m.name === 'Add')?.parameters.map((p) => p.name)).toEqual([
      'a',
      'b',
    ]);
  });

  it('describes Game.DerivedProbe with inherited members', async () => {
    const d = await catalog.describe('Game.DerivedProbe', { inherited: true, limit: 500 });
    expect(d.baseTypes.map((b) => b.name)).toEqual(['Game.Probe', 'System.Object']);
    const fieldsFrom = (n: string) => d.fields!.items.find((f) => f.name === n)?.declaringType.name;
    expect(fieldsFrom('Extra')).toBe('Game.DerivedProbe');
    expect(fieldsFrom('SInt')).toBe('Game.Probe');
    const describes = d.methods!.items.filter((m) => m.name === 'Describe');
    expect(describes.map((m) => m.declaringType.name)).toEqual(['Game.DerivedProbe']);
    const ctors = d.methods!.items.filter((m) => m.name === '.ctor');
    expect(ctors.map((m) => m.declaringType.name)).toEqual(['Game.DerivedProbe']);
    expect(d.methods!.items.some((m) => m.name === 'GetHashCode')).toBe(true);
    expect(d.properties!.items.find((p) => p.name === 'Prop')?.declaringType.name).toBe(
      'Game.Probe',
    );
    const declared = await catalog.describe('Game.DerivedProbe');
    expect(declared.fields!.items.map((f) => f.name)).toEqual(['Extra']);
  });

  it('tells enums and structs, including a generic struct instance', async () => {
    const color = await catalog.describe('Game.Color', { members: ['fields'] });
    expect(color.kind).toBe('enum');
    expect(color.fields!.items.filter((f) => f.isLiteral).map((f) => f.name)).toEqual([
      'Red',
      'Green',
      'Blue',
    ]);
    expect((await catalog.describe('Game.Point', { members: [] })).kind).toBe('struct');
    const float3 = await catalog.describe('Unity.Mathematics.float3', { members: ['fields'] });
    expect(float3.kind).toBe('struct');
    expect(
      float3.fields!.items.filter((f) => !f.isStatic).map((f) => `${f.type.name} ${f.name}`),
    ).toEqual(['System.Single x', 'System.Single y', 'System.Single z']);
    // Nullable<int>: TYPE.GET_INFO lacks the value-type bit; the base chain says struct
    const found = await catalog.findMember('Game.Probe', 'SNullableSet');
    const typeId = found.kind === 'field' ? found.field.type.typeId : 0;
    const nullable = await catalog.describe(typeId, { members: [] });
    expect(nullable).toMatchObject({
      kind: 'struct',
      name: 'System.Nullable`1[System.Int32]',
      genericArguments: [{ name: 'System.Int32' }],
    });
  });

  it('finds members by name and suggests close ones', async () => {
    const over = await catalog.findMember('Game.Probe', 'Over');
    expect(over.kind === 'method' && over.overloads).toHaveLength(5);
    expect(await catalog.findMember('Game.DerivedProbe', 'SInt')).toMatchObject({
      kind: 'field',
      field: { declaringType: { name: 'Game.Probe' } },
    });
    await expect(catalog.findMember('Game.Probe', 'sint')).rejects.toMatchObject({
      code: 'MEMBER_NOT_FOUND',
      suggestions: expect.arrayContaining(['SInt']),
    });
  });
});

describe('the metadata reader on the fixture assemblies', () => {
  it('reads them, with the MVID the agent reports for the loaded module', async () => {
    const { dir } = await buildFixture();
    const game = readAssemblyMetadata(readFileSync(path.join(dir, 'Assembly-CSharp.dll')));
    expect(game.types.map((t) => t.fullName)).toEqual(
      expect.arrayContaining(['Game.Probe', 'Game.DerivedProbe', 'Game.Color', 'Game.Point']),
    );
    const entities = readAssemblyMetadata(readFileSync(path.join(dir, 'Unity.Entities.dll')));
    const nested = entities.types.find((t) => t.name === 'NoAllocReadOnlyCollection`1');
    expect(nested).toMatchObject({
      fullName: 'Unity.Entities.World+NoAllocReadOnlyCollection`1',
      extends: 'System.ValueType',
    });
    const world = entities.types.find((t) => t.fullName === 'Unity.Entities.World');
    expect(nested?.enclosingToken).toBe(world?.token);

    const assembly = (await catalog.assemblies()).find((a) => a.name === 'Assembly-CSharp')!;
    const moduleId = await g.conn.send('ASSEMBLY.GET_MANIFEST_MODULE', {
      assemblyId: assembly.assemblyId,
    });
    const module = await g.conn.send('MODULE.GET_INFO', { moduleId });
    expect(module.guid).toBe(game.mvid);
  });
});
