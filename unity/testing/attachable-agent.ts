// A scripted in-memory agent that answers what attaching a session asks: one thread, its OS id
// and object address (the game's identity). Tests add the commands their case needs.

import { PacketWriter } from '../../sdb-protocol/buffer-writer.js';
import { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';

export function attachableAgent(): FakeAgent {
  const a = FakeAgent.inMemory();
  a.on('VM.ALL_THREADS', () => ({ body: new PacketWriter().i32(1).i32(1).body() }));
  a.on('THREAD.GET_TID', () => ({ body: new PacketWriter().i64(4242).body() }));
  a.on('THREAD.GET_ID', () => ({ body: new PacketWriter().i64(0x7f00n).body() }));
  return a;
}
