// An MCP client on a broker connection, for the CLI commands (and tests and the bench): the SDK's
// Client over SocketTransport, after connect-or-spawn (or connect only) and the preamble.
// Importing the SDK is fine here: a command is not the stdio front-end's 300 ms path.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';

import { connectOrSpawn, exchangePreamble, tryConnect, type ConnectOptions } from './client.js';
import { BrokerError, brokerErrors, type BrokerErrorCode } from './errors.js';
import type { BrokerAnswer } from './preamble.js';
import { SocketTransport } from './socket-transport.js';

export interface BrokerClient {
  client: Client;
  answer: BrokerAnswer;
  /** Resolves when the broker connection has closed (from either end). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * `spawn: false`: only a running broker (BROKER_NOT_RUNNING otherwise), for `broker --status`
 * and `--stop`, which must never start one.
 */
export async function openBrokerClient(
  opts: ConnectOptions & { spawn: boolean; clientName?: string },
): Promise<BrokerClient> {
  let link;
  if (opts.spawn) {
    link = await connectOrSpawn(opts);
  } else {
    const socket = await tryConnect(opts.paths.socket);
    if (!socket) throw brokerErrors.notRunning(opts.paths.socket);
    link = await exchangePreamble(socket, {
      version: opts.version,
      pid: process.pid,
      kind: opts.kind,
      ...(opts.target ? { target: opts.target } : {}),
    });
  }
  const transport = new SocketTransport(link.socket, link.rest);
  const closed = new Promise<void>((resolve) => link.socket.once('close', () => resolve()));
  const client = new Client({
    name: opts.clientName ?? 'unity-devtools-cli',
    version: opts.version,
  });
  await client.connect(transport);
  return { client, answer: link.answer, closed, close: () => client.close() };
}

/** What `broker/status` answers (broker.ts). */
export const BrokerStatusSchema = z
  .object({
    pid: z.number(),
    version: z.string(),
    home: z.string(),
    uptime_ms: z.number(),
    frontEnds: z.array(
      z.object({ pid: z.number(), kind: z.string(), since: z.string() }).passthrough(),
    ),
    /** Present when the broker also serves MCP over HTTP (broker/http-server.ts). */
    http: z
      .object({
        url: z.string(),
        tokenFile: z.string(),
        sessions: z.array(z.object({}).passthrough()),
      })
      .optional(),
  })
  .passthrough();
export type BrokerStatus = z.infer<typeof BrokerStatusSchema>;

export async function brokerStatus(client: Client): Promise<BrokerStatus> {
  return client.request({ method: 'broker/status' }, BrokerStatusSchema);
}

export async function brokerStop(client: Client): Promise<void> {
  await client.request({ method: 'broker/stop' }, z.object({}).passthrough());
}

const DashboardLoginSchema = z.union([
  z.object({ url: z.string() }),
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** A one-time dashboard URL from the broker; BROKER_NO_HTTP when it serves no HTTP. */
export async function brokerDashboardLogin(client: Client): Promise<string> {
  const r = await client.request({ method: 'broker/dashboard-login' }, DashboardLoginSchema);
  if ('error' in r) throw new BrokerError(r.error.code as BrokerErrorCode, r.error.message);
  return r.url;
}
