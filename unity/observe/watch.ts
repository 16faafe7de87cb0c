// Watching values move while the game runs: each expression sampled once per frame at a
// per-frame method (a breakpoint whose hits are evaluated and let go at once: the game stops only
// while the expressions are evaluated, in one operation at the stop; Debugger.sample), then
// summarised (distribution, jumps) and drawn (chart.ts). A profile is a watch preset to frame
// time, GC collections and the managed heap, with the hitches (frames over 2x the median).
//
// The watch measures its own cost: the frame time just before it (wall time over frames, the
// game unwatched) against the frame time of the frames it sampled (wall time between the first
// and the last sample over their frames), and the stop each sample cost.

import { Errors, UnityError } from '../errors.js';
import type { GameSession, OperationCost } from '../session/session.js';
import { evaluateToolProgram } from '../tool-programs.js';
import type {
  BreakpointSpec,
  CodeLocation,
  Debugger,
  Sample,
  SampleBound,
} from '../debug/debugger.js';
import { numberOf } from '../debug/probe.js';
import { lineChart, SERIES_COLOURS } from './chart.js';
import { distribution, hitches, histogram, jumps, type Distribution, type Jump } from './stats.js';

/**
 * Called by the engine once per frame on the main thread in every Unity player (the
 * UnitySynchronizationContext's task pump): the default place to sample. Players ship it
 * without line information, so the breakpoint goes at its IL offset 0.
 */
export const DEFAULT_SITE: BreakpointSpec = {
  type: 'UnityEngine.UnitySynchronizationContext',
  method: 'ExecuteTasks',
  ilOffset: 0,
};

export interface WatchOptions {
  codes: readonly string[];
  frames?: number;
  seconds?: number;
  /** `Namespace.Type.Method`: where to sample (its first line; IL 0 without lines). */
  where?: string;
  /** The bound on the whole watch (default from frames or seconds). */
  timeoutMs?: number;
  /** How long the unwatched frame time is measured first. */
  baselineMs?: number;
  /** Ends the sampling early (a cancelled job): the result has the samples taken before. */
  signal?: AbortSignal;
  /** Told the sample count after each sample (a job's progress). */
  onSample?: (samples: number) => void;
}

export interface SeriesSummary {
  code: string;
  /** Every sample's value read as a number (undefined where it was not one). */
  numbers: (number | undefined)[];
  /** Every sample's value as eval shows it, or its error. */
  texts: string[];
  numeric: boolean;
  stats?: Distribution;
  jumps: Jump[];
  moreJumps: number;
  errors: number;
  firstError?: string;
  /** Its colour in the chart (numeric series only). */
  colour?: string;
}

export interface WatchCost {
  /** Frame time with the game unwatched, just before (ms). */
  unwatchedFrameMs?: number;
  /** Frame time over the sampled frames (ms). */
  watchedFrameMs?: number;
  /** watched / unwatched - 1 (0.1: frames 10% longer). */
  slowdown?: number;
  /** The game's stop per sample (ms): mean and max. */
  stopMeanMs: number;
  stopMaxMs: number;
}

export interface WatchResult {
  where: CodeLocation;
  /** Time.frameCount of each sample. */
  frames: (number | undefined)[];
  series: SeriesSummary[];
  timedOut: boolean;
  /** The signal ended it before the bound: fewer samples than asked. */
  cancelled: boolean;
  cost: WatchCost;
  png: Buffer;
  /** The operations it ran in the game. */
  operations: OperationCost[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function parseWhere(where: string): BreakpointSpec {
  const at = where.trim().lastIndexOf('.');
  if (at <= 0 || at === where.trim().length - 1)
    throw Errors.invalidArgument(
      `where: give Type.Method (e.g. Game.Enemy.Update), not '${where}'`,
    );
  return { type: where.trim().slice(0, at), method: where.trim().slice(at + 1) };
}

export async function watch(
  session: GameSession,
  debug: Debugger,
  caller: string,
  options: WatchOptions,
): Promise<WatchResult> {
  if (options.codes.length === 0)
    throw Errors.invalidArgument('watch: give at least one expression');
  if (options.frames !== undefined && options.seconds !== undefined)
    throw Errors.invalidArgument('watch: give frames or seconds, not both');
  const frames = options.seconds === undefined ? (options.frames ?? 120) : undefined;
  const runMs = options.seconds !== undefined ? options.seconds * 1000 : undefined;
  const timeoutMs = options.timeoutMs ?? runMs ?? Math.min(120_000, 5_000 + frames! * 100);

  const unwatchedFrameMs = await frameTime(session, caller, options.baselineMs ?? 400);
  const run = await sampleAt(debug, caller, options.where, options.codes, {
    ...(frames !== undefined ? { frames } : {}),
    timeoutMs: runMs ?? timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onSample ? { onSample: options.onSample } : {}),
  });
  const samples = run.samples;
  const frameOf = samples.map((s) => s.frame);
  const series = options.codes.map((code, k) => summarise(code, samples, k));
  let colour = 0;
  for (const s of series)
    if (s.numeric) s.colour = SERIES_COLOURS[colour++ % SERIES_COLOURS.length]!.name;
  const png = lineChart(
    series
      .filter((s) => s.numeric)
      .map((s) => ({
        points: s.numbers.flatMap((value, i) =>
          frameOf[i] !== undefined ? [{ frame: frameOf[i], value }] : [],
        ),
      })),
  );
  const watchedFrameMs = sampledFrameTime(samples);
  return {
    where: run.location,
    frames: frameOf,
    series,
    timedOut: frames !== undefined && run.timedOut,
    cancelled: run.cancelled,
    cost: {
      ...(unwatchedFrameMs !== undefined ? { unwatchedFrameMs } : {}),
      ...(watchedFrameMs !== undefined ? { watchedFrameMs } : {}),
      ...(unwatchedFrameMs !== undefined && watchedFrameMs !== undefined
        ? { slowdown: watchedFrameMs / unwatchedFrameMs - 1 }
        : {}),
      stopMeanMs: run.stopCost.stops ? run.stopCost.totalMs / run.stopCost.stops : 0,
      stopMaxMs: run.stopCost.maxMs,
    },
    png,
    operations: run.costs,
  };
}

/** Samples at `where` (or the default site); a method without lines is sampled at IL 0. */
async function sampleAt(
  debug: Debugger,
  caller: string,
  where: string | undefined,
  codes: readonly string[],
  bound: SampleBound,
): ReturnType<Debugger['sample']> {
  if (where === undefined) {
    try {
      return await debug.sample(caller, DEFAULT_SITE, codes, bound);
    } catch (e) {
      if (
        e instanceof UnityError &&
        (e.code === 'TYPE_NOT_FOUND' || e.code === 'MEMBER_NOT_FOUND' || e.code === 'NO_LOCATION')
      )
        throw Errors.invalidArgument(
          `no per-frame method found (${DEFAULT_SITE.type}.${DEFAULT_SITE.method} is not in this game): give where, a method the game runs every frame (e.g. a MonoBehaviour's Update)`,
        );
      throw e;
    }
  }
  const spec = parseWhere(where);
  try {
    return await debug.sample(caller, spec, codes, bound);
  } catch (e) {
    if (!(e instanceof UnityError) || e.code !== 'NO_LOCATION') throw e;
    return debug.sample(caller, { ...spec, ilOffset: 0 }, codes, bound);
  }
}

function summarise(code: string, samples: readonly Sample[], k: number): SeriesSummary {
  const numbers: (number | undefined)[] = [];
  const texts: string[] = [];
  let errors = 0;
  let firstError: string | undefined;
  for (const s of samples) {
    const r = s.results[k];
    const n = r ? numberOf(r) : undefined;
    numbers.push(n);
    if (!r || r.kind === 'error' || r.kind === 'exception' || r.kind === 'void') {
      errors++;
      const why = !r
        ? 'not evaluated'
        : r.kind === 'error'
          ? r.error
          : r.kind === 'exception'
            ? `threw ${r.type}: ${r.message}`
            : 'no value (void)';
      firstError ??= why;
      texts.push(`<error: ${why}>`);
    } else texts.push(r.text);
  }
  const numeric = numbers.some((n) => n !== undefined);
  const points = numbers.flatMap((value, i) => {
    const frame = samples[i]!.frame;
    return value !== undefined && frame !== undefined ? [{ frame, value }] : [];
  });
  const j = numeric ? jumps(points) : { jumps: [], more: 0 };
  const stats = distribution(points.map((p) => p.value));
  return {
    code,
    numbers,
    texts,
    numeric,
    ...(stats ? { stats } : {}),
    jumps: j.jumps,
    moreJumps: j.more,
    errors,
    ...(firstError !== undefined ? { firstError } : {}),
  };
}

/** The frame time of the frames between the first and the last sample (ms per frame). */
function sampledFrameTime(samples: readonly Sample[]): number | undefined {
  const withFrame = samples.filter((s) => s.frame !== undefined);
  if (withFrame.length < 2) return undefined;
  const a = withFrame[0]!;
  const b = withFrame[withFrame.length - 1]!;
  const frames = b.frame! - a.frame!;
  return frames > 0 ? (b.at - a.at) / frames : undefined;
}

/** The game's frame time now, unwatched: wall time over Time.frameCount across `ms`. */
async function frameTime(
  session: GameSession,
  caller: string,
  ms: number,
): Promise<number | undefined> {
  const read = async (): Promise<{ frame: number; at: number } | undefined> => {
    const r = await evaluateToolProgram(
      session,
      caller,
      'watch (frame count)',
      'UnityEngine.Time.frameCount',
    );
    const n =
      r.value.kind === 'value' && r.value.value.kind === 'number'
        ? Number(r.value.value.value)
        : undefined;
    return n === undefined ? undefined : { frame: n, at: performance.now() };
  };
  const a = await read().catch(() => undefined);
  if (!a) return undefined;
  await sleep(ms);
  const b = await read().catch(() => undefined);
  if (!b || b.frame <= a.frame) return undefined;
  return (b.at - a.at) / (b.frame - a.frame);
}

// ------------------------------------------------------------------ profile

/** What a profile samples: frame time (ms), GC collections (gen 0), managed heap (bytes). */
export const PROFILE_CODES = [
  'UnityEngine.Time.unscaledDeltaTime * 1000f',
  'System.GC.CollectionCount(0)',
  'System.GC.GetTotalMemory(false)',
] as const;

export interface ProfileResult {
  watch: WatchResult;
  frameMs?: Distribution;
  histogram: { from: number; to: number; count: number }[];
  hitches: { frame: number; ms: number }[];
  gcCollections?: number;
  heap?: { min: number; max: number; last: number };
}

export async function profile(
  session: GameSession,
  debug: Debugger,
  caller: string,
  options: Pick<WatchOptions, 'where' | 'timeoutMs' | 'signal' | 'onSample'> & { frames: number },
): Promise<ProfileResult> {
  const w = await watch(session, debug, caller, {
    codes: PROFILE_CODES,
    frames: options.frames,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onSample ? { onSample: options.onSample } : {}),
    ...(options.where !== undefined ? { where: options.where } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const [ft, gc, heap] = w.series;
  const points = ft!.numbers.flatMap((value, i) => {
    const frame = w.frames[i];
    return value !== undefined && frame !== undefined ? [{ frame, value }] : [];
  });
  const gcs = gc!.numbers.filter((n): n is number => n !== undefined);
  const heaps = heap!.numbers.filter((n): n is number => n !== undefined);
  return {
    watch: w,
    ...(ft!.stats ? { frameMs: ft!.stats } : {}),
    histogram: histogram(points.map((p) => p.value)),
    hitches: hitches(points),
    ...(gcs.length ? { gcCollections: gcs[gcs.length - 1]! - gcs[0]! } : {}),
    ...(heaps.length
      ? {
          heap: {
            min: Math.min(...heaps),
            max: Math.max(...heaps),
            last: heaps[heaps.length - 1]!,
          },
        }
      : {}),
  };
}
