import { appendFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  PlayerLogPaths,
  readPlayerLog,
  type LogQuery,
  type PlayerLogOptions,
} from './player-log.js';
import type { GameSession, OperationResult, SessionStatus } from './session/session.js';
import { refusal } from './testing/errors.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'player-log-'));
  file = path.join(dir, 'Player.log');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ONE_INVOKE = { wireCommands: 10, invokes: 1, freezeMs: 1, wallMs: 2 };

/** A session that only reports an attachment, and a path reader that counts its calls. */
function fakeGame(gamePath: () => string) {
  const status: Pick<SessionStatus, 'attached' | 'endpoint' | 'connects'> = {
    attached: true,
    endpoint: '127.0.0.1:56001',
    connects: 1,
  };
  const session = { status: () => status } as unknown as GameSession;
  const paths = new PlayerLogPaths();
  let asked = 0;
  const options: PlayerLogOptions = {
    readGamePath: (): Promise<OperationResult<string>> => {
      asked++;
      return Promise.resolve({ value: gamePath(), cost: ONE_INVOKE });
    },
    wine: { env: {}, home: dir, steamRoots: [] },
  };
  return {
    session,
    paths,
    status,
    options,
    asked: () => asked,
    read: (q: Partial<LogQuery> = {}) =>
      readPlayerLog(session, paths, { caller: 'test', ...q }, options),
  };
}

const HEADER = "Mono path[0] = '/build'\nUnloadTime: 0.4 ms\n";
const frames = (method: string) => `UnityEngine.Debug:${method} (object)\nBootstrap:Update ()\n`;
const log = (m: string) => `${m}\n${frames('Log')}\n`;
const warning = (m: string) => `${m}\n${frames('LogWarning')}\n`;
const error = (m: string) => `${m}\n${frames('LogError')}\n`;
const exception = (m: string) =>
  `InvalidOperationException: ${m}\n  at Game.Probe.Throw () [0x0] in <x>:0 \n\n`;

describe('readPlayerLog', () => {
  it('asks the game for the path once per attachment; a cached call costs nothing', async () => {
    await writeFile(file, HEADER + log('a'));
    const g = fakeGame(() => file);
    const first = await g.read();
    expect(first.value).toMatchObject({ path: file, gamePath: file, restarted: false, skipped: 0 });
    expect(first.cost.invokes).toBe(1);
    const second = await g.read();
    expect(g.asked()).toBe(1);
    expect(second.cost).toMatchObject({ wireCommands: 0, invokes: 0, freezeMs: 0 });
    // a new connection (the game may have restarted) asks again
    g.status.connects = 2;
    expect((await g.read()).cost.invokes).toBe(1);
    expect(g.asked()).toBe(2);
    // not attached now: nothing cached is trusted
    g.status.attached = false;
    await g.read();
    expect(g.asked()).toBe(3);
  });

  it('returns the new entries after a cursor, then none', async () => {
    await writeFile(file, HEADER + log('old'));
    const g = fakeGame(() => file);
    const start = (await g.read()).value;
    expect(start.entries.map((e) => [e.level, e.message, e.line])).toEqual([
      ['unknown', "Mono path[0] = '/build'\nUnloadTime: 0.4 ms", 1],
      ['log', 'old', 3],
    ]);
    await appendFile(file, log('m1') + warning('w1') + error('e1') + exception('x1'));
    const r = (await g.read({ since: start.cursor })).value;
    expect(r.entries.map((e) => [e.level, e.message, e.line])).toEqual([
      ['log', 'm1', 7],
      ['warning', 'w1', 11],
      ['error', 'e1', 15],
      ['exception', 'InvalidOperationException: x1', 19],
    ]);
    expect(r.entries[0]!.stackTrace).toBe('UnityEngine.Debug:Log (object)\nBootstrap:Update ()');
    const none = (await g.read({ since: r.cursor })).value;
    expect(none).toMatchObject({
      entries: [],
      skipped: 0,
      bytes: 0,
      pendingBytes: 0,
      cursor: r.cursor,
    });

    // an entry being written is held back, and the cursor stays before it
    await appendFile(file, 'half\nUnityEngine.Debug:Log (object)\n');
    const half = (await g.read({ since: r.cursor })).value;
    expect(half).toMatchObject({ entries: [], cursor: r.cursor, pendingBytes: 36 });
    await appendFile(file, 'Bootstrap:Update ()\n\n');
    const whole = (await g.read({ since: half.cursor })).value;
    expect(whole.entries.map((e) => [e.message, e.line])).toEqual([['half', 22]]);
    expect(whole.pendingBytes).toBe(0);
  });

  it('filters by level (that level and more severe) and by pattern (message or stack)', async () => {
    await writeFile(
      file,
      HEADER + log('m1') + warning('w1') + error('e1') + exception('x1') + log('m2'),
    );
    const g = fakeGame(() => file);
    const messages = async (q: Partial<LogQuery>) =>
      (await g.read(q)).value.entries.map((e) => e.message);
    expect(await messages({ level: 'warning' })).toEqual([
      'w1',
      'e1',
      'InvalidOperationException: x1',
    ]);
    expect(await messages({ level: 'error' })).toEqual(['e1', 'InvalidOperationException: x1']);
    expect(await messages({ level: 'exception' })).toEqual(['e1', 'InvalidOperationException: x1']);
    // the header's level is unknown: no level filter lets it through
    expect(await messages({ level: 'log' })).toEqual([
      'm1',
      'w1',
      'e1',
      'InvalidOperationException: x1',
      'm2',
    ]);
    expect(await messages({ pattern: '^M\\d' })).toEqual(['m1', 'm2']);
    expect(await messages({ pattern: 'debug:logwarning' })).toEqual(['w1']);
    expect(await messages({ pattern: '^m\\d', level: 'error' })).toEqual([]);
  });

  it('keeps the newest `limit` entries and counts the rest as skipped', async () => {
    await writeFile(file, HEADER + log('m1') + log('m2') + log('m3') + log('m4'));
    const g = fakeGame(() => file);
    const r = (await g.read({ limit: 2, pattern: '^m\\d' })).value;
    expect(r.entries.map((e) => e.message)).toEqual(['m3', 'm4']);
    expect(r.skipped).toBe(2);
    const zero = (await g.read({ limit: 0 })).value;
    expect(zero).toMatchObject({ entries: [], skipped: 5, cursor: r.cursor });
  });

  it('says when the game restarted, and when a bound cut the read', async () => {
    await writeFile(file, HEADER + log('a'));
    const g = fakeGame(() => file);
    const c = (await g.read()).value.cursor;
    await writeFile(file + '.new', HEADER + log('b'));
    await rename(file + '.new', file);
    const r = (await g.read({ since: c })).value;
    expect(r.restarted).toBe(true);
    expect(r.entries.map((e) => e.message).at(-1)).toBe('b');

    await appendFile(file, log('c') + log('d'));
    const cut = (
      await readPlayerLog(
        g.session,
        g.paths,
        { caller: 't', since: r.cursor },
        { ...g.options, maxReadBytes: 60 },
      )
    ).value;
    expect(cut.entries.map((e) => e.message)).toEqual(['d']);
    expect(cut.omittedBytes).toBe(Buffer.byteLength(log('c')));
  });

  it('reads a Windows path through a Wine prefix, and looks again when the file moves', async () => {
    const gamePath = 'C:\\users\\steamuser\\AppData\\LocalLow\\Acme\\Game\\Player.log';
    const at = (prefix: string) =>
      path.join(prefix, 'drive_c', 'users', 'steamuser', 'AppData', 'LocalLow', 'Acme', 'Game');
    const one = path.join(dir, 'one');
    const two = path.join(dir, 'two');
    await mkdir(at(one), { recursive: true });
    await writeFile(path.join(at(one), 'Player.log'), HEADER + log('in one'));
    const g = fakeGame(() => gamePath);
    g.options.wine = { env: {}, home: dir, steamRoots: [path.join(dir, 'Steam')] };
    const compat = path.join(dir, 'Steam', 'steamapps', 'compatdata');
    await mkdir(compat, { recursive: true });
    await rename(one, path.join(compat, '1'));
    await mkdir(path.join(compat, '1', 'pfx'));
    await rename(path.join(compat, '1', 'drive_c'), path.join(compat, '1', 'pfx', 'drive_c'));
    const r = (await g.read()).value;
    expect(r.gamePath).toBe(gamePath);
    expect(r.path).toBe(path.join(at(path.join(compat, '1', 'pfx')), 'Player.log'));
    expect(r.entries.at(-1)!.message).toBe('in one');

    await mkdir(at(two), { recursive: true });
    await writeFile(path.join(at(two), 'Player.log'), HEADER + log('in two'));
    await rm(path.join(compat, '1'), { recursive: true });
    await rename(two, path.join(compat, '2'));
    await mkdir(path.join(compat, '2', 'pfx'));
    await rename(path.join(compat, '2', 'drive_c'), path.join(compat, '2', 'pfx', 'drive_c'));
    const moved = (await g.read()).value;
    expect(moved.entries.at(-1)!.message).toBe('in two');
    expect(g.asked()).toBe(1);
  });

  it('refuses bad arguments before touching the game', async () => {
    const g = fakeGame(() => file);
    for (const q of [
      { limit: -1 },
      { limit: 1001 },
      { limit: 1.5 },
      { level: 'fatal' as never },
      { pattern: '(' },
      { since: 'not-a-cursor' },
    ]) {
      expect((await refusal(g.read(q))).code).toBe('INVALID_ARGUMENT');
    }
    expect(g.asked()).toBe(0);
  });

  it('refuses a log that is not on this machine with UNSUPPORTED', async () => {
    const g = fakeGame(() => 'C:\\users\\steamuser\\AppData\\LocalLow\\Acme\\Game\\Player.log');
    const e = await refusal(g.read());
    expect(e.code).toBe('UNSUPPORTED');
    expect(e.message).toMatch(/WINEPREFIX/);
  });
});
