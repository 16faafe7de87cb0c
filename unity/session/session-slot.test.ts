// The session's side of the debugger slot: a taken slot refused before connecting, and the one
// connection that waits in a busy agent's backlog (docs/solutions/debugger-slot.md).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PacketWriter } from '../../sdb-protocol/buffer-writer.js';
import type { ConnectOptions, RuntimeKind, SdbConnection } from '../../sdb-protocol/index.js';
import { RUNTIME_PROFILES } from '../testing/attachable-agent.js';
import { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import { GameSession, type SlotOptions } from './session.js';
import type { SlotState } from './slot.js';

let agent: FakeAgent | undefined;
let session: GameSession | undefined;
/** The runtime the agent answers as: each block runs once per profile. */
let profile: RuntimeKind = 'debian-mono';

afterEach(async () => {
  await session?.shutdown();
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  session = agent = undefined;
});

/** An in-memory agent that answers attaching; with `busy`, it greets no one until greetLate(). */
function gameAgent(busy: boolean): FakeAgent {
  const a = FakeAgent.inMemory(busy ? { handshake: false, profile } : { profile });
  a.on('VM.ALL_THREADS', () => ({ body: new PacketWriter().i32(1).i32(1).body() }));
  a.on('THREAD.GET_TID', () => ({ body: new PacketWriter().i64(4242).body() }));
  a.on('THREAD.GET_ID', () => ({ body: new PacketWriter().i64(0x7f00n).body() }));
  a.on('EVENT_REQUEST.CLEAR', () => ({}));
  return a;
}

/** A session on `a` that counts the connections it opens. */
function sessionOn(a: FakeAgent, slot: SlotOptions): { s: GameSession; opened: () => number } {
  let opened = 0;
  const s = new GameSession({
    // short only where the agent greets no one (the wait is the point); under load a greeting
    // agent can take longer than that
    handshakeTimeoutMs: a.options.handshake === false ? 50 : 3000,
    slot,
    connect: (options: ConnectOptions): Promise<SdbConnection> => {
      opened++;
      return a.connect(options);
    },
  });
  return { s, opened: () => opened };
}

const target = { kind: 'endpoint', host: '127.0.0.1', port: 1 } as const;

/** Polls a condition, boundedly. */
async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(RUNTIME_PROFILES)('a taken slot (%s)', (kind) => {
  beforeEach(() => {
    profile = kind;
  });

  it('is refused with SLOT_BUSY naming the holder, before any connection', async () => {
    agent = gameAgent(false);
    const busy: SlotState = {
      kind: 'busy',
      holders: [
        { peer: { address: '127.0.0.1', port: 40000 }, pid: 4321, command: 'mono Foreign.exe' },
      ],
    };
    const { s, opened } = sessionOn(agent, { inspect: () => Promise.resolve(busy) });
    session = s;
    const err = await s.attach(target).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'SLOT_BUSY',
      message: expect.stringMatching(
        /held by pid 4321 \(mono Foreign\.exe\); nothing was connected/,
      ),
      details: { endpoint: '127.0.0.1:1', holder_pid: 4321, holder: 'mono Foreign.exe' },
    });
    expect(opened()).toBe(0);
    expect(s.connects).toBe(0);
    await expect(s.run('read', 'test', () => Promise.resolve(1))).rejects.toMatchObject({
      code: 'SLOT_BUSY',
    });
    expect(s.connects).toBe(0);
  });

  it('says when the holder is not visible, and is not inspected with check: false', async () => {
    agent = gameAgent(false);
    let inspected = 0;
    const hidden: SlotState = {
      kind: 'busy',
      holders: [{ peer: { address: '10.0.0.9', port: 5 } }],
    };
    const inspect = (): Promise<SlotState> => (inspected++, Promise.resolve(hidden));
    const first = sessionOn(agent, { inspect });
    session = first.s;
    await expect(first.s.attach(target)).rejects.toMatchObject({
      code: 'SLOT_BUSY',
      message: expect.stringMatching(/another process \(not visible to this user\)/),
    });
    await first.s.shutdown();
    const second = sessionOn(agent, { inspect, check: false });
    session = second.s;
    await second.s.attach(target);
    expect(inspected).toBe(1);
    expect(second.s.connects).toBe(1);
  });
});

describe.each(RUNTIME_PROFILES)('a connection that waits behind another debugger (%s)', (kind) => {
  beforeEach(() => {
    profile = kind;
  });

  it('is awaited by the attaching call and attached when the agent greets it', async () => {
    agent = gameAgent(true);
    const { s, opened } = sessionOn(agent, { check: false, pendingWaitMs: 10_000 });
    session = s;
    const attaching = s.attach(target);
    await until('the pending status', () => s.status().pending === true);
    agent.greetLate();
    expect(await attaching).toMatchObject({ attached: true, connects: 1 });
    expect(s.status().pending).toBeUndefined();
    expect(opened()).toBe(1);
  });

  it('fails the call with SLOT_BUSY pending past the bound, never opens a second, and is used when accepted', async () => {
    agent = gameAgent(true);
    const { s, opened } = sessionOn(agent, { check: false, pendingWaitMs: 50 });
    session = s;
    for (let i = 0; i < 2; i++) {
      await expect(s.attach(target)).rejects.toMatchObject({
        code: 'SLOT_BUSY',
        message: expect.stringMatching(/our connection waits behind it/),
        details: { endpoint: '127.0.0.1:1', pending: true },
      });
      expect(s.status()).toMatchObject({ pending: true, attached: false, connects: 1 });
    }
    expect(opened()).toBe(1);
    expect(agent.peerClosed).toBe(false); // never closed unanswered
    agent.greetLate();
    await until('the adoption', () => s.status().attached); // no call waits: adopted anyway
    expect(await s.run('read', 'test', () => Promise.resolve(7))).toMatchObject({ value: 7 });
    expect(s.connects).toBe(1);
    expect(opened()).toBe(1);
  });

  it('detach gives it up: once accepted it is closed cleanly (resume + DISPOSE), not attached', async () => {
    agent = gameAgent(true);
    const { s } = sessionOn(agent, { check: false, pendingWaitMs: 50, releaseWaitMs: 50 });
    session = s;
    await expect(s.attach(target)).rejects.toMatchObject({ code: 'SLOT_BUSY' });
    await s.detach(); // the agent has not accepted within the bound: kept
    expect(agent.peerClosed).toBe(false);
    expect(s.status().pending).toBeUndefined();
    agent.greetLate();
    await agent.whenPeerClosed();
    expect(agent.namesSince().slice(-2)).toEqual(['VM.RESUME', 'VM.DISPOSE']);
    expect(s.status().attached).toBe(false);
  });

  it('a later attach after detach waits for the same connection instead of opening another', async () => {
    agent = gameAgent(true);
    const { s, opened } = sessionOn(agent, { check: false, pendingWaitMs: 50, releaseWaitMs: 50 });
    session = s;
    await expect(s.attach(target)).rejects.toMatchObject({ code: 'SLOT_BUSY' });
    await s.detach();
    await expect(s.attach(target)).rejects.toMatchObject({ details: { pending: true } });
    expect(opened()).toBe(1);
    agent.greetLate();
    await until('the adoption', () => s.status().attached);
    expect(s.connects).toBe(1);
  });

  it('shutdown waits for it boundedly and closes it cleanly when accepted during the wait', async () => {
    agent = gameAgent(true);
    const { s } = sessionOn(agent, { check: false, pendingWaitMs: 50, releaseWaitMs: 10_000 });
    session = s;
    await expect(s.attach(target)).rejects.toMatchObject({ code: 'SLOT_BUSY' });
    const down = s.shutdown();
    agent.greetLate();
    await down;
    expect(agent.namesSince().slice(-1)).toEqual(['VM.DISPOSE']);
    await agent.whenPeerClosed();
    expect(s.status().attached).toBe(false);
  });
});
