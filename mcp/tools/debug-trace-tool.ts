// debug_trace: the entries logpoints recorded (debug_set_breakpoint with `log`), read by a
// sequence cursor from bounded per-breakpoint buffers (unity/debug/trace.ts).

import { z } from 'zod';

import { callCost } from '../cost.js';
import { costSchema } from '../schemas.js';
import { READS, clip, defineTool } from '../tool.js';

export const debugTrace = defineTool({
  name: 'debug_trace',
  title: 'Read logpoint entries',
  description:
    'The messages logpoints recorded (debug_set_breakpoint with `log`), oldest first: time, ' +
    'frame (when the message has a {Time.frameCount} hole), thread, message, the holes that failed ' +
    'with their error. `breakpoint` narrows to one; `since` (the `last` of a previous call) ' +
    'returns only newer ones; at most `limit`. Each breakpoint keeps its latest 1000 entries ' +
    '(`dropped` counts the older ones). Never suspends.',
  input: z.object({
    breakpoint: z.number().int().optional(),
    since: z.number().int().min(0).optional().describe('the `last` of a previous call'),
    limit: z.number().int().min(1).max(1000).default(100),
  }),
  output: z.object({
    entries: z.array(
      z.object({
        seq: z.number().int(),
        breakpoint: z.number().int(),
        time: z.string().describe('ISO 8601, when the hit arrived'),
        frame: z.number().int().optional(),
        thread: z.number().int(),
        message: z.string(),
        errors: z.array(z.object({ code: z.string(), error: z.string() })).optional(),
      }),
    ),
    dropped: z
      .array(z.object({ breakpoint: z.number().int(), count: z.number().int() }))
      .describe('entries dropped (oldest first) from full buffers'),
    last: z.number().int().describe('pass as `since` to read only what comes after'),
    more: z.boolean().describe('more entries after these than `limit` allowed'),
    cost: costSchema,
  }),
  annotations: READS,
  // reads what logpoints recorded here: it never touches the game
  tier: 'instant',
  run: (args, { debug }) => {
    const started = performance.now();
    const r = debug.traces.read({
      ...(args.breakpoint !== undefined ? { breakpointId: args.breakpoint } : {}),
      ...(args.since !== undefined ? { since: args.since } : {}),
      limit: args.limit + 1,
    });
    const more = r.entries.length > args.limit;
    const entries = r.entries.slice(0, args.limit);
    const last = more ? entries[entries.length - 1]!.seq : r.last;
    const lines = entries.map(
      (e) =>
        `[${e.seq}] #${e.breakpointId}${e.frame !== undefined ? ` frame ${e.frame}` : ''} thread ${e.threadId}: ${e.message}`,
    );
    if (entries.length === 0) lines.push('no entries');
    for (const d of r.dropped) lines.push(`#${d.breakpointId}: ${d.count} older entries dropped`);
    if (more) lines.push(`more after ${last}: call again with since: ${last}`);
    const cost = callCost(started);
    return Promise.resolve({
      text: clip(lines.join('\n'), 20_000),
      structured: {
        entries: entries.map((e) => ({
          seq: e.seq,
          breakpoint: e.breakpointId,
          time: new Date(e.time).toISOString(),
          ...(e.frame !== undefined ? { frame: e.frame } : {}),
          thread: e.threadId,
          message: e.message,
          ...(e.errors ? { errors: e.errors } : {}),
        })),
        dropped: r.dropped.map((d) => ({ breakpoint: d.breakpointId, count: d.count })),
        last,
        more,
      },
      cost,
    });
  },
});
