// Builds one packet body. No I/O. Ids of kinds the agent trusts blindly are checked against
// the ids this connection has seen (known-ids.ts) before they are written.

import type { IdKind, KnownIds } from './known-ids.js';

const f32 = new Float32Array(1);
const f32AsInt = new Int32Array(f32.buffer);

export class PacketWriter {
  private buf: Buffer;
  private pos: number;

  /** `reserve` leaves room at the start for the packet header, so a packet needs one buffer. */
  constructor(
    readonly known?: KnownIds,
    private readonly reserve = 0,
    initialSize = 64,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(initialSize, reserve + 16));
    this.pos = reserve;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  get length(): number {
    return this.pos - this.reserve;
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v & 0xff;
    return this;
  }

  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }

  i32(v: number): this {
    this.ensure(4);
    this.buf.writeInt32BE(v | 0, this.pos);
    this.pos += 4;
    return this;
  }

  i64(v: bigint | number): this {
    this.ensure(8);
    this.buf.writeBigInt64BE(BigInt.asIntN(64, BigInt(v)), this.pos);
    this.pos += 8;
    return this;
  }

  f32AsInt(v: number): this {
    f32[0] = v;
    return this.i32(f32AsInt[0]!);
  }

  f64AsLong(v: number): this {
    this.ensure(8);
    this.buf.writeDoubleBE(v, this.pos);
    this.pos += 8;
    return this;
  }

  /** UTF-8 with an int byte count; `null` is sent as length -1 (the agent reads it as absent). */
  string(s: string | null): this {
    if (s === null) return this.i32(-1);
    const n = Buffer.byteLength(s, 'utf8');
    this.ensure(4 + n);
    this.buf.writeInt32BE(n, this.pos);
    this.buf.write(s, this.pos + 4, n, 'utf8');
    this.pos += 4 + n;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  objectId(id: number): this {
    return this.i32(id);
  }

  id(kind: IdKind, id: number): this {
    this.known?.check(kind, id);
    return this.i32(id);
  }

  typeId(id: number): this {
    return this.id('type', id);
  }

  threadId(id: number): this {
    return this.id('thread', id);
  }

  methodId(id: number): this {
    return this.id('method', id);
  }

  fieldId(id: number): this {
    return this.id('field', id);
  }

  /** The written bytes, including the reserved header room. The writer must not be reused. */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  /** Only the body (no reserved room). */
  body(): Buffer {
    return this.buf.subarray(this.reserve, this.pos);
  }
}
