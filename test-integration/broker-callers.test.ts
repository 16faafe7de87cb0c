// Several agents on live games through one broker, as real processes: MCP front-ends (the built
// `unity-devtools mcp`, driven by the SDK's client) and CLI commands sharing one broker home.
// They evaluate, hold and read one game at once; a foreign debugger (the reference client,
// Mono.Debugger.Soft) finds the slot free after they all detach, and holding it makes ours say
// SLOT_BUSY without connecting; a front-end killed while holding takes its hold with it; two
// games announcing are each reached by the front-end that named it.

import { readFile, readdir, readlink } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { processAlive } from '../unity/lifetime.js';
import { agentConnections } from './support/agent-sockets.js';
import { startForeignDebugger } from './support/foreign-debugger/launch.js';
import {
  brokerHome,
  runCli,
  startServer,
  stopBroker,
  type ServerUnderTest,
} from './support/mcp-client.js';
import { delay, freeUdpPort } from './support/net.js';

interface GameRow {
  id: string;
  endpoint: string;
  attached: boolean;
  callers: string[];
  holds: { caller: string; count: number }[];
}
interface Status {
  caller: string;
  game?: string;
  games: GameRow[];
}

/** A fixture whose beacon (unicast to 127.0.0.1) announces its debugger port as Unity's does. */
async function beaconing(beaconPort: number): Promise<FixtureProcess> {
  // the beacon's Guid gives 56000 + Guid % 1000 as the debugger port
  const sdbPort = await freeLoopbackPort({ min: 56000, max: 56999 });
  return startFixture({ entities: 10, beaconPort, sdbPort });
}

/** Polls the async `probe` until it holds, within a bound. */
async function until(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await delay(50);
  }
}

/** The UDP ports the sockets of process `pid` are bound to (from /proc: its fds and the tables). */
async function udpPortsOf(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1]!);
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/udp', '/proc/net/udp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9]!)) ports.push(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

async function frame(s: ServerUnderTest, args: Record<string, unknown> = {}): Promise<number> {
  return Number(
    (await s.ok<{ value: string }>('eval', { code: 'Time.frameCount', ...args })).value,
  );
}

describe('one game, several front-ends of one broker', () => {
  let fixture: FixtureProcess;
  let beaconPort: number;
  let home: string;
  let a: ServerUnderTest;
  let b: ServerUnderTest;
  let discovery: string[];

  beforeAll(async () => {
    beaconPort = await freeUdpPort();
    fixture = await beaconing(beaconPort);
    home = brokerHome();
    discovery = ['--beacon-port', String(beaconPort), '--no-multicast'];
    // started together: the first to find no broker starts it, the other uses it
    [a, b] = await Promise.all([
      startServer(discovery, { home }),
      startServer(discovery, { home }),
    ]);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (home) await stopBroker(home);
    await fixture?.stop();
  });

  it('two MCP front-ends and a CLI command evaluate, hold and read at once; after all detach, a foreign debugger attaches', async () => {
    const [ra, rb, cli] = await Promise.all([
      a.ok<{ value: string }>('eval', { code: '1 + 1' }),
      b.ok<{ value: string }>('eval', { code: '2 + 2' }),
      runCli(home, ['eval', '3 + 3', '--json', ...discovery]),
    ]);
    expect([ra.value, rb.value, (JSON.parse(cli.stdout) as { value: string }).value]).toEqual([
      '2',
      '4',
      '6',
    ]);
    expect(cli.code).toBe(0);

    await a.ok('suspend');
    const held = await frame(b);
    await delay(100);
    expect(await frame(b)).toBe(held); // a's hold: b reads, the game does not move
    const cliFrame = await runCli(home, ['eval', 'Time.frameCount', '--json', ...discovery]);
    expect(Number((JSON.parse(cliFrame.stdout) as { value: string }).value)).toBe(held);
    const st = JSON.parse(
      (await runCli(home, ['status', '--json', ...discovery])).stdout,
    ) as Status;
    const aId = (await a.ok<Status>('status')).caller;
    const bId = (await b.ok<Status>('status')).caller;
    expect(aId).toMatch(/^integration-test \(pid \d+\)/);
    expect(bId).not.toBe(aId);
    expect(st.games).toHaveLength(1);
    expect(st.games[0]!.holds).toEqual([{ caller: aId, count: 1 }]);
    expect(st.games[0]!.callers).toEqual(expect.arrayContaining([aId, bId]));
    expect((await b.fails('resume')).code).toBe('HOLD_NOT_OWNED');
    await a.ok('resume');
    await until(async () => (await frame(b)) > held, 10_000, 'the game runs after the resume');

    // one connection served them all
    const broker = JSON.parse((await runCli(home, ['broker', '--status', '--json'])).stdout) as {
      pid: number;
      games: GameRow[];
    };
    expect(broker.games.map((g) => g.endpoint)).toEqual([`127.0.0.1:${fixture.sdbPort}`]);
    const text = (await runCli(home, ['broker', '--status'])).stdout;
    expect(text).toContain(
      `1 game(s):\n  ${broker.games[0]!.id} 127.0.0.1:${fixture.sdbPort}: attached, callers `,
    );
    expect(text).toContain(aId);
    // discovery once: the broker listens for beacons, the front-ends bind no UDP port at all
    expect(await udpPortsOf(broker.pid)).toContain(beaconPort);
    expect(await udpPortsOf(a.pid!)).toEqual([]);
    expect(await udpPortsOf(b.pid!)).toEqual([]);

    expect(await a.ok('detach')).toMatchObject({ freed: false, still_attached: [bId] });
    expect(await b.ok('detach')).toMatchObject({ freed: true, was_attached: true });
    const foreign = await startForeignDebugger(fixture.sdbPort);
    await foreign.leave();
  });

  it('a foreign debugger holds the slot: SLOT_BUSY with its pid and no connection made; after it leaves ours attaches', async () => {
    for (let round = 0; round < 3; round++) {
      const foreign = await startForeignDebugger(fixture.sdbPort);
      const before = await agentConnections(fixture.sdbPort);
      const e = await a.fails('eval', { code: '1' });
      expect(e.code).toBe('SLOT_BUSY');
      expect(e.meta.details).toMatchObject({ holder_pid: foreign.pid });
      expect((await b.fails('attach')).code).toBe('SLOT_BUSY');
      expect(await agentConnections(fixture.sdbPort)).toBe(before);
      await foreign.leave();
      expect((await a.ok<{ value: string }>('eval', { code: '40 + 2' })).value).toBe('42');
      // b asked to attach (refused): it counts as attached until it detaches too
      expect(await a.ok('detach')).toMatchObject({ freed: false });
      expect(await b.ok('detach')).toMatchObject({ freed: true });
    }
  });

  it('a front-end killed while holding: its hold is released and the game runs; the other front-end is unaffected', async () => {
    const c = await startServer(discovery, { home });
    await frame(b);
    await frame(c);
    await c.ok('suspend');
    const cId = (await c.ok<Status>('status')).caller;
    const held = (await b.ok<Status>('status')).games[0]!;
    expect(held.holds).toEqual([{ caller: cId, count: 1 }]);

    process.kill(c.pid!, 'SIGKILL');
    await until(
      async () => (await b.ok<Status>('status')).games[0]!.holds.length === 0,
      10_000,
      "the killed front-end's hold released",
    );
    const first = await frame(b);
    await until(async () => (await frame(b)) > first, 10_000, 'the game runs');
    const after = (await b.ok<Status>('status')).games[0]!;
    expect(after.callers).not.toContain(cId);
    expect(after.callers).toContain((await b.ok<Status>('status')).caller);
    await b.ok('detach');
  });
});

describe('two games announcing', () => {
  let one: FixtureProcess;
  let two: FixtureProcess;
  let home: string;
  const servers: ServerUnderTest[] = [];
  let discovery: string[];

  beforeAll(async () => {
    const beaconPort = await freeUdpPort();
    [one, two] = await Promise.all([beaconing(beaconPort), beaconing(beaconPort)]);
    home = brokerHome();
    discovery = ['--beacon-port', String(beaconPort), '--no-multicast'];
  });

  afterAll(async () => {
    for (const s of servers) await s.close();
    if (home) await stopBroker(home);
    await one?.stop();
    await two?.stop();
  });

  async function server(args: string[] = []): Promise<ServerUnderTest> {
    const s = await startServer([...discovery, ...args], { home });
    servers.push(s);
    return s;
  }

  it('each front-end works on the game it named; a call naming none with two visible is AMBIGUOUS_PLAYER', async () => {
    const onOne = await server(['--player', `127.0.0.1:${one.sdbPort}`]);
    const onTwo = await server(['--player', `127.0.0.1:${two.sdbPort}`]);
    const original = (await onOne.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt' })).value;
    await onOne.ok('eval', { code: 'Game.Probe.SInt = 111' });
    try {
      expect((await onOne.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt' })).value).toBe(
        '111',
      );
      expect((await onTwo.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt' })).value).toBe(
        original,
      );
      const st = await onTwo.ok<Status>('status');
      expect(st.games.map((g) => g.endpoint).sort()).toEqual(
        [`127.0.0.1:${one.sdbPort}`, `127.0.0.1:${two.sdbPort}`].sort(),
      );
      expect(st.games.find((g) => g.id === st.game)!.endpoint).toBe(`127.0.0.1:${two.sdbPort}`);

      // a third front-end that named nothing: never a guess, and never another caller's game
      const third = await server();
      expect((await third.fails('eval', { code: '1' })).code).toBe('AMBIGUOUS_PLAYER');
      // a game id from status names it for that call
      const oneId = st.games.find((g) => g.endpoint === `127.0.0.1:${one.sdbPort}`)!.id;
      expect(
        (await third.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt', player: oneId }))
          .value,
      ).toBe('111');
      // and attach by that id makes it the third's game
      await third.ok('attach', { player: oneId });
      expect((await third.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt' })).value).toBe(
        '111',
      );
    } finally {
      await onOne.ok('eval', { code: `Game.Probe.SInt = ${original}` });
    }
  });
});

describe('a game its callers left, and a broker nobody uses', () => {
  let fixture: FixtureProcess;

  beforeAll(async () => {
    fixture = await startFixture({ entities: 10 });
  });

  afterAll(async () => {
    await fixture?.stop();
  });

  const target = (): string[] => ['--port', String(fixture.sdbPort)];

  it('lingers attached after its last front-end goes away (one that comes back reuses the connection), then is freed', async () => {
    const home = brokerHome();
    const env = { UNITY_DEVTOOLS_LINGER_MS: '2000' };
    try {
      const first = await startServer(target(), { home, env });
      await frame(first);
      await first.close(); // gone without detach
      const brokerGames = async (): Promise<(GameRow & { lingering?: boolean })[]> =>
        (
          JSON.parse((await runCli(home, ['broker', '--status', '--json'])).stdout) as {
            games: (GameRow & { lingering?: boolean })[];
          }
        ).games;
      await until(
        async () => (await brokerGames())[0]?.lingering === true,
        10_000,
        'the game to linger',
      );
      const back = await startServer(target(), { home, env });
      await frame(back);
      const st = await back.ok<{ session: { connects: number } }>('status');
      expect(st.session.connects).toBe(1); // the same connection: no new attach
      await back.close();
      await until(async () => (await brokerGames()).length === 0, 15_000, 'the game freed');
      const foreign = await startForeignDebugger(fixture.sdbPort);
      await foreign.leave();
    } finally {
      await stopBroker(home);
    }
  });

  it('a broker with no front-end for its idle period exits by itself, resuming and releasing the game', async () => {
    const home = brokerHome();
    const env = { UNITY_DEVTOOLS_IDLE_EXIT_MS: '1500' };
    try {
      const s = await startServer(target(), { home, env });
      await frame(s);
      const { pid } = JSON.parse((await runCli(home, ['broker', '--status', '--json'])).stdout) as {
        pid: number;
      };
      await s.close(); // the game lingers (60 s), but the broker's idle period ends first
      await until(() => Promise.resolve(!processAlive(pid)), 15_000, 'the idle broker to exit');
      const foreign = await startForeignDebugger(fixture.sdbPort);
      await foreign.leave();
    } finally {
      await stopBroker(home);
    }
  });
});
