// The debugger slot against the real Mono agent: a slot another debugger holds (the reference C#
// client, as an IDE) is refused with SLOT_BUSY naming its pid and without connecting; a
// connection that went to a busy agent anyway waits in its backlog and is used when the other
// debugger leaves; the game accepts a debugger after every one of these.
// See docs/solutions/debugger-slot.md.

import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { GameSession } from '../unity/session/session.js';
import { checkSlot } from '../unity/session/slot.js';
import { agentConnections } from './support/agent-sockets.js';
import { startForeignDebugger, type ForeignDebugger } from './support/foreign-debugger/launch.js';
import { waitFor } from './support/net.js';
import { toolCaller } from './support/tool-harness.js';

let fixture: FixtureProcess;
let app: GameApp | undefined;
let session: GameSession | undefined;
let foreign: ForeignDebugger | undefined;

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
});

afterEach(async () => {
  await foreign?.leave().catch(() => undefined);
  await app?.close();
  await session?.shutdown();
  foreign = app = session = undefined;
});

afterAll(async () => {
  await fixture?.stop();
});

const call = toolCaller<{ value?: string; session?: { attached: boolean } }>(ALL_TOOLS, () => app!);

/** Our call fails with SLOT_BUSY naming the foreign debugger's pid. */
async function expectBusy(p: Promise<unknown>, pid: number): Promise<void> {
  const e = (await p.then(
    () => undefined,
    (x: unknown) => x,
  )) as { code?: string; message?: string } | undefined;
  expect(e?.code).toBe('SLOT_BUSY');
  expect(e?.message).toContain(`pid ${pid}`);
  expect(e?.message).toContain('nothing was connected');
}

describe('the slot check', () => {
  it('reads real loopback connections: free when only listening, this process when it holds one', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    try {
      expect(await checkSlot('127.0.0.1', port)).toEqual({ kind: 'free' });
      const client = net.connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => client.once('connect', () => resolve()));
      const serverSide = await accepted;
      const state = await checkSlot('localhost', port);
      expect(state).toMatchObject({
        kind: 'busy',
        holders: [{ pid: process.pid, self: true, peer: { port: client.localPort } }],
      });
      client.destroy();
      serverSide.destroy();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a foreign debugger holds the slot', () => {
  it('attach and eval say SLOT_BUSY with its pid, connect nothing, and ours attaches after it leaves (20 times)', async () => {
    const port = fixture.sdbPort;
    app = await GameApp.start({ endpoint: { host: '127.0.0.1', port }, discovery: false });
    for (let round = 0; round < 20; round++) {
      foreign = await startForeignDebugger(port);
      const sockets = await agentConnections(port);
      expect(sockets).toBe(1); // the foreign debugger's
      const connects = app.session.status().connects;
      await expectBusy(call('attach', { port }), foreign.pid);
      await expectBusy(call('eval', { code: '1 + 2' }), foreign.pid);
      expect(await agentConnections(port)).toBe(sockets);
      expect(app.session.status().connects).toBe(connects);

      await foreign.leave();
      foreign = undefined;
      // the agent starts a fresh debugger thread after DISPOSE; ours attaches and evaluates
      const r = await call('eval', { code: '1 + 2' });
      expect(r.value).toBe('3');
      expect(app.session.status()).toMatchObject({ attached: true, connects: connects + 1 });
      await call('detach', {}); // the next round's foreign debugger attaches after ours
    }
  });
});

describe('a connection to a busy agent (the slot check forced off)', () => {
  it('waits in the backlog and completes when the foreign debugger leaves; the game takes a debugger afterwards', async () => {
    const port = fixture.sdbPort;
    foreign = await startForeignDebugger(port);
    session = new GameSession({
      handshakeTimeoutMs: 300,
      slot: { check: false, pendingWaitMs: 30_000 },
    });
    const attaching = session.attach({ kind: 'endpoint', host: '127.0.0.1', port });
    await waitFor('the pending connection', () => session!.status().pending || undefined, 10_000);
    expect(await agentConnections(port)).toBe(2); // the foreign one, and ours in the backlog
    await foreign.leave();
    foreign = undefined;
    expect(await attaching).toMatchObject({ attached: true, connects: 1 });
    const frames = await session.run('frames', 'test', (ctx) => ctx.conn.send('VM.ALL_THREADS'));
    expect(frames.value.length).toBeGreaterThan(0);
    await session.detach();
    foreign = await startForeignDebugger(port); // attachable after ours
    await foreign.leave();
    foreign = undefined;
  });

  it('past the bound the call fails SLOT_BUSY pending; the next call uses the same connection once accepted', async () => {
    const port = fixture.sdbPort;
    foreign = await startForeignDebugger(port);
    session = new GameSession({
      handshakeTimeoutMs: 300,
      slot: { check: false, pendingWaitMs: 500 },
    });
    const target = { kind: 'endpoint', host: '127.0.0.1', port } as const;
    await expect(session.attach(target)).rejects.toMatchObject({
      code: 'SLOT_BUSY',
      details: { endpoint: `127.0.0.1:${port}`, pending: true },
    });
    expect(session.status()).toMatchObject({ pending: true, connects: 1 });
    await expect(session.attach(target)).rejects.toMatchObject({ details: { pending: true } });
    expect(session.status().connects).toBe(1); // no second connection beside the waiting one
    expect(await agentConnections(port)).toBe(2);

    await foreign.leave();
    foreign = undefined;
    await waitFor('the adoption', () => session!.status().attached || undefined, 10_000);
    const r = await session.run('threads', 'test', (ctx) => ctx.conn.send('VM.ALL_THREADS'));
    expect(r.value.length).toBeGreaterThan(0);
    expect(session.status().connects).toBe(1);
    await session.detach();
    foreign = await startForeignDebugger(port);
    await foreign.leave();
    foreign = undefined;
  });
});
