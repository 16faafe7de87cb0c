// Operations on the game share it; an exclusive sequence (several operations that must see the
// game without it moving in between) has it alone. FIFO, so an exclusive request is not starved
// by a stream of shared ones, and every wait is bounded.

import { Errors } from '../errors.js';

interface Waiter {
  exclusive: boolean;
  grant: () => void;
  timer: NodeJS.Timeout;
}

export class RwLock {
  private shared = 0;
  private exclusive = false;
  private readonly queue: Waiter[] = [];

  get state(): { shared: number; exclusive: boolean; waiting: number } {
    return { shared: this.shared, exclusive: this.exclusive, waiting: this.queue.length };
  }

  /** Resolves with the release function once granted; rejects with TIMEOUT after `waitMs`. */
  acquire(exclusive: boolean, waitMs: number, what: string): Promise<() => void> {
    if (this.queue.length === 0 && this.canGrant(exclusive))
      return Promise.resolve(this.take(exclusive));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        exclusive,
        grant: () => resolve(this.take(exclusive)),
        timer: setTimeout(() => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(
            Errors.timeout(
              `waiting for the game (held by ${this.exclusive ? 'an exclusive sequence' : 'other calls'}) before ${what}`,
              waitMs,
              false,
            ),
          );
          this.pump();
        }, waitMs),
      };
      this.queue.push(waiter);
    });
  }

  private canGrant(exclusive: boolean): boolean {
    return exclusive ? !this.exclusive && this.shared === 0 : !this.exclusive;
  }

  private take(exclusive: boolean): () => void {
    if (exclusive) this.exclusive = true;
    else this.shared++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (exclusive) this.exclusive = false;
      else this.shared--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.queue.length > 0 && this.canGrant(this.queue[0]!.exclusive)) {
      const next = this.queue.shift()!;
      clearTimeout(next.timer);
      next.grant();
    }
  }
}
