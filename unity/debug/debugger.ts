// Breakpoints, break-on-throw, stepping and the pauses they make, for one GameSession: the
// Debugger's public face, and what it owns.
//
// A BREAKPOINT / STEP / EXCEPTION request is set with suspend policy ALL: when it fires, the
// agent raises the VM's suspend count once and the connection counts that level as ours (so
// close() resumes it on every exit path). The Debugger binds to the connection of the first
// operation that needs it, handles its event sets one at a time in arrival order, and undoes
// what it left in the game when the connection closes or a caller leaves. Its parts: the
// breakpoints and their requests, breakpoint-table.ts; what an event set means,
// event-decisions.ts; the step under way, stepping.ts; the pause and the stops in line,
// pauses.ts; the data, debug-types.ts.

import {
  EventKind,
  SuspendPolicy,
  type EventKindValue,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import { Errors, messageOf } from '../errors.js';
import type { TypeCatalog } from '../catalog/index.js';
import type {
  GameSession,
  OperationContext,
  OperationCost,
  OperationResult,
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
import { EventDecisions, type Sampler } from './event-decisions.js';
import { probeFrame, type ProbeResult } from './probe.js';
import { Pauses } from './pauses.js';
import { pendingFor, resolveBreakpoint } from './resolve.js';
import { Stepper } from './stepping.js';
import { parseLogMessage, TraceStore } from './trace.js';
import {
  LOCATION_CACHE,
  type LocationCache,
  findMethods,
  isSourceLine,
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

/** One hit of a watch: when it came, Time.frameCount, and what each program gave. */
export interface Sample {
  /** Wall clock (ms since the epoch) and monotonic clock at the event's arrival. */
  wall: number;
  at: number;
  threadId: number;
  frame?: number;
  results: ProbeResult[];
}

/** How long Debugger.sample samples: `frames` samples, `timeoutMs`, or until `signal`. */
export interface SampleBound {
  frames?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Told the count after each sample (a job's progress). */
  onSample?: (samples: number) => void;
}

export interface SampleRun {
  samples: Sample[];
  location: CodeLocation;
  /** What the hits stopped the game for (from arrival to the resume's reply). */
  stopCost: { stops: number; totalMs: number; maxMs: number };
  /** Fewer samples than asked came before the bound. */
  timedOut: boolean;
  /** The bound's signal ended it (a cancelled job): the samples are those taken before. */
  cancelled: boolean;
  /** The operations it ran (setting the breakpoint, each sample). */
  costs: OperationCost[];
}

export class Debugger {
  private conn: SdbConnection | undefined;
  private offEvent: (() => void) | undefined;
  private cache: LocationCache | undefined;
  private readonly table: BreakpointTable;
  private readonly pauses = new Pauses();
  /** Logpoint entries, per breakpoint (debug_trace). */
  readonly traces = new TraceStore();
  private readonly samplers = new Map<number, Sampler>();
  private readonly stepper: Stepper;
  private readonly events: EventDecisions;
  private catalog: TypeCatalog | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: GameSession,
    private readonly log: (m: string) => void = () => undefined,
  ) {
    this.table = new BreakpointTable(log, (conn) => conn === this.conn && !conn.isClosed);
    const bound = {
      session,
      pauses: this.pauses,
      log,
      bound: () => this.conn,
      cache: () => this.cache,
      locations: (ctx: OperationContext) => this.locations(ctx),
    };
    this.stepper = new Stepper(bound);
    this.events = new EventDecisions({
      ...bound,
      table: this.table,
      stepper: this.stepper,
      traces: this.traces,
      samplers: this.samplers,
      catalog: () => this.catalog,
    });
    session.extend({
      beforeClose: (conn) => this.beforeClose(conn),
      connectionEnded: (conn) => this.connectionEnded(conn),
      callerGone: (caller) => this.callerGone(caller),
      keepThreadsStopped: (main) => this.pauses.keepsStopped(main, this.events.deciding),
    });
  }

  status(): DebugStatus {
    const stepping = this.stepper.owner;
    return {
      breakpoints: this.table.all(),
      ...(this.pauses.current ? { pause: this.pauses.current } : {}),
      queued: this.pauses.inLine(),
      ...(stepping !== undefined ? { stepping: { owner: stepping } } : {}),
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
    if (spec.log !== undefined) parseLogMessage(spec.log); // refused here, not at every hit
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
          ...(spec.log !== undefined ? { log: spec.log } : {}),
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

  /**
   * Samples `codes` at every hit of `where` (a method the game runs each frame) until `frames`
   * samples are taken or `timeoutMs` passes, then removes its breakpoint. Each hit stops the
   * game only while the programs are evaluated (one operation at the stop; the level is given
   * back at once, as a logpoint's). The breakpoint is listed (`watch`) while it runs.
   */
  async sample(
    caller: string,
    where: BreakpointSpec,
    codes: readonly string[],
    bound: SampleBound,
  ): Promise<SampleRun> {
    const samples: Sample[] = [];
    const costs: OperationCost[] = [];
    let done: () => void = () => undefined;
    const finished = new Promise<void>((r) => (done = r));
    const limit = bound.frames ?? Number.POSITIVE_INFINITY;
    const set = await this.setBreakpoint(caller, where);
    costs[0] = set.cost;
    const bp = set.value;
    if (bp.pending) {
      await this.remove(caller, bp.id, true);
      throw Errors.noLocation(`${where.type}.${where.method}: its type is not loaded`, []);
    }
    bp.watch = true;
    this.samplers.set(bp.id, async (threadId, arrival, conn, at) => {
      if (samples.length >= limit) return;
      const r = await this.session.run(
        'watch sample',
        caller,
        (ctx) => probeFrame(ctx, this.locations(ctx), threadId, codes, true, at),
        { urgent: true, heldBy: conn }, // the game stands at the hit until it is sampled
      );
      costs.push(r.cost);
      samples.push({ wall: arrival.wall, at: arrival.at, threadId, ...r.value });
      bound.onSample?.(samples.length);
      if (samples.length >= limit) done();
    });
    const timer = setTimeout(done, bound.timeoutMs);
    // a cancelled job ends the run between samples: its breakpoint is removed as at the bound
    const signal = bound.signal;
    if (signal?.aborted) done();
    signal?.addEventListener('abort', done, { once: true });
    try {
      await finished;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      this.samplers.delete(bp.id);
      await this.remove(caller, bp.id, true).catch((e: unknown) =>
        this.log(`debug: removing watch ${bp.id}: ${messageOf(e)}`),
      );
    }
    return {
      samples: samples.slice(0, bound.frames ?? samples.length),
      location: bp.locations[0]!,
      stopCost: bp.stopCost ?? { stops: 0, totalMs: 0, maxMs: 0 },
      costs,
      timedOut:
        bound.frames !== undefined && samples.length < bound.frames && signal?.aborted !== true,
      cancelled: signal?.aborted === true,
    };
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

  /**
   * Waits (bounded) for the next stop; a pause already in place is returned at once. `signal`
   * (a cancelled job) ends the wait as the bound does.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<Stop | undefined> {
    return this.pauses.wait(timeoutMs, signal);
  }

  /**
   * Lets the paused game run (resume) or steps its stopped thread, then waits for the stop.
   * Without an event pause, steps from the caller's hold (see stepping.ts).
   */
  step(
    caller: string,
    kind: StepKind,
    options: { force?: boolean; timeoutMs: number; threadId?: number; signal?: AbortSignal },
  ): Promise<OperationResult<Stop | undefined>> {
    return this.stepper.step(caller, kind, options);
  }

  /** The pause `caller` may act on: the current one, theirs unless forced. */
  ownedPause(caller: string, force: boolean, what: string): Stop {
    return this.pauses.owned(caller, force, what);
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

  // ------------------------------------------------------------------ the bound connection

  private bind(connection: GameConnection): void {
    const conn = connection.conn;
    if (this.conn === conn) return;
    this.connectionEnded(this.conn);
    this.conn = conn;
    this.cache = connection.part(LOCATION_CACHE);
    this.offEvent = conn.onEvent((set) => {
      // asked on arrival: by the time the set is handled the call may have ended
      const duringCall = this.session.invokeRunning;
      const arrival = { at: performance.now(), wall: Date.now() };
      this.queue = this.queue
        .then(() => this.events.onEventSet(conn, set, duringCall, arrival))
        .catch((e: unknown) => this.log(`debug: event handling: ${messageOf(e)}`));
    });
  }

  // ------------------------------------------------------------------ session hooks

  private beforeClose(conn: SdbConnection): void {
    if (conn !== this.conn) return;
    // Queued, not awaited: detach waits on nothing. close() then resumes every level (ours
    // from events included) and sends DISPOSE.
    const clear = (eventKind: EventKindValue, requestId: number): void => {
      conn
        .send('EVENT_REQUEST.CLEAR', { eventKind, requestId })
        .catch((e: unknown) =>
          this.log(`debug: clearing request ${requestId} before closing: ${messageOf(e)}`),
        );
    };
    for (const b of this.table.all()) for (const r of b.requests) clear(r.kind, r.requestId);
    const step = this.stepper.forget();
    if (step) clear(step.eventKind, step.requestId);
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
    this.traces.clear();
    this.stepper.forget();
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
    if (this.stepper.owner === caller) await this.stepper.clear(conn);
    const owns = (): boolean =>
      this.pauses.current?.owner === caller || this.pauses.inLine().some((q) => q.owner === caller);
    if (!owns()) return;
    // Its stops given back in a turn of their own, first in line: a RESUME landing in another
    // operation's invoke would be lost (see RunOptions.turn).
    await this.session
      .run(
        `resume the stops of ${caller}, who left`,
        caller,
        async () => {
          if (conn.isClosed) return;
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
        },
        { window: false, turn: true, urgent: true },
      )
      .catch((e: unknown) => this.log(`debug: resuming the stops of ${caller}: ${messageOf(e)}`));
  }
}
