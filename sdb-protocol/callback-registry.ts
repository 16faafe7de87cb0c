// Owns request ids and their timers. (A failure's stack shows the callers that awaited the
// request: made by SdbConnection.send once the request failed, see awaitedBy there.)

import { SdbTimeoutError } from './errors.js';
import type { ReplyPacket } from './framing.js';

interface Pending {
  readonly label: string;
  /** Returns true when this was the last reply the request expects. */
  readonly onReply: (reply: ReplyPacket) => boolean;
  readonly fail: (error: Error) => void;
  readonly timeoutMs: number;
  /** performance.now() after which the request fails; Infinity for none. */
  readonly deadline: number;
}

export class CallbackRegistry {
  private readonly pending = new Map<number, Pending>();
  /**
   * Starts at a random point: after a client left mid-invoke, Mono delivers that invoke's reply,
   * with the old session's id, to whoever is connected next; a fresh id range keeps it from
   * resolving one of our requests.
   */
  private lastId = 1 + Math.floor(Math.random() * 0x3fffffff);
  /** Replies for ids no longer pending (timed out) or never sent. */
  stray = 0;
  /**
   * One timer for all requests, armed for the earliest deadline: a burst of a thousand requests
   * costs no thousand timers.
   */
  private timer: NodeJS.Timeout | undefined;
  private timerDeadline = Infinity;

  nextId(): number {
    // Ids are positive int32; wrapping after 2^31 requests is harmless once the old ones are done.
    this.lastId = this.lastId >= 0x7fffffff ? 1 : this.lastId + 1;
    return this.lastId;
  }

  get size(): number {
    return this.pending.size;
  }

  register(
    id: number,
    label: string,
    timeoutMs: number,
    onReply: Pending['onReply'],
    fail: (error: Error) => void,
  ): void {
    const bounded = timeoutMs > 0 && Number.isFinite(timeoutMs);
    const deadline = bounded ? performance.now() + timeoutMs : Infinity;
    this.pending.set(id, { label, onReply, fail, timeoutMs, deadline });
    if (deadline < this.timerDeadline) this.arm(deadline);
  }

  private arm(deadline: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerDeadline = deadline;
    this.timer = undefined;
    if (deadline === Infinity) return;
    this.timer = setTimeout(
      () => this.expire(),
      Math.max(0, Math.ceil(deadline - performance.now())),
    );
    this.timer.unref();
  }

  private expire(): void {
    const now = performance.now();
    let next = Infinity;
    for (const [id, entry] of this.pending) {
      if (entry.deadline <= now) {
        this.pending.delete(id);
        entry.fail(new SdbTimeoutError(entry.label, entry.timeoutMs));
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    this.timerDeadline = Infinity;
    this.timer = undefined;
    this.arm(next);
  }

  /** Routes a reply; false when nobody waits for this id any more. */
  resolve(reply: ReplyPacket): boolean {
    const entry = this.pending.get(reply.id);
    if (!entry) {
      this.stray++;
      return false;
    }
    if (entry.onReply(reply)) {
      this.pending.delete(reply.id);
    }
    return true;
  }

  /** Fails one request (e.g. its packet could not be written). */
  reject(id: number, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.fail(error);
  }

  /** Fails every pending request with the same cause, at once. */
  rejectAll(error: Error): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    this.arm(Infinity);
    for (const entry of entries) entry.fail(error);
  }

  labelOf(id: number): string | undefined {
    return this.pending.get(id)?.label;
  }
}
