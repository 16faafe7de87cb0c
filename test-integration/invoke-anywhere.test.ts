// Invokes land wherever the main thread parks: after VM.SUSPEND it stops at its next sequence
// point, which in the fixture (whose engine is managed code, where Unity's is native) can be
// inside the engine's own bookkeeping, such as the Temp allocator's pool, with its lock held
// (re-entrant: the invoke runs on the same thread). Unity's engine cannot be interrupted there,
// so a call nested there must neither corrupt the engine nor be corrupted by it.
// Many short windows at a high frame rate park it at many points of the frame. (The engine's
// assemblies have no symbols, as Unity's do not, so no line breakpoint can park it there exactly.)
// Before TempArrays took nested calls apart, this test failed in 2 of 3 runs the way CI did: a
// NullReferenceException in TempArrays.Rent on every later Temp allocation.

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { evalTool } from '../mcp/tools/eval.js';
import { useFixtureApp } from './support/fixture-app.js';
import { toolCaller } from './support/tool-harness.js';

const game = useFixtureApp({ entities: 300, fps: 240, args: ['--level-objects', '2000'] });
type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const call = toolCaller<Out>([evalTool], () => game.app);

const evalValue = async (code: string): Promise<string> =>
  (await call('eval', { code })).value as string;

/** What the game logged since `from` (a length of Player.log). */
const loggedSince = (from: number): string =>
  readFileSync(game.fixture.logPath, 'utf8').slice(from);

async function expectRunning(): Promise<void> {
  const a = Number(await evalValue('UnityEngine.Time.frameCount'));
  await new Promise((r) => setTimeout(r, 100));
  expect(Number(await evalValue('UnityEngine.Time.frameCount'))).toBeGreaterThan(a);
}

/** Frames still run, the game is alive, and neither its log nor its output has an exception. */
async function expectHealthy(logFrom: number): Promise<void> {
  await expectRunning();
  expect(game.fixture.alive()).toBe(true);
  expect(loggedSince(logFrom)).not.toMatch(/Exception/);
  expect(game.fixture.output()).not.toMatch(/Exception|fixture:/);
}

/** `code` evaluated `rounds` times, each in its own window, always giving `expected`. */
async function inManyWindows(code: string, expected: string, rounds = 1500): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    expect(await evalValue(code)).toBe(expected);
    // a pause of a fraction of a frame moves the next park point through the frame
    await new Promise((r) => setTimeout(r, i % 3));
  }
}

const logLength = (): number => readFileSync(game.fixture.logPath, 'utf8').length;

describe('invokes parked anywhere in the frame', () => {
  it('leave the Temp allocator and the frame loop working', async () => {
    const logFrom = logLength();
    const temp =
      'Unity.Entities.World.DefaultGameObjectInjectionWorld.EntityManager' +
      '.GetAllEntities(Unity.Collections.Allocator.Temp).Length';
    const count = await evalValue(temp);
    expect(Number(count)).toBeGreaterThanOrEqual(300);
    await inManyWindows(temp, count);
    await expectHealthy(logFrom);
    expect(await evalValue(temp)).toBe(count);
  }, 120_000);

  it('keep every native block an invoke allocates while the frame loop allocates and reclaims', async () => {
    const logFrom = logLength();
    const live = 'FixtureEngine.NativeMemory.LiveCount';
    const before = Number(await evalValue(live));
    await inManyWindows(
      'new Unity.Collections.NativeArray<int>(3, Unity.Collections.Allocator.Persistent).Length',
      '3',
    );
    await expectHealthy(logFrom);
    // every Persistent block the invokes made is still live; the Temp blocks of the frame of the
    // first reading (a few: the systems' and the eval's own) are gone since
    expect(Number(await evalValue(live))).toBeGreaterThanOrEqual(before + 1500 - 32);
  }, 120_000);
});

describe('objects destroyed by calls nested anywhere in the frame', () => {
  it('are gone at once, and the engine loops that were walking them carry on', async () => {
    const logFrom = logLength();
    const crates =
      'UnityEngine.Object.FindObjectsByType<Crate>(UnityEngine.FindObjectsSortMode.None).Length';
    const before = Number(await evalValue(crates));
    let destroyed = 0;
    for (let z = 0; z < 7; z++)
      for (let r = 0; r < 10; r++)
        for (let c = 0; c < 5; c++) {
          await call('eval', {
            code: `UnityEngine.Object.DestroyImmediate(UnityEngine.GameObject.Find("Zone ${z}/Room (${r})/Props/Crate (${c})"))`,
          });
          destroyed++;
          await new Promise((res) => setTimeout(res, destroyed % 3));
        }
    expect(Number(await evalValue(crates))).toBe(before - destroyed);
    await expectHealthy(logFrom);
  }, 120_000);
});
