// A logpoint's holes that only read are evaluated before the frame is read (the frame's variables
// known from the method, their values asked for beside the holes' own reads): what they record
// must be what the frame holds, as a message with a call (evaluated in the frame read first)
// records it, in an instance method (locals hiding fields, properties, statics, consts, enums)
// and a struct method. Where the frame is not the one expected, the holes are evaluated again
// in the frame as it is. Lines are found by the MARK comments of
// fixtures/src/Assembly-CSharp/Game/FrameTargets.cs. Every test leaves the game running with
// no breakpoint of its own.

import { afterEach, describe, expect, it } from 'vitest';

import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { FRAME_PROGRAMS } from '../unity/debug/frame-eval.js';
import { probeFrame } from '../unity/debug/probe.js';
import { useFixtureApp } from './support/fixture-app.js';
import { clearDebugger, fixtureMarks, toolCaller } from './support/tool-harness.js';

const mark = fixtureMarks('Assembly-CSharp/Game/FrameTargets.cs');

const game = useFixtureApp({ entities: 4 });

afterEach(async () => {
  await clearDebugger(call);
});

interface Entry {
  message: string;
  errors?: { code: string; error: string }[];
}
interface Out {
  stopped: boolean;
  stop: { threadId?: number; location: { method: string; line?: number } };
  breakpoint: { id: number };
  entries: Entry[];
}

const call = toolCaller<Out>([...debugTools, evalTool], () => game.app);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The messages a logpoint recorded, at least `n` (bounded wait), the logpoint removed after. */
async function logged(type: string, method: string, line: number, log: string, n = 5) {
  const bp = (await call('debug_set_breakpoint', { type, method, line, log })).breakpoint;
  const deadline = Date.now() + 15_000;
  let t = await call('debug_trace', { breakpoint: bp.id, limit: 1000 });
  while (t.entries.length < n && Date.now() < deadline) {
    await sleep(50);
    t = await call('debug_trace', { breakpoint: bp.id, limit: 1000 });
  }
  await call('debug_remove_breakpoint', { id: bp.id });
  expect(t.entries.length, `entries of ${log}`).toBeGreaterThanOrEqual(n);
  return t.entries;
}

describe('logpoint holes evaluated before the frame is read', () => {
  it('record what the frame holds in an instance method, as holes evaluated in the read frame do', async () => {
    // a property getter first: its invoke lets the thread run, after the frame's values are read
    const reading =
      'd={Doubled} h={Health} s={shadowed} ts={this.shadowed} l={Limit} m={Current} b={BaseStatic} c={Calls == s_Calls} f={frame} lf={local == frame % 5}';
    const before = game.app.session.status();
    const early = await logged('Game.FrameTargets', 'Step', mark('frame-step'), reading);
    // a call among the holes: every hole is evaluated in the frame read first
    const late = await logged(
      'Game.FrameTargets',
      'Step',
      mark('frame-step'),
      `${reading} k={Scale(1)}`,
    );
    const expected = /^d=200 h=100 s=2 ts=1 l=42 m=Busy b=70 c=True f=(\d+) lf=True( k=100)?$/;
    for (const e of [...early, ...late]) {
      expect(e.message).toMatch(expected);
      expect(e.errors).toBeUndefined();
    }
    expect(late.every((e) => e.message.endsWith(' k=100'))).toBe(true);
    expect(early.some((e) => e.message.includes(' k='))).toBe(false);
    // consecutive frames: the parameter read late is the hit's own
    const frames = early.map((e) => Number(expected.exec(e.message)![1]));
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBe(frames[i - 1]! + 1);
    expect(game.app.session.status().holds).toEqual(before.holds);
  });

  it("read the frame's values before a static getter's invoke lets the thread run", async () => {
    const entries = await logged(
      'Game.FrameTargets',
      'Frame',
      mark('frame-static'),
      'c={Calls > 0} f={frame} l={local == frame % 5} c2={Calls > 0}',
    );
    for (const e of entries) {
      expect(e.message).toMatch(/^c=True f=\d+ l=True c2=True$/);
      expect(e.errors).toBeUndefined();
    }
  });

  it("record a struct method's `this` and fields", async () => {
    const entries = await logged(
      'Game.FramePoint',
      'Shift',
      mark('point-shift'),
      'x={X} y={Y} tx={this.X} d={d} sum={X + Y + d}',
    );
    for (const e of entries) expect(e.message).toBe('x=1 y=2 tx=1 d=10 sum=13');
  });

  it('name generic and array types this connection has not built yet', async () => {
    // binding them needs an invoke (Type.MakeGenericType / an empty array): the hole's binding
    // must have the game's invoke route, early path or not
    const entries = await logged(
      'Game.FrameTargets',
      'Step',
      mark('frame-step'),
      'a={typeof(System.Guid[,,]).Name} n={new System.Collections.Generic.List<System.TimeSpan>().Count} h={Health}',
      2,
    );
    for (const e of entries) {
      expect(e.errors).toBeUndefined();
      expect(e.message).toBe('a="Guid[,,]" n=0 h=100');
    }
  });

  it('record the error of a hole that does not bind, beside the values of the others', async () => {
    const entries = await logged(
      'Game.FrameTargets',
      'Step',
      mark('frame-step'),
      'h={Health} bad={nosuch} s={shadowed}',
    );
    for (const e of entries) {
      expect(e.message).toMatch(/^h=100 bad=<error: .*nosuch.*> s=2$/);
      expect(e.errors?.map((x) => x.code)).toEqual(['nosuch']);
    }
  });
});

describe('a frame that is not the one expected', () => {
  it('is evaluated in again as it is, by the frame read then', async () => {
    // the method of another frame (a static one with other variables), to stand for a wrong
    // place: found by a logpoint there (which never pauses)
    const other = (
      await game.app.debug.setBreakpoint('agent-a', {
        type: 'Game.FrameTargets',
        method: 'Frame',
        line: mark('frame-static'),
        log: 'x',
      })
    ).value;
    const frameMethod = other.locations[0]!.methodId;
    await call('debug_remove_breakpoint', { id: other.id });
    await call('debug_set_breakpoint', {
      type: 'Game.FrameTargets',
      method: 'Step',
      line: mark('frame-step'),
    });
    const w = await call('debug_wait', { timeout_ms: 10_000 });
    expect(w.stopped).toBe(true);
    const dbg = game.app.debug;
    const threadId = dbg.paused!.threadId;
    const codes = ['Health', 'shadowed', 'this.shadowed', 'frame > 0'];
    const probe = (at: Parameters<typeof probeFrame>[5]) =>
      game.app.session.run('test probe', 'agent-a', (ctx) =>
        probeFrame(ctx, dbg.locations(ctx), threadId, codes, false, at),
      );
    const texts = (r: Awaited<ReturnType<typeof probe>>) =>
      r.value.results.map((x) => (x.kind === 'value' ? x.text : x.kind));
    const right = dbg.paused!.location!;
    const programs = (
      await game.app.session.run('test programs', 'agent-a', (ctx) =>
        Promise.resolve(ctx.connection.part(FRAME_PROGRAMS)),
      )
    ).value;
    const before = { ...programs.stats };
    const places: (() => Parameters<typeof probeFrame>[5])[] = [
      () => undefined,
      () => ({ methodId: right.methodId, ilOffset: right.ilOffset }),
      // Frame's variables (frame, local; no `this`): Health would be CS0120 there
      () => ({ methodId: frameMethod, ilOffset: 0 }),
      // the frames could not be read early
      () => {
        const frames = Promise.reject(new Error('no frames'));
        frames.catch(() => undefined); // as the logpoint's hit does: its reader reports it
        return { methodId: right.methodId, ilOffset: right.ilOffset, frames };
      },
    ];
    for (const [i, at] of places.entries())
      expect(texts(await probe(at())), `place ${i}`).toEqual(['100', '2', '1', 'True']);
    // Step's programs bound once (read early or not, its shape is one), and refusals never kept
    expect(programs.stats.misses - before.misses).toBeLessThanOrEqual(codes.length);
    expect(programs.stats.hits - before.hits).toBeGreaterThanOrEqual(codes.length * 2);
    await call('debug_remove_breakpoint', { all: true });
    await call('debug_step', { kind: 'resume' });
  });
});
