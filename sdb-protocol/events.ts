// Composite event packets (agent → client, set EVENT, command COMPOSITE): sdb-protocol.md §5.

import type { PacketReader } from './buffer-reader.js';
import { SdbProtocolError } from './errors.js';
import { EventKind } from './vocabulary.js';
import type { ProtocolVersion } from './version.js';

interface Base {
  /** 0 for the agent's own events (VM_START, VM_DEATH). */
  requestId: number;
  /** Thread object id; 0 for VM_DEATH. */
  threadId: number;
}

export type SdbEvent =
  | (Base & { kind: 'VM_START'; rootDomainId: number })
  | (Base & { kind: 'VM_DEATH'; /** since 2.27 */ exitCode?: number })
  | (Base & { kind: 'THREAD_START' | 'THREAD_DEATH' | 'KEEPALIVE' | 'USER_BREAK' })
  | (Base & { kind: 'APPDOMAIN_CREATE' | 'APPDOMAIN_UNLOAD'; domainId: number })
  | (Base & { kind: 'METHOD_ENTRY' | 'METHOD_EXIT'; methodId: number })
  | (Base & { kind: 'ASSEMBLY_LOAD' | 'ASSEMBLY_UNLOAD'; assemblyId: number })
  /** The IL offset is often 0 on Mono 6.8: read the real location with THREAD.GET_FRAME_INFO. */
  | (Base & { kind: 'BREAKPOINT' | 'STEP'; methodId: number; ilOffset: number })
  | (Base & { kind: 'TYPE_LOAD'; typeId: number })
  | (Base & { kind: 'EXCEPTION'; exceptionId: number })
  | (Base & { kind: 'USER_LOG'; level: number; category: string; message: string })
  | (Base & { kind: 'CRASH'; hash: bigint; dump: string });

export type SdbEventKind = SdbEvent['kind'];

export interface EventSet {
  /** SuspendPolicy: with ALL the agent raised the suspend count once for this set. */
  suspendPolicy: number;
  events: SdbEvent[];
}

export function readEventSet(r: PacketReader, v: ProtocolVersion): EventSet {
  const suspendPolicy = r.u8();
  // every event takes at least 9 bytes (kind, request id, thread id)
  return { suspendPolicy, events: r.list('event', 9, (x) => readEvent(x, v)) };
}

function readEvent(r: PacketReader, v: ProtocolVersion): SdbEvent {
  const kind = r.u8();
  const base: Base = { requestId: r.i32(), threadId: r.threadId() };
  switch (kind) {
    case EventKind.VM_START:
      return { ...base, kind: 'VM_START', rootDomainId: r.id('domain') };
    case EventKind.VM_DEATH:
      return v.atLeast(27)
        ? { ...base, kind: 'VM_DEATH', exitCode: r.i32() }
        : { ...base, kind: 'VM_DEATH' };
    case EventKind.THREAD_START:
      return { ...base, kind: 'THREAD_START' };
    case EventKind.THREAD_DEATH:
      return { ...base, kind: 'THREAD_DEATH' };
    case EventKind.APPDOMAIN_CREATE:
      return { ...base, kind: 'APPDOMAIN_CREATE', domainId: r.id('domain') };
    case EventKind.APPDOMAIN_UNLOAD:
      return { ...base, kind: 'APPDOMAIN_UNLOAD', domainId: r.id('domain') };
    case EventKind.METHOD_ENTRY:
      return { ...base, kind: 'METHOD_ENTRY', methodId: r.methodId() };
    case EventKind.METHOD_EXIT:
      return { ...base, kind: 'METHOD_EXIT', methodId: r.methodId() };
    case EventKind.ASSEMBLY_LOAD:
      return { ...base, kind: 'ASSEMBLY_LOAD', assemblyId: r.id('assembly') };
    case EventKind.ASSEMBLY_UNLOAD:
      return { ...base, kind: 'ASSEMBLY_UNLOAD', assemblyId: r.id('assembly') };
    case EventKind.BREAKPOINT:
      return { ...base, kind: 'BREAKPOINT', methodId: r.methodId(), ilOffset: r.i64n('IL offset') };
    case EventKind.STEP:
      return { ...base, kind: 'STEP', methodId: r.methodId(), ilOffset: r.i64n('IL offset') };
    case EventKind.TYPE_LOAD:
      return { ...base, kind: 'TYPE_LOAD', typeId: r.typeId() };
    case EventKind.EXCEPTION:
      return { ...base, kind: 'EXCEPTION', exceptionId: r.objectId() };
    case EventKind.KEEPALIVE:
      return { ...base, kind: 'KEEPALIVE' };
    case EventKind.USER_BREAK:
      return { ...base, kind: 'USER_BREAK' };
    case EventKind.USER_LOG:
      return {
        ...base,
        kind: 'USER_LOG',
        level: r.i32(),
        category: r.string(),
        message: r.string(),
      };
    case EventKind.CRASH:
      return { ...base, kind: 'CRASH', hash: r.u64(), dump: r.string() };
    default:
      // Without a length per event, an unknown kind leaves the rest of the set unreadable.
      throw new SdbProtocolError(`unknown event kind ${kind}`);
  }
}
