// The dashboard's routes behind a bare node:http server, over an app with no game: the login
// (one-time codes, the cookie), the refusals (no cookie, bad CSRF, a foreign Origin, a bad
// body), the state and its event stream, and the actions' audit lines. The same routes with a
// live game in a real browser: test-integration/dashboard.test.ts.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GameApp } from '../../mcp/app.js';
import { auditFile } from '../../mcp/ledger/audit.js';
import { createDashboard, type Dashboard } from './dashboard.js';
import { COOKIE_NAME } from './login.js';

let home: string;
let app: GameApp;
let dash: Dashboard;
let server: Server;
let origin: string;

beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'ud-dash-'));
  app = await GameApp.start({ discovery: false, stateDir: home });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    void dash.handle(req, res, url).then((mine) => {
      if (!mine) {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dash = createDashboard({ app, home, log: () => undefined, selfOrigin: origin });
});

afterAll(async () => {
  await dash?.close?.();
  await new Promise((r) => server?.close(r));
  await app?.close();
  rmSync(home, { recursive: true, force: true });
});

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const r = await fetch(dash.loginUrl(), { redirect: 'manual' });
  expect(r.status).toBe(303);
  expect(r.headers.get('location')).toBe('/');
  const set = r.headers.get('set-cookie') ?? '';
  expect(set).toMatch(/HttpOnly/);
  expect(set).toMatch(/SameSite=Strict/);
  const cookie = set.split(';')[0]!;
  const page = await fetch(`${origin}/`, { headers: { cookie } });
  expect(page.status).toBe(200);
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(await page.text())?.[1];
  expect(csrf).toBeDefined();
  return { cookie, csrf: csrf! };
}

describe('dashboard login', () => {
  it('refuses / and /api/* without the cookie, saying how to sign in', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('unity-devtools dashboard');
    for (const p of ['/api/state', '/api/events', '/api/screenshot?player=g1', '/api/nothing']) {
      const r = await fetch(`${origin}${p}`, { headers: { cookie: `${COOKIE_NAME}=forged` } });
      expect(r.status, p).toBe(401);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe(
        'DASHBOARD_LOGIN_REQUIRED',
      );
    }
    const post = await fetch(`${origin}/api/release`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(401);
  });

  it('takes a code once: a replayed or made-up one gets the 401 page and no cookie', async () => {
    const url = dash.loginUrl();
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
    for (const u of [url, `${origin}/login?code=made-up`, `${origin}/login`]) {
      const again = await fetch(u, { redirect: 'manual' });
      expect(again.status).toBe(401);
      expect(again.headers.get('set-cookie')).toBeNull();
      expect(await again.text()).toContain('unity-devtools dashboard');
    }
  });

  it('serves the page with a CSP that loads nothing from elsewhere', async () => {
    const { cookie } = await signIn();
    const r = await fetch(`${origin}/`, { headers: { cookie } });
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'nonce-/);
    const html = await r.text();
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
  });
});

describe('dashboard actions', () => {
  it('refuses a missing or wrong CSRF token and a foreign Origin (403), a bad body (400)', async () => {
    const { cookie, csrf } = await signIn();
    const post = (headers: Record<string, string>, body = '{"job":"j-999"}') =>
      fetch(`${origin}/api/cancel`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body,
      });
    const codes = async (r: Response) => [
      r.status,
      ((await r.json()) as { error: { code: string } }).error.code,
    ];
    expect(await codes(await post({}))).toEqual([403, 'CSRF_REFUSED']);
    expect(await codes(await post({ 'x-csrf-token': `${csrf}x` }))).toEqual([403, 'CSRF_REFUSED']);
    expect(
      await codes(await post({ 'x-csrf-token': csrf, origin: 'http://evil.example' })),
    ).toEqual([403, 'FOREIGN_ORIGIN']);
    expect(await codes(await post({ 'x-csrf-token': csrf }, '{not json'))).toEqual([
      400,
      'BAD_BODY',
    ]);
    expect(await codes(await post({ 'x-csrf-token': csrf }, 'x'.repeat(20_000)))).toEqual([
      413,
      'BODY_TOO_LARGE',
    ]);
    // another session's token is not this one's
    const other = await signIn();
    expect(await codes(await post({ 'x-csrf-token': other.csrf }))).toEqual([403, 'CSRF_REFUSED']);
    const get = await fetch(`${origin}/api/cancel`, { headers: { cookie } });
    expect(get.status).toBe(405);
  });

  it('cancels a job of any caller, in the audit log as the dashboard', async () => {
    const { cookie, csrf } = await signIn();
    let stop: () => void = () => undefined;
    const job = app.jobs.start('advance', 'agent-x', (j) => {
      return new Promise((resolve) => {
        stop = () => resolve({ content: [{ type: 'text', text: 'stopped' }] });
        j.abort.signal.addEventListener('abort', () => stop());
      });
    });
    const r = await fetch(`${origin}/api/cancel`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ job: job.id }),
    });
    expect(r.status).toBe(200);
    await job.ended;
    expect(job.state).toBe('cancelled');
    const missing = await fetch(`${origin}/api/cancel`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ job: 'j-999' }),
    });
    expect(missing.status).toBe(404);
    await app.ledger.audit!.flush();
    const lines = readFileSync(auditFile(home), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { caller: string; tool: string; outcome: string });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          caller: 'dashboard',
          tool: 'dashboard_cancel_job',
          outcome: 'ok',
        }),
        expect.objectContaining({
          caller: 'dashboard',
          tool: 'dashboard_cancel_job',
          outcome: 'JOB_NOT_FOUND',
        }),
      ]),
    );
    // the state shows the audit lines, newest first
    const state = (await (await fetch(`${origin}/api/state`, { headers: { cookie } })).json()) as {
      audit: { tool: string; outcome: string }[];
    };
    expect(state.audit[0]).toMatchObject({
      tool: 'dashboard_cancel_job',
      outcome: 'JOB_NOT_FOUND',
    });
  });
});

describe('dashboard events', () => {
  it('streams the state at once, then again when a caller comes', async () => {
    const { cookie } = await signIn();
    const frames: { callers: { caller: string }[] }[] = [];
    const got = new Promise<void>((resolve, reject) => {
      const req = request(`${origin}/api/events`, { headers: { cookie } }, (res) => {
        expect(res.headers['content-type']).toMatch(/text\/event-stream/);
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
            const event = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = event
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (!data) continue;
            frames.push(JSON.parse(data) as (typeof frames)[number]);
            if (frames.length === 1) app.openCaller({ label: 'agent-sse' });
            if (frames.some((f) => f.callers.some((c) => c.caller === 'agent-sse'))) {
              clearTimeout(bound);
              req.destroy();
              resolve();
            }
          }
        });
      });
      req.on('error', (e) => {
        if (!('code' in e && e.code === 'ECONNRESET')) reject(e);
      });
      req.end();
      const bound = setTimeout(
        () => reject(new Error(`no frame with the caller: ${JSON.stringify(frames)}`)),
        3000,
      );
    });
    await got;
    expect(frames[0]!.callers.some((c) => c.caller === 'agent-sse')).toBe(false);
    await app.closeCaller('agent-sse');
  });
});
