// The broker as real processes: front-ends sharing one broker per home, `broker --status` and
// `--stop`, the broker stopped by each signal while holding a game (the game runs and takes a
// new debugger), an unsafe home refused, and a broker killed under a front-end (BROKER_LOST,
// then a new broker). Each test has its own temporary UNITY_DEVTOOLS_HOME.

import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { SdbConnection, Values } from '../sdb-protocol/index.js';
import {
  BUILT_CLI,
  brokerEnv,
  brokerHome,
  runCli,
  startServer,
  stopBroker,
} from './support/mcp-client.js';
import { Mirror } from './support/mirror.js';
import { delay, freeUdpPort } from './support/net.js';

let fixture: FixtureProcess;
let beaconPort: number;
/** Far above the broker's own exit bound (3 s): exceeding it means it hung. */
const HANG_MS = 15_000;

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  beaconPort = await freeUdpPort();
  // one log line per frame: a frozen game is visible in its log
  const c = await SdbConnection.connect({ port: fixture.sdbPort });
  await new Mirror(c).setStatic('Game.Control', 'LogEveryFrames', Values.i4(1));
  await c.close();
});

afterAll(async () => {
  await fixture?.stop();
});

const gameArgs = () => [
  '--port',
  String(fixture.sdbPort),
  '--beacon-port',
  String(beaconPort),
  '--no-multicast',
];

interface BrokerStatus {
  pid: number;
  frontEnds: { pid: number; kind: string; client?: string }[];
}

async function status(home: string): Promise<BrokerStatus> {
  const r = await runCli(home, ['broker', '--status', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as BrokerStatus;
}

/** `unity-devtools broker ...` started by the test (its pid known), once it listens. */
async function startBroker(
  home: string,
  args: string[],
): Promise<{
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: string | null }>;
}> {
  const child = spawn(process.execPath, [BUILT_CLI, 'broker', ...args], {
    env: brokerEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + HANG_MS;
  while (!/listening at/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the broker did not start: ${out}`);
    await delay(25);
  }
  return { child, exited };
}

async function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no end within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

async function logLines(): Promise<number> {
  return (await readFile(fixture.logPath, 'utf8')).split('\n').length;
}

/** The game runs (its log grows) and takes a new debugger, which leaves cleanly. */
async function gameIsFree(): Promise<void> {
  const before = await logLines();
  const c = await SdbConnection.connect({ port: fixture.sdbPort });
  await c.close();
  const deadline = Date.now() + HANG_MS;
  while ((await logLines()) <= before) {
    if (Date.now() > deadline) throw new Error('the game does not run');
    await delay(50);
  }
}

describe('the broker', () => {
  it('serves two mcp front-ends started at once in one home from one broker', async () => {
    const home = brokerHome();
    const [a, b] = await Promise.all([
      startServer(gameArgs(), { home }),
      startServer(gameArgs(), { home }),
    ]);
    try {
      for (const s of [a, b])
        expect((await s.ok<{ value: string }>('eval', { code: '20 + 22' })).value).toBe('42');
      const st = await status(home);
      expect(Number(readFileSync(path.join(home, 'broker.pid'), 'utf8'))).toBe(st.pid);
      const mcp = st.frontEnds.filter((f) => f.kind === 'mcp');
      expect(mcp.map((f) => f.pid).sort()).toEqual([a.pid, b.pid].sort());
      expect(mcp.every((f) => f.client === 'integration-test')).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await stopBroker(home);
    }
    await gameIsFree();
  });

  it('broker --status and --stop: none running, then a command starts one, then stopped', async () => {
    const home = brokerHome();
    const none = await runCli(home, ['broker', '--status']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no broker is running/);
    expect((await runCli(home, ['broker', '--stop'])).code).toBe(0);

    const r = await runCli(home, ['eval', '2 + 3', ...gameArgs()]);
    expect(r.stdout, r.stderr).toMatch(/^5\b/);
    const st = await status(home);
    expect(st.pid).toBeGreaterThan(0);
    const stop = await runCli(home, ['broker', '--stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toContain(`pid ${st.pid}`);
    expect((await runCli(home, ['broker', '--status'])).code).toBe(1);
    expect(existsSync(path.join(home, 'broker.sock'))).toBe(false);
    expect(existsSync(path.join(home, 'broker.pid'))).toBe(false);
    await gameIsFree();
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'stopped by %s while holding the game: the game runs and takes a new debugger',
    async (signal, exitCode) => {
      const home = brokerHome();
      const { child, exited } = await startBroker(home, gameArgs().slice(2));
      const s = await startServer(gameArgs(), { home });
      try {
        await s.ok('suspend');
        const frozen = await logLines();
        await delay(200);
        expect(await logLines()).toBe(frozen); // held: the game does not run
        process.kill(child.pid!, signal);
        expect(await bounded(exited, 'the broker')).toEqual({ code: exitCode, signal: null });
        expect(existsSync(path.join(home, 'broker.sock'))).toBe(false);
        expect(existsSync(path.join(home, 'broker.pid'))).toBe(false);
        await gameIsFree();
      } finally {
        await s.close();
      }
    },
  );

  it('refuses to start in a home open to others, naming it; so do front-ends', async () => {
    const home = brokerHome();
    chmodSync(home, 0o755);
    const r = await runCli(home, ['broker']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('BROKER_HOME_UNSAFE');
    expect(r.stderr).toContain(home);
    expect(r.stderr).toContain('chmod 700');
    const cmd = await runCli(home, ['eval', '1', ...gameArgs()]);
    expect(cmd.code).toBe(1);
    expect(cmd.stderr).toContain('BROKER_HOME_UNSAFE');
    expect(existsSync(path.join(home, 'broker.sock'))).toBe(false);
  });

  it('a broker killed under a front-end: BROKER_LOST, then the next call starts a new one', async () => {
    const home = brokerHome();
    // no game: a broker killed with SIGKILL while attached would strand the agent's slot
    const args = ['--beacon-port', String(await freeUdpPort()), '--no-multicast'];
    const { child, exited } = await startBroker(home, args);
    const s = await startServer(args, { home });
    try {
      await s.ok('status');
      process.kill(child.pid!, 'SIGKILL');
      await bounded(exited, 'the killed broker');
      const lost = await s.fails('status');
      expect(lost.code).toBe('BROKER_LOST');
      expect(lost.text).toContain(`pid ${child.pid}`);
      expect(lost.text).toMatch(/next call starts a new broker/);
      await s.ok('status');
      const st = await status(home);
      expect(st.pid).not.toBe(child.pid);
      expect(st.frontEnds.map((f) => f.pid)).toContain(s.pid);
    } finally {
      await s.close();
      await stopBroker(home);
    }
  });
});
