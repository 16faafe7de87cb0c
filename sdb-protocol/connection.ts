// One debugger connection to a Mono agent: handshake, version negotiation, pipelined typed
// requests, event delivery, and a close that always resumes what we suspended and sends
// VM.DISPOSE (Mono's agent accepts no new debugger after an abrupt close).

import net from 'node:net';

import { PacketReader } from './buffer-reader.js';
import { PacketWriter } from './buffer-writer.js';
import { CallbackRegistry } from './callback-registry.js';
import type { CommandDef, GuardContext } from './command.js';
import {
  commands,
  flatLength,
  readInvokeResult,
  type CommandName,
  type InvokeResult,
  type ParamsOf,
  type ResultOf,
  type VmVersion,
} from './commands/index.js';
import {
  SdbAgentError,
  SdbConnectionClosedError,
  SdbHandshakeError,
  SdbProtocolError,
  SdbUnsupportedError,
  isAgentError,
} from './errors.js';
import { readEventSet, type EventSet } from './events.js';
import { PacketFramer, writeCommandHeader, type Packet, type ReplyPacket } from './framing.js';
import { KnownIds } from './known-ids.js';
import { ReadCoalescer, isCoalescable, type ReadParams } from './read-coalescer.js';
import {
  CommandSet,
  ErrorCode,
  EVENT_COMPOSITE,
  HANDSHAKE,
  HEADER_SIZE,
  SuspendPolicy,
  TypeInfoFlags,
} from './vocabulary.js';
import { ProtocolVersion } from './version.js';

export interface ConnectOptions {
  host?: string;
  port: number;
  /** TCP connect bound. */
  connectTimeoutMs?: number;
  /** Bound on the agent's handshake bytes (a listening socket may never answer: trap 18). */
  handshakeTimeoutMs?: number;
  /** Default bound of every request. */
  requestTimeoutMs?: number;
  /** Bound of the whole close sequence (resume, dispose, socket close). */
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

export interface SendOptions {
  timeoutMs?: number;
  /** Called with the packet id once the request is written (ABORT_INVOKE needs it). */
  onSent?: (packetId: number) => void;
}

type SendArgs<K extends CommandName> =
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

export type EventListener = (set: EventSet) => void;
export type CloseListener = (reason: Error) => void;

const DEFAULTS = {
  host: '127.0.0.1',
  connectTimeoutMs: 3000,
  handshakeTimeoutMs: 3000,
  requestTimeoutMs: 10_000,
  closeTimeoutMs: 1500,
};

export class SdbConnection {
  readonly host: string;
  readonly port: number;
  /** The version both sides use: min(agent, what this client implements). */
  version: ProtocolVersion = ProtocolVersion.UNSET;
  agent: VmVersion = { description: '', major: 0, minor: 0 };
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

  private readonly registry = new CallbackRegistry();
  private readonly framer: PacketFramer;
  private readonly requestTimeoutMs: number;
  private readonly closeTimeoutMs: number;
  private readonly log: (message: string) => void;
  private readonly eventListeners = new Set<EventListener>();
  private readonly closeListeners = new Set<CloseListener>();
  private readonly arrayLengths = new Map<number, number>();
  private readonly stringLengths = new Map<number, number>();
  private readonly valueTypes = new Map<number, boolean>();
  /** Invokes in flight, by packet id: close() aborts them first (see closeGracefully). */
  private readonly invokes = new Map<number, { threadId: number; settled: Promise<unknown> }>();
  private pendingEvents: EventSet[] = [];
  private eventFlushScheduled = false;
  private corked = false;
  private inTick = false;
  private suspends = 0;
  private closing = false;
  private closedReason: Error | undefined;
  private closePromise: Promise<void> | undefined;
  private socketClosed: Promise<void>;

  private readonly guardContext: GuardContext;
  private readonly coalescer: ReadCoalescer | undefined;

  private constructor(
    private readonly socket: net.Socket,
    reader: SocketReader,
    opts: Required<Pick<ConnectOptions, 'host' | 'port' | 'requestTimeoutMs' | 'closeTimeoutMs'>> &
      ConnectOptions,
  ) {
    this.host = opts.host;
    this.port = opts.port;
    this.requestTimeoutMs = opts.requestTimeoutMs;
    this.closeTimeoutMs = opts.closeTimeoutMs;
    this.log = opts.log ?? (() => undefined);
    this.framer = new PacketFramer(opts.maxPacketBytes);
    const self = this; // eslint-disable-line @typescript-eslint/no-this-alias
    this.guardContext = {
      get version() {
        return self.version;
      },
      get suspendCount() {
        return self.suspends;
      },
      arrayLength: (id) => this.arrayLength(id),
      stringLength: (id) => this.stringLength(id),
      isValueType: (id) => this.isValueType(id),
    };
    if (opts.coalesceReads !== false) {
      this.coalescer = new ReadCoalescer({
        send: (name, params, options) =>
          this.sendInternal(name, params as ParamsOf<typeof name>, options),
        checkIds: (params) => {
          if ('typeId' in params) this.knownIds.check('type', params.typeId);
          for (const f of params.fieldIds) this.knownIds.check('field', f);
        },
      });
    }
    this.socketClosed = new Promise((resolve) => socket.once('close', () => resolve()));
    reader.sink = (chunk) => this.onData(chunk);
    socket.on('error', (err) => {
      this.log(`sdb socket error: ${err.message}`);
      this.onClosed(
        new SdbConnectionClosedError(`connection to ${this.endpoint} failed: ${err.message}`, {
          cause: err,
        }),
      );
    });
    socket.on('close', () => {
      this.onClosed(
        new SdbConnectionClosedError(`the agent at ${this.endpoint} closed the connection`),
      );
    });
  }

  get endpoint(): string {
    return `${this.host}:${this.port}`;
  }

  /** Suspend levels this client holds: its own VM.SUSPENDs plus ALL-policy event sets. */
  get suspendCount(): number {
    return this.suspends;
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined || this.closing;
  }

  /** Why the connection ended, once it has. */
  get closeReason(): Error | undefined {
    return this.closedReason;
  }

  get pendingRequests(): number {
    return this.registry.size;
  }

  /** Connects, handshakes, negotiates the protocol version and waits for VM_START. */
  static async connect(options: ConnectOptions): Promise<SdbConnection> {
    const opts = { ...DEFAULTS, ...options };
    const { socket, reader, leftover } = await openAndHandshake(opts);
    const conn = new SdbConnection(socket, reader, opts);
    const started = conn.waitForVmStart(opts.handshakeTimeoutMs);
    try {
      if (leftover.length > 0) conn.onData(leftover);
      conn.agent = await conn.send('VM.VERSION');
      if (conn.agent.major !== 2) {
        throw new SdbHandshakeError(
          `agent at ${conn.endpoint} speaks protocol ${conn.agent.major}.${conn.agent.minor}; only 2.x is supported`,
        );
      }
      const declared = ProtocolVersion.negotiate(conn.agent.major, conn.agent.minor);
      await conn.send('VM.SET_PROTOCOL_VERSION', { major: declared.major, minor: declared.minor });
      conn.version = declared;
      await started;
      if (opts.keepStartSuspended && (await conn.waitingAtStart())) {
        // ours from now on: close() resumes it like any level we hold
        conn.suspends++;
        conn.startSuspended = true;
        return conn;
      }
      // With suspend=y the VM sits suspended after VM_START although the event says policy NONE
      // (trap 9); in deferred mode this RESUME answers NOT_SUSPENDED, which is fine.
      await conn.send('VM.RESUME').catch((e: unknown) => {
        if (!isAgentError(e, ErrorCode.NOT_SUSPENDED)) throw e;
      });
      return conn;
    } catch (e) {
      await conn.close();
      throw e;
    }
  }

  /**
   * Whether the game is waiting for its debugger at start (suspend=y): VM_START then comes as the
   * runtime starts, before the program's own assembly is loaded, so the root domain holds the
   * core library alone. A running game (deferred attach, suspend=n; or one frozen by a client
   * that left mid-invoke, which connect must release) has loaded its program.
   */
  private async waitingAtStart(): Promise<boolean> {
    const domainId = this.vmStart?.rootDomainId;
    if (domainId === undefined) return false;
    const assemblies = await this.send('APPDOMAIN.GET_ASSEMBLIES', { domainId });
    this.log(`sdb: ${assemblies.length} assemblies loaded at VM_START`);
    return assemblies.length <= 1;
  }

  /** Sends a typed command and resolves with its decoded reply. Many may be in flight at once. */
  send<K extends CommandName>(name: K, ...args: SendArgs<K>): Promise<ResultOf<K>> {
    if (this.closing) {
      return Promise.reject(
        new SdbConnectionClosedError(`${name}: the connection to ${this.endpoint} is closing`),
      );
    }
    const params = args[0] as ParamsOf<K>;
    const options = args[1];
    if (this.coalescer && isCoalescable(name, options) && !this.closedReason) {
      try {
        return this.coalescer.offer(name, params as unknown as ReadParams, options) as Promise<
          ResultOf<K>
        >;
      } catch (e) {
        return Promise.reject(asError(e));
      }
    }
    return this.sendInternal(name, params, options);
  }

  /** Reads merged into another read's command so far (see read-coalescer.ts). */
  get mergedReads(): number {
    return this.coalescer?.merged ?? 0;
  }

  /** Subscribes to event sets; returns the unsubscribe function. Delivery never delays replies. */
  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onClose(listener: CloseListener): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Resolves with the first event set that `match` accepts, or rejects after `timeoutMs`. */
  waitForEvent(match: (set: EventSet) => boolean, timeoutMs: number): Promise<EventSet> {
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        offEvent();
        offClose();
      };
      const timer = setTimeout(() => {
        stop();
        reject(new SdbProtocolError(`no matching event within ${timeoutMs} ms`));
      }, timeoutMs);
      const offEvent = this.onEvent((set) => {
        if (!match(set)) return;
        stop();
        resolve(set);
      });
      const offClose = this.onClose((reason) => {
        stop();
        reject(reason);
      });
    });
  }

  /**
   * Resumes every suspend level this client holds, sends VM.DISPOSE and closes the socket, all
   * within the close bound. Safe to call any number of times, from any state.
   */
  close(): Promise<void> {
    this.closePromise ??= this.closeGracefully();
    return this.closePromise;
  }

  private async closeGracefully(): Promise<void> {
    this.closing = true;
    const deadline = Date.now() + this.closeTimeoutMs;
    const left = (): number => Math.max(1, deadline - Date.now());
    if (this.closedReason === undefined) {
      try {
        // An invoke still running when DISPOSE resumes the VM re-suspends it when it returns,
        // leaving the game frozen with nobody attached: abort invokes and let them finish first.
        if (this.invokes.size > 0) {
          const running = [...this.invokes.entries()];
          await Promise.allSettled(
            running.map(([invokeId, { threadId }]) =>
              this.sendInternal('VM.ABORT_INVOKE', { threadId, invokeId }, { timeoutMs: left() }),
            ),
          );
          await Promise.race([
            Promise.allSettled(running.map(([, r]) => r.settled)),
            new Promise((r) => setTimeout(r, left() / 2).unref()),
          ]);
        }
        while (this.suspends > 0) {
          try {
            await this.sendInternal('VM.RESUME', undefined, { timeoutMs: left() });
          } catch (e) {
            if (isAgentError(e, ErrorCode.NOT_SUSPENDED)) break;
            throw e;
          }
        }
        await this.sendInternal('VM.DISPOSE', undefined, { timeoutMs: left() });
        // DISPOSE answered: every byte we wrote was read. Mono's agent does not close its end
        // (in deferred mode it just starts accepting the next client), so do not wait for it.
        this.socket.destroy();
      } catch (e) {
        this.log(`sdb close: ${(e as Error).message}`);
        this.socket.end();
        setTimeout(() => this.socket.destroy(), left()).unref();
      }
      await this.socketClosed;
    }
    this.onClosed(
      new SdbConnectionClosedError(`the connection to ${this.endpoint} was closed by this client`),
    );
  }

  /**
   * For when the stream can no longer be trusted: writes RESUMEs and DISPOSE without waiting
   * for replies (the agent still reads them in order), then drops the socket.
   */
  private abort(reason: Error): void {
    if (this.closedReason) return;
    this.log(`sdb abort: ${reason.message}`);
    this.closing = true;
    try {
      for (let i = 0; i < this.suspends; i++) this.writeRaw('VM.RESUME');
      this.writeRaw('VM.DISPOSE');
      this.socket.end();
    } catch {
      // the socket is already gone
    }
    setTimeout(() => this.socket.destroy(), this.closeTimeoutMs).unref();
    this.onClosed(reason);
  }

  private writeRaw(name: 'VM.RESUME' | 'VM.DISPOSE'): void {
    const def = commands[name];
    const w = new PacketWriter(undefined, HEADER_SIZE);
    const packet = w.finish();
    writeCommandHeader(packet, this.registry.nextId(), CommandSet[def.set], def.command);
    this.socket.write(packet);
  }

  private sendInternal<K extends CommandName>(
    name: K,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    try {
      this.throwIfClosed();
      // a pending batch of reads leaves before this command: reads never move across others
      this.coalescer?.flush();
      const def = commands[name] as unknown as CommandDef<ParamsOf<K>, ResultOf<K>>;
      if (
        def.since !== undefined &&
        this.version !== ProtocolVersion.UNSET &&
        !this.version.atLeast(def.since)
      ) {
        throw new SdbUnsupportedError(
          `${name} needs protocol 2.${def.since}; the agent at ${this.endpoint} speaks ${this.version.toString()}`,
        );
      }
      const pending = def.guard?.(params, this.guardContext);
      if (pending) return this.dispatchAfter(pending, name, def, params, options);
      return this.dispatch(name, def, params, options);
    } catch (e) {
      return Promise.reject(asError(e));
    }
  }

  /** For guards that ask the agent first (array and string lengths, value types). */
  private async dispatchAfter<K extends CommandName>(
    guard: Promise<void>,
    name: K,
    def: CommandDef<ParamsOf<K>, ResultOf<K>>,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    await guard;
    this.throwIfClosed();
    return this.dispatch(name, def, params, options);
  }

  /** Encodes, registers and writes one request, synchronously; the promise is its reply. */
  private dispatch<K extends CommandName>(
    name: K,
    def: CommandDef<ParamsOf<K>, ResultOf<K>>,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    const version = this.version;
    const w = new PacketWriter(this.knownIds, HEADER_SIZE);
    def.encode(w, params, version);
    const packet = w.finish();
    const id = this.registry.nextId();
    writeCommandHeader(packet, id, CommandSet[def.set], def.command);

    const timeoutMs = options?.timeoutMs ?? this.requestTimeoutMs;
    const result = new Promise<ResultOf<K>>((resolve, reject) => {
      if (def.replies) {
        const collect = this.collectInvokeReplies(
          name,
          def.replies(params),
          version,
          resolve as (r: InvokeResult[]) => void,
          reject,
        );
        this.registry.register(id, name, timeoutMs, collect, reject);
        return;
      }
      this.registry.register(
        id,
        name,
        timeoutMs,
        (reply, decorate) => {
          if (reply.errorCode !== 0) {
            reject(decorate(agentError(name, reply)));
            return true;
          }
          let value: ResultOf<K>;
          try {
            value = def.decode(new PacketReader(reply.body, this.knownIds), version, params);
          } catch (e) {
            reject(
              decorate(
                e instanceof SdbProtocolError
                  ? new SdbProtocolError(`${name} reply: ${e.message}`)
                  : (e as Error),
              ),
            );
            return true;
          }
          this.afterReply(name, params, value);
          resolve(value);
          return true;
        },
        reject,
      );
    });
    this.write(packet);
    this.stats.commandsSent++;
    if (def.set === 'VM' && (def.command === 7 || def.command === 13)) {
      const threadId = (params as { threadId: number }).threadId;
      const settled = result.then(
        () => this.invokes.delete(id),
        () => this.invokes.delete(id),
      );
      this.invokes.set(id, { threadId, settled });
    }
    options?.onSent?.(id);
    return result;
  }

  private throwIfClosed(): void {
    if (this.closedReason) throw this.closedReason;
  }

  /**
   * VM.INVOKE_METHODS: one reply per call with the request's id, plus the agent thread's own
   * acknowledgement (error 0, empty body). The acknowledgement races the invoking thread, so it
   * may come anywhere; a real result always has at least its flags byte. A command refused
   * outright (NOT_SUSPENDED, a dead thread) gets a single error reply.
   */
  private collectInvokeReplies(
    name: string,
    expected: number,
    version: ProtocolVersion,
    resolve: (r: InvokeResult[]) => void,
    reject: (e: Error) => void,
  ): (reply: ReplyPacket, decorate: (e: Error) => Error) => boolean {
    const results: InvokeResult[] = [];
    let acknowledged = false;
    return (reply, decorate) => {
      if (reply.errorCode !== 0) {
        // The agent fails the remaining calls with the same error; report the first.
        reject(decorate(agentError(`${name} (call ${results.length + 1} of ${expected})`, reply)));
        return true;
      }
      if (!acknowledged && reply.body.length === 0) {
        acknowledged = true;
        return false;
      }
      try {
        results.push(readInvokeResult(new PacketReader(reply.body, this.knownIds), version));
      } catch (e) {
        reject(decorate(new SdbProtocolError(`${name} reply: ${(e as Error).message}`)));
        return true;
      }
      if (results.length < expected) return false;
      resolve(results);
      return true;
    };
  }

  /** Bookkeeping that follows from a successful reply. */
  private afterReply(name: CommandName, params: unknown, value: unknown): void {
    if (name === 'VM.SUSPEND') this.suspends++;
    else if (name === 'VM.RESUME') this.suspends = Math.max(0, this.suspends - 1);
    else if (name === 'ARRAY_REF.GET_LENGTH') {
      const { arrayId } = params as ParamsOf<'ARRAY_REF.GET_LENGTH'>;
      if (this.arrayLengths.size > 50_000) this.arrayLengths.clear();
      this.arrayLengths.set(arrayId, flatLength(value as ResultOf<'ARRAY_REF.GET_LENGTH'>));
    }
  }

  /** UTF-16 length of a string object, asked once per string (strings never change). */
  async stringLength(stringId: number): Promise<number> {
    let n = this.stringLengths.get(stringId);
    if (n === undefined) {
      n = await this.sendInternal('STRING_REF.GET_LENGTH', { objectId: stringId }, undefined);
      if (this.stringLengths.size > 50_000) this.stringLengths.clear();
      this.stringLengths.set(stringId, n);
    }
    return n;
  }

  /**
   * TYPE.GET_INFO's value-type bit is absent on generic struct instances (Nullable<int> shows
   * only the generic bit), so a type whose base is System.ValueType or System.Enum counts too.
   */
  private async isValueType(typeId: number): Promise<boolean> {
    let known = this.valueTypes.get(typeId);
    if (known === undefined) {
      const info = await this.sendInternal('TYPE.GET_INFO', { typeId }, undefined);
      known =
        (info.flags & (TypeInfoFlags.PRIMITIVE | TypeInfoFlags.VALUE_TYPE | TypeInfoFlags.ENUM)) !==
        0;
      if (!known && info.baseTypeId !== 0) {
        const base = await this.sendInternal(
          'TYPE.GET_INFO',
          { typeId: info.baseTypeId },
          undefined,
        );
        known = base.fullName === 'System.ValueType' || base.fullName === 'System.Enum';
      }
      this.valueTypes.set(typeId, known);
    }
    return known;
  }

  /** Array lengths never change, so each array's is fetched at most once per connection. */
  private async arrayLength(arrayId: number): Promise<number> {
    const known = this.arrayLengths.get(arrayId);
    if (known !== undefined) return known;
    await this.sendInternal('ARRAY_REF.GET_LENGTH', { arrayId }, undefined);
    return this.arrayLengths.get(arrayId) ?? 0;
  }

  private write(packet: Buffer): void {
    this.stats.bytesSent += packet.length;
    // The first request of a tick leaves at once (a lone request waits for nothing); the rest
    // of the tick's requests leave together in one write: a pipelined burst costs one syscall.
    if (!this.inTick) {
      this.inTick = true;
      process.nextTick(() => {
        this.inTick = false;
        if (this.corked) {
          this.corked = false;
          this.socket.uncork();
        }
      });
    } else if (!this.corked) {
      this.corked = true;
      this.socket.cork();
    }
    this.socket.write(packet);
  }

  private onData(chunk: Buffer): void {
    this.stats.bytesReceived += chunk.length;
    const packets = this.framer.push(chunk);
    for (const p of packets) this.onPacket(p);
    if (this.framer.error)
      this.abort(
        new SdbConnectionClosedError(
          `connection to ${this.endpoint} dropped: ${this.framer.error.message}`,
          { cause: this.framer.error },
        ),
      );
  }

  private onPacket(p: Packet): void {
    if (p.kind === 'reply') {
      this.stats.repliesReceived++;
      if (!this.registry.resolve(p))
        this.log(`sdb: reply ${p.id} matches no pending request (timed out earlier?)`);
      return;
    }
    if (p.commandSet !== CommandSet.EVENT || p.command !== EVENT_COMPOSITE) {
      this.log(`sdb: ignoring agent command ${p.commandSet}/${p.command}`);
      return;
    }
    this.stats.eventSetsReceived++;
    // Count the suspension before anything can fail: an undecodable ALL-policy set still
    // suspended the VM, and close() must resume it.
    if (p.body[0] === SuspendPolicy.ALL) this.suspends++;
    let set: EventSet;
    try {
      set = readEventSet(new PacketReader(p.body, this.knownIds), this.version);
    } catch (e) {
      this.log(`sdb: undecodable event set: ${(e as Error).message}`);
      return;
    }
    for (const ev of set.events) {
      if (ev.kind === 'VM_START')
        this.vmStart = { threadId: ev.threadId, rootDomainId: ev.rootDomainId };
    }
    this.pendingEvents.push(set);
    if (!this.eventFlushScheduled) {
      this.eventFlushScheduled = true;
      setImmediate(() => this.flushEvents());
    }
  }

  private flushEvents(): void {
    this.eventFlushScheduled = false;
    const sets = this.pendingEvents;
    this.pendingEvents = [];
    for (const set of sets) {
      for (const listener of [...this.eventListeners]) {
        try {
          listener(set);
        } catch (e) {
          this.log(`sdb: event listener threw: ${(e as Error).message}`);
        }
      }
    }
  }

  private waitForVmStart(timeoutMs: number): Promise<void> {
    if (this.vmStart) return Promise.resolve();
    return this.waitForEvent((s) => s.events.some((e) => e.kind === 'VM_START'), timeoutMs).then(
      () => undefined,
      (e: unknown) => {
        throw e instanceof SdbConnectionClosedError
          ? e
          : new SdbHandshakeError(
              `agent at ${this.endpoint} sent no VM_START within ${timeoutMs} ms`,
            );
      },
    );
  }

  private onClosed(reason: Error): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.closing = true;
    this.registry.rejectAll(reason);
    for (const listener of [...this.closeListeners]) {
      try {
        listener(reason);
      } catch (e) {
        this.log(`sdb: close listener threw: ${(e as Error).message}`);
      }
    }
    this.closeListeners.clear();
  }
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function agentError(command: string, reply: ReplyPacket): SdbAgentError {
  // Error bodies are mostly unspecified (INVOKE_ABORTED carries the exception, a failed
  // GET_VALUES partial output). Only an INVALID_ARGUMENT body that is exactly one string is read
  // as the message newer agents add.
  let message: string | undefined;
  if (reply.errorCode === ErrorCode.INVALID_ARGUMENT && reply.body.length >= 4) {
    if (reply.body.readInt32BE(0) === reply.body.length - 4) {
      message = reply.body.toString('utf8', 4) || undefined;
    }
  }
  return new SdbAgentError(command, reply.errorCode, message);
}

/**
 * Where the socket's bytes go. The socket reads into one reused buffer (no allocation and no
 * stream machinery per read), so a sink must consume each chunk before it returns: the framer
 * copies only what it keeps across reads.
 */
interface SocketReader {
  sink: (chunk: Buffer) => void;
}

const READ_BUFFER_BYTES = 256 * 1024;

async function openAndHandshake(
  opts: typeof DEFAULTS & ConnectOptions,
): Promise<{ socket: net.Socket; reader: SocketReader; leftover: Buffer }> {
  const endpoint = `${opts.host}:${opts.port}`;
  const reader: SocketReader = { sink: () => undefined };
  const socket = net.connect({
    host: opts.host,
    port: opts.port,
    onread: {
      buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      callback: (nread: number, buf: Uint8Array) => {
        reader.sink(Buffer.from(buf.buffer, buf.byteOffset, nread));
        return true;
      },
    },
  });
  socket.setNoDelay(true);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new SdbConnectionClosedError(
              `TCP connect to ${endpoint} timed out after ${opts.connectTimeoutMs} ms`,
            ),
          ),
        opts.connectTimeoutMs,
      );
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(
          new SdbConnectionClosedError(
            `cannot connect to the debugger agent at ${endpoint}: ${err.message}`,
            { cause: err },
          ),
        );
      });
    });
    const expected = Buffer.from(HANDSHAKE, 'ascii');
    const received = await new Promise<Buffer>((resolve, reject) => {
      let got = Buffer.alloc(0);
      const cleanup = (): void => {
        clearTimeout(timer);
        reader.sink = () => undefined;
        socket.off('close', onClose);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new SdbHandshakeError(
            `the debugger agent at ${endpoint} accepted the connection but sent no handshake within ` +
              `${opts.handshakeTimeoutMs} ms (another debugger may hold it, or an earlier client ` +
              `left without VM.DISPOSE, after which Mono accepts no new debugger)`,
          ),
        );
      }, opts.handshakeTimeoutMs);
      const onData = (chunk: Buffer): void => {
        got = Buffer.concat([got, chunk]); // a copy: the read buffer is reused
        if (got.length >= expected.length) {
          cleanup();
          resolve(got);
        }
      };
      const onClose = (): void => {
        cleanup();
        reject(
          new SdbHandshakeError(
            `the debugger agent at ${endpoint} closed the connection during the handshake`,
          ),
        );
      };
      reader.sink = onData;
      socket.once('close', onClose);
    });
    if (!received.subarray(0, expected.length).equals(expected)) {
      throw new SdbHandshakeError(
        `${endpoint} is not a Mono debugger agent (handshake was ${JSON.stringify(received.subarray(0, 13).toString('latin1'))})`,
      );
    }
    socket.write(expected);
    socket.removeAllListeners('error');
    return { socket, reader, leftover: received.subarray(expected.length) };
  } catch (e) {
    socket.destroy();
    throw e;
  }
}
