// A scripted in-memory agent that answers what attaching a session asks: one thread, its OS id
// and object address (the game's identity), and clearing event requests (an IL2CPP attach has
// the agent replay its loaded classes by a TYPE_LOAD request it clears at once). It answers as
// the runtime `profile` names (sdb-protocol/testing/fake-profiles.ts). Tests add the commands
// their case needs.

import { PacketWriter } from '../../sdb-protocol/buffer-writer.js';
import type { RuntimeKind } from '../../sdb-protocol/index.js';
import { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';

/** The runtimes the session's suites run against. */
export const RUNTIME_PROFILES: readonly RuntimeKind[] = ['debian-mono', 'unity-mono', 'il2cpp'];

export function attachableAgent(profile: RuntimeKind = 'debian-mono'): FakeAgent {
  const a = FakeAgent.inMemory({ profile });
  a.on('VM.ALL_THREADS', () => ({ body: new PacketWriter().i32(1).i32(1).body() }));
  a.on('THREAD.GET_TID', () => ({ body: new PacketWriter().i64(4242).body() }));
  a.on('THREAD.GET_ID', () => ({ body: new PacketWriter().i64(0x7f00n).body() }));
  a.on('EVENT_REQUEST.CLEAR', () => ({}));
  return a;
}
