// The live dashboard a person watches the agents with, served by the broker's HTTP server
// (broker/http-routes.ts: the server checks Host and Origin, then offers every path but /mcp
// here). `/` is one page; `/api/state` the state JSON; `/api/events` the same as server-sent
// events (at most one every 500 ms, only when something changed); `/api/screenshot` a game's
// frame; POST `/api/release`, `/api/cancel`, `/api/detach` the actions. Everything but /login
// needs the session cookie (login.ts), and the actions its CSRF token in X-CSRF-Token.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { GameApp } from '../../mcp/app.js';
import { callTool } from '../../mcp/server.js';
import { screenshot } from '../../mcp/tools/screenshot.js';
import type { Tool } from '../../mcp/tool.js';
import { messageOf } from '../../unity/errors.js';
import { readBody, sendError, type HttpRoutes } from '../http-routes.js';
import {
  DASHBOARD_CALLER,
  dashboardCancelJob,
  dashboardDetach,
  dashboardRelease,
  runAction,
} from './actions.js';
import { DashboardLogin, type DashboardSession } from './login.js';
import { dashboardPage, pageCsp, signInPage } from './page.js';
import { EventHub } from './events.js';
import { DashboardStateReader } from './state.js';

export interface DashboardOptions {
  app: GameApp;
  /** The broker's home: audit.jsonl is read from here. */
  home: string;
  log: (line: string) => void;
  /**
   * The origin the page is served from (`http://127.0.0.1:8123`): the only one POSTs may carry,
   * and the login URL's. A function when it is known only once the server listens.
   */
  selfOrigin: string | (() => string);
}

export type Dashboard = HttpRoutes & {
  /** A one-time login code, valid 60 s: `${selfOrigin}/login?code=<it>` signs a browser in. */
  mintLoginCode(): string;
  /** That URL, with a fresh code. */
  loginUrl(): string;
};

/** An action's body is a few ids. */
const ACTION_BODY_LIMIT = 16 * 1024;
const DEFAULT_SHOT_SIZE = 960;

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string, csp: string): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'content-security-policy': csp,
  });
  res.end(html);
}

const SIGN_IN_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** The HTTP status of an action refused with `code`. */
function statusOf(code: string): number {
  if (code === 'INVALID_ARGUMENT') return 400;
  if (code.endsWith('_NOT_FOUND') || code === 'NO_PLAYER') return 404;
  if (code === 'HOLD_NOT_OWNED' || code === 'NOT_ATTACHED') return 409;
  if (code === 'INTERNAL') return 500;
  return 502; // the game or its agent failed
}

const ACTIONS: Record<string, { tool: Tool; args: (b: Record<string, unknown>) => unknown }> = {
  '/api/release': {
    tool: dashboardRelease,
    args: (b) => ({ player: b['game'], caller: b['caller'] }),
  },
  '/api/cancel': { tool: dashboardCancelJob, args: (b) => ({ job: b['job'] }) },
  '/api/detach': { tool: dashboardDetach, args: (b) => ({ player: b['game'] }) },
};

export function createDashboard(opts: DashboardOptions): Dashboard {
  const { app, log } = opts;
  const selfOrigin = (): string =>
    typeof opts.selfOrigin === 'string' ? opts.selfOrigin : opts.selfOrigin();
  const login = new DashboardLogin();
  const reader = new DashboardStateReader(app, opts.home);
  const hub = new EventHub(() => reader.read(), log);

  const signedIn = (req: IncomingMessage): DashboardSession | undefined =>
    login.session(req.headers.cookie);

  const refuseSignedOut = (res: ServerResponse, api: boolean): void => {
    if (api)
      sendError(
        res,
        401,
        'DASHBOARD_LOGIN_REQUIRED',
        'not signed in to the dashboard: run `unity-devtools dashboard` for a one-time link',
      );
    else sendHtml(res, 401, signInPage('This browser is not signed in.'), SIGN_IN_CSP);
  };

  const handleLogin = (res: ServerResponse, url: URL): void => {
    const code = url.searchParams.get('code') ?? '';
    const s = code ? login.redeem(code) : undefined;
    if (!s) {
      sendHtml(
        res,
        401,
        signInPage('This login link was already used, has expired (after 60 s), or is not one.'),
        SIGN_IN_CSP,
      );
      return;
    }
    res.writeHead(303, { ...SECURITY_HEADERS, 'set-cookie': login.cookie(s), location: '/' });
    res.end();
  };

  const handleAction = async (
    req: IncomingMessage,
    res: ServerResponse,
    s: DashboardSession,
    action: NonNullable<(typeof ACTIONS)[string]>,
  ): Promise<void> => {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== selfOrigin()) {
      sendError(res, 403, 'FOREIGN_ORIGIN', `requests from ${origin} are refused`);
      return;
    }
    if (!login.csrfMatches(s, req.headers['x-csrf-token'])) {
      sendError(
        res,
        403,
        'CSRF_REFUSED',
        'the X-CSRF-Token header is missing or wrong: act from the dashboard page (reload it)',
      );
      return;
    }
    let body: Record<string, unknown>;
    try {
      const raw = (await readBody(req, ACTION_BODY_LIMIT)).toString('utf8');
      const v: unknown = JSON.parse(raw);
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
      body = v as Record<string, unknown>;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      const status = (e as { status?: unknown }).status;
      sendError(
        res,
        typeof status === 'number' ? status : 400,
        typeof code === 'string' ? code : 'BAD_BODY',
        `the action's body must be a JSON object: ${messageOf(e)}`,
      );
      return;
    }
    const r = await runAction(app, action.tool, action.args(body) as Record<string, unknown>);
    if (r.ok) sendJson(res, 200, { ok: true, text: r.text, result: r.result });
    else sendError(res, statusOf(r.code), r.code, r.message);
  };

  const handleScreenshot = async (res: ServerResponse, url: URL): Promise<void> => {
    const id = url.searchParams.get('player') ?? '';
    const game = app.allGames().find((g) => g.id === id || g.endpoint === id);
    if (!game) {
      sendError(
        res,
        404,
        'NO_PLAYER',
        `no game ${JSON.stringify(id)}: name a game id the page lists`,
      );
      return;
    }
    // the dashboard never attaches a game by itself: an agent's attach is what it watches
    if (!game.session.status().attached) {
      sendError(
        res,
        409,
        'NOT_ATTACHED',
        `${game.id} is not attached: nothing to take a screenshot of`,
      );
      return;
    }
    const size = Number(url.searchParams.get('max_size') ?? DEFAULT_SHOT_SIZE);
    const r = await callTool(
      screenshot,
      { player: game.id, max_size: Number.isInteger(size) ? size : DEFAULT_SHOT_SIZE },
      { app, caller: DASHBOARD_CALLER },
    );
    const image = r.content.find((c) => c.type === 'image');
    if (r.isError || !image || image.type !== 'image') {
      const code = (r._meta as { code?: unknown } | undefined)?.code;
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      const c = typeof code === 'string' ? code : 'INTERNAL';
      sendError(res, statusOf(c), c, text);
      return;
    }
    const png = Buffer.from(image.data, 'base64');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'image/png',
      'content-length': png.length,
    });
    res.end(png);
  };

  const route = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const p = url.pathname;
    const api = p.startsWith('/api/');
    if (p !== '/' && p !== '/login' && !api) return false;
    const method = req.method ?? 'GET';
    if (p === '/login') {
      if (method !== 'GET') sendError(res, 405, 'METHOD_NOT_ALLOWED', 'GET /login only');
      else handleLogin(res, url);
      return true;
    }
    const s = signedIn(req);
    if (!s) {
      refuseSignedOut(res, api);
      return true;
    }
    const action = ACTIONS[p];
    if (action) {
      if (method !== 'POST') sendError(res, 405, 'METHOD_NOT_ALLOWED', `POST ${p} only`);
      else await handleAction(req, res, s, action);
      return true;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `GET ${p} only`);
      return true;
    }
    if (p === '/') {
      const nonce = randomBytes(16).toString('base64');
      sendHtml(res, 200, dashboardPage(s.csrf, nonce), pageCsp(nonce));
    } else if (p === '/api/state') sendJson(res, 200, await reader.read());
    else if (p === '/api/events') await hub.subscribe(req, res);
    else if (p === '/api/screenshot') await handleScreenshot(res, url);
    else sendError(res, 404, 'NOT_FOUND', `no ${p} here`);
    return true;
  };

  return {
    mintLoginCode: () => login.mintCode(),
    loginUrl: () => new URL(`/login?code=${login.mintCode()}`, selfOrigin()).href,
    handle: async (req, res, url) => {
      try {
        return await route(req, res, url);
      } catch (e) {
        log(`dashboard: ${req.method} ${url.pathname}: ${messageOf(e)}`);
        sendError(res, 500, 'INTERNAL', messageOf(e));
        return true;
      }
    },
    close: () => hub.close(),
  };
}
