// Smoke test of the fixture harness: READY, beacon, Player.log, parallel fixtures, stop().
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { processAlive } from '../unity/lifetime.js';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(50);
  }
}

/** "[Key] value [Key2] value two" → { Key: 'value', Key2: 'value two' }, in order. */
function parseBeacon(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const match of text.matchAll(/\[([A-Za-z]+)\] ([^[]*)/g)) {
    const [, key, value] = match;
    if (key !== undefined && value !== undefined) fields.set(key, value.trim());
  }
  return fields;
}

function heartbeats(log: string): number {
  return log.match(/^Ticker heartbeat frame=\d+$/gm)?.length ?? 0;
}

describe('fixture harness', () => {
  let fixture: FixtureProcess;
  let socket: dgram.Socket;
  let sdbPort: number;
  const datagrams: Buffer[] = [];

  beforeAll(async () => {
    socket = dgram.createSocket('udp4');
    socket.on('message', (message) => datagrams.push(message));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    // In 56000-56999 the beacon's [Guid] encodes the port (56000 + Guid % 1000).
    sdbPort = await freeLoopbackPort({ min: 56000, max: 56999 });
    fixture = await startFixture({ sdbPort, beaconPort: socket.address().port });
  });

  afterAll(async () => {
    await fixture?.stop();
    socket?.close();
  });

  it('reports READY with its pid and debugger port', () => {
    expect(fixture.output()).toMatch(
      new RegExp(`^FIXTURE READY pid=${fixture.pid} sdb=${sdbPort}$`, 'm'),
    );
    expect(fixture.alive()).toBe(true);
    expect(fixture.sdbPort).toBe(sdbPort);
  });

  it('announces itself like a Unity development player', async () => {
    const datagram = await waitFor('a beacon datagram', () => datagrams[0], 3000);
    expect(datagram[datagram.length - 1]).toBe(0);
    const text = datagram.subarray(0, datagram.length - 1).toString('utf8');
    const fields = parseBeacon(text);
    expect([...fields.keys()]).toEqual([
      'IP',
      'Port',
      'Flags',
      'Guid',
      'EditorId',
      'Version',
      'Id',
      'Debug',
      'PackageName',
      'ProjectName',
    ]);
    expect(fields.get('IP')).toBe('127.0.0.1');
    expect(Number(fields.get('Port'))).toBeGreaterThanOrEqual(55000);
    expect(Number(fields.get('Port'))).toBeLessThanOrEqual(55511);
    expect(fields.get('Flags')).toBe('3');
    expect(fields.get('Version')).toBe('1048832');
    expect(fields.get('Debug')).toBe('1');
    expect(fields.get('Id')).toMatch(/^LinuxPlayer\([^ ]+\)$/);
    expect(fields.get('PackageName')).toBe('LinuxPlayer');
    expect(fields.get('ProjectName')).toBe('Fixture Game');
    const guid = Number(fields.get('Guid'));
    expect(Number.isInteger(guid) && guid >= 0 && guid <= 0xffffffff).toBe(true);
    expect(56000 + (guid % 1000)).toBe(sdbPort);
  });

  it('repeats the beacon about once a second', async () => {
    const before = datagrams.length;
    await waitFor(
      'two more beacon datagrams',
      () => (datagrams.length >= before + 2 ? true : undefined),
      3500,
    );
  });

  it('writes Player.log with a Unity-like header and a growing heartbeat', async () => {
    const first = await waitFor(
      'a heartbeat in Player.log',
      async () => {
        const log = await readFile(fixture.logPath, 'utf8').catch(() => '');
        return heartbeats(log) > 0 ? log : undefined;
      },
      5000,
    );
    expect(first).toMatch(/^Mono path\[0\] = '/);
    expect(first).toMatch(/^Initialize engine version: 2022\.3\.\S+ \(fixture\)$/m);
    expect(first).toMatch(
      /^Ticker heartbeat frame=\d+\nUnityEngine\.Debug:Log \(object\)\nGame\.Ticker:Tick \(int\)\n/m,
    );
    const count = heartbeats(first);
    await waitFor(
      'another heartbeat',
      async () => (heartbeats(await readFile(fixture.logPath, 'utf8')) > count ? true : undefined),
      3000,
    );
  });

  it('runs several fixtures at once', async () => {
    const others = await Promise.all([
      startFixture({ entities: 100 }),
      startFixture({ entities: 100 }),
    ]);
    try {
      const [a, b] = others;
      expect(a?.alive()).toBe(true);
      expect(b?.alive()).toBe(true);
      expect(fixture.alive()).toBe(true);
      expect(new Set([a?.pid, b?.pid, fixture.pid]).size).toBe(3);
      expect(new Set([a?.sdbPort, b?.sdbPort, fixture.sdbPort]).size).toBe(3);
      expect(a?.dataDir).not.toBe(b?.dataDir);
      expect(a?.output()).toMatch(/^FIXTURE READY /m);
      expect(b?.output()).toMatch(/^FIXTURE READY /m);
    } finally {
      await Promise.all(others.map((o) => o.stop()));
    }
  });

  it('stop() ends the process, frees its pid and removes its temp data dir', async () => {
    const { pid, dataDir } = fixture;
    await fixture.stop();
    const exit = await fixture.exited;
    expect(exit.code !== null || exit.signal !== null).toBe(true);
    expect(fixture.alive()).toBe(false);
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
    await fixture.stop(); // idempotent
  });
});
