// OBJECT_REF (9) and STRING_REF (10): sdb-protocol.md §3.3, §3.4.

import type { PacketWriter } from '../buffer-writer.js';
import { defineCommand, noReply } from '../command.js';
import type { ProtocolVersion } from '../version.js';
import { SdbProtocolError, SdbUnsafeRequestError } from '../errors.js';
import { readValues, writeValue, type Value } from '../values.js';

export interface FieldWrite {
  fieldId: number;
  value: Value;
}

/** SET_VALUES bodies interleave: n × (field id, value), not all ids first. */
export function writeFieldWrites(
  w: PacketWriter,
  writes: readonly FieldWrite[],
  v: ProtocolVersion,
): void {
  w.i32(writes.length);
  for (const f of writes) {
    w.fieldId(f.fieldId);
    writeValue(w, f.value, v);
  }
}

export const objectRefCommands = {
  'OBJECT_REF.GET_TYPE': defineCommand<{ objectId: number }, number>({
    set: 'OBJECT_REF',
    command: 1,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r) => r.typeId(),
  }),
  'OBJECT_REF.GET_VALUES': defineCommand<
    { objectId: number; fieldIds: readonly number[] },
    Value[]
  >({
    set: 'OBJECT_REF',
    command: 2,
    encode: (w, p) => {
      w.objectId(p.objectId).i32(p.fieldIds.length);
      for (const f of p.fieldIds) w.fieldId(f);
    },
    decode: (r, v, p) => readValues(r, v, p.fieldIds.length),
  }),
  'OBJECT_REF.IS_COLLECTED': defineCommand<{ objectId: number }, boolean>({
    set: 'OBJECT_REF',
    command: 3,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r) => r.i32() !== 0, // an int, not a byte
  }),
  'OBJECT_REF.GET_ADDRESS': defineCommand<{ objectId: number }, bigint>({
    set: 'OBJECT_REF',
    command: 4,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r) => r.u64(),
  }),
  'OBJECT_REF.GET_DOMAIN': defineCommand<{ objectId: number }, number>({
    set: 'OBJECT_REF',
    command: 5,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r) => r.id('domain'),
  }),
  'OBJECT_REF.SET_VALUES': defineCommand<{ objectId: number; writes: readonly FieldWrite[] }>({
    set: 'OBJECT_REF',
    command: 6,
    encode: (w, p, v) => {
      w.objectId(p.objectId);
      writeFieldWrites(w, p.writes, v);
    },
    decode: noReply,
  }),
  'OBJECT_REF.GET_INFO': defineCommand<{ objectId: number }, { typeId: number; domainId: number }>({
    set: 'OBJECT_REF',
    command: 7,
    since: 5,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r) => ({ typeId: r.typeId(), domainId: r.id('domain') }),
  }),
} as const;

export const stringRefCommands = {
  'STRING_REF.GET_VALUE': defineCommand<{ objectId: number }, string>({
    set: 'STRING_REF',
    command: 1,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r, v) => {
      // since 2.41: a flag byte; the UTF-16 form (only for strings holding U+0000) is raw
      // little-endian code units, unlike the rest of the protocol
      if (v.atLeast(41) && r.u8() !== 0) {
        const n = r.count('UTF-16 byte count');
        if (n % 2 !== 0) throw new SdbProtocolError(`odd UTF-16 byte count ${n}`);
        return r.bytes(n).toString('utf16le');
      }
      return r.string();
    },
  }),
  'STRING_REF.GET_LENGTH': defineCommand<{ objectId: number }, number>({
    set: 'STRING_REF',
    command: 2,
    since: 10,
    encode: (w, p) => void w.objectId(p.objectId),
    decode: (r) => r.i64n('string length'),
  }),
  /** UTF-16 code units [index, index + count); past the end → INVALID_ARGUMENT. */
  'STRING_REF.GET_CHARS': defineCommand<{ objectId: number; index: number; count: number }, string>(
    {
      set: 'STRING_REF',
      command: 3,
      since: 10,
      // The agent checks the end but not a negative index: -2 reads the length field, a large
      // negative one segfaults the game.
      guard: async (p, ctx) => {
        if (
          !Number.isInteger(p.index) ||
          !Number.isInteger(p.count) ||
          p.index < 0 ||
          p.count < 0
        ) {
          throw new SdbUnsafeRequestError(
            `string range [${p.index}, +${p.count}) is not a valid range`,
          );
        }
        const length = await ctx.stringLength(p.objectId);
        if (p.index + p.count > length) {
          throw new SdbUnsafeRequestError(
            `string range [${p.index}, ${p.index + p.count}) is outside the string's ${length} char(s)`,
          );
        }
      },
      encode: (w, p) => void w.objectId(p.objectId).i64(p.index).i64(p.count),
      decode: (r, _v, p) => {
        // Big-endian code units: swap them in place (the reply body belongs to this decode) and
        // let Buffer decode UTF-16LE in one pass.
        return r
          .bytes(p.count * 2)
          .swap16()
          .toString('utf16le');
      },
    },
  ),
} as const;
