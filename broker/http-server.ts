// The broker over HTTP (`broker --http host:port`): MCP over Streamable HTTP at /mcp (the SDK's
// StreamableHTTPServerTransport, stateful), one MCP server per HTTP session, each session one
// caller exactly as a socket front-end is (same tools, tiers, jobs; closing the session closes
// the caller: holds released, pauses resumed, breakpoints removed). Every other path goes to the
// routes given (the dashboard), else 404.
//
// Locked from the start: whoever holds the token can run code in the game. Every request's Host
// must name the bound address or localhost (DNS rebinding), a request carrying an Origin must
// come from our own origin (cross-site), every /mcp request carries `Authorization: Bearer
// <token>` (compared in constant time; a token in the query string is refused even when right),
// bodies are bounded (1 MiB) and parsed as JSON-RPC before anything sees them, and sessions are
// bounded in number and closed after a quiet period. A non-loopback address needs allowRemote.

import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from 'node:http';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import path from 'node:path';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

import type { GameApp } from '../mcp/app.js';
import { createServer } from '../mcp/server.js';
import { brokerErrors } from './errors.js';
import { BodyError, MAX_BODY_BYTES, readBody, sendError, type HttpRoutes } from './http-routes.js';

/** Concurrent MCP sessions beyond this are refused (503). */
export const MAX_SESSIONS = 32;
/** A session with no request for this long (none in flight) is closed: its caller goes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** The token file's name in the broker's directory. */
export const TOKEN_FILE = 'http-token';

export interface HttpAddress {
  host: string;
  port: number;
}

export interface HttpOptions extends HttpAddress {
  app: GameApp;
  version: string;
  /** Binding a non-loopback address is refused without it. */
  allowRemote: boolean;
  /** The broker's directory (0700): the token file is written there. */
  home: string;
  routes?: HttpRoutes;
  log: (line: string) => void;
  /** Default: UNITY_DEVTOOLS_TOKEN, else 32 random bytes. */
  token?: string;
  sessionIdleMs?: number;
  maxSessions?: number;
}

export interface HttpSessionInfo {
  client?: string;
  since: string;
  last_request: string;
}

export interface HttpServer {
  /** http://host:port (the port the server really listens on). */
  readonly url: string;
  readonly address: HttpAddress;
  readonly tokenFile: string;
  sessions(): HttpSessionInfo[];
  /** Closes every session (their callers close), the routes, then the listener. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  since: number;
  lastRequest: number;
  inFlight: number;
  idleTimer?: NodeJS.Timeout;
}

/** `127.0.0.1:8123`, `localhost:8123`, `[::1]:8123`. */
export function parseHttpAddress(text: string): HttpAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw brokerErrors.httpBadAddress(text);
  return { host: (m[1] ?? m[2])!, port };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./i.test(host);
  return false;
}

/** Refuses (HTTP_REMOTE_REFUSED) a non-loopback address unless allowRemote: before listening. */
export function checkHttpAddress(host: string, allowRemote: boolean): void {
  if (!allowRemote && !isLoopback(host)) throw brokerErrors.httpRemoteRefused(host);
}

const hostPart = (host: string): string => (isIP(host) === 6 ? `[${host}]` : host);

/** The Host header values a request may carry (lower case), for the address bound. */
function allowedHostValues(host: string, port: number): string[] {
  const names = new Set<string>(['localhost', host]);
  if (host === '0.0.0.0' || host === '::') {
    // a wildcard bind answers on every interface, under any of its addresses or our name
    names.add(hostname());
    for (const list of Object.values(networkInterfaces()))
      for (const i of list ?? []) names.add(i.address);
  }
  const values = new Set<string>(['localhost']);
  for (const n of names) values.add(`${hostPart(n).toLowerCase()}:${port}`);
  return [...values];
}

/** The token: UNITY_DEVTOOLS_TOKEN when set (refused when weak), else 32 random bytes. */
function chooseToken(given: string | undefined): string {
  if (given === undefined || given === '') return randomBytes(32).toString('base64url');
  if (!/^[\x21-\x7e]{16,}$/.test(given)) throw brokerErrors.httpTokenWeak();
  return given;
}

/** Writes the token 0600 (a fresh file renamed into place: never a wider file's mode). */
function writeToken(file: string, token: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    unlinkSync(tmp);
  } catch {
    // not there
  }
  writeFileSync(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(tmp, file);
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** A JSON-RPC error answer (for /mcp, whose clients read JSON-RPC). */
function sendRpcError(
  res: ServerResponse,
  status: number,
  rpcCode: number,
  code: string,
  message: string,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: rpcCode, message, data: { code } },
    id: null,
  });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** 401 and nothing else: no body, no hint of what was wrong. */
function unauthorized(res: ServerResponse): void {
  res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-length': 0 });
  res.end();
}

export async function startHttp(opts: HttpOptions): Promise<HttpServer> {
  const { app, version, log } = opts;
  checkHttpAddress(opts.host, opts.allowRemote);
  const maxSessions = opts.maxSessions ?? MAX_SESSIONS;
  const idleMs = opts.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const token = chooseToken(opts.token ?? process.env['UNITY_DEVTOOLS_TOKEN']);
  const tokenDigest = digest(token);
  const tokenFile = path.join(opts.home, TOKEN_FILE);
  const bindHost = opts.host === 'localhost' ? '127.0.0.1' : opts.host;

  /** Sessions by id, once initialized; `pending` counts those being initialized. */
  const sessions = new Map<string, Session>();
  let pending = 0;
  let closing = false;
  // filled in once listening (the port may have been 0)
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  const authorised = (req: IncomingMessage): boolean => {
    // the scheme's name is case-insensitive (RFC 9110); the token is compared as equal-length
    // digests, so the comparison takes the same time whatever was sent
    const given = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
    return given !== null && timingSafeEqual(digest(given[1]!), tokenDigest);
  };

  const touch = (s: Session): void => {
    s.lastRequest = Date.now();
    if (s.idleTimer) clearTimeout(s.idleTimer);
    s.idleTimer = undefined;
    if (s.inFlight === 0 && !closing)
      s.idleTimer = setTimeout(() => {
        log(`closing an HTTP MCP session quiet for ${idleMs} ms`);
        void s.transport.close().catch(() => undefined);
      }, idleMs).unref();
  };

  const openSession = (): Session => {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      // the SDK's own DNS-rebinding protection, on top of the checks before routing
      enableDnsRebindingProtection: true,
      allowedHosts,
      allowedOrigins,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    const server = createServer(app, version, { kind: 'mcp' });
    const session: Session = { transport, server, since: Date.now(), lastRequest: 0, inFlight: 0 };
    // set before connect: the SDK's Protocol chains it before its own close
    transport.onclose = () => {
      if (session.idleTimer) clearTimeout(session.idleTimer);
      const id = transport.sessionId;
      if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    };
    transport.onerror = (e) => log(`HTTP MCP session: ${e.message}`);
    return session;
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    // a token in a URL ends up in logs and histories: refused even when it is the right one
    if (url.search !== '' || !authorised(req)) {
      unauthorized(res);
      return;
    }
    const method = req.method ?? '';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      res.setHeader('allow', 'GET, POST, DELETE');
      sendRpcError(res, 405, -32000, 'METHOD_NOT_ALLOWED', `${method} is not served at /mcp`);
      return;
    }
    let body: unknown;
    if (method === 'POST') {
      let raw: Buffer;
      try {
        raw = await readBody(req, MAX_BODY_BYTES);
      } catch (e) {
        if (!(e instanceof BodyError)) throw e;
        sendRpcError(res, e.status, -32000, e.code, e.message);
        return;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        sendRpcError(res, 400, -32700, 'BAD_JSON', 'Parse error: the body is not JSON');
        return;
      }
      const messages: unknown[] = Array.isArray(body) ? body : [body];
      if (
        messages.length === 0 ||
        !messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)
      ) {
        sendRpcError(
          res,
          400,
          -32600,
          'BAD_JSON_RPC',
          'Invalid Request: the body is not a JSON-RPC message (or a batch of them); nothing was done',
        );
        return;
      }
    }
    const id = req.headers['mcp-session-id'];
    let session: Session;
    if (typeof id === 'string' && id !== '') {
      const known = sessions.get(id);
      if (!known) {
        sendRpcError(
          res,
          404,
          -32001,
          'SESSION_NOT_FOUND',
          'Session not found: it was closed (or never existed); initialize a new one',
        );
        return;
      }
      session = known;
    } else if (method === 'POST' && !Array.isArray(body) && isInitializeRequest(body)) {
      if (closing) {
        sendRpcError(res, 503, -32000, 'SHUTTING_DOWN', 'the broker is shutting down');
        return;
      }
      if (sessions.size + pending >= maxSessions) {
        sendRpcError(
          res,
          503,
          -32000,
          'TOO_MANY_SESSIONS',
          `${maxSessions} MCP sessions are open, the most this broker serves at once: close one ` +
            '(an HTTP DELETE of /mcp with its Mcp-Session-Id) and try again',
        );
        return;
      }
      pending++;
      session = openSession();
      try {
        await session.server.connect(session.transport);
        session.inFlight++;
        try {
          await session.transport.handleRequest(req, res, body);
        } finally {
          session.inFlight--;
        }
      } finally {
        pending--;
      }
      if (session.transport.sessionId === undefined) {
        // the initialize was refused: no session, nothing left open
        await session.server.close().catch(() => undefined);
      } else {
        touch(session);
      }
      return;
    } else {
      sendRpcError(
        res,
        400,
        -32000,
        'NO_SESSION',
        'Bad Request: an Mcp-Session-Id header is required (initialize first)',
      );
      return;
    }
    session.inFlight++;
    if (session.idleTimer) clearTimeout(session.idleTimer);
    try {
      await session.transport.handleRequest(req, res, body);
    } finally {
      session.inFlight--;
      touch(session);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.includes(host)) {
      sendError(res, 403, 'FORBIDDEN_HOST', 'this server answers only to its own address');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.includes(origin.toLowerCase())) {
      sendError(res, 403, 'FORBIDDEN_ORIGIN', 'requests from other sites are refused');
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${host}`);
    } catch {
      sendError(res, 400, 'BAD_URL', 'the request target is not a path');
      return;
    }
    if (url.pathname === '/mcp') {
      await handleMcp(req, res, url);
      return;
    }
    if (opts.routes && (await opts.routes.handle(req, res, url))) return;
    sendError(res, 404, 'NOT_FOUND', `nothing is served at ${url.pathname}; MCP is at /mcp`);
  };

  const server: NodeHttpServer = createHttpServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`HTTP request failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'the request failed inside the broker');
      else res.end();
    });
  });
  // malformed HTTP (not a request at all): answered 400 and the connection closed
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    if (socket.writable && e.code !== 'ECONNRESET')
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: bindHost, port: opts.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: unknown) => {
    throw brokerErrors.httpListenFailed(
      `${hostPart(opts.host)}:${opts.port}`,
      e instanceof Error ? e.message : String(e),
    );
  });
  server.on('error', (e) => log(`HTTP listener: ${e.message}`));
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : opts.port;
  allowedHosts = allowedHostValues(opts.host, port);
  allowedOrigins = allowedHosts.filter((h) => h.includes(':')).map((h) => `http://${h}`);

  try {
    writeToken(tokenFile, token);
  } catch (e) {
    server.close();
    throw e;
  }
  const url = `http://${hostPart(opts.host)}:${port}`;
  log(`MCP over HTTP at ${url}/mcp; its bearer token is in ${tokenFile}`);

  return {
    url,
    address: { host: opts.host, port },
    tokenFile,
    sessions: () =>
      [...sessions.values()].map((s) => {
        const client = s.server.getClientVersion()?.name;
        return {
          ...(client !== undefined ? { client } : {}),
          since: new Date(s.since).toISOString(),
          last_request: new Date(s.lastRequest).toISOString(),
        };
      }),
    close: async () => {
      if (closing) return;
      closing = true;
      server.close();
      // every session's caller closes: holds released, pauses resumed, breakpoints removed
      await Promise.all(
        [...sessions.values()].map(async (s) => {
          if (s.idleTimer) clearTimeout(s.idleTimer);
          await s.server.close().catch(() => undefined);
        }),
      );
      sessions.clear();
      await opts.routes?.close?.().catch((e: unknown) => {
        log(`closing the HTTP routes: ${e instanceof Error ? e.message : String(e)}`);
      });
      server.closeAllConnections();
      try {
        if (readFileSync(tokenFile, 'utf8').trim() === token) unlinkSync(tokenFile);
      } catch {
        // already gone
      }
    },
  };
}
