// SceneCalls' levels (the barrier of `together`) against a fake game: which calls leave
// together, in what order, and what a batch whose earlier result was collected gets back.

import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  Values,
  type InvokeCall,
  type SdbConnection,
  type Value,
} from '../../sdb-protocol/index.js';
import { Levels, commandsOf, gameCode } from './scene-calls.js';

/** A call named by its method id; its result is an i4 of the same number. */
const call = (id: number): InvokeCall => ({ methodId: id, thisArg: Values.null(), args: [] });

function fake() {
  const batches: number[][] = [];
  const levels = new Levels(
    (calls) => {
      batches.push(calls.map((c) => c.methodId));
      return Promise.resolve(calls.map((c) => ({ result: Values.i4(c.methodId) })));
    },
    () => Promise.resolve(),
  );
  /** Runs chains as `together` does: each counted while it runs. */
  const together = (...chains: (() => Promise<unknown>)[]) => {
    levels.active += chains.length;
    return Promise.all(
      chains.map(async (c) => {
        try {
          return await c();
        } finally {
          levels.ended();
        }
      }),
    );
  };
  const one = async (id: number) =>
    ((await levels.call([call(id)], false))[0] as { value: number }).value;
  return { levels, batches, together, one };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('levels', () => {
  it('sends the calls of chains side by side one level per command, in the order they were made', async () => {
    const { batches, together, one } = fake();
    const out = await together(
      async () => [await one(11), await one(12)],
      async () => [await one(21)],
      async () => [await one(31), await one(32), await one(33)],
    );
    expect(out).toEqual([[11, 12], [21], [31, 32, 33]]);
    expect(batches).toEqual([[11, 21, 31], [12, 32], [33]]);
  });

  it('keeps the calls of one chain in order in its command (several at once)', async () => {
    const { levels, batches, together } = fake();
    const out = await together(
      async () => levels.call([call(1), call(2), call(3)], false),
      async () => levels.call([call(4)], false),
    );
    expect((out as Value[][]).map((vs) => vs.map((v) => (v as { value: number }).value))).toEqual([
      [1, 2, 3],
      [4],
    ]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('waits for a chain still working, and lets the calls go after a bound if it never calls', async () => {
    vi.useFakeTimers();
    const { batches, together, one } = fake();
    let release!: () => void;
    const busy = new Promise<void>((r) => (release = r));
    const run = together(
      async () => one(1),
      async () => {
        await busy; // not a call: the level must not wait for it forever
        return one(2);
      },
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(batches).toEqual([]); // still waiting for the second chain
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toEqual([[1]]);
    release();
    expect(await run).toEqual([1, 2]);
    expect(batches).toEqual([[1], [2]]);
  });

  it('gives a batch whose earlier result was collected that call once more, alone', async () => {
    const alive = new Set<number>([1, 3]); // object 2 was collected during the batch
    const kept: number[] = [];
    const again: number[] = [];
    const conn = {
      send: (name: string, p: { objectId: number }) =>
        name === 'OBJECT_REF.GET_TYPE' && !alive.has(p.objectId)
          ? Promise.reject(
              Object.assign(new Error('OBJECT_REF.GET_TYPE failed: INVALID_OBJECT (20)'), {
                code: 'AGENT_ERROR',
              }),
            )
          : Promise.resolve(7),
    } as unknown as SdbConnection;
    const out: { result: Value }[] = [1, 2, 3].map((id) => ({ result: Values.object(id) }));
    await Levels.secure(
      out,
      [call(101), call(102), call(103)],
      conn,
      (v) => {
        if (v.kind === 'object') kept.push(v.objectId);
        return Promise.resolve(v);
      },
      (c) => {
        again.push(c.methodId);
        return Promise.resolve({ result: Values.object(20) });
      },
    );
    // the live ones pinned before the repeat (which could collect them otherwise), then the repeat's
    expect(kept).toEqual([1, 3, 20]);
    expect(again).toEqual([102]);
    expect(out.map((o) => (o.result as { objectId: number }).objectId)).toEqual([1, 20, 3]);
  });
});

describe("calls of the game's own code", () => {
  it('each ends its command: the last result of a batch is never lost, so never run again', () => {
    expect(commandsOf([])).toEqual([]);
    expect(commandsOf([false, false])).toEqual([[0, 2]]);
    expect(commandsOf([false, true])).toEqual([[0, 2]]);
    expect(commandsOf([true, false, true, true, false])).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
      [4, 5],
    ]);
  });

  it('split the level they share with other chains, in order', async () => {
    const { levels, batches, together } = fake();
    const out = await together(
      async () => levels.call([call(1), call(2)], false, [false, true]),
      async () => levels.call([call(3)], false),
      async () => levels.call([call(4)], false, [true]),
    );
    expect((out as Value[][]).map((vs) => vs.map((v) => (v as { value: number }).value))).toEqual([
      [1, 2],
      [3],
      [4],
    ]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it("are the getters of the game's types, not the engine's or the framework's", () => {
    expect(gameCode('Game.Enemy')).toBe(true);
    expect(gameCode('MyStudio.Player')).toBe(true);
    expect(gameCode('UnityEngine.Transform')).toBe(false);
    expect(gameCode('System.Object')).toBe(false);
    expect(gameCode('Unity.Entities.World')).toBe(false);
  });
});
