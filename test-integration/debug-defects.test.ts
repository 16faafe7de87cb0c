// Debugger defects found by driving a third-party debuggee (issue 11), each against the real Mono
// agent: breakpoints sharing a location, nested types by every spelling, generic classes named
// as C# writes them, and failures reported instead of swallowed. Lines are found by the MARK
// comments of fixtures/src/Assembly-CSharp/Game/BreakTargets.cs. Every test leaves the game
// running with no breakpoint of its own.

import { afterEach, describe, expect, it } from 'vitest';

import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { findTypes } from '../mcp/tools/types.js';
import { useFixtureApp } from './support/fixture-app.js';
import { clearDebugger, fixtureMarks, toolCaller } from './support/tool-harness.js';

const mark = fixtureMarks('Assembly-CSharp/Game/BreakTargets.cs', 'Game.Mods/LateMod.cs');

const game = useFixtureApp({ entities: 0 });

afterEach(async () => {
  await clearDebugger(call);
});

interface Loc {
  method: string;
  il_offset: number;
  line?: number;
}
interface StopOut {
  seq: number;
  reason: string;
  breakpoint?: number;
  location: Loc;
}
interface BreakpointOut {
  id: number;
  locations: Loc[];
  hits: number;
  passed?: number;
}
/** The union of the tools' outputs this file reads. */
interface Out {
  value: string;
  stopped: boolean;
  stop: StopOut;
  pause: StopOut;
  breakpoint: BreakpointOut;
  breakpoints: BreakpointOut[];
  frames: { method: string; line?: number }[];
  types: { full_name: string; match: string }[];
}

const call = toolCaller<Out>([...debugTools, evalTool, findTypes], () => game.app);

async function waitStop(timeout_ms = 10_000): Promise<StopOut> {
  const w = await call('debug_wait', { timeout_ms });
  expect(w.stopped).toBe(true);
  return w.stop;
}

const hitsOf = async (id: number): Promise<number> =>
  (await call('debug_status', {})).breakpoints.find((b) => b.id === id)!.hits;

describe('breakpoints at one location', () => {
  it('a false condition does not swallow the stop of another breakpoint there', async () => {
    const at = { type: 'Game.BreakTargets', method: 'Shared', line: mark('break-shared') };
    const never = (await call('debug_set_breakpoint', { ...at, condition: 'frame < 0' }))
      .breakpoint;
    const plain = (await call('debug_set_breakpoint', at)).breakpoint;
    const stop = await waitStop();
    expect(stop).toMatchObject({ reason: 'breakpoint', breakpoint: plain.id });
    expect(stop.location.line).toBe(mark('break-shared'));
    expect(await hitsOf(never.id)).toBe(0);
    expect(await hitsOf(plain.id)).toBe(1);
  });

  it('two breakpoints at one location both count their hits', async () => {
    const at = { type: 'Game.BreakTargets', method: 'Shared', line: mark('break-shared') };
    // both armed while the game is held: the first hit finds both
    await game.app.session.hold('agent-a');
    const a = (await call('debug_set_breakpoint', at)).breakpoint;
    const b = (await call('debug_set_breakpoint', { ...at, condition: 'frame > 0' })).breakpoint;
    await game.app.session.release('agent-a');
    await waitStop();
    await call('debug_step', { kind: 'resume' });
    await waitStop();
    expect(await hitsOf(a.id)).toBe(2);
    expect(await hitsOf(b.id)).toBe(2);
  });
});

describe('nested types', () => {
  const spellings = [
    'Game.BreakOuter.Inner',
    'BreakOuter.Inner',
    'Game.BreakOuter+Inner',
    'BreakOuter/Inner',
  ];
  for (const type of spellings) {
    it(`a breakpoint by ${type}`, async () => {
      const line = mark('break-inner');
      const bp = (await call('debug_set_breakpoint', { type, method: 'Touch', line })).breakpoint;
      expect(bp.locations[0]!.line).toBe(line);
      const stop = await waitStop();
      expect(stop.location.method).toBe('Game.BreakOuter.Inner.Touch');
    });
    it(`find_types by ${type}`, async () => {
      const r = await call('find_types', { query: type });
      expect(r.types.map((t) => t.full_name)).toEqual(['Game.BreakOuter+Inner']);
    });
  }
  for (const code of ['Game.BreakOuter.Inner.Answer', 'BreakOuter.Inner.Answer']) {
    it(`eval reads ${code}`, async () => {
      expect((await call('eval', { code })).value).toBe('42');
    });
  }

  it('a breakpoint on a nested type not loaded yet binds when it loads, by its C# name', async () => {
    // Game.Mods.dll is not in the game until ModLoader loads it
    expect((await call('eval', { code: 'Game.ModLoader.Loaded' })).value).toBe('False');
    const line = mark('mod-hook');
    const bp = (
      await call('debug_set_breakpoint', { type: 'Mods.LateMod.Hook', method: 'Run', line })
    ).breakpoint;
    expect(bp.locations).toEqual([]);
    await call('eval', { code: 'Game.ModLoader.LoadRequested = true' });
    const stop = await waitStop();
    expect(stop).toMatchObject({
      breakpoint: bp.id,
      location: { method: 'Mods.LateMod.Hook.Run', line },
    });
    // stopped in its very first run
    expect((await call('debug_evaluate', { code: 'Mods.LateMod.Hook.Runs' })).value).toBe('0');
  });
});

describe('generic classes', () => {
  it('a stop inside one names the method as C# writes it', async () => {
    await call('debug_set_breakpoint', { type: 'Game.BreakBox`1', method: 'Put' });
    const stop = await waitStop();
    expect(stop.location.method).toBe('Game.BreakBox<int>.Put');
    const frames = (await call('debug_pause_state', { frames: 3, variable_frames: 0 })).frames;
    expect(frames[0]!.method).toBe('Game.BreakBox<int>.Put');
    expect(frames[1]!.method).toBe('Game.BreakTargets.Frame');
  });
});
