import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { PacketFramer, encodeCommandPacket, encodeReplyPacket, type Packet } from './framing.js';
import { CommandSet, ErrorCode, EVENT_COMPOSITE, HEADER_SIZE, REPLY_FLAG } from './vocabulary.js';

const packets = [
  encodeReplyPacket(1, ErrorCode.NONE, Buffer.from([1, 2, 3])),
  encodeCommandPacket(7, CommandSet.EVENT, EVENT_COMPOSITE, Buffer.from('event body')),
  encodeReplyPacket(2, ErrorCode.INVALID_ARGUMENT, new Uint8Array()),
  encodeReplyPacket(3, ErrorCode.NONE, Buffer.alloc(70_000, 7)),
];

/** A reply header announcing `length` bytes, with nothing after it. */
function replyHeader(length: number): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeInt32BE(length, 0);
  header.writeInt32BE(9, 4);
  header[8] = REPLY_FLAG;
  return header;
}
const stream = Buffer.concat(packets);

function summary(ps: Packet[]): unknown[] {
  return ps.map((p) =>
    p.kind === 'reply'
      ? ['reply', p.id, p.errorCode, p.body.length, p.body[0]]
      : ['command', p.id, p.commandSet, p.command, p.body.toString()],
  );
}

const expected = [
  ['reply', 1, 0, 3, 1],
  ['command', 7, 64, 100, 'event body'],
  ['reply', 2, 102, 0, undefined],
  ['reply', 3, 0, 70_000, 7],
];

describe('PacketFramer', () => {
  it('frames a stream fed whole', () => {
    expect(summary(new PacketFramer().push(stream))).toEqual(expected);
  });

  it('frames a stream fed byte by byte', () => {
    const f = new PacketFramer();
    const out: Packet[] = [];
    for (let i = 0; i < stream.length; i++) out.push(...f.push(stream.subarray(i, i + 1)));
    expect(summary(out)).toEqual(expected);
    expect(f.pending).toBe(0);
  });

  it('frames a stream split at every offset', () => {
    for (let at = 0; at <= stream.length; at += at < 200 ? 1 : 997) {
      const f = new PacketFramer();
      const out = [...f.push(stream.subarray(0, at)), ...f.push(stream.subarray(at))];
      expect(summary(out), `split at ${at}`).toEqual(expected);
    }
  });

  it('frames any chunking of the stream (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: stream.length }), { maxLength: 20 }),
        (cuts) => {
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          const f = new PacketFramer();
          const out: Packet[] = [];
          let prev = 0;
          for (const p of [...points, stream.length]) {
            out.push(...f.push(stream.subarray(prev, p)));
            prev = p;
          }
          expect(summary(out)).toEqual(expected);
        },
      ),
    );
  });

  it('stops for good at a length shorter than the header, keeping the packets before it', () => {
    const bad = replyHeader(5);
    const f = new PacketFramer();
    const out = f.push(Buffer.concat([packets[0]!, bad, packets[1]!]));
    expect(summary(out)).toEqual([expected[0]]);
    expect(f.error?.message).toMatch(/invalid packet length 5/);
    expect(f.push(packets[1]!)).toEqual([]);
  });

  it('rejects flags other than 0 and 0x80', () => {
    const bad = encodeReplyPacket(1, ErrorCode.NONE, new Uint8Array());
    bad[8] = 0x40;
    const f = new PacketFramer();
    expect(f.push(bad)).toEqual([]);
    expect(f.error?.message).toMatch(/invalid packet flags 0x40/);
  });

  it('rejects lengths above the bound instead of buffering forever', () => {
    const f = new PacketFramer(1024);
    f.push(replyHeader(0x100000));
    expect(f.error?.message).toMatch(/invalid packet length 1048576/);
  });

  it('keeps what spans chunks safe when the caller reuses its read buffer', () => {
    // the connection reads the socket into one reused buffer: only views of the current
    // chunk may be handed out, everything kept across pushes must be copied
    const f = new PacketFramer();
    const shared = Buffer.alloc(64);
    const out: Packet[] = [];
    for (let i = 0; i < stream.length; i += 64) {
      const n = stream.copy(shared, 0, i, i + 64);
      for (const p of f.push(shared.subarray(0, n))) {
        out.push({ ...p, body: Buffer.from(p.body) }); // consumers decode before the next push
      }
      shared.fill(0xee); // the next read overwrites the buffer
    }
    expect(summary(out)).toEqual(expected);
    expect(out[3]!.body.every((b) => b === 7)).toBe(true);
  });

  it('never throws on random bytes, and either frames or reports a typed error', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (bytes, step) => {
          const f = new PacketFramer(4096);
          const buf = Buffer.from(bytes);
          for (let i = 0; i < buf.length; i += step) f.push(buf.subarray(i, i + step));
          if (f.error) expect(f.error.code).toBe('PROTOCOL_ERROR');
          else expect(f.pending).toBeLessThanOrEqual(buf.length);
        },
      ),
    );
  });
});
