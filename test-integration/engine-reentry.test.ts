// Tool calls nested into the fixture engine's own bookkeeping. Our tools run invokes on the main
// thread wherever it is parked; in Unity the engine's bookkeeping is native and cannot be
// interrupted, in the fixture it is managed C#, so a nested call must leave it whole, must not
// make the outer code throw when it resumes, and must not be lost. The main thread is parked by a
// breakpoint at a `// MARK:` in fixtures/src/Assembly-CSharp/Game/ReentryTargets.cs: a behaviour's
// OnDestroy, which the engine calls from inside its destruction of a GameObject (end of frame).

import { afterEach, describe, expect, it } from 'vitest';

import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { useFixtureApp } from './support/fixture-app.js';
import { clearDebugger, fixtureMarks, toolCaller } from './support/tool-harness.js';

const mark = fixtureMarks('Assembly-CSharp/Game/ReentryTargets.cs');

const game = useFixtureApp({ entities: 10 });

interface Out {
  value: string;
  stopped: boolean;
  stop: { location: { method: string; line?: number } };
  breakpoint: { id: number };
}

const call = toolCaller<Out>([...debugTools, evalTool], () => game.app);

afterEach(async () => {
  await clearDebugger(call);
});

async function evalText(code: string): Promise<string> {
  return (await call('eval', { code })).value;
}

/** Bounded: the frame count moves on within 5 s (the game runs, it is not wedged or gone). */
async function expectFramesAdvance(): Promise<void> {
  const start = Number(await evalText('UnityEngine.Time.frameCount'));
  const deadline = Date.now() + 5000;
  for (;;) {
    await new Promise((r) => setTimeout(r, 50));
    if (Number(await evalText('UnityEngine.Time.frameCount')) > start) return;
    if (Date.now() > deadline) throw new Error('the frame count did not advance in 5 s');
  }
}

/** Exceptions a corrupted engine structure or a resumed outer loop would print. */
const ENGINE_FAILURE =
  /Unhandled Exception|ArgumentOutOfRangeException|NullReferenceException|InvalidOperationException|ArgumentException/;

describe('a call nested into the engine destroying a GameObject', () => {
  it('destroys a sibling behaviour and queues a Destroy; the outer destruction completes', async () => {
    const outputBefore = game.fixture.output().length;
    await call('debug_set_breakpoint', {
      file: 'ReentryTargets.cs',
      line: mark('reentry-ondestroy'),
    });
    expect(await evalText('Game.ReentryTargets.Doom()')).toBe('"doomed"');

    // The end of this frame destroys ReentryDoomed: its components last to first, so the probe's
    // OnDestroy runs first, with the victim still to go.
    const w = await call('debug_wait', { timeout_ms: 10_000 });
    expect(w.stopped).toBe(true);
    expect(w.stop.location).toMatchObject({
      method: 'Game.ReentryProbe.OnDestroy',
      line: mark('reentry-ondestroy'),
    });

    // Nested, while the engine is half-way through the object's component list.
    expect(await evalText('Game.ReentryTargets.KillVictim()')).toBe('2');
    expect(await evalText('Game.ReentryTargets.VictimAlive')).toBe('False');
    await evalText('UnityEngine.Object.Destroy(UnityEngine.GameObject.Find("ReentryBystander"))');

    await call('debug_remove_breakpoint', { all: true, force: true });
    await call('debug_step', { kind: 'resume', force: true });

    expect(game.fixture.alive()).toBe(true);
    await expectFramesAdvance();
    expect(await evalText('Game.ReentryProbe.Destroyed')).toBe('1');
    expect(await evalText('Game.ReentryTargets.DoomedAlive')).toBe('False');
    expect(await evalText('UnityEngine.GameObject.Find("ReentryDoomed") == null')).toBe('True');
    // The Destroy queued from inside the end of frame ran at the next one, not lost.
    const deadline = Date.now() + 5000;
    while ((await evalText('UnityEngine.GameObject.Find("ReentryBystander") == null')) !== 'True') {
      if (Date.now() > deadline) throw new Error('the nested Destroy never ran');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(game.fixture.alive()).toBe(true);
    expect(game.fixture.output().slice(outputBefore)).not.toMatch(ENGINE_FAILURE);
  });

  it('a DestroyImmediate of the object being destroyed is refused as in Unity; the outer destruction completes', async () => {
    const outputBefore = game.fixture.output().length;
    const destroyedBefore = Number(await evalText('Game.ReentryProbe.Destroyed'));
    await call('debug_set_breakpoint', {
      file: 'ReentryTargets.cs',
      line: mark('reentry-ondestroy'),
    });
    expect(await evalText('Game.ReentryTargets.Doom()')).toBe('"doomed"');
    const w = await call('debug_wait', { timeout_ms: 10_000 });
    expect(w.stopped).toBe(true);
    expect(w.stop.location).toMatchObject({ method: 'Game.ReentryProbe.OnDestroy' });
    // No breakpoint while the nested call runs: the probe's OnDestroy must not run a second time.
    await call('debug_remove_breakpoint', { all: true, force: true });

    await evalText(
      'UnityEngine.Object.DestroyImmediate(UnityEngine.GameObject.Find("ReentryDoomed"))',
    );
    expect(await evalText('Game.ReentryTargets.DoomedAlive')).toBe('True');

    await call('debug_step', { kind: 'resume', force: true });
    expect(game.fixture.alive()).toBe(true);
    await expectFramesAdvance();
    expect(Number(await evalText('Game.ReentryProbe.Destroyed'))).toBe(destroyedBefore + 1);
    expect(await evalText('Game.ReentryTargets.DoomedAlive')).toBe('False');
    expect(await evalText('Game.ReentryTargets.VictimAlive')).toBe('False');
    const output = game.fixture.output().slice(outputBefore);
    expect(output).toContain('Destroying object multiple times.');
    expect(output).not.toMatch(ENGINE_FAILURE);
  });
});
