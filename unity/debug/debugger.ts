// Breakpoints, break-on-throw, stepping and the pauses they make, for one GameSession.
//
// A BREAKPOINT / STEP / EXCEPTION request is set with suspend policy ALL: when it fires, the
// agent raises the VM's suspend count once and the connection counts that level as ours (so
// close() resumes it on every exit path). This class decides what each such event set means:
// a stop reported to callers (the "pause", owned by whoever set the breakpoint or stepped), a
// stop kept in line behind the current pause (another thread stopped meanwhile: it stays at its
// stop and becomes the pause when the current one ends), or a level to give back at once (a
// condition that is false, a hit before the hit count, an event of a request we have just
// cleared, a hit during an evaluation that needs every thread running).
// Event sets are handled one at a time, in arrival order. The breakpoints and their requests are
// breakpoint-table.ts; the pause and the stops in line, pauses.ts; the data, debug-types.ts.

import {
  EventKind,
  SuspendPolicy,
  type EventSet,
  type SdbConnection,
  type SdbEvent,
} from '../../sdb-protocol/index.js';
import { Errors, UnityError, messageOf } from '../errors.js';
import type { TypeCatalog } from '../catalog/index.js';
import {
  sumCosts,
  type GameSession,
  type OperationContext,
  type OperationCost,
  type OperationResult,
} from '../session/session.js';
import type { GameConnection } from '../session/game-connection.js';
import { BreakpointTable } from './breakpoint-table.js';
import type {
  Breakpoint,
  BreakpointSpec,
  CodeLocation,
  DebugStatus,
  ExceptionSpec,
  StepKind,
  Stop,
} from './debug-types.js';
import { evaluateInFrame } from './frame-eval.js';
import { Pauses } from './pauses.js';
import { pendingFor, resolveBreakpoint } from './resolve.js';
import {
  noLineToStepFrom,
  onSourceLine,
  setFirstLineRequest,
  setGameCodeEntryRequest,
  setStepRequest,
} from './step-requests.js';
import {
  LOCATION_CACHE,
  type LocationCache,
  findMethods,
  isSourceLine,
  pointAt,
  type SourcePoint,
} from './locations.js';

export type {
  Breakpoint,
  BreakpointSpec,
  CodeLocation,
  DebugStatus,
  ExceptionSpec,
  StepKind,
  Stop,
  StopReason,
} from './debug-types.js';

export class Debugger {
  private conn: SdbConnection | undefined;
  private offEvent: (() => void) | undefined;
  private cache: LocationCache | undefined;
  private readonly table: BreakpointTable;
  private readonly pauses = new Pauses();
  private catalog: TypeCatalog | undefined;
  /** The thread of the event being decided (its condition may invoke). */
  private deciding: number | undefined;
  /** The step under way: a STEP request, or (from native code) a METHOD_ENTRY one. */
  private stepping:
    { requestId: number; owner: string; eventKind: number; threadId: number } | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: GameSession,
    private readonly log: (m: string) => void = () => undefined,
  ) {
    this.table = new BreakpointTable(log, (conn) => conn === this.conn && !conn.isClosed);
    session.extend({
      beforeClose: (conn) => this.beforeClose(conn),
      connectionEnded: (conn) => this.connectionEnded(conn),
      callerGone: (caller) => this.callerGone(caller),
      keepThreadsStopped: (main) => this.pauses.keepsStopped(main, this.deciding),
    });
  }

  status(): DebugStatus {
    return {
      breakpoints: this.table.all(),
      ...(this.pauses.current ? { pause: this.pauses.current } : {}),
      queued: this.pauses.inLine(),
      ...(this.stepping ? { stepping: { owner: this.stepping.owner } } : {}),
      stops: this.pauses.stops,
    };
  }

  /** The current stop, if the game is paused at an event. */
  get paused(): Stop | undefined {
    return this.pauses.current;
  }

  locations(ctx: OperationContext): LocationCache {
    this.bind(ctx.connection);
    this.catalog = ctx.catalog;
    return this.cache!;
  }

  async setBreakpoint(caller: string, spec: BreakpointSpec): Promise<OperationResult<Breakpoint>> {
    if (spec.hitCount !== undefined && (!Number.isInteger(spec.hitCount) || spec.hitCount < 1))
      throw Errors.invalidArgument('hit_count must be an integer >= 1');
    return this.session.run(
      'debug_set_breakpoint',
      caller,
      async (ctx) => {
        const cache = this.locations(ctx);
        let locations: CodeLocation[] = [];
        let pending: Breakpoint['pending'];
        try {
          locations = await resolveBreakpoint(ctx, cache, spec);
        } catch (e) {
          pending = pendingFor(spec, e);
          if (!pending) throw e;
        }
        const bp: Breakpoint = {
          id: this.table.newId(),
          owner: caller,
          kind: 'line',
          locations,
          hits: 0,
          requests: [],
          ...(spec.condition !== undefined ? { condition: spec.condition } : {}),
          ...(spec.hitCount !== undefined ? { hitCount: spec.hitCount } : {}),
          ...(pending ? { pending } : {}),
        };
        this.table.remember(bp, spec);
        if (pending) await this.table.armLoad(ctx.conn, bp, spec);
        else await this.table.armLines(ctx.conn, bp);
        return bp;
      },
      { window: false },
    );
  }

  async breakOnException(
    caller: string,
    spec: ExceptionSpec,
  ): Promise<OperationResult<Breakpoint>> {
    return this.session.run(
      'debug_break_on_exception',
      caller,
      async (ctx) => {
        this.bind(ctx.connection);
        const typeId = spec.type ? await ctx.catalog.resolveType(spec.type) : 0;
        const typeName = typeId
          ? (await ctx.conn.send('TYPE.GET_INFO', { typeId })).fullName
          : undefined;
        const bp: Breakpoint = {
          id: this.table.newId(),
          owner: caller,
          kind: 'exception',
          locations: [],
          hits: 0,
          requests: [],
          subclasses: spec.subclasses ?? true,
          ...(typeName ? { exceptionType: typeName } : {}),
        };
        // Break where it is thrown, caught or not: a Unity player catches nearly everything,
        // so an "uncaught" stop would never fire.
        const requestId = await ctx.conn.send('EVENT_REQUEST.SET', {
          eventKind: EventKind.EXCEPTION,
          suspendPolicy: SuspendPolicy.ALL,
          modifiers: [
            {
              kind: 'exception_only',
              typeId,
              caught: true,
              uncaught: true,
              subclasses: spec.subclasses ?? true,
            },
          ],
        });
        this.table.register(bp, EventKind.EXCEPTION, requestId);
        return bp;
      },
      { window: false },
    );
  }

  /** Removes one breakpoint (or all of them with `id` undefined); only the owner's unless forced. */
  async remove(
    caller: string,
    id: number | undefined,
    force = false,
  ): Promise<OperationResult<number[]>> {
    const targets =
      id === undefined
        ? this.table.all().filter((b) => force || b.owner === caller)
        : [this.table.get(id)];
    if (id !== undefined && !targets[0]) throw Errors.breakpointNotFound(id, this.table.ids());
    for (const b of targets) {
      if (b && b.owner !== caller && !force) throw Errors.breakpointNotOwned(b.id, b.owner);
    }
    return this.session.run(
      'debug_remove_breakpoint',
      caller,
      async (ctx) => {
        const removed: number[] = [];
        for (const b of targets) {
          if (!b) continue;
          await this.table.clearRequests(ctx.conn, b);
          removed.push(b.id);
        }
        return removed;
      },
      { window: false },
    );
  }

  /** Waits (bounded) for the next stop; a pause already in place is returned at once. */
  wait(timeoutMs: number): Promise<Stop | undefined> {
    return this.pauses.wait(timeoutMs);
  }

  /**
   * Lets the paused game run (resume) or steps its stopped thread, then waits for the stop.
   * Without an event pause, steps from the caller's hold (see stepFromHold).
   */
  async step(
    caller: string,
    kind: StepKind,
    options: { force?: boolean; timeoutMs: number; threadId?: number },
  ): Promise<OperationResult<Stop | undefined>> {
    if (!this.pauses.current) return this.stepFromHold(caller, kind, options);
    const p = this.ownedPause(caller, options.force === true, `debug_step ${kind}`);
    // The wait for the stop happens outside the operation, so that it holds no lock while the
    // game runs (a condition on the way is evaluated in an operation of its own).
    const r = await this.session.run(
      `debug_step ${kind}`,
      caller,
      async (ctx) => {
        if (ctx.conn !== this.conn) throw Errors.notPaused(`debug_step ${kind}`);
        // With another thread's stop in line, the game cannot run (that stop keeps it
        // suspended): ending this pause makes that stop the pause, and a step never starts.
        if (kind === 'resume' || this.pauses.inLine().length > 0) {
          await this.pauses.resume(ctx.conn);
          return { next: Promise.resolve(this.pauses.current) };
        }
        await this.armStep(ctx.conn, caller, p.threadId, kind);
        const next = this.pauses.nextStop(options.timeoutMs);
        await this.pauses.resume(ctx.conn);
        return { next };
      },
      { window: false },
    );
    return this.afterStep(r);
  }

  /**
   * A step from a plain hold: only the caller may hold the game (a step lets it run, and any
   * other hold would keep it suspended). The step is armed on the thread (default the main
   * one), then the caller's holds are released. Mono steps only a thread suspended in managed
   * code; one in native code (the main thread between frames) refuses STEP with
   * INVALID_ARGUMENT: `into` then waits for the thread to enter a method of an assembly with
   * debug information (game code) instead, by a METHOD_ENTRY request filtered to that thread
   * and those assemblies; `over` and `out` have no line to start from and are refused.
   */
  private async stepFromHold(
    caller: string,
    kind: StepKind,
    options: { timeoutMs: number; threadId?: number },
  ): Promise<OperationResult<Stop | undefined>> {
    const what = `debug_step ${kind}`;
    const { mine, others } = this.session.holdsOf(caller);
    if (mine === 0 && others.length === 0) throw Errors.notPaused(what);
    const holders = [...(mine ? [caller] : []), ...others];
    if (mine === 0 || others.length > 0)
      throw new UnityError(
        'HOLD_NOT_OWNED',
        `${what} from a hold lets the game run, so only the caller holding it may step: held by ${holders.join(', ')}`,
        { details: { holders } },
      );
    const costs: OperationCost[] = [];
    let next: Promise<Stop | undefined> = Promise.resolve(undefined);
    if (kind !== 'resume') {
      const r = await this.session.run(
        what,
        caller,
        async (ctx) => {
          this.locations(ctx);
          const thread = options.threadId ?? (await ctx.mainThread());
          await this.armStep(ctx.conn, caller, thread, kind, ctx);
          // wrapped: a promise returned bare would be awaited inside the operation
          return { next: this.pauses.nextStop(options.timeoutMs) };
        },
        // a window (nested in the hold): finding the main thread may invoke
        { window: true },
      );
      costs.push(r.cost);
      next = r.value.next;
    }
    for (let i = 0; i < mine; i++) costs.push((await this.session.release(caller)).cost);
    return this.afterStep({ value: { next }, cost: sumCosts(costs) });
  }

  /** Arms the step (the one Mono 6.8 allows at a time); see stepFromHold for `fromHold`. */
  private async armStep(
    conn: SdbConnection,
    owner: string,
    threadId: number,
    kind: Exclude<StepKind, 'resume'>,
    fromHold?: OperationContext,
  ): Promise<void> {
    await this.clearStep(conn);
    if (fromHold && !(await onSourceLine(conn, this.cache!, threadId))) {
      if (kind !== 'into') throw noLineToStepFrom(threadId, kind);
      const requestId = await setGameCodeEntryRequest(fromHold);
      this.stepping = { requestId, owner, eventKind: EventKind.METHOD_ENTRY, threadId };
      return;
    }
    const requestId = await setStepRequest(conn, threadId, kind);
    this.stepping = { requestId, owner, eventKind: EventKind.STEP, threadId };
  }

  private async afterStep(
    r: OperationResult<{ next: Promise<Stop | undefined> }>,
  ): Promise<OperationResult<Stop | undefined>> {
    const started = performance.now();
    const stop = await r.value.next;
    return {
      value: stop,
      cost: {
        ...r.cost,
        wallMs: Math.round((r.cost.wallMs + performance.now() - started) * 100) / 100,
      },
    };
  }

  /** The pause `caller` may act on: the current one, theirs unless forced. */
  ownedPause(caller: string, force: boolean, what: string): Stop {
    const p = this.pauses.current;
    if (!p) throw Errors.notPaused(what);
    if (p.owner !== caller && !force) throw Errors.pauseNotOwned(caller, p.owner);
    return p;
  }

  /** Source lines of a method (the stand-in for source text). */
  async methodLocations(
    caller: string,
    type: string,
    method: string,
    signature?: string,
  ): Promise<OperationResult<{ method: string; signature: string; points: SourcePoint[] }[]>> {
    return this.session.run(
      'debug_locations',
      caller,
      async (ctx) => {
        const cache = this.locations(ctx);
        const methods = await findMethods(ctx.catalog, type, method, signature);
        return Promise.all(
          methods.map(async (m) => ({
            method: `${m.typeName}.${m.name}`,
            signature: m.signature,
            points: (await cache.points(m.methodId)).filter((p) => isSourceLine(p.line)),
          })),
        );
      },
      { window: false },
    );
  }

  // ------------------------------------------------------------------ resolving and arming

  /**
   * A type a pending breakpoint waits for has loaded (the game is suspended by its event):
   * resolve the breakpoint again and arm it. Wire commands only, no operation: the event may
   * come while an evaluation holds the session (its call compiled the type).
   */
  private async bindOnLoad(conn: SdbConnection, ev: SdbEvent): Promise<void> {
    const bp = this.table.ofRequest(ev.requestId);
    const spec = bp && this.table.specOf(bp.id);
    if (!bp?.pending || !spec || !this.cache || !this.catalog) return;
    let locations: CodeLocation[];
    try {
      locations = await resolveBreakpoint({ conn, catalog: this.catalog }, this.cache, spec);
    } catch (e) {
      // another type of the same file: keep waiting for the one with the line
      if (spec.file !== undefined && e instanceof UnityError && e.code === 'NO_LOCATION') return;
      bp.bindError = messageOf(e);
      delete bp.pending;
      await this.table.clearRequest(conn, bp, EventKind.TYPE_LOAD);
      this.log(`debug: breakpoint ${bp.id} could not bind: ${bp.bindError}`);
      return;
    }
    bp.locations = locations;
    delete bp.pending;
    // the type has loaded: its load request has done its work whatever follows
    await this.table.clearRequest(conn, bp, EventKind.TYPE_LOAD);
    try {
      await this.table.armLines(conn, bp);
      this.log(`debug: breakpoint ${bp.id} bound at ${locations.map((l) => l.method).join(', ')}`);
    } catch (e) {
      bp.bindError = messageOf(e);
      bp.locations = [];
      this.table.list(bp); // armLines' failure path forgets it; it stays listed
      this.log(`debug: breakpoint ${bp.id} could not bind: ${bp.bindError}`);
    }
  }

  private async clearStep(conn: SdbConnection): Promise<void> {
    const s = this.stepping;
    if (!s) return;
    this.stepping = undefined;
    if (!conn.isClosed)
      await conn
        .send('EVENT_REQUEST.CLEAR', { eventKind: s.eventKind as 11, requestId: s.requestId })
        .catch((e: unknown) => this.log(`debug: clearing a step: ${messageOf(e)}`));
  }

  // ------------------------------------------------------------------ events

  private bind(connection: GameConnection): void {
    const conn = connection.conn;
    if (this.conn === conn) return;
    this.connectionEnded(this.conn);
    this.conn = conn;
    this.cache = connection.part(LOCATION_CACHE);
    this.offEvent = conn.onEvent((set) => {
      // asked on arrival: by the time the set is handled the call may have ended
      const duringCall = this.session.invokeRunning;
      this.queue = this.queue
        .then(() => this.onEventSet(conn, set, duringCall))
        .catch((e: unknown) => this.log(`debug: event handling: ${messageOf(e)}`));
    });
  }

  private async onEventSet(conn: SdbConnection, set: EventSet, duringCall: boolean): Promise<void> {
    if (set.suspendPolicy !== SuspendPolicy.ALL || conn.isClosed) return;
    for (const load of set.events.filter((e) => e.kind === 'TYPE_LOAD'))
      if (conn === this.conn)
        await this.bindOnLoad(conn, load).catch((e: unknown) =>
          this.log(`debug: binding on a type load: ${messageOf(e)}`),
        );
    // One event set carries every request that matched at that point (several breakpoints at
    // one location come as one set, one event each): each is decided, so each counts its hit,
    // and the first that stops makes the stop.
    const evs = set.events.filter(
      (e) =>
        e.kind === 'BREAKPOINT' ||
        e.kind === 'STEP' ||
        e.kind === 'METHOD_ENTRY' ||
        e.kind === 'EXCEPTION',
    );
    const ev = evs[0];
    // A stop during an evaluation that resumed every thread would suspend that evaluation with
    // the game until the stop ends: the level goes back undecided (the hit is counted as
    // passed). A condition could not be evaluated then anyway: the invoker is busy.
    if (ev && duringCall && conn === this.conn) {
      for (const e of evs) {
        const bp = this.table.ofRequest(e.requestId);
        if (bp) bp.passed = (bp.passed ?? 0) + 1;
      }
      this.log(`debug: ${ev.kind} on thread ${ev.threadId} during an evaluation: let go`);
    }
    const candidate = ev !== undefined && conn === this.conn && !duringCall;
    // Where the thread stopped, asked at once (pipelined with the decision): most stops are
    // reported, and this read is what debug_wait waits for.
    const located = candidate
      ? this.topLocation(conn, ev.threadId).catch((e: unknown) => {
          this.log(`debug: reading where thread ${ev.threadId} stopped: ${messageOf(e)}`);
          return undefined;
        })
      : Promise.resolve(undefined);
    let stop: Omit<Stop, 'seq'> | undefined;
    if (candidate) {
      this.deciding = ev.threadId;
      try {
        for (const e of evs) {
          try {
            const s = await this.decide(conn, e);
            stop ??= s;
          } catch (err) {
            this.log(`debug: deciding on ${e.kind}: ${messageOf(err)}`);
          }
        }
      } finally {
        this.deciding = undefined;
      }
    }
    if (!stop) {
      await located;
      await conn
        .send('VM.RESUME')
        .catch((e: unknown) => this.log(`debug: resuming a skipped event: ${messageOf(e)}`));
      return;
    }
    const [loc] = await Promise.all([located, this.clearStep(conn)]); // any stop ends a step
    if (loc) stop.location = loc;
    // Another thread stopped while we are paused: it keeps its level (and its place) and
    // becomes the pause when the current one ends.
    this.pauses.add(stop);
  }

  private async decide(conn: SdbConnection, ev: SdbEvent): Promise<Omit<Stop, 'seq'> | undefined> {
    if (ev.kind === 'STEP' || ev.kind === 'METHOD_ENTRY' || ev.kind === 'BREAKPOINT') {
      const st = this.stepping;
      if (st && ev.requestId === st.requestId) {
        if (ev.threadId !== st.threadId) return undefined; // another thread came by
        if (ev.kind === 'METHOD_ENTRY' && (await this.toFirstLine(conn, ev))) return undefined;
        return { reason: 'step', owner: st.owner, threadId: ev.threadId };
      }
      if (ev.kind !== 'BREAKPOINT') return undefined;
    }
    const bp = this.table.ofRequest(ev.requestId);
    if (!bp) return undefined; // cleared while the event was on its way
    if (ev.kind === 'EXCEPTION') {
      const typeId = await conn.send('OBJECT_REF.GET_TYPE', { objectId: ev.exceptionId });
      const type = (await conn.send('TYPE.GET_INFO', { typeId })).fullName;
      bp.hits++;
      return {
        reason: 'exception',
        owner: bp.owner,
        threadId: ev.threadId,
        breakpointId: bp.id,
        exception: { type, objectId: ev.exceptionId },
      };
    }
    if (ev.kind !== 'BREAKPOINT') return undefined;
    const base = {
      reason: 'breakpoint' as const,
      owner: bp.owner,
      threadId: ev.threadId,
      breakpointId: bp.id,
    };
    if (bp.condition === undefined) {
      bp.hits++;
      if (bp.hitCount !== undefined) {
        bp.hits = bp.hitCount; // the agent reported the n-th hit only
        bp.spent = true;
      }
      return base;
    }
    let verdict: boolean | string;
    try {
      verdict = await this.condition(bp, ev.threadId);
    } catch (e) {
      verdict = messageOf(e);
    }
    if (verdict === false) return undefined;
    if (typeof verdict === 'string') return { ...base, conditionError: verdict };
    bp.hits++;
    if (bp.hitCount !== undefined && bp.hits !== bp.hitCount) return undefined;
    if (bp.hitCount !== undefined) bp.spent = true;
    return base;
  }

  /**
   * A step from native code entered game code, still in the method's prologue (IL offset -1,
   * before any line). The step goes on to the method's first line by a breakpoint there (a
   * STEP request from the prologue never fires on Mono 6.8): true when it was armed and this
   * level can go back.
   */
  private async toFirstLine(conn: SdbConnection, ev: { methodId: number }): Promise<boolean> {
    const st = this.stepping!;
    try {
      await this.clearStep(conn);
      const requestId = await setFirstLineRequest(conn, this.cache!, ev.methodId);
      if (requestId === undefined) return false;
      this.stepping = { ...st, requestId, eventKind: EventKind.BREAKPOINT };
      return true;
    } catch (e) {
      this.log(`debug: going on to the first line of an entered method: ${messageOf(e)}`);
      return false;
    }
  }

  /** true/false, or why it could not be decided. */
  private async condition(bp: Breakpoint, threadId: number): Promise<boolean | string> {
    const r = await this.session.run('breakpoint condition', bp.owner, (ctx) =>
      evaluateInFrame(ctx, this.locations(ctx), threadId, 0, bp.condition!),
    );
    const v = r.value;
    if (v.kind === 'value' && v.value.kind === 'bool') return v.value.value;
    if (v.kind === 'exception') return `the condition threw ${v.type}: ${v.message}`;
    return `the condition is not a bool (${v.kind === 'value' ? v.type : 'void'})`;
  }

  private async topLocation(
    conn: SdbConnection,
    threadId: number,
  ): Promise<CodeLocation | undefined> {
    const frames = await conn.send('THREAD.GET_FRAME_INFO', { threadId });
    const top = frames.find((f) => (f.flags & 2) === 0);
    if (!top || !this.cache) return undefined;
    const { typeName, name } = await this.cache.methodName(top.methodId);
    const at = pointAt(await this.cache.points(top.methodId).catch(() => []), top.ilOffset);
    return {
      method: `${typeName}.${name}`,
      methodId: top.methodId,
      ilOffset: top.ilOffset,
      ...(at ? { line: at.line } : {}),
      ...(at?.file ? { file: at.file } : {}),
    };
  }

  // ------------------------------------------------------------------ session hooks

  private beforeClose(conn: SdbConnection): void {
    if (conn !== this.conn) return;
    // Queued, not awaited: detach waits on nothing. close() then resumes every level (ours
    // from events included) and sends DISPOSE.
    const clear = (eventKind: number, requestId: number): void => {
      conn
        .send('EVENT_REQUEST.CLEAR', { eventKind: eventKind as 10, requestId })
        .catch((e: unknown) =>
          this.log(`debug: clearing request ${requestId} before closing: ${messageOf(e)}`),
        );
    };
    for (const b of this.table.all()) for (const r of b.requests) clear(r.kind, r.requestId);
    if (this.stepping) clear(this.stepping.eventKind, this.stepping.requestId);
    this.stepping = undefined;
    this.pauses.forget();
  }

  private connectionEnded(conn: SdbConnection | undefined): void {
    if (!conn || conn !== this.conn) return;
    this.offEvent?.();
    this.offEvent = undefined;
    this.conn = undefined;
    this.cache = undefined;
    this.catalog = undefined;
    // The requests died with the connection (the agent clears them on DISPOSE or disconnect).
    this.table.clear();
    this.stepping = undefined;
    this.pauses.end();
  }

  private async callerGone(caller: string): Promise<void> {
    const conn = this.conn;
    if (!conn || conn.isClosed) return;
    for (const b of this.table.all())
      if (b.owner === caller)
        await this.table
          .clearRequests(conn, b)
          .catch((e: unknown) =>
            this.log(`debug: clearing breakpoint ${b.id} of ${caller}, who left: ${messageOf(e)}`),
          );
    if (this.stepping?.owner === caller) await this.clearStep(conn);
    // its stops in line: each level given back (the thread runs on when the game does)
    for (const q of this.pauses.takeQueuedOf(caller))
      await conn
        .send('VM.RESUME')
        .catch((e: unknown) =>
          this.log(
            `debug: resuming thread ${q.threadId}'s stop of ${caller}, who left: ${messageOf(e)}`,
          ),
        );
    while (this.pauses.current?.owner === caller)
      await this.pauses
        .resume(conn)
        .catch((e: unknown) =>
          this.log(`debug: ending the pause of ${caller}, who left: ${messageOf(e)}`),
        );
  }
}
