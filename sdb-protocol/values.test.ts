import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { PacketReader } from './buffer-reader.js';
import { PacketWriter } from './buffer-writer.js';
import { KnownIds } from './known-ids.js';
import { readValue, writeValue, Values, type Value } from './values.js';
import { ValueTag } from './vocabulary.js';
import { ProtocolVersion } from './version.js';

const v54 = new ProtocolVersion(2, 54);
const v45 = new ProtocolVersion(2, 45);

function decode(hex: string, v = v54): Value {
  return readValue(new PacketReader(Buffer.from(hex.replace(/\s+/g, ''), 'hex')), v);
}

function encode(value: Value, v = v54, known?: KnownIds): string {
  const w = new PacketWriter(known);
  writeValue(w, value, v);
  return w.body().toString('hex');
}

describe('readValue (what the agent sends)', () => {
  it.each<[string, string, Value]>([
    ['bool', '02 00000001', { kind: 'bool', value: true }],
    ['char is masked from its sign extension', '03 ffffffe9', { kind: 'char', value: 0xffe9 }],
    ['i1 sign-extended', '04 ffffff9c', { kind: 'i1', value: -100 }],
    ['u1 200 arrives as -56', '05 ffffffc8', { kind: 'u1', value: 200 }],
    ['i2', '06 ffff8ad0', { kind: 'i2', value: -30000 }],
    ['u2 60000 arrives sign-extended', '07 ffffea60', { kind: 'u2', value: 60000 }],
    ['i4', '08 f8a432eb', { kind: 'i4', value: -123456789 }],
    ['u4 reinterpreted', '09 ee6b2800', { kind: 'u4', value: 4000000000 }],
    ['i8 beyond 2^53', '0a ffdfffffffffffff', { kind: 'i8', value: -9007199254740993n }],
    ['u8 max', '0b ffffffffffffffff', { kind: 'u8', value: 18446744073709551615n }],
    ['r4', '0c 40490fd0', { kind: 'r4', value: Math.fround(3.14159) }],
    ['r8', '0d 4005bf0a8b145769', { kind: 'r8', value: 2.718281828459045 }],
    ['string', '0e 00000011', { kind: 'string', objectId: 17 }],
    ['class instance', '12 00000005', { kind: 'object', tag: ValueTag.CLASS, objectId: 5 }],
    ['szarray', '1d 00000006', { kind: 'object', tag: ValueTag.SZARRAY, objectId: 6 }],
    ['null', 'f0', { kind: 'null' }],
    ['void', '01', { kind: 'void' }],
  ])('%s', (_name, hex, value) => {
    expect(decode(hex)).toEqual(value);
  });

  it('decodes a struct with a nested enum (unity-surface.md §0.1)', () => {
    expect(
      decode('11 00 00000002 00000002 08 00000007 11 01 00000004 00000001 08 00000004'),
    ).toEqual(Values.struct(2, [Values.i4(7), Values.struct(4, [Values.i4(4)], true)]));
  });

  it('reads the pointer type id only from 2.46', () => {
    expect(decode('0f 0000000012345678 00000005', v54)).toEqual({
      kind: 'ptr',
      address: 0x12345678n,
      typeId: 5,
    });
    expect(decode('0f 0000000012345678', v45)).toEqual({ kind: 'ptr', address: 0x12345678n });
  });

  it('reads fixed buffers and parent references', () => {
    expect(decode('f3 08 00000002 00000001 00000002')).toEqual({
      kind: 'fixed_array',
      elementTag: ValueTag.I4,
      values: [1, 2],
    });
    expect(decode('f2 00000000')).toEqual({ kind: 'parent_vtype', index: 0 });
  });

  it('records type ids it reads, so they may be sent back', () => {
    const known = new KnownIds();
    readValue(new PacketReader(Buffer.from('1100000000090000000008000000ff', 'hex'), known), v54);
    expect(known.has('type', 9)).toBe(true);
  });

  it('fails with a typed error on an unknown tag and on truncation', () => {
    expect(() => decode('99')).toThrow(/unknown value tag 0x99/);
    expect(() => decode('08 0000')).toThrow(/truncated packet/);
    expect(() => decode('11 00 00000001 7fffffff')).toThrow(/implausible struct field count/);
  });

  it('bounds struct nesting', () => {
    const deep = '110000000001 00000001'.repeat(100) + '08 00000000';
    expect(() => decode(deep)).toThrow(/nesting deeper than 64/);
  });
});

describe('writeValue (what the agent accepts)', () => {
  it('sends references as OBJECT whatever tag they arrived with', () => {
    expect(encode(Values.string(17))).toBe('1c00000011');
    expect(encode({ kind: 'object', tag: ValueTag.CLASS, objectId: 5 })).toBe('1c00000005');
  });

  it('sends pointers back as I8 without the type id (rule 2)', () => {
    expect(encode({ kind: 'ptr', address: 0x12345678n, typeId: 5 })).toBe('0a0000000012345678');
  });

  it('sends enums nested in structs with isEnum 0 (rule 3)', () => {
    const known = new KnownIds();
    known.record('type', 2);
    known.record('type', 4);
    const s = Values.struct(2, [Values.i4(7), Values.struct(4, [Values.i4(4)], true)]);
    expect(encode(s, v54, known)).toBe(
      '1100000000020000000208000000071100000000040000000108' + '00000004',
    );
  });

  it('refuses a type id this connection never received', () => {
    expect(() => encode(Values.struct(77, []), v54, new KnownIds())).toThrow(/never gave it/);
  });

  it('refuses values the agent cannot take', () => {
    expect(() => encode(Values.void())).toThrow(/cannot be sent/);
    expect(() => encode({ kind: 'type', typeId: 1 })).toThrow(/cannot be sent/);
  });

  it('round-trips every primitive exactly', () => {
    const arb = fc.oneof(
      fc.boolean().map(Values.bool),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(Values.i4),
      fc.integer({ min: 0, max: 0xffff }).map((n) => Values.number('char', n)),
      fc.integer({ min: -128, max: 127 }).map((n) => Values.number('i1', n)),
      fc.integer({ min: 0, max: 255 }).map((n) => Values.number('u1', n)),
      fc.integer({ min: -32768, max: 32767 }).map((n) => Values.number('i2', n)),
      fc.integer({ min: 0, max: 65535 }).map((n) => Values.number('u2', n)),
      fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n) => Values.number('u4', n)),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(Values.i8),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(Values.u8),
      fc.double().map(Values.r8),
      fc.float().map(Values.r4),
    );
    fc.assert(
      fc.property(arb, (value) => {
        const w = new PacketWriter();
        writeValue(w, value, v54);
        expect(readValue(new PacketReader(w.body()), v54)).toEqual(value);
      }),
    );
  });
});

describe('readValue on malformed input (property)', () => {
  it('never throws anything but a protocol error, and always terminates', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const r = new PacketReader(Buffer.from(bytes));
        try {
          while (r.remaining > 0) readValue(r, v54);
        } catch (e) {
          expect((e as { code?: string }).code).toBe('PROTOCOL_ERROR');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
