// The catalogue as operations use it, and its last-resort listing: asking the game itself.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameSession } from '../unity/session/session.js';
import { typeNamesByInvoke } from '../unity/type-names-by-invoke.js';
import { MainThreadInvoker } from '../unity/invoker.js';

let fixture: FixtureProcess;
let session: GameSession;

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  session = new GameSession();
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
});

afterAll(async () => {
  await session?.shutdown();
  await fixture?.stop();
});

describe('the catalogue inside operations', () => {
  it('finds and describes types within an operation, with costs reported', async () => {
    const r = await session.run('find', 'test', async (ctx) => {
      const found = await ctx.catalog.findTypes('Probe');
      const described = await ctx.catalog.describe('Game.Probe', { members: ['methods'] });
      return { found, described };
    });
    expect(r.value.found.matches.map((m) => m.fullName)).toContain('Game.Probe');
    expect(r.value.described.methods?.items.some((m) => m.name === 'Add')).toBe(true);
    expect(r.cost.invokes).toBe(0);
  });

  it("lists an assembly's types by asking the game, the same as its metadata says", async () => {
    const r = await session.run('list', 'test', async (ctx) => {
      const assemblies = await ctx.catalog.assemblies();
      const game = assemblies.find((x) => x.name === 'Assembly-CSharp')!;
      const invoker = new MainThreadInvoker(ctx.conn, await ctx.mainThread(), {
        endpoint: 'fixture',
        parkTimeoutMs: 2000,
        invokeTimeoutMs: 5000,
      });
      const byInvoke = await typeNamesByInvoke(ctx.conn)(invoker, game.assemblyId);
      const byMetadata = await ctx.catalog.findTypes('*', {
        assembly: 'Assembly-CSharp',
        limit: 10_000,
      });
      return { byInvoke, byMetadata: byMetadata.matches.map((m) => m.fullName) };
    });
    expect(r.value.byInvoke.length).toBeGreaterThan(20);
    expect(new Set(r.value.byInvoke)).toEqual(
      new Set(r.value.byMetadata.filter((n) => n !== '<Module>')),
    );
  });
});
