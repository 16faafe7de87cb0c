// Writes a retry cannot apply twice, against the real Mono agent: an eval that increments the
// fixture's Shop.Calls (Shop.Touch()) with a request_id, repeated, runs once (the counter read
// back); the same id with other arguments is IDEMPOTENCY_CONFLICT. Then with real processes: a
// broker and front-ends, the write sent and its front-end killed before the reply is read, the
// call repeated by a new front-end, and again after the broker restarted: applied exactly once,
// and the audit log in the broker's home has each call with its outcome.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import type { AuditEntry } from '../mcp/ledger/audit.js';
import { callTool } from '../mcp/server.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { brokerHome, startServer, stopBroker, type ServerUnderTest } from './support/mcp-client.js';
import { delay, freeUdpPort } from './support/net.js';

const evalTool = ALL_TOOLS.find((t) => t.name === 'eval')!;
const TOUCH = 'Game.Shop.Touch()';
/** Long enough that the front-end is killed while the call still runs in the game. */
const SLOW_TOUCH = 'Game.Shop.Touch(); System.Threading.Thread.Sleep(1500); Game.Shop.Calls';

let fixture: FixtureProcess;
beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
});
afterAll(async () => {
  await fixture?.stop();
});

function auditLines(dir: string): AuditEntry[] {
  return readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditEntry);
}

const meta = (r: CallToolResult) => (r._meta ?? {}) as Record<string, unknown>;
const value = (r: CallToolResult) => (r.structuredContent as { value?: string } | undefined)?.value;

describe('request_id in one app', () => {
  let dir: string;
  let app: GameApp;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ud-state-'));
    app = await GameApp.start({
      endpoint: { host: '127.0.0.1', port: fixture.sdbPort },
      discovery: false,
      stateDir: dir,
    });
  });
  afterAll(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: Record<string, unknown>, caller = 'agent') =>
    callTool(evalTool, args, { app, caller });
  const calls = async () => Number(value(await run({ code: 'Game.Shop.Calls' })));

  it('an eval repeated with its request_id runs once; other arguments under the id are IDEMPOTENCY_CONFLICT', async () => {
    const before = await calls();
    const first = await run({ code: TOUCH, request_id: 'touch-1' });
    expect(first.isError ?? false).toBe(false);
    expect(value(first)).toBe(String(before + 1));
    expect(meta(first)).toMatchObject({ request_id: 'touch-1', recorded: true, durable: true });

    const again = await run({ code: TOUCH, request_id: 'touch-1' }, 'another agent');
    expect(meta(again)).toMatchObject({ replayed: true, first_caller: 'agent' });
    expect(value(again)).toBe(String(before + 1));
    expect(await calls()).toBe(before + 1);

    const other = await run({ code: `${TOUCH} + 0`, request_id: 'touch-1' });
    expect(meta(other).code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await calls()).toBe(before + 1);

    // a refusal that proves nothing ran is not recorded: fixed, the same id runs
    const refused = await run({ code: 'Game.Shop.NoSuchThing()', request_id: 'touch-2' });
    expect(meta(refused)).toMatchObject({ code: 'MEMBER_NOT_FOUND', recorded: false });
    expect(await calls()).toBe(before + 1);

    await app.ledger.audit!.flush();
    const mine = auditLines(dir).filter((l) => l.request_id === 'touch-1');
    expect(mine.map((l) => [l.caller, l.outcome, l.replayed ?? false])).toEqual([
      ['agent', 'ok', false],
      ['another agent', 'ok', true],
      ['agent', 'IDEMPOTENCY_CONFLICT', false],
    ]);
    expect(mine[0]!.player).toEqual({ game: 'g1', endpoint: `127.0.0.1:${fixture.sdbPort}` });
    expect(mine[0]!.cost!.invokes).toBeGreaterThan(0);
    expect(mine[1]!.cost).toBeUndefined();
  });
});

describe('request_id through a broker, with the reply lost', () => {
  let home: string;
  let args: string[];
  const open: ServerUnderTest[] = [];
  const start = async () => {
    const s = await startServer(args, { home });
    open.push(s);
    return s;
  };
  const calls = async (s: ServerUnderTest) =>
    Number((await s.ok<{ value: string }>('eval', { code: 'Game.Shop.Calls' })).value);

  beforeAll(async () => {
    home = brokerHome();
    args = [
      '--port',
      String(fixture.sdbPort),
      '--beacon-port',
      String(await freeUdpPort()),
      '--no-multicast',
    ];
  });
  afterAll(async () => {
    for (const s of open) await s.close().catch(() => undefined);
    if (home) await stopBroker(home).catch(() => undefined);
  });

  it('the front-end killed before the reply, the call repeated by a new one and after a broker restart: applied once', async () => {
    const id = `lost-${process.pid}`;
    const observer = await start();
    const before = await calls(observer);

    const sender = await start();
    // the reply of this call is never read: its front-end dies while the call runs
    void sender.call('eval', { code: SLOW_TOUCH, request_id: id }).catch(() => undefined);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const s = await observer.ok<{ games: { operations: { caller: string }[] }[] }>('status');
      if (s.games.some((g) => g.operations.some((o) => o.caller.includes(`pid ${sender.pid}`))))
        break;
      if (Date.now() > deadline) throw new Error('the sent eval never started in the game');
      await delay(20);
    }
    process.kill(sender.pid!, 'SIGKILL');

    const retry = await start();
    const repeated = await retry.call('eval', { code: SLOW_TOUCH, request_id: id });
    expect(repeated.isError ?? false, JSON.stringify(repeated.content)).toBe(false);
    expect(meta(repeated)).toMatchObject({ replayed: true, request_id: id });
    expect(value(repeated)).toBe(String(before + 1));
    expect(await calls(observer)).toBe(before + 1);

    // the broker restarts: the record is in its home, the repeat still answered from it
    for (const s of open.splice(0)) if (s !== sender) await s.close();
    await stopBroker(home, false);
    const afterRestart = await start();
    const again = await afterRestart.call('eval', { code: SLOW_TOUCH, request_id: id });
    expect(meta(again)).toMatchObject({ replayed: true });
    expect(value(again)).toBe(String(before + 1));
    expect(await calls(afterRestart)).toBe(before + 1);
    const conflict = await afterRestart.fails('eval', { code: TOUCH, request_id: id });
    expect(conflict.code).toBe('IDEMPOTENCY_CONFLICT');
    for (const s of open.splice(0)) await s.close();
    await stopBroker(home, false);

    const lines = auditLines(home).filter((l) => l.request_id === id);
    // the first two may be in either order: the repeat may have waited for the first to end
    expect(lines.map((l) => `${l.outcome}${l.replayed ? ' replayed' : ''}`).sort()).toEqual(
      ['IDEMPOTENCY_CONFLICT', 'ok', 'ok replayed', 'ok replayed'].sort(),
    );
    const applied = lines.filter((l) => l.outcome === 'ok' && !l.replayed);
    expect(applied.map((l) => l.caller)).toEqual([expect.stringContaining(`pid ${sender.pid}`)]);
    expect(applied[0]!.player?.endpoint).toBe(`127.0.0.1:${fixture.sdbPort}`);
    expect(applied[0]!.cost!.invokes).toBeGreaterThan(0);
    expect(new Set(lines.map((l) => l.args_sha256)).size).toBe(2);
  });
});
