// Mono's agent asserts (and aborts the debuggee) when it receives a type, method, field, ...
// id it never handed out (sdb-protocol.md §2.2), and id 0 ("none", which the agent itself hands
// out for a missing base type or getter) is dereferenced and crashes it too. Object ids are
// checked by the agent, except where a thread is expected: any other object there crashes it.
// So every id the decoders read is recorded here (threads: from thread lists and events), and
// the encoders refuse to send one that was never seen on this connection.

import { SdbUnsafeRequestError } from './errors.js';

export type IdKind =
  'type' | 'method' | 'field' | 'property' | 'assembly' | 'module' | 'domain' | 'thread';

export class KnownIds {
  private readonly seen: Record<IdKind, Set<number>> = {
    type: new Set(),
    method: new Set(),
    field: new Set(),
    property: new Set(),
    assembly: new Set(),
    module: new Set(),
    domain: new Set(),
    thread: new Set(),
  };

  record(kind: IdKind, id: number): void {
    if (id !== 0) this.seen[kind].add(id);
  }

  has(kind: IdKind, id: number): boolean {
    return this.seen[kind].has(id);
  }

  check(kind: IdKind, id: number): void {
    if (!this.seen[kind].has(id)) {
      throw new SdbUnsafeRequestError(
        `refusing to send ${kind} id ${id}: the agent never gave it on this connection, and ` +
          `Mono's agent aborts the game on an unknown ${kind} id (resolve it again after a reconnect)`,
      );
    }
  }
}
