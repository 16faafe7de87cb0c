// The breakpoints of one connection and the agent requests each is made of: their ids, the
// request → breakpoint index events are decided by, what each line breakpoint was asked for
// (pending ones are resolved again on load), and the EVENT_REQUEST.SET / CLEAR that arm and
// disarm them. unity/debug/event-decisions.ts decides what their events mean.

import {
  EventKind,
  SuspendPolicy,
  type EventKindValue,
  type Modifier,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import { messageOf } from '../errors.js';
import type { Breakpoint, BreakpointSpec } from './debug-types.js';
import { loadNames } from './resolve.js';

export class BreakpointTable {
  private readonly breakpoints = new Map<number, Breakpoint>();
  private readonly byRequest = new Map<number, Breakpoint>();
  private readonly specs = new Map<number, BreakpointSpec>();
  private nextId = 1;

  /** `isLive`: whether CLEARs may still be sent on `conn` (the bound, open connection). */
  constructor(
    private readonly log: (m: string) => void,
    private readonly isLive: (conn: SdbConnection) => boolean,
  ) {}

  newId(): number {
    return this.nextId++;
  }

  all(): Breakpoint[] {
    return [...this.breakpoints.values()];
  }

  ids(): number[] {
    return [...this.breakpoints.keys()];
  }

  get(id: number): Breakpoint | undefined {
    return this.breakpoints.get(id);
  }

  /** The breakpoint an event's request belongs to (undefined: cleared meanwhile). */
  ofRequest(requestId: number): Breakpoint | undefined {
    return this.byRequest.get(requestId);
  }

  specOf(id: number): BreakpointSpec | undefined {
    return this.specs.get(id);
  }

  remember(bp: Breakpoint, spec: BreakpointSpec): void {
    this.specs.set(bp.id, spec);
  }

  /** Lists a breakpoint again (a failed arm forgets it; one that failed to bind stays listed). */
  list(bp: Breakpoint): void {
    this.breakpoints.set(bp.id, bp);
  }

  register(bp: Breakpoint, kind: EventKindValue, requestId: number): void {
    bp.requests.push({ kind, requestId });
    this.byRequest.set(requestId, bp);
    this.breakpoints.set(bp.id, bp);
  }

  /** A BREAKPOINT request per location; none left behind when one fails. */
  async armLines(conn: SdbConnection, bp: Breakpoint): Promise<void> {
    // Without a condition the agent counts hits itself (COUNT: only the n-th is reported), so
    // the game is not stopped for the hits before it; with one, we count the hits that pass.
    const count: Modifier[] =
      bp.hitCount !== undefined && bp.condition === undefined
        ? [{ kind: 'count', count: bp.hitCount }]
        : [];
    try {
      for (const l of bp.locations) {
        const requestId = await conn.send('EVENT_REQUEST.SET', {
          eventKind: EventKind.BREAKPOINT,
          suspendPolicy: SuspendPolicy.ALL,
          modifiers: [
            { kind: 'location_only', methodId: l.methodId, ilOffset: l.ilOffset },
            ...count,
          ],
        });
        this.register(bp, EventKind.BREAKPOINT, requestId);
      }
    } catch (e) {
      await this.clearRequests(conn, bp);
      throw e;
    }
  }

  /**
   * A TYPE_LOAD request for the type (by Mono's full name) or the source file a pending
   * breakpoint waits for. Policy ALL: the agent sends it when the type's first method has been
   * compiled, before it runs, and waits for us to bind the breakpoint.
   */
  async armLoad(conn: SdbConnection, bp: Breakpoint, spec: BreakpointSpec): Promise<void> {
    const modifier: Modifier =
      spec.file !== undefined
        ? { kind: 'source_file_only', files: [spec.file.split(/[\\/]/).pop()!] }
        : { kind: 'type_name_only', names: loadNames(spec.type!) };
    const requestId = await conn.send('EVENT_REQUEST.SET', {
      eventKind: EventKind.TYPE_LOAD,
      suspendPolicy: SuspendPolicy.ALL,
      modifiers: [modifier],
    });
    this.register(bp, EventKind.TYPE_LOAD, requestId);
  }

  /** Clears a breakpoint's requests of one kind (it stays listed); a refusal is logged. */
  async clearRequest(conn: SdbConnection, bp: Breakpoint, kind: EventKindValue): Promise<void> {
    for (const r of bp.requests.filter((x) => x.kind === kind)) {
      this.byRequest.delete(r.requestId);
      await conn
        .send('EVENT_REQUEST.CLEAR', { eventKind: kind, requestId: r.requestId })
        .catch((e: unknown) => this.log(`debug: clearing a request: ${messageOf(e)}`));
    }
    bp.requests = bp.requests.filter((x) => x.kind !== kind);
  }

  /** Forgets a breakpoint and clears its requests (a refusal rejects). */
  async clearRequests(conn: SdbConnection, bp: Breakpoint): Promise<void> {
    this.breakpoints.delete(bp.id);
    this.specs.delete(bp.id);
    for (const r of bp.requests) {
      this.byRequest.delete(r.requestId);
      if (this.isLive(conn))
        await conn.send('EVENT_REQUEST.CLEAR', { eventKind: r.kind, requestId: r.requestId });
    }
  }

  /** The connection ended: the agent cleared every request with it. */
  clear(): void {
    this.specs.clear();
    this.breakpoints.clear();
    this.byRequest.clear();
  }
}
