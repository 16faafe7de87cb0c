// The broker over HTTP (`broker --http`), as a real process with a real fixture game: the SDK's
// Streamable HTTP client runs the smoke test the stdio tests run, and every refusal (no token,
// wrong token, a token in the query string, a foreign Origin, a rebinding Host, an oversize body,
// a malformed JSON-RPC body) answers its status and leaves the game untouched: each is the very
// request that, sent right, adds one to Game.Control.Counter, which an authorised session reads.
// A bounded fuzz never brings the broker down. A non-loopback bind is refused before listening.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freeLoopbackPort, startFixture, type FixtureProcess } from '../fixtures/launch.js';
import {
  BUILT_CLI,
  TOOL_NAMES,
  brokerEnv,
  brokerHome,
  runCli,
  stopBroker,
} from './support/mcp-client.js';
import { delay, freeUdpPort } from './support/net.js';

/** Far above any answer's time: exceeding it means the broker hung. */
const HANG_MS = 15_000;

let fixture: FixtureProcess;
let home: string;
let broker: ChildProcess;
let brokerOut = '';
let base: string; // http://127.0.0.1:<port>
let port: number;
let token: string;
let agent: HttpAgent;

interface HttpAgent {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
}

async function connectAgent(name: string, bearer = token): Promise<HttpAgent> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  return {
    client,
    transport,
    call,
    ok: async <T>(tool: string, args: Record<string, unknown> = {}) => {
      const r = await call(tool, args);
      const text = r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      expect(r.isError ?? false, `${tool} failed: ${text}`).toBe(false);
      return r.structuredContent as T;
    },
  };
}

async function counter(): Promise<number> {
  const r = await agent.ok<{ value: string }>('eval', { code: 'Game.Control.Counter' });
  return Number(r.value);
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request exactly as given (any Host, Origin, body), answered within HANG_MS. */
function raw(
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<RawAnswer> {
  // a length always (node would send a DELETE's body unframed: the next request's bytes)
  if (body !== undefined)
    headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path: target, headers, setHost: !('host' in headers) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`${method} ${target}: no answer`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers an MCP POST in `agent`'s session carries, with the token. */
function sessionHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': agent.transport.sessionId!,
    'mcp-protocol-version': agent.transport.protocolVersion ?? '2025-06-18',
    ...extra,
  };
}

let nextId = 1000;
/** The tools/call that adds one to Game.Control.Counter (`pad`: a comment to make it long). */
function incrementBody(pad = 0): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name: 'eval',
      arguments: { code: `Game.Control.Counter++;${pad ? ` /*${'x'.repeat(pad)}*/` : ''}` },
    },
  });
}

let beaconPort: number;

/** `broker --http 127.0.0.1:0` in a new home, hearing the fixture's beacon; its URL and token. */
async function startHttpBroker(env: NodeJS.ProcessEnv = {}): Promise<void> {
  home = brokerHome();
  brokerOut = '';
  broker = spawn(
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
    {
      env: brokerEnv(home, { UNITY_DEVTOOLS_TOKEN: '', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  broker.stdout!.on('data', (d: Buffer) => (brokerOut += d.toString()));
  broker.stderr!.on('data', (d: Buffer) => (brokerOut += d.toString()));
  const deadline = Date.now() + HANG_MS;
  let m: RegExpExecArray | null;
  while (!(m = /MCP over HTTP at (http:\/\/127\.0\.0\.1:(\d+))\/mcp/.exec(brokerOut))) {
    if (broker.exitCode !== null || Date.now() > deadline)
      throw new Error(`the broker did not serve HTTP: ${brokerOut}`);
    await delay(25);
  }
  base = m[1]!;
  port = Number(m[2]);
  token = readFileSync(path.join(home, 'http-token'), 'utf8').trim();
}

beforeAll(async () => {
  beaconPort = await freeUdpPort();
  // the beacon's Guid gives 56000 + Guid % 1000 as the debugger port
  const sdbPort = await freeLoopbackPort({ min: 56000, max: 56999 });
  fixture = await startFixture({ entities: 10, beaconPort, sdbPort });
  await startHttpBroker();
  agent = await connectAgent('http-agent');
  // one call attaches the agent to the fixture (its one visible player)
  await counter();
});

afterAll(async () => {
  await agent?.client.close().catch(() => undefined);
  if (home && broker?.exitCode === null) {
    const exited = new Promise((r) => broker.once('exit', r));
    await stopBroker(home, false);
    await Promise.race([exited, delay(HANG_MS)]);
  }
  await fixture?.stop();
});

describe('MCP over HTTP', () => {
  it('runs the stdio smoke over the SDK client: initialize, tools/list, status, eval, close', async () => {
    const a = await connectAgent('http-smoke');
    expect(a.client.getServerVersion()?.name).toBeTruthy();
    expect(a.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await a.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const status = await a.ok<{ players: unknown[] }>('status');
    expect(status.players.length).toBe(1);
    const r = await a.ok<{ value: string }>('eval', { code: 'Game.Probe.SInt' });
    expect(r.value).toBe('-123456789');

    const before = await brokerStatus();
    expect(before.http?.sessions.map((s) => s['client'])).toContain('http-smoke');
    expect(before.callers.map((c) => c.caller)).toContain('mcp:http-smoke');
    await a.transport.terminateSession();
    await a.client.close();
    const after = await brokerStatus();
    expect(after.http?.sessions.map((s) => s['client'])).not.toContain('http-smoke');
    expect(after.callers.map((c) => c.caller)).not.toContain('mcp:http-smoke');
  });

  it('releases a session’s hold when the session closes, as a socket front-end’s', async () => {
    const b = await connectAgent('http-holder');
    expect((await b.ok<{ holds: number }>('suspend')).holds).toBe(1);
    const held = await brokerStatus();
    expect(held.games.flatMap((g) => g.holds.map((h) => h.caller))).toContain('mcp:http-holder');
    await b.transport.terminateSession();
    await b.client.close();
    const freed = await brokerStatus();
    expect(freed.games.flatMap((g) => g.holds.map((h) => h.caller))).not.toContain(
      'mcp:http-holder',
    );
    // and the game runs: its frame count moves
    const f1 = Number(
      (await agent.ok<{ value: string }>('eval', { code: 'Time.frameCount' })).value,
    );
    let f2 = f1;
    const deadline = Date.now() + HANG_MS;
    while (f2 === f1 && Date.now() < deadline) {
      await delay(50);
      f2 = Number((await agent.ok<{ value: string }>('eval', { code: 'Time.frameCount' })).value);
    }
    expect(f2).toBeGreaterThan(f1);
  });

  it('writes the token 0600 in the broker directory and prints only its path', () => {
    const file = path.join(home, 'http-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(brokerOut).toContain(file);
    expect(brokerOut).not.toContain(token);
  });
});

interface Status {
  callers: { caller: string }[];
  games: { holds: { caller: string }[] }[];
  http?: { url: string; tokenFile: string; sessions: Record<string, unknown>[] };
}

async function brokerStatus(): Promise<Status> {
  const r = await runCli(home, ['broker', '--status', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Status;
}

describe('refusals leave the game untouched', () => {
  it('applies the increment sent right (the control the refusals are measured against)', async () => {
    const before = await counter();
    const r = await raw('POST', '/mcp', sessionHeaders(), incrementBody());
    expect(r.status).toBe(200);
    expect(await counter()).toBe(before + 1);
  });

  const refusals: [string, number, () => [string, Record<string, string>, string]][] = [
    [
      'no token',
      401,
      () => {
        const h = sessionHeaders();
        delete h['authorization'];
        return ['/mcp', h, incrementBody()];
      },
    ],
    [
      'a wrong token',
      401,
      () => [
        '/mcp',
        sessionHeaders({ authorization: `Bearer ${token.slice(1)}x` }),
        incrementBody(),
      ],
    ],
    [
      'a token of another scheme',
      401,
      () => ['/mcp', sessionHeaders({ authorization: `Basic ${token}` }), incrementBody()],
    ],
    [
      'the right token in the query string',
      401,
      () => {
        const h = sessionHeaders();
        delete h['authorization'];
        return [`/mcp?token=${encodeURIComponent(token)}`, h, incrementBody()];
      },
    ],
    [
      'the right token in the header and in the query string',
      401,
      () => ['/mcp?access_token=' + encodeURIComponent(token), sessionHeaders(), incrementBody()],
    ],
    [
      'a foreign Origin',
      403,
      () => ['/mcp', sessionHeaders({ origin: 'http://evil.example' }), incrementBody()],
    ],
    [
      'an Origin on our port under another name',
      403,
      () => ['/mcp', sessionHeaders({ origin: `http://evil.example:${port}` }), incrementBody()],
    ],
    [
      'a rebinding Host (evil.example)',
      403,
      () => ['/mcp', sessionHeaders({ host: 'evil.example' }), incrementBody()],
    ],
    [
      'a rebinding Host with our port',
      403,
      () => ['/mcp', sessionHeaders({ host: `evil.example:${port}` }), incrementBody()],
    ],
    [
      'an oversize body (over 1 MiB)',
      413,
      () => ['/mcp', sessionHeaders(), incrementBody(1024 * 1024)],
    ],
    [
      'a malformed JSON-RPC body (cut off)',
      400,
      () => ['/mcp', sessionHeaders(), incrementBody().slice(0, -3)],
    ],
    [
      'a JSON body that is not JSON-RPC (no jsonrpc member)',
      400,
      () => {
        const b = JSON.parse(incrementBody()) as Record<string, unknown>;
        delete b['jsonrpc'];
        return ['/mcp', sessionHeaders(), JSON.stringify(b)];
      },
    ],
    [
      'a batch with one malformed message beside the increment',
      400,
      () => ['/mcp', sessionHeaders(), `[${incrementBody()},{"jsonrpc":"2.0","id":{}}]`],
    ],
  ];

  for (const [what, status, make] of refusals) {
    it(`refuses ${what} with ${status}`, async () => {
      const before = await counter();
      const [target, headers, body] = make();
      const r = await raw('POST', target, headers, body);
      expect(r.status).toBe(status);
      if (status === 401) {
        expect(r.body).toBe(''); // nothing else said
        expect(r.headers['www-authenticate']).toBe('Bearer');
      } else if (status === 400) {
        const answer = JSON.parse(r.body) as { jsonrpc: string; error: { code: number } };
        expect(answer.jsonrpc).toBe('2.0');
        expect([-32700, -32600]).toContain(answer.error.code);
      } else if (status === 413) {
        const answer = JSON.parse(r.body) as { error: { data: { code: string } } };
        expect(answer.error.data.code).toBe('BODY_TOO_LARGE');
      } else {
        const answer = JSON.parse(r.body) as { error: { code: string } };
        expect(answer.error.code).toMatch(/^FORBIDDEN_(HOST|ORIGIN)$/);
      }
      expect(await counter()).toBe(before);
    });
  }

  it('refuses an initialize with a wrong token: no session, no caller', async () => {
    const before = (await brokerStatus()).http!.sessions.length;
    await expect(connectAgent('wrong-token', `${token}x`)).rejects.toMatchObject({ code: 401 });
    const after = await brokerStatus();
    expect(after.http!.sessions.length).toBe(before);
    expect(after.callers.map((c) => c.caller)).not.toContain('mcp:wrong-token');
  });

  it('answers another path 404 and a request with no session 400', async () => {
    expect((await raw('GET', '/nothing', {})).status).toBe(404);
    const r = await raw(
      'POST',
      '/mcp',
      { ...sessionHeaders(), 'mcp-session-id': '' },
      incrementBody(),
    );
    expect(r.status).toBe(400);
    const unknown = await raw(
      'POST',
      '/mcp',
      sessionHeaders({ 'mcp-session-id': '00000000-0000-4000-8000-000000000000' }),
      incrementBody(),
    );
    expect(unknown.status).toBe(404);
  });
});

/** A small seeded generator: the fuzz is the same every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a request fuzz', () => {
  it('300 random requests never bring the broker down, and leave the game untouched', async () => {
    const before = await counter();
    const rand = prng(14);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const methods = ['GET', 'POST', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'];
    const paths = [
      '/mcp',
      '/mcp',
      '/',
      '/mcp/',
      '/MCP',
      '/mcp?x=1',
      '/%2e%2e/mcp',
      '//mcp',
      '/a/b?c#d',
    ];
    const bodies = [
      '',
      '{',
      'null',
      '[]',
      '[1,2,3]',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"result":{}}',
      '\u0000\u0001\u0002',
      '\ud800',
    ];
    const authorizations = [
      undefined,
      `Bearer ${token}`,
      `Bearer ${token}`,
      'Bearer ',
      'Bearer',
      `bearer ${token}`,
      `Bearer ${token} `,
      `Bearer ${'A'.repeat(5000)}`,
    ];
    const hosts = [
      undefined,
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'evil.example',
      '',
      '[::1]',
    ];
    const origins = [
      undefined,
      undefined,
      base,
      'null',
      'http://evil.example',
      `http://localhost:${port}`,
    ];
    const contentTypes = [
      undefined,
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
    ];
    const accepts = [undefined, 'application/json, text/event-stream', 'text/event-stream', '*/*'];
    const statuses = new Map<number, number>();
    const one = async (): Promise<void> => {
      const headers: Record<string, string> = {};
      const put = (k: string, v: string | undefined) => v !== undefined && (headers[k] = v);
      put('authorization', pick(authorizations));
      put('host', pick(hosts));
      put('origin', pick(origins));
      put('content-type', pick(contentTypes));
      put('accept', pick(accepts));
      // never the agent's own session: a fuzzed DELETE would end it
      put('mcp-session-id', pick([undefined, 'x', '00000000-0000-4000-8000-000000000000']));
      put('mcp-protocol-version', pick([undefined, '2025-06-18', '1999-01-01']));
      if (rand() < 0.1)
        headers[`x-${Math.floor(rand() * 1e6)}`] = 'y'.repeat(Math.floor(rand() * 200));
      const method = pick(methods);
      let body: string | Buffer | undefined =
        method === 'GET' || method === 'HEAD' ? undefined : pick(bodies);
      if (body !== undefined && rand() < 0.15)
        body = Buffer.from(
          Array.from({ length: Math.floor(rand() * 3000) }, () => Math.floor(rand() * 256)),
        );
      // a GET that opens a standalone event stream would stay open: none is authorised here
      if (method === 'GET' && headers['authorization'] === `Bearer ${token}`)
        delete headers['authorization'];
      const target = pick(paths);
      const r = await raw(method, target, headers, body).catch((e: Error) => {
        throw new Error(
          `${method} ${target} ${JSON.stringify(headers)} ${JSON.stringify(String(body).slice(0, 200))}: ${e.message}`,
        );
      });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      expect(r.status, `${method}: ${r.body}`).toBeGreaterThanOrEqual(200);
      expect(r.status, `${method}: ${r.body}`).toBeLessThan(600);
      expect(r.status, `${method}: ${r.body}`).not.toBe(500);
    };
    for (let i = 0; i < 300; i += 6) await Promise.all(Array.from({ length: 6 }, one));
    // and some bytes that are not HTTP at all
    for (const junk of [
      '\r\n\r\n',
      'GARBAGE / HTTP/9\r\n\r\n',
      'GET /mcp HTTP/1.1\r\nHost: \u00ff\r\n\r\n',
      '\u0000'.repeat(100),
    ]) {
      // answered (400) or not (bytes the parser still waits on): either way the socket ends
      await new Promise<void>((resolve) => {
        const s = netConnect(port, '127.0.0.1', () => s.write(junk));
        s.on('data', () => s.destroy());
        s.on('error', () => resolve());
        s.on('close', () => resolve());
        s.setTimeout(1000, () => s.destroy());
      });
    }
    expect(broker.exitCode).toBeNull();
    // every refusal class was met, and the broker still answers a valid call
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([401, 403, 404]));
    expect(await counter()).toBe(before);
    const s = await agent.ok<{ players: unknown[] }>('status');
    expect(s.players.length).toBe(1);
  });
});

describe('binding', () => {
  it('refuses a non-loopback address without --allow-remote, before listening', async () => {
    const other = brokerHome();
    const r = await runCli(other, ['broker', '--http', '0.0.0.0:0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP_REMOTE_REFUSED');
    expect(r.stdout).not.toMatch(/listening/);
    expect(existsSync(path.join(other, 'broker.pid'))).toBe(false);
    expect(existsSync(path.join(other, 'broker.sock'))).toBe(false);
    expect(existsSync(path.join(other, 'http-token'))).toBe(false);
  });

  it('refuses --allow-remote without --http and an address that is not host:port', async () => {
    const other = brokerHome();
    const a = await runCli(other, ['broker', '--allow-remote']);
    expect(a.code).toBe(2);
    const b = await runCli(other, ['broker', '--http', '8123']);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('HTTP_BAD_ADDRESS');
  });
});

describe('closing the broker', () => {
  it('closes every HTTP session, releases its hold, and leaves the game free for a new debugger', async () => {
    const c = await connectAgent('http-at-stop');
    expect((await c.ok<{ holds: number }>('suspend')).holds).toBe(1);
    const exited = new Promise<number | null>((r) => broker.once('exit', (code) => r(code)));
    await stopBroker(home, false);
    expect(await Promise.race([exited, delay(HANG_MS).then(() => 'hung')])).toBe(0);
    expect(existsSync(path.join(home, 'http-token'))).toBe(false);
    // the session is gone with its broker
    await expect(c.call('status')).rejects.toThrow();
    // the game was resumed and released: a new debugger attaches and it runs
    const { SdbConnection } = await import('../sdb-protocol/index.js');
    const conn = await SdbConnection.connect({ port: fixture.sdbPort });
    await conn.close();
    const logLines = () => readFileSync(fixture.logPath, 'utf8').split('\n').length;
    const n = logLines();
    const deadline = Date.now() + HANG_MS;
    while (logLines() <= n && Date.now() < deadline) await delay(50);
    expect(logLines()).toBeGreaterThan(n);
  });
});

describe('an abandoned session', () => {
  it('is closed after its quiet period, and its hold with it', async () => {
    // the broker before this one was stopped by the test above: the game is free
    const given = 'a-token-the-user-chose-0123456789';
    await startHttpBroker({ UNITY_DEVTOOLS_HTTP_IDLE_MS: '1500', UNITY_DEVTOOLS_TOKEN: given });
    expect(token).toBe(given); // UNITY_DEVTOOLS_TOKEN is the token, written to the file
    const d = await connectAgent('http-abandoned');
    expect((await d.ok<{ holds: number }>('suspend')).holds).toBe(1);
    // gone without a DELETE: the client just stops (a crashed agent, a closed laptop)
    await d.client.close();
    const deadline = Date.now() + HANG_MS;
    let s = await brokerStatus();
    while (s.http!.sessions.length > 0 && Date.now() < deadline) {
      await delay(250);
      s = await brokerStatus();
    }
    expect(s.http!.sessions).toEqual([]);
    expect(s.games.flatMap((g) => g.holds)).toEqual([]);
    expect(s.callers.map((c) => c.caller)).not.toContain('mcp:http-abandoned');
  });
});
