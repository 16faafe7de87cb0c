// The stdio relay against a scripted broker: a test-local Unix socket server that speaks the
// preamble and answers a few JSON-RPC methods with canned replies.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { exchangePreamble, tryConnect } from './client.js';
import { Relay, lineSplitter } from './front-end.js';

const BROKER_PID = 4242;

interface Received {
  preamble: Record<string, unknown>;
  lines: Record<string, unknown>[];
  socket: Socket;
}

/** Answers initialize and tools/list; never answers `hang` and `tools/call`. */
class ScriptedBroker {
  readonly connections: Received[] = [];
  private constructor(
    readonly server: Server,
    readonly socketPath: string,
  ) {}

  static async start(socketPath: string): Promise<ScriptedBroker> {
    const server = createServer();
    const b = new ScriptedBroker(server, socketPath);
    server.on('connection', (socket) => b.serve(socket));
    await new Promise<void>((r) => server.listen(socketPath, r));
    return b;
  }

  private serve(socket: Socket): void {
    let buf = '';
    let conn: Received | undefined;
    socket.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl)) as Record<string, unknown>;
        buf = buf.slice(nl + 1);
        if (!conn) {
          conn = { preamble: msg, lines: [], socket };
          this.connections.push(conn);
          socket.write(
            `${JSON.stringify({ broker: 'unity-devtools', protocol: 1, version: 't', pid: BROKER_PID })}\n`,
          );
          continue;
        }
        conn.lines.push(msg);
        const reply = (result: unknown) =>
          socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg['id'], result })}\n`);
        if (msg['method'] === 'initialize')
          reply({ protocolVersion: '2025-06-18', n: this.connections.length });
        else if (msg['method'] === 'tools/list') reply({ tools: [{ name: 'status' }] });
      }
    });
    socket.on('error', () => undefined);
  }

  close(): Promise<void> {
    for (const c of this.connections) c.socket.destroy();
    return new Promise((r) => this.server.close(() => r()));
  }
}

let dir: string;
let broker: ScriptedBroker;
let input: PassThrough;
let out: Record<string, unknown>[];
let waiters: (() => void)[];
let relay: Relay;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ud-relay-'));
  broker = await ScriptedBroker.start(path.join(dir, 's.sock'));
  input = new PassThrough();
  const output = new PassThrough();
  out = [];
  waiters = [];
  let buf = '';
  output.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      out.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  relay = new Relay({
    input,
    output,
    connect: async () => {
      const socket = await tryConnect(broker.socketPath);
      if (!socket) throw new Error('the scripted broker is not listening');
      return exchangePreamble(socket, { version: 't', pid: 99, kind: 'mcp' });
    },
  });
  void relay.run();
});

afterEach(async () => {
  await relay.close();
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
});

const send = (m: Record<string, unknown>) =>
  input.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);

/** Resolves with the output message of this id (bounded by the test's timeout). */
async function reply(id: unknown): Promise<Record<string, unknown>> {
  for (;;) {
    const m = out.find((x) => x['id'] === id);
    if (m) return m;
    await new Promise<void>((r) => waiters.push(r));
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

const INIT = {
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'host', version: '1' },
  },
};

describe('the stdio relay', () => {
  it('forwards the host lines to the broker and its answers back, after the preamble', async () => {
    send(INIT);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    expect((await reply(1))['result']).toMatchObject({ protocolVersion: '2025-06-18' });
    expect((await reply(2))['result']).toEqual({ tools: [{ name: 'status' }] });
    const [conn] = broker.connections;
    expect(conn?.preamble).toMatchObject({
      frontend: 'unity-devtools',
      protocol: 1,
      pid: 99,
      kind: 'mcp',
    });
    expect(conn?.lines.map((l) => l['method'])).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });

  it('answers what was pending itself when the broker drops: BROKER_LOST', async () => {
    send(INIT);
    await reply(1);
    send({ id: 3, method: 'tools/call', params: { name: 'eval', arguments: { code: '1' } } });
    send({ id: 'four', method: 'hang' });
    await until(() => (broker.connections[0]?.lines.length ?? 0) === 3);
    broker.connections[0]!.socket.destroy();
    const call = await reply(3);
    expect(call['result']).toMatchObject({ isError: true, _meta: { code: 'BROKER_LOST' } });
    const text = (call['result'] as { content: { text: string }[] }).content[0]!.text;
    expect(text).toMatch(/^BROKER_LOST: /);
    expect(text).toContain(`pid ${BROKER_PID}`);
    expect(text).toMatch(/holds, pauses and breakpoints/);
    const other = await reply('four');
    expect((other['error'] as { message: string }).message).toMatch(/^BROKER_LOST: /);
  });

  it('reconnects on the next request, replaying initialize (its reply swallowed)', async () => {
    send(INIT);
    send({ method: 'notifications/initialized' });
    await reply(1);
    broker.connections[0]!.socket.destroy();
    await until(() => broker.connections[0]!.socket.destroyed);
    await new Promise((r) => setTimeout(r, 20)); // the relay sees the close
    send({ id: 5, method: 'tools/list' });
    expect((await reply(5))['result']).toEqual({ tools: [{ name: 'status' }] });
    const second = broker.connections[1]!;
    expect(second.lines.map((l) => l['method'])).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
    expect(second.lines[0]!['id']).not.toBe(1);
    expect(second.lines[0]!['params']).toEqual(INIT.params);
    // the host saw one initialize reply: its own, from the first broker
    expect(
      out.filter((m) => (m['result'] as { protocolVersion?: string })?.protocolVersion),
    ).toHaveLength(1);
    expect(out.some((m) => m['id'] === second.lines[0]!['id'])).toBe(false);
  });

  it('with nothing pending when the broker drops, the next tools/call says BROKER_LOST', async () => {
    send(INIT);
    await reply(1);
    broker.connections[0]!.socket.destroy();
    await until(() => broker.connections[0]!.socket.destroyed);
    await new Promise((r) => setTimeout(r, 20));
    send({ id: 6, method: 'tools/call', params: { name: 'status', arguments: {} } });
    expect((await reply(6))['result']).toMatchObject({ _meta: { code: 'BROKER_LOST' } });
    expect(broker.connections).toHaveLength(1); // told, not forwarded
    send({ id: 7, method: 'tools/list' });
    expect((await reply(7))['result']).toEqual({ tools: [{ name: 'status' }] });
    expect(broker.connections).toHaveLength(2);
  });
});

describe('lineSplitter', () => {
  it('decodes a character whose UTF-8 bytes straddle two chunks whole', () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('{"code":"\u20ac = 1"}\n{"b":2}\n', 'utf8');
    const euro = bytes.indexOf(0xe2); // the first of the euro sign's three bytes
    feed(bytes.subarray(0, euro + 1));
    feed(bytes.subarray(euro + 1, euro + 2));
    feed(bytes.subarray(euro + 2));
    expect(lines).toEqual(['{"code":"\u20ac = 1"}', '{"b":2}']);
  });
});
