// The player log against the real fixture: the path comes from the game (and is cached per
// attachment), the game's Debug.Log* entries come back after a cursor with the levels the fixture
// wrote them at, filters and limits apply, and a game restarted on the same file is noticed.
// The fixture's periodic logging (Ticker heartbeat, Bootstrap warnings/errors) is switched off
// first (Bootstrap's Update also runs the Ticker, which no test here needs), so that "exactly
// these entries" holds.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { evaluateInSession } from '../unity/eval-bridge/evaluate-in-session.js';
import { PlayerLogPaths, readPlayerLog, type LogQuery } from '../unity/player-log.js';
import { GameSession } from '../unity/session/session.js';
import { refusal } from '../unity/testing/errors.js';

let dataDir: string;
let fixture: FixtureProcess;
let session: GameSession;
const paths = new PlayerLogPaths();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'player-log-it-'));
  fixture = await startFixture({ entities: 10, dataDir });
  session = new GameSession();
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
  await run('Game.Control.LogEveryFrames = 0');
  await run('GameObject.Find("GameManager").GetComponent<Bootstrap>().enabled = false');
  // the engine header has no blank line after it: the first entry completes its block
  await run('Debug.Log("start")');
});

afterAll(async () => {
  await session?.shutdown();
  await fixture?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function run(source: string): Promise<void> {
  const r = await evaluateInSession(session, 'test', source);
  if (r.value.kind === 'exception')
    throw new Error(`${source}: ${r.value.type}: ${r.value.message}`);
}

function read(q: Partial<LogQuery> = {}) {
  return readPlayerLog(session, paths, { caller: 'test', ...q });
}

/** What the game writes for these, in this order (one program, so one window). */
const WRITES = [
  'Debug.Log("marker-1")',
  'Debug.LogWarning("marker-w")',
  'Debug.LogError("marker-e")',
  'Debug.Assert(false, "marker-a")',
  'Debug.LogException(new InvalidOperationException("marker-x"))',
  'Debug.LogFormat("marker-{0}", 2)',
].join('; ');
const EXPECTED = [
  ['log', 'marker-1'],
  ['warning', 'marker-w'],
  ['error', 'marker-e'],
  ['assert', 'marker-a'],
  ['exception', 'InvalidOperationException: marker-x'],
  ['log', 'marker-2'],
];
let before: string;

describe('the player log of the fixture', () => {
  it('comes from Application.consoleLogPath, asked once per attachment', async () => {
    const first = await read();
    expect(first.value.path).toBe(fixture.logPath);
    expect(first.value.gamePath).toBe(fixture.logPath);
    expect(first.cost.invokes).toBe(1);
    // the engine header opens the file, an entry of unknown level
    expect(first.value.entries[0]).toMatchObject({ level: 'unknown', line: 1 });
    expect(first.value.entries[0]!.message).toMatch(/^Mono path\[0\] = /);
    expect(first.value.entries.at(-1)).toMatchObject({ level: 'log', message: 'start' });
    expect(first.value.pendingBytes).toBe(0);

    const second = await read();
    expect(second.cost).toMatchObject({ wireCommands: 0, invokes: 0, freezeMs: 0 });
    expect(second.value.path).toBe(fixture.logPath);
  });

  it('returns exactly the entries written after a cursor, with their levels and lines', async () => {
    before = (await read()).value.cursor;
    await run(WRITES);
    const r = (await read({ since: before })).value;
    expect(r.restarted).toBe(false);
    expect(r.skipped).toBe(0);
    expect(r.entries.map((e) => [e.level, e.message])).toEqual(EXPECTED);
    // The stack opens with the public Debug method; what follows is wherever the main thread
    // was when it parked for the call (a script's frames, or none when it parked in the
    // engine's own loop), so only the first line is fixed.
    expect(r.entries[0]!.stackTrace).toMatch(/^UnityEngine\.Debug:Log \(object\)(\n|$)/);
    expect(r.entries[2]!.stackTrace).toMatch(/^UnityEngine\.Debug:LogError \(object\)(\n|$)/);
    const lines = (await readFile(fixture.logPath, 'utf8')).split('\n');
    for (const e of r.entries) expect(lines[e.line - 1]).toBe(e.message);

    const none = (await read({ since: r.cursor })).value;
    expect(none).toMatchObject({ entries: [], skipped: 0, bytes: 0, cursor: r.cursor });
  });

  it('filters by level: that level and more severe', async () => {
    const levels = async (level: LogQuery['level']) =>
      (await read({ since: before, level })).value.entries.map((e) => e.message);
    expect(await levels('warning')).toEqual([
      'marker-w',
      'marker-e',
      'marker-a',
      'InvalidOperationException: marker-x',
    ]);
    expect(await levels('error')).toEqual([
      'marker-e',
      'marker-a',
      'InvalidOperationException: marker-x',
    ]);
    expect(await levels('log')).toEqual(EXPECTED.map(([, m]) => m));
  });

  it('filters by pattern (case-insensitive regex) and refuses a broken one', async () => {
    const r = await read({ since: before, pattern: 'MARKER-[12]$' });
    expect(r.value.entries.map((e) => e.message)).toEqual(['marker-1', 'marker-2']);
    const byStack = await read({ since: before, pattern: 'Debug:LogWarning' });
    expect(byStack.value.entries.map((e) => e.message)).toEqual(['marker-w']);
    expect((await refusal(read({ pattern: '[' }))).code).toBe('INVALID_ARGUMENT');
  });

  it('keeps the newest entries under a limit and counts the others', async () => {
    const r = (await read({ since: before, limit: 2 })).value;
    expect(r.entries.map((e) => e.message)).toEqual([
      'InvalidOperationException: marker-x',
      'marker-2',
    ]);
    expect(r.skipped).toBe(4);
  });

  it('notices a game restarted on the same file, and asks the new game for the path', async () => {
    const cursor = (await read()).value.cursor;
    await session.shutdown();
    await fixture.stop();
    fixture = await startFixture({ entities: 10, dataDir });
    session = new GameSession();
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
    await run('Debug.Log("after restart")');
    const r = await read({ since: cursor });
    expect(r.cost.invokes).toBe(1);
    expect(r.value.restarted).toBe(true);
    expect(r.value.path).toBe(fixture.logPath);
    expect(r.value.entries[0]).toMatchObject({ level: 'unknown', line: 1 });
    expect(r.value.entries.map((e) => e.message)).toContain('after restart');
    expect(r.value.entries.map((e) => e.message)).not.toContain('marker-1');
  });
});
