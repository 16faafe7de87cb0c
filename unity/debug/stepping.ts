// Stepping, for the Debugger of one GameSession: the step under way (one at a time, as Mono 6.8
// allows), how a step starts (from the pause, or from a plain hold), and what the events of its
// requests mean. The requests themselves are step-requests.ts; docs/solutions/breakpoint-pauses.md
// says why each exists.

import {
  EventKind,
  type EventKindValue,
  type SdbConnection,
  type SdbEvent,
} from '../../sdb-protocol/index.js';
import { Errors, UnityError, messageOf } from '../errors.js';
import {
  sumCosts,
  type GameSession,
  type OperationContext,
  type OperationCost,
  type OperationResult,
} from '../session/session.js';
import type { StepKind, Stop } from './debug-types.js';
import type { LocationCache } from './locations.js';
import type { Pauses, PendingStop } from './pauses.js';
import {
  noLineToStepFrom,
  onSourceLine,
  setFirstLineRequest,
  setGameCodeEntryRequest,
  setStepRequest,
} from './step-requests.js';

/** The agent request a step is waiting on: a STEP one, or (from native code) METHOD_ENTRY. */
export interface StepRequest {
  requestId: number;
  owner: string;
  eventKind: EventKindValue;
  threadId: number;
}

/** What the debugger it belongs to gives the stepper: the session, pauses, log and the bound connection. */
export interface StepperDeps {
  session: GameSession;
  pauses: Pauses;
  log: (m: string) => void;
  /** The connection the debugger is bound to, if any. */
  bound(): SdbConnection | undefined;
  /** The location cache of the bound connection, if any. */
  cache(): LocationCache | undefined;
  /** Binds the debugger to the operation's connection; its location cache. */
  locations(ctx: OperationContext): LocationCache;
}

export class Stepper {
  private request: StepRequest | undefined;

  constructor(private readonly d: StepperDeps) {}

  /** Who the step under way is for, if one is. */
  get owner(): string | undefined {
    return this.request?.owner;
  }

  /**
   * Lets the paused game run (resume) or steps its stopped thread, then waits for the stop.
   * Without an event pause, steps from the caller's hold (see stepFromHold).
   */
  async step(
    caller: string,
    kind: StepKind,
    options: { force?: boolean; timeoutMs: number; threadId?: number; signal?: AbortSignal },
  ): Promise<OperationResult<Stop | undefined>> {
    const { pauses, session } = this.d;
    if (!pauses.current) return this.stepFromHold(caller, kind, options);
    const p = pauses.owned(caller, options.force === true, `debug_step ${kind}`);
    // The wait for the stop happens outside the operation, so that it holds no lock while the
    // game runs (a condition on the way is evaluated in an operation of its own).
    const r = await session.run(
      `debug_step ${kind}`,
      caller,
      async (ctx) => {
        if (ctx.conn !== this.d.bound()) throw Errors.notPaused(`debug_step ${kind}`);
        // With another thread's stop in line, the game cannot run (that stop keeps it
        // suspended): ending this pause makes that stop the pause, and a step never starts.
        if (kind === 'resume' || pauses.inLine().length > 0) {
          await pauses.resume(ctx.conn);
          return { next: Promise.resolve(pauses.current) };
        }
        await this.arm(ctx.conn, caller, p.threadId, kind);
        const next = pauses.nextStop(options.timeoutMs, options.signal);
        await pauses.resume(ctx.conn);
        return { next };
      },
      // no window, but a turn: the resume must not land in another operation's invoke
      { window: false, turn: true, urgent: true },
    );
    return afterStep(r);
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
    options: { timeoutMs: number; threadId?: number; signal?: AbortSignal },
  ): Promise<OperationResult<Stop | undefined>> {
    const { session } = this.d;
    const what = `debug_step ${kind}`;
    const { mine, others } = session.holdsOf(caller);
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
      const r = await session.run(
        what,
        caller,
        async (ctx) => {
          this.d.locations(ctx);
          const thread = options.threadId ?? (await ctx.mainThread());
          await this.arm(ctx.conn, caller, thread, kind, ctx);
          // wrapped: a promise returned bare would be awaited inside the operation
          return { next: this.d.pauses.nextStop(options.timeoutMs, options.signal) };
        },
        // a window (nested in the hold): finding the main thread may invoke
        { window: true },
      );
      costs.push(r.cost);
      next = r.value.next;
    }
    for (let i = 0; i < mine; i++) costs.push((await session.release(caller)).cost);
    return afterStep({ value: { next }, cost: sumCosts(costs) });
  }

  /** Arms the step (the one Mono 6.8 allows at a time); see stepFromHold for `fromHold`. */
  private async arm(
    conn: SdbConnection,
    owner: string,
    threadId: number,
    kind: Exclude<StepKind, 'resume'>,
    fromHold?: OperationContext,
  ): Promise<void> {
    await this.clear(conn);
    if (fromHold && !(await onSourceLine(conn, this.d.cache()!, threadId))) {
      if (kind !== 'into') throw noLineToStepFrom(threadId, kind);
      const requestId = await setGameCodeEntryRequest(fromHold);
      this.request = { requestId, owner, eventKind: EventKind.METHOD_ENTRY, threadId };
      return;
    }
    const requestId = await setStepRequest(conn, threadId, kind);
    // IL2CPP makes no request for a step out of the thread's outermost frame (id 0): the game
    // stays where it is rather than run on with nothing to stop it
    if (requestId === 0) throw Errors.stepOutOfOutermost(threadId, conn.runtime.label);
    this.request = { requestId, owner, eventKind: EventKind.STEP, threadId };
  }

  /** Clears the step's request, if a step is under way (a failure is logged). */
  async clear(conn: SdbConnection): Promise<void> {
    const s = this.request;
    if (!s) return;
    this.request = undefined;
    if (!conn.isClosed)
      await conn
        .send('EVENT_REQUEST.CLEAR', { eventKind: s.eventKind, requestId: s.requestId })
        .catch((e: unknown) => this.d.log(`debug: clearing a step: ${messageOf(e)}`));
  }

  /** Forgets the step without clearing it; its request, for a caller that clears it. */
  forget(): StepRequest | undefined {
    const s = this.request;
    this.request = undefined;
    return s;
  }

  /** Whether `ev` is an event of the step's request. */
  owns(ev: SdbEvent): boolean {
    return (
      this.request !== undefined &&
      (ev.kind === 'STEP' || ev.kind === 'METHOD_ENTRY' || ev.kind === 'BREAKPOINT') &&
      ev.requestId === this.request.requestId
    );
  }

  /** What an event of the step's request (see owns) means: the step's stop, or none. */
  async decide(conn: SdbConnection, ev: SdbEvent): Promise<PendingStop | undefined> {
    const st = this.request!;
    if (ev.threadId !== st.threadId) return undefined; // another thread came by
    if (ev.kind === 'METHOD_ENTRY' && (await this.toFirstLine(conn, ev))) return undefined;
    return { reason: 'step', owner: st.owner, threadId: ev.threadId };
  }

  /**
   * A step from native code entered game code, still in the method's prologue (IL offset -1,
   * before any line). The step goes on to the method's first line by a breakpoint there (a
   * STEP request from the prologue never fires on Mono 6.8): true when it was armed and this
   * level can go back.
   */
  private async toFirstLine(conn: SdbConnection, ev: { methodId: number }): Promise<boolean> {
    const st = this.request!;
    try {
      await this.clear(conn);
      const requestId = await setFirstLineRequest(conn, this.d.cache()!, ev.methodId);
      if (requestId === undefined) return false;
      this.request = { ...st, requestId, eventKind: EventKind.BREAKPOINT };
      return true;
    } catch (e) {
      this.d.log(`debug: going on to the first line of an entered method: ${messageOf(e)}`);
      return false;
    }
  }
}

/** Waits for the stop a step leads to; the wait counts in the step's wall time. */
async function afterStep(
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
