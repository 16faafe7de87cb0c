// The session with discovery: several games announcing at once are never guessed between, and a
// game restarted on another port is found again through its beacon.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Values } from '../sdb-protocol/index.js';
import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { BeaconListener, playerResolver } from '../unity/discovery/index.js';
import { GameSession } from '../unity/session/session.js';
import { Mirror } from './support/mirror.js';
import { freeUdpPort, waitFor } from './support/net.js';

let listener: BeaconListener;
let beaconPort: number;
const fixtures: FixtureProcess[] = [];

beforeAll(async () => {
  beaconPort = await freeUdpPort();
  listener = new BeaconListener({
    ports: [beaconPort],
    multicast: false,
    bindAddress: '127.0.0.1',
  });
  await listener.start();
});

afterAll(async () => {
  await Promise.all(fixtures.map((f) => f.stop()));
  await listener?.stop();
});

async function game(productName: string): Promise<FixtureProcess> {
  // like a real player: the debugger port is 56000 + guid % 1000, so the beacon implies it
  const sdbPort = await freeLoopbackPort({ min: 56000, max: 56999 });
  const f = await startFixture({
    entities: 10,
    beaconPort,
    sdbPort,
    args: ['--product-name', productName],
  });
  fixtures.push(f);
  await waitFor(
    `${productName}'s beacon`,
    () => listener.registry.list().find((p) => p.debuggerPort === f.sdbPort),
    5000,
  );
  return f;
}

const readSInt = (s: GameSession): Promise<unknown> =>
  s
    .run('read', 'test', (ctx) => new Mirror(ctx.conn).static('Game.Probe', 'SInt'))
    .then((r) => r.value);

describe('a session over discovery', () => {
  it('refuses to guess between two games, then attaches to the one chosen', async () => {
    const a = await game('Alpha Game');
    await game('Beta Game');
    const s = new GameSession({ players: playerResolver(listener.registry) });
    try {
      await expect(readSInt(s)).rejects.toMatchObject({
        code: 'AMBIGUOUS_PLAYER',
        message: expect.stringMatching(/Alpha Game|Beta Game/),
        details: {
          players: expect.arrayContaining([
            expect.objectContaining({ endpoint: `127.0.0.1:${a.sdbPort}` }),
          ]),
        },
      });
      expect(s.connects).toBe(0);
      await s.attach({ kind: 'player', selector: 'Alpha Game' });
      expect(await readSInt(s)).toEqual(Values.i4(-123456789));
      expect(s.status().endpoint).toBe(`127.0.0.1:${a.sdbPort}`);
    } finally {
      await s.shutdown();
      await Promise.all(fixtures.splice(0).map((f) => f.stop()));
    }
  });

  it('finds a game restarted on another port through its beacon, and refuses writes to it', async () => {
    const first = await game('Restart Game');
    const s = new GameSession({ players: playerResolver(listener.registry) });
    try {
      await s.attach({ kind: 'player', selector: 'Restart Game' });
      await readSInt(s);
      await first.stop();
      const second = await game('Restart Game');
      expect(second.sdbPort).not.toBe(first.sdbPort);
      expect(await readSInt(s)).toEqual(Values.i4(-123456789));
      expect(s.connects).toBe(2);
      expect(s.status().endpoint).toBe(`127.0.0.1:${second.sdbPort}`);
      await expect(
        s.run('write', 'test', () => Promise.resolve(1), { writes: true }),
      ).rejects.toMatchObject({
        code: 'GAME_REPLACED',
      });
    } finally {
      await s.shutdown();
    }
  });
});
