// Several programs evaluated at one stop, in the stopped frame's scope (a logpoint's holes, a
// watch's expressions), plus Time.frameCount: the frame is read once, each program runs on its
// own so that one that fails leaves the others' values, and nothing here throws for a program.

import type { EvaluateResult } from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { frameEvaluator } from './frame-eval.js';
import type { LocationCache } from './locations.js';
import { holeError } from './trace.js';

export type ProbeResult = EvaluateResult | { kind: 'error'; error: string };

/** Read at every probe: the frame the hit belongs to. */
const FRAME_COUNT = 'UnityEngine.Time.frameCount';

export async function probeFrame(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  codes: readonly string[],
): Promise<{ results: ProbeResult[]; frame?: number }> {
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
  const f = await one(FRAME_COUNT);
  const frame = f.kind === 'value' ? numberOf(f) : undefined;
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
