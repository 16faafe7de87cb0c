// Splits the agent's byte stream into packets (sdb-protocol.md §1.3), however the stream is
// chunked. A packet's bytes are copied at most once: when it spans several socket chunks.

import { SdbProtocolError } from './errors.js';
import { HEADER_SIZE, REPLY_FLAG } from './vocabulary.js';

export interface ReplyPacket {
  readonly kind: 'reply';
  readonly id: number;
  readonly errorCode: number;
  readonly body: Buffer;
}

export interface CommandPacket {
  readonly kind: 'command';
  readonly id: number;
  readonly commandSet: number;
  readonly command: number;
  readonly body: Buffer;
}

export type Packet = ReplyPacket | CommandPacket;

/** Larger than any sane reply (a 100 MB array read); a bigger length means a corrupt stream. */
export const DEFAULT_MAX_PACKET = 512 * 1024 * 1024;

export class PacketFramer {
  private chunks: Buffer[] = [];
  private head = 0; // consumed bytes of chunks[0]
  private buffered = 0;
  private failed: SdbProtocolError | undefined;

  constructor(private readonly maxPacket = DEFAULT_MAX_PACKET) {}

  /**
   * Feeds bytes; returns every packet completed by them. A corrupt header stops framing for good:
   * the packets before it are still returned, and `error` is set from then on.
   */
  push(chunk: Buffer): Packet[] {
    if (this.failed) return [];
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const out: Packet[] = [];
    while (this.buffered >= HEADER_SIZE) {
      const header = this.peek(HEADER_SIZE);
      const length = header.readInt32BE(0);
      const flags = header[8]!;
      if (length < HEADER_SIZE || length > this.maxPacket) {
        this.fail(`invalid packet length ${length}`);
        break;
      }
      if (flags !== 0 && flags !== REPLY_FLAG) {
        this.fail(`invalid packet flags 0x${flags.toString(16)}`);
        break;
      }
      if (this.buffered < length) break;
      const id = header.readInt32BE(4);
      const b9 = header[9]!;
      const b10 = header[10]!;
      this.skip(HEADER_SIZE);
      const body = this.take(length - HEADER_SIZE);
      out.push(
        flags === REPLY_FLAG
          ? { kind: 'reply', id, errorCode: (b9 << 8) | b10, body }
          : { kind: 'command', id, commandSet: b9, command: b10, body },
      );
    }
    return out;
  }

  /** Set once the stream is known to be corrupt. */
  get error(): SdbProtocolError | undefined {
    return this.failed;
  }

  /** Bytes received but not yet part of a complete packet. */
  get pending(): number {
    return this.buffered;
  }

  private fail(message: string): void {
    this.failed = new SdbProtocolError(`${message}: the byte stream cannot be resynchronised`);
    this.chunks = [];
    this.head = 0;
    this.buffered = 0;
  }

  private peek(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length - this.head >= n) return first.subarray(this.head, this.head + n);
    return this.copyOut(n, false);
  }

  private take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const first = this.chunks[0]!;
    if (first.length - this.head >= n) {
      const b = first.subarray(this.head, this.head + n);
      this.skip(n);
      return b;
    }
    return this.copyOut(n, true);
  }

  private skip(n: number): void {
    this.buffered -= n;
    // Drop whole chunks with one splice: a packet fed byte by byte spans thousands of chunks.
    let drop = 0;
    let head = this.head;
    while (n > 0) {
      const avail = this.chunks[drop]!.length - head;
      if (n < avail) {
        head += n;
        break;
      }
      n -= avail;
      drop++;
      head = 0;
    }
    if (drop > 0) this.chunks.splice(0, drop);
    this.head = head;
  }

  private copyOut(n: number, consume: boolean): Buffer {
    const out = Buffer.allocUnsafe(n);
    let written = 0;
    let i = 0;
    let offset = this.head;
    while (written < n) {
      const c = this.chunks[i]!;
      const len = Math.min(c.length - offset, n - written);
      c.copy(out, written, offset, offset + len);
      written += len;
      offset = 0;
      i++;
    }
    if (consume) this.skip(n);
    return out;
  }
}

export function encodeCommandPacket(
  id: number,
  commandSet: number,
  command: number,
  body: Uint8Array,
): Buffer {
  const packet = Buffer.allocUnsafe(HEADER_SIZE + body.length);
  writeCommandHeader(packet, id, commandSet, command);
  packet.set(body, HEADER_SIZE);
  return packet;
}

/** Fills the 11 header bytes of a packet whose body already sits after them. */
export function writeCommandHeader(
  packet: Buffer,
  id: number,
  commandSet: number,
  command: number,
): void {
  packet.writeInt32BE(packet.length, 0);
  packet.writeInt32BE(id, 4);
  packet[8] = 0; // never a non-zero flag towards the agent: it asserts and aborts the game
  packet[9] = commandSet;
  packet[10] = command;
}

export function encodeReplyPacket(id: number, errorCode: number, body: Uint8Array): Buffer {
  const packet = Buffer.allocUnsafe(HEADER_SIZE + body.length);
  packet.writeInt32BE(packet.length, 0);
  packet.writeInt32BE(id, 4);
  packet[8] = REPLY_FLAG;
  packet.writeUInt16BE(errorCode, 9);
  packet.set(body, HEADER_SIZE);
  return packet;
}
