// Our side of the "session" benchmark: how long the game's main thread is held by typical work
// done through GameSession, read from the fixture's hitch recorder with exactly the protocol
// RefBench.cs uses for the reference client (see its `session` scenario):
//   1. request a hitch reset, poll until the frame loop took it, wait 2 more frames;
//   then sleep a pseudo-random 0-16 ms (the same sequence RefBench uses, so X lands anywhere
//   in the frame on both sides); 2. do X; 3. wait until 2 frames ran after X; 4. read
//   Hitch.MaxLateMs.
// Polling never suspends the game (window: false). Each row is the median of N samples (ms).

import { hitchMeter } from './hitch.js';
import { Values } from '../sdb-protocol/index.js';
import { GameSession, type OperationContext } from '../unity/session/session.js';
import { median } from './scenario.js';

export interface SessionFigures {
  idle_freeze_ms: number;
  field_read_freeze_ms: number;
  one_invoke_freeze_ms: number;
  ten_invokes_freeze_ms: number;
}

interface Ids {
  hitch: number;
  frames: number;
  maxLate: number;
  reset: number;
  probe: number;
  sInt: number;
  add: number;
}

async function resolveIds(ctx: OperationContext): Promise<Ids> {
  const type = async (name: string): Promise<number> => {
    const [t] = await ctx.conn.send('VM.GET_TYPES', { name, ignoreCase: false });
    if (!t) throw new Error(`${name} not found`);
    return t;
  };
  const hitch = await type('FixtureEngine.Hitch');
  const probe = await type('Game.Probe');
  const [hf, pf] = await Promise.all([
    ctx.conn.send('TYPE.GET_FIELDS', { typeId: hitch }),
    ctx.conn.send('TYPE.GET_FIELDS', { typeId: probe }),
  ]);
  const f = (fields: typeof hf, name: string): number => {
    const x = fields.find((y) => y.name === name);
    if (!x) throw new Error(`field ${name} not found`);
    return x.fieldId;
  };
  const [add] = await ctx.conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
    typeId: probe,
    name: 'Add',
    flags: 8 | 16,
  });
  return {
    hitch,
    frames: f(hf, 'Frames'),
    maxLate: f(hf, 'MaxLateMs'),
    reset: f(hf, 'ResetRequested'),
    probe,
    sInt: f(pf, 'SInt'),
    add: add!,
  };
}

export async function measureSession(opts: {
  port: number;
  iterations?: number;
}): Promise<SessionFigures> {
  const n = opts.iterations ?? 30;
  const session = new GameSession({ parkTimeoutMs: 5000 });
  try {
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: opts.port });
    const ids = (await session.run('ids', 'bench', resolveIds, { window: false })).value;
    const sample = await hitchMeter(session);
    const row = async (x: () => Promise<unknown>): Promise<number> => {
      const samples: number[] = [];
      let state = 1n; // 64-bit arithmetic, exactly as RefBench's long
      for (let i = 0; i < n; i++) {
        state = (state * 1103515245n + 12345n) & 0x7fffffffn;
        samples.push(await sample(x, Number(state % 17n)));
      }
      return median(samples);
    };
    const read = (): Promise<unknown> =>
      session.run('read', 'bench', (ctx) =>
        ctx.conn.send('TYPE.GET_VALUES', { typeId: ids.probe, fieldIds: [ids.sInt] }),
      );
    const add = (ctx: OperationContext): Promise<unknown> =>
      ctx.invoke(ids.add, Values.null(), [Values.i4(1), Values.i4(2)]);
    // the main thread is found (and its check invoked) once, before any timed sample
    await session.run('warm', 'bench', add);
    return {
      idle_freeze_ms: await row(() => Promise.resolve()),
      field_read_freeze_ms: await row(read),
      one_invoke_freeze_ms: await row(() => session.run('invoke', 'bench', add)),
      ten_invokes_freeze_ms: await row(() =>
        session.run(
          'ten invokes',
          'bench',
          async (ctx) => {
            for (let i = 0; i < 10; i++) await add(ctx);
          },
          { exclusive: true },
        ),
      ),
    };
  } finally {
    await session.shutdown();
  }
}
