import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { DefaultValue } from './catalog-types.js';
import { decodeConstant } from './constant-blob.js';
import { MetadataFormatError, Region } from './pe-image.js';
import { ElementType as E } from './signature-blob.js';
import { constantBytes } from './testing/sig-builder.js';

/** The blob placed inside a larger buffer, at an odd offset: reads must respect both. */
function decode(type: number, bytes: ArrayLike<number>): DefaultValue {
  const buffer = new Uint8Array(bytes.length + 7).fill(0xee);
  buffer.set(Array.from(bytes), 3);
  return decodeConstant(type, new Region(buffer, 3, 3 + bytes.length, 'constant'));
}

describe('constants (II.22.9)', () => {
  it.each<[string, number, boolean | number | bigint | string | null, DefaultValue]>([
    ['true', E.BOOLEAN, true, { kind: 'bool', value: true }],
    ['false', E.BOOLEAN, false, { kind: 'bool', value: false }],
    ["'x'", E.CHAR, 0x78, { kind: 'char', value: 0x78 }],
    ["'\\uffff'", E.CHAR, 0xffff, { kind: 'char', value: 0xffff }],
    ['sbyte -128', E.I1, -128, { kind: 'sbyte', value: -128 }],
    ['byte 255', E.U1, 255, { kind: 'byte', value: 255 }],
    ['short -32768', E.I2, -32768, { kind: 'short', value: -32768 }],
    ['ushort 65535', E.U2, 65535, { kind: 'ushort', value: 65535 }],
    ['int -2147483648', E.I4, -2147483648, { kind: 'int', value: -2147483648 }],
    ['uint 4294967295', E.U4, 4294967295, { kind: 'uint', value: 4294967295 }],
    ['long min', E.I8, -(2n ** 63n), { kind: 'long', value: -(2n ** 63n) }],
    ['ulong max', E.U8, 2n ** 64n - 1n, { kind: 'ulong', value: 2n ** 64n - 1n }],
    ['float 0.1f', E.R4, 0.1, { kind: 'float', value: Math.fround(0.1) }],
    ['float -inf', E.R4, -Infinity, { kind: 'float', value: -Infinity }],
    ['double -0.0', E.R8, -0, { kind: 'double', value: -0 }],
    ['double max', E.R8, Number.MAX_VALUE, { kind: 'double', value: Number.MAX_VALUE }],
    ['""', E.STRING, '', { kind: 'string', value: '' }],
    [
      'a string',
      E.STRING,
      'h\u00e9llo \u65e5\u672c \u{1f600}',
      { kind: 'string', value: 'h\u00e9llo \u65e5\u672c \u{1f600}' },
    ],
    ['a lone surrogate', E.STRING, 'a\ud800b', { kind: 'string', value: 'a\ud800b' }],
    ['null', E.CLASS, null, { kind: 'null' }],
  ])('%s', (_, type, value, expected) => {
    expect(decode(type, constantBytes(type, value))).toEqual(expected);
  });

  it('reads NaN payloads as NaN and keeps long strings whole', () => {
    const nan = decode(E.R8, [1, 0, 0, 0, 0, 0, 0xf8, 0x7f]);
    expect(nan.kind === 'double' && Number.isNaN(nan.value)).toBe(true);
    const long = 'abc\u00df'.repeat(5000);
    expect(decode(E.STRING, constantBytes(E.STRING, long))).toEqual({
      kind: 'string',
      value: long,
    });
  });

  it.each([
    ['a bool of two bytes', E.BOOLEAN, [1, 0], /bool constant of 2 bytes/],
    ['an int of three bytes', E.I4, [1, 2, 3], /int constant of 3 bytes/],
    ['a long of four bytes', E.I8, [1, 2, 3, 4], /long constant of 4 bytes/],
    ['a double of no bytes', E.R8, [], /double constant of 0 bytes/],
    ['a string of odd length', E.STRING, [0x41, 0, 0x42], /odd length/],
    ['a null of 8 bytes', E.CLASS, [0, 0, 0, 0, 0, 0, 0, 0], /null constant of 8 bytes/],
    ['a class constant that is not null', E.CLASS, [1, 0, 0, 0], /other than null/],
    ['a value type constant', E.VALUETYPE, [0, 0, 0, 0], /element type 0x11/],
    ['an object constant', E.OBJECT, [0, 0, 0, 0], /element type 0x1c/],
  ])('rejects %s', (_, type, bytes, error) => {
    expect(() => decode(type, bytes)).toThrow(error);
  });

  it('decodes any element type and bytes, or throws MetadataFormatError', () => {
    fc.assert(
      fc.property(fc.nat(0x50), fc.uint8Array({ maxLength: 12 }), (type, bytes) => {
        try {
          decode(type, bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(MetadataFormatError);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('round-trips every int, double and string', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.double(),
        fc.string({ unit: 'binary' }),
        (i, d, s) => {
          expect(decode(E.I4, constantBytes(E.I4, i))).toEqual({ kind: 'int', value: i });
          expect(decode(E.R8, constantBytes(E.R8, d))).toEqual({ kind: 'double', value: d });
          expect(decode(E.STRING, constantBytes(E.STRING, s))).toEqual({
            kind: 'string',
            value: s,
          });
        },
      ),
    );
  });
});
