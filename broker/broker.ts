// `unity-devtools broker`: the per-user process that owns discovery and every debugger
// connection on this machine. One GameApp; one MCP server per front-end connection (a caller),
// reached over a Unix socket in a directory only this user can open (home.ts). Single instance
// by its pid file; exits by itself after a quiet period with no front-end, and on
// SIGTERM/SIGINT/SIGHUP or `broker/stop` resumes every game and sends DISPOSE to each first.

import { chmodSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Socket } from 'node:net';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';

import { GameApp, type GameAppOptions } from '../mcp/app.js';
import { createServer } from '../mcp/server.js';
import { processAlive } from '../unity/lifetime.js';
import { tryConnect } from './client.js';
import { brokerErrors } from './errors.js';
import type { BrokerPaths } from './home.js';
import type { Dashboard } from './dashboard/dashboard.js';
import type { HttpRoutes } from './http-routes.js';
import type { HttpServer } from './http-server.js';
import {
  BROKER_PROTOCOL,
  parsePreamble,
  readLine,
  type BrokerAnswer,
  type BrokerSettings,
  type FrontEndPreamble,
} from './preamble.js';
import { SocketTransport } from './socket-transport.js';

export const DEFAULT_LINGER_MS = 60_000;
export const DEFAULT_IDLE_EXIT_MS = 600_000;
/** A front-end has this long to send its preamble line. */
const PREAMBLE_TIMEOUT_MS = 2000;
/** A pid file's broker whose socket does not answer within this is taken over. */
const TAKEOVER_AFTER_MS = 5000;
/** From a trigger to exit, whatever happens (resume + DISPOSE are bounded well within). */
const EXIT_WITHIN_MS = 3000;

export interface BrokerOptions extends BrokerSettings {
  paths: BrokerPaths;
  version: string;
  /** How long a game's connection is kept after its callers merely went away. */
  lingerMs: number;
  /** Exit after this long with no front-end connected. */
  idleExitMs: number;
  /** Diagnostics (stderr, which is broker.log for a spawned broker). */
  log: (line: string) => void;
  /** The one line `broker` prints on stdout. */
  announce: (line: string) => void;
  /** For tests; default process.exit. */
  exit?: (code: number) => void;
  /** Also serve MCP over HTTP here (broker/http-server.ts); a broker serving it never idles out. */
  http?: { host: string; port: number; allowRemote: boolean; sessionIdleMs?: number };
  /** What the HTTP server serves besides /mcp; default the dashboard (broker/dashboard/). */
  httpRoutes?: (app: GameApp) => HttpRoutes;
}

interface FrontEndEntry {
  preamble: FrontEndPreamble;
  since: number;
  server: Server;
}

const StatusRequest = z.object({ method: z.literal('broker/status') });
const StopRequest = z.object({ method: z.literal('broker/stop') });
/** `unity-devtools dashboard`: a one-time login URL for the dashboard (answered `{url}`). */
const DashboardLoginRequest = z.object({ method: z.literal('broker/dashboard-login') });

function readPid(file: string): number | undefined {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Whether something accepts connections at the socket within `withinMs`. */
async function socketAnswers(socketPath: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const s = await tryConnect(socketPath, Math.max(100, deadline - Date.now()));
    if (s) {
      s.destroy();
      return true;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Takes the pid file with an exclusive create. Another live broker whose socket answers: its
 * pid. A dead pid: stale, removed and taken. A live pid whose socket stays silent for 5 s (a
 * wedged broker, or a recycled pid): taken over.
 */
async function takePidFile(
  paths: BrokerPaths,
  log: (l: string) => void,
): Promise<{ other?: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(paths.pidFile, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return {};
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let pid = readPid(paths.pidFile);
    if (pid === undefined) {
      // created by a broker starting this instant, its pid not written yet
      await new Promise((r) => setTimeout(r, 100));
      pid = readPid(paths.pidFile);
    }
    if (pid !== undefined && pid !== process.pid && processAlive(pid)) {
      if (await socketAnswers(paths.socket, TAKEOVER_AFTER_MS)) return { other: pid };
      log(
        `broker.pid names pid ${pid}, which is alive, but nothing answered at ${paths.socket} ` +
          `within ${TAKEOVER_AFTER_MS} ms: taking over`,
      );
    } else {
      log(`removing a stale broker.pid (pid ${pid ?? '(none)'} is not running)`);
    }
    unlinkQuiet(paths.pidFile);
  }
  throw new Error(`could not take ${paths.pidFile}: other brokers keep taking it`);
}

/**
 * Runs the broker: resolves 0 when another broker already serves this home (having said so),
 * or `undefined` once listening (the process then lives until a trigger ends it).
 */
export async function runBroker(opts: BrokerOptions): Promise<number | undefined> {
  const { paths, log } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const httpServer = opts.http ? await import('./http-server.js') : undefined;
  // refused before anything is taken or bound
  if (opts.http) httpServer?.checkHttpAddress(opts.http.host, opts.http.allowRemote);
  const taken = await takePidFile(paths, log);
  if (taken.other !== undefined) {
    opts.announce(`a broker already runs (pid ${taken.other}) at ${paths.socket}`);
    return 0;
  }
  const startedAt = Date.now();
  const ownsPidFile = (): boolean => readPid(paths.pidFile) === process.pid;
  let socketIno: number | undefined;
  const removeOwnFiles = (): void => {
    try {
      if (process.platform !== 'win32' && socketIno !== undefined) {
        if (statSync(paths.socket).ino === socketIno) unlinkQuiet(paths.socket);
      }
    } catch {
      // already gone
    }
    if (ownsPidFile()) unlinkQuiet(paths.pidFile);
  };

  let app: GameApp;
  try {
    if (process.platform !== 'win32') unlinkQuiet(paths.socket); // a dead broker's
    const appOptions: GameAppOptions = {
      ...(opts.beaconPorts ? { beaconPorts: opts.beaconPorts } : {}),
      multicast: opts.multicast,
      ...(opts.parkTimeoutMs !== undefined ? { parkTimeoutMs: opts.parkTimeoutMs } : {}),
      ...(opts.invokeTimeoutMs !== undefined ? { invokeTimeoutMs: opts.invokeTimeoutMs } : {}),
      lingerMs: opts.lingerMs,
      // no beacon port is bound until a caller looks for players (every caller may name an
      // endpoint of its own)
      discovery: 'lazy',
      // request_id outcomes and the audit log live beside the socket (0700, this user's)
      stateDir: paths.home,
      log,
    };
    app = await GameApp.start(appOptions);
  } catch (e) {
    removeOwnFiles();
    throw e;
  }

  const settings: BrokerSettings = {
    ...(opts.beaconPorts ? { beaconPorts: [...opts.beaconPorts] } : {}),
    multicast: opts.multicast,
    ...(opts.parkTimeoutMs !== undefined ? { parkTimeoutMs: opts.parkTimeoutMs } : {}),
    ...(opts.invokeTimeoutMs !== undefined ? { invokeTimeoutMs: opts.invokeTimeoutMs } : {}),
  };
  const answer: BrokerAnswer = {
    broker: 'unity-devtools',
    protocol: BROKER_PROTOCOL,
    version: opts.version,
    pid: process.pid,
    settings,
  };
  const sockets = new Set<Socket>();
  let http: HttpServer | undefined;
  const frontEnds = new Map<Socket, FrontEndEntry>();

  let idleTimer: NodeJS.Timeout | undefined;
  const idleCheck = (): void => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (sockets.size === 0 && !leaving && !http)
      idleTimer = setTimeout(
        () => leave(`no front-end for ${opts.idleExitMs} ms`, 0),
        opts.idleExitMs,
      );
  };

  let leaving: Promise<void> | undefined;
  const leave = (why: string, code: number): void => {
    if (leaving) return;
    log(`leaving: ${why}`);
    if (idleTimer) clearTimeout(idleTimer);
    const hard = setTimeout(() => {
      log(`shutdown did not finish within ${EXIT_WITHIN_MS} ms; exiting anyway`);
      removeOwnFiles();
      exit(code);
    }, EXIT_WITHIN_MS);
    leaving = (async () => {
      netServer.close();
      await http?.close(); // every HTTP session's caller closes
      await app.close(); // resumes every game, DISPOSE each, closes their sockets
      await Promise.all([...frontEnds.values()].map((f) => f.server.close().catch(() => {})));
      for (const s of sockets) s.destroy();
      removeOwnFiles();
    })().then(
      () => {
        clearTimeout(hard);
        exit(code);
      },
      (e: unknown) => {
        clearTimeout(hard);
        log(`shutdown failed: ${e instanceof Error ? e.message : String(e)}`);
        removeOwnFiles();
        exit(code === 0 ? 1 : code);
      },
    );
  };

  /**
   * The dashboard, served beside /mcp when the broker serves HTTP (broker/dashboard/); it mints
   * the one-time login URLs `broker/dashboard-login` answers. Without it that request is
   * answered BROKER_NO_HTTP, which the CLI turns into "start it with --http".
   */
  let dashboard: Dashboard | undefined;

  const status = () => ({
    pid: process.pid,
    version: opts.version,
    home: paths.home,
    socket: paths.socket,
    startedAt: new Date(startedAt).toISOString(),
    uptime_ms: Date.now() - startedAt,
    settings,
    frontEnds: [...frontEnds.values()].map((f) => {
      const client = f.server.getClientVersion()?.name;
      return {
        ...(client !== undefined ? { client } : {}),
        pid: f.preamble.pid,
        kind: f.preamble.kind,
        ...(f.preamble.target ? { target: f.preamble.target } : {}),
        since: new Date(f.since).toISOString(),
      };
    }),
    callers: app.openCallers().map((c) => ({ ...c, since: new Date(c.since).toISOString() })),
    games: app.gamesStatus(),
    ...(http
      ? { http: { url: `${http.url}/mcp`, tokenFile: http.tokenFile, sessions: http.sessions() } }
      : {}),
  });

  const accept = async (socket: Socket): Promise<void> => {
    sockets.add(socket);
    idleCheck();
    socket.on('error', (e) => log(`front-end connection: ${e.message}`));
    socket.once('close', () => {
      sockets.delete(socket);
      frontEnds.delete(socket);
      idleCheck();
    });
    let first: { line: string; rest: Buffer };
    try {
      first = await readLine(socket, PREAMBLE_TIMEOUT_MS);
    } catch (e) {
      // a bare connect-and-close is another broker or front-end probing: not worth a line
      if (!socket.destroyed) {
        socket.end(
          `${JSON.stringify({ error: { code: 'BAD_PREAMBLE', message: (e as Error).message } })}\n`,
        );
      }
      return;
    }
    const parsed = parsePreamble(first.line, opts.version);
    if ('error' in parsed) {
      log(`refused a front-end: ${parsed.error.code}: ${parsed.error.message}`);
      socket.end(`${JSON.stringify(parsed)}\n`);
      return;
    }
    if (leaving) {
      socket.destroy();
      return;
    }
    const { preamble } = parsed;
    socket.write(`${JSON.stringify(answer)}\n`);
    const server = createServer(app, opts.version, {
      pid: preamble.pid,
      kind: preamble.kind,
      ...(preamble.target ? { target: preamble.target } : {}),
    });
    server.setRequestHandler(StatusRequest, () => status());
    server.setRequestHandler(DashboardLoginRequest, () => {
      if (!dashboard) {
        const e = brokerErrors.noHttp();
        return { error: { code: e.code, message: e.message } };
      }
      return { url: dashboard.loginUrl() };
    });
    server.setRequestHandler(StopRequest, () => {
      setImmediate(() => leave(`broker/stop from pid ${preamble.pid}`, 0));
      return {};
    });
    frontEnds.set(socket, { preamble, since: Date.now(), server });
    await server.connect(new SocketTransport(socket, first.rest));
  };

  const netServer = createNetServer((socket) => {
    accept(socket).catch((e: unknown) => {
      log(`front-end connection failed: ${e instanceof Error ? e.message : String(e)}`);
      socket.destroy();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      netServer.once('error', reject);
      netServer.listen(paths.socket, () => {
        netServer.off('error', reject);
        resolve();
      });
    });
    if (process.platform !== 'win32') {
      chmodSync(paths.socket, 0o600);
      socketIno = statSync(paths.socket).ino;
    }
  } catch (e) {
    await app.close();
    removeOwnFiles();
    throw e;
  }
  netServer.on('error', (e) => log(`listener: ${e.message}`));
  if (opts.http && httpServer) {
    try {
      http = await httpServer.startHttp({
        app,
        version: opts.version,
        ...opts.http,
        home: paths.home,
        routes: opts.httpRoutes
          ? opts.httpRoutes(app)
          : (dashboard = (await import('./dashboard/dashboard.js')).createDashboard({
              app,
              home: paths.home,
              log,
              // known once the server listens (a port 0 asked for)
              selfOrigin: () => {
                if (!http) throw new Error('the HTTP server is not listening yet');
                return http.url;
              },
            })),
        log,
      });
    } catch (e) {
      netServer.close();
      await app.close();
      removeOwnFiles();
      throw e;
    }
  }

  // Not unity/lifetime.ts's installLifetime: the broker has no stdin or parent to watch, and
  // broker/stop and the idle timer must end it the same way the signals do.
  for (const [signal, n] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const)
    process.on(signal, () => leave(signal, 128 + n));
  // A broker that crashed would close every game's connection without DISPOSE, which ends
  // Mono's debugger thread for good: a bug of ours ends the broker the clean way instead (an
  // exception: games resumed and disposed, then exit 1), and a stray rejection is logged.
  process.on('uncaughtException', (e) => {
    log(`uncaught exception: ${e.stack ?? e.message}`);
    leave('an uncaught exception', 1);
  });
  process.on('unhandledRejection', (e) => {
    log(
      `unhandled rejection (the broker runs on): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    );
  });
  idleCheck();
  log(`broker ${opts.version} pid ${process.pid} listening at ${paths.socket}`);
  opts.announce(
    `unity-devtools broker listening at ${paths.socket}, pid ${process.pid}` +
      (http ? `; MCP over HTTP at ${http.url}/mcp, bearer token in ${http.tokenFile}` : ''),
  );
  return undefined;
}
