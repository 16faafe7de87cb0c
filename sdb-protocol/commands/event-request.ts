// EVENT_REQUEST (15): sdb-protocol.md §3.7 and §5.4.

import type { PacketWriter } from '../buffer-writer.js';
import { defineCommand, noBody, noReply } from '../command.js';
import { SdbUnsafeRequestError } from '../errors.js';
import { EventKind, ModifierKind, SuspendPolicy, type EventKindValue } from '../vocabulary.js';
import type { ProtocolVersion } from '../version.js';

export type Modifier =
  /** Report only the n-th hit, never before or after. */
  | { kind: 'count'; count: number }
  | { kind: 'thread_only'; threadId: number }
  /** `ilOffset` must be a sequence point offset from METHOD.GET_DEBUG_INFO. */
  | { kind: 'location_only'; methodId: number; ilOffset: number }
  | {
      kind: 'exception_only';
      /** 0 = any exception. */
      typeId: number;
      caught: boolean;
      uncaught: boolean;
      /** since 2.25 (before, subclasses are always included) */
      subclasses?: boolean;
    }
  | {
      kind: 'step';
      threadId: number;
      size: number;
      depth: number;
      /** since 2.16 */ filter?: number;
    }
  | { kind: 'assembly_only'; assemblyIds: readonly number[] }
  | { kind: 'source_file_only'; files: readonly string[] }
  | { kind: 'type_name_only'; names: readonly string[] };

export interface EventRequestParams {
  eventKind: EventKindValue;
  suspendPolicy: (typeof SuspendPolicy)['NONE' | 'ALL'];
  modifiers?: readonly Modifier[];
}

/** Only these kinds accept modifiers; any modifier on another kind → NOT_IMPLEMENTED. */
const kindsWithModifiers = new Set<number>([
  EventKind.BREAKPOINT,
  EventKind.STEP,
  EventKind.METHOD_ENTRY,
  EventKind.METHOD_EXIT,
  EventKind.EXCEPTION,
  EventKind.TYPE_LOAD,
]);

function guardRequest(p: EventRequestParams): void {
  const mods = p.modifiers ?? [];
  if ((p.suspendPolicy as number) === SuspendPolicy.EVENT_THREAD) {
    throw new SdbUnsafeRequestError(
      'suspend policy EVENT_THREAD is not implemented by the agent: the game aborts when such an event fires',
    );
  }
  if (p.suspendPolicy !== SuspendPolicy.NONE && p.suspendPolicy !== SuspendPolicy.ALL) {
    throw new SdbUnsafeRequestError(
      `suspend policy ${String(p.suspendPolicy)}: the game aborts when such an event fires`,
    );
  }
  if (mods.length > 0 && !kindsWithModifiers.has(p.eventKind)) {
    throw new SdbUnsafeRequestError(`event kind ${p.eventKind} takes no modifiers`);
  }
  if (p.eventKind === EventKind.BREAKPOINT && !mods.some((m) => m.kind === 'location_only')) {
    throw new SdbUnsafeRequestError(
      'a BREAKPOINT request without a location_only modifier aborts the game',
    );
  }
  if (p.eventKind === EventKind.STEP && !mods.some((m) => m.kind === 'step')) {
    throw new SdbUnsafeRequestError('a STEP request without a step modifier aborts the game');
  }
  if (mods.length > 255) throw new SdbUnsafeRequestError('at most 255 modifiers');
}

function writeModifier(w: PacketWriter, m: Modifier, v: ProtocolVersion): void {
  switch (m.kind) {
    case 'count':
      w.u8(ModifierKind.COUNT).i32(m.count);
      return;
    case 'thread_only':
      w.u8(ModifierKind.THREAD_ONLY).threadId(m.threadId);
      return;
    case 'location_only':
      w.u8(ModifierKind.LOCATION_ONLY).methodId(m.methodId).i64(m.ilOffset);
      return;
    case 'exception_only':
      w.u8(ModifierKind.EXCEPTION_ONLY);
      if (m.typeId === 0) w.i32(0);
      else w.typeId(m.typeId);
      w.bool(m.caught).bool(m.uncaught);
      if (v.atLeast(25)) w.bool(m.subclasses ?? true);
      if (v.atLeast(54)) w.u8(0).u8(0); // notFilteredFeature, everythingElse: the simple semantics
      return;
    case 'step':
      w.u8(ModifierKind.STEP).threadId(m.threadId).i32(m.size).i32(m.depth);
      if (v.atLeast(16)) w.i32(m.filter ?? 0);
      return;
    case 'assembly_only':
      w.u8(ModifierKind.ASSEMBLY_ONLY).i32(m.assemblyIds.length);
      for (const a of m.assemblyIds) w.id('assembly', a);
      return;
    case 'source_file_only':
      w.u8(ModifierKind.SOURCE_FILE_ONLY).i32(m.files.length);
      for (const f of m.files) w.string(f);
      return;
    case 'type_name_only':
      w.u8(ModifierKind.TYPE_NAME_ONLY).i32(m.names.length);
      for (const n of m.names) w.string(n);
      return;
  }
}

export const eventRequestCommands = {
  /**
   * Returns the request id; 0 when the agent made no request: IL2CPP answers a step out of the
   * thread's outermost frame with success and an empty body (Unity's debugger-agent.c, IL2CPP
   * tree of 2022.3.10f1, lines 8435-8441). Real ids start at 1.
   */
  'EVENT_REQUEST.SET': defineCommand<EventRequestParams, number>({
    set: 'EVENT_REQUEST',
    command: 1,
    guard: guardRequest,
    encode: (w, p, v) => {
      const mods = p.modifiers ?? [];
      w.u8(p.eventKind).u8(p.suspendPolicy).u8(mods.length);
      for (const m of mods) writeModifier(w, m, v);
    },
    decode: (r) => (r.remaining === 0 ? 0 : r.i32()),
  }),
  /** Unknown ids are ignored by the agent. */
  'EVENT_REQUEST.CLEAR': defineCommand<{ eventKind: EventKindValue; requestId: number }>({
    set: 'EVENT_REQUEST',
    command: 2,
    encode: (w, p) => void w.u8(p.eventKind).i32(p.requestId),
    decode: noReply,
  }),
  'EVENT_REQUEST.CLEAR_ALL_BREAKPOINTS': defineCommand({
    set: 'EVENT_REQUEST',
    command: 3,
    encode: noBody,
    decode: noReply,
  }),
} as const;
