// Several callers (agents) on one live game through one app, as the broker runs them: they share
// one debugger connection; holds, pauses and breakpoints stay their owner's; a caller that goes
// away takes what it held with it at once; the last one's leaving frees the slot (at once on
// detach, after the linger period when it just went away). In-process here; the same app behind
// real front-end processes: broker-callers.test.ts.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { SdbConnection } from '../sdb-protocol/index.js';
import { fixtureMarks, toolCaller } from './support/tool-harness.js';

let fixture: FixtureProcess;
const apps: GameApp[] = [];
const LINGER_MS = 1500;
const mark = fixtureMarks('Assembly-CSharp/Game/DebugTargets.cs');

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

afterAll(async () => {
  await fixture?.stop();
});

async function newApp(): Promise<GameApp> {
  const app = await GameApp.start({ discovery: false, lingerMs: LINGER_MS });
  apps.push(app);
  return app;
}

interface Ctx {
  app: GameApp;
  call: <T = Record<string, unknown>>(
    name: string,
    args: Record<string, unknown>,
    caller: string,
  ) => Promise<T>;
  /** Opens a connected caller pointed at the fixture, as a front-end's preamble does. */
  open(label: string): string;
  frame(caller: string): Promise<number>;
}

async function setup(): Promise<Ctx> {
  const app = await newApp();
  const call = toolCaller<Record<string, unknown>>(ALL_TOOLS, () => app);
  return {
    app,
    call: call as Ctx['call'],
    open: (label) =>
      app.openCaller({
        label,
        target: { kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort },
      }),
    frame: async (caller) =>
      Number((await call('eval', { code: 'UnityEngine.Time.frameCount' }, caller)).value),
  };
}

/** The game runs: its frame counter moves (bounded). */
async function expectRunning(ctx: Ctx, caller: string): Promise<void> {
  const first = await ctx.frame(caller);
  const deadline = Date.now() + 10_000;
  while ((await ctx.frame(caller)) === first) {
    if (Date.now() > deadline) throw new Error('the game did not run within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A debugger of our own attaches (handshake) and leaves with DISPOSE: the slot is free. */
async function slotIsFree(): Promise<void> {
  const c = await SdbConnection.connect({ port: fixture.sdbPort });
  expect((await c.send('VM.VERSION')).major).toBe(2);
  await c.close();
}

describe('callers sharing one game', () => {
  it("share one connection; a hold is its owner's, and the others' reads work under it", async () => {
    const ctx = await setup();
    const a = ctx.open('agent A (pid 1)');
    const b = ctx.open('agent B (pid 2)');
    await ctx.frame(a);
    await ctx.frame(b);
    const g = ctx.app.gamesStatus();
    expect(g).toHaveLength(1);
    expect(g[0]!.callers).toEqual([a, b]);
    expect(ctx.app.allGames()[0]!.session.status().connects).toBe(1);

    await ctx.call('suspend', {}, a);
    const held = await ctx.frame(b);
    expect(await ctx.frame(b)).toBe(held); // held: B reads, the game does not move
    await expect(ctx.call('resume', {}, b)).rejects.toMatchObject({ code: 'HOLD_NOT_OWNED' });
    const st = await ctx.call<{ games: { holds: unknown }[] }>('status', {}, b);
    expect(st.games[0]!.holds).toEqual([{ caller: a, count: 1 }]);
    await ctx.call('resume', {}, a);
    await expectRunning(ctx, b);
  });

  it('a caller that goes away: its hold, pause and breakpoints go at once; the other is unaffected', async () => {
    const ctx = await setup();
    const a = ctx.open('agent A (pid 1)');
    const b = ctx.open('agent B (pid 2)');
    await ctx.frame(b);
    await ctx.call(
      'debug_set_breakpoint',
      { type: 'Game.DebugTargets', method: 'Step', line: mark('targets-count') },
      a,
    );
    const stop = await ctx.call<{ stopped: boolean; stop?: { owner: string } }>(
      'debug_wait',
      { timeout_ms: 10_000 },
      a,
    );
    expect(stop).toMatchObject({ stopped: true, stop: { owner: a } });
    await ctx.call('suspend', {}, a);
    const before = ctx.app.gamesStatus()[0]!;
    expect(before).toMatchObject({ paused_for: a, holds: [{ caller: a, count: 1 }] });
    expect(before.breakpoints).toEqual([{ owner: a, count: 1 }]);

    // released by the time closeCaller resolves (the broker calls it when the socket drops)
    await ctx.app.closeCaller(a);
    const after = ctx.app.gamesStatus()[0]!;
    expect(after.callers).toEqual([b]);
    expect(after.holds).toEqual([]);
    expect(after.paused_for).toBeUndefined();
    expect(after.breakpoints).toEqual([]);
    await expectRunning(ctx, b);
    expect(ctx.app.allGames()[0]!.session.status().connects).toBe(1);
  });

  it('detach by one of two leaves the game attached for the other; by the last frees the slot', async () => {
    const ctx = await setup();
    const a = ctx.open('agent A (pid 1)');
    const b = ctx.open('agent B (pid 2)');
    await ctx.frame(a);
    await ctx.frame(b);
    expect(await ctx.call('detach', {}, a)).toMatchObject({ freed: false, still_attached: [b] });
    expect(ctx.app.gamesStatus()[0]).toMatchObject({ attached: true, callers: [b] });
    await expectRunning(ctx, b);
    expect(await ctx.call('detach', {}, b)).toMatchObject({ freed: true, was_attached: true });
    expect(ctx.app.gamesStatus()).toEqual([]);
    await slotIsFree();
  });

  it('when the last caller goes away the game lingers (a caller back in time reuses it), then the slot is freed', async () => {
    const ctx = await setup();
    const a = ctx.open('agent A (pid 1)');
    await ctx.frame(a);
    const game = ctx.app.allGames()[0]!;
    await ctx.app.closeCaller(a);
    expect(ctx.app.gamesStatus()[0]).toMatchObject({ attached: true, lingering: true });

    const c = ctx.open('agent C (pid 3)');
    await ctx.frame(c); // back within the linger period: the same connection
    expect(ctx.app.allGames()).toEqual([game]);
    expect(game.session.status().connects).toBe(1);
    expect(ctx.app.gamesStatus()[0]!.lingering).toBeUndefined();

    await ctx.app.closeCaller(c);
    const deadline = Date.now() + LINGER_MS + 10_000;
    while (ctx.app.gamesStatus().length > 0) {
      if (Date.now() > deadline) throw new Error('the game was not freed after the linger period');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(game.session.status().attached).toBe(false);
    await slotIsFree();
  });
});
