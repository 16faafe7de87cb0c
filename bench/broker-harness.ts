// What the broker benchmarks (bench/mcp.ts, bench/agents.ts) run on: the built server (dist/,
// compiled when stale), a broker of their own in a temporary UNITY_DEVTOOLS_HOME started and
// stopped (`broker/stop`: games resumed, DISPOSE sent), and the clean-up of every process they
// started on every exit path (by pid, never by name).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { brokerStop, openBrokerClient } from '../broker/cli-client.js';
import { BrokerError } from '../broker/errors.js';
import { brokerPaths } from '../broker/home.js';
import { processAlive } from '../unity/lifetime.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUILT_CLI = path.join(ROOT, 'dist', 'cli', 'cli.js');
/** The Claude Code plugin's bundled entry (scripts/build-plugin.ts; committed, checked by lint). */
export const PLUGIN_ENTRY = path.join(ROOT, 'plugin', 'server', 'unity-devtools.mjs');
/** What tsconfig.build.json compiles into dist/. */
const SERVER_SOURCES = ['sdb-protocol', 'unity', 'eval', 'mcp', 'broker', 'cli'];
/** The broker refuses a front-end of another version: ours is the package's. */
export const VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** A process that takes longer than this to exit once told to is reported. */
export const EXIT_BOUND_MS = 5000;
/** Bound on the broker answering its start. */
const BROKER_START_BOUND_MS = 15_000;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---- the build -----------------------------------------------------------------------------

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing' && entry.name !== 'node_modules')
        newest = Math.max(newest, await newestSource(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, (await stat(full)).mtimeMs);
    }
  }
  return newest;
}

/**
 * Compiles the server (typescript's tsc, tsconfig.build.json) unless dist/cli/cli.js is newer
 * than every source it is made from. Returns whether it built.
 */
export async function ensureServerBuilt(): Promise<boolean> {
  const built = await stat(BUILT_CLI).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  let newest = 0;
  for (const f of ['tsconfig.json', 'tsconfig.build.json'])
    newest = Math.max(newest, (await stat(path.join(ROOT, f))).mtimeMs);
  for (const d of SERVER_SOURCES) newest = Math.max(newest, await newestSource(path.join(ROOT, d)));
  if (built > newest) return false;
  process.stderr.write(`mcp: dist/ is ${built ? 'stale' : 'missing'}; building it...`);
  const started = performance.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`building the server failed:\n${stdout}${stderr}`)) : resolve(),
    );
  });
  process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

// ---- what runs, and its clean-up on every exit path --------------------------------------------

/** Processes this run started (front-ends, our broker): ended by the exit hook if still alive. */
export const started = new Set<number>();

/** The broker named by the home's pid file, if it names a live process. */
export function brokerPidOf(home: string): number | undefined {
  try {
    const pid = Number(readFileSync(brokerPaths(home).pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Last resort when the process exits without the scenario's `finally` (process.exit elsewhere):
 * SIGTERM to the home's broker (it resumes its games and sends DISPOSE before exiting), SIGKILL
 * to our front-ends, the home removed. Synchronous, as an exit listener must be.
 */
export function exitHook(home: string): () => void {
  return () => {
    const broker = brokerPidOf(home);
    for (const pid of started) {
      if (pid !== broker && processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    if (broker !== undefined) process.kill(broker, 'SIGTERM');
    rmSync(home, { recursive: true, force: true });
  };
}

/** Waits until `pid` is gone; SIGKILL and an error past the bound. */
export async function waitGone(pid: number, what: string): Promise<number> {
  const t = performance.now();
  while (processAlive(pid)) {
    if (performance.now() - t > EXIT_BOUND_MS) {
      process.kill(pid, 'SIGKILL');
      throw new Error(`${what} (pid ${pid}) did not exit within ${EXIT_BOUND_MS} ms`);
    }
    await sleep(5);
  }
  started.delete(pid);
  return performance.now() - t;
}

// ---- the broker --------------------------------------------------------------------------------

export interface Broker {
  pid: number;
  child: ChildProcess;
  stderr(): string;
}

/** `node dist/cli/cli.js broker` in `home`; resolves once it says it listens. */
export async function startBroker(home: string): Promise<Broker> {
  const child = spawn(process.execPath, [BUILT_CLI, 'broker'], {
    env: { ...process.env, UNITY_DEVTOOLS_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('the broker did not start (no pid)');
  const pid = child.pid;
  started.add(pid);
  let err = '';
  let out = '';
  child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the broker did not listen within ${BROKER_START_BOUND_MS} ms: ${err}`));
    }, BROKER_START_BOUND_MS);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/listening at/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the broker exited (${signal ?? code}) before listening: ${out}${err}`));
    });
  });
  return { pid, child, stderr: () => err };
}

/**
 * Stops the broker serving `home`, if one does (`broker/stop`: every game resumed and
 * released), and waits until its process is gone. Returns its pid.
 */
export async function stopBrokerOf(home: string): Promise<number | undefined> {
  let c;
  try {
    c = await openBrokerClient({
      paths: brokerPaths(home),
      version: VERSION,
      kind: 'cli',
      spawn: false,
      brokerArgs: [],
      clientName: 'bench-stop',
    });
  } catch (e) {
    if (e instanceof BrokerError && e.code === 'BROKER_NOT_RUNNING') return undefined;
    throw e;
  }
  const pid = c.answer.pid;
  await brokerStop(c.client);
  await Promise.race([c.closed, sleep(EXIT_BOUND_MS)]);
  await c.close().catch(() => undefined);
  await waitGone(pid, 'the broker');
  return pid;
}

/** Stops the broker; when it cannot be told, SIGTERM then SIGKILL to the pid its home names. */
export async function ensureNoBroker(home: string): Promise<void> {
  try {
    await stopBrokerOf(home);
  } catch (e) {
    const pid = brokerPidOf(home);
    if (pid !== undefined) {
      process.kill(pid, 'SIGTERM');
      await waitGone(pid, 'the broker after SIGTERM').catch(() => undefined);
    }
    throw e;
  }
}

export async function rssMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => {
    const m = new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(m[1]) / 1024;
  };
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * Spawns a front-end (`script mcp --port N`: dist's cli.js, or the plugin's bundle) of `home`'s
 * broker and connects an SDK client named `clientName` to it (initialize done). Its pid is in
 * `started`; the last 4 KB of its stderr are kept.
 */
export async function spawnFrontEnd(
  port: number,
  home: string,
  clientName: string,
  script = BUILT_CLI,
): Promise<{
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: () => string;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, 'mcp', '--port', String(port)],
    // the SDK passes only a few variables on by default: the broker's home must reach it
    env: { ...process.env, UNITY_DEVTOOLS_HOME: home },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error(`${clientName}: the front-end has no pid`);
  started.add(pid);
  return { client, transport, pid, stderr: () => err };
}
