// Several programs evaluated at one stop, in the stopped frame's scope (a logpoint's holes, a
// watch's expressions), plus Time.frameCount: the frame is read once, each program runs on its
// own so that one that fails leaves the others' values, and nothing here throws for a program.

import type { EvaluateResult } from '../../eval/index.js';
import { Values } from '../../sdb-protocol/index.js';
import { connectionPart } from '../session/game-connection.js';
import type { OperationContext } from '../session/session.js';
import { frameEvaluator } from './frame-eval.js';
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
): Promise<{ results: ProbeResult[]; frame?: number }> {
  if (codes.length === 0) {
    const frame = withFrameCount ? await frameCountOf(ctx, threadId) : undefined;
    return { results: [], ...(frame !== undefined ? { frame } : {}) };
  }
  let run: (code: string) => Promise<EvaluateResult>;
  try {
    run = await frameEvaluator(ctx, cache, threadId, 0);
  } catch (e) {
    const error = (holeError(e) as { error: string }).error;
    return { results: codes.map(() => ({ kind: 'error', error })) };
  }
  const one = async (code: string): Promise<ProbeResult> => {
    try {
      return await run(code);
    } catch (e) {
      return { kind: 'error', error: (holeError(e) as { error: string }).error };
    }
  };
  const results: ProbeResult[] = [];
  for (const c of codes) results.push(await one(c));
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
