// Reads the protocol's primitives from one packet body. No I/O; every read is bounds-checked
// and fails with SdbProtocolError, never with a RangeError or a silent garbage value.

import { SdbProtocolError } from './errors.js';
import type { IdKind, KnownIds } from './known-ids.js';

const f32 = new Float32Array(1);
const f32AsInt = new Int32Array(f32.buffer);

export class PacketReader {
  private pos: number;
  private readonly end: number;

  constructor(
    readonly buf: Buffer,
    readonly known?: KnownIds,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  private need(n: number, what: string): void {
    if (this.pos + n > this.end) {
      throw new SdbProtocolError(
        `truncated packet: ${what} needs ${n} byte(s) at offset ${this.pos}, only ${this.end - this.pos} left`,
      );
    }
  }

  u8(): number {
    this.need(1, 'byte');
    return this.buf[this.pos++]!;
  }

  bool(): boolean {
    return this.u8() !== 0;
  }

  i32(): number {
    this.need(4, 'int');
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** A count or length: an int that must be in [0, max]. */
  count(what: string, max = this.remaining): number {
    const n = this.i32();
    if (n < 0 || n > max) {
      throw new SdbProtocolError(`implausible ${what} ${n} at offset ${this.pos - 4}`);
    }
    return n;
  }

  i16(): number {
    this.need(2, 'short');
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  i64(): bigint {
    this.need(8, 'long');
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  u64(): bigint {
    this.need(8, 'long');
    const v = this.buf.readBigUInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A long that must fit in a JS number exactly (IL offsets, lengths, ids). */
  i64n(what = 'long'): number {
    this.need(8, 'long');
    const hi = this.buf.readInt32BE(this.pos);
    const lo = this.buf.readUInt32BE(this.pos + 4);
    this.pos += 8;
    if (hi > 0x1fffff || hi < -0x200000) {
      throw new SdbProtocolError(`${what} out of safe integer range at offset ${this.pos - 8}`);
    }
    return hi * 0x1_0000_0000 + lo;
  }

  f32FromInt(): number {
    f32AsInt[0] = this.i32();
    return f32[0]!;
  }

  f64FromLong(): number {
    this.need(8, 'double');
    const v = this.buf.readDoubleBE(this.pos);
    this.pos += 8;
    return v;
  }

  string(): string {
    const n = this.i32();
    if (n <= 0) {
      // The agent writes a missing string as length 0; a client may send -1.
      if (n < -1)
        throw new SdbProtocolError(`negative string length ${n} at offset ${this.pos - 4}`);
      return '';
    }
    this.need(n, 'string');
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  bytes(n: number): Buffer {
    this.need(n, 'bytes');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  /** An object id (objects, threads, strings, arrays, exceptions). 0 means null. */
  objectId(): number {
    return this.i32();
  }

  id(kind: IdKind): number {
    const v = this.i32();
    this.known?.record(kind, v);
    return v;
  }

  typeId(): number {
    return this.id('type');
  }

  threadId(): number {
    return this.id('thread');
  }

  methodId(): number {
    return this.id('method');
  }

  fieldId(): number {
    return this.id('field');
  }

  /** Reads `count` ids of one kind. */
  ids(kind: IdKind, count: number): number[] {
    this.need(count * 4, 'ids');
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const v = this.buf.readInt32BE(this.pos);
      this.pos += 4;
      this.known?.record(kind, v);
      out[i] = v;
    }
    return out;
  }

  objectIds(count: number): number[] {
    this.need(count * 4, 'object ids');
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      out[i] = this.buf.readInt32BE(this.pos);
      this.pos += 4;
    }
    return out;
  }

  /**
   * An int count, then that many items. `minItemBytes` bounds the count by the bytes left, so a
   * corrupt count fails before anything is allocated.
   */
  list<T>(what: string, minItemBytes: number, item: (r: this) => T): T[] {
    const n = this.count(`${what} count`, Math.floor(this.remaining / minItemBytes));
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) out[i] = item(this);
    return out;
  }

  /** Fails when bytes are left over where the layout says the body ends. */
  expectEnd(what: string): void {
    if (this.pos !== this.end) {
      throw new SdbProtocolError(`${what}: ${this.end - this.pos} unexpected trailing byte(s)`);
    }
  }
}
