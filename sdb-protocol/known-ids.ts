// Mono's agent asserts (and aborts the debuggee) when it receives a type, method, field, ...
// id it never handed out (sdb-protocol.md §2.2). Object ids are checked by the agent itself, so
// only the other kinds are tracked: every id the decoders read is recorded here, and the
// encoders refuse to send one that was never seen on this connection.

import { SdbUnsafeRequestError } from './errors.js';

export type IdKind = 'type' | 'method' | 'field' | 'property' | 'assembly' | 'module' | 'domain';

export class KnownIds {
  private readonly seen: Record<IdKind, Set<number>> = {
    type: new Set(),
    method: new Set(),
    field: new Set(),
    property: new Set(),
    assembly: new Set(),
    module: new Set(),
    domain: new Set(),
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
