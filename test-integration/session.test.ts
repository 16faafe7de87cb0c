// The session's promises against a real game: one connection for many calls, every window
// closed, holds owned by callers, exclusive sequences, bounded invokes, and the fault paths.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Values, type Value } from '../sdb-protocol/index.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameSession, type OperationContext } from '../unity/session/session.js';
import { UnityError } from '../unity/errors.js';
import { Mirror } from './support/mirror.js';

let fixture: FixtureProcess;
let session: GameSession;

beforeAll(async () => {
  fixture = await startFixture({ entities: 200 });
});

afterAll(async () => {
  await session?.shutdown();
  await fixture?.stop();
});

afterEach(async () => {
  // every test leaves the game running with no suspension of ours
  if (session.status().attached) {
    expect(session.status().holds).toEqual([]);
    await expectGameRunning(session);
  }
});

/** A fresh session attached to the shared fixture (the previous one is shut down first). */
async function attached(): Promise<GameSession> {
  await session?.shutdown();
  session = new GameSession({ parkTimeoutMs: 2000, invokeTimeoutMs: 5000 });
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
  return session;
}

async function read(ctx: OperationContext, type: string, field: string): Promise<Value> {
  return new Mirror(ctx.conn).static(type, field);
}

async function frames(s: GameSession): Promise<bigint> {
  const r = await s.run('frames', 'test', (ctx) => read(ctx, 'FixtureEngine.Hitch', 'Frames'));
  return (r.value as { value: bigint }).value;
}

async function expectGameRunning(s: GameSession): Promise<void> {
  const a = await frames(s);
  await new Promise((r) => setTimeout(r, 150));
  expect(await frames(s)).toBeGreaterThan(a);
}

async function method(ctx: OperationContext, type: string, name: string): Promise<number> {
  return new Mirror(ctx.conn).method(type, name);
}

describe('one connection, counted windows', () => {
  it('attaches lazily and makes exactly one connection for 500 calls', async () => {
    const s = await attached();
    expect(s.connects).toBe(1);
    for (let i = 0; i < 500; i++) {
      const r = await s.run('read', 'test', (ctx) => read(ctx, 'Game.Probe', 'SInt'));
      expect(r.value).toEqual(Values.i4(-123456789));
    }
    expect(s.connects).toBe(1);
    expect(s.status()).toMatchObject({ attached: true, connects: 1, protocol: '2.54' });
  });

  it('reports the cost of each operation', async () => {
    const s = await attached();
    const r = await s.run('add', 'test', async (ctx) => {
      const add = await method(ctx, 'Game.Probe', 'Add');
      return (await ctx.invoke(add, Values.null(), [Values.i4(2), Values.i4(3)])).result;
    });
    expect(r.value).toEqual(Values.i4(5));
    expect(r.cost.invokes).toBe(1);
    expect(r.cost.wireCommands).toBeGreaterThanOrEqual(3); // SUSPEND, the invoke, RESUME
    expect(r.cost.freezeMs).toBeGreaterThan(0);
    expect(r.cost.wallMs).toBeGreaterThanOrEqual(r.cost.freezeMs);
  });
});

describe('holds belong to their caller', () => {
  it("keeps the game suspended across calls, refuses another caller's resume, releases on leave", async () => {
    const s = await attached();
    await s.hold('agent-a');
    const a = await frames(s);
    await new Promise((r) => setTimeout(r, 150));
    expect(await frames(s)).toBe(a); // held: no frame ran
    await expect(s.release('agent-b')).rejects.toMatchObject({ code: 'HOLD_NOT_OWNED' });
    expect(s.status().holds).toEqual([{ caller: 'agent-a', count: 1 }]);
    await s.hold('agent-a');
    await s.release('agent-a');
    expect(s.status().holds).toEqual([{ caller: 'agent-a', count: 1 }]);
    await s.callerGone('agent-a');
    expect(s.status().holds).toEqual([]);
  });

  it("lets a forced resume release someone else's hold", async () => {
    const s = await attached();
    await s.hold('agent-a');
    await s.release('agent-b', true);
    expect(s.status().holds).toEqual([]);
  });
});

describe('the invoker', () => {
  it('runs an exclusive 10-invoke sequence in one window while other calls wait', async () => {
    const s = await attached();
    const order: string[] = [];
    const seq = s.run(
      'sequence',
      'a',
      async (ctx) => {
        const inc = await method(ctx, 'Game.Probe', 'IncrementCounter');
        const before = (await read(ctx, 'Game.Probe', 'SCounter')) as { value: number };
        for (let i = 0; i < 10; i++) await ctx.invoke(inc, Values.null(), []);
        order.push('sequence');
        return before.value;
      },
      { exclusive: true, writes: true },
    );
    const other = s.run('read', 'b', async (ctx) => {
      order.push('read');
      return read(ctx, 'Game.Probe', 'SCounter');
    });
    const [r1, r2] = await Promise.all([seq, other]);
    expect(order).toEqual(['sequence', 'read']);
    expect((r2.value as { value: number }).value).toBe(r1.value + 10);
    expect(r1.cost.invokes).toBe(10);
  });

  it('runs several calls in one command (invokeMany), each counted as an invoke', async () => {
    const s = await attached();
    const r = await s.run('batch', 'test', async (ctx) => {
      const add = await method(ctx, 'Game.Probe', 'Add');
      await ctx.invoke(add, Values.null(), [Values.i4(0), Values.i4(0)]); // the thread parks
      const before = ctx.conn.stats.commandsSent;
      const out = await ctx.invokeMany(
        [1, 2, 3].map((i) => ({
          methodId: add,
          thisArg: Values.null(),
          args: [Values.i4(i), Values.i4(i * 10)],
        })),
      );
      return { results: out.map((o) => o.result), commands: ctx.conn.stats.commandsSent - before };
    });
    expect(r.value.results).toEqual([11, 22, 33].map(Values.i4));
    expect(r.value.commands).toBe(1); // one VM.INVOKE_METHODS for the three
    expect(r.cost.invokes).toBe(4);
  });

  it('brings the exception of a call in a batch back, after the calls before it ran', async () => {
    const s = await attached();
    const err = await s
      .run('batch throw', 'test', async (ctx) => {
        const add = await method(ctx, 'Game.Probe', 'Add');
        const thrower = await method(ctx, 'Game.Probe', 'ThrowNested');
        return ctx.invokeMany([
          { methodId: add, thisArg: Values.null(), args: [Values.i4(1), Values.i4(2)] },
          { methodId: thrower, thisArg: Values.null(), args: [] },
        ]);
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnityError);
    expect(err).toMatchObject({
      code: 'GAME_EXCEPTION',
      details: { type: 'System.ArgumentException', message: 'outer' },
    });
  });

  it('brings a game exception back with its type, message and stack', async () => {
    const s = await attached();
    const err = await s
      .run('throw', 'test', async (ctx) =>
        ctx.invoke(await method(ctx, 'Game.Probe', 'ThrowNested'), Values.null(), []),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnityError);
    expect(err).toMatchObject({
      code: 'GAME_EXCEPTION',
      message: 'System.ArgumentException: outer',
      details: { type: 'System.ArgumentException', message: 'outer' },
    });
    expect((err as UnityError).details?.['stackTrace']).toMatch(/Game\.Probe\.ThrowNested/);
  });

  it('aborts a call past its bound and says the work may have happened', async () => {
    const s = await attached();
    const started = Date.now();
    await expect(
      s.run('slow', 'test', async (ctx) =>
        ctx.invoke(
          await method(ctx, 'Game.Probe', 'SlowManaged'),
          Values.null(),
          [Values.i4(20_000)],
          { timeoutMs: 500 },
        ),
      ),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/may still have happened/),
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up on a main thread wedged in native code for 30 s, and the game resumes afterwards', async () => {
    const s = await attached();
    await s.run('wedge', 'test', async (ctx) => {
      const f = await new Mirror(ctx.conn).field('Game.Control', 'WedgeMs');
      await ctx.conn.send('TYPE.SET_VALUES', {
        typeId: f.declaringTypeId,
        writes: [{ fieldId: f.fieldId, value: Values.i4(30_000) }],
      });
    });
    await new Promise((r) => setTimeout(r, 100)); // the main thread enters its 30 s native wait
    const started = Date.now();
    await expect(
      s.run('add', 'test', async (ctx) =>
        ctx.invoke(
          await method(ctx, 'Game.Probe', 'Add'),
          Values.null(),
          [Values.i4(1), Values.i4(1)],
          { parkTimeoutMs: 1000 },
        ),
      ),
    ).rejects.toMatchObject({
      code: 'MAIN_THREAD_BUSY',
      message: expect.stringMatching(/did not reach managed code in 1000 ms/),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    // our window is closed: once the native wait ends, frames run again
    const a = await frames(s);
    await new Promise((r) => setTimeout(r, 31_000 - (Date.now() - started)));
    await expectGameRunning(s);
    expect(await frames(s)).toBeGreaterThan(a);
  }, 60_000);
});

describe('fault paths', () => {
  it('reports a game killed in the middle of an invoke, promptly, without retrying', async () => {
    const doomed = await startFixture({ entities: 10 });
    const s = new GameSession({ parkTimeoutMs: 2000, invokeTimeoutMs: 20_000 });
    try {
      await s.attach({ kind: 'endpoint', host: '127.0.0.1', port: doomed.sdbPort });
      const call = s.run('slow', 'test', async (ctx) =>
        ctx.invoke(await method(ctx, 'Game.Probe', 'SlowManaged'), Values.null(), [
          Values.i4(10_000),
        ]),
      );
      await new Promise((r) => setTimeout(r, 500));
      const killedAt = Date.now();
      process.kill(doomed.pid, 'SIGKILL');
      await expect(call).rejects.toMatchObject({ code: 'MAY_HAVE_APPLIED' });
      expect(Date.now() - killedAt).toBeLessThan(10_000); // a hang check, not a speed check
      expect(s.connects).toBe(1);
      await expect(
        s.run('read', 'test', (ctx) => read(ctx, 'Game.Probe', 'SInt')),
      ).rejects.toMatchObject({
        code: 'ATTACH_FAILED',
      });
    } finally {
      await s.shutdown();
      await doomed.stop();
    }
  });

  it('reattaches to a game restarted at the same endpoint, and refuses writes to the replacement', async () => {
    const first = await startFixture({ entities: 10 });
    const port = first.sdbPort;
    const s = new GameSession({ parkTimeoutMs: 2000 });
    let second: FixtureProcess | undefined;
    try {
      await s.attach({ kind: 'endpoint', host: '127.0.0.1', port });
      await s.run('read', 'test', (ctx) => read(ctx, 'Game.Probe', 'SInt'));
      await first.stop();
      second = await startFixture({ entities: 10, sdbPort: port });
      const r = await s.run('read', 'test', (ctx) => read(ctx, 'Game.Probe', 'SInt'));
      expect(r.value).toEqual(Values.i4(-123456789));
      expect(s.connects).toBe(2);
      expect(s.status().replaced).toBeDefined();
      await expect(
        s.run('write', 'test', () => Promise.resolve(1), { writes: true }),
      ).rejects.toMatchObject({
        code: 'GAME_REPLACED',
      });
      await s.attach({ kind: 'endpoint', host: '127.0.0.1', port });
      await expect(
        s.run('write', 'test', () => Promise.resolve(1), { writes: true }),
      ).resolves.toMatchObject({
        value: 1,
      });
    } finally {
      await s.shutdown();
      await second?.stop();
      await first.stop();
    }
  });

  it('detaches while another call is stuck, leaving the game running and the debugger slot free', async () => {
    const s = await attached();
    const stuck = s.run('stuck', 'test', async (ctx) =>
      ctx.invoke(
        await method(ctx, 'Game.Probe', 'SlowManaged'),
        Values.null(),
        [Values.i4(60_000)],
        { timeoutMs: 120_000 },
      ),
    );
    const outcome = stuck.catch((e: unknown) => Promise.reject(e as Error)); // observed below
    outcome.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    await s.detach();
    expect(Date.now() - started).toBeLessThan(10_000); // a hang check, not a speed check
    await expect(outcome).rejects.toMatchObject({
      code: expect.stringMatching(/MAY_HAVE_APPLIED|CONNECTION_LOST/),
    });
    // the slot is free and the game runs: a new session attaches and sees frames advance
    const again = await attached();
    await expectGameRunning(again);
  });
});
