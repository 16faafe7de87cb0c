// Watching a running game without stopping it: logpoints (debug_set_breakpoint with `log`,
// read by debug_trace), breakpoints in code C# hides (coroutines, async methods, lambdas, local
// functions as Roslyn lowers them), and the per-frame watch and profile with their charts,
// through the tools run in-process against the fixture under the real Mono agent. Lines are found by the MARK comments of
// fixtures/src/Assembly-CSharp/Game/ObserveTargets.cs. Every test leaves the game running with no
// breakpoint of its own.

import { afterEach, describe, expect, it } from 'vitest';

import { callTool } from '../mcp/server.js';
import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { profileTool, watchTool } from '../mcp/tools/watch.js';
import { decodePng } from '../unity/png/index.js';
import { useFixtureApp } from './support/fixture-app.js';
import { clearDebugger, fixtureMarks, toolCaller } from './support/tool-harness.js';

const mark = fixtureMarks(
  'Assembly-CSharp/Game/ObserveTargets.cs',
  'Assembly-CSharp/Game/DebugTargets.cs',
);

const game = useFixtureApp({ entities: 10 });

afterEach(async () => {
  await clearDebugger(call);
});

interface Entry {
  seq: number;
  breakpoint: number;
  time: string;
  frame?: number;
  thread: number;
  message: string;
  errors?: { code: string; error: string }[];
}
interface BreakpointOut {
  id: number;
  hits: number;
  log?: string;
  stop_cost?: { stops: number; avg_ms: number; max_ms: number };
  locations: { method: string; line?: number }[];
}
interface FrameOut {
  method: string;
  line?: number;
  variables: { name: string; kind: string; value: string }[];
}
interface StopOut {
  breakpoint?: number;
  location: { method: string; line?: number };
}
interface Out {
  value: string;
  stopped: boolean;
  stop: StopOut;
  frames: FrameOut[];
  breakpoint: BreakpointOut;
  breakpoints: BreakpointOut[];
  paused: boolean;
  entries: Entry[];
  dropped: { breakpoint: number; count: number }[];
  last: number;
  more: boolean;
}

const call = toolCaller<Out>([...debugTools, evalTool], () => game.app);

interface SeriesOut {
  code: string;
  numeric: boolean;
  stats?: { min: number; median: number; p95: number; max: number };
  jumps: { frame: number; from: number; to: number }[];
  errors: number;
  values: (number | string | null)[];
}
interface WatchOut {
  where: string;
  samples: number;
  timed_out: boolean;
  frames: number[];
  series: SeriesOut[];
  watch_cost: {
    unwatched_frame_ms?: number;
    watched_frame_ms?: number;
    slowdown?: number;
    stop_mean_ms: number;
  };
  hitches: { frame: number; ms: number }[];
  frame_ms: { median: number };
  gc_collections?: number;
  heap?: { min: number; max: number };
}

/** Calls watch or profile, returning the structured result and the chart's PNG bytes. */
async function watchCall(
  tool: typeof watchTool | typeof profileTool,
  args: Record<string, unknown>,
): Promise<{ out: WatchOut; png: Buffer }> {
  const r = await callTool(tool, args, { app: game.app, caller: 'agent-a' });
  if (r.isError) throw new Error((r.content[0] as { text: string }).text);
  const image = r.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
  expect(image.mimeType).toBe('image/png');
  return {
    out: r.structuredContent as unknown as WatchOut,
    png: Buffer.from(image.data, 'base64'),
  };
}

/** Game.ObserveTargets.Schedule, as the fixture computes it. */
const schedule = (frame: number): number => (Math.floor(frame / 10) % 4) * 25;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function frameCount(): Promise<number> {
  return Number((await call('eval', { code: 'Time.frameCount' })).value);
}

/** Frames the game runs in `ms` of wall time. */
async function framesIn(ms: number): Promise<number> {
  const a = await frameCount();
  await sleep(ms);
  return (await frameCount()) - a;
}

describe('logpoints', () => {
  it('record every frame of a per-frame method without pausing the game', async () => {
    const normal = await framesIn(600);
    const bp = (
      await call('debug_set_breakpoint', {
        type: 'Game.ObserveTargets',
        method: 'Frame',
        line: mark('observe-wave'),
        log: 'frame={Time.frameCount} arg={frame} wave={Wave} {{braces}} bad={nosuch.member}',
      })
    ).breakpoint;
    expect(bp.log).toContain('{Time.frameCount}');
    // nothing of ours suspends the game while it logs: a VM suspension that catches the thread
    // exactly on the breakpoint's sequence point lets that line run without an event (Mono,
    // docs/solutions/breakpoint-pauses.md), which would be a frame missing from the trace
    // (debug_trace reads our buffer only); on a loaded machine the game runs slower, so wait for
    // the entries, bounded, rather than for a fixed time
    const deadline = Date.now() + 15_000;
    while (
      (await call('debug_trace', { breakpoint: bp.id, limit: 1000 })).entries.length < 15 &&
      Date.now() < deadline
    )
      await sleep(100);
    const status = await call('debug_status', {});
    expect(status.paused).toBe(false);
    await call('debug_remove_breakpoint', { id: bp.id });

    const t = await call('debug_trace', { breakpoint: bp.id, limit: 1000 });
    const frames = t.entries.map((e) => e.frame!);
    // the game kept running while every frame was logged (how fast is the bench's to measure:
    // observe.json; a paused game would not advance at all)
    expect(normal, 'frames the game ran in 600 ms before the logpoint').toBeGreaterThan(10);
    expect(frames.length, 'entries logged in 15 s').toBeGreaterThan(10);
    expect(frames.at(-1)! - frames[0]!).toBeGreaterThan(10);
    // every frame, in order, none lost: consecutive frame counts
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBe(frames[i - 1]! + 1);
    for (const e of t.entries) {
      // the parameter is Time.frameCount, and Wave is still the previous frame's value
      expect(e.message).toMatch(/^frame=\d+ arg=\d+ wave=\d+ \{braces\} bad=<error: .*nosuch.*>$/);
      // the entry's frame is the message's Time.frameCount; the parameter is that number too
      expect(e.message.startsWith(`frame=${e.frame} arg=${e.frame} `)).toBe(true);
      expect(e.errors?.map((x) => x.code)).toEqual(['nosuch.member']);
      expect(e.breakpoint).toBe(bp.id);
    }
    const cost = status.breakpoints.find((b) => b.id === bp.id)!.stop_cost!;
    expect(cost.stops).toBeGreaterThan(0);
    expect(cost.avg_ms).toBeGreaterThan(0);

    // since: only what came after
    const later = await call('debug_trace', { breakpoint: bp.id, since: t.entries[4]!.seq });
    expect(later.entries[0]!.seq).toBe(t.entries[5]!.seq);
  });

  it('combine with a condition: only the hits where it holds are recorded', async () => {
    const bp = (
      await call('debug_set_breakpoint', {
        type: 'Game.ObserveTargets',
        method: 'Frame',
        line: mark('observe-wave'),
        condition: 'frame % 3 == 0',
        log: '{frame % 3}:{Time.frameCount}',
      })
    ).breakpoint;
    await sleep(500);
    await call('debug_remove_breakpoint', { id: bp.id });
    const t = await call('debug_trace', { breakpoint: bp.id });
    expect(t.entries.length).toBeGreaterThan(3);
    for (const e of t.entries) {
      expect(e.frame! % 3).toBe(0);
      expect(e.message).toBe(`0:${e.frame}`);
    }
    const frames = t.entries.map((e) => e.frame!);
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBe(frames[i - 1]! + 3);
  });

  it("on another thread: recorded with that thread and its frame's values", async () => {
    await call('eval', { code: 'Game.DebugTargets.StartWorker()' });
    const bp = (
      await call('debug_set_breakpoint', {
        type: 'Game.DebugTargets',
        method: 'WorkerLoop',
        line: mark('worker-store'),
        log: 'ticks={ticks}',
      })
    ).breakpoint;
    const deadline = Date.now() + 5000;
    let t = await call('debug_trace', { breakpoint: bp.id });
    while (t.entries.length < 3 && Date.now() < deadline) {
      await sleep(50);
      t = await call('debug_trace', { breakpoint: bp.id });
    }
    await call('debug_remove_breakpoint', { id: bp.id });
    expect(t.entries.length).toBeGreaterThanOrEqual(3);
    const threads = new Set(t.entries.map((e) => e.thread));
    expect(threads.size).toBe(1);
    for (const e of t.entries) {
      expect(e.message).toMatch(/^ticks=\d+$/);
      expect(e.frame).toBeUndefined();
    }
    // the worker's own ticks, one per loop
    const ticks = t.entries.map((e) => Number(e.message.slice('ticks='.length)));
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBe(ticks[i - 1]! + 1);
  });

  it('record no frame number their message does not read (no invoke of their own at each hit)', async () => {
    const bp = (
      await call('debug_set_breakpoint', {
        type: 'Game.ObserveTargets',
        method: 'Frame',
        line: mark('observe-wave'),
        log: 'arg={frame}',
      })
    ).breakpoint;
    await sleep(300);
    await call('debug_remove_breakpoint', { id: bp.id });
    const t = await call('debug_trace', { breakpoint: bp.id });
    expect(t.entries.length).toBeGreaterThan(3);
    for (const e of t.entries) {
      expect(e.message).toMatch(/^arg=\d+$/);
      expect(e.frame).toBeUndefined();
    }
  });

  it('refuse a message with an unclosed hole', async () => {
    await expect(
      call('debug_set_breakpoint', {
        type: 'Game.ObserveTargets',
        method: 'Frame',
        log: 'x={frame',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

/** Sets a breakpoint, waits for its stop, returns the stop and the top frame. */
async function stopAt(args: Record<string, unknown>): Promise<{ stop: StopOut; top: FrameOut }> {
  const bp = (await call('debug_set_breakpoint', args)).breakpoint;
  const w = await call('debug_wait', { timeout_ms: 5000 });
  expect(w.stopped).toBe(true);
  expect(w.stop.breakpoint).toBe(bp.id);
  const state = await call('debug_pause_state', { frames: 3, variable_frames: 1 });
  return { stop: w.stop, top: state.frames[0]! };
}

const vars = (f: FrameOut): Record<string, string> =>
  Object.fromEntries(f.variables.map((v) => [v.name, v.value]));

describe('breakpoints in code C# hides', () => {
  it('a coroutine by name stops on the first line of its body (in MoveNext), as the coroutine with its hoisted locals', async () => {
    const { stop, top } = await stopAt({ type: 'Game.ObserveTargets', method: 'Patrol' });
    expect(stop.location.method).toBe('Game.ObserveTargets.Patrol (coroutine)');
    // mcs puts a method's first sequence point on its opening brace
    expect(stop.location.line).toBe(mark('patrol-open'));
    expect(top.method).toBe('Game.ObserveTargets.Patrol (coroutine)');
    expect(vars(top)).toMatchObject({ laps: '3', walked: '0', lap: '0' });
    expect(top.variables.find((v) => v.name === 'this')?.value).toMatch(/^Game\.ObserveTargets /);
    // no state-machine internals
    expect(top.variables.some((v) => /[$<]/.test(v.name))).toBe(false);
  });

  it('a line inside a coroutine binds in its state machine; evaluation sees hoisted names and bare members', async () => {
    const { stop, top } = await stopAt({
      type: 'Game.ObserveTargets',
      method: 'Patrol',
      line: mark('patrol-step'),
    });
    expect(stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Patrol (coroutine)',
      line: mark('patrol-step'),
    });
    const v = vars(top);
    expect(top.variables.find((x) => x.name === 'laps')?.kind).toBe('param');
    const walked = Number(v.walked);
    const lap = Number(v.lap);
    expect(walked).toBe(lap * 3); // Scale is 3: walked grows by it each lap
    expect(
      (await call('debug_evaluate', { code: 'walked + laps * 100 + Scale * 1000' })).value,
    ).toBe(String(walked + 300 + 3000));
  });

  it('an async method by name stops in its body; a line after an await binds in MoveNext too', async () => {
    const first = await stopAt({ type: 'Game.ObserveTargets', method: 'Load' });
    expect(first.stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Load (async)',
      line: mark('async-open'),
    });
    expect(vars(first.top)).toMatchObject({ doubled: '0' });
    const frame = Number(vars(first.top).frame);
    expect(frame).toBeGreaterThan(0);
    await clearDebugger(call);

    const after = await stopAt({
      type: 'Game.ObserveTargets',
      method: 'Load',
      line: mark('async-after'),
    });
    expect(after.stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Load (async)',
      line: mark('async-after'),
    });
    const v = vars(after.top);
    expect(Number(v.doubled)).toBe(Number(v.frame) * 2);
    expect((await call('debug_evaluate', { code: 'doubled + Scale' })).value).toBe(
      String(Number(v.doubled) + 3),
    );
  });

  it("a line inside a lambda binds in the generated method, with its captures and the declaring object's this", async () => {
    const { stop, top } = await stopAt({
      type: 'Game.ObserveTargets',
      method: 'Shape',
      line: mark('lambda-body'),
    });
    expect(stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Shape (lambda)',
      line: mark('lambda-body'),
    });
    const v = vars(top);
    expect(v.v).toBe('2');
    expect(Number(v.offset)).toBe(Number(v.frame) % 7);
    expect((await call('debug_evaluate', { code: 'v * Scale + offset' })).value).toBe(
      String(6 + Number(v.offset)),
    );
  });

  it('file:line inside a lambda binds too', async () => {
    const { stop } = await stopAt({ file: 'ObserveTargets.cs', line: mark('lambda-body') });
    expect(stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Shape (lambda)',
      line: mark('lambda-body'),
    });
  });
  // Game.ObserveTargets.Spread is a local function as Roslyn lowers it (mcs cannot compile one:
  // the fixture writes the lowering out and fixtures/build.ts gives it Roslyn's names).
  it("a local function by name stops in its body, with its parameter, the outer method's captured local and this", async () => {
    const { stop, top } = await stopAt({ type: 'Game.ObserveTargets', method: 'Widen' });
    expect(stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Spread.Widen (local function)',
      // mcs, like Roslyn, puts a method's first sequence point on its opening brace
      line: mark('local-open'),
    });
    const v = vars(top);
    expect(v.v).toBe('4');
    expect(v.step).toMatch(/^[0-4]$/);
    // the closure struct is shown as the captured local, not as an unnamed parameter
    expect(top.variables.map((x) => x.name)).not.toContain('');
    expect(top.variables.some((x) => x.name.includes('DisplayClass'))).toBe(false);
    expect((await call('debug_evaluate', { code: 'v * Scale + step' })).value).toBe(
      String(12 + Number(v.step)),
    );
    // the outer frame shows the captured local by its name too, not Roslyn's CS$<>8__locals0
    const { frames } = await call('debug_pause_state', { frames: 2, variable_frames: 2 });
    const outer = frames[1]!;
    expect(outer.method).toBe('Game.ObserveTargets.Spread');
    expect(vars(outer)).toMatchObject({ step: v.step });
    expect(outer.variables.map((x) => x.name)).not.toContain('CS$<>8__locals0');
    expect(Number(v.step)).toBe(Number(vars(outer).frame) % 5);
  });

  it('file:line inside a local function binds in its generated method', async () => {
    const { stop } = await stopAt({ file: 'ObserveTargets.cs', line: mark('local-body') });
    expect(stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Spread.Widen (local function)',
      line: mark('local-body'),
    });
  });

  it('the outer method by name with a line of its local function binds there', async () => {
    const { stop } = await stopAt({
      type: 'Game.ObserveTargets',
      method: 'Spread',
      line: mark('local-body'),
    });
    expect(stop.location).toMatchObject({
      method: 'Game.ObserveTargets.Spread.Widen (local function)',
    });
  });
});

describe('watch and profile', () => {
  it('watch of a field changed on a known schedule returns exactly that series, its jumps, and a chart that decodes', async () => {
    const { out, png } = await watchCall(watchTool, {
      code: ['Game.ObserveTargets.Wave', 'Time.frameCount', 'nosuch'],
      frames: 60,
    });
    expect(out.samples).toBe(60);
    expect(out.timed_out).toBe(false);
    expect(out.where).toBe('UnityEngine.UnitySynchronizationContext.ExecuteTasks');
    // one sample per frame, none lost
    for (let i = 1; i < out.frames.length; i++) expect(out.frames[i]).toBe(out.frames[i - 1]! + 1);
    const [wave, frame, bad] = out.series;
    // sampled after Bootstrap.Update wrote the frame's value
    expect(wave!.values).toEqual(out.frames.map(schedule));
    expect(frame!.values).toEqual(out.frames);
    expect(wave!.jumps.map((j) => j.frame)).toEqual(
      out.frames.slice(1).filter((f) => f % 10 === 0),
    );
    expect(frame!.jumps).toEqual([]);
    expect(wave!.stats).toMatchObject({
      min: Math.min(...out.frames.map(schedule)),
      max: Math.max(...out.frames.map(schedule)),
    });
    // a failing expression is a series of errors, not a failed watch
    expect(bad!.numeric).toBe(false);
    expect(bad!.errors).toBe(60);

    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([640, 260]);
    const colours = new Set<number>();
    for (let i = 0; i < image.data.length; i += 4)
      colours.add((image.data[i]! << 16) | (image.data[i + 1]! << 8) | image.data[i + 2]!);
    expect(colours.size).toBeGreaterThan(3); // white, axes, grid, and the two lines
    expect(out.watch_cost.stop_mean_ms).toBeGreaterThan(0);
    expect(out.watch_cost.unwatched_frame_ms).toBeGreaterThan(0);
    expect(out.watch_cost.watched_frame_ms).toBeGreaterThan(0);
    // nothing left behind: no breakpoint, no pause
    const status = await call('debug_status', {});
    expect(status.breakpoints).toEqual([]);
    expect(status.paused).toBe(false);
  });

  it('watch at a given method samples there, in its scope', async () => {
    const { out } = await watchCall(watchTool, {
      code: ['frame', 'Wave'],
      frames: 20,
      where: 'Game.ObserveTargets.Frame',
    });
    expect(out.where).toBe('Game.ObserveTargets.Frame');
    const [frame, wave] = out.series;
    expect(frame!.values).toEqual(out.frames);
    // at the method's first line Wave still holds the previous frame's value
    expect(wave!.values).toEqual(out.frames.map((f) => schedule(f - 1)));
  });

  it('a watch whose method never runs ends at its bound with what it has, and leaves nothing armed', async () => {
    const { out } = await watchCall(watchTool, {
      code: ['late'],
      frames: 10,
      where: 'Game.DebugTargets.NotYetCompiled',
      timeout_ms: 600,
    });
    expect(out.timed_out).toBe(true);
    expect(out.samples).toBe(0);
    expect(out.series[0]!.values).toEqual([]);
    const status = await call('debug_status', {});
    expect(status.breakpoints).toEqual([]);
    expect(status.paused).toBe(false);
  });

  it('profile finds the hitches the fixture injected on known frames', async () => {
    await call('eval', { code: 'Game.ObserveTargets.HitchMs = 120' });
    await call('eval', { code: 'Game.ObserveTargets.HitchEvery = 40' });
    try {
      const { out, png } = await watchCall(profileTool, { frames: 150 });
      expect(out.samples).toBe(150);
      // a frame's time is the wait since the previous frame: the frame after the sleep is slow
      const injected = out.frames.filter((f) => f % 40 === 1);
      expect(injected.length).toBeGreaterThanOrEqual(3);
      const found = out.hitches.map((h) => h.frame);
      for (const f of injected) expect(found).toContain(f);
      for (const h of out.hitches.filter((x) => x.frame % 40 === 1))
        expect(h.ms).toBeGreaterThanOrEqual(120);
      expect(out.frame_ms.median).toBeGreaterThan(0);
      expect(out.gc_collections).toBeGreaterThanOrEqual(0);
      expect(out.heap!.max).toBeGreaterThan(0);
      expect(decodePng(png).width).toBe(640);
    } finally {
      await call('eval', { code: 'Game.ObserveTargets.HitchEvery = 0' });
    }
  });
});
