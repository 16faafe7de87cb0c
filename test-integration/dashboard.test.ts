// The dashboard in a real browser: Debian's Chromium, headless, driven by puppeteer-core (which
// downloads nothing), against the dashboard's routes behind a bare node:http server over an app
// whose discovery hears the fixture game's beacon. The one-time URL signs the browser in; an
// agent (a GameApp caller) takes a hold and the page shows who holds the game within 2 s; the
// page releases it; the agent's next call finds it gone. A missing Chromium fails this file
// (scripts/ensure-chromium.sh installs it; CI runs that), it is never skipped.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDashboard, type Dashboard } from '../broker/dashboard/dashboard.js';
import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { auditFile } from '../mcp/ledger/audit.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { BUILT_CLI, brokerEnv, brokerHome, runCli, stopBroker } from './support/mcp-client.js';
import { delay, freeUdpPort } from './support/net.js';
import { toolCaller } from './support/tool-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const PRODUCT = 'Dashboard Demo';
const artifacts = new URL('./artifacts/', import.meta.url);
const docsShot = new URL('../docs/dashboard.png', import.meta.url);

let fixture: FixtureProcess;
let home: string;
let app: GameApp;
let dash: Dashboard;
let server: Server;
let origin: string;
let beaconPort: number;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // as the fixture build installs Mono: `npm test` on a fresh machine installs Chromium from apt
  if (!existsSync(CHROMIUM)) {
    const r = spawnSync(
      'bash',
      [fileURLToPath(new URL('../scripts/ensure-chromium.sh', import.meta.url))],
      {
        encoding: 'utf8',
      },
    );
    if (r.status !== 0 || !existsSync(CHROMIUM))
      throw new Error(
        `${CHROMIUM} is missing and scripts/ensure-chromium.sh could not install it:\n${r.stderr}`,
      );
  }
  beaconPort = await freeUdpPort();
  // like a real player: the debugger port is 56000 + guid % 1000, so the beacon implies it
  const sdbPort = await freeLoopbackPort({ min: 56000, max: 56999 });
  fixture = await startFixture({
    entities: 50,
    beaconPort,
    sdbPort,
    args: ['--product-name', PRODUCT],
  });
  home = mkdtempSync(path.join(tmpdir(), 'ud-dash-it-'));
  app = await GameApp.start({
    beaconPorts: [beaconPort],
    beaconBindAddress: '127.0.0.1',
    multicast: false,
    discovery: true,
    stateDir: home,
  });
  server = createServer((req, res) => {
    void dash.handle(req, res, new URL(req.url ?? '/', origin)).then((mine) => {
      if (!mine) {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dash = createDashboard({ app, home, log: () => undefined, selfOrigin: origin });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    // root in CI containers: Chromium's sandbox needs a user namespace it may not get
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 860 });
});

afterAll(async () => {
  await browser?.close();
  await dash?.close?.();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await app?.close();
  await fixture?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const call = toolCaller<Record<string, unknown>>(ALL_TOOLS, () => app);

// The page's side runs in Chromium: given as source text (this project has no DOM types).
/** The value of a browser-side expression. */
const inPage = <T>(expr: string): Promise<T> => page.evaluate(expr) as Promise<T>;
/** Waits (bounded) until a browser-side expression is true. */
const until = async (expr: string, timeout: number, polling?: number): Promise<void> => {
  await page.waitForFunction(expr, { timeout, ...(polling !== undefined ? { polling } : {}) });
};
const BANNER = `(document.querySelector('[data-testid="banner"]')?.textContent ?? '')`;
const banner = () => inPage<string>(BANNER);

describe('the dashboard in Chromium', () => {
  it('signs in by the one-time URL, shows the player and who holds the game, releases it', async () => {
    const agent = app.openCaller({ label: 'agent-a' });
    // the agent attaches to the fixture's player, found by its beacon
    await call('attach', { player: PRODUCT }, agent);

    const login = dash.loginUrl();
    const opened = await page.goto(login, { waitUntil: 'domcontentloaded', timeout: 10_000 });
    expect(opened?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/');
    // the cookie is out of the page's reach
    expect(await inPage('document.cookie')).toBe('');
    await until(
      `document.getElementById('players')?.textContent?.includes(${JSON.stringify(PRODUCT)})`,
      5000,
    );
    await until(`document.getElementById('conn')?.textContent === 'live'`, 5000);
    expect(await banner()).toMatch(/^RUNNING/);

    // the agent takes a hold: the page says who holds the game within 2 s
    const held = await call('suspend', {}, agent);
    expect(held['holds']).toBe(1);
    await until(`/^HELD by agent-a for /.test(${BANNER})`, 2000, 50);
    expect(await page.$('#callers [data-caller="agent-a"] .chip.held')).not.toBeNull();

    // a screenshot of the held game, on request
    await page.click('[data-shot]');
    await until(
      `(() => { const i = document.querySelector('.shot img'); return i !== null && i.complete && i.naturalWidth > 0; })()`,
      20_000,
    ).catch(async (e: unknown) => {
      throw new Error(
        `no screenshot on the page: ${await inPage<string>(`document.getElementById('msg')?.textContent`)}`,
        { cause: e },
      );
    });
    // the page's own call shows in its audit list (and the queue is idle again) before the picture
    await until(
      `[...document.querySelectorAll('#audit .row')].some((r) => /dashboard\\s*screenshot on g1/.test(r.textContent))`,
      2000,
    );
    mkdirSync(artifacts, { recursive: true });
    const png = await page.screenshot({ fullPage: true });
    // the README's picture is rewritten only when asked (a test run leaves tracked files alone)
    const files = [new URL('dashboard.png', artifacts)];
    if (process.env['UPDATE_DOCS_SCREENSHOTS'] === '1') files.push(docsShot);
    for (const file of files) writeFileSync(file, png);

    // released from the page: the agent's next call finds its hold gone
    await page.click('[data-release="agent-a"]');
    await until(`/^RUNNING/.test(${BANNER})`, 5000);
    await expect(call('resume', {}, agent)).rejects.toMatchObject({ code: 'HOLD_NOT_OWNED' });
    const status = (await call('status', {}, agent)) as {
      games: { holds: unknown[] }[];
    };
    expect(status.games[0]!.holds).toEqual([]);

    // both the page's calls are the dashboard's in the audit log
    await app.ledger.audit!.flush();
    const lines = readFileSync(auditFile(home), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { caller: string; tool: string; outcome: string });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ caller: 'dashboard', tool: 'screenshot', outcome: 'ok' }),
        expect.objectContaining({ caller: 'dashboard', tool: 'dashboard_release', outcome: 'ok' }),
        expect.objectContaining({ caller: 'agent-a', tool: 'suspend', outcome: 'ok' }),
      ]),
    );
    // and the page lists them
    await until(
      `document.getElementById('audit')?.textContent?.includes('dashboard_release')`,
      2000,
    );

    // on a phone: one column, nothing wider than the screen
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await until(`document.documentElement.scrollWidth <= window.innerWidth`, 2000);
    const columns = await inPage<number>(
      `new Set([...document.querySelectorAll('main > section')].map((e) => e.getBoundingClientRect().left)).size`,
    );
    expect(columns).toBe(1);
    await page.screenshot({ path: fileURLToPath(new URL('dashboard-phone.png', artifacts)) });
    await page.setViewport({ width: 1280, height: 860 });
    await app.closeCaller(agent);
  });

  it('refuses the same login URL a second time, in another browser profile', async () => {
    const url = dash.loginUrl();
    const first = await browser.createBrowserContext();
    const second = await browser.createBrowserContext();
    try {
      expect((await (await first.newPage()).goto(url, { timeout: 10_000 }))?.status()).toBe(200);
      const q = await second.newPage();
      expect((await q.goto(url, { timeout: 10_000 }))?.status()).toBe(401);
      expect(await q.evaluate('document.body.textContent')).toContain('unity-devtools dashboard');
      expect(await second.cookies()).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('unity-devtools dashboard', () => {
  it('says to start the broker with --http when none runs, or the one running serves no HTTP', async () => {
    const home = brokerHome();
    const none = await runCli(home, ['dashboard']);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no broker is running.*broker --http 127\.0\.0\.1:<port>/);
    // a command starts a broker (without --http); `status` leaves the game untouched
    const st = await runCli(home, [
      'status',
      '--port',
      String(fixture.sdbPort),
      '--beacon-port',
      String(beaconPort),
      '--no-multicast',
    ]);
    expect(st.code, st.stderr).toBe(0);
    try {
      const r = await runCli(home, ['dashboard']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/BROKER_NO_HTTP: .*serve HTTP.*broker --http 127\.0\.0\.1:<port>/);
    } finally {
      await stopBroker(home);
    }
  });

  it('prints a one-time link from a broker serving HTTP, which signs Chromium in there', async () => {
    const home = brokerHome();
    let out = '';
    const broker = spawn(
      process.execPath,
      [
        BUILT_CLI,
        'broker',
        '--http',
        '127.0.0.1:0',
        '--beacon-port',
        String(beaconPort),
        '--no-multicast',
      ],
      { env: brokerEnv(home), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    broker.stdout.on('data', (d: Buffer) => (out += d.toString()));
    broker.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((r) => broker.once('exit', r));
    try {
      const deadline = Date.now() + 15_000;
      let m: RegExpExecArray | null;
      while (!(m = /MCP over HTTP at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(out))) {
        if (broker.exitCode !== null || Date.now() > deadline)
          throw new Error(`the broker did not serve HTTP: ${out}`);
        await delay(25);
      }
      const base = m[1]!;
      const r = await runCli(home, ['dashboard']);
      expect(r.code, r.stderr).toBe(0);
      const url = r.stdout.split('\n')[0]!;
      expect(url).toMatch(new RegExp(`^${base.replace(/\./g, '\\.')}/login\\?code=[\\w-]{20,}$`));
      const again = await runCli(home, ['dashboard', '--json']);
      expect((JSON.parse(again.stdout) as { url: string }).url).not.toBe(url);

      const context = await browser.createBrowserContext();
      try {
        const p = await context.newPage();
        expect((await p.goto(url, { timeout: 10_000 }))?.status()).toBe(200);
        expect(new URL(p.url()).pathname).toBe('/');
        // the page's stream and state pass the server's Host and Origin checks
        await p.waitForFunction(`document.getElementById('conn')?.textContent === 'live'`, {
          timeout: 5000,
        });
        expect(await p.evaluate(`document.getElementById('players')?.textContent`)).toMatch(
          /discovery starts with the first caller/,
        );
        // the code is spent
        const q = await (await browser.createBrowserContext()).newPage();
        expect((await q.goto(url, { timeout: 10_000 }))?.status()).toBe(401);
        await q.browserContext().close();
      } finally {
        await context.close();
      }
    } finally {
      if (broker.exitCode === null) {
        await stopBroker(home, false);
        await Promise.race([exited, delay(15_000)]);
      }
      rmSync(home, { recursive: true, force: true });
    }
  });
});
