// Evaluation in a stopped frame sees what C# sees inside the method: bare names of `this`'s
// members (also in struct methods), statics, consts and nested types of the enclosing type and its
// bases; locals hiding fields; `this` refused in a static method (CS0026). Writes through the
// frame reach where C# would write: a struct method's `this` (STACK_FRAME.SET_THIS), a by-ref
// parameter's caller variable, a struct local a mutating method is called on. Breakpoint
// conditions use the same scope. Lines are found by the MARK comments of
// fixtures/src/Assembly-CSharp/Game/FrameTargets.cs. Every test leaves the game running with no
// breakpoint of its own.

import { afterEach, describe, expect, it } from 'vitest';

import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { useFixtureApp } from './support/fixture-app.js';
import { clearDebugger, fixtureMarks, toolCaller } from './support/tool-harness.js';

const mark = fixtureMarks('Assembly-CSharp/Game/FrameTargets.cs');

const METHODS: Record<string, [string, string]> = {
  'frame-static': ['Game.FrameTargets', 'Frame'],
  'frame-step': ['Game.FrameTargets', 'Step'],
  'frame-after-shift': ['Game.FrameTargets', 'Step'],
  'frame-end': ['Game.FrameTargets', 'Step'],
  'frame-bump': ['Game.FrameTargets', 'Bump'],
  'point-shift': ['Game.FramePoint', 'Shift'],
};

const game = useFixtureApp({ entities: 4 });

afterEach(async () => {
  await clearDebugger(call);
});

interface Out {
  value: string;
  type: string;
  stopped: boolean;
  stop: { location: { method: string; line?: number }; condition_error?: string };
  pause?: unknown;
  breakpoint: { id: number };
  breakpoints: { id: number; hits: number }[];
}

const call = toolCaller<Out>([...debugTools, evalTool], () => game.app);

async function breakAt(markName: string, extra: Record<string, unknown> = {}) {
  const [type, method] = METHODS[markName]!;
  return (await call('debug_set_breakpoint', { type, method, line: mark(markName), ...extra }))
    .breakpoint;
}

async function waitStop(timeoutMs = 10_000): Promise<Out['stop']> {
  const w = await call('debug_wait', { timeout_ms: timeoutMs });
  expect(w.stopped).toBe(true);
  return w.stop;
}

/** Stops at a mark, the only breakpoint: every other is removed first. */
async function stopAt(markName: string): Promise<void> {
  await call('debug_remove_breakpoint', { all: true });
  await breakAt(markName);
  if ((await call('debug_status', {})).pause) await call('debug_step', { kind: 'resume' });
  const stop = await waitStop();
  expect(stop.location.line).toBe(mark(markName));
}

async function ev(code: string): Promise<string> {
  return (await call('debug_evaluate', { code })).value;
}

async function evFails(code: string): Promise<Error & { code: string }> {
  try {
    await call('debug_evaluate', { code });
  } catch (e) {
    return e as Error & { code: string };
  }
  throw new Error(`${code} did not fail`);
}

describe('bare names in a frame', () => {
  it('in an instance method: fields, properties, methods of this and its base, statics, consts, nested types', async () => {
    await stopAt('frame-step');
    expect(await ev('Health')).toBe('100');
    expect(await ev('Doubled')).toBe('200');
    expect(await ev('Scale(3)')).toBe('300');
    expect(await ev('BaseField')).toBe('7');
    expect(await ev('BaseProp')).toBe('14');
    expect(await ev('BaseMethod(1)')).toBe('8');
    expect(await ev('BaseStatic')).toBe('70');
    expect(await ev('Limit')).toBe('42');
    expect(Number(await ev('s_Calls'))).toBeGreaterThan(0);
    expect(await ev('Calls == s_Calls')).toBe('True');
    expect(await ev('Twice(4)')).toBe('8');
    expect(await ev('Current == Mode.Busy')).toBe('True');
    expect(await ev('new Detail().N')).toBe('3');
    expect(await ev('Detail d = new Detail(); d.N + Limit')).toBe('45');
    // the same type's members through `this`, and the local that hides a field
    expect(await ev('this.Health + Health')).toBe('200');
    expect(await ev('shadowed')).toBe('2');
    expect(await ev('this.shadowed')).toBe('1');
    // parameters and locals come first, as in C#
    expect(await ev('local == frame % 5')).toBe('True');
  });

  it('in a static method: statics and consts; instance members are CS0120 and `this` is CS0026', async () => {
    await stopAt('frame-static');
    expect(await ev('Limit + Twice(1)')).toBe('44');
    expect(Number(await ev('s_Calls'))).toBeGreaterThan(0);
    expect(await ev('Instance.Health')).toBe('100');
    expect(await ev('local == frame % 5')).toBe('True');
    const self = await evFails('this');
    expect(self.code).toBe('EVAL_COMPILE');
    expect(self.message).toContain('CS0026');
    const field = await evFails('Health');
    expect(field.code).toBe('EVAL_COMPILE');
    expect(field.message).toContain('CS0120');
    expect((await evFails('Scale(2)')).message).toContain('CS0120');
  });

  it('in a struct method: the fields and methods of `this`, and its statics', async () => {
    await stopAt('point-shift');
    expect(await ev('X')).toBe('1');
    expect(await ev('Y')).toBe('2');
    expect(await ev('Sum()')).toBe('3');
    expect(await ev('this.X + d')).toBe('11');
    expect(Number(await ev('Made'))).toBeGreaterThan(0);
  });
});

describe('writes through a frame', () => {
  it("a bare field of `this` is written to the object: the game's next line uses it", async () => {
    await stopAt('frame-step');
    expect(await ev('Health = 150')).toBe('150');
    expect(await ev('this.Health')).toBe('150');
    const frame = await ev('frame');
    await stopAt('frame-end');
    expect(await ev('frame')).toBe(frame);
    expect(await ev('LastHealth')).toBe('150');
  });

  it("a field of `this` in a struct method writes the frame's `this` (SET_THIS), which is the caller's struct", async () => {
    await stopAt('point-shift');
    expect(await ev('X = 50')).toBe('50');
    expect(await ev('X')).toBe('50');
    expect(await ev('this.Y = 9')).toBe('9');
    expect(await ev('this.X * 100 + this.Y')).toBe('5009');
    expect(await ev('Sum()')).toBe('59');
    // the caller's p after Shift ran: X += d (10) on the written X
    await stopAt('frame-after-shift');
    expect(await ev('p.X')).toBe('60');
    expect(await ev('p.Y')).toBe('9');
  });

  it('a mutating method called on `this` in a struct method changes the frame', async () => {
    await stopAt('point-shift');
    await ev('Grow(5)');
    expect(await ev('X')).toBe('6');
    expect(await ev('Y')).toBe('7');
    await stopAt('frame-after-shift');
    expect(await ev('p.X')).toBe('16');
    expect(await ev('p.Y')).toBe('7');
  });

  it("a field written through a by-ref struct parameter writes the caller's variable", async () => {
    await stopAt('frame-bump');
    expect(await ev('b.X')).toBe('3');
    expect(await ev('b.X = 77')).toBe('77');
    expect(await ev('b.X')).toBe('77');
    await stopAt('frame-end');
    expect(await ev('q.X')).toBe('77');
    expect(await ev('Bumped.X')).toBe('77');
    expect(await ev('Bumped.Y')).toBe('5');
  });

  it("a mutating method called on a frame's struct local changes that local", async () => {
    await stopAt('frame-after-shift');
    expect(await ev('p.X')).toBe('11');
    await ev('p.Grow(5)');
    expect(await ev('p.X')).toBe('16');
    expect(await ev('p.Y')).toBe('7');
    await stopAt('frame-end');
    expect(await ev('Shifted.X')).toBe('16');
    expect(await ev('Shifted.Y')).toBe('7');
  });

  it('a field of a struct local is written into the frame', async () => {
    await stopAt('frame-after-shift');
    expect(await ev('p.Y = 40')).toBe('40');
    expect(await ev('p.Y')).toBe('40');
    await stopAt('frame-end');
    expect(await ev('Shifted.Y')).toBe('40');
  });
});

describe('breakpoint conditions in the frame scope', () => {
  it('a condition naming a field of `this` bare decides the stop', async () => {
    await breakAt('frame-step', { condition: 'Health == 100 && shadowed == 2' });
    const stop = await waitStop();
    expect(stop.condition_error).toBeUndefined();
    expect(await ev('Health')).toBe('100');
    await call('debug_remove_breakpoint', { all: true });
    await call('debug_step', { kind: 'resume' });
    // in a struct method too; a false one never stops, and is no evaluation error (which would)
    await breakAt('point-shift', { condition: 'X + Y > 1000' });
    expect((await call('debug_wait', { timeout_ms: 500 })).stopped).toBe(false);
    await call('debug_remove_breakpoint', { all: true });
    await breakAt('point-shift', { condition: 'X == 1 && Sum() == 3' });
    expect((await waitStop()).condition_error).toBeUndefined();
    expect(await ev('d')).toBe('10');
  });
});
