// The requests a step is made of, on Mono 6.8: a STEP request from a source line; from anywhere
// else (native code, code without line information) a METHOD_ENTRY request for game code, then a
// breakpoint on the entered method's first line. unity/debug/stepping.ts arms and clears them
// and decides what their events mean; docs/solutions/breakpoint-pauses.md says why each exists.

import {
  EventKind,
  FrameFlags,
  StepDepth,
  StepFilter,
  StepSize,
  SuspendPolicy,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import { Errors } from '../errors.js';
import type { OperationContext } from '../session/session.js';
import { isSourceLine, pointAt, type LocationCache } from './locations.js';

export type StepDirection = 'over' | 'into' | 'out';

/** A STEP request (size LINE) on the thread; Mono 6.8 allows one at a time. */
export function setStepRequest(
  conn: SdbConnection,
  threadId: number,
  kind: StepDirection,
): Promise<number> {
  const depth = kind === 'into' ? StepDepth.INTO : kind === 'over' ? StepDepth.OVER : StepDepth.OUT;
  return conn.send('EVENT_REQUEST.SET', {
    eventKind: EventKind.STEP,
    suspendPolicy: SuspendPolicy.ALL,
    modifiers: [
      {
        kind: 'step',
        threadId,
        size: StepSize.LINE,
        depth,
        filter:
          StepFilter.STATIC_CTOR | StepFilter.DEBUGGER_HIDDEN | StepFilter.DEBUGGER_STEP_THROUGH,
      },
    ],
  });
}

/**
 * Whether the thread's top frame is managed code on a source line. Mono 6.8 answers a STEP
 * request for a thread in native code erratically (INVALID_ARGUMENT, or a request that never
 * fires), so a step from a hold is only asked from a line.
 */
export async function onSourceLine(
  conn: SdbConnection,
  cache: LocationCache,
  threadId: number,
): Promise<boolean> {
  const [top] = await conn.send('THREAD.GET_FRAME_INFO', { threadId });
  if (!top || (top.flags & FrameFlags.NATIVE_TRANSITION) !== 0) return false;
  const at = pointAt(await cache.points(top.methodId).catch(() => []), top.ilOffset);
  return at !== undefined && isSourceLine(at.line);
}

/** The refusal of `over` / `out` from a position without a source line. */
export function noLineToStepFrom(threadId: number, kind: StepDirection): Error {
  return Errors.noLocation(
    `the current position of thread ${threadId}: it is not on a source line (in native code, as the main thread between frames, or in code without debug information), and Mono steps ${kind} only from a line. Use kind "into" (stops where the thread next enters game code) or set a breakpoint`,
    [],
  );
}

/**
 * A METHOD_ENTRY request for the methods of assemblies with debug information (game code).
 * No THREAD_ONLY: Mono 6.8 never matches it (it compares the managed Thread object with the
 * internal thread), so the caller tells entries on other threads apart.
 */
export async function setGameCodeEntryRequest(ctx: OperationContext): Promise<number> {
  const all = await ctx.catalog.assemblies();
  // IL2CPP answers HAS_DEBUG_INFO false for every assembly (runtime-profile.ts: debugInfoFlag):
  // there, game code is every assembly that is not the framework's or the engine's
  const has = ctx.conn.runtime.debugInfoFlag
    ? await Promise.all(
        all.map((a) =>
          ctx.conn.send('ASSEMBLY.HAS_DEBUG_INFO', { assemblyId: a.assemblyId }).catch(() => false),
        ),
      )
    : all.map((a) => !isPlatformAssembly(a.name));
  const assemblyIds = all.filter((_, i) => has[i]).map((a) => a.assemblyId);
  if (assemblyIds.length === 0)
    throw Errors.noLocation(
      ctx.conn.runtime.debugInfoFlag
        ? 'any game code: no loaded assembly has debug information'
        : 'any game code: every loaded assembly is the framework or the engine',
      [],
    );
  return ctx.conn.send('EVENT_REQUEST.SET', {
    eventKind: EventKind.METHOD_ENTRY,
    suspendPolicy: SuspendPolicy.ALL,
    modifiers: [{ kind: 'assembly_only', assemblyIds }],
  });
}

/**
 * A breakpoint on the first line of a method just entered (its prologue has IL offset -1 and no
 * line, and a STEP from there never fires on Mono 6.8); undefined when it has no line.
 */
export async function setFirstLineRequest(
  conn: SdbConnection,
  cache: LocationCache,
  methodId: number,
): Promise<number | undefined> {
  const first = (await cache.points(methodId).catch(() => [])).find((p) => isSourceLine(p.line));
  if (!first) return undefined;
  return conn.send('EVENT_REQUEST.SET', {
    eventKind: EventKind.BREAKPOINT,
    suspendPolicy: SuspendPolicy.ALL,
    modifiers: [{ kind: 'location_only', methodId, ilOffset: first.ilOffset }],
  });
}

/** The framework's and the engine's assemblies (by simple name), where no flag tells game code. */
export function isPlatformAssembly(name: string): boolean {
  const simple = name.split(',')[0]!.trim();
  return /^(mscorlib|netstandard|System|Mono|UnityEngine|UnityEditor|Unity|Microsoft|__Generated)(\.|$)/.test(
    simple,
  );
}
