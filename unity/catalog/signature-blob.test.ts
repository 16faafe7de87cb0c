import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MetadataFormatError, Region } from './pe-image.js';
import {
  decodeMethodSig,
  decodeTypeSpec,
  ElementType as E,
  SigCursor,
  type MethodSig,
  type SigType,
} from './signature-blob.js';
import { compressed, methodSig, sig, typeToken } from './testing/sig-builder.js';

const region = (bytes: ArrayLike<number>): Region => {
  const b = Uint8Array.from(bytes);
  return new Region(b, 0, b.length, 'blob');
};
const decode = (bytes: ArrayLike<number>): MethodSig => decodeMethodSig(region(bytes));

/** Decodes or throws MetadataFormatError; anything else fails the test. */
function decodesOrRejects(bytes: ArrayLike<number>): void {
  try {
    decode(bytes);
  } catch (e) {
    if (!(e instanceof MetadataFormatError)) throw e;
  }
}

describe('compressed integers (II.23.2)', () => {
  it.each([
    [[0x03], 0x03],
    [[0x7f], 0x7f],
    [[0x80, 0x80], 0x80],
    [[0xae, 0x57], 0x2e57],
    [[0xbf, 0xff], 0x3fff],
    [[0xc0, 0x00, 0x40, 0x00], 0x4000],
    [[0xdf, 0xff, 0xff, 0xff], 0x1fffffff],
  ])('%j is %i', (bytes, value) => {
    expect(new SigCursor(region(bytes), 'x').compressed()).toBe(value);
    expect(compressed(value)).toEqual(bytes);
  });

  it.each([
    [[0x06], 3],
    [[0x7b], -3],
    [[0x80, 0x80], 64],
    [[0x01], -64],
    [[0xc0, 0x00, 0x40, 0x00], 8192],
    [[0x80, 0x01], -8192],
    [[0xdf, 0xff, 0xff, 0xfe], 268435455],
    [[0xc0, 0x00, 0x00, 0x01], -268435456],
  ])('signed %j is %i', (bytes, value) => {
    expect(new SigCursor(region(bytes), 'x').compressedSigned()).toBe(value);
  });

  it('rejects a first byte of 111xxxxx and truncated encodings', () => {
    expect(() => new SigCursor(region([0xe0]), 'x').compressed()).toThrow(MetadataFormatError);
    expect(() => new SigCursor(region([0x80]), 'x').compressed()).toThrow(MetadataFormatError);
    expect(() => new SigCursor(region([0xc0, 0, 0]), 'x').compressed()).toThrow(
      MetadataFormatError,
    );
  });
});

describe('method signatures (II.23.2.1)', () => {
  it('reads the calling convention, generic arity, return type and parameters', () => {
    // static T Echo<T>(T value)
    expect(decode(methodSig({ genericArity: 1, ret: sig.mvar(0), params: [sig.mvar(0)] }))).toEqual(
      {
        callingConvention: 0x10,
        genericArity: 1,
        returnType: { kind: 'mvar', index: 0 },
        params: [{ kind: 'mvar', index: 0 }],
        varargStart: undefined,
      },
    );
    // instance bool TryParse(string, out int)
    const tryParse = decode(
      methodSig({ hasThis: true, ret: [E.BOOLEAN], params: [sig.string, sig.byRef(sig.int)] }),
    );
    expect(tryParse.callingConvention).toBe(0x20);
    expect(tryParse.params).toEqual([
      { kind: 'primitive', element: E.STRING },
      { kind: 'byref', element: { kind: 'primitive', element: E.I4 } },
    ]);
  });

  it('reads every type form: arrays with shapes, generic instances, pointers, fnptr, mods', () => {
    const matrix = [E.ARRAY, E.I4, 2, 1, 3, 2, ...[0x7b, 0x02]]; // int[-3..., 1...] rank 2, size 3
    const list = sig.genericInst(sig.class('ref', 5), [sig.int]);
    const fnptr = [E.FNPTR, ...methodSig({ ret: sig.int, params: [sig.string] })];
    const s = decode(
      methodSig({
        params: [
          matrix,
          list,
          [E.PTR, E.VOID],
          fnptr,
          sig.modreq(7, sig.byRef(sig.int)),
          sig.byRef(sig.modopt(8, sig.szArray(sig.var(1)))),
          [E.TYPEDBYREF],
          sig.valueType('spec', 2),
        ],
      }),
    );
    expect(s.params).toEqual([
      {
        kind: 'array',
        element: { kind: 'primitive', element: E.I4 },
        rank: 2,
        sizes: [3],
        lowerBounds: [-3, 1],
      },
      {
        kind: 'genericinst',
        generic: { kind: 'class', token: 0x01000005 },
        args: [{ kind: 'primitive', element: E.I4 }],
      },
      { kind: 'ptr', element: { kind: 'primitive', element: E.VOID } },
      {
        kind: 'fnptr',
        signature: {
          callingConvention: 0,
          genericArity: 0,
          returnType: { kind: 'primitive', element: E.I4 },
          params: [{ kind: 'primitive', element: E.STRING }],
          varargStart: undefined,
        },
      },
      {
        kind: 'byref',
        element: { kind: 'primitive', element: E.I4 },
        modifiers: [{ required: true, token: 0x01000007 }],
      },
      {
        kind: 'byref',
        element: {
          kind: 'szarray',
          element: { kind: 'var', index: 1 },
          modifiers: [{ required: false, token: 0x01000008 }],
        },
      },
      { kind: 'primitive', element: E.TYPEDBYREF },
      { kind: 'valuetype', token: 0x1b000002 },
    ]);
  });

  it('notes where varargs start in a call-site signature', () => {
    const s = decode([0x05, 2, E.VOID, E.I4, E.SENTINEL, E.STRING]);
    expect(s.varargStart).toBe(1);
    expect(s.params).toHaveLength(2);
  });

  it.each([
    ['a field signature', [0x06, E.I4], /not a method signature/],
    ['a property signature', [0x28, 0, E.I4], /not a method signature/],
    ['a void parameter', methodSig({ params: [sig.void] }), /VOID/],
    ['void[]', methodSig({ params: [sig.szArray(sig.void)] }), /VOID/],
    ['GENERIC with arity 0', [0x10, 0, 0, E.VOID], /generic parameter count/],
    ['a GENERICINST of an int', [0, 1, E.VOID, E.GENERICINST, E.I4, 1, E.I4], /GENERICINST/],
    ['no generic arguments', [0, 1, E.VOID, ...sig.genericInst(sig.class('ref', 1), [])], /0 gen/],
    ['a null type token', [0, 1, E.VOID, E.CLASS, 0x01], /TypeDefOrRefOrSpec/],
    ['tag 3 in a type token', [0, 1, E.VOID, E.CLASS, 0x07], /TypeDefOrRefOrSpec/],
    ['array rank 0', [0, 1, E.VOID, E.ARRAY, E.I4, 0, 0, 0], /rank 0/],
    ['more sizes than rank', [0, 1, E.VOID, E.ARRAY, E.I4, 1, 2, 1, 1, 0], /sizes/],
    ['an unknown element type', [0, 1, E.VOID, 0x17], /element type 0x17/],
    ['PINNED outside locals', [0, 1, E.VOID, E.PINNED, E.I4], /element type 0x45/],
    ['a second sentinel', [5, 2, E.VOID, E.SENTINEL, E.I4, E.SENTINEL, E.I4], /second/],
    ['trailing bytes', [...methodSig({ params: [sig.int] }), 0], /bytes after/],
    ['an empty blob', [], MetadataFormatError],
  ])('rejects %s', (_, bytes, error) => {
    expect(() => decode(bytes)).toThrow(error);
  });

  it('bounds nesting instead of overflowing the stack', () => {
    const deep = new Array<number>(100_000).fill(E.SZARRAY);
    expect(() => decode([0, 1, E.VOID, ...deep, E.I4])).toThrow(/nested too deeply/);
    expect(() => decode([0, 1, E.VOID, ...deep.slice(0, 60), E.I4])).not.toThrow();
  });

  it('fails every strict prefix of a valid signature', () => {
    const whole = methodSig({
      genericArity: 2,
      ret: sig.genericInst(sig.valueType('def', 3), [sig.mvar(1)]),
      params: [sig.byRef(sig.int), [E.ARRAY, E.R8, 3, 0, 0], sig.modopt(1, sig.string)],
    });
    expect(() => decode(whole)).not.toThrow();
    for (let n = 0; n < whole.length; n++) {
      expect(() => decode(whole.slice(0, n)), `length ${n}`).toThrow(MetadataFormatError);
    }
  });

  it('decodes what it is given back to the types that were encoded', () => {
    fc.assert(
      fc.property(fc.array(arbitraryType, { maxLength: 6 }), fc.nat(3), (types, arity) => {
        const bytes = methodSig({ genericArity: arity, params: types.map(encodeType) });
        expect(decode(bytes).params).toEqual(types);
      }),
      { numRuns: 500 },
    );
  });

  it('survives random and corrupted blobs without other errors', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => decodesOrRejects(bytes)),
      { numRuns: 5000 },
    );
    const valid = methodSig({
      params: [sig.byRef(sig.int), sig.genericInst(sig.class('ref', 1), [sig.string])],
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.nat(255)), { maxLength: 4 }),
        (edits) => {
          const bad = [...valid];
          for (const [at, v] of edits) bad[at] = v;
          decodesOrRejects(bad);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('TypeSpec blobs (II.23.2.14)', () => {
  it('reads one type and nothing more', () => {
    expect(decodeTypeSpec(region(sig.szArray(sig.int)))).toEqual({
      kind: 'szarray',
      element: { kind: 'primitive', element: E.I4 },
    });
    expect(() => decodeTypeSpec(region([E.I4, E.I4]))).toThrow(/bytes after/);
    expect(() => decodeTypeSpec(region([E.VOID]))).toThrow(/VOID/);
  });
});

const token = fc.tuple(
  fc.constantFrom<'def' | 'ref' | 'spec'>('def', 'ref', 'spec'),
  fc.integer({ min: 1, max: 0x3fffff }),
);
const tableOf = { def: 0x02, ref: 0x01, spec: 0x1b };
const primitives = [
  E.BOOLEAN,
  E.CHAR,
  E.I1,
  E.U1,
  E.I2,
  E.U2,
  E.I4,
  E.U4,
  E.I8,
  E.U8,
  E.R4,
  E.R8,
  E.STRING,
  E.I,
  E.U,
  E.OBJECT,
];

/** Types as signatures encode them (modifiers and fnptr left to the example tests). */
const { type: arbitraryType } = fc.letrec<{ type: SigType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...primitives).map((element): SigType => ({ kind: 'primitive', element })),
    fc
      .tuple(fc.constantFrom<'class' | 'valuetype'>('class', 'valuetype'), token)
      .map(([kind, [table, row]]): SigType => ({ kind, token: tableOf[table] * 0x1000000 + row })),
    fc
      .tuple(fc.constantFrom<'var' | 'mvar'>('var', 'mvar'), fc.nat(1000))
      .map(([kind, index]): SigType => ({ kind, index })),
    tie('type').map((element): SigType => ({ kind: 'szarray', element })),
    tie('type').map((element): SigType => ({ kind: 'byref', element })),
    tie('type').map((element): SigType => ({ kind: 'ptr', element })),
    fc
      .tuple(
        tie('type'),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(100000), { maxLength: 2 }),
        fc.array(fc.integer({ min: -100000, max: 100000 }), { maxLength: 2 }),
      )
      .map(([element, rank, sizes, bounds]): SigType => ({
        kind: 'array',
        element,
        rank: Math.max(rank, sizes.length, bounds.length),
        sizes,
        lowerBounds: bounds,
      })),
    fc
      .tuple(
        fc.constantFrom<'class' | 'valuetype'>('class', 'valuetype'),
        token,
        fc.array(tie('type'), { minLength: 1, maxLength: 3 }),
      )
      .map(([kind, [table, row], args]): SigType => ({
        kind: 'genericinst',
        generic: { kind, token: tableOf[table] * 0x1000000 + row },
        args,
      })),
  ),
}));

function encodeType(t: SigType): number[] {
  const tokenBytes = (tok: number): number[] => {
    const table = tok >>> 24;
    return typeToken(table === 0x02 ? 'def' : table === 0x01 ? 'ref' : 'spec', tok & 0xffffff);
  };
  const signed = (n: number): number[] => {
    // II.23.2: two's complement in 6, 13 or 28 bits, the sign bit rotated into bit 0, at the
    // width the value needs (-8192 takes two bytes although its code, 1, would fit in one)
    const width = n >= -64 && n < 64 ? 1 : n >= -8192 && n < 8192 ? 2 : 4;
    const bits = width === 1 ? 6 : width === 2 ? 13 : 28;
    const v = (n < 0 ? n + 2 ** bits : n) * 2 + (n < 0 ? 1 : 0);
    if (width === 1) return [v];
    if (width === 2) return [0x80 | (v >>> 8), v & 0xff];
    return [0xc0 | (v >>> 24), (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
  };
  switch (t.kind) {
    case 'primitive':
      return [t.element];
    case 'class':
      return [E.CLASS, ...tokenBytes(t.token)];
    case 'valuetype':
      return [E.VALUETYPE, ...tokenBytes(t.token)];
    case 'var':
      return sig.var(t.index);
    case 'mvar':
      return sig.mvar(t.index);
    case 'szarray':
      return [E.SZARRAY, ...encodeType(t.element)];
    case 'byref':
      return [E.BYREF, ...encodeType(t.element)];
    case 'ptr':
      return [E.PTR, ...encodeType(t.element)];
    case 'array':
      return [
        E.ARRAY,
        ...encodeType(t.element),
        ...compressed(t.rank),
        ...compressed(t.sizes.length),
        ...t.sizes.flatMap(compressed),
        ...compressed(t.lowerBounds.length),
        ...t.lowerBounds.flatMap(signed),
      ];
    case 'genericinst':
      return sig.genericInst(encodeType(t.generic), t.args.map(encodeType));
    case 'fnptr':
      throw new Error('not generated');
  }
}
