// The game's freeze as the fixture itself saw it: FixtureEngine.Hitch.MaxLateMs, the longest delay
// of a frame start past its schedule since the last reset. Its statics are read and written
// without an invoke (no window), so measuring does not add to what is measured.

import { Values, type Value } from '../sdb-protocol/index.js';
import type { GameSession } from '../unity/session/session.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Bound on each wait for the fixture (a reset taken, frames ticking). */
const WAIT_MS = 5000;

/**
 * Returns `measure(x, delayMs?)`: resets the recorder, lets two frames pass, waits `delayMs` (so
 * the work lands anywhere in a frame), runs `x`, lets two frames pass, and returns the worst
 * lateness in ms.
 */
export async function hitchMeter(
  session: GameSession,
): Promise<(x: () => Promise<unknown>, delayMs?: number) => Promise<number>> {
  const ids = (
    await session.run(
      'hitch ids',
      'bench',
      async (ctx) => {
        const [type] = await ctx.conn.send('VM.GET_TYPES', {
          name: 'FixtureEngine.Hitch',
          ignoreCase: false,
        });
        if (!type) throw new Error('FixtureEngine.Hitch not found');
        const fields = await ctx.conn.send('TYPE.GET_FIELDS', { typeId: type });
        const f = (name: string): number => {
          const x = fields.find((y) => y.name === name);
          if (!x) throw new Error(`Hitch.${name} not found`);
          return x.fieldId;
        };
        return { type, frames: f('Frames'), maxLate: f('MaxLateMs'), reset: f('ResetRequested') };
      },
      { window: false },
    )
  ).value;
  const peek = async (field: number): Promise<Value> =>
    (
      await session.run(
        'peek',
        'bench',
        async (ctx) =>
          (await ctx.conn.send('TYPE.GET_VALUES', { typeId: ids.type, fieldIds: [field] }))[0]!,
        { window: false },
      )
    ).value;
  const frames = async (): Promise<bigint> => ((await peek(ids.frames)) as { value: bigint }).value;
  const waitFrames = async (count: number): Promise<void> => {
    const from = await frames();
    const deadline = Date.now() + WAIT_MS;
    while ((await frames()) < from + BigInt(count)) {
      if (Date.now() > deadline) throw new Error('the fixture stopped ticking');
      await sleep(2);
    }
  };
  return async (x, delayMs) => {
    await session.run(
      'hitch reset',
      'bench',
      (ctx) =>
        ctx.conn.send('TYPE.SET_VALUES', {
          typeId: ids.type,
          writes: [{ fieldId: ids.reset, value: Values.i4(1) }],
        }),
      { window: false },
    );
    const deadline = Date.now() + WAIT_MS;
    while (((await peek(ids.reset)) as { value: number }).value !== 0) {
      if (Date.now() > deadline) throw new Error('the hitch reset was not taken');
      await sleep(2);
    }
    await waitFrames(2);
    if (delayMs !== undefined) await sleep(delayMs);
    await x();
    await waitFrames(2);
    return ((await peek(ids.maxLate)) as { value: number }).value;
  };
}
