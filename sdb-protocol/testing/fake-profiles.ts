// How the scripted agent answers as each runtime (runtime-profile.ts): the replies that differ
// from Debian's Mono 6.8, taken from Unity's agent source (Unity 2022.3.10f1's IL2CPP tree,
// Extacy/il2cpp-2022.3 at 3b83bf9: debugger-agent.c as U:line, il2cpp-mono-api.cpp as api:line),
// and the requests each runtime must never receive, which the agent records as violations (and,
// for those that kill a real player, answers by dropping the connection, as the player would).

import { PacketReader } from '../buffer-reader.js';
import { PacketWriter } from '../buffer-writer.js';
import type { CommandPacket } from '../framing.js';
import type { RuntimeKind } from '../runtime-profile.js';
import {
  CommandSet,
  ErrorCode,
  EventKind,
  ModifierKind,
  StepDepth,
  ValueTag,
} from '../vocabulary.js';
import type { FakeReply } from './fake-agent.js';

/** VM.VERSION as each runtime answers it. */
export const versionOf: Record<RuntimeKind, { description: string; minor: number }> = {
  'debian-mono': { description: 'fake mono', minor: 54 },
  // Unity's fork: "mono " + its build info; 2.58 in 2022.3 (U:301-302, U:7917-7918)
  'unity-mono': { description: 'mono 6.13.0 (Unity fork)', minor: 58 },
  // IL2CPP's build info is "0.0 (IL2CPP)" (api:1584-1587)
  il2cpp: { description: 'mono 0.0 (IL2CPP)', minor: 58 },
};

/** A request the runtime must never receive, and what a real player does on it. */
export interface Violation {
  command: string;
  why: string;
  /** The real player dies (the fake drops the connection). */
  fatal: boolean;
}

/** What the agent knows of its game for the profile's decisions (set by tests or fake games). */
export interface FakeRuntimeModel {
  /** Methods with a by-value Nullable<T> parameter (an IL2CPP invoke of one asserts). */
  readonly nullableParamMethods: Set<number>;
  /** Frames per thread: a step out of a thread's only frame gets the empty reply on IL2CPP. */
  readonly frameCounts: Map<number, number>;
  /** Classes loaded before the attach: a TYPE_LOAD request replays them (IL2CPP, deferred). */
  readonly loadedClasses: number[];
  /** Methods the IL2CPP build has no AOT code for: invoking one throws in the game. */
  readonly noAotMethods: Set<number>;
  /** The ExecutionEngineException object such an invoke throws (an object id the test scripts). */
  executionEngineException: number;
  /** The next event request id (the agent's own counter). */
  nextRequestId(): number;
}

const key = (set: number, command: number): string => `${set}/${command}`;

/** Why `p` must never reach an agent of this runtime, or undefined. */
export function violationOf(
  kind: RuntimeKind,
  p: CommandPacket,
  model: FakeRuntimeModel,
): Violation | undefined {
  const k = key(p.commandSet, p.command);
  const r = new PacketReader(Buffer.from(p.body));
  // every runtime: the agent's NOT_IMPLEMENTED / g_assert paths
  if (k === key(CommandSet.VM, 10))
    return { command: 'VM.SET_KEEPALIVE', why: 'SIGABRT when the timer fires', fatal: true };
  if (k === key(CommandSet.METHOD, 8))
    return {
      command: 'METHOD.RESOLVE_TOKEN',
      why: 'segfault (Mono 6.8) / NOT_IMPLEMENTED assertion (IL2CPP, U:10033-10034)',
      fatal: true,
    };
  if (k === key(CommandSet.EVENT_REQUEST, 1) && p.body.length >= 2 && p.body[1] === 1)
    return {
      command: 'EVENT_REQUEST.SET',
      why: 'SUSPEND_POLICY_EVENT_THREAD is NOT_IMPLEMENTED when the event fires (U:4649-4650)',
      fatal: true,
    };
  if (k === key(CommandSet.ASSEMBLY, 5)) {
    r.i32();
    const name = r.string();
    if (name.includes(','))
      return {
        command: 'ASSEMBLY.GET_TYPE',
        why: 'an assembly-qualified name aborts Debian 6.8 (INVALID_ARGUMENT on Unity, U:8780-8790)',
        fatal: kind === 'debian-mono',
      };
  }
  if (kind !== 'il2cpp') return undefined;
  if (k === key(CommandSet.METHOD, 7))
    return {
      command: 'METHOD.GET_BODY',
      why: 'no IL behind the reply loop on IL2CPP (U:9966-9968)',
      fatal: true,
    };
  if (k === key(CommandSet.VM, 7) || k === key(CommandSet.VM, 13)) {
    r.i32(); // thread
    r.i32(); // flags
    const n = k === key(CommandSet.VM, 13) ? r.i32() : 1;
    // the first call's method is enough for the fake (the tests invoke one method per packet)
    void n;
    const methodId = r.i32();
    if (model.nullableParamMethods.has(methodId))
      return {
        command: k === key(CommandSet.VM, 7) ? 'VM.INVOKE_METHOD' : 'VM.INVOKE_METHODS',
        why: 'a Nullable<T> argument hits g_assert_not_reached on IL2CPP (U:7306-7308)',
        fatal: true,
      };
  }
  return undefined;
}

/**
 * The runtime's own answer to `p` where it differs from Debian's and does not depend on the
 * scripted game, or undefined (the scripted handler answers). `send` emits event packets first.
 */
export function profileReply(
  kind: RuntimeKind,
  p: CommandPacket,
  model: FakeRuntimeModel,
  suspendCount: () => number,
  emit: (body: Uint8Array) => void,
): FakeReply | 'resume-anyway' | undefined {
  const k = key(p.commandSet, p.command);
  if (kind === 'unity-mono') {
    if (k === key(CommandSet.APPDOMAIN, 4)) return { error: ErrorCode.NOT_IMPLEMENTED }; // U:8587-8590
    // deferred attach: RESUME when not suspended succeeds (U:7952-7961)
    if (k === key(CommandSet.VM, 4) && suspendCount() === 0) return 'resume-anyway';
    return undefined;
  }
  if (kind !== 'il2cpp') return undefined;
  switch (k) {
    case key(CommandSet.ASSEMBLY, 8): // GET_METADATA_BLOB (U:8829-8838)
    case key(CommandSet.ASSEMBLY, 10): // GET_PDB_BLOB (U:8845-8847)
    case key(CommandSet.THREAD, 7): // SET_IP (U:10248-10251)
      return { error: ErrorCode.NOT_IMPLEMENTED };
    case key(CommandSet.ASSEMBLY, 13): // HAS_DEBUG_INFO: always false (api:1738-1742)
      return { body: new PacketWriter().u8(0).body() };
    case key(CommandSet.ASSEMBLY, 11): // TYPE_FROM_TOKEN, METHOD_FROM_TOKEN: id 0
    case key(CommandSet.ASSEMBLY, 12):
      return { body: new PacketWriter().i32(0).body() };
    case key(CommandSet.EVENT_REQUEST, 1):
      return eventRequestAnswer(p, model, emit);
    case key(CommandSet.VM, 7): {
      // no JIT: a method without AOT code throws ExecutionEngineException in the game
      const r = new PacketReader(Buffer.from(p.body));
      r.i32(); // thread
      r.i32(); // flags
      if (!model.noAotMethods.has(r.i32())) return undefined;
      return {
        body: new PacketWriter()
          .u8(0)
          .u8(ValueTag.OBJECT)
          .i32(model.executionEngineException)
          .body(),
      };
    }
    default:
      return undefined;
  }
}

/** IL2CPP's EVENT_REQUEST.SET where it differs: the step out of the outermost frame, TYPE_LOAD. */
function eventRequestAnswer(
  p: CommandPacket,
  model: FakeRuntimeModel,
  emit: (body: Uint8Array) => void,
): FakeReply | undefined {
  const r = new PacketReader(Buffer.from(p.body));
  const eventKind = r.u8();
  r.u8(); // policy
  const count = r.u8();
  if (eventKind === EventKind.STEP) {
    for (let i = 0; i < count; i++) {
      if (r.u8() !== ModifierKind.STEP) return undefined; // the fake reads step modifiers only
      const threadId = r.i32();
      r.i32(); // size
      const depth = r.i32();
      // U:8435-8441: success, an empty body, no request made
      if (depth === StepDepth.OUT && model.frameCounts.get(threadId) === 1) return {};
    }
    return undefined;
  }
  if (eventKind === EventKind.TYPE_LOAD && count === 0) {
    // deferred mode replays every loaded class before the reply (U:8485-8488)
    const requestId = model.nextRequestId();
    for (const typeId of model.loadedClasses) {
      emit(
        new PacketWriter()
          .u8(0)
          .i32(1)
          .u8(EventKind.TYPE_LOAD)
          .i32(requestId)
          .i32(1)
          .i32(typeId)
          .body(),
      );
    }
    return { body: new PacketWriter().i32(requestId).body() };
  }
  return undefined;
}
