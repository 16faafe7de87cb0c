// Who gets the game next, per game: operations that open a suspend window run one at a time;
// the ones waiting are kept per caller (FIFO within a caller) and callers are served
// round-robin, so one caller's burst never starves another: a call waits at most for the
// operation in progress plus one turn of each other caller with work queued. Operations the game
// is already stopped for (a breakpoint's condition, a logpoint, a watch sample: `urgent`) go
// first. Operations without a window never come here (GameSession runs them at once). Every
// wait is bounded. Heavy work that must run alone per game (one `advance` at a time) has a slot
// of its own (`heavy`), FIFO and bounded, whose holder's windows still go through the queue.
// See docs/solutions/session-promises.md.

import { Errors } from '../errors.js';

/** How a call shares the game (mcp/tool.ts Tier), or `internal` for work of no tool call. */
export type QueueTier = 'instant' | 'smooth' | 'heavy' | 'internal';

export interface TurnRequest {
  caller: string;
  label: string;
  tier: QueueTier;
  /** The game is stopped for this operation already: served before anything queued. */
  urgent?: boolean;
  waitMs: number;
  /**
   * Told where it waits in line (1: next) each time that changes, and `undefined` once it is
   * served or gives up (a long call's progress reports it).
   */
  onPosition?: (position: number | undefined) => void;
}

/** A granted turn: release it once (a second release does nothing). */
export interface Turn {
  readonly id: number;
  /** How long it waited for its turn (ms). */
  readonly waitedMs: number;
  /** How many other operations held the game while it waited. */
  readonly ranBefore: number;
  release(): void;
}

/** An operation holding the game, or waiting for it, as queue_status shows it. */
export interface QueuedOperation {
  caller: string;
  label: string;
  tier: QueueTier;
  /** Since it started running, or since it began waiting (ms). */
  ms: number;
}

export interface QueueState {
  running?: QueuedOperation;
  /** Waiting, in the order they would be served now. */
  waiting: QueuedOperation[];
  /** The heavy slot's holder (an `advance`), and who waits for it. */
  heavy?: QueuedOperation;
  heavyWaiting: QueuedOperation[];
  /** Turns granted so far. */
  served: number;
  /** Turns granted so far to operations of each tier (an `instant` one is a bug: see tests). */
  servedByTier: Record<QueueTier, number>;
}

/** What a heavy work waited for its slot: ms, and how many ran before it meanwhile. */
export interface HeavyWait {
  waitedMs: number;
  ranBefore: number;
}

interface Waiter {
  req: TurnRequest;
  since: number;
  /** Turns granted when it began waiting, and whether one was running. */
  grantsBefore: number;
  busyBefore: boolean;
  grant: (t: Turn) => void;
  timer: NodeJS.Timeout;
  /** The position last told to req.onPosition. */
  told?: number;
}

interface Running {
  id: number;
  req: TurnRequest;
  since: number;
}

export class Scheduler {
  private running: Running | undefined;
  private readonly queues = new Map<string, Waiter[]>();
  /** Callers with work queued, in the order they are served (the running caller is not here). */
  private readonly ring: string[] = [];
  private readonly urgent: Waiter[] = [];
  private grants = 0;
  private nextId = 0;
  private readonly byTier: Record<QueueTier, number> = {
    instant: 0,
    smooth: 0,
    heavy: 0,
    internal: 0,
  };
  private readonly heavySlot = new HeavySlot();
  /** Waiters with an onPosition (the serving order is worked out only when one waits). */
  private watching = 0;

  /** The turn running now, if any (its id: see GameSession's nested operations). */
  get current(): number | undefined {
    return this.running?.id;
  }

  state(): QueueState {
    const now = performance.now();
    const op = (req: TurnRequest, since: number): QueuedOperation => ({
      caller: req.caller,
      label: req.label,
      tier: req.tier,
      ms: Math.round(now - since),
    });
    return {
      ...(this.running ? { running: op(this.running.req, this.running.since) } : {}),
      waiting: this.servingOrder().map((w) => op(w.req, w.since)),
      ...this.heavySlot.state(now),
      served: this.grants,
      servedByTier: { ...this.byTier },
    };
  }

  /** Resolves with the turn once granted; rejects with TIMEOUT after `waitMs`, naming what it waited behind. */
  acquire(req: TurnRequest): Promise<Turn> {
    if (!this.running && this.urgent.length === 0 && this.ring.length === 0)
      return Promise.resolve(this.start(req, 0, 0));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        req,
        since: performance.now(),
        grantsBefore: this.grants,
        busyBefore: this.running !== undefined,
        grant: resolve,
        timer: setTimeout(() => {
          const behind = this.describeAhead(waiter);
          this.remove(waiter);
          reject(
            Errors.timeout(
              `waiting for the game before ${req.label} (behind ${behind})`,
              req.waitMs,
              false,
            ),
          );
        }, req.waitMs),
      };
      if (req.urgent) this.urgent.push(waiter);
      else {
        const q = this.queues.get(req.caller);
        if (q) q.push(waiter);
        else {
          this.queues.set(req.caller, [waiter]);
          if (this.running?.req.caller !== req.caller) this.ring.push(req.caller);
        }
      }
      if (req.onPosition) this.watching++;
      this.tellPositions();
    });
  }

  /**
   * Runs `fn` holding the heavy slot of kind `what` (one holder per game; others wait FIFO,
   * bounded by `waitMs`, then TIMEOUT naming the holder).
   */
  heavy<T>(
    what: string,
    caller: string,
    waitMs: number,
    fn: (waited: HeavyWait) => Promise<T>,
  ): Promise<T> {
    return this.heavySlot.run(what, caller, waitMs, fn);
  }

  private start(req: TurnRequest, waitedMs: number, ranBefore: number): Turn {
    const id = ++this.nextId;
    this.grants++;
    this.byTier[req.tier]++;
    this.running = { id, req, since: performance.now() };
    let released = false;
    return {
      id,
      waitedMs: Math.round(waitedMs * 100) / 100,
      ranBefore,
      release: () => {
        if (released) return;
        released = true;
        this.finish(req.caller);
      },
    };
  }

  private finish(caller: string): void {
    this.running = undefined;
    // the caller just served goes behind every other caller with work
    if (this.queues.has(caller) && !this.ring.includes(caller)) this.ring.push(caller);
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    const next = this.urgent.shift() ?? this.takeFromRing();
    if (!next) return;
    clearTimeout(next.timer);
    this.untell(next);
    const ranBefore = this.grants - next.grantsBefore + (next.busyBefore ? 1 : 0);
    next.grant(this.start(next.req, performance.now() - next.since, ranBefore));
    this.tellPositions();
  }

  /** Tells every waiter that asked where it now stands, when that changed. */
  private tellPositions(): void {
    if (this.watching === 0) return;
    this.servingOrder().forEach((w, i) => {
      if (!w.req.onPosition || w.told === i + 1) return;
      w.told = i + 1;
      w.req.onPosition(i + 1);
    });
  }

  /** A waiter leaves the line (served or gave up): its position is no more. */
  private untell(w: Waiter): void {
    if (!w.req.onPosition) return;
    this.watching--;
    if (w.told !== undefined) w.req.onPosition(undefined);
  }

  private takeFromRing(): Waiter | undefined {
    const caller = this.ring.shift();
    if (caller === undefined) return undefined;
    const q = this.queues.get(caller)!;
    const w = q.shift()!;
    if (q.length === 0) this.queues.delete(caller);
    return w;
  }

  private remove(w: Waiter): void {
    this.untell(w);
    const u = this.urgent.indexOf(w);
    if (u >= 0) this.urgent.splice(u, 1);
    const q = this.queues.get(w.req.caller);
    const i = q ? q.indexOf(w) : -1;
    if (q && i >= 0) {
      q.splice(i, 1);
      if (q.length === 0) {
        this.queues.delete(w.req.caller);
        const r = this.ring.indexOf(w.req.caller);
        if (r >= 0) this.ring.splice(r, 1);
      }
    }
    this.pump();
    this.tellPositions();
  }

  /** The waiters in the order they would be served if nothing else arrived. */
  private servingOrder(): Waiter[] {
    const out = [...this.urgent];
    const queues = new Map([...this.queues].map(([c, q]) => [c, [...q]]));
    const ring = [...this.ring];
    const runningCaller = this.running?.req.caller;
    if (runningCaller !== undefined && queues.has(runningCaller) && !ring.includes(runningCaller))
      ring.push(runningCaller);
    while (ring.length > 0) {
      const c = ring.shift()!;
      const q = queues.get(c)!;
      out.push(q.shift()!);
      if (q.length > 0) ring.push(c);
    }
    return out;
  }

  /** What a waiter has ahead of it, for its TIMEOUT message. */
  private describeAhead(w: Waiter): string {
    const r = this.running;
    const order = this.servingOrder();
    const ahead = order.slice(0, Math.max(0, order.indexOf(w)));
    const running = r
      ? `${r.req.label} for ${r.req.caller}, running ${Math.round(performance.now() - r.since)} ms`
      : 'nothing running';
    const callers = [...new Set(ahead.map((a) => a.req.caller))];
    return ahead.length > 0
      ? `${running}, then ${ahead.length} queued of ${callers.join(', ')}`
      : running;
  }
}

/** One holder at a time, FIFO, bounded waits (the heavy work that must run alone per game). */
class HeavySlot {
  private grants = 0;
  private holder: { what: string; caller: string; since: number } | undefined;
  private readonly waiting: {
    what: string;
    caller: string;
    since: number;
    go: () => void;
  }[] = [];

  state(now: number): Pick<QueueState, 'heavy' | 'heavyWaiting'> {
    const op = (x: { what: string; caller: string; since: number }): QueuedOperation => ({
      caller: x.caller,
      label: x.what,
      tier: 'heavy',
      ms: Math.round(now - x.since),
    });
    return {
      ...(this.holder ? { heavy: op(this.holder) } : {}),
      heavyWaiting: this.waiting.map(op),
    };
  }

  async run<T>(
    what: string,
    caller: string,
    waitMs: number,
    fn: (waited: HeavyWait) => Promise<T>,
  ): Promise<T> {
    let waited: HeavyWait = { waitedMs: 0, ranBefore: 0 };
    if (this.holder || this.waiting.length > 0) {
      const since = performance.now();
      const grantsBefore = this.grants;
      await this.wait(what, caller, waitMs);
      waited = {
        waitedMs: Math.round((performance.now() - since) * 100) / 100,
        // its own grant counts in place of the holder's when it began waiting
        ranBefore: this.grants - grantsBefore,
      };
    } else {
      this.holder = { what, caller, since: performance.now() };
      this.grants++;
    }
    try {
      return await fn(waited);
    } finally {
      this.handOver();
    }
  }

  /** The slot goes to the next in line at once (so no newcomer slips in between). */
  private handOver(): void {
    const next = this.waiting.shift();
    this.holder = next && { what: next.what, caller: next.caller, since: performance.now() };
    if (next) this.grants++;
    next?.go();
  }

  private wait(what: string, caller: string, waitMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry = {
        what,
        caller,
        since: performance.now(),
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        const h = this.holder;
        reject(
          Errors.timeout(
            `waiting for the game's ${h ? `${h.what} for ${h.caller} (running ${Math.round(performance.now() - h.since)} ms)` : 'heavy work'} to end before ${what}: one runs at a time per game`,
            waitMs,
            false,
          ),
        );
      }, waitMs);
      this.waiting.push(entry);
    });
  }
}
