// Hands event sets and the close to subscribers. Event sets are delivered on a later turn
// (setImmediate), after every reply of the chunk that carried them: delivery never delays a
// reply, and a listener that throws breaks neither the others nor the connection.

import { SdbProtocolError } from './errors.js';
import type { EventSet } from './events.js';

export type EventListener = (set: EventSet) => void;
export type CloseListener = (reason: Error) => void;

export class EventDelivery {
  private readonly eventListeners = new Set<EventListener>();
  private readonly closeListeners = new Set<CloseListener>();
  private pending: EventSet[] = [];
  private flushScheduled = false;

  constructor(private readonly log: (message: string) => void) {}

  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onClose(listener: CloseListener): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Queues a decoded set for delivery. */
  push(set: EventSet): void {
    this.pending.push(set);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Tells every close listener, once, then forgets them. */
  closed(reason: Error): void {
    for (const listener of [...this.closeListeners]) {
      try {
        listener(reason);
      } catch (e) {
        this.log(`sdb: close listener threw: ${(e as Error).message}`);
      }
    }
    this.closeListeners.clear();
  }

  /** Resolves with the first event set that `match` accepts, or rejects after `timeoutMs`. */
  waitForEvent(match: (set: EventSet) => boolean, timeoutMs: number): Promise<EventSet> {
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        offEvent();
        offClose();
      };
      const timer = setTimeout(() => {
        stop();
        reject(new SdbProtocolError(`no matching event within ${timeoutMs} ms`));
      }, timeoutMs);
      const offEvent = this.onEvent((set) => {
        if (!match(set)) return;
        stop();
        resolve(set);
      });
      const offClose = this.onClose((reason) => {
        stop();
        reject(reason);
      });
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const sets = this.pending;
    this.pending = [];
    for (const set of sets) {
      for (const listener of [...this.eventListeners]) {
        try {
          listener(set);
        } catch (e) {
          this.log(`sdb: event listener threw: ${(e as Error).message}`);
        }
      }
    }
  }
}
