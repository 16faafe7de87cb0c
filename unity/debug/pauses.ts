// The pauses of one connection: the stop reported to callers (the pause), the stops of other
// threads kept in line behind it (each holding its own suspend level, the oldest first), the
// count of stops reported, and the callers waiting for the next one. Ending the pause gives back
// its level; the stop next in line then becomes the pause.

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { Errors, fromSdbError } from '../errors.js';
import type { Stop } from './debug-types.js';

export type PendingStop = Omit<Stop, 'seq'>;

export class Pauses {
  private seq = 0;
  private pause: Stop | undefined;
  private queued: PendingStop[] = [];
  private readonly waiters = new Set<(s: Stop | undefined) => void>();

  /** The current stop, if the game is paused at an event. */
  get current(): Stop | undefined {
    return this.pause;
  }

  /** Stops reported so far. */
  get stops(): number {
    return this.seq;
  }

  /** The stops in line behind the pause, oldest first. */
  inLine(): PendingStop[] {
    return [...this.queued];
  }

  /** The pause `caller` may act on: the current one, theirs unless forced. */
  owned(caller: string, force: boolean, what: string): Stop {
    const p = this.pause;
    if (!p) throw Errors.notPaused(what);
    if (p.owner !== caller && !force) throw Errors.pauseNotOwned(caller, p.owner);
    return p;
  }

  /** A new stop: the pause, or in line behind the current one (it keeps its level and place). */
  add(stop: PendingStop): void {
    if (this.pause) this.queued.push({ ...stop, queued: true });
    else this.report(stop);
  }

  /**
   * Waits (bounded) for the next stop; a pause already in place is returned at once. `signal`
   * ends the wait early (a cancelled job) as the bound does: undefined.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<Stop | undefined> {
    if (this.pause) return Promise.resolve(this.pause);
    return this.waitFor(() => true, timeoutMs, signal);
  }

  /** The next stop after now (the current pause, if any, does not count); `signal` as wait's. */
  nextStop(timeoutMs: number, signal?: AbortSignal): Promise<Stop | undefined> {
    const after = this.seq;
    return this.waitFor((s) => s.seq > after, timeoutMs, signal);
  }

  private waitFor(
    wanted: (s: Stop) => boolean,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Stop | undefined> {
    return new Promise((resolve) => {
      const end = (s: Stop | undefined): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        this.waiters.delete(done);
        resolve(s);
      };
      const done = (s: Stop | undefined): void => {
        if (s && !wanted(s)) return;
        end(s);
      };
      const aborted = (): void => end(undefined);
      const timer = setTimeout(aborted, timeoutMs);
      if (signal?.aborted) return aborted();
      signal?.addEventListener('abort', aborted, { once: true });
      this.waiters.add(done);
    });
  }

  /**
   * Ends the current pause: gives back the level its event took. A stop in line behind it
   * becomes the pause (the game stays suspended by that stop's level).
   */
  async resume(conn: SdbConnection): Promise<void> {
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

  /**
   * Invokes must leave the other threads suspended while one of them is kept at a stop (the
   * pause, one in line, or `deciding`: the thread whose event is being decided).
   */
  keepsStopped(mainThreadId: number, deciding: number | undefined): boolean {
    const other = (t: number | undefined): boolean => t !== undefined && t !== mainThreadId;
    return (
      other(this.pause?.threadId) || other(deciding) || this.queued.some((q) => other(q.threadId))
    );
  }

  /** Takes `owner`'s stops out of the line: their levels are the caller's to give back. */
  takeQueuedOf(owner: string): PendingStop[] {
    const mine = this.queued.filter((q) => q.owner === owner);
    this.queued = this.queued.filter((q) => q.owner !== owner);
    return mine;
  }

  /** Forgets every stop (the connection resumes their levels as it closes). */
  forget(): void {
    this.pause = undefined;
    this.queued = [];
  }

  /** The connection ended: every stop is forgotten and every waiter told there is none. */
  end(): void {
    this.forget();
    for (const w of [...this.waiters]) w(undefined);
  }

  private report(stop: PendingStop): void {
    const full: Stop = { ...stop, seq: ++this.seq };
    this.pause = full;
    for (const w of [...this.waiters]) w(full);
  }
}
