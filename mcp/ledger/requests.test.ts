// The request store on its own, over a temporary directory: recorded outcomes come back to a
// repeat, survive a reload, expire after their day (and leave the file), conflict with other
// arguments, are shared by concurrent repeats, and a torn last line (a crash mid-append) is
// skipped, not fatal, and not left to swallow the next line.

import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { UnityError } from '../../unity/errors.js';
import { REQUESTS_FILE, REQUEST_TTL_MS, RequestStore } from './requests.js';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

let dir: string;
let clock: number;
const stores: RequestStore[] = [];
function store(opts: { inFlightWaitMs?: number; log?: (l: string) => void } = {}): RequestStore {
  const s = new RequestStore({ dir, now: () => clock, ...opts });
  stores.push(s);
  return s;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ud-requests-'));
  clock = 1_700_000_000_000;
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const req = (id: string, digest = 'd1', tool = 'eval') => ({ id, tool, digest, caller: 'a' });

/** A run that counts how often it ran. */
function counting(result: CallToolResult, record = true) {
  const fn = async () => {
    await Promise.resolve();
    fn.runs++;
    return { result, record };
  };
  fn.runs = 0;
  return fn;
}

describe('RequestStore', () => {
  it('runs an id once; a repeat gets the recorded outcome, also after a reload', async () => {
    const run = counting(text('11'));
    const s = store();
    expect((await s.once(req('r1'), run)).replayed).toBeUndefined();
    const again = await s.once(req('r1'), run);
    expect(again.replayed?.caller).toBe('a');
    expect(again.result).toEqual(text('11'));
    await s.close();
    const reloaded = store();
    expect((await reloaded.once(req('r1'), run)).result).toEqual(text('11'));
    expect(run.runs).toBe(1);
    expect(statSync(path.join(dir, REQUESTS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('the same id with other arguments or another tool is IDEMPOTENCY_CONFLICT, nothing run', async () => {
    const s = store();
    await s.once(req('r1'), counting(text('x')));
    const other = counting(text('y'));
    for (const r of [req('r1', 'd2'), req('r1', 'd1', 'ecs_set_component')]) {
      const e = await s.once(r, other).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(UnityError);
      expect((e as UnityError).code).toBe('IDEMPOTENCY_CONFLICT');
      expect((e as UnityError).message).toMatch(/a new call needs a new request_id/);
    }
    expect(other.runs).toBe(0);
  });

  it('an outcome not to record (nothing was applied) is not kept: the repeat runs', async () => {
    const s = store();
    const refused = counting(text('SLOT_BUSY'), false);
    await s.once(req('r1'), refused);
    await s.once(req('r1'), refused);
    expect(refused.runs).toBe(2);
    expect(readFileSync(path.join(dir, REQUESTS_FILE), { flag: 'a+' }).length).toBe(0);
  });

  it('a repeat while the first runs waits for it and gets its outcome; with other arguments it conflicts at once', async () => {
    const s = store();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const slow = async () => {
      runs++;
      await gate;
      return { result: text('done'), record: true };
    };
    const first = s.once(req('r1'), slow);
    const repeat = s.once(req('r1'), slow);
    const conflict = await s.once(req('r1', 'd2'), slow).catch((e: unknown) => e);
    expect((conflict as UnityError).code).toBe('IDEMPOTENCY_CONFLICT');
    release();
    const [a, b] = await Promise.all([first, repeat]);
    expect(a.replayed).toBeUndefined();
    expect(b.replayed).toBeDefined();
    expect(b.result).toEqual(text('done'));
    expect(runs).toBe(1);
  });

  it('a repeat waits for the first within its bound: REQUEST_IN_PROGRESS after it, nothing run', async () => {
    const s = store({ inFlightWaitMs: 50 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = s.once(req('r1'), async () => {
      await gate;
      return { result: text('late'), record: true };
    });
    const other = counting(text('no'));
    const e = await s.once(req('r1'), other).catch((x: unknown) => x);
    expect((e as UnityError).code).toBe('REQUEST_IN_PROGRESS');
    expect(other.runs).toBe(0);
    release();
    await first;
  });

  it('entries older than 24 h are dropped at load and the file is rewritten without them', async () => {
    const s = store();
    await s.once(req('old'), counting(text('o')));
    clock += REQUEST_TTL_MS / 2;
    await s.once(req('new'), counting(text('n')));
    await s.close();
    clock += REQUEST_TTL_MS / 2 + 1;
    const later = store();
    expect(later.get('old')).toBeUndefined();
    expect(later.get('new')?.result).toEqual(text('n'));
    const lines = readFileSync(path.join(dir, REQUESTS_FILE), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['new']);
    // an expired id runs again
    const rerun = counting(text('o2'));
    await later.once(req('old'), rerun);
    expect(rerun.runs).toBe(1);
  });

  it('a torn last line (a crash mid-append) is skipped, logged, and removed before the next append', async () => {
    const s = store();
    await s.once(req('r1'), counting(text('kept')));
    await s.close();
    const file = path.join(dir, REQUESTS_FILE);
    appendFileSync(file, '{"id":"r2","tool":"eval","digest":"d1","at":17');
    const logs: string[] = [];
    const after = store({ log: (l) => logs.push(l) });
    expect(logs.join('\n')).toMatch(/skipped 1 unreadable line/);
    expect(after.get('r1')?.result).toEqual(text('kept'));
    expect(after.get('r2')).toBeUndefined();
    await after.once(req('r3'), counting(text('three')));
    await after.close();
    const again = store();
    expect(again.get('r3')?.result).toEqual(text('three'));
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('a file that is garbage throughout is not fatal: it starts empty', () => {
    writeFileSync(path.join(dir, REQUESTS_FILE), 'not json\n\u0000\u0000\n', { mode: 0o600 });
    const s = store();
    expect(s.size).toBe(0);
  });

  it('without a directory it keeps outcomes in memory and says it is not durable', async () => {
    const s = new RequestStore({});
    expect(s.durable).toBe(false);
    const run = counting(text('m'));
    await s.once(req('r1'), run);
    await s.once(req('r1'), run);
    expect(run.runs).toBe(1);
  });
});
