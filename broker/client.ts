// Reaching the broker from a front-end: connect to its socket (never spawning: `--status`,
// `--stop`), or connect-or-spawn (every other front-end), then the preamble exchange. SDK-free:
// the stdio front-end uses it and must reach tools/list within 300 ms of its spawn.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

import { brokerErrors } from './errors.js';
import type { BrokerPaths } from './home.js';
import {
  BROKER_PROTOCOL,
  parseAnswer,
  readLine,
  type BrokerAnswer,
  type FrontEndPreamble,
  type PreambleTarget,
} from './preamble.js';

export interface BrokerLink {
  socket: Socket;
  answer: BrokerAnswer;
  /** Bytes that arrived after the answer line (the start of the MCP stream). */
  rest: Buffer;
}

/** Connects to the socket; undefined when nothing listens there (no file, or refused). */
export function tryConnect(socketPath: string, timeoutMs = 2000): Promise<Socket | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (e: NodeJS.ErrnoException): void => {
      clearTimeout(timer);
      socket.destroy();
      if (e.code === 'ENOENT' || e.code === 'ECONNREFUSED') resolve(undefined);
      else reject(e);
    };
    socket.once('error', onError);
  });
}

/** Sends the preamble and reads the answer (bounded); a refusal is thrown as its BrokerError. */
export async function exchangePreamble(
  socket: Socket,
  preamble: Omit<FrontEndPreamble, 'frontend' | 'protocol'>,
  timeoutMs = 5000,
): Promise<BrokerLink> {
  const line: FrontEndPreamble = {
    frontend: 'unity-devtools',
    protocol: BROKER_PROTOCOL,
    ...preamble,
  };
  socket.write(`${JSON.stringify(line)}\n`);
  try {
    const { line: answerLine, rest } = await readLine(socket, timeoutMs);
    return { socket, answer: parseAnswer(answerLine), rest };
  } catch (e) {
    socket.destroy();
    throw e;
  }
}

export interface ConnectOptions {
  paths: BrokerPaths;
  version: string;
  kind: 'mcp' | 'cli';
  target?: PreambleTarget;
  /** Arguments after `broker` for a broker this front-end starts (discovery, timeouts). */
  brokerArgs: readonly string[];
  /** How a broker is started (default: this same program, `broker`, detached). */
  spawnBroker?: (paths: BrokerPaths, args: readonly string[]) => ChildProcess;
  /** Bound on starting one (default 10 s). */
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

/** Starts `<this program> broker <args>` detached, in the home, its output to the broker log. */
export function spawnBrokerProcess(paths: BrokerPaths, args: readonly string[]): ChildProcess {
  const script = process.argv[1];
  if (script === undefined) throw brokerErrors.startFailed('no program path to run', '');
  const log = openSync(paths.logFile, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [...process.execArgv, script, 'broker', ...args], {
      cwd: paths.home,
      detached: true,
      stdio: ['ignore', log, log],
      env: process.env,
    });
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

function logTail(paths: BrokerPaths): string {
  try {
    return readFileSync(paths.logFile, 'utf8').split('\n').slice(-12).join('\n').trim();
  } catch {
    return '';
  }
}

/** Connects to the running broker, starting one when none listens; then the preamble. */
export async function connectOrSpawn(opts: ConnectOptions): Promise<BrokerLink> {
  const preamble = {
    version: opts.version,
    pid: process.pid,
    kind: opts.kind,
    ...(opts.target ? { target: opts.target } : {}),
  };
  const existing = await tryConnect(opts.paths.socket);
  if (existing) return exchangePreamble(existing, preamble);

  const child = (opts.spawnBroker ?? spawnBrokerProcess)(opts.paths, opts.brokerArgs);
  opts.log?.(`started a broker (pid ${child.pid ?? '?'}), log ${opts.paths.logFile}`);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `code ${code}`));
  child.once('error', (e) => (exited = e.message));
  const deadline = Date.now() + (opts.startTimeoutMs ?? 10_000);
  for (;;) {
    const socket = await tryConnect(opts.paths.socket);
    if (socket) return exchangePreamble(socket, preamble);
    // a broker that exits 0 found another one running: that one is what we connect to
    if (exited !== undefined && !/^code 0$/.test(exited)) {
      throw brokerErrors.startFailed(`it exited (${exited})`, logTail(opts.paths));
    }
    if (Date.now() > deadline)
      throw brokerErrors.startFailed(
        `nothing listened at ${opts.paths.socket} within ${opts.startTimeoutMs ?? 10_000} ms`,
        logTail(opts.paths),
      );
    await new Promise((r) => setTimeout(r, 25));
  }
}
