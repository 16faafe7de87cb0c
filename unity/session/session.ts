// The one debugger session of a server process: it attaches lazily on the first call that needs
// the game, keeps that connection for every later call, and gives each operation a counted
// suspend window that is always closed. Holds (suspend/resume across calls) belong to the caller
// that took them. See docs/solutions/session-promises.md for the reasoning behind each rule.

import { SdbConnection, type ConnectOptions, type Value } from '../../sdb-protocol/index.js';
import { Errors, UnityError, fromSdbError, messageOf } from '../errors.js';
import type { InvokeOptions, InvokeOutcome } from '../invoker.js';
import type { TypeCatalog } from '../catalog/index.js';
import { GameConnection } from './game-connection.js';
import { HoldTable } from './holds.js';
import { RwLock } from './rw-lock.js';

/** A game found by discovery, resolved to an endpoint. */
export interface PlayerEndpoint {
  key: string;
  label: string;
  host: string;
  port: number;
  /** The beacon's per-run id, when the player came from discovery. */
  guid?: number;
  projectName?: string;
}

/** What the session asks of discovery (unity/discovery implements it). */
export interface PlayerResolver {
  /** No selector: the one visible debuggable player; throws NO_PLAYER / AMBIGUOUS_PLAYER. */
  select(selector?: string): PlayerEndpoint;
  /** The same game after a restart (new run id, maybe a new port), if it is visible. */
  reselect?(previous: PlayerEndpoint): PlayerEndpoint | undefined;
}

export type Target =
  | { kind: 'auto' }
  | { kind: 'player'; selector: string }
  | { kind: 'endpoint'; host: string; port: number };

export interface OperationCost {
  wireCommands: number;
  invokes: number;
  /** How long the game was held by this operation's window (ms). */
  freezeMs: number;
  wallMs: number;
}

export interface OperationResult<T> {
  value: T;
  cost: OperationCost;
}

export interface RunOptions {
  /** Run alone: no other operation starts until this one ends. */
  exclusive?: boolean;
  /** The operation changes the game: refused if the game was replaced since it was chosen. */
  writes?: boolean;
  /** Bound on waiting for other operations (default 30 s). */
  lockWaitMs?: number;
  /**
   * false: run without suspending the game, for reads that need no consistent snapshot (status
   * counters, cursors). Invokes and writes need a window and are refused.
   */
  window?: boolean;
}

/** What an operation may use while its window is open. */
export interface OperationContext {
  /** The attached game: what lives as long as this connection (see GameConnection.part). */
  readonly connection: GameConnection;
  /** connection.conn */
  readonly conn: SdbConnection;
  /** The game's main thread (found on first use, once per connection). */
  mainThread(): Promise<number>;
  /** Types and members of the game, cached per connection (connection.catalog). */
  readonly catalog: TypeCatalog;
  invoke(
    methodId: number,
    thisArg: Value,
    args: readonly Value[],
    options?: InvokeOptions,
  ): Promise<InvokeOutcome>;
  /** Call before sending anything that changes the game (SET_VALUES, an invoke that writes). */
  markWrite(): void;
}

export interface SessionOptions {
  /** Where the session points before any attach (default: auto, the one visible player). */
  target?: Target;
  players?: PlayerResolver;
  /**
   * Awaited before a player is chosen from discovery (not for an endpoint target): a server
   * that has just started waits here, boundedly, for the first beacons.
   */
  beforeSelect?: () => Promise<void>;
  /** Why discovery is unavailable, when it is (shown in errors and status). */
  discoveryProblem?: string;
  connectTimeoutMs?: number;
  handshakeTimeoutMs?: number;
  parkTimeoutMs?: number;
  invokeTimeoutMs?: number;
  /** For tests: how a connection is opened. */
  connect?: (options: ConnectOptions) => Promise<SdbConnection>;
  log?: (message: string) => void;
}

export interface SessionStatus {
  target: Target;
  attached: boolean;
  endpoint?: string;
  player?: PlayerEndpoint;
  protocol?: string;
  runtime?: string;
  connects: number;
  holds: { caller: string; count: number }[];
  /** Operations running now, and for whom. */
  operations: { caller: string; label: string }[];
  replaced?: { expected: string; found: string };
  lastDrop?: string;
}

/**
 * Something layered on the session that leaves state in the game beyond a window: breakpoints,
 * step requests, and pauses the game entered by itself at an event (unity/debug). The session
 * calls these hooks so that detach, shutdown, drops and departing callers undo that state too.
 * Event pauses need no hook for the resume: the connection counts an ALL-policy event set as a
 * suspend level it holds, and close() resumes every level it holds.
 */
export interface SessionExtension {
  /**
   * Detach/shutdown is about to close `conn`: queue (never await: detach waits on nothing) the
   * commands that remove the extension's requests. They leave before close()'s RESUMEs and
   * DISPOSE, and the agent runs commands in order.
   */
  beforeClose?(conn: SdbConnection): void;
  /** `conn` is gone (closed, dropped, replaced): forget what lived on it. */
  connectionEnded?(conn: SdbConnection): void;
  /** A caller went away: release what it owned (its pause, its breakpoints). */
  callerGone?(caller: string): Promise<void>;
  /**
   * True when invokes must leave the other threads suspended: a thread other than the main one
   * is stopped at an event the extension keeps, and must not run on during the call.
   */
  keepThreadsStopped?(mainThreadId: number): boolean;
}

export class GameSession {
  /** Connections opened so far (one per process run against one game, unless it drops). */
  connects = 0;
  private target: Target = { kind: 'auto' };
  private attachment: GameConnection | undefined;
  private attaching: Promise<GameConnection> | undefined;
  /** The game this session was pointed at; writes are refused when another one answers. */
  private baseline: string | undefined;
  private replaced: { expected: string; found: string } | undefined;
  private lastDrop: string | undefined;
  /** The player last attached to, kept across drops to find it again. */
  private lastPlayer: PlayerEndpoint | undefined;
  private readonly holds = new HoldTable();
  private readonly lock = new RwLock();
  private readonly running = new Map<number, { caller: string; label: string }>();
  private nextOperation = 0;
  private closed = false;
  private readonly log: (message: string) => void;
  private readonly extensions = new Set<SessionExtension>();

  constructor(private readonly opts: SessionOptions = {}) {
    this.log = opts.log ?? (() => undefined);
    if (opts.target) this.target = opts.target;
  }

  /** Registers an extension (see SessionExtension); returns the unregister function. */
  extend(extension: SessionExtension): () => void {
    this.extensions.add(extension);
    return () => this.extensions.delete(extension);
  }

  /**
   * True while an invoke that let every thread run is on the wire (see
   * MainThreadInvoker.allThreadsRunning). Never attaches.
   */
  get invokeRunning(): boolean {
    const a = this.attachment;
    return a?.invokerNow?.allThreadsRunning === true;
  }

  /** The open connection, if any, without attaching (for extensions' own bookkeeping). */
  get connection(): SdbConnection | undefined {
    return this.current?.conn;
  }

  /** The attached game, if its connection is open, without attaching. */
  get current(): GameConnection | undefined {
    const a = this.attachment;
    return a && !a.conn.isClosed ? a : undefined;
  }

  /** How many holds `caller` has, and who else holds the game. Never attaches. */
  holdsOf(caller: string): { mine: number; others: string[] } {
    const holds = this.holds.list();
    return {
      mine: holds.find((h) => h.caller === caller)?.count ?? 0,
      others: holds.filter((h) => h.caller !== caller).map((h) => h.caller),
    };
  }

  /** Never attaches. */
  status(): SessionStatus {
    const a = this.attachment;
    const s: SessionStatus = {
      target: this.target,
      attached: a !== undefined && !a.conn.isClosed,
      connects: this.connects,
      holds: this.holds.list(),
      operations: [...this.running.values()],
    };
    if (a) {
      s.endpoint = a.endpoint;
      if (a.player) s.player = a.player;
      s.protocol = a.conn.version.toString();
      s.runtime = a.conn.agent.description;
    }
    if (this.replaced) s.replaced = this.replaced;
    if (this.lastDrop) s.lastDrop = this.lastDrop;
    return s;
  }

  /**
   * Points the session at a game (a player selector or an explicit endpoint) and attaches now.
   * The game found becomes the one writes are checked against. A game waiting for its debugger
   * (suspend=y) stays held, as a hold of `caller` (see connectNow).
   */
  async attach(target: Target, caller = 'attach'): Promise<SessionStatus> {
    this.throwIfClosed();
    if (
      target.kind === 'endpoint' &&
      (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535)
    ) {
      throw Errors.invalidArgument(`port must be an integer in 1-65535, got ${target.port}`);
    }
    const previous = this.attachment;
    this.target = target;
    this.lastPlayer = undefined;
    this.baseline = undefined;
    this.replaced = undefined;
    if (previous) await this.dropAttachment(previous, 'a new attach');
    await this.ensureAttached(caller);
    return this.status();
  }

  /**
   * The escape hatch: frees the game and the debugger slot without waiting on anything it
   * recovers from (a stuck call, a held lock). Calls in flight fail with CONNECTION_LOST or
   * MAY_HAVE_APPLIED.
   */
  async detach(): Promise<void> {
    const a = this.attachment;
    this.attachment = undefined;
    this.attaching = undefined;
    this.holds.clear();
    if (a) await this.closeWithExtensions(a);
  }

  /** Lets extensions queue their clean-up, then closes (resume every level, DISPOSE). */
  private async closeWithExtensions(a: GameConnection): Promise<void> {
    const conn = a.conn;
    if (!conn.isClosed) {
      for (const x of this.extensions) {
        try {
          x.beforeClose?.(conn);
        } catch (e) {
          this.log(`session: extension clean-up: ${messageOf(e)}`);
        }
      }
    }
    await conn.close();
    this.connectionEnded(a);
  }

  /** Extensions forget the connection, then everything it owned is dropped. */
  private connectionEnded(a: GameConnection): void {
    if (a.ended) return;
    for (const x of this.extensions) {
      try {
        x.connectionEnded?.(a.conn);
      } catch (e) {
        this.log(`session: extension: ${messageOf(e)}`);
      }
    }
    a.end();
  }

  /** Resumes, disposes, and refuses every later call. Bounded by the connection's close bound. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await this.detach();
  }

  /** Runs `op` inside its own suspend window; the window is closed on every path. */
  async run<T>(
    label: string,
    caller: string,
    op: (ctx: OperationContext) => Promise<T>,
    options: RunOptions = {},
  ): Promise<OperationResult<T>> {
    this.throwIfClosed();
    const started = performance.now();
    const release = await this.lock.acquire(
      options.exclusive === true,
      options.lockWaitMs ?? 30_000,
      label,
    );
    const opId = ++this.nextOperation;
    this.running.set(opId, { caller, label });
    try {
      let a = await this.ensureAttached(caller);
      if (options.window === false) {
        if (options.writes)
          throw Errors.invalidArgument(`${label} writes: it needs a suspend window`);
        return await this.withoutWindow(a, label, op, started);
      }
      try {
        await a.conn.send('VM.SUSPEND');
      } catch (e) {
        if (!isDrop(e)) throw fromSdbError(e, a.endpoint);
        // Dropped as the window opens: nothing ran yet, so retry once against a freshly
        // resolved endpoint (the game may have restarted, maybe on another port).
        this.noteDrop(a, e);
        a = await this.ensureAttached(caller);
        try {
          await a.conn.send('VM.SUSPEND');
        } catch (e2) {
          if (isDrop(e2)) this.noteDrop(a, e2);
          throw fromSdbError(e2, a.endpoint);
        }
      }
      return await this.inWindow(a, label, op, options, started);
    } finally {
      this.running.delete(opId);
      release();
    }
  }

  private async inWindow<T>(
    a: GameConnection,
    label: string,
    op: (ctx: OperationContext) => Promise<T>,
    options: RunOptions,
    started: number,
  ): Promise<OperationResult<T>> {
    const windowOpened = performance.now();
    const commandsBefore = a.conn.stats.commandsSent - 1; // the SUSPEND
    let invokes = 0;
    let wrote = false;
    const checkWrite = (): void => {
      if (this.replaced) throw Errors.gameReplaced(this.replaced.expected, this.replaced.found);
      wrote = true;
    };
    try {
      if (options.writes) checkWrite();
      const ctx: OperationContext = {
        connection: a,
        conn: a.conn,
        catalog: a.catalog,
        mainThread: async () => (await a.invoker()).threadId,
        invoke: async (methodId, thisArg, args, o) => {
          const invoker = await a.invoker();
          invokes++;
          wrote = true; // an invoke may change anything
          return invoker.invoke(methodId, thisArg, args, o);
        },
        markWrite: checkWrite,
      };
      const value = await op(ctx);
      return {
        value,
        cost: this.cost(a, commandsBefore, invokes, windowOpened, started),
      };
    } catch (e) {
      if (a.conn.isClosed || isDrop(e)) {
        this.noteDrop(a, e);
        throw wrote
          ? Errors.mayHaveApplied(label, a.endpoint, e)
          : Errors.connectionLost(a.endpoint, e);
      }
      throw fromSdbError(e, a.endpoint);
    } finally {
      // The RESUME is on the wire before we return, and the agent runs commands in order, so
      // nothing can overtake it; its reply is not waited for (one round trip less per
      // operation). A failure is logged, as it would be if we waited.
      if (!a.conn.isClosed) {
        a.conn
          .send('VM.RESUME')
          .catch((e: unknown) => this.log(`closing the window of ${label}: ${messageOf(e)}`));
      }
    }
  }

  private async withoutWindow<T>(
    a: GameConnection,
    label: string,
    op: (ctx: OperationContext) => Promise<T>,
    started: number,
  ): Promise<OperationResult<T>> {
    const before = a.conn.stats.commandsSent;
    const refuse = (): never => {
      throw Errors.invalidArgument(
        `${label} runs without a suspend window: it cannot invoke or write`,
      );
    };
    try {
      const value = await op({
        connection: a,
        conn: a.conn,
        catalog: a.catalog,
        mainThread: refuse,
        invoke: refuse,
        markWrite: refuse,
      });
      return { value, cost: simpleCost(a, before, started) };
    } catch (e) {
      if (a.conn.isClosed || isDrop(e)) {
        this.noteDrop(a, e);
        throw Errors.connectionLost(a.endpoint, e);
      }
      throw fromSdbError(e, a.endpoint);
    }
  }

  private cost(
    a: GameConnection,
    commandsBefore: number,
    invokes: number,
    windowOpened: number,
    started: number,
  ): OperationCost {
    const now = performance.now();
    return {
      wireCommands: a.conn.stats.commandsSent - commandsBefore + 1, // the RESUME to come
      invokes,
      freezeMs: round(now - windowOpened),
      wallMs: round(now - started),
    };
  }

  /** Takes a hold for `caller`: the game stays suspended across calls until released. */
  async hold(caller: string): Promise<OperationResult<{ holds: number }>> {
    const started = performance.now();
    const release = await this.lock.acquire(false, 30_000, 'suspend');
    try {
      const a = await this.ensureAttached(caller);
      const before = a.conn.stats.commandsSent;
      await a.conn.send('VM.SUSPEND').catch((e: unknown) => {
        if (isDrop(e)) this.noteDrop(a, e);
        throw fromSdbError(e, a.endpoint);
      });
      this.holds.add(caller);
      return { value: { holds: this.holds.count(caller) }, cost: simpleCost(a, before, started) };
    } finally {
      release();
    }
  }

  /** Releases one of `caller`'s holds; someone else's only with `force`. */
  async release(caller: string, force = false): Promise<OperationResult<{ holds: number }>> {
    const started = performance.now();
    const owner =
      this.holds.count(caller) > 0 ? caller : force ? this.holds.oldestHolder() : undefined;
    if (!owner)
      throw Errors.holdNotOwned(
        caller,
        this.holds.list().map((h) => h.caller),
      );
    const a = this.attachment;
    this.holds.remove(owner);
    if (!a || a.conn.isClosed)
      return { value: { holds: this.holds.count(caller) }, cost: zeroCost(started) };
    const before = a.conn.stats.commandsSent;
    await a.conn.send('VM.RESUME').catch((e: unknown) => {
      throw fromSdbError(e, a.endpoint);
    });
    return { value: { holds: this.holds.count(caller) }, cost: simpleCost(a, before, started) };
  }

  /** A caller went away (its MCP session closed): its holds are released. */
  async callerGone(caller: string): Promise<void> {
    for (const x of this.extensions)
      await x.callerGone?.(caller).catch((e: unknown) => this.log(messageOf(e)));
    const n = this.holds.count(caller);
    for (let i = 0; i < n; i++)
      await this.release(caller).catch((e: unknown) => this.log(messageOf(e)));
  }

  /** The open connection, or a new one; `caller` is who the attach is for. */
  private ensureAttached(caller: string): Promise<GameConnection> {
    const a = this.attachment;
    if (a && !a.conn.isClosed) return Promise.resolve(a);
    this.attaching ??= this.connectNow(caller).finally(() => (this.attaching = undefined));
    return this.attaching;
  }

  /**
   * Connects. A game that waits for its debugger (agent suspend=y, Unity's "Wait For Managed
   * Debugger") is left suspended: that start suspension becomes a hold of `caller`, so
   * breakpoints can be set in start-up code before `resume` (release) lets it run.
   */
  private async connectNow(caller: string): Promise<GameConnection> {
    this.attachment = undefined;
    if (this.target.kind !== 'endpoint') await this.opts.beforeSelect?.();
    const { host, port, player } = this.resolve(this.lastPlayer);
    const endpoint = `${host}:${port}`;
    let conn: SdbConnection;
    try {
      this.connects++;
      conn = await (this.opts.connect ?? SdbConnection.connect)({
        host,
        port,
        connectTimeoutMs: this.opts.connectTimeoutMs ?? 3000,
        handshakeTimeoutMs: this.opts.handshakeTimeoutMs ?? 3000,
        log: this.log,
        keepStartSuspended: true,
      });
    } catch (e) {
      throw Errors.attachFailed(endpoint, e);
    }
    const identity = await gameIdentity(conn, player).catch(async (e: unknown) => {
      await conn.close();
      throw Errors.attachFailed(endpoint, e);
    });
    if (this.baseline === undefined) this.baseline = identity;
    else if (this.baseline !== identity)
      this.replaced = { expected: this.baseline, found: identity };
    const a = new GameConnection(conn, {
      endpoint,
      identity,
      ...(player ? { player } : {}),
      ...(this.opts.parkTimeoutMs !== undefined ? { parkTimeoutMs: this.opts.parkTimeoutMs } : {}),
      ...(this.opts.invokeTimeoutMs !== undefined
        ? { invokeTimeoutMs: this.opts.invokeTimeoutMs }
        : {}),
      log: this.log,
      singleThreaded: (main) => [...this.extensions].some((x) => x.keepThreadsStopped?.(main)),
    });
    this.lastPlayer = player;
    conn.onClose((reason) => {
      if (this.attachment === a) this.noteDrop(a, reason);
    });
    this.holds.clear(); // a new connection holds nothing: the agent resumed when the old one went
    if (conn.startSuspended) {
      this.holds.add(caller); // the level the connection counts as its own
      this.log(`session: ${endpoint} waits for its debugger: held for ${caller} until resumed`);
    }
    this.attachment = a;
    return a;
  }

  private resolve(previous: PlayerEndpoint | undefined): {
    host: string;
    port: number;
    player?: PlayerEndpoint;
  } {
    const t = this.target;
    if (t.kind === 'endpoint') return { host: t.host, port: t.port };
    const players = this.opts.players;
    if (!players) {
      throw Errors.noPlayer(
        `no endpoint was given and discovery is unavailable${this.opts.discoveryProblem ? ` (${this.opts.discoveryProblem})` : ''}`,
      );
    }
    let player: PlayerEndpoint | undefined;
    try {
      player = players.select(t.kind === 'player' ? t.selector : undefined);
    } catch (e) {
      if (!previous) throw e;
      // the chosen game restarted under a new run id: find it again by what identifies it;
      // or it is paused (a suspended game stops announcing): try where it was
      player = players.reselect?.(previous) ?? previous;
    }
    return { host: player.host, port: player.port, player };
  }

  private noteDrop(a: GameConnection, reason: unknown): void {
    if (this.attachment === a) this.attachment = undefined;
    this.holds.clear();
    this.lastDrop = `${new Date().toISOString()}: ${messageOf(reason)}`;
    this.log(`session: connection to ${a.endpoint} dropped: ${messageOf(reason)}`);
    this.connectionEnded(a);
  }

  private async dropAttachment(a: GameConnection, why: string): Promise<void> {
    if (this.attachment === a) this.attachment = undefined;
    this.holds.clear();
    this.log(`session: leaving ${a.endpoint} for ${why}`);
    await this.closeWithExtensions(a);
  }

  private throwIfClosed(): void {
    if (this.closed) throw Errors.shuttingDown();
  }
}

/**
 * Who the game is: the OS id and object address of the thread that started the runtime (the
 * main thread's OS id is the process id on Linux), and the beacon's run id when known. A game
 * restarted at the same endpoint has a different identity.
 */
async function gameIdentity(
  conn: SdbConnection,
  player: PlayerEndpoint | undefined,
): Promise<string> {
  const threads = await conn.send('VM.ALL_THREADS');
  const start = conn.vmStart?.threadId;
  const thread = start !== undefined && threads.includes(start) ? start : threads[0];
  if (thread === undefined)
    throw new UnityError('ATTACH_FAILED', 'the game reports no managed threads');
  const [tid, address] = await Promise.all([
    conn.send('THREAD.GET_TID', { threadId: thread }),
    conn.send('THREAD.GET_ID', { threadId: thread }),
  ]);
  const run = player?.guid !== undefined ? ` run ${player.guid}` : '';
  return `tid ${tid} thread@0x${address.toString(16)}${run}`;
}

function isDrop(e: unknown): boolean {
  const code = (e as { code?: string } | undefined)?.code;
  return code === 'CONNECTION_CLOSED' || code === 'HANDSHAKE_FAILED' || code === 'CONNECTION_LOST';
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function simpleCost(a: GameConnection, before: number, started: number): OperationCost {
  const ms = round(performance.now() - started);
  return { wireCommands: a.conn.stats.commandsSent - before, invokes: 0, freezeMs: 0, wallMs: ms };
}

function zeroCost(started: number): OperationCost {
  return { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: round(performance.now() - started) };
}

/**
 * The cost of several operations run one after another for one tool call: commands, invokes and
 * freeze add up; wall time is the caller's own measure from `startedAt` (performance.now()) when
 * given, else the sum.
 */
export function sumCosts(costs: readonly OperationCost[], startedAt?: number): OperationCost {
  const total: OperationCost = { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: 0 };
  for (const c of costs) {
    total.wireCommands += c.wireCommands;
    total.invokes += c.invokes;
    total.freezeMs = round(total.freezeMs + c.freezeMs);
    total.wallMs = round(total.wallMs + c.wallMs);
  }
  if (startedAt !== undefined) total.wallMs = round(performance.now() - startedAt);
  return total;
}
