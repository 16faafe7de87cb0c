// Splits the agent's byte stream into packets (sdb-protocol.md §1.3), however the stream is
// chunked. A packet that arrives whole inside one chunk is handed out as a view of that chunk
// (no copy); one that spans chunks is copied once, into a buffer of its exact size allocated as
// soon as its header is known.
//
// Contract: a packet's body is valid only until the next push(), because it may be a view of
// the caller's chunk (the connection reads the socket into one reused buffer). Decode it before
// returning; never keep a reference to it.

import { SdbProtocolError } from './errors.js';
import { COMMAND_FLAG, HEADER_SIZE, REPLY_FLAG } from './vocabulary.js';

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
  /** Header bytes of a packet whose header straddles chunks. */
  private readonly header = Buffer.alloc(HEADER_SIZE);
  private headerFill = 0;
  /** A packet spanning chunks: its whole bytes (header included) and how many arrived. */
  private partial: Buffer | undefined;
  private partialFill = 0;
  private failed: SdbProtocolError | undefined;

  constructor(private readonly maxPacket = DEFAULT_MAX_PACKET) {}

  /**
   * Feeds bytes; returns every packet completed by them. A corrupt header stops framing for good:
   * the packets before it are still returned, and `error` is set from then on.
   */
  push(chunk: Buffer): Packet[] {
    const out: Packet[] = [];
    let pos = 0;
    while (pos < chunk.length && !this.failed) {
      if (this.partial) {
        const n = Math.min(this.partial.length - this.partialFill, chunk.length - pos);
        chunk.copy(this.partial, this.partialFill, pos, pos + n);
        this.partialFill += n;
        pos += n;
        if (this.partialFill === this.partial.length) {
          out.push(packetOf(this.partial, this.partial.length));
          this.partial = undefined;
        }
        continue;
      }
      if (this.headerFill > 0 || chunk.length - pos < HEADER_SIZE) {
        // the header itself straddles chunks: gather its 11 bytes first
        const n = Math.min(HEADER_SIZE - this.headerFill, chunk.length - pos);
        chunk.copy(this.header, this.headerFill, pos, pos + n);
        this.headerFill += n;
        pos += n;
        if (this.headerFill < HEADER_SIZE) break;
        this.headerFill = 0;
        const length = this.check(this.header);
        if (length < 0) break;
        this.partial = Buffer.allocUnsafe(length);
        this.header.copy(this.partial, 0);
        this.partialFill = HEADER_SIZE;
        if (length === HEADER_SIZE) {
          out.push(packetOf(this.partial, length));
          this.partial = undefined;
        }
        continue;
      }
      const length = this.check(chunk.subarray(pos, pos + HEADER_SIZE));
      if (length < 0) break;
      if (chunk.length - pos >= length) {
        out.push(packetOf(chunk.subarray(pos, pos + length), length));
        pos += length;
      } else {
        this.partial = Buffer.allocUnsafe(length);
        this.partialFill = chunk.copy(this.partial, 0, pos);
        pos = chunk.length;
      }
    }
    return out;
  }

  /** Set once the stream is known to be corrupt. */
  get error(): SdbProtocolError | undefined {
    return this.failed;
  }

  /** Bytes received but not yet part of a complete packet. */
  get pending(): number {
    return this.partial ? this.partialFill : this.headerFill;
  }

  /** Validates a header; returns the packet length, or -1 after recording the failure. */
  private check(header: Buffer): number {
    const length = header.readInt32BE(0);
    const flags = header[8]!;
    if (length < HEADER_SIZE || length > this.maxPacket) {
      return this.fail(`invalid packet length ${length}`);
    }
    if (flags !== COMMAND_FLAG && flags !== REPLY_FLAG) {
      return this.fail(`invalid packet flags 0x${flags.toString(16)}`);
    }
    return length;
  }

  private fail(message: string): -1 {
    this.failed = new SdbProtocolError(`${message}: the byte stream cannot be resynchronised`);
    this.partial = undefined;
    this.headerFill = 0;
    return -1;
  }
}

function packetOf(bytes: Buffer, length: number): Packet {
  const id = bytes.readInt32BE(4);
  const body = bytes.subarray(HEADER_SIZE, length);
  return bytes[8] === REPLY_FLAG
    ? { kind: 'reply', id, errorCode: (bytes[9]! << 8) | bytes[10]!, body }
    : { kind: 'command', id, commandSet: bytes[9]!, command: bytes[10]!, body };
}

export function encodeCommandPacket(
  id: number,
  commandSet: number,
  command: number,
  body: Uint8Array,
): Buffer {
  const packet = Buffer.allocUnsafe(HEADER_SIZE + body.length);
  packet.set(body, HEADER_SIZE);
  writeCommandHeader(packet, id, commandSet, command);
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
  packet[8] = COMMAND_FLAG; // never another flag towards the agent: it asserts and aborts the game
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
