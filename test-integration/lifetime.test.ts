// A server process that goes away never strands the game: on stdin close, SIGINT, SIGTERM,
// SIGHUP and its parent's death it resumes the game, sends DISPOSE and exits by itself; the
// game then runs and accepts a new debugger. The host's own bound is ~2 s (unity/lifetime.ts);
// the tests only catch a host that does not leave at all (HANG_MS), never a slow machine.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SdbConnection, Values } from '../sdb-protocol/index.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { Mirror } from './support/mirror.js';
import { processAlive } from '../unity/lifetime.js';

const HOST = fileURLToPath(new URL('./support/session-host.ts', import.meta.url));
let fixture: FixtureProcess;
/** Far above the host's own bound: exceeding it means the host hung, not that the box is busy. */
const HANG_MS = 10_000;

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  // one log line per frame, so a frozen game is visible in Player.log
  const c = await SdbConnection.connect({ port: fixture.sdbPort });
  await new Mirror(c).setStatic('Game.Control', 'LogEveryFrames', Values.i4(1));
  await c.close();
});

afterAll(async () => {
  await fixture?.stop();
});

async function logLines(): Promise<number> {
  return (await readFile(fixture.logPath, 'utf8')).split('\n').length;
}

function waitFor(child: ChildProcess, text: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${ms} ms: ${out}`)), ms);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', () => resolve(Date.now())));
}

async function expectFrozen(): Promise<void> {
  const a = await logLines();
  await new Promise((r) => setTimeout(r, 300));
  expect(await logLines()).toBe(a);
}

async function expectRunningAndFree(): Promise<void> {
  const a = await logLines();
  await new Promise((r) => setTimeout(r, 300));
  expect(await logLines()).toBeGreaterThan(a);
  const c = await SdbConnection.connect({ port: fixture.sdbPort });
  expect(c.agent.major).toBe(2);
  await c.close();
}

function startHost(args: string[] = []): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', HOST, String(fixture.sdbPort), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

describe('the server process leaves the game running on every exit path', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`on ${signal}`, async () => {
      const host = startHost();
      try {
        await waitFor(host, 'HOLDING', 20_000);
        await expectFrozen();
        const gone = exited(host);
        const sentAt = Date.now();
        process.kill(host.pid!, signal);
        expect((await gone) - sentAt).toBeLessThan(HANG_MS);
        await expectRunningAndFree();
      } finally {
        if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      }
    });
  }

  it('when its stdin closes', async () => {
    const host = startHost();
    try {
      await waitFor(host, 'HOLDING', 20_000);
      await expectFrozen();
      const gone = exited(host);
      const closedAt = Date.now();
      host.stdin!.end();
      expect((await gone) - closedAt).toBeLessThan(HANG_MS);
      await expectRunningAndFree();
    } finally {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    }
  });

  it('when its parent process dies', async () => {
    // parent: a node process that starts the host (no stdin link) and prints its pid
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process');
         const c = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(HOST)}, '${fixture.sdbPort}', '--no-stdin'], { stdio: ['ignore', 'pipe', 'inherit'] });
         c.stdout.on('data', (d) => process.stdout.write(d));
         process.stdout.write('CHILD ' + c.pid + '\\n');
         setInterval(() => {}, 1 << 30);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let hostPid = 0;
    try {
      let out = '';
      parent.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /CHILD (\d+)/.exec(out);
        if (m) hostPid = Number(m[1]);
      });
      await waitFor(parent, 'HOLDING', 20_000);
      await expectFrozen();
      const killedAt = Date.now();
      process.kill(parent.pid!, 'SIGKILL');
      // the host is not our child: poll its pid until it is gone
      while (processAlive(hostPid)) {
        expect(Date.now() - killedAt).toBeLessThan(HANG_MS);
        await new Promise((r) => setTimeout(r, 20));
      }
      await expectRunningAndFree();
    } finally {
      if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL');
      if (hostPid && processAlive(hostPid)) process.kill(hostPid, 'SIGKILL');
    }
  });
});
