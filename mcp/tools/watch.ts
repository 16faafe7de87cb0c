// `watch` and `profile`: values sampled once per frame while the game runs (unity/observe/),
// returned as a distribution per expression, the frames where they jumped, and an inline PNG
// line chart drawn client-side; the watch's own cost on the game's frame time beside them.

import { z } from 'zod';

import { profile, watch, type WatchResult } from '../../unity/observe/watch.js';
import type { Distribution } from '../../unity/observe/stats.js';
import { callCost } from '../cost.js';
import { costSchema } from '../schemas.js';
import { READS, clip, defineTool } from '../tool.js';

/** Values returned per series in the structured result (the chart and stats cover them all). */
const MAX_VALUES = 600;

const distributionSchema = z.object({
  count: z.number().int(),
  min: z.number(),
  median: z.number(),
  p95: z.number(),
  max: z.number(),
  mean: z.number(),
});

const watchCostSchema = z
  .object({
    unwatched_frame_ms: z.number().optional().describe('frame time just before, unwatched'),
    watched_frame_ms: z.number().optional().describe('frame time over the frames sampled'),
    slowdown: z.number().optional().describe('watched / unwatched - 1: 0.1 is frames 10% longer'),
    stop_mean_ms: z.number().describe('the game stood still this long per sample (mean)'),
    stop_max_ms: z.number(),
  })
  .describe("the watch's own cost on the game");

const seriesSchema = z.object({
  code: z.string(),
  colour: z.string().optional().describe("its line's colour in the chart"),
  numeric: z.boolean(),
  stats: distributionSchema.optional(),
  jumps: z.array(z.object({ frame: z.number().int(), from: z.number(), to: z.number() })),
  more_jumps: z.number().int(),
  errors: z.number().int().describe('samples where it failed'),
  first_error: z.string().optional(),
  values: z
    .array(z.union([z.number(), z.string(), z.null()]))
    .describe('per sample, as frames: the number, else the text (the first 600)'),
});

const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;

function distOut(d: Distribution): z.input<typeof distributionSchema> {
  return {
    count: d.count,
    min: d.min,
    median: d.median,
    p95: d.p95,
    max: d.max,
    mean: round(d.mean, 6),
  };
}

function watchOut(w: WatchResult) {
  return {
    where: w.where.method,
    samples: w.frames.length,
    timed_out: w.timedOut,
    ...(w.cancelled ? { cancelled: true } : {}),
    frames: w.frames.slice(0, MAX_VALUES).map((f) => f ?? null),
    series: w.series.map((s) => ({
      code: s.code,
      ...(s.colour !== undefined ? { colour: s.colour } : {}),
      numeric: s.numeric,
      ...(s.stats ? { stats: distOut(s.stats) } : {}),
      jumps: s.jumps,
      more_jumps: s.moreJumps,
      errors: s.errors,
      ...(s.firstError !== undefined ? { first_error: s.firstError } : {}),
      values: s.numbers.slice(0, MAX_VALUES).map((n, i) => n ?? s.texts[i] ?? null),
    })),
    watch_cost: {
      ...(w.cost.unwatchedFrameMs !== undefined
        ? { unwatched_frame_ms: round(w.cost.unwatchedFrameMs) }
        : {}),
      ...(w.cost.watchedFrameMs !== undefined
        ? { watched_frame_ms: round(w.cost.watchedFrameMs) }
        : {}),
      ...(w.cost.slowdown !== undefined ? { slowdown: round(w.cost.slowdown) } : {}),
      stop_mean_ms: round(w.cost.stopMeanMs),
      stop_max_ms: round(w.cost.stopMaxMs),
    },
  };
}

const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toPrecision(4));

function watchText(w: WatchResult): string[] {
  const lines = [
    `${w.frames.length} samples at ${w.where.method}${w.timedOut ? ' (the bound ran out first)' : ''}${w.cancelled ? ' (cancelled)' : ''}; frames ${w.frames[0] ?? '?'}..${w.frames[w.frames.length - 1] ?? '?'}`,
  ];
  for (const s of w.series) {
    const st = s.stats;
    lines.push(
      `${s.colour ? `[${s.colour}] ` : ''}${s.code}: ${st ? `min ${fmt(st.min)} median ${fmt(st.median)} p95 ${fmt(st.p95)} max ${fmt(st.max)}` : `not numeric (last ${s.texts[s.texts.length - 1] ?? '-'})`}${s.errors ? `; ${s.errors} failed: ${s.firstError}` : ''}`,
    );
    if (s.jumps.length)
      lines.push(
        `  jumps at frames ${s.jumps.map((j) => `${j.frame} (${fmt(j.from)}→${fmt(j.to)})`).join(', ')}${s.moreJumps ? ` and ${s.moreJumps} more` : ''}`,
      );
  }
  const c = w.cost;
  lines.push(
    `watch cost: the game stopped ${c.stopMeanMs.toFixed(2)} ms per sample (max ${c.stopMaxMs.toFixed(2)})${c.unwatchedFrameMs !== undefined && c.watchedFrameMs !== undefined ? `; frame time ${c.unwatchedFrameMs.toFixed(2)} ms unwatched, ${c.watchedFrameMs.toFixed(2)} ms watched (${c.slowdown! >= 0 ? '+' : ''}${(c.slowdown! * 100).toFixed(1)}%)` : ''}`,
  );
  return lines;
}

const boundArgs = {
  where: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Type.Method the game runs every frame (default: the engine's per-frame task pump, UnityEngine.UnitySynchronizationContext.ExecuteTasks)",
    ),
  timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(120_000)
    .optional()
    .describe('bound on the whole watch (default: 5 s + 100 ms per frame, at most 120 s)'),
};

const watchOutput = {
  where: z.string().describe('the method sampled'),
  samples: z.number().int(),
  timed_out: z.boolean().describe('fewer frames than asked came within the bound'),
  cancelled: z
    .boolean()
    .optional()
    .describe('job_cancel ended it early: the samples are those taken before'),
  frames: z.array(z.number().int().nullable()).describe('Time.frameCount of each sample'),
  series: z.array(seriesSchema),
  watch_cost: watchCostSchema,
};

export const watchTool = defineTool({
  name: 'watch',
  title: 'Watch values per frame',
  description:
    'Sample C# expressions once per frame while the game runs (`frames` N, default 120, or ' +
    '`seconds`), at a method the game runs every frame (`where`; names resolve as in that ' +
    "method's body). Returns per expression min / median / p95 / max, the frames where the " +
    'value jumped, its values, and an inline PNG line chart (one line per numeric expression, ' +
    'each scaled to its own range, frame on the x axis). The game stops only while the ' +
    'expressions are evaluated at each frame; the watch reports that stop and the frame time ' +
    'with and without it. Bounded by `timeout_ms`.',
  input: z.object({
    code: z.array(z.string().min(1).max(2000)).min(1).max(8),
    frames: z.number().int().min(2).max(2000).optional(),
    seconds: z.number().min(0.1).max(60).optional(),
    ...boundArgs,
  }),
  output: z.object({ ...watchOutput, cost: costSchema }),
  annotations: READS,
  tier: 'heavy',
  run: async (args, { session, debug, caller, signal, progress }) => {
    const started = performance.now();
    progress({
      frames: 0,
      ...(args.frames !== undefined ? { framesTotal: args.frames } : {}),
      ...(args.seconds !== undefined ? { expectedMs: args.seconds * 1000 } : {}),
    });
    const w = await watch(session, debug, caller, {
      codes: args.code,
      ...(signal ? { signal } : {}),
      onSample: (frames) => progress({ frames }),
      ...(args.frames !== undefined ? { frames: args.frames } : {}),
      ...(args.seconds !== undefined ? { seconds: args.seconds } : {}),
      ...(args.where !== undefined ? { where: args.where } : {}),
      ...(args.timeout_ms !== undefined ? { timeoutMs: args.timeout_ms } : {}),
    });
    return {
      text: clip(watchText(w).join('\n'), 20_000),
      structured: watchOut(w),
      cost: callCost(started, w.operations),
      images: [{ data: w.png.toString('base64'), mimeType: 'image/png' }],
    };
  },
});

export const profileTool = defineTool({
  name: 'profile',
  title: 'Profile frame time',
  description:
    'A watch preset to frame time (Time.unscaledDeltaTime in ms), GC collections (generation ' +
    '0) and the managed heap (GC.GetTotalMemory) for `frames` frames (default 300): the chart, ' +
    'the frame-time distribution and histogram, and the hitches (frames over 2x the median ' +
    "frame time; a frame's time is the wait since the previous frame, so a hitch is reported on " +
    'the frame after the one that was slow).',
  input: z.object({
    frames: z.number().int().min(10).max(2000).default(300),
    ...boundArgs,
  }),
  output: z.object({
    ...watchOutput,
    frame_ms: distributionSchema.optional(),
    histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
    hitches: z.array(z.object({ frame: z.number().int(), ms: z.number() })),
    gc_collections: z.number().int().optional().describe('gen-0 collections during the profile'),
    heap: z.object({ min: z.number(), max: z.number(), last: z.number() }).optional(),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'heavy',
  run: async (args, { session, debug, caller, signal, progress }) => {
    const started = performance.now();
    progress({ frames: 0, framesTotal: args.frames });
    const p = await profile(session, debug, caller, {
      frames: args.frames,
      ...(signal ? { signal } : {}),
      onSample: (frames) => progress({ frames }),
      ...(args.where !== undefined ? { where: args.where } : {}),
      ...(args.timeout_ms !== undefined ? { timeoutMs: args.timeout_ms } : {}),
    });
    const lines = watchText(p.watch);
    if (p.frameMs)
      lines.push(
        `frame time: median ${p.frameMs.median.toFixed(2)} ms, p95 ${p.frameMs.p95.toFixed(2)}, max ${p.frameMs.max.toFixed(2)}`,
      );
    lines.push(
      p.hitches.length
        ? `hitches (over 2x the median): ${p.hitches.map((h) => `frame ${h.frame} ${h.ms.toFixed(1)} ms`).join(', ')}`
        : 'no hitches (no frame over 2x the median)',
    );
    if (p.gcCollections !== undefined) lines.push(`GC collections: ${p.gcCollections}`);
    if (p.heap)
      lines.push(
        `managed heap: ${(p.heap.min / 1048576).toFixed(1)}..${(p.heap.max / 1048576).toFixed(1)} MB`,
      );
    return {
      text: clip(lines.join('\n'), 20_000),
      structured: {
        ...watchOut(p.watch),
        ...(p.frameMs ? { frame_ms: distOut(p.frameMs) } : {}),
        histogram: p.histogram.map((b) => ({
          from: round(b.from),
          to: round(b.to),
          count: b.count,
        })),
        hitches: p.hitches.map((h) => ({ frame: h.frame, ms: round(h.ms) })),
        ...(p.gcCollections !== undefined ? { gc_collections: p.gcCollections } : {}),
        ...(p.heap ? { heap: p.heap } : {}),
      },
      cost: callCost(started, p.watch.operations),
      images: [{ data: p.watch.png.toString('base64'), mimeType: 'image/png' }],
    };
  },
});

export const watchTools = [watchTool, profileTool];
