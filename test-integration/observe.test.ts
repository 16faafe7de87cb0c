// Watching a running game without stopping it: logpoints (debug_set_breakpoint with `log`,
// read by debug_trace), breakpoints in code C# hides (coroutines, async methods, lambdas), and
// the per-frame watch and profile with their charts, through the tools run in-process against
// the fixture under the real Mono agent. Lines are found by the MARK comments of
// fixtures/src/Assembly-CSharp/Game/ObserveTargets.cs. Every test leaves the game running with no
// breakpoint of its own.

import { afterEach, describe, expect, it } from 'vitest';

import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { useFixtureApp } from './support/fixture-app.js';
import { clearDebugger, fixtureMarks, toolCaller } from './support/tool-harness.js';

const mark = fixtureMarks('Assembly-CSharp/Game/ObserveTargets.cs');

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
        log: 'frame={frame} wave={Wave} {{braces}} bad={nosuch.member}',
      })
    ).breakpoint;
    expect(bp.log).toContain('{frame}');
    const during = await framesIn(600);
    const status = await call('debug_status', {});
    expect(status.paused).toBe(false);
    await call('debug_remove_breakpoint', { id: bp.id });
    // the game kept running at nearly its normal rate while every frame was logged
    expect(during).toBeGreaterThan(normal * 0.7);

    const t = await call('debug_trace', { breakpoint: bp.id, limit: 1000 });
    expect(t.entries.length).toBeGreaterThan(10);
    const frames = t.entries.map((e) => e.frame!);
    // every frame, in order, none lost: consecutive frame counts
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBe(frames[i - 1]! + 1);
    for (const e of t.entries) {
      // the parameter is Time.frameCount, and Wave is still the previous frame's value
      expect(e.message).toMatch(/^frame=\d+ wave=\d+ \{braces\} bad=<error: .*nosuch.*>$/);
      expect(e.message.startsWith(`frame=${e.frame} `)).toBe(true);
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
        log: '{frame % 3}:{frame}',
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
});
