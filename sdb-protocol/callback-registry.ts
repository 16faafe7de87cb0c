// Owns request ids, their timers and their callers' stacks. A failure carries the stack of the
// `send` that caused it (captured at send time), not of the socket callback that noticed it.

import { SdbError, SdbTimeoutError } from './errors.js';
import type { ReplyPacket } from './framing.js';

interface Pending {
  readonly label: string;
  /** Holds the caller's stack frames; formatted (costly) only when an error needs them. */
  readonly caller: { stack?: string };
  /**
   * Returns true when this was the last reply the request expects. `decorate` gives an error the
   * caller's stack.
   */
  readonly onReply: (reply: ReplyPacket, decorate: (error: Error) => Error) => boolean;
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
    const caller: { stack?: string } = {};
    Error.captureStackTrace(caller);
    const bounded = timeoutMs > 0 && Number.isFinite(timeoutMs);
    const deadline = bounded ? performance.now() + timeoutMs : Infinity;
    this.pending.set(id, { label, caller, onReply, fail, timeoutMs, deadline });
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
        entry.fail(this.withCallerStack(new SdbTimeoutError(entry.label, entry.timeoutMs), entry));
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
    if (entry.onReply(reply, (e) => this.withCallerStack(e, entry))) {
      this.pending.delete(reply.id);
    }
    return true;
  }

  /** Fails one request (e.g. its packet could not be written). */
  reject(id: number, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.fail(this.withCallerStack(error, entry));
  }

  /** Fails every pending request with the same cause, at once. */
  rejectAll(error: Error): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    this.arm(Infinity);
    for (const entry of entries) entry.fail(this.withCallerStack(error, entry));
  }

  labelOf(id: number): string | undefined {
    return this.pending.get(id)?.label;
  }

  private withCallerStack(error: Error, entry: Pending): Error {
    if (!(error instanceof SdbError)) return error;
    // Each caller gets its own error object so stacks do not leak between requests.
    const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
    Object.assign(copy, error);
    copy.message = error.message;
    if (error.cause !== undefined) copy.cause = error.cause;
    // the caller's frames are formatted (the costly part) when the stack is first read: an
    // error its caller handles (a probe of an object the game collected) never pays for it
    const caller = entry.caller;
    let stack: string | undefined;
    Object.defineProperty(copy, 'stack', {
      configurable: true,
      enumerable: false,
      get: () => {
        if (stack === undefined) {
          const frames = caller.stack?.split('\n').slice(1).join('\n');
          stack = frames ? `${copy.name}: ${copy.message}\n${frames}` : (error.stack ?? '');
        }
        return stack;
      },
      set: (v: string) => {
        stack = v;
      },
    });
    return copy;
  }
}
