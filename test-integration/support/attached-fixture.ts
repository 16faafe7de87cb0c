// One fixture game and one wire connection to it for a whole test file: started in beforeAll,
// closed (resume + DISPOSE) and ended by pid in afterAll.

import { afterAll, beforeAll } from 'vitest';

import { SdbConnection } from '../../sdb-protocol/index.js';
import { startFixture, type FixtureOptions, type FixtureProcess } from '../../fixtures/launch.js';
import { Mirror } from './mirror.js';

export interface AttachedFixture {
  readonly fixture: FixtureProcess;
  readonly conn: SdbConnection;
  readonly m: Mirror;
  /** Closes the connection (as a client leaving would) and attaches a fresh one. */
  reconnect(): Promise<void>;
}

export function useAttachedFixture(options: FixtureOptions = { entities: 200 }): AttachedFixture {
  let fixture: FixtureProcess | undefined;
  let conn: SdbConnection | undefined;
  let m: Mirror | undefined;
  const need = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`${what} is used before beforeAll ran`);
    return x;
  };
  const attached: AttachedFixture = {
    get fixture() {
      return need(fixture, 'the fixture');
    },
    get conn() {
      return need(conn, 'the connection');
    },
    get m() {
      return need(m, 'the mirror');
    },
    async reconnect() {
      await conn?.close();
      conn = await SdbConnection.connect({ port: attached.fixture.sdbPort });
      m = new Mirror(conn);
    },
  };
  beforeAll(async () => {
    fixture = await startFixture(options);
    await attached.reconnect();
  });
  afterAll(async () => {
    await conn?.close();
    await fixture?.stop();
  });
  return attached;
}
