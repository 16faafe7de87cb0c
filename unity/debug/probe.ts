// Several programs evaluated at one stop, in the stopped frame's scope (a logpoint's holes, a
// watch's expressions), plus Time.frameCount: the frame is read once, each program runs on its
// own so that one that fails leaves the others' values, and nothing here throws for a program.

import type { EvaluateResult } from '../../eval/index.js';
import { Values } from '../../sdb-protocol/index.js';
import { connectionPart } from '../session/game-connection.js';
import type { OperationContext } from '../session/session.js';
import {
  FRAME_PROGRAMS,
  earlyFrameEvaluator,
  frameEvaluator,
  type FrameEvaluator,
  type StopPlace,
} from './frame-eval.js';
import type { LocationCache } from './locations.js';
import { holeError } from './trace.js';

export type ProbeResult = EvaluateResult | { kind: 'error'; error: string };

/** Time.frameCount's getter on one attached game (0: the game has none). */
const FRAME_COUNT_GETTER = connectionPart('Time.frameCount getter', () => ({
  id: undefined as Promise<number> | undefined,
}));

/**
 * Time.frameCount, by its getter invoked directly (no program to parse and bind at each hit);
 * only at a stop on the main thread: invokes run there, and a hit on another thread would wait
 * for the main thread to reach managed code (up to a frame) for a number Unity reads only on the
 * main thread anyway.
 */
async function frameCountOf(ctx: OperationContext, threadId: number): Promise<number | undefined> {
  if (threadId !== (await ctx.mainThread().catch(() => undefined))) return undefined;
  const part = ctx.connection.part(FRAME_COUNT_GETTER);
  part.id ??= (async () => {
    try {
      const found = await ctx.catalog.findMember('UnityEngine.Time', 'frameCount');
      return found.kind === 'property' && found.property.isStatic ? found.property.getterId : 0;
    } catch {
      return 0;
    }
  })();
  const getter = await part.id;
  if (!getter) return undefined;
  try {
    const r = await ctx.invoke(getter, Values.null(), []);
    return r.result.kind === 'i4' ? r.result.value : undefined;
  } catch {
    return undefined;
  }
}

export async function probeFrame(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  codes: readonly string[],
  /**
   * Also invoke Time.frameCount's getter (a watch needs the frame of every sample). An invoke
   * at the stop costs the game ~0.5 ms and makes the resume that follows ~1 ms slower (the agent
   * suspends every thread again after it; measured): a logpoint reads it only from its holes.
   */
  withFrameCount = true,
  /**
   * Where the thread stopped, when an event says so (a breakpoint's hit): programs that only
   * read are then evaluated while the frame is being read (see earlyFrameEvaluator).
   */
  at?: StopPlace,
): Promise<{ results: ProbeResult[]; frame?: number }> {
  if (codes.length === 0) {
    const frame = withFrameCount ? await frameCountOf(ctx, threadId) : undefined;
    return { results: [], ...(frame !== undefined ? { frame } : {}) };
  }
  const results =
    (at && (await early(ctx, cache, threadId, codes, at))) ??
    (await inFrame(ctx, cache, threadId, codes));
  const frame = withFrameCount ? await frameCountOf(ctx, threadId) : undefined;
  return { results, ...(frame !== undefined ? { frame } : {}) };
}

/** A numeric result as a JS number (bool as 0/1, enum by its value); undefined otherwise. */
export function numberOf(r: ProbeResult): number | undefined {
  if (r.kind !== 'value') return undefined;
  const v = r.value;
  if (v.kind === 'number' || v.kind === 'enum') return Number(v.value);
  if (v.kind === 'bool') return v.value ? 1 : 0;
  return undefined;
}

const failed = (e: unknown): ProbeResult => ({
  kind: 'error',
  error: (holeError(e) as { error: string }).error,
});

/** Every program asked at once of one evaluator (which keeps their order where it matters). */
function all(run: FrameEvaluator, codes: readonly string[]): Promise<ProbeResult[]> {
  return Promise.all(codes.map((c) => run(c).catch(failed)));
}

/** The programs in the top frame as it is read. */
async function inFrame(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  codes: readonly string[],
): Promise<ProbeResult[]> {
  let run: FrameEvaluator;
  try {
    run = await frameEvaluator(ctx, cache, threadId, 0);
  } catch (e) {
    const error = failed(e);
    return codes.map(() => error);
  }
  return all(run, codes);
}

/**
 * The programs in the frame the thread is known to stand in, before it is read, when they only
 * read: undefined when that cannot be (the frame's variables depend on its values) or when the
 * frame was not the one expected (nothing was written: they run again in the frame as it is).
 */
async function early(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  codes: readonly string[],
  at: StopPlace,
): Promise<ProbeResult[] | undefined> {
  const programs = ctx.connection.part(FRAME_PROGRAMS);
  if (!codes.every((c) => programs.readsOnly(c))) return undefined;
  const e = await earlyFrameEvaluator(ctx, cache, threadId, at).catch(() => undefined);
  if (!e) return undefined;
  const results = await all(e.run, codes);
  return (await e.confirmed) ? results : undefined;
}
