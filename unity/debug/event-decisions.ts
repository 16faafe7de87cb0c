// What an event set of our requests means, for the Debugger of one GameSession: a stop reported
// to callers (the pause, owned by whoever set the breakpoint or stepped), a stop kept in line
// behind the current pause (another thread stopped meanwhile), or a level to give back at once
// (a condition that is false, a hit before the hit count, an event of a request we have just
// cleared, a hit during an evaluation that needs every thread running). A TYPE_LOAD binds the
// pending breakpoints waiting for it. Event sets are handed here one at a time, in arrival order.

import {
  EventKind,
  FrameFlags,
  SuspendPolicy,
  type EventSet,
  type SdbConnection,
  type SdbEvent,
} from '../../sdb-protocol/index.js';
import { UnityError, messageOf } from '../errors.js';
import type { TypeCatalog } from '../catalog/index.js';
import type { BreakpointTable } from './breakpoint-table.js';
import type { Breakpoint, CodeLocation } from './debug-types.js';
import { evaluateInFrame, type StopPlace } from './frame-eval.js';
import { numberOf, probeFrame } from './probe.js';
import {
  holeResult,
  parseLogMessage,
  renderMessage,
  type HoleResult,
  type TraceStore,
} from './trace.js';
import { pointAt } from './locations.js';
import { readFrames } from './frames.js';
import { readsOnly } from '../../eval/index.js';
import type { PendingStop } from './pauses.js';
import { resolveBreakpoint } from './resolve.js';
import type { Stepper, StepperDeps } from './stepping.js';

/**
 * Where a breakpoint's hit stands: the breakpoint's location in the event's method (the one at
 * the event's IL offset when the method has several; Mono 6.8 often sends offset 0).
 */
function stopPlace(
  bp: Breakpoint,
  ev: SdbEvent & { kind: 'BREAKPOINT' | 'STEP' },
): StopPlace | undefined {
  const here = bp.locations.filter((l) => l.methodId === ev.methodId);
  const loc =
    here.find((l) => l.ilOffset === ev.ilOffset) ?? (here.length === 1 ? here[0] : undefined);
  return loc && { methodId: loc.methodId, ilOffset: loc.ilOffset };
}

/** A logpoint's message as parts and holes, made once per message (every hit uses them). */
interface LogPlan {
  log: string;
  parts: ReturnType<typeof parseLogMessage>;
  codes: string[];
  /** Every hole only reads (readsOnly). */
  readOnly: boolean;
}
const logPlans = new WeakMap<Breakpoint, LogPlan>();

function logPlan(bp: Breakpoint): LogPlan {
  const kept = logPlans.get(bp);
  if (kept && kept.log === bp.log) return kept;
  const parts = parseLogMessage(bp.log!);
  const codes = parts.flatMap((p) => ('code' in p ? [p.code] : []));
  const plan = { log: bp.log!, parts, codes, readOnly: codes.every(readsOnly) };
  logPlans.set(bp, plan);
  return plan;
}

/** A hole that reads the frame number: the entry's `frame`. */
const FRAME_COUNT_HOLE = /^\s*(?:UnityEngine\.)?Time\.frameCount\s*$/;

/** The stepper's view of the bound debugger, and the breakpoints, the stepper and the catalogue. */
export interface EventDecisionDeps extends StepperDeps {
  table: BreakpointTable;
  stepper: Stepper;
  /** The type catalogue of the bound connection, once an operation has bound it. */
  catalog(): TypeCatalog | undefined;
  /** Where logpoint hits are recorded. */
  traces: TraceStore;
  /** Breakpoints that sample (watches): their hits are handed here, never paused at. */
  samplers: ReadonlyMap<number, Sampler>;
}

/** A watch's hit: what it reads at the stop (in an operation of its own); never a pause. */
export type Sampler = (
  threadId: number,
  arrival: Arrival,
  conn: SdbConnection,
  /** Where the thread stopped, when the breakpoint says (see StopPlace). */
  at?: StopPlace,
) => Promise<void>;

/** When an event set arrived: the monotonic clock (stop costs) and the wall clock (entries). */
export interface Arrival {
  at: number;
  wall: number;
}

export class EventDecisions {
  private decidingThread: number | undefined;

  constructor(private readonly d: EventDecisionDeps) {}

  /** The thread of the event being decided (its condition may invoke). */
  get deciding(): number | undefined {
    return this.decidingThread;
  }

  /** `duringCall`: an invoke that lets every thread run was on the wire when the set arrived. */
  async onEventSet(
    conn: SdbConnection,
    set: EventSet,
    duringCall: boolean,
    arrival: Arrival = { at: performance.now(), wall: Date.now() },
  ): Promise<void> {
    const { table, pauses, log } = this.d;
    if (set.suspendPolicy !== SuspendPolicy.ALL || conn.isClosed) return;
    for (const load of set.events.filter((e) => e.kind === 'TYPE_LOAD'))
      if (conn === this.d.bound())
        await this.bindOnLoad(conn, load).catch((e: unknown) =>
          log(`debug: binding on a type load: ${messageOf(e)}`),
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
    if (ev && duringCall && conn === this.d.bound()) {
      for (const e of evs) {
        const bp = table.ofRequest(e.requestId);
        if (bp) bp.passed = (bp.passed ?? 0) + 1;
      }
      log(`debug: ${ev.kind} on thread ${ev.threadId} during an evaluation: let go`);
    }
    const candidate = ev !== undefined && conn === this.d.bound() && !duringCall;
    // Where the thread stopped, asked at once (pipelined with the decision): most stops are
    // reported, and this read is what debug_wait waits for. Not for hits that never stop (a
    // logpoint's, a watch's): the agent answers one command at a time, and their stop is short.
    const located =
      candidate && !evs.every((e) => this.neverStops(e))
        ? this.topLocation(conn, ev.threadId).catch((e: unknown) => {
            log(`debug: reading where thread ${ev.threadId} stopped: ${messageOf(e)}`);
            return undefined;
          })
        : Promise.resolve(undefined);
    let stop: PendingStop | undefined;
    const decided = new Set<Breakpoint>();
    if (candidate) {
      this.decidingThread = ev.threadId;
      try {
        for (const e of evs) {
          const bp = table.ofRequest(e.requestId);
          if (bp && e.kind === 'BREAKPOINT') decided.add(bp);
          try {
            const s = await this.decide(conn, e, arrival);
            stop ??= s;
          } catch (err) {
            log(`debug: deciding on ${e.kind}: ${messageOf(err)}`);
          }
        }
      } finally {
        this.decidingThread = undefined;
      }
    }
    if (!stop) {
      await located;
      await conn
        .send('VM.RESUME')
        .catch((e: unknown) => log(`debug: resuming a skipped event: ${messageOf(e)}`));
      // what the game stood still for: from the event's arrival to the resume's reply
      const ms = performance.now() - arrival.at;
      for (const bp of decided) {
        const c = (bp.stopCost ??= { stops: 0, totalMs: 0, maxMs: 0 });
        c.stops++;
        c.totalMs += ms;
        c.maxMs = Math.max(c.maxMs, ms);
        // the latest stops, for a median (a first hit binds its programs and costs more)
        (c.recentMs ??= []).push(ms);
        if (c.recentMs.length > 100) c.recentMs.shift();
      }
      return;
    }
    const [loc] = await Promise.all([located, this.d.stepper.clear(conn)]); // any stop ends a step
    if (loc) stop.location = loc;
    // Another thread stopped while we are paused: it keeps its level (and its place) and
    // becomes the pause when the current one ends.
    pauses.add(stop);
  }

  /**
   * A type a pending breakpoint waits for has loaded (the game is suspended by its event):
   * resolve the breakpoint again and arm it. Wire commands only, no operation: the event may
   * come while an evaluation holds the session (its call compiled the type).
   */
  private async bindOnLoad(conn: SdbConnection, ev: SdbEvent): Promise<void> {
    const { table, log } = this.d;
    const bp = table.ofRequest(ev.requestId);
    const spec = bp && table.specOf(bp.id);
    const cache = this.d.cache();
    const catalog = this.d.catalog();
    if (!bp?.pending || !spec || !cache || !catalog) return;
    let locations: CodeLocation[];
    try {
      locations = await resolveBreakpoint({ conn, catalog }, cache, spec);
    } catch (e) {
      // another type of the same file: keep waiting for the one with the line
      if (spec.file !== undefined && e instanceof UnityError && e.code === 'NO_LOCATION') return;
      bp.bindError = messageOf(e);
      delete bp.pending;
      await table.clearRequest(conn, bp, EventKind.TYPE_LOAD);
      log(`debug: breakpoint ${bp.id} could not bind: ${bp.bindError}`);
      return;
    }
    bp.locations = locations;
    delete bp.pending;
    // the type has loaded: its load request has done its work whatever follows
    await table.clearRequest(conn, bp, EventKind.TYPE_LOAD);
    try {
      await table.armLines(conn, bp);
      log(`debug: breakpoint ${bp.id} bound at ${locations.map((l) => l.method).join(', ')}`);
    } catch (e) {
      bp.bindError = messageOf(e);
      bp.locations = [];
      table.list(bp); // armLines' failure path forgets it; it stays listed
      log(`debug: breakpoint ${bp.id} could not bind: ${bp.bindError}`);
    }
  }

  /** A hit of a logpoint or a watch: recorded or sampled, never a stop. */
  private neverStops(ev: SdbEvent): boolean {
    if (ev.kind !== 'BREAKPOINT' || this.d.stepper.owns(ev)) return false;
    const bp = this.d.table.ofRequest(ev.requestId);
    return bp !== undefined && (bp.log !== undefined || this.d.samplers.has(bp.id));
  }

  private async decide(
    conn: SdbConnection,
    ev: SdbEvent,
    arrival: Arrival,
  ): Promise<PendingStop | undefined> {
    if (this.d.stepper.owns(ev)) return this.d.stepper.decide(conn, ev);
    if (ev.kind !== 'BREAKPOINT' && ev.kind !== 'EXCEPTION') return undefined;
    const bp = this.d.table.ofRequest(ev.requestId);
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
      if (bp.log !== undefined) return this.logHit(conn, bp, ev, arrival);
      return this.sampled(conn, bp, ev, arrival) ?? base;
    }
    let verdict: boolean | string;
    try {
      verdict = await this.condition(conn, bp, ev.threadId);
    } catch (e) {
      verdict = messageOf(e);
    }
    if (verdict === false) return undefined;
    if (typeof verdict === 'string') {
      // a logpoint never pauses: the entry says why it could not decide
      if (bp.log !== undefined) return this.logHit(conn, bp, ev, arrival, verdict);
      return { ...base, conditionError: verdict };
    }
    bp.hits++;
    if (bp.hitCount !== undefined && bp.hits !== bp.hitCount) return undefined;
    if (bp.hitCount !== undefined) bp.spent = true;
    if (bp.log !== undefined) return this.logHit(conn, bp, ev, arrival);
    return this.sampled(conn, bp, ev, arrival) ?? base;
  }

  /** A watch's hit handed to its sampler (a promise of no stop); undefined for other breakpoints. */
  private sampled(
    conn: SdbConnection,
    bp: Breakpoint,
    ev: SdbEvent & { kind: 'BREAKPOINT' | 'STEP' },
    arrival: Arrival,
  ): Promise<undefined> | undefined {
    const sampler = this.d.samplers.get(bp.id);
    if (!sampler) return undefined;
    return sampler(ev.threadId, arrival, conn, stopPlace(bp, ev)).then(
      () => undefined,
      (e: unknown) => {
        this.d.log(`debug: watch ${bp.id} sampling: ${messageOf(e)}`);
        return undefined;
      },
    );
  }

  /**
   * A logpoint's hit: its holes evaluated in the frame, the entry recorded; never a stop (the
   * caller gives the level back). A hole that fails records its error; so does a probe that
   * could not run at all: the hit is never dropped.
   */
  private async logHit(
    conn: SdbConnection,
    bp: Breakpoint,
    ev: SdbEvent & { kind: 'BREAKPOINT' | 'STEP' },
    arrival: Arrival,
    conditionError?: string,
  ): Promise<undefined> {
    const threadId = ev.threadId;
    const { parts, codes, readOnly } = logPlan(bp);
    const at = stopPlace(bp, ev);
    // holes that only read are evaluated before the frame is read: ask for it now, while the
    // turn is taken (one round trip less before the holes' own reads)
    const place = at && readOnly ? { ...at, frames: readFrames(conn, threadId) } : at;
    place?.frames?.catch(() => undefined); // its reader reports a failure
    let holes: HoleResult[];
    let frame: number | undefined;
    try {
      // urgent: the game stands at the hit until this is read (never behind queued calls)
      const r = await this.d.session.run(
        'logpoint',
        bp.owner,
        (ctx) => probeFrame(ctx, this.d.locations(ctx), threadId, codes, false, place),
        { urgent: true, heldBy: conn },
      );
      holes = r.value.results.map((x) => (x.kind === 'error' ? { error: x.error } : holeResult(x)));
      // the frame is known when the message reads it (no invoke of our own at every hit)
      const frameHole = codes.findIndex((c) => FRAME_COUNT_HOLE.test(c));
      const n = frameHole >= 0 ? numberOf(r.value.results[frameHole]!) : undefined;
      if (n !== undefined) frame = n;
    } catch (e) {
      const error = messageOf(e);
      holes = codes.map(() => ({ error }));
    }
    const errors = [
      ...(conditionError !== undefined
        ? [{ code: `condition ${bp.condition!}`, error: conditionError }]
        : []),
      ...holes.flatMap((h, i) => ('error' in h ? [{ code: codes[i]!, error: h.error }] : [])),
    ];
    this.d.traces.record({
      breakpointId: bp.id,
      time: arrival.wall,
      ...(frame !== undefined ? { frame } : {}),
      threadId,
      message: renderMessage(parts, holes),
      ...(errors.length ? { errors } : {}),
    });
    return undefined;
  }

  /** true/false, or why it could not be decided. */
  private async condition(
    conn: SdbConnection,
    bp: Breakpoint,
    threadId: number,
  ): Promise<boolean | string> {
    const r = await this.d.session.run(
      'breakpoint condition',
      bp.owner,
      (ctx) => evaluateInFrame(ctx, this.d.locations(ctx), threadId, 0, bp.condition!),
      // the game stands at the hit until it is decided, held by the event's level
      { urgent: true, heldBy: conn },
    );
    const v = r.value;
    if (v.kind === 'value' && v.value.kind === 'bool') return v.value.value;
    if (v.kind === 'exception') return `the condition threw ${v.type}: ${v.message}`;
    return `the condition is not a bool (${v.kind === 'value' ? v.type : 'void'})`;
  }

  /** Where the thread stopped: its top managed frame. */
  private async topLocation(
    conn: SdbConnection,
    threadId: number,
  ): Promise<CodeLocation | undefined> {
    const frames = await conn.send('THREAD.GET_FRAME_INFO', { threadId });
    const top = frames.find((f) => (f.flags & FrameFlags.NATIVE_TRANSITION) === 0);
    const cache = this.d.cache();
    if (!top || !cache) return undefined;
    const method = await cache.displayName(top.methodId);
    const at = pointAt(await cache.points(top.methodId).catch(() => []), top.ilOffset);
    return {
      method,
      methodId: top.methodId,
      ilOffset: top.ilOffset,
      ...(at ? { line: at.line } : {}),
      ...(at?.file ? { file: at.file } : {}),
    };
  }
}
