// The MCP server as agents use it: the built server spawned over stdio, driven by the SDK's
// client against the fixture game found through its (unicast, loopback) beacon. Every tool is
// exercised, and every error code of the catalogue through a real trigger.

import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { TOOL_NAMES, startServer, type ServerUnderTest } from './support/mcp-client.js';
import { freeUdpPort } from './support/net.js';

let fixture: FixtureProcess;
let server: ServerUnderTest;
let beaconPort: number;

interface Cost {
  wire_commands: number;
  invokes: number;
  freeze_ms: number;
  wall_ms: number;
}

beforeAll(async () => {
  beaconPort = await freeUdpPort();
  fixture = await startBeaconing(beaconPort);
  server = await startServer(['--beacon-port', String(beaconPort), '--no-multicast']);
});

afterAll(async () => {
  await server?.close();
  await fixture?.stop();
});

/** A game whose beacon (unicast to 127.0.0.1) announces its debugger port as Unity's does. */
/** CPU time of a process in clock ticks (user + system), from /proc. */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
}

/**
 * Resolves once the process has used at least 40% of a core between two polls (the fixture
 * idles at about 8%): a busy loop is running. Bounded: throws after 10 s.
 */
async function busy(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let before = await cpuTicks(pid);
  let since = performance.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await cpuTicks(pid);
    const at = performance.now();
    // ticks are 1/100 s (CLK_TCK); the rate over the time that really passed
    if (((now - before) * 10) / (at - since) >= 0.4) return;
    before = now;
    since = at;
  }
  throw new Error(`process ${pid} never got busy within 10 s`);
}

async function startBeaconing(port: number): Promise<FixtureProcess> {
  // the beacon's Guid gives 56000 + Guid % 1000 as the debugger port
  const sdbPort = await freeLoopbackPort({ min: 56000, max: 56999 });
  return startFixture({ entities: 10, beaconPort: port, sdbPort });
}

async function frame(): Promise<number> {
  const r = await server.ok<{ value: string }>('eval', { code: 'Time.frameCount' });
  return Number(r.value);
}

describe('tools/list', () => {
  it('lists every tool with a title, schemas and honest annotations', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.destructiveHint, t.name).toBe('boolean');
    }
    const ro = (n: string) => tools.find((t) => t.name === n)?.annotations?.readOnlyHint;
    expect([ro('status'), ro('find_types'), ro('screenshot'), ro('logs')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([ro('eval'), ro('advance'), ro('suspend')]).toEqual([false, false, false]);
    expect(tools.find((t) => t.name === 'eval')?.annotations?.destructiveHint).toBe(true);
  });
});

describe('the session tools', () => {
  it('status lists the player heard on the beacon and never attaches', async () => {
    const s = await server.ok<{
      players: { endpoint: string; debuggable: boolean; age_ms: number }[];
      session: { attached: boolean; connects: number };
      discovery: { listening: number[] };
    }>('status');
    expect(s.players).toEqual([
      expect.objectContaining({ endpoint: `127.0.0.1:${fixture.sdbPort}`, debuggable: true }),
    ]);
    expect(s.discovery.listening).toEqual([beaconPort]);
    expect(s.session).toMatchObject({ attached: false, connects: 0 });
  });

  it('resume before anything is attached is NOT_ATTACHED', async () => {
    expect((await server.fails('resume')).code).toBe('NOT_ATTACHED');
  });

  it('eval attaches lazily to the one visible player and reports its cost', async () => {
    const r = await server.call('eval', { code: 'Game.Probe.SInt' });
    expect(r.isError ?? false).toBe(false);
    const s = r.structuredContent as { value: string; type: string; cost: Cost };
    expect(s).toMatchObject({ kind: 'value', value: '-123456789', type: 'int' });
    expect(s.cost.invokes).toBe(0); // a field is a wire read
    expect(s.cost.wire_commands).toBeGreaterThan(0);
    const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
    expect(text).toMatch(/^-123456789 {2}\(int\)\ncost: \d+ wire commands, 0 invokes, game frozen/);
    const st = await server.ok<{ session: { attached: boolean; endpoint: string } }>('status');
    expect(st.session).toMatchObject({
      attached: true,
      endpoint: `127.0.0.1:${fixture.sdbPort}`,
    });
  });

  it('suspend holds the game across calls until resume', async () => {
    const held = await server.ok<{ holds: number }>('suspend');
    expect(held.holds).toBe(1);
    const a = await frame();
    await new Promise((r) => setTimeout(r, 200));
    expect(await frame()).toBe(a);
    const st = await server.ok<{ session: { holds: { caller: string; count: number }[] } }>(
      'status',
    );
    // through the broker, a caller is its client's name and its front-end's pid
    expect(st.session.holds).toEqual([
      { caller: `integration-test (pid ${server.pid})`, count: 1 },
    ]);
    const released = await server.ok<{ holds: number; running: boolean }>('resume');
    expect(released).toMatchObject({ holds: 0, running: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(await frame()).toBeGreaterThan(a);
  });

  it('resume without a hold of your own is HOLD_NOT_OWNED', async () => {
    expect((await server.fails('resume')).code).toBe('HOLD_NOT_OWNED');
  });

  it('advance steps a held game by frames and holds it again, with before/after', async () => {
    await server.ok('suspend');
    try {
      const r = await server.ok<{
        frame_before: number;
        frame_after: number;
        frames_advanced: number;
        held: boolean;
        before: string;
        after: string;
      }>('advance', { frames: 5, before: 'Time.frameCount', after: 'Time.frameCount' });
      expect(r.frames_advanced).toBeGreaterThanOrEqual(5);
      expect(r.held).toBe(true);
      expect(Number(r.before)).toBe(r.frame_before);
      expect(Number(r.after)).toBe(r.frame_after);
      // held again: the frame counter stands still
      expect(await frame()).toBe(r.frame_after);
      await new Promise((res) => setTimeout(res, 150));
      expect(await frame()).toBe(r.frame_after);
    } finally {
      await server.ok('resume');
    }
  });

  it('advance by seconds on a running game lets it run', async () => {
    const r = await server.ok<{ frames_advanced: number; held: boolean }>('advance', {
      seconds: 0.3,
    });
    expect(r.held).toBe(false);
    expect(r.frames_advanced).toBeGreaterThan(0);
  });

  it('attach to an explicit endpoint, detach frees the slot', async () => {
    const a = await server.ok<{ session: { endpoint: string; target: string } }>('attach', {
      host: '127.0.0.1',
      port: fixture.sdbPort,
    });
    expect(a.session).toMatchObject({
      endpoint: `127.0.0.1:${fixture.sdbPort}`,
      target: `endpoint 127.0.0.1:${fixture.sdbPort}`,
    });
    expect(await server.ok('detach')).toMatchObject({ was_attached: true });
    expect((await server.ok<{ session: { attached: boolean } }>('status')).session.attached).toBe(
      false,
    );
    // the next call attaches again by itself
    expect((await server.ok<{ value: string }>('eval', { code: '1 + 1' })).value).toBe('2');
  });
});

describe('find_types', () => {
  it('finds a type by simple name and lists its members', async () => {
    const r = await server.ok<{
      types: { full_name: string; fields?: { items: string[] }; methods?: { items: string[] } }[];
    }>('find_types', { query: 'Probe', members: true });
    const probe = r.types.find((t) => t.full_name === 'Game.Probe');
    expect(probe?.fields?.items).toContain('static int SInt');
    expect(probe?.methods?.items).toContain('static long SlowManaged(int ms)');
  });

  it('suggests close names on a miss', async () => {
    const r = await server.ok<{ types: unknown[]; suggestions: string[] }>('find_types', {
      query: 'Game.Prob',
    });
    expect(r.types).toEqual([]);
    expect(r.suggestions).toContain('Game.Probe');
  });
});

describe('screenshot and logs', () => {
  it('returns the frame inline as a PNG no larger than max_size, and saves it', async () => {
    const path = join(tmpdir(), `mcp-shot-${process.pid}.png`);
    try {
      const r = await server.call('screenshot', { max_size: 64, path });
      expect(r.isError ?? false).toBe(false);
      const image = r.content.find((c) => c.type === 'image');
      expect(image?.type === 'image' && image.mimeType).toBe('image/png');
      const png = Buffer.from(image?.type === 'image' ? image.data : '', 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      const s = r.structuredContent as { width: number; height: number; bytes: number };
      expect(Math.max(s.width, s.height)).toBeLessThanOrEqual(64);
      expect(s.bytes).toBe(png.length);
      expect(await readFile(path)).toEqual(png);
    } finally {
      await rm(path, { force: true });
    }
  });

  it('logs returns entries since a cursor, filtered by level', async () => {
    const first = await server.ok<{ cursor: string; path: string }>('logs', { limit: 1 });
    expect(first.path).toBe(fixture.logPath);
    await server.ok('eval', { code: 'Debug.LogWarning("mcp-warning-marker")' });
    await server.ok('eval', { code: 'Debug.Log("mcp-log-marker")' });
    const next = await server.ok<{ entries: { level: string; message: string }[] }>('logs', {
      since: first.cursor,
      pattern: 'mcp-.*-marker',
    });
    expect(next.entries.map((e) => [e.level, e.message])).toEqual([
      ['warning', 'mcp-warning-marker'],
      ['log', 'mcp-log-marker'],
    ]);
    const warnings = await server.ok<{ entries: { message: string }[] }>('logs', {
      since: first.cursor,
      level: 'warning',
    });
    expect(warnings.entries.map((e) => e.message)).toContain('mcp-warning-marker');
    expect(warnings.entries.map((e) => e.message)).not.toContain('mcp-log-marker');
  });
});

describe("the tools' own programs leave the agent's `_` alone", () => {
  it('after advance, logs and screenshot (both methods), `_` is still the value of the last eval', async () => {
    await server.ok('detach'); // a new connection: logs asks the game for its path again
    const last = async (): Promise<string> =>
      (await server.ok<{ value: string }>('eval', { code: '_' })).value;
    await server.ok('eval', { code: '6 * 7 + 1000' });
    expect(await last()).toBe('1042');

    const logs = await server.ok<{ cost: Cost }>('logs', { limit: 0 });
    expect(logs.cost.invokes).toBe(1); // Application.consoleLogPath, read in the game
    expect(await last()).toBe('1042');

    const advanced = await server.ok<{ frames_advanced: number }>('advance', { frames: 2 });
    expect(advanced.frames_advanced).toBeGreaterThanOrEqual(2);
    expect(await last()).toBe('1042');

    const captured = await server.ok<{ method: string }>('screenshot', { max_size: 32 });
    expect(captured.method).toBe('capture-file');
    expect(await last()).toBe('1042');

    await server.ok('suspend');
    try {
      const rendered = await server.ok<{ method: string }>('screenshot', { max_size: 32 });
      expect(rendered.method).toBe('render-texture');
      expect(await last()).toBe('1042');
    } finally {
      await server.ok('resume');
    }
  });
});

describe('errors: a stable code and an actionable message, from real triggers', () => {
  it('INVALID_ARGUMENT names the field the schema refused', async () => {
    const r = await server.fails('screenshot', { max_size: 5 });
    expect(r.code).toBe('INVALID_ARGUMENT');
    expect(r.text).toMatch(/max_size/);
    expect((await server.fails('advance', { frames: 1, seconds: 1 })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await server.fails('eval', {})).text).toMatch(/code/);
  });

  it('an unknown tool is a protocol error, not a result', async () => {
    await expect(server.client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      /unknown tool "nope"/,
    );
  });

  it('PARSE_ERROR, NAME_NOT_FOUND, TYPE_NOT_FOUND, MEMBER_NOT_FOUND with suggestions', async () => {
    const parse = await server.fails('eval', { code: '1 +' });
    expect(parse.code).toBe('PARSE_ERROR');
    expect((await server.fails('eval', { code: 'nosuchname' })).code).toBe('NAME_NOT_FOUND');
    expect((await server.fails('eval', { code: 'new NoSuchType()' })).code).toBe('TYPE_NOT_FOUND');
    const member = await server.fails('eval', { code: 'Game.Probe.SIntt' });
    expect(member.code).toBe('MEMBER_NOT_FOUND');
    expect(member.meta.suggestions).toContain('SInt');
    expect(member.text).toMatch(/did you mean: .*SInt/);
  });

  it('EVAL_COMPILE for what C# would not compile, EVAL_UNSUPPORTED for what we refuse', async () => {
    const compile = await server.fails('eval', { code: '"a" * 2' });
    expect(compile.code).toBe('EVAL_COMPILE');
    expect(compile.meta.details).toMatchObject({ csCode: 'CS0019' });
    const unsupported = await server.fails('eval', { code: 'object a = 1; object b = a; a == b' });
    expect(unsupported.code).toBe('EVAL_UNSUPPORTED');
  });

  it('GAME_EXCEPTION carries the type, message and stack', async () => {
    const r = await server.fails('eval', { code: 'Game.Probe.Throw()' });
    expect(r.code).toBe('GAME_EXCEPTION');
    expect(r.text).toMatch(/InvalidOperationException: boom from fixture/);
    expect(r.text).toMatch(/Game\.Probe\.Throw/);
  });
});

describe('errors that need their own game or server', () => {
  it('NO_PLAYER when nothing announces itself', async () => {
    const lonely = await startServer([
      '--beacon-port',
      String(await freeUdpPort()),
      '--no-multicast',
    ]);
    try {
      const r = await lonely.fails('eval', { code: '1' });
      expect(r.code).toBe('NO_PLAYER');
      expect(r.text).toMatch(/host/); // says how to attach without a beacon
    } finally {
      await lonely.close();
    }
  });

  it('AMBIGUOUS_PLAYER when two games announce, until one is chosen', async () => {
    const port = await freeUdpPort();
    const a = await startBeaconing(port);
    const b = await startBeaconing(port);
    const s = await startServer(['--beacon-port', String(port), '--no-multicast']);
    try {
      const r = await s.fails('eval', { code: '1' });
      expect(r.code).toBe('AMBIGUOUS_PLAYER');
      expect(r.text).toContain(String(a.sdbPort));
      expect(r.text).toContain(String(b.sdbPort));
      await s.ok('attach', { player: `127.0.0.1:${b.sdbPort}` });
      expect((await s.ok<{ value: string }>('eval', { code: '2 + 2' })).value).toBe('4');
    } finally {
      await s.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('ATTACH_FAILED when nothing listens at the endpoint', async () => {
    const port = await freeLoopbackPort();
    const r = await server.fails('attach', { host: '127.0.0.1', port });
    expect(r.code).toBe('ATTACH_FAILED');
    expect(r.text).toContain(`127.0.0.1:${port}`);
  });

  it('GAME_REPLACED: a write to another game at the same endpoint is refused until attach', async () => {
    const first = await startFixture({ entities: 10 });
    const port = first.sdbPort;
    const s = await startServer(['--port', String(port)]);
    let second: FixtureProcess | undefined;
    try {
      await s.ok('eval', { code: 'Game.Probe.SInt' });
      await first.stop();
      second = await startFixture({ entities: 10, sdbPort: port });
      // reads still work against the new game; a write is refused
      expect((await s.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt' })).value).toBe(
        '-123456789',
      );
      const r = await s.fails('eval', { code: 'Game.Probe.SInt = 5' });
      expect(r.code).toBe('GAME_REPLACED');
      await s.ok('attach', { port });
      expect((await s.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt = 5' })).value).toBe(
        '5',
      );
    } finally {
      await s.close();
      await second?.stop();
      await first.stop();
    }
  });

  it('MAIN_THREAD_BUSY and TIMEOUT are bounded, and the game runs afterwards', async () => {
    const game = await startFixture({ entities: 10 });
    const s = await startServer([
      '--port',
      String(game.sdbPort),
      '--park-timeout-ms',
      '500',
      '--invoke-timeout-ms',
      '1000',
    ]);
    try {
      await s.ok('eval', { code: 'Game.Control.WedgeMs = 3000' }); // a field write: no invoke
      await new Promise((r) => setTimeout(r, 100));
      const busy = await s.fails('eval', { code: 'Time.frameCount' });
      expect(busy.code).toBe('MAIN_THREAD_BUSY');
      await new Promise((r) => setTimeout(r, 3000));
      const slow = await s.fails('eval', { code: 'Game.Probe.SlowManaged(20000)' });
      expect(slow.code).toBe('TIMEOUT');
      expect(slow.text).toMatch(/may still have happened/);
      const f = Number((await s.ok<{ value: string }>('eval', { code: 'Time.frameCount' })).value);
      await new Promise((r) => setTimeout(r, 200));
      expect(
        Number((await s.ok<{ value: string }>('eval', { code: 'Time.frameCount' })).value),
      ).toBeGreaterThan(f);
    } finally {
      await s.close();
      await game.stop();
    }
  });

  it('MAY_HAVE_APPLIED when the game dies during a call that changes it', async () => {
    const game = await startFixture({ entities: 10 });
    const s = await startServer(['--port', String(game.sdbPort)]);
    try {
      await s.ok('eval', { code: '1' });
      const call = s.fails('eval', { code: 'Game.Probe.SlowManaged(10000)' });
      // killed once the game is inside the call (its busy loop burns a core), not after a
      // fixed delay a loaded machine may not have reached the invoke in
      await busy(game.pid);
      process.kill(game.pid, 'SIGKILL');
      expect((await call).code).toBe('MAY_HAVE_APPLIED');
    } finally {
      await s.close();
      await game.stop();
    }
  });

  it('CONNECTION_LOST when the game dies during a read', async () => {
    const game = await startFixture({ entities: 10 });
    const s = await startServer(['--port', String(game.sdbPort)]);
    try {
      await s.ok('eval', { code: '1' });
      // stopped by the OS, the game cannot answer: the read waits, then the game dies
      process.kill(game.pid, 'SIGSTOP');
      const call = s.fails('find_types', { query: 'Game.*' });
      await new Promise((r) => setTimeout(r, 300));
      process.kill(game.pid, 'SIGKILL');
      const r = await call;
      expect(r.code).toBe('CONNECTION_LOST');
      expect(r.text).toMatch(new RegExp(`127\\.0\\.0\\.1:${game.sdbPort}`));
    } finally {
      await s.close();
      await game.stop();
    }
  });
});
