// One fixture game and one in-process GameApp attached to it (no discovery) for a whole test
// file, for tests that call tools as an agent would (callTool): started in beforeAll, closed
// (resume + DISPOSE) and ended by pid in afterAll; after each test, holds left behind are
// released, so that no test starts with the game frozen.

import { afterAll, afterEach, beforeAll } from 'vitest';

import { startFixture, type FixtureOptions, type FixtureProcess } from '../../fixtures/launch.js';
import { GameApp } from '../../mcp/app.js';

export interface FixtureApp {
  readonly fixture: FixtureProcess;
  readonly app: GameApp;
}

export function useFixtureApp(options: FixtureOptions): FixtureApp {
  let fixture: FixtureProcess | undefined;
  let app: GameApp | undefined;
  const need = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`${what} is used before beforeAll ran`);
    return x;
  };
  beforeAll(async () => {
    fixture = await startFixture(options);
    app = await GameApp.start({
      endpoint: { host: '127.0.0.1', port: fixture.sdbPort },
      discovery: false,
    });
  });
  afterAll(async () => {
    await app?.close();
    await fixture?.stop();
  });
  afterEach(async () => {
    if (!app) return;
    for (const h of app.session.status().holds)
      for (let i = 0; i < h.count; i++) await app.session.release(h.caller);
  });
  return {
    get fixture() {
      return need(fixture, 'the fixture');
    },
    get app() {
      return need(app, 'the app');
    },
  };
}
