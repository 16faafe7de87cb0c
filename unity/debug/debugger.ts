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
// Event sets are handled one at a time, in arrival order.

import {
  EventKind,
  SuspendPolicy,
  type EventSet,
  type Modifier,
  type SdbConnection,
  type SdbEvent,
} from '../../sdb-protocol/index.js';
import { Errors, UnityError, fromSdbError, messageOf } from '../errors.js';
import type { TypeCatalog } from '../catalog/index.js';
import {
  sumCosts,
  type GameSession,
  type OperationContext,
  type OperationCost,
  type OperationResult,
} from '../session/session.js';
import type { GameConnection } from '../session/game-connection.js';
import { evaluateInFrame } from './frame-eval.js';
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

export interface CodeLocation {
  method: string;
  methodId: number;
  ilOffset: number;
  file?: string;
  line?: number;
}

export interface BreakpointSpec {
  type?: string;
  method?: string;
  line?: number;
  ilOffset?: number;
  signature?: string;
  file?: string;
  condition?: string;
  hitCount?: number;
}

export interface ExceptionSpec {
  /** Full or simple name of an exception type; absent: every exception. */
  type?: string;
  subclasses?: boolean;
}

export interface Breakpoint {
  id: number;
  owner: string;
  kind: 'line' | 'exception';
  locations: CodeLocation[];
  exceptionType?: string;
  subclasses?: boolean;
  condition?: string;
  hitCount?: number;
  /** Hits that passed the condition (and, with a hit count, the stop itself). */
  hits: number;
  /**
   * Hits let go undecided: they came while an evaluation ran with every thread resumed, which
   * cannot finish while a thread is kept stopped.
   */
  passed?: number;
  /** A hit-count breakpoint after its stop: the agent never reports it again. */
  spent?: boolean;
  /**
   * Not bound yet: its type (or any type of its file) is not in the game. A TYPE_LOAD request
   * binds it when that type's first method is compiled, before that method runs.
   */
  pending?: { waitingFor: string; suggestions?: string[] };
  /** Its type loaded but the location could not be bound there (why). */
  bindError?: string;
  requests: { kind: number; requestId: number }[];
}

export type StopReason = 'breakpoint' | 'step' | 'exception';

export interface Stop {
  /** Increases with every stop this session reports. */
  seq: number;
  reason: StopReason;
  owner: string;
  threadId: number;
  breakpointId?: number;
  location?: CodeLocation;
  exception?: { type: string; objectId: number };
  /** The condition could not be evaluated: stopped so that a person can see why. */
  conditionError?: string;
  /** The thread stopped while another pause was current, and waited at its stop since. */
  queued?: boolean;
}

export type StepKind = 'over' | 'into' | 'out' | 'resume';

export interface DebugStatus {
  breakpoints: Breakpoint[];
  pause?: Stop;
  /** Other threads stopped at our requests, in line behind the pause (oldest first). */
  queued: Omit<Stop, 'seq'>[];
  stepping?: { owner: string };
  /** Stops reported so far. */
  stops: number;
}

export class Debugger {
  private conn: SdbConnection | undefined;
  private offEvent: (() => void) | undefined;
  private cache: LocationCache | undefined;
  private readonly breakpoints = new Map<number, Breakpoint>();
  private readonly byRequest = new Map<number, Breakpoint>();
  /** What each line breakpoint was asked for (pending ones are resolved again on load). */
  private readonly specs = new Map<number, BreakpointSpec>();
  private catalog: TypeCatalog | undefined;
  private nextId = 1;
  private seq = 0;
  private pause: Stop | undefined;
  /** Stops kept behind the pause, each holding its own suspend level. */
  private queued: Omit<Stop, 'seq'>[] = [];
  /** The thread of the event being decided (its condition may invoke). */
  private deciding: number | undefined;
  /** The step under way: a STEP request, or (from native code) a METHOD_ENTRY one. */
  private stepping:
    { requestId: number; owner: string; eventKind: number; threadId: number } | undefined;
  private readonly waiters = new Set<(s: Stop | undefined) => void>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: GameSession,
    private readonly log: (m: string) => void = () => undefined,
  ) {
    session.extend({
      beforeClose: (conn) => this.beforeClose(conn),
      connectionEnded: (conn) => this.connectionEnded(conn),
      callerGone: (caller) => this.callerGone(caller),
      keepThreadsStopped: (main) => this.keepsStopped(main),
    });
  }

  status(): DebugStatus {
    return {
      breakpoints: [...this.breakpoints.values()],
      ...(this.pause ? { pause: this.pause } : {}),
      queued: [...this.queued],
      ...(this.stepping ? { stepping: { owner: this.stepping.owner } } : {}),
      stops: this.seq,
    };
  }

  /** The current stop, if the game is paused at an event. */
  get paused(): Stop | undefined {
    return this.pause;
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
          id: this.nextId++,
          owner: caller,
          kind: 'line',
          locations,
          hits: 0,
          requests: [],
          ...(spec.condition !== undefined ? { condition: spec.condition } : {}),
          ...(spec.hitCount !== undefined ? { hitCount: spec.hitCount } : {}),
          ...(pending ? { pending } : {}),
        };
        this.specs.set(bp.id, spec);
        if (pending) await this.armLoad(ctx.conn, bp, spec);
        else await this.armLines(ctx.conn, bp);
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
          id: this.nextId++,
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
        this.register(bp, EventKind.EXCEPTION, requestId);
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
        ? [...this.breakpoints.values()].filter((b) => force || b.owner === caller)
        : [this.breakpoints.get(id)];
    if (id !== undefined && !targets[0])
      throw Errors.breakpointNotFound(id, [...this.breakpoints.keys()]);
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
          await this.clearRequests(ctx.conn, b);
          removed.push(b.id);
        }
        return removed;
      },
      { window: false },
    );
  }

  /** Waits (bounded) for the next stop; a pause already in place is returned at once. */
  wait(timeoutMs: number): Promise<Stop | undefined> {
    if (this.pause) return Promise.resolve(this.pause);
    return new Promise((resolve) => {
      const done = (s: Stop | undefined): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(s);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.waiters.add(done);
    });
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
    if (!this.pause) return this.stepFromHold(caller, kind, options);
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
        if (kind === 'resume' || this.queued.length > 0) {
          await this.resumePause(ctx.conn);
          return { next: Promise.resolve(this.pause) };
        }
        await this.armStep(ctx.conn, caller, p.threadId, kind);
        const next = this.nextStop(options.timeoutMs);
        await this.resumePause(ctx.conn);
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
          return { next: this.nextStop(options.timeoutMs) };
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
    const p = this.pause;
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

  /** A BREAKPOINT request per location; none left behind when one fails. */
  private async armLines(conn: SdbConnection, bp: Breakpoint): Promise<void> {
    // Without a condition the agent counts hits itself (COUNT: only the n-th is reported), so
    // the game is not stopped for the hits before it; with one, we count the hits that pass.
    const count: Modifier[] =
      bp.hitCount !== undefined && bp.condition === undefined
        ? [{ kind: 'count', count: bp.hitCount }]
        : [];
    try {
      for (const l of bp.locations) {
        const requestId = await conn.send('EVENT_REQUEST.SET', {
          eventKind: EventKind.BREAKPOINT,
          suspendPolicy: SuspendPolicy.ALL,
          modifiers: [
            { kind: 'location_only', methodId: l.methodId, ilOffset: l.ilOffset },
            ...count,
          ],
        });
        this.register(bp, EventKind.BREAKPOINT, requestId);
      }
    } catch (e) {
      await this.clearRequests(conn, bp);
      throw e;
    }
  }

  /**
   * A TYPE_LOAD request for the type (by Mono's full name) or the source file a pending
   * breakpoint waits for. Policy ALL: the agent sends it when the type's first method has been
   * compiled, before it runs, and waits for us to bind the breakpoint.
   */
  private async armLoad(conn: SdbConnection, bp: Breakpoint, spec: BreakpointSpec): Promise<void> {
    const modifier: Modifier =
      spec.file !== undefined
        ? { kind: 'source_file_only', files: [spec.file.split(/[\\/]/).pop()!] }
        : { kind: 'type_name_only', names: [spec.type!.replace(/\+/g, '/')] };
    const requestId = await conn.send('EVENT_REQUEST.SET', {
      eventKind: EventKind.TYPE_LOAD,
      suspendPolicy: SuspendPolicy.ALL,
      modifiers: [modifier],
    });
    this.register(bp, EventKind.TYPE_LOAD, requestId);
  }

  /**
   * A type a pending breakpoint waits for has loaded (the game is suspended by its event):
   * resolve the breakpoint again and arm it. Wire commands only, no operation: the event may
   * come while an evaluation holds the session (its call compiled the type).
   */
  private async bindOnLoad(conn: SdbConnection, ev: SdbEvent): Promise<void> {
    const bp = this.byRequest.get(ev.requestId);
    const spec = bp && this.specs.get(bp.id);
    if (!bp?.pending || !spec || !this.cache || !this.catalog) return;
    let locations: CodeLocation[];
    try {
      locations = await resolveBreakpoint({ conn, catalog: this.catalog }, this.cache, spec);
    } catch (e) {
      // another type of the same file: keep waiting for the one with the line
      if (spec.file !== undefined && e instanceof UnityError && e.code === 'NO_LOCATION') return;
      bp.bindError = messageOf(e);
      delete bp.pending;
      await this.clearRequest(conn, bp, EventKind.TYPE_LOAD);
      this.log(`debug: breakpoint ${bp.id} could not bind: ${bp.bindError}`);
      return;
    }
    bp.locations = locations;
    delete bp.pending;
    // the type has loaded: its load request has done its work whatever follows
    await this.clearRequest(conn, bp, EventKind.TYPE_LOAD);
    try {
      await this.armLines(conn, bp);
      this.log(`debug: breakpoint ${bp.id} bound at ${locations.map((l) => l.method).join(', ')}`);
    } catch (e) {
      bp.bindError = messageOf(e);
      bp.locations = [];
      this.breakpoints.set(bp.id, bp); // armLines' failure path forgets it; it stays listed
      this.log(`debug: breakpoint ${bp.id} could not bind: ${bp.bindError}`);
    }
  }

  private async clearRequest(conn: SdbConnection, bp: Breakpoint, kind: number): Promise<void> {
    for (const r of bp.requests.filter((x) => x.kind === kind)) {
      this.byRequest.delete(r.requestId);
      await conn
        .send('EVENT_REQUEST.CLEAR', { eventKind: kind as 10, requestId: r.requestId })
        .catch((e: unknown) => this.log(`debug: clearing a request: ${messageOf(e)}`));
    }
    bp.requests = bp.requests.filter((x) => x.kind !== kind);
  }

  private register(bp: Breakpoint, kind: number, requestId: number): void {
    bp.requests.push({ kind, requestId });
    this.byRequest.set(requestId, bp);
    this.breakpoints.set(bp.id, bp);
  }

  private async clearRequests(conn: SdbConnection, bp: Breakpoint): Promise<void> {
    this.breakpoints.delete(bp.id);
    this.specs.delete(bp.id);
    for (const r of bp.requests) {
      this.byRequest.delete(r.requestId);
      if (conn === this.conn && !conn.isClosed)
        await conn.send('EVENT_REQUEST.CLEAR', { eventKind: r.kind as 10, requestId: r.requestId });
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
    const ev = set.events.find(
      (e) =>
        e.kind === 'BREAKPOINT' ||
        e.kind === 'STEP' ||
        e.kind === 'METHOD_ENTRY' ||
        e.kind === 'EXCEPTION',
    );
    // A stop during an evaluation that resumed every thread would suspend that evaluation with
    // the game until the stop ends: the level goes back undecided (the hit is counted as
    // passed). A condition could not be evaluated then anyway: the invoker is busy.
    if (ev && duringCall && conn === this.conn) {
      const bp = this.byRequest.get(ev.requestId);
      if (bp) bp.passed = (bp.passed ?? 0) + 1;
      this.log(`debug: ${ev.kind} on thread ${ev.threadId} during an evaluation: let go`);
    }
    const candidate = ev !== undefined && conn === this.conn && !duringCall;
    // Where the thread stopped, asked at once (pipelined with the decision): most stops are
    // reported, and this read is what debug_wait waits for.
    const located = candidate
      ? this.topLocation(conn, ev.threadId).catch(() => undefined)
      : Promise.resolve(undefined);
    let stop: Omit<Stop, 'seq'> | undefined;
    try {
      if (candidate) {
        this.deciding = ev.threadId;
        stop = await this.decide(conn, ev);
      }
    } catch (e) {
      this.log(`debug: deciding on ${ev?.kind ?? 'an event'}: ${messageOf(e)}`);
    } finally {
      this.deciding = undefined;
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
    if (this.pause) {
      // Another thread stopped while we are paused: it keeps its level (and its place) and
      // becomes the pause when the current one ends.
      this.queued.push({ ...stop, queued: true });
      return;
    }
    this.report(stop);
  }

  private report(stop: Omit<Stop, 'seq'>): void {
    const full: Stop = { ...stop, seq: ++this.seq };
    this.pause = full;
    for (const w of [...this.waiters]) w(full);
  }

  /** Invokes must leave the other threads suspended while one of them is kept at a stop. */
  private keepsStopped(mainThreadId: number): boolean {
    const other = (t: number | undefined): boolean => t !== undefined && t !== mainThreadId;
    return (
      other(this.pause?.threadId) ||
      other(this.deciding) ||
      this.queued.some((q) => other(q.threadId))
    );
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
    const bp = this.byRequest.get(ev.requestId);
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

  /**
   * Ends the current pause: gives back the level its event took. A stop in line behind it
   * becomes the pause (the game stays suspended by that stop's level).
   */
  private async resumePause(conn: SdbConnection): Promise<void> {
    if (!this.pause) return;
    this.pause = undefined;
    try {
      await conn.send('VM.RESUME');
    } catch (e) {
      throw fromSdbError(e, conn.endpoint);
    } finally {
      const next = this.queued.shift();
      if (next) this.report(next);
    }
  }

  /** The next stop after now (the current pause, if any, does not count). */
  private nextStop(timeoutMs: number): Promise<Stop | undefined> {
    const after = this.seq;
    return new Promise((resolve) => {
      const done = (s: Stop | undefined): void => {
        if (s && s.seq <= after) return;
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(s);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.add(done);
    });
  }

  // ------------------------------------------------------------------ session hooks

  private beforeClose(conn: SdbConnection): void {
    if (conn !== this.conn) return;
    // Queued, not awaited: detach waits on nothing. close() then resumes every level (ours
    // from events included) and sends DISPOSE.
    const clear = (eventKind: number, requestId: number): void => {
      conn
        .send('EVENT_REQUEST.CLEAR', { eventKind: eventKind as 10, requestId })
        .catch(() => undefined);
    };
    for (const b of this.breakpoints.values())
      for (const r of b.requests) clear(r.kind, r.requestId);
    if (this.stepping) clear(this.stepping.eventKind, this.stepping.requestId);
    this.stepping = undefined;
    this.pause = undefined;
    this.queued = [];
  }

  private connectionEnded(conn: SdbConnection | undefined): void {
    if (!conn || conn !== this.conn) return;
    this.offEvent?.();
    this.offEvent = undefined;
    this.conn = undefined;
    this.cache = undefined;
    this.catalog = undefined;
    this.specs.clear();
    // The requests died with the connection (the agent clears them on DISPOSE or disconnect).
    this.breakpoints.clear();
    this.byRequest.clear();
    this.stepping = undefined;
    this.pause = undefined;
    this.queued = [];
    for (const w of [...this.waiters]) w(undefined);
  }

  private async callerGone(caller: string): Promise<void> {
    const conn = this.conn;
    if (!conn || conn.isClosed) return;
    for (const b of [...this.breakpoints.values()])
      if (b.owner === caller) await this.clearRequests(conn, b).catch(() => undefined);
    if (this.stepping?.owner === caller) await this.clearStep(conn);
    // its stops in line: each level given back (the thread runs on when the game does)
    const mine = this.queued.filter((q) => q.owner === caller);
    this.queued = this.queued.filter((q) => q.owner !== caller);
    for (const _ of mine) await conn.send('VM.RESUME').catch(() => undefined);
    while (this.pause?.owner === caller) await this.resumePause(conn).catch(() => undefined);
  }
}
