// Player discovery against real fixture games beaconing by unicast to a loopback listener (no
// multicast: tests never join the group or send to it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';

import { BeaconListener, type ListedPlayer } from '../unity/discovery/index.js';
import { delay, freeUdpPort, waitFor } from './support/net.js';
import { caught } from '../unity/testing/errors.js';

describe('player discovery with real fixtures', () => {
  let listener: BeaconListener;
  const fixtures: FixtureProcess[] = [];
  let alpha: FixtureProcess;
  let beta: FixtureProcess;
  let quiet: FixtureProcess;
  let started = 0;

  beforeAll(async () => {
    const beaconPort = await freeUdpPort();
    listener = new BeaconListener({
      ports: [beaconPort],
      multicast: false,
      bindAddress: '127.0.0.1',
    });
    await listener.start();
    // Alpha's port is in 56000-56999, so its Guid encodes it; Beta's is outside that range, so
    // only the `:port` suffix of its Id can tell it.
    const [alphaPort, betaPort] = await Promise.all([
      freeLoopbackPort({ min: 56000, max: 56999 }),
      freeLoopbackPort({ min: 40000, max: 55999 }),
    ]);
    const launches = [
      startFixture({
        beaconPort,
        sdbPort: alphaPort,
        entities: 100,
        args: ['--product-name', 'Discovery Alpha'],
      }),
      startFixture({
        beaconPort,
        sdbPort: betaPort,
        entities: 100,
        args: ['--beacon-id-port', '--product-name', 'Discovery Beta'],
      }),
      startFixture({
        beaconPort,
        entities: 100,
        args: ['--beacon-debug', '0', '--product-name', 'Discovery Quiet'],
      }),
    ];
    // Keep every fixture that started, even if another failed, so afterAll stops it.
    const results = await Promise.allSettled(launches);
    for (const r of results) if (r.status === 'fulfilled') fixtures.push(r.value);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    [alpha, beta, quiet] = fixtures as [FixtureProcess, FixtureProcess, FixtureProcess];
    started = Date.now();
  });

  afterAll(async () => {
    try {
      await Promise.allSettled(fixtures.map((f) => f.stop()));
    } finally {
      await listener?.stop();
    }
  });

  function byProject(name: string, includeStale = false): ListedPlayer | undefined {
    return listener.registry.list({ includeStale }).find((p) => p.projectName === name);
  }

  it('hears all three within about 3 s, with the right debugger ports', async () => {
    await waitFor(
      'three players',
      () => (listener.registry.list().length >= 3 ? true : undefined),
      Math.max(0, 3500 - (Date.now() - started)),
    );
    const a = byProject('Discovery Alpha');
    const b = byProject('Discovery Beta');
    const q = byProject('Discovery Quiet');
    expect(a).toMatchObject({
      host: '127.0.0.1',
      debuggerPort: alpha.sdbPort,
      endpoint: `127.0.0.1:${alpha.sdbPort}`,
      packageName: 'LinuxPlayer',
      debugEnabled: true,
      stale: false,
    });
    expect(a && 56000 + (a.guid % 1000)).toBe(alpha.sdbPort);
    expect(a?.key).toBe(`${a?.guid}@127.0.0.1`);
    expect(b).toMatchObject({ debuggerPort: beta.sdbPort, debugEnabled: true });
    expect(b?.label).toMatch(/^LinuxPlayer\([^:]+\)$/);
    expect(q).toMatchObject({ debugEnabled: false });
    expect(listener.status()).toMatchObject({
      listening: [{ multicast: false }],
      problems: [],
      datagrams: { ignored: 0 },
    });
  });

  it('refuses to guess between the two debuggable players', () => {
    const error = caught(() => listener.registry.select());
    expect(error.code).toBe('AMBIGUOUS_PLAYER');
    const listed = (error.details?.players ?? []) as { key: string; endpoint: string }[];
    expect(listed.map((p) => p.endpoint).sort()).toEqual(
      [`127.0.0.1:${alpha.sdbPort}`, `127.0.0.1:${beta.sdbPort}`].sort(),
    );
    expect(error.message).not.toContain('Discovery Quiet');
  });

  it('selects each by key, and lists but refuses the one with [Debug] 0', () => {
    for (const [fixture, name] of [
      [alpha, 'Discovery Alpha'],
      [beta, 'Discovery Beta'],
    ] as const) {
      const player = byProject(name);
      expect(player).toBeDefined();
      if (!player) continue;
      expect(listener.registry.select(player.key).debuggerPort).toBe(fixture.sdbPort);
      expect(listener.registry.select(name).key).toBe(player.key);
    }
    const q = byProject('Discovery Quiet');
    expect(q).toBeDefined();
    expect(quiet.alive()).toBe(true);
    const error = caught(() => listener.registry.select(q?.key));
    expect(error.code).toBe('NO_PLAYER');
    expect(error.message).toContain('[Debug] 0');
  });

  it('ages a stopped player until it is stale, then selects the one left', async () => {
    const before = byProject('Discovery Beta');
    expect(before).toBeDefined();
    await beta.stop();
    const lastHeard = before?.lastHeardAt;
    // Within the visibility window it stays listed while its age grows.
    await delay(1500);
    const aged = listener.registry.get(before?.key ?? '');
    expect(aged?.ageMs).toBeGreaterThan(1000);
    expect(aged && lastHeard !== undefined && aged.lastHeardAt - lastHeard).toBeLessThan(1500);

    const stale = await waitFor(
      'Beta to go stale',
      () => {
        const p = listener.registry.get(before?.key ?? '');
        return p?.stale ? p : undefined;
      },
      listener.registry.visibleForMs + 3000,
    );
    expect(stale.ageMs).toBeGreaterThan(listener.registry.visibleForMs);
    expect(byProject('Discovery Beta')).toBeUndefined();
    expect(byProject('Discovery Beta', true)).toMatchObject({ stale: true });
    // Alpha keeps announcing, so it stays visible and is now the only debuggable choice.
    expect(byProject('Discovery Alpha')?.stale).toBe(false);
    expect(listener.registry.select().debuggerPort).toBe(alpha.sdbPort);
    expect(caught(() => listener.registry.select(before?.key)).message).toContain(
      'matches only players silent',
    );
  });
});
