// One debugger connection to a Mono agent over any Transport: handshake, version negotiation,
// pipelined typed requests, event delivery, and a close that always resumes what we suspended
// and sends VM.DISPOSE. The pieces live beside it: handshake.ts, request-pipeline.ts,
// inbound.ts, event-delivery.ts, suspend-ledger.ts, guard-lookups.ts, close-sequence.ts.

import { closeInOrder, closeUnheard, type Closing } from './close-sequence.js';
import type { ArrayLength, CommandName, ParamsOf, ResultOf, VmVersion } from './commands/index.js';
import {
  DEFAULTS,
  type ConnectOptions,
  type ConnectionStats,
  type ResolvedOptions,
  type SendArgs,
  type SendOptions,
} from './connection-options.js';
import { SdbConnectionClosedError, SdbError } from './errors.js';
import { EventDelivery, type CloseListener, type EventListener } from './event-delivery.js';
import type { EventSet } from './events.js';
import { GuardLookups } from './guard-lookups.js';
import { exchangeHandshake, negotiate } from './handshake.js';
import { Inbound, type InboundHooks } from './inbound.js';
import { KnownIds } from './known-ids.js';
import { RequestPipeline, type PipelineHooks } from './request-pipeline.js';
import { RuntimeProfiles, type RuntimeProfile } from './runtime-profile.js';
import { connectSocket } from './socket-transport.js';
import { SuspendLedger } from './suspend-ledger.js';
import type { Transport } from './transport.js';
import { ProtocolVersion } from './version.js';

export class SdbConnection {
  readonly host: string;
  readonly port: number;
  /** The version both sides use: min(agent, what this client implements). */
  version: ProtocolVersion = ProtocolVersion.UNSET;
  agent: VmVersion = { description: '', major: 0, minor: 0 };
  /** The runtime behind the agent, chosen from VM.VERSION (runtime-profile.ts). */
  runtime: RuntimeProfile = RuntimeProfiles['debian-mono'];
  /** From the agent's VM_START event. */
  vmStart: { threadId: number; rootDomainId: number } | undefined;
  /**
   * The game was waiting for its debugger (suspend=y) and connect left it suspended
   * (keepStartSuspended): one of suspendCount's levels is that start suspension.
   */
  startSuspended = false;
  readonly stats: ConnectionStats = {
    commandsSent: 0,
    repliesReceived: 0,
    eventSetsReceived: 0,
    bytesSent: 0,
    bytesReceived: 0,
  };
  readonly knownIds = new KnownIds();

  private readonly inbound: Inbound;
  private readonly closeTimeoutMs: number;
  private readonly log: (message: string) => void;
  private readonly pipeline: RequestPipeline;
  private readonly delivery: EventDelivery;
  private readonly ledger = new SuspendLedger();
  private readonly lookups: GuardLookups;
  private readonly closeSteps: Closing;
  private closing = false;
  private closedReason: Error | undefined;
  private closePromise: Promise<void> | undefined;

  private constructor(
    private readonly transport: Transport,
    opts: ResolvedOptions,
  ) {
    this.host = opts.host;
    this.port = opts.port;
    this.closeTimeoutMs = opts.closeTimeoutMs;
    this.log = opts.log ?? (() => undefined);
    this.delivery = new EventDelivery(this.log);
    const send = this.sendInternal.bind(this);
    this.lookups = new GuardLookups((name, params) => send(name, params, undefined));
    this.pipeline = new RequestPipeline(
      this,
      this.pipelineHooks(),
      opts.requestTimeoutMs,
      opts.coalesceReads !== false,
    );
    this.inbound = new Inbound(this, this.inboundHooks(), opts.maxPacketBytes);
    let transportClosed!: () => void;
    this.closeSteps = {
      ledger: this.ledger,
      transport,
      transportClosed: new Promise((resolve) => (transportClosed = resolve)),
      send,
      writeBare: (name) => this.pipeline.writeBare(name),
      log: this.log,
    };
    transport.onData((chunk) => this.inbound.push(chunk));
    transport.onClose((cause) => {
      transportClosed();
      if (cause) this.log(`sdb socket error: ${cause.message}`);
      this.onClosed(this.transportEnded(cause));
    });
  }

  get endpoint(): string {
    return `${this.host}:${this.port}`;
  }

  /** Suspend levels this client holds: its own VM.SUSPENDs plus ALL-policy event sets. */
  get suspendCount(): number {
    return this.ledger.levels;
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined || this.closing;
  }

  /** Why the connection ended, once it has. */
  get closeReason(): Error | undefined {
    return this.closedReason;
  }

  get pendingRequests(): number {
    return this.pipeline.pending;
  }

  /** Reads merged into another read's command so far (see read-coalescer.ts). */
  get mergedReads(): number {
    return this.pipeline.mergedReads;
  }

  /** Connects over TCP, then as over(). */
  static async connect(options: ConnectOptions): Promise<SdbConnection> {
    const opts = { ...DEFAULTS, ...options };
    return SdbConnection.start(await connectSocket(opts), opts);
  }

  /**
   * Handshakes over an open transport, negotiates the protocol version and waits for VM_START.
   * `port` (and `host`) only name the connection in messages.
   */
  static over(transport: Transport, options: ConnectOptions): Promise<SdbConnection> {
    return SdbConnection.start(transport, { ...DEFAULTS, ...options });
  }

  private static async start(transport: Transport, opts: ResolvedOptions): Promise<SdbConnection> {
    const whenLate = opts.whenLate;
    const leftover = await exchangeHandshake(
      transport,
      `${opts.host}:${opts.port}`,
      opts.handshakeTimeoutMs,
      whenLate &&
        ((late) => whenLate(late.then((rest) => SdbConnection.open(transport, opts, rest)))),
    );
    return SdbConnection.open(transport, opts, leftover);
  }

  /** After the handshake: version negotiation, VM_START, the start suspension. */
  private static async open(
    transport: Transport,
    opts: ResolvedOptions,
    leftover: Buffer,
  ): Promise<SdbConnection> {
    const conn = new SdbConnection(transport, opts);
    try {
      const { startSuspended } = await negotiate(
        conn,
        opts.handshakeTimeoutMs,
        () => {
          if (leftover.length > 0) conn.inbound.push(leftover);
        },
        opts.keepStartSuspended,
      );
      if (startSuspended) {
        conn.ledger.noteStartSuspension(); // close() resumes it like any level we hold
        conn.startSuspended = true;
      }
      return conn;
    } catch (e) {
      await conn.close();
      throw e;
    }
  }

  /** Sends a typed command and resolves with its decoded reply. Many may be in flight at once. */
  send<K extends CommandName>(name: K, ...args: SendArgs<K>): Promise<ResultOf<K>> {
    if (this.closing) {
      return Promise.reject(
        new SdbConnectionClosedError(`${name}: the connection to ${this.endpoint} is closing`),
      );
    }
    return awaitedBy(this.pipeline.submit(name, args[0] as ParamsOf<K>, args[1]));
  }

  /** Subscribes to event sets; returns the unsubscribe function. Delivery never delays replies. */
  onEvent(listener: EventListener): () => void {
    return this.delivery.onEvent(listener);
  }

  onClose(listener: CloseListener): () => void {
    return this.delivery.onClose(listener);
  }

  /** Resolves with the first event set that `match` accepts, or rejects after `timeoutMs`. */
  waitForEvent(match: (set: EventSet) => boolean, timeoutMs: number): Promise<EventSet> {
    return this.delivery.waitForEvent(match, timeoutMs);
  }

  /**
   * Resumes every suspend level this client holds, sends VM.DISPOSE and closes the transport,
   * all within the close bound. Safe to call any number of times, from any state.
   */
  close(): Promise<void> {
    this.closePromise ??= this.closeGracefully();
    return this.closePromise;
  }

  /** UTF-16 length of a string object, asked once per string (strings never change). */
  stringLength(stringId: number): Promise<number> {
    return this.lookups.stringLength(stringId);
  }

  /** An array's rank and dimensions, asked once per array (an array's shape never changes). */
  arrayShape(arrayId: number): Promise<ArrayLength> {
    return this.lookups.arrayShape(arrayId);
  }

  private async closeGracefully(): Promise<void> {
    this.closing = true;
    if (this.closedReason === undefined) await closeInOrder(this.closeSteps, this.closeTimeoutMs);
    this.onClosed(this.closedByThisClient());
  }

  /** For when the stream can no longer be trusted (see closeUnheard). */
  private abort(reason: Error): void {
    if (this.closedReason) return;
    this.log(`sdb abort: ${reason.message}`);
    this.closing = true;
    closeUnheard(this.closeSteps, this.closeTimeoutMs);
    this.onClosed(reason);
  }

  private sendInternal<K extends CommandName>(
    name: K,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    return this.pipeline.send(name, params, options);
  }

  private pipelineHooks(): PipelineHooks {
    return {
      guardContext: this.lookups.guardContext(this),
      write: (packet) => {
        this.stats.bytesSent += packet.length;
        this.transport.write(packet);
      },
      afterReply: (name, params, value) => {
        this.ledger.noteReply(name);
        this.lookups.noteReply(name, params, value);
      },
      afterSend: (name, id, params, reply) => this.ledger.noteSent(name, id, params, reply),
    };
  }

  private inboundHooks(): InboundHooks {
    return {
      log: this.log,
      reply: (packet) => this.pipeline.resolve(packet),
      eventPolicy: (policy) => this.ledger.noteEventSet(policy),
      event: (set) => {
        for (const ev of set.events) {
          if (ev.kind === 'VM_START')
            this.vmStart = { threadId: ev.threadId, rootDomainId: ev.rootDomainId };
        }
        this.delivery.push(set);
      },
      corrupt: (reason) => this.abort(reason),
    };
  }

  /** Why the transport's close ended the connection: our own close() is not the agent's doing. */
  private transportEnded(cause: Error | undefined): Error {
    const at = this.endpoint;
    if (cause)
      return new SdbConnectionClosedError(`connection to ${at} failed: ${cause.message}`, {
        cause,
      });
    if (this.closing) return this.closedByThisClient();
    return new SdbConnectionClosedError(`the agent at ${at} closed the connection`);
  }

  private closedByThisClient(): Error {
    return new SdbConnectionClosedError(
      `the connection to ${this.endpoint} was closed by this client`,
    );
  }

  private onClosed(reason: Error): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.closing = true;
    this.pipeline.rejectAll(reason);
    this.delivery.closed(reason);
  }
}

/**
 * `reply`, or its failure as an error of this caller's own (one failure may end many requests)
 * whose stack shows who awaited the request: made in a rejection handler of the request's
 * promise, the stack holds V8's async frames of the callers that await it (V8 follows a promise
 * chain to the function awaiting its end), not the socket callback that noticed the failure. A
 * request that succeeds pays one promise for it (capturing each send's stack cost 15-50 µs).
 */
function awaitedBy<T>(reply: Promise<T>): Promise<T> {
  return reply.catch(ownCopy);
}

function ownCopy(e: unknown): never {
  if (!(e instanceof SdbError)) throw e;
  const copy = Object.create(Object.getPrototypeOf(e) as object) as Error;
  Object.assign(copy, e);
  copy.message = e.message;
  if (e.cause !== undefined) copy.cause = e.cause;
  Error.captureStackTrace(copy, ownCopy);
  throw copy;
}
