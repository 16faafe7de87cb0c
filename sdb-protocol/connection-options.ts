// What a caller can set on a connection and on one request, and the counters it can read.

import type { CommandName, ParamsOf } from './commands/index.js';
import type { SdbConnection } from './connection.js';

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
  /**
   * When the handshake does not come within its bound, keep the connection instead of closing
   * it: a busy agent holds it in its backlog and greets it when the debugger before it leaves,
   * and one it then finds closed ends Mono's debugger thread for good. Called with the promise of
   * the full connection (handshake, negotiation, VM_START, these same options), which resolves
   * whenever the agent accepts, or rejects if the stream closes or the opening fails; the
   * connect itself still rejects with HANDSHAKE_FAILED. The caller owns that connection and
   * must close() it (resume + DISPOSE) when it is not wanted.
   */
  whenLate?: (late: Promise<SdbConnection>) => void;
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
