// What a caller can set on a connection and on one request, and the counters it can read.

import type { CommandName, ParamsOf } from './commands/index.js';

export interface ConnectOptions {
  host?: string;
  /** The agent's port; over another transport, only the name the connection goes by. */
  port: number;
  /** TCP connect bound. */
  connectTimeoutMs?: number;
  /** Bound on the agent's handshake bytes (a listening socket may never answer: trap 18). */
  handshakeTimeoutMs?: number;
  /** Default bound of every request. */
  requestTimeoutMs?: number;
  /** Bound of the whole close sequence (resume, dispose, transport close). */
  closeTimeoutMs?: number;
  maxPacketBytes?: number;
  /** Diagnostics sink; never stdout (it belongs to the MCP protocol). */
  log?: (message: string) => void;
  /** Merge same-tick field reads of one type or object into one command (default true). */
  coalesceReads?: boolean;
  /**
   * A game started waiting for its debugger (agent `suspend=y`) stays suspended after connect,
   * its start suspension counted as a level this client holds (`startSuspended`), so that
   * breakpoints can be set in start-up code first. Default false: connect resumes it.
   */
  keepStartSuspended?: boolean;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  connectTimeoutMs: 3000,
  handshakeTimeoutMs: 3000,
  requestTimeoutMs: 10_000,
  closeTimeoutMs: 1500,
};

export type ResolvedOptions = typeof DEFAULTS & ConnectOptions;

export interface SendOptions {
  timeoutMs?: number;
  /** Called with the packet id once the request is written (ABORT_INVOKE needs it). */
  onSent?: (packetId: number) => void;
}

/** `send`'s arguments after the name: no params for a command that takes none. */
export type SendArgs<K extends CommandName> =
  ParamsOf<K> extends void
    ? [params?: undefined, options?: SendOptions]
    : [params: ParamsOf<K>, options?: SendOptions];

export interface ConnectionStats {
  commandsSent: number;
  repliesReceived: number;
  eventSetsReceived: number;
  bytesSent: number;
  bytesReceived: number;
}
