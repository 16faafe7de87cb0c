import { describe, expect, it } from 'vitest';
import { BeaconFlags, type BeaconMessage } from './beacon-message.js';
import { PlayerRegistry } from './player-registry.js';
import { caught } from '../testing/errors.js';

function beacon(overrides: Partial<BeaconMessage> = {}): BeaconMessage {
  return {
    ip: '192.168.1.20',
    port: 55066,
    flags: 3,
    guid: 2910272123,
    editorId: 2224704987,
    version: 1048832,
    id: 'LinuxPlayer(box)',
    debug: true,
    packageName: 'LinuxPlayer',
    projectName: 'My Game',
    ...overrides,
  };
}

/** A registry on a clock the test moves by hand. */
function setup(): { registry: PlayerRegistry; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { registry: new PlayerRegistry({ clock: () => clock.now }), clock };
}

describe('PlayerRegistry: what it records', () => {
  it('derives key, endpoint and debugger port from Guid and the source address', () => {
    const { registry } = setup();
    const { player, added } = registry.record(beacon(), '127.0.0.1');
    expect(added).toBe(true);
    expect(player).toMatchObject({
      key: '2910272123@127.0.0.1',
      host: '127.0.0.1',
      announcedIp: '192.168.1.20',
      debuggerPort: 56123,
      endpoint: '127.0.0.1:56123',
      playerConnectionPort: 55066,
      label: 'LinuxPlayer(box)',
      projectName: 'My Game',
      packageName: 'LinuxPlayer',
      debugEnabled: true,
    });
  });

  it("prefers Id's :port suffix over the Guid formula", () => {
    const { registry } = setup();
    const { player } = registry.record(beacon({ idPort: 4601 }), '10.0.0.9');
    expect(player.debuggerPort).toBe(4601);
    expect(player.endpoint).toBe('10.0.0.9:4601');
  });

  it('uses [IP] instead of the source address only with UseAlternateIP', () => {
    const { registry } = setup();
    const flags = 3 | BeaconFlags.UseAlternateIp;
    const { player } = registry.record(beacon({ flags, ip: '10.1.2.3' }), '192.168.0.7');
    expect(player.host).toBe('10.1.2.3');
    expect(player.key).toBe('2910272123@10.1.2.3');
  });

  it('updates last-heard on repeats and keeps first-heard', () => {
    const { registry, clock } = setup();
    registry.record(beacon(), '127.0.0.1');
    clock.now += 1000;
    const again = registry.record(beacon(), '127.0.0.1');
    expect(again.added).toBe(false);
    expect(again.player.firstHeardAt).toBe(1_000_000);
    expect(again.player.lastHeardAt).toBe(1_001_000);
    expect(again.player.beacons).toBe(2);
    expect(registry.size).toBe(1);
  });
});

describe('PlayerRegistry: ageing', () => {
  it('hides players silent for more than 5 s unless stale ones are asked for', () => {
    const { registry, clock } = setup();
    registry.record(beacon(), '127.0.0.1');
    clock.now += 5000;
    expect(registry.list()).toMatchObject([{ ageMs: 5000, stale: false }]);
    clock.now += 1;
    expect(registry.list()).toEqual([]);
    expect(registry.list({ includeStale: true })).toMatchObject([{ ageMs: 5001, stale: true }]);
    expect(registry.get('2910272123@127.0.0.1')).toMatchObject({ stale: true });
    // A fresh beacon makes it visible again.
    registry.record(beacon(), '127.0.0.1');
    expect(registry.list()).toMatchObject([{ ageMs: 0, stale: false }]);
  });

  it('takes now and the window per call', () => {
    const { registry, clock } = setup();
    registry.record(beacon(), '127.0.0.1');
    expect(registry.list({ now: clock.now + 2000, maxAgeMs: 1000 })).toEqual([]);
    expect(registry.list({ now: clock.now - 500 })).toMatchObject([{ ageMs: 0 }]);
  });

  it('forgets players silent for longer than forgetAfterMs, and caps the count', () => {
    const clock = { now: 0 };
    const registry = new PlayerRegistry({
      clock: () => clock.now,
      forgetAfterMs: 60_000,
      maxPlayers: 2,
    });
    registry.record(beacon({ guid: 1 }), '127.0.0.1');
    clock.now = 10_000;
    registry.record(beacon({ guid: 2 }), '127.0.0.1');
    registry.record(beacon({ guid: 3 }), '127.0.0.1');
    expect(registry.list({ includeStale: true }).map((p) => p.guid)).toEqual([2, 3]);
    clock.now = 80_000;
    registry.record(beacon({ guid: 4 }), '127.0.0.1');
    expect(registry.list({ includeStale: true }).map((p) => p.guid)).toEqual([4]);
  });
});

describe('PlayerRegistry.select', () => {
  function three(): { registry: PlayerRegistry; clock: { now: number } } {
    const s = setup();
    s.registry.record(beacon({ guid: 1000056001, projectName: 'Alpha' }), '127.0.0.1');
    s.clock.now += 10;
    s.registry.record(
      beacon({ guid: 7, projectName: 'Beta Game', id: 'AndroidPlayer(pixel)', idPort: 34999 }),
      '192.168.1.50',
    );
    s.clock.now += 10;
    s.registry.record(beacon({ guid: 9, projectName: 'Quiet', debug: false }), '127.0.0.1');
    return s;
  }

  it('returns the only visible debuggable player without a selector', () => {
    const { registry } = setup();
    registry.record(beacon(), '127.0.0.1');
    registry.record(beacon({ guid: 5, debug: false }), '127.0.0.1');
    expect(registry.select().key).toBe('2910272123@127.0.0.1');
  });

  it('never guesses between several debuggable players', () => {
    const { registry } = three();
    const error = caught(() => registry.select());
    expect(error.code).toBe('AMBIGUOUS_PLAYER');
    expect(error.details?.players).toEqual([
      {
        key: '1000056001@127.0.0.1',
        label: 'Alpha on LinuxPlayer(box)',
        endpoint: '127.0.0.1:56001',
      },
      {
        key: '7@192.168.1.50',
        label: 'Beta Game on AndroidPlayer(pixel)',
        endpoint: '192.168.1.50:34999',
      },
    ]);
    expect(error.message).not.toContain('Quiet');
  });

  it.each([
    ['key', '7@192.168.1.50', 7],
    ['guid', '1000056001', 1000056001],
    ['project name', 'Alpha', 1000056001],
    ['Id label', 'AndroidPlayer(pixel)', 7],
    ['host:port', '192.168.1.50:34999', 7],
    ['project name, any case', 'beta game', 7],
    ['unique substring', 'pix', 7],
    ['exact before substring', '7', 7],
  ])('selects by %s', (_what, selector, guid) => {
    const { registry } = three();
    expect(registry.select(selector).guid).toBe(guid);
  });

  it('reports a selector matching several players as ambiguous', () => {
    const { registry } = three();
    // Both labels contain "Player(", both hosts "1".
    expect(caught(() => registry.select('player(')).code).toBe('AMBIGUOUS_PLAYER');
  });

  it('reports a miss as NO_PLAYER listing what is visible', () => {
    const { registry } = three();
    const error = caught(() => registry.select('Gamma'));
    expect(error.code).toBe('NO_PLAYER');
    expect(error.message).toContain('no visible player matches "Gamma"');
    expect(error.message).toContain('Alpha on LinuxPlayer(box) (1000056001@127.0.0.1');
    expect(error.message).toContain('Quiet');
  });

  it('lists but refuses players with [Debug] 0, saying why', () => {
    const { registry } = three();
    expect(registry.list().find((p) => p.projectName === 'Quiet')?.debugEnabled).toBe(false);
    const error = caught(() => registry.select('Quiet'));
    expect(error.code).toBe('NO_PLAYER');
    expect(error.message).toContain('[Debug] 0');
    expect(error.message).toContain('Script Debugging');

    const solo = setup();
    solo.registry.record(beacon({ debug: false }), '127.0.0.1');
    expect(caught(() => solo.registry.select()).message).toContain('[Debug] 0');
  });

  it('says nothing was heard when the registry is empty', () => {
    const { registry } = setup();
    const error = caught(() => registry.select());
    expect(error.code).toBe('NO_PLAYER');
    expect(error.message).toContain('no Unity player has announced itself');
  });

  it('names stale players, and how long ago they were heard, instead of selecting them', () => {
    const { registry, clock } = three();
    clock.now += 12_000;
    const none = caught(() => registry.select());
    expect(none.code).toBe('NO_PLAYER');
    expect(none.message).toContain('in the last 5 s');
    expect(none.message).toMatch(/Alpha on LinuxPlayer\(box\) .* 12 s ago/);

    const byKey = caught(() => registry.select('7@192.168.1.50'));
    expect(byKey.code).toBe('NO_PLAYER');
    expect(byKey.message).toContain('matches only players silent');
    expect(byKey.message).toContain('192.168.1.50:34999');
  });

  it('selects the remaining player once the others go stale', () => {
    const { registry, clock } = three();
    clock.now += 4000;
    registry.record(beacon({ guid: 7, id: 'AndroidPlayer(pixel)', idPort: 34999 }), '192.168.1.50');
    clock.now += 3000;
    expect(registry.select().key).toBe('7@192.168.1.50');
  });
});
