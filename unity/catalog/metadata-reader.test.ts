import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

import { MetadataFormatError, readAssemblyMetadata } from './metadata-reader.js';
import { buildImage, type SynthImage } from './testing/pe-builder.js';

const MSCORLIB = '/usr/lib/mono/4.5/mscorlib.dll';
const SYSTEM = '/usr/lib/mono/4.5/System.dll';
const haveMono = existsSync(MSCORLIB) && hasCommand('mcs') && hasCommand('mono');

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const names = (spec: SynthImage): string[] =>
  readAssemblyMetadata(buildImage(spec)).types.map((t) => t.fullName);

/** Either reads the image or throws MetadataFormatError; anything else fails the test. */
function readsOrRejects(image: Uint8Array): void {
  try {
    readAssemblyMetadata(image);
  } catch (e) {
    if (!(e instanceof MetadataFormatError)) throw e;
  }
}

describe('synthetic images', () => {
  const base: SynthImage = {
    typeRefs: [
      { namespace: 'System', name: 'Object' },
      { namespace: 'System', name: 'ValueType' },
      { namespace: 'Outer', name: 'Base`1' },
      { namespace: '', name: 'Nested', nestedIn: 3 },
    ],
    types: [
      { namespace: 'Game', name: 'Probe', extendsRef: 1 },
      { namespace: '', name: 'Collection`1', nestedIn: 1, extendsRef: 2 },
      { namespace: '', name: 'Enumerator', nestedIn: 2 },
      { namespace: '', name: 'TopLevel', extendsRef: 4 },
      { namespace: 'A.B', name: 'Weird+Name[,]', extendsDef: 1 },
      { namespace: 'ignored', name: 'NestedWithNs', nestedIn: 1, flags: 0xa1 },
    ],
  };

  it('names nested, generic, namespace-less and escaped types like Mono', () => {
    const m = readAssemblyMetadata(buildImage(base));
    expect(m.types.map((t) => [t.token, t.fullName, t.enclosingToken, t.extends])).toEqual([
      [0x02000001, '<Module>', 0, undefined],
      [0x02000002, 'Game.Probe', 0, 'System.Object'],
      [0x02000003, 'Game.Probe+Collection`1', 0x02000002, 'System.ValueType'],
      [0x02000004, 'Game.Probe+Collection`1+Enumerator', 0x02000003, undefined],
      [0x02000005, 'TopLevel', 0, 'Outer.Base`1+Nested'],
      [0x02000006, 'A.B.Weird\\+Name\\[\\,\\]', 0, 'Game.Probe'],
      [0x02000007, 'Game.Probe+NestedWithNs', 0x02000002, undefined],
    ]);
    expect(m.types[6]).toMatchObject({ namespace: 'ignored', name: 'NestedWithNs', flags: 0xa1 });
    expect(m.mvid).toBe('ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB');
  });

  it('formats the MVID like MODULE.GET_INFO', () => {
    const mvid = Uint8Array.from([...Array(16).keys()]);
    expect(readAssemblyMetadata(buildImage({ ...base, mvid })).mvid).toBe(
      '03020100-0504-0706-0809-0A0B0C0D0E0F',
    );
  });

  it('reads PE32+, #- streams and 4-byte string indexes', () => {
    const expected = names(base);
    expect(names({ ...base, pe32Plus: true })).toEqual(expected);
    expect(names({ ...base, tablesStream: '#-' })).toEqual(expected);
    expect(names({ ...base, wideStrings: true })).toEqual(expected);
  });

  it('widens coded and table indexes for large tables', () => {
    // 70000 TypeDefs: 4-byte TypeDef indexes in NestedClass, 4-byte TypeDefOrRef, wide strings
    const types = Array.from({ length: 70000 }, (_, i) => ({
      namespace: 'N',
      name: `T${i}`,
      ...(i === 69999 ? { nestedIn: 69999 } : {}),
    }));
    const m = readAssemblyMetadata(buildImage({ types }));
    expect(m.types).toHaveLength(70001);
    expect(m.types[70000]!.fullName).toBe('N.T69998+T69999');
  });

  it('rejects nesting cycles and rows outside the TypeDef table', () => {
    expect(() =>
      names({
        ...base,
        nestedRows: [
          [2, 3],
          [3, 2],
        ],
      }),
    ).toThrow(/nested in itself/);
    expect(() => names({ ...base, nestedRows: [[2, 2]] })).toThrow(MetadataFormatError);
    expect(() => names({ ...base, nestedRows: [[2, 99]] })).toThrow(/outside the TypeDef table/);
    const cyclicRefs = { ...base, typeRefs: [{ namespace: '', name: 'A', nestedIn: 1 }] };
    expect(() =>
      names({ ...cyclicRefs, types: [{ namespace: 'X', name: 'Y', extendsRef: 1 }] }),
    ).toThrow(/nested in itself/);
  });

  it('rejects things that are not .NET images', () => {
    expect(() => readAssemblyMetadata(new Uint8Array(0))).toThrow(/no MZ signature/);
    expect(() => readAssemblyMetadata(Buffer.from('MZ' + '\0'.repeat(100)))).toThrow(
      MetadataFormatError,
    );
    const image = buildImage(base);
    const noCli = image.slice();
    noCli.fill(0, 0x80 + 24 + 96 + 14 * 8, 0x80 + 24 + 96 + 15 * 8);
    expect(() => readAssemblyMetadata(noCli)).toThrow(/empty CLI header/);
  });

  it('fails every truncation with MetadataFormatError, or reads the same types', () => {
    const image = buildImage(base);
    const whole = names(base);
    let rejected = 0;
    for (let n = 0; n < image.length; n++) {
      try {
        // only cutting the section's trailing padding leaves the metadata whole
        expect(readAssemblyMetadata(image.subarray(0, n)).types.map((t) => t.fullName)).toEqual(
          whole,
        );
      } catch (e) {
        expect(e, `length ${n}`).toBeInstanceOf(MetadataFormatError);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(image.length - 0x200);
  });

  it('survives random corruption without other errors or hangs', () => {
    const image = buildImage(base);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(image.length - 1), fc.nat(255)), { minLength: 1, maxLength: 8 }),
        (edits) => {
          const bad = image.slice();
          for (const [at, v] of edits) bad[at] = v;
          readsOrRejects(bad);
        },
      ),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => readsOrRejects(bytes)),
      { numRuns: 500 },
    );
  });
});

describe.runIf(existsSync(MSCORLIB))('mscorlib', () => {
  const image = existsSync(MSCORLIB) ? readFileSync(MSCORLIB) : Buffer.alloc(0);

  it('lists every type with nesting, arity and base types', () => {
    const m = readAssemblyMetadata(image);
    const byName = new Map(m.types.map((t) => [t.fullName, t]));
    expect(m.types.length).toBeGreaterThan(2500);
    expect(m.mvid).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$/);
    expect(byName.get('System.Collections.Generic.List`1')?.extends).toBe('System.Object');
    expect(byName.get('System.Collections.Generic.List`1+Enumerator')?.extends).toBe(
      'System.ValueType',
    );
    expect(byName.has('System.Collections.Generic.Dictionary`2+KeyCollection+Enumerator')).toBe(
      true,
    );
    expect(byName.get('System.Environment+SpecialFolder')?.extends).toBe('System.Enum');
    expect(byName.get('System.IDisposable')?.flags).toBe(0xa1); // public abstract interface
  });

  it('survives corruption of its headers and tables', () => {
    const tablesAt = image.indexOf(Buffer.from('#~\0'));
    expect(tablesAt).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(0x4000), fc.nat(255)), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (edits, inHeader) => {
          const bad = Buffer.from(image);
          for (const [at, v] of edits) bad[inHeader ? at % 0x400 : tablesAt + at] = v;
          readsOrRejects(bad);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('fails truncations with MetadataFormatError', () => {
    fc.assert(
      fc.property(fc.nat(image.length - 0x10000), (n) => {
        expect(() => readAssemblyMetadata(image.subarray(0, n))).toThrow(MetadataFormatError);
      }),
      { numRuns: 100 },
    );
  });
});

describe.runIf(haveMono)('against System.Reflection', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-reflection-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives exactly Assembly.GetTypes(): full names and tokens', { timeout: 60_000 }, () => {
    const source = path.join(dir, 'ListTypes.cs');
    const exe = path.join(dir, 'ListTypes.exe');
    writeFileSync(
      source,
      `using System; using System.Reflection;
       class P { static void Main(string[] a) { foreach (var p in a) {
         Type[] ts; try { ts = Assembly.LoadFrom(p).GetTypes(); }
         catch (ReflectionTypeLoadException e) { ts = e.Types; }
         foreach (var t in ts) if (t != null)
           Console.WriteLine(p + " " + t.MetadataToken.ToString("x8") + " " + t.FullName); } } }`,
    );
    execFileSync('mcs', [`-out:${exe}`, source], { stdio: 'pipe' });
    const assemblies = [MSCORLIB, SYSTEM].filter((p) => existsSync(p));
    const reflected = execFileSync('mono', [exe, ...assemblies], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .trim()
      .split('\n')
      .sort();
    const ours = assemblies
      .flatMap((p) =>
        readAssemblyMetadata(readFileSync(p))
          .types.filter((t) => t.name !== '<Module>')
          .map((t) => `${p} ${t.token.toString(16).padStart(8, '0')} ${t.fullName}`),
      )
      .sort();
    expect(ours.length).toBeGreaterThan(4000);
    expect(ours).toEqual(reflected);
  });
});
