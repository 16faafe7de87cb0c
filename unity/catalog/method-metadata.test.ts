import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { MethodSignature } from './catalog-types.js';
import { MetadataFormatError, MetadataImage } from './metadata-reader.js';
import { MethodDefinitions, ParamAttributes as PA } from './method-metadata.js';
import { ElementType as E } from './signature-blob.js';
import {
  buildImage,
  type SynthImage,
  type SynthMethod,
  type SynthParam,
} from './testing/pe-builder.js';
import { constantBytes, methodSig, sig } from './testing/sig-builder.js';

const OPT = PA.Optional | PA.HasDefault;
const PARAMS = { memberRef: 1 };
const READ_ONLY = { memberRef: 2 };
const OBSOLETE = { memberRef: 3 };

const p = (name: string, sequence: number, more: Partial<SynthParam> = {}): SynthParam => ({
  name,
  sequence,
  ...more,
});
const withDefault = (
  name: string,
  sequence: number,
  type: number,
  value: boolean | number | bigint | string | null,
  flags: number = OPT,
): SynthParam =>
  p(name, sequence, { flags, constant: { type, value: constantBytes(type, value) } });

/** The methods of the synthetic `Game.Api`, in MethodDef row order (row n = token 0x0600000n). */
const API: SynthMethod[] = [
  {
    name: 'TryParse',
    signature: methodSig({ ret: [E.BOOLEAN], params: [sig.string, sig.byRef(sig.int)] }),
    params: [p('s', 1), p('value', 2, { flags: PA.Out })],
  },
  {
    name: 'Swap',
    signature: methodSig({ params: [sig.byRef(sig.int), sig.byRef(sig.int)] }),
    params: [p('a', 1), p('b', 2)],
  },
  {
    // in int x, on a virtual method: modreq(InAttribute) before BYREF, as Roslyn writes it
    name: 'ReadIn',
    signature: methodSig({ hasThis: true, params: [sig.modreq(7, sig.byRef(sig.int))] }),
    params: [p('x', 1, { flags: PA.In, attributes: [READ_ONLY] })],
  },
  {
    // [In, Out] ref int io, [Out] int[] buffer, [In] ref int inOnly, IsReadOnly without In
    name: 'Modes',
    signature: methodSig({
      params: [sig.byRef(sig.int), sig.szArray(sig.int), sig.byRef(sig.int), sig.byRef(sig.int)],
    }),
    params: [
      p('io', 1, { flags: PA.In | PA.Out }),
      p('buffer', 2, { flags: PA.Out }),
      p('inOnly', 3, { flags: PA.In }),
      p('readOnly', 4, { attributes: [READ_ONLY] }),
    ],
  },
  {
    name: 'Defaults',
    signature: methodSig({
      params: [
        [E.BOOLEAN],
        [E.CHAR],
        [E.I1],
        [E.U1],
        [E.I2],
        [E.U2],
        [E.I4],
        [E.U4],
        [E.I8],
        [E.U8],
        [E.R4],
        [E.R8],
        [E.STRING],
        sig.valueType('ref', 8), // an enum: its default is its underlying integer
      ],
    }),
    params: [
      withDefault('b', 1, E.BOOLEAN, true),
      withDefault('c', 2, E.CHAR, 0x78),
      withDefault('sb', 3, E.I1, -5),
      withDefault('by', 4, E.U1, 250),
      withDefault('s', 5, E.I2, -300),
      withDefault('us', 6, E.U2, 60000),
      withDefault('i', 7, E.I4, -2147483648),
      withDefault('ui', 8, E.U4, 4294967295),
      withDefault('l', 9, E.I8, -(2n ** 63n)),
      withDefault('ul', 10, E.U8, 2n ** 64n - 1n),
      withDefault('f', 11, E.R4, 1.5),
      withDefault('d', 12, E.R8, -0.25),
      withDefault('str', 13, E.STRING, 'h\u00e9'),
      withDefault('alloc', 14, E.I4, 2),
    ],
  },
  {
    // string s = null, object o = null, int? n = null, int[] a = null,
    // CancellationToken ct = default, T t = default(T) (mcs writes both as null constants)
    name: 'Nulls',
    signature: methodSig({
      genericArity: 1,
      params: [
        sig.string,
        sig.object,
        sig.genericInst(sig.valueType('ref', 5), [sig.int]),
        sig.szArray(sig.int),
        sig.valueType('ref', 6),
        sig.mvar(0),
      ],
    }),
    params: ['s', 'o', 'n', 'a', 'ct', 't'].map((n, i) => withDefault(n, i + 1, E.CLASS, null)),
  },
  {
    // [Optional] int x; [DefaultParameterValue(3)] int z; Optional + HasDefault, no Constant row
    name: 'Odd',
    signature: methodSig({ params: [sig.int, sig.int, sig.int] }),
    params: [
      p('x', 1, { flags: PA.Optional }),
      withDefault('z', 2, E.I4, 3, PA.HasDefault),
      p('y', 3, { flags: OPT }),
    ],
  },
  {
    name: 'Format',
    signature: methodSig({ ret: sig.string, params: [sig.string, sig.szArray(sig.object)] }),
    params: [p('fmt', 1, { attributes: [OBSOLETE] }), p('args', 2, { attributes: [PARAMS] })],
  },
  {
    name: 'Echo',
    signature: methodSig({ genericArity: 1, ret: sig.mvar(0), params: [sig.mvar(0)] }),
    params: [p('value', 1)],
  },
  {
    // mcs writes no Param rows for lambdas
    name: '<Main>m__0',
    signature: methodSig({ params: [sig.object, sig.byRef(sig.int)] }),
  },
  {
    // a row for the return value, one past the last parameter, and parameter 1 last
    name: 'Rows',
    signature: methodSig({ ret: sig.int, params: [sig.int, sig.int] }),
    params: [p('', 0, { flags: 0x2000 }), p('second', 2), p('ghost', 3), p('first', 1)],
  },
  {
    name: 'Instance',
    flags: 0x86,
    signature: methodSig({ hasThis: true, params: [sig.int] }),
    params: [withDefault('x', 1, E.I4, 7)],
  },
];

/** `System.ParamArrayAttribute` defined in the image itself, as in mscorlib. */
const LOCAL_PARAMS: SynthMethod[] = [
  { name: '.ctor', flags: 0x1886, signature: methodSig({ hasThis: true, params: [] }) },
];
const JOIN: SynthMethod = {
  name: 'Join',
  signature: methodSig({ ret: sig.string, params: [sig.szArray(sig.string)] }),
  params: [p('values', 1, { attributes: [{ methodDef: API.length + 1 }] })],
};

function apiSpec(overrides: Partial<SynthImage> = {}): SynthImage {
  return {
    typeRefs: [
      { namespace: 'System', name: 'Object' },
      { namespace: 'System', name: 'ParamArrayAttribute' },
      { namespace: 'System.Runtime.CompilerServices', name: 'IsReadOnlyAttribute' },
      { namespace: 'System', name: 'ObsoleteAttribute' },
      { namespace: 'System', name: 'Nullable`1' },
      { namespace: 'System.Threading', name: 'CancellationToken' },
      { namespace: 'System.Runtime.InteropServices', name: 'InAttribute' },
      { namespace: 'Unity.Collections', name: 'Allocator' },
    ],
    memberRefs: [2, 3, 4].map((typeRef) => ({
      parent: { typeRef },
      name: '.ctor',
      signature: methodSig({ hasThis: true, params: [] }),
    })),
    types: [
      { namespace: 'Game', name: 'Api', extendsRef: 1, methods: API },
      { namespace: 'System', name: 'ParamArrayAttribute', extendsRef: 1, methods: LOCAL_PARAMS },
      { namespace: 'Game', name: 'Local', extendsRef: 1, methods: [JOIN] },
    ],
    ...overrides,
  };
}

const open = (spec: SynthImage = apiSpec()): MethodDefinitions =>
  new MethodDefinitions(new MetadataImage(buildImage(spec)));
const tokenOf = (name: string): number => 0x06000001 + API.findIndex((m) => m.name === name);
const signatureOf = (name: string, defs = open()): MethodSignature => defs.signature(tokenOf(name));
const param = (name: string, refKind = 'none', more: object = {}): object => ({
  name,
  refKind,
  optional: false,
  isParams: false,
  ...more,
});

describe('refKind', () => {
  it('tells out, ref and in apart by flags, BYREF and IsReadOnlyAttribute', () => {
    expect(signatureOf('TryParse').parameters).toEqual([param('s'), param('value', 'out')]);
    expect(signatureOf('Swap').parameters).toEqual([param('a', 'ref'), param('b', 'ref')]);
    expect(signatureOf('ReadIn').parameters).toEqual([param('x', 'in')]);
    expect(signatureOf('Modes').parameters).toEqual([
      param('io', 'ref'), // [In, Out] ref
      param('buffer'), // [Out] int[]: an out flag without BYREF is by value
      param('inOnly', 'in'),
      param('readOnly', 'in'),
    ]);
  });
});

describe('optional parameters', () => {
  it('gives every constant kind, enums as their underlying integer', () => {
    expect(
      signatureOf('Defaults').parameters.map((x) => [x.name, x.optional, x.defaultValue]),
    ).toEqual([
      ['b', true, { kind: 'bool', value: true }],
      ['c', true, { kind: 'char', value: 0x78 }],
      ['sb', true, { kind: 'sbyte', value: -5 }],
      ['by', true, { kind: 'byte', value: 250 }],
      ['s', true, { kind: 'short', value: -300 }],
      ['us', true, { kind: 'ushort', value: 60000 }],
      ['i', true, { kind: 'int', value: -2147483648 }],
      ['ui', true, { kind: 'uint', value: 4294967295 }],
      ['l', true, { kind: 'long', value: -(2n ** 63n) }],
      ['ul', true, { kind: 'ulong', value: 2n ** 64n - 1n }],
      ['f', true, { kind: 'float', value: 1.5 }],
      ['d', true, { kind: 'double', value: -0.25 }],
      ['str', true, { kind: 'string', value: 'h\u00e9' }],
      ['alloc', true, { kind: 'int', value: 2 }],
    ]);
  });

  it('keeps null for types that admit it, and means default(T) for those that do not', () => {
    const nulls = signatureOf('Nulls');
    expect(nulls.genericArity).toBe(1);
    expect(nulls.parameters.map((x) => [x.name, x.optional, x.defaultValue])).toEqual([
      ['s', true, { kind: 'null' }],
      ['o', true, { kind: 'null' }],
      ['n', true, { kind: 'null' }], // Nullable<int>
      ['a', true, { kind: 'null' }],
      ['ct', true, undefined], // a struct: default(CancellationToken)
      ['t', true, undefined], // a method type parameter: default(T)
    ]);
    // the definition itself still says what the metadata says
    expect(open().method(tokenOf('Nulls')).params[4]!.defaultValue).toEqual({ kind: 'null' });
  });

  it('follows the Optional flag, and a default only with a Constant row', () => {
    expect(signatureOf('Odd').parameters).toEqual([
      param('x', 'none', { optional: true }),
      param('z'), // DefaultParameterValue without Optional: C# still requires it
      param('y', 'none', { optional: true }),
    ]);
    expect(signatureOf('Instance').parameters).toEqual([
      param('x', 'none', { optional: true, defaultValue: { kind: 'int', value: 7 } }),
    ]);
  });
});

describe('params and generics', () => {
  it('finds ParamArrayAttribute through a MemberRef or a MethodDef constructor', () => {
    expect(signatureOf('Format').parameters).toEqual([
      param('fmt'),
      param('args', 'none', { isParams: true }),
    ]);
    const defs = open();
    const join = defs.methodsOf(0x02000004)[0]!;
    expect(defs.signature(join).parameters).toEqual([param('values', 'none', { isParams: true })]);
  });

  it('reads the generic arity from the signature', () => {
    expect(signatureOf('Echo')).toEqual({ genericArity: 1, parameters: [param('value')] });
    expect(signatureOf('TryParse').genericArity).toBe(0);
  });
});

describe('Param rows', () => {
  it('names parameters without rows "", and ignores rows outside the signature', () => {
    expect(signatureOf('<Main>m__0').parameters).toEqual([param(''), param('', 'ref')]);
    expect(signatureOf('Rows').parameters).toEqual([param('first'), param('second')]);
  });

  it('reads the whole definition: flags, types, names', () => {
    const defs = open();
    const m = defs.method(tokenOf('Instance'));
    expect(m).toMatchObject({ token: tokenOf('Instance'), name: 'Instance', flags: 0x86 });
    expect(m.signature.callingConvention).toBe(0x20);
    const names = (name: string): string[] =>
      defs.method(tokenOf(name)).params.map((x) => defs.names.typeName(x.type));
    expect(names('TryParse')).toEqual(['System.String', 'System.Int32&']);
    expect(names('Nulls')).toEqual([
      'System.String',
      'System.Object',
      'System.Nullable`1[System.Int32]',
      'System.Int32[]',
      'System.Threading.CancellationToken',
      '!!0',
    ]);
    expect(names('Format')).toEqual(['System.String', 'System.Object[]']);
  });

  it('lists the methods of each type', () => {
    const defs = open();
    expect(defs.methodsOf(0x02000001)).toEqual([]); // <Module>
    expect(defs.methodsOf(0x02000002)).toEqual(API.map((_, i) => 0x06000001 + i));
    expect(defs.methodsOf(0x02000003)).toEqual([0x06000001 + API.length]);
  });

  it('reads the same through wide heap, table and coded indexes', () => {
    const expected = API.map((_, i) => open().signature(0x06000001 + i));
    // 2100 Param rows: HasCustomAttribute (5 tag bits) needs 4 bytes
    const filler: SynthMethod = {
      name: 'Many',
      signature: methodSig({ params: Array.from({ length: 2100 }, () => sig.int) }),
      params: Array.from({ length: 2100 }, (_, i) => p(`p${i}`, i + 1)),
    };
    const spec = apiSpec();
    spec.types.push({ namespace: 'Game', name: 'Filler', methods: [filler] });
    for (const s of [spec, { ...spec, wideStrings: true, wideBlobs: true }]) {
      const defs = open(s);
      expect(API.map((_, i) => defs.signature(0x06000001 + i))).toEqual(expected);
      expect(defs.signature(0x06000001 + API.length + 2).parameters).toHaveLength(2100);
    }
  });
});

describe('malformed images', () => {
  it('rejects tokens that name no MethodDef', () => {
    const defs = open();
    expect(() => defs.method(0x06000000 | 999)).toThrow(MetadataFormatError);
    expect(() => defs.method(0x06000000)).toThrow(MetadataFormatError);
    expect(() => defs.method(0x02000002)).toThrow(/not a MethodDef token/);
    expect(() => defs.methodsOf(0x06000001)).toThrow(/not a TypeDef token/);
  });

  it('rejects param lists outside the Param table or running backwards', () => {
    const bad = (paramList: number): SynthImage =>
      apiSpec({
        types: [{ namespace: 'G', name: 'T', methods: [{ ...API[0]!, paramList }, API[1]!] }],
      });
    expect(() => open(bad(99)).method(0x06000001)).toThrow(/params of 0x6000001/);
    expect(() => open(bad(4)).method(0x06000001)).toThrow(MetadataFormatError);
    expect(() => open(bad(0)).method(0x06000001)).toThrow(MetadataFormatError);
  });

  it('throws MetadataFormatError for any signature or constant blob', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 24 }),
        fc.nat(0x20),
        fc.uint8Array({ maxLength: 10 }),
        (signature, type, value) => {
          const m: SynthMethod = {
            name: 'M',
            signature,
            params: [
              p('a', 1, { flags: OPT, constant: { type, value } }),
              p('b', 2, { flags: OPT }),
            ],
          };
          const defs = open(apiSpec({ types: [{ namespace: 'G', name: 'T', methods: [m] }] }));
          try {
            defs.signature(0x06000001);
          } catch (e) {
            expect(e).toBeInstanceOf(MetadataFormatError);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('survives corruption of the tables and heaps without other errors or hangs', () => {
    const image = buildImage(apiSpec());
    const start = image.indexOf(0x23, 0x200); // the metadata root's first stream header "#~"
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: start, max: image.length - 1 }), fc.nat(255)), {
          minLength: 1,
          maxLength: 6,
        }),
        (edits) => {
          const bad = image.slice();
          for (const [at, v] of edits) bad[at] = v;
          try {
            const defs = new MethodDefinitions(new MetadataImage(bad));
            for (let i = 1; i <= API.length + 2; i++) defs.signature(0x06000000 | i);
          } catch (e) {
            expect(e).toBeInstanceOf(MetadataFormatError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
