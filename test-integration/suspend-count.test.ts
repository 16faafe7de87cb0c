// The game's suspend count stays ours to balance with several callers at once. An invoke that is
// not single-threaded makes Mono's agent resume the whole VM for the call and suspend it again
// as many times afterwards: a VM.RESUME of another caller's hold that reaches the agent during
// that call finds nothing suspended (NOT_SUSPENDED) and is lost, the call's end re-suspends, and
// the game is left frozen with no hold of anyone's to release it. Here one caller takes and
// releases holds while another's evals invoke on the main thread and a third advances: every
// call succeeds and the game runs afterwards.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { toolCaller } from './support/tool-harness.js';

let fixture: FixtureProcess;
let app: GameApp;
const ROUNDS = 5;

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  app = await GameApp.start({ discovery: false, lingerMs: 1000 });
});

afterAll(async () => {
  await app?.close();
  await fixture?.stop();
});

describe('holds of one caller beside invokes of another', () => {
  it('never lose a RESUME: every call succeeds and the game runs afterwards', async () => {
    const call = toolCaller<Record<string, unknown>>(ALL_TOOLS, () => app);
    const target = { kind: 'endpoint' as const, host: '127.0.0.1', port: fixture.sdbPort };
    const holder = app.openCaller({ label: 'holder', target });
    const invoker = app.openCaller({ label: 'invoker', target });
    const frame = async (caller: string): Promise<number> =>
      Number((await call('eval', { code: 'UnityEngine.Time.frameCount' }, caller)).value);
    await frame(invoker);

    const errors: string[] = [];
    const record = (who: string) => (e: unknown) => {
      errors.push(`${who}: ${(e as Error).message}`);
    };
    for (let i = 0; i < ROUNDS; i++) {
      await call('suspend', {}, holder);
      // the invoker's call keeps the main thread 150 ms; the hold is released in the middle of it
      const busy = call('eval', { code: 'System.Threading.Thread.Sleep(150)' }, invoker).catch(
        record('eval'),
      );
      await new Promise((r) => setTimeout(r, 50));
      await call('resume', {}, holder).catch(record('resume'));
      await busy;
    }

    expect(errors).toEqual([]);
    const status = (await call('status', {}, holder)) as { games: { holds: unknown[] }[] };
    expect(status.games[0]!.holds).toEqual([]);
    // nobody holds it, so it runs: its frame counter moves within a bound
    const first = await frame(invoker);
    const deadline = Date.now() + 10_000;
    while ((await frame(invoker)) === first) {
      if (Date.now() > deadline) throw new Error('the game stayed frozen with no hold left');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 120_000);
});
