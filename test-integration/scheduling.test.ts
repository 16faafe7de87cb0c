// Fair scheduling per game (issue 13), in-process with several callers on one real fixture, as
// the broker runs them: windows take turns, callers are served round-robin (one caller's flood
// never makes another wait for all of it), instant calls take no turn at all, one advance runs
// at a time and others' calls interleave with its frame reads. Counts and order only: no timing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { advance } from '../unity/advance.js';
import type { GameSession } from '../unity/session/session.js';
import { fixtureMarks, toolCaller } from './support/tool-harness.js';

interface Cost {
  queue_ms: number;
  queued_behind: number;
}
type Out = Record<string, unknown> & { cost: Cost };

let fixture: FixtureProcess;
let app: GameApp;
let call: (name: string, args: Record<string, unknown>, caller: string) => Promise<Out>;
const mark = fixtureMarks('Assembly-CSharp/Game/DebugTargets.cs');

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  app = await GameApp.start({ discovery: false, lingerMs: 1000 });
  call = toolCaller<Out>(ALL_TOOLS, () => app);
});

afterAll(async () => {
  await app?.close();
  await fixture?.stop();
});

function open(label: string): string {
  return app.openCaller({
    label,
    target: { kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort },
  });
}

function session(): GameSession {
  return app.allGames()[0]!.session;
}

/** Waits (bounded) until `cond` holds of the game's queue. */
async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`not reached within 15 s: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const FRAME = { code: 'UnityEngine.Time.frameCount' };

describe('scheduling several callers on one game', () => {
  it("serves callers in turn: B's one eval waits behind at most one operation per other caller with work", async () => {
    const a = open('agent A (pid 11)');
    const b = open('agent B (pid 12)');
    await call('eval', FRAME, a); // attached, the program bound: what follows only queues
    await call('eval', FRAME, b);
    const done: string[] = [];
    const flood = Array.from({ length: 40 }, (_, i) =>
      call('eval', FRAME, a).then((r) => (done.push(`a${i}`), r)),
    );
    await until('A has work queued', () => session().queue().waiting.length >= 10);
    const callersWithWork = new Set(
      session()
        .queue()
        .waiting.map((w) => w.caller),
    );
    callersWithWork.delete(b);
    const mine = await call('eval', FRAME, b);
    done.push('b');
    const all = await Promise.all(flood);
    // the one in progress plus one turn of each other caller with work queued (A): at most 2
    expect(mine.cost.queued_behind).toBeGreaterThanOrEqual(1);
    expect(mine.cost.queued_behind).toBeLessThanOrEqual(1 + callersWithWork.size);
    expect(mine.cost.queue_ms).toBeGreaterThan(0);
    // and B did not wait for A's whole flood: most of A's evals finished after it
    expect(done.indexOf('b')).toBeLessThan(20);
    // A's last evals waited behind many of its own: the count says so
    expect(Math.max(...all.map((r) => r.cost.queued_behind))).toBeGreaterThan(10);
    expect(session().queue().running).toBeUndefined();
    expect(session().queue().waiting).toEqual([]);
    await Promise.all([app.closeCaller(a), app.closeCaller(b)]);
  });

  it("instant calls take no turn while A advances and B floods; B's evals interleave with the advance's frame reads; a second advance waits for the first", async () => {
    const a = open('agent A (pid 21)');
    const b = open('agent B (pid 22)');
    const c = open('agent C (pid 23)');
    const d = open('agent D (pid 24)');
    await call('eval', FRAME, b);
    const instantBefore = session().queue().servedByTier.instant;

    const advancing = call('advance', { frames: 180 }, a); // about 3 s at the fixture's 60 fps
    await until('the advance runs', () => session().queue().heavy?.caller === a);
    // a second advance, by another caller: it waits for the first (one per game), in line
    const second = call('advance', { frames: 5 }, d);
    await until('the second advance waits', () => session().queue().heavyWaiting.length === 1);
    expect(session().queue().heavyWaiting[0]).toMatchObject({ caller: d, label: 'advance' });

    let bDuringAdvance = 0;
    const flood = Array.from({ length: 30 }, () =>
      call('eval', FRAME, b).then((r) => {
        if (session().queue().heavy?.caller === a) bDuringAdvance++;
        return r;
      }),
    );
    await until('B has work queued', () =>
      session()
        .queue()
        .waiting.some((w) => w.caller === b),
    );

    // C: status, find_types, debug_status and queue_status take no turn and wait behind no one
    const instant: Out[] = [];
    for (let i = 0; i < 3; i++) {
      instant.push(await call('status', {}, c));
      instant.push(await call('find_types', { query: 'UnityEngine.Time' }, c));
      instant.push(await call('debug_status', {}, c));
      instant.push(await call('queue_status', {}, c));
    }
    const advanceStillRunning = session().queue().heavy?.caller === a;
    for (const r of instant) expect(r.cost).toMatchObject({ queue_ms: 0, queued_behind: 0 });
    expect(session().queue().servedByTier.instant).toBe(instantBefore);

    const q = (await call('queue_status', {}, c)) as unknown as {
      callers: { caller: string }[];
      games: { heavy?: { caller: string }; heavy_waiting: { caller: string }[] }[];
    };
    expect(q.callers.map((x) => x.caller)).toEqual(expect.arrayContaining([a, b, c, d]));

    const adv = await advancing;
    await Promise.all(flood);
    const next = await second;
    expect(advanceStillRunning).toBe(true); // C's calls were answered during the advance
    // B's evals ran while the advance ran; the advance's frame reads took turns with them
    expect(bDuringAdvance).toBeGreaterThan(0);
    expect(adv.cost.queued_behind).toBeGreaterThan(0);
    expect(adv.frames_advanced as number).toBeGreaterThanOrEqual(180);
    // the second advance began after the first ended: its frames come after the first's
    expect(next.frame_before as number).toBeGreaterThanOrEqual(adv.frame_after as number);
    expect(next.cost.queued_behind).toBeGreaterThanOrEqual(1);
    await Promise.all([a, b, c, d].map((x) => app.closeCaller(x)));
  });

  it('every instant tool runs against the game without taking a turn for a window', async () => {
    const a = open('agent I (pid 31)');
    await call('eval', FRAME, a);
    const game = session(); // detach (last) frees the game: the app forgets it
    const before = game.queue().servedByTier.instant;
    const bp = { type: 'Game.DebugTargets', method: 'Step', line: mark('targets-count') };
    // a job for the job tools to read (a wait for a stop, answered with its id at once)
    const job = (await call('debug_wait', { timeout_ms: 5000, wait_ms: 0 }, a)).job as string;
    // each instant tool with arguments that make it do its work on the game
    const calls: [string, Record<string, unknown>][] = [
      ['job_status', { job }],
      ['job_wait', { job, timeout_ms: 0 }],
      ['job_cancel', { job }],
      ['status', {}],
      ['queue_status', {}],
      ['find_types', { query: 'Game.DebugTargets', members: true }],
      ['debug_locations', { type: 'Game.DebugTargets', method: 'Step' }],
      ['debug_set_breakpoint', { ...bp, log: 'frame {Time.frameCount}' }],
      ['debug_break_on_exception', { type: 'System.InvalidOperationException' }],
      ['debug_status', {}],
      ['debug_trace', {}],
      ['debug_remove_breakpoint', { all: true }],
      ['detach', {}],
    ];
    const instantTools = ALL_TOOLS.filter((t) => t.tier === 'instant').map((t) => t.name);
    expect(calls.map(([n]) => n).sort()).toEqual([...instantTools].sort());
    for (const [name, args] of calls) {
      const r = await call(name, args, a);
      expect(r.cost, name).toMatchObject({ queue_ms: 0, queued_behind: 0 });
    }
    expect(game.queue().servedByTier.instant).toBe(before);
    await app.closeCaller(a);
  });

  it("an advance waits for another caller's hold to end, then runs; refused naming the holder when it does not end", async () => {
    const a = open('agent H (pid 41)');
    const b = open('agent K (pid 42)');
    await call('eval', FRAME, a);
    await call('suspend', {}, b);
    const started = call('advance', { frames: 2 }, a);
    // the advance is waiting: nothing ran while b holds the game
    await new Promise((r) => setTimeout(r, 300));
    expect(session().queue().heavy?.caller).toBe(a);
    await call('resume', {}, b);
    const r = await started;
    expect(r.frames_advanced as number).toBeGreaterThanOrEqual(2);
    expect(r.waited_for_holds_ms as number).toBeGreaterThan(0);

    await call('suspend', {}, b);
    const game = app.allGames()[0]!;
    const refused = await advance(
      game.session,
      { debug: game.debug, journal: game.journal },
      { caller: a, frames: 1, othersHoldWaitMs: 200 },
    ).catch((e: unknown) => e as { code: string; message: string });
    expect(refused).toMatchObject({ code: 'HOLD_NOT_OWNED' });
    expect((refused as { message: string }).message).toContain('agent K (pid 42)');
    await call('resume', {}, b);
    await app.closeCaller(a);
    await app.closeCaller(b);
  });
});
