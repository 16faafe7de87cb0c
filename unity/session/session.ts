// The one debugger session of a server process: it attaches lazily on the first call that needs
// the game, keeps that connection for every later call, and gives each operation a counted
// suspend window that is always closed. Holds (suspend/resume across calls) belong to the caller
// that took them. See docs/solutions/session-promises.md for the reasoning behind each rule.
// Its parts: which game and who it is, target.ts; an operation and its window, operation.ts;
// what an operation costs, cost.ts; the holds, holds.ts; what is layered on the session,
// extensions.ts; the attached game, game-connection.ts.

import { SdbConnection, type ConnectOptions, type RuntimeKind } from '../../sdb-protocol/index.js';
import { Errors, fromSdbError, messageOf } from '../errors.js';
import { currentScope, inTurn, outsideCalls, type CallScope } from './call-scope.js';
import { simpleCost, zeroCost, type OperationCost } from './cost.js';
import { Extensions, type SessionExtension } from './extensions.js';
import { GameConnection } from './game-connection.js';
import { HoldTable } from './holds.js';
import { PendingConnection } from './pending-connection.js';
import {
  isDrop,
  runInWindow,
  runWithoutWindow,
  type OperationContext,
  type OperationHost,
  type OperationResult,
  type RunOptions,
} from './operation.js';
import { Scheduler, type HeavyWait, type QueueState } from './scheduler.js';
import { checkSlot, describeHolder, type SlotState } from './slot.js';
import {
  checkTarget,
  gameIdentity,
  resolveTarget,
  type PlayerEndpoint,
  type PlayerResolver,
  type Target,
} from './target.js';

export { sumCosts, type OperationCost } from './cost.js';
export type { SessionExtension } from './extensions.js';
export type { OperationContext, OperationResult, RunOptions } from './operation.js';
export type { HeavyWait, QueueState, QueuedOperation, QueueTier } from './scheduler.js';
export { inToolCall } from './call-scope.js';
export type { PlayerEndpoint, PlayerResolver, Target } from './target.js';

/** The debugger slot: checked before connecting, and a connection that waits behind another debugger. */
export interface SlotOptions {
  /**
   * Read the kernel's connection table before connecting and refuse a taken slot with SLOT_BUSY,
   * without connecting (default true; Linux and endpoints on this host only: slot.ts).
   */
  check?: boolean;
  /** How long an attaching call waits for a pending connection before SLOT_BUSY (default 15 s). */
  pendingWaitMs?: number;
  /** How long detach() and shutdown() wait for a pending connection to be accepted (default 2 s). */
  releaseWaitMs?: number;
  /** For tests: how the slot is inspected (default: checkSlot over /proc). */
  inspect?: (host: string, port: number) => Promise<SlotState>;
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
  slot?: SlotOptions;
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
  /** The agent's VM.VERSION description. */
  runtime?: string;
  /** The runtime behind it and what it cannot do (sdb-protocol/runtime-profile.ts). */
  runtimeProfile?: {
    kind: RuntimeKind;
    label: string;
    cannot: { feature: string; instead: string }[];
  };
  connects: number;
  holds: { caller: string; count: number }[];
  /** Operations running now, and for whom. */
  operations: { caller: string; label: string }[];
  replaced?: { expected: string; found: string };
  lastDrop?: string;
  /** Our connection waits in the agent's backlog behind another debugger (see SLOT_BUSY). */
  pending?: boolean;
}

/** An attaching call's wait for a connection in the agent's backlog. */
const PENDING_WAIT_MS = 15_000;
/** detach()'s and shutdown()'s wait for it to be accepted and closed cleanly. */
const PENDING_RELEASE_WAIT_MS = 2_000;

export class GameSession {
  /** Connections opened so far (one per process run against one game, unless it drops). */
  connects = 0;
  private target: Target = { kind: 'auto' };
  private attachment: GameConnection | undefined;
  private attaching: Promise<GameConnection> | undefined;
  /** The one connection that waits behind another debugger, never a second beside it. */
  private pending: PendingConnection | undefined;
  /** The game this session was pointed at; writes are refused when another one answers. */
  private baseline: string | undefined;
  private replaced: { expected: string; found: string } | undefined;
  private lastDrop: string | undefined;
  /** The player last attached to, kept across drops to find it again. */
  private lastPlayer: PlayerEndpoint | undefined;
  private readonly holds = new HoldTable();
  /** Who gets the game next: windows one at a time, callers round-robin (scheduler.ts). */
  private readonly scheduler = new Scheduler();
  private readonly running = new Map<number, { caller: string; label: string }>();
  private nextOperation = 0;
  private closed = false;
  /** Diagnostics (stderr in the server): what a caller's result also says, e.g. a fallback taken. */
  readonly log: (message: string) => void;
  private readonly extensions: Extensions;
  /** What running an operation asks of this session. */
  private readonly host: OperationHost;

  constructor(private readonly opts: SessionOptions = {}) {
    this.log = opts.log ?? (() => undefined);
    this.extensions = new Extensions(this.log);
    this.host = {
      replaced: () => this.replaced,
      noteDrop: (a, reason) => this.noteDrop(a, reason),
      log: this.log,
    };
    if (opts.target) this.target = opts.target;
  }

  /** Registers an extension (see SessionExtension); returns the unregister function. */
  extend(extension: SessionExtension): () => void {
    return this.extensions.add(extension);
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

  /**
   * How many holds `caller` has (held since when, epoch ms), and who else holds the game.
   * Never attaches.
   */
  holdsOf(caller: string): { mine: number; since?: number; others: string[] } {
    const holds = this.holds.list();
    const since = this.holds.heldSince(caller);
    return {
      mine: holds.find((h) => h.caller === caller)?.count ?? 0,
      ...(since !== undefined ? { since } : {}),
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
      const p = a.conn.runtime;
      s.runtimeProfile = {
        kind: p.kind,
        label: p.label,
        cannot: p.limits.map((l) => ({ feature: l.feature, instead: l.instead })),
      };
    }
    if (this.replaced) s.replaced = this.replaced;
    if (this.lastDrop) s.lastDrop = this.lastDrop;
    if (this.pending?.wanted && !this.pending.settled) s.pending = true;
    return s;
  }

  /**
   * Points the session at a game (a player selector or an explicit endpoint) and attaches now.
   * The game found becomes the one writes are checked against. A game waiting for its debugger
   * (suspend=y) stays held, as a hold of `caller` (see connectNow).
   */
  async attach(target: Target, caller = 'attach'): Promise<SessionStatus> {
    this.throwIfClosed();
    checkTarget(target);
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
   * recovers from (a stuck call, a turn never given back). Calls in flight fail with CONNECTION_LOST or
   * MAY_HAVE_APPLIED.
   */
  async detach(): Promise<void> {
    const a = this.attachment;
    this.attachment = undefined;
    this.attaching = undefined;
    this.holds.clear();
    if (a) await this.closeWithExtensions(a);
    // a connection still waiting is closed cleanly once accepted; kept for a later attach
    await this.pending?.giveUp(this.opts.slot?.releaseWaitMs ?? PENDING_RELEASE_WAIT_MS);
  }

  /** Lets extensions queue their clean-up, then closes (resume every level, DISPOSE). */
  private async closeWithExtensions(a: GameConnection): Promise<void> {
    const conn = a.conn;
    if (!conn.isClosed) this.extensions.beforeClose(conn);
    await conn.close();
    this.connectionEnded(a);
  }

  /** Extensions forget the connection, then everything it owned is dropped. */
  private connectionEnded(a: GameConnection): void {
    if (a.ended) return;
    this.extensions.connectionEnded(a.conn);
    a.end();
  }

  /** Resumes, disposes, and refuses every later call. Bounded by the connection's close bound. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await this.detach();
  }

  /**
   * Runs `op` inside its own suspend window, closed on every path. Windows take turns (the
   * scheduler); an operation without one (`window: false`) runs at once, behind no one.
   */
  async run<T>(
    label: string,
    caller: string,
    op: (ctx: OperationContext) => Promise<T>,
    options: RunOptions = {},
  ): Promise<OperationResult<T>> {
    this.throwIfClosed();
    const started = performance.now();
    if (options.window === false) {
      const bare = async (): Promise<OperationResult<T>> => {
        const a = await this.ensureAttached(caller);
        if (options.writes)
          throw Errors.invalidArgument(`${label} writes: it needs a suspend window`);
        return runWithoutWindow(this.host, a, label, op, started);
      };
      return options.turn
        ? this.inTurn(label, caller, options, bare)
        : this.tracked(caller, label, bare);
    }
    return this.inTurn(label, caller, options, async () => {
      const held = options.heldBy;
      if (held) {
        const a = this.current;
        if (held.isClosed || a?.conn !== held)
          throw Errors.connectionLost(
            a?.endpoint ?? 'the game',
            new Error('the connection whose event held the game is gone'),
          );
        return runInWindow(this.host, a, label, op, options, started);
      }
      let a = await this.ensureAttached(caller);
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
      return runInWindow(this.host, a, label, op, options, started);
    });
  }

  /** What holds the game and what waits for it (never attaches). */
  queue(): QueueState {
    return this.scheduler.state();
  }

  /**
   * Runs `fn` as the one heavy work of kind `what` on this game (one `advance` at a time): a
   * second one waits its turn, FIFO, at most `waitMs` (then TIMEOUT naming the one running).
   * Its windows still take turns with everyone's.
   */
  heavy<T>(
    what: string,
    caller: string,
    fn: (waited: HeavyWait) => Promise<T>,
    waitMs = 30_000,
  ): Promise<T> {
    this.throwIfClosed();
    return this.scheduler.heavy(what, caller, waitMs, fn);
  }

  /**
   * Runs `fn` in a turn of the scheduler (or in the turn of the operation it is called from,
   * when that one runs on this game now: it would otherwise wait behind itself); the turn's
   * wait is added to the cost.
   */
  private async inTurn<T>(
    label: string,
    caller: string,
    options: RunOptions,
    fn: () => Promise<OperationResult<T>>,
  ): Promise<OperationResult<T>> {
    const scope = currentScope();
    const outer = scope?.turn;
    if (outer?.scheduler === this.scheduler && outer.id === this.scheduler.current)
      return this.tracked(caller, label, fn);
    const turn = await this.scheduler.acquire({
      caller,
      label,
      tier: scope?.tier ?? 'internal',
      ...(options.urgent ? { urgent: true } : {}),
      ...(scope?.onQueued ? { onPosition: scope.onQueued } : {}),
      waitMs: options.lockWaitMs ?? 30_000,
    });
    if (scope?.tier === 'instant')
      this.log(
        `session: ${label}, of the instant tool ${scope.tool ?? '?'}, took a turn for a window: its tier is wrong`,
      );
    try {
      const mine: CallScope['turn'] = { scheduler: this.scheduler, id: turn.id };
      const r = await inTurn(mine, () => this.tracked(caller, label, fn));
      return { value: r.value, cost: withQueue(r.cost, turn.waitedMs, turn.ranBefore) };
    } finally {
      turn.release();
    }
  }

  /** Listed in status().operations while it runs. */
  private async tracked<T>(caller: string, label: string, fn: () => Promise<T>): Promise<T> {
    const opId = ++this.nextOperation;
    this.running.set(opId, { caller, label });
    try {
      return await fn();
    } finally {
      this.running.delete(opId);
    }
  }

  /** Takes a hold for `caller`: the game stays suspended across calls until released. */
  async hold(caller: string): Promise<OperationResult<{ holds: number }>> {
    const started = performance.now();
    return this.inTurn('suspend', caller, {}, async () => {
      const a = await this.ensureAttached(caller);
      const before = a.conn.stats.commandsSent;
      await a.conn.send('VM.SUSPEND').catch((e: unknown) => {
        if (isDrop(e)) this.noteDrop(a, e);
        throw fromSdbError(e, a.endpoint);
      });
      this.holds.add(caller);
      return { value: { holds: this.holds.count(caller) }, cost: simpleCost(a, before, started) };
    });
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
    // In a turn, first in line: a RESUME sent while another operation's invoke runs is lost
    // (the agent has resumed the whole VM for the call and suspends it again afterwards), and
    // the game would stay frozen with no hold left to release.
    return this.inTurn('resume', caller, { urgent: true }, async () => {
      const a = this.attachment;
      if (this.holds.count(owner) === 0)
        throw Errors.holdNotOwned(
          caller,
          this.holds.list().map((h) => h.caller),
        );
      this.holds.remove(owner);
      if (!a || a.conn.isClosed)
        return { value: { holds: this.holds.count(caller) }, cost: zeroCost(started) };
      const before = a.conn.stats.commandsSent;
      await a.conn.send('VM.RESUME').catch((e: unknown) => {
        throw fromSdbError(e, a.endpoint);
      });
      return { value: { holds: this.holds.count(caller) }, cost: simpleCost(a, before, started) };
    });
  }

  /** A caller went away (its MCP session closed): its holds are released. */
  async callerGone(caller: string): Promise<void> {
    await this.extensions.callerGone(caller);
    const n = this.holds.count(caller);
    for (let i = 0; i < n; i++)
      await this.release(caller).catch((e: unknown) => this.log(messageOf(e)));
  }

  /** The open connection, or a new one; `caller` is who the attach is for. */
  private ensureAttached(caller: string): Promise<GameConnection> {
    const a = this.attachment;
    if (a && !a.conn.isClosed) return Promise.resolve(a);
    // outside the call: the socket's event handlers must not run in this call's scope
    this.attaching ??= outsideCalls(() => this.connectNow(caller)).finally(
      () => (this.attaching = undefined),
    );
    return this.attaching;
  }

  /**
   * Connects, unless the agent's slot is taken (SLOT_BUSY, nothing connected) or our connection
   * already waits behind another debugger (then that one is awaited).
   */
  private async connectNow(caller: string): Promise<GameConnection> {
    this.attachment = undefined;
    if (this.target.kind !== 'endpoint') await this.opts.beforeSelect?.();
    const { host, port, player } = resolveTarget(
      this.target,
      this.opts.players,
      this.opts.discoveryProblem,
      this.lastPlayer,
    );
    const endpoint = `${host}:${port}`;
    const waiting = this.pending;
    if (waiting && !waiting.settled && waiting.endpoint === endpoint) {
      waiting.wanted = true; // wanted again (after a detach): never a second connection beside it
      return this.awaitPending(waiting, host, port);
    }
    if (waiting) {
      this.pending = undefined; // another game now: closed cleanly whenever it is accepted
      waiting.wanted = false;
    }
    await this.refuseTakenSlot(host, port, endpoint);
    let conn: SdbConnection;
    let late: Promise<SdbConnection> | undefined;
    try {
      this.connects++;
      conn = await (this.opts.connect ?? SdbConnection.connect)({
        host,
        port,
        connectTimeoutMs: this.opts.connectTimeoutMs ?? 3000,
        handshakeTimeoutMs: this.opts.handshakeTimeoutMs ?? 3000,
        log: this.log,
        keepStartSuspended: true,
        // no greeting in time: the agent serves another debugger and ours waits in its backlog
        whenLate: (p) => void (late = p),
      });
    } catch (e) {
      if (!late) throw Errors.attachFailed(endpoint, e);
      const p = new PendingConnection(endpoint, late, {
        adopt: (c) => this.adopt(c, endpoint, player, caller),
        drop: (a) => this.dropAttachment(a, 'a detach while it was adopted'),
        closed: () => this.closed,
        log: this.log,
      });
      this.pending = p;
      return this.awaitPending(p, host, port);
    }
    return this.adopt(conn, endpoint, player, caller);
  }

  /** SLOT_BUSY, before any connection, when the kernel shows the agent's slot taken. */
  private async refuseTakenSlot(host: string, port: number, endpoint: string): Promise<void> {
    if (this.opts.slot?.check === false) return;
    const state = await (this.opts.slot?.inspect ?? checkSlot)(host, port);
    if (state.kind === 'unchecked')
      this.log(`session: slot of ${endpoint} not checked: ${state.why}`);
    if (state.kind !== 'busy') return;
    throw Errors.slotBusy(endpoint, this.holderOf(state));
  }

  /** Who holds the slot, for SLOT_BUSY: another process before this one (our own pending). */
  private holderOf(
    state: SlotState,
  ): { pid?: number; command?: string; description: string } | undefined {
    if (state.kind !== 'busy') return undefined;
    const h = state.holders.find((x) => !x.self) ?? state.holders[0];
    if (!h) return undefined;
    return {
      description: describeHolder(h),
      ...(h.pid !== undefined ? { pid: h.pid } : {}),
      ...(h.command !== undefined ? { command: h.command } : {}),
    };
  }

  /** The calling attach waits for the pending connection, boundedly; then SLOT_BUSY pending. */
  private async awaitPending(
    p: PendingConnection,
    host: string,
    port: number,
  ): Promise<GameConnection> {
    const outcome = await p.wait(this.opts.slot?.pendingWaitMs ?? PENDING_WAIT_MS);
    if (PendingConnection.timedOut(outcome)) {
      const state =
        this.opts.slot?.check === false
          ? undefined
          : await (this.opts.slot?.inspect ?? checkSlot)(host, port).catch(() => undefined);
      throw Errors.slotBusy(p.endpoint, state && this.holderOf(state), true);
    }
    if (!outcome) {
      this.throwIfClosed();
      throw Errors.attachFailed(p.endpoint, 'the session detached while the connection waited');
    }
    return outcome;
  }

  /**
   * Makes the attachment of an open connection. A game that waits for its debugger (agent
   * suspend=y, Unity's "Wait For Managed Debugger") is left suspended: that start suspension
   * becomes a hold of `caller`, so breakpoints can be set in start-up code before `resume`
   * (release) lets it run.
   */
  private async adopt(
    conn: SdbConnection,
    endpoint: string,
    player: PlayerEndpoint | undefined,
    caller: string,
  ): Promise<GameConnection> {
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
      singleThreaded: (main) => this.extensions.keepThreadsStopped(main),
    });
    await a.replayClasses(); // IL2CPP: the classes loaded before us, which it never announces
    if (conn.isClosed) throw Errors.attachFailed(endpoint, conn.closeReason ?? 'closed on attach');
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

/** A cost with the wait for its turn (left out when it did not wait). */
function withQueue(c: OperationCost, waitedMs: number, ranBefore: number): OperationCost {
  return waitedMs > 0 || ranBefore > 0 ? { ...c, queueMs: waitedMs, queuedBehind: ranBefore } : c;
}
