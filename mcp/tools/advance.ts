// `advance`: let a held game run for N frames or seconds and hold it again.

import { z } from 'zod';

import {
  advance as advanceGame,
  MAX_ADVANCE_FRAMES,
  MAX_ADVANCE_SECONDS,
} from '../../unity/advance.js';
import { costSchema } from '../schemas.js';
import { stopOut, stopSchema, stopText } from './debug-format.js';
import { CHANGES_GAME, defineTool } from '../tool.js';

export const advance = defineTool({
  name: 'advance',
  title: 'Advance the game',
  description:
    'Let the game run for `frames` frames (by its own Time.frameCount) or `seconds` seconds, ' +
    'then take your holds back, so a held game steps forward and stays held. Optional C# ' +
    'programs run just `before` it runs and just `after` it is held again (their values are ' +
    'returned). Without a hold the game just keeps running. While another agent holds the ' +
    'game it waits up to 10 s for that hold to end (`waited_for_holds_ms`), then is refused ' +
    '(HOLD_NOT_OWNED, naming them); one advance runs per game at a time. Frame counts are read as the game runs: `frames_advanced` says how many passed. ' +
    'A breakpoint, step or exception stop on the way ends it early: `stop` says where (the ' +
    'game is paused there; debug_step resumes it).',
  input: z
    .object({
      frames: z.number().int().min(1).max(MAX_ADVANCE_FRAMES).optional(),
      seconds: z.number().positive().max(MAX_ADVANCE_SECONDS).optional(),
      before: z.string().min(1).max(20_000).optional().describe('C# program to run first'),
      after: z.string().min(1).max(20_000).optional().describe('C# program to run at the end'),
    })
    .refine((a) => (a.frames === undefined) !== (a.seconds === undefined), {
      message: 'give exactly one of frames or seconds',
      path: ['frames'],
    }),
  output: z.object({
    frame_before: z.number().int(),
    frame_after: z.number().int(),
    frames_advanced: z.number().int(),
    elapsed_ms: z.number(),
    held: z.boolean().describe('your holds were taken back: the game is held again'),
    waited_for_holds_ms: z
      .number()
      .optional()
      .describe("how long it waited for other agents' holds to end before the game could run"),
    before: z.string().optional().describe('value of the `before` program'),
    after: z.string().optional().describe('value of the `after` program'),
    stop: stopSchema.optional().describe('the game stopped on the way: the advance ended there'),
    cancelled: z
      .boolean()
      .optional()
      .describe('job_cancel (or the caller leaving) ended it early: frames_advanced passed'),
    cost: costSchema,
  }),
  annotations: CHANGES_GAME,
  tier: 'heavy',
  writes: 'in-steps',
  run: async (args, { session, debug, journal, caller, signal, progress }) => {
    progress({
      frames: 0,
      ...(args.frames !== undefined ? { framesTotal: args.frames } : {}),
      ...(args.seconds !== undefined ? { expectedMs: args.seconds * 1000 } : {}),
    });
    const r = await advanceGame(
      session,
      { debug, journal },
      {
        caller,
        ...(args.frames !== undefined ? { frames: args.frames } : {}),
        ...(args.seconds !== undefined ? { seconds: args.seconds } : {}),
        ...(args.before !== undefined ? { before: args.before } : {}),
        ...(args.after !== undefined ? { after: args.after } : {}),
        ...(signal ? { signal } : {}),
        onProgress: (frames) => progress({ frames }),
      },
    );
    const v = r.value;
    const lines = [
      `advanced ${v.framesAdvanced} frame${v.framesAdvanced === 1 ? '' : 's'} (${v.frameBefore} → ${v.frameAfter}) in ${v.elapsedMs} ms; game ${v.holdsRetaken > 0 ? 'held again' : 'running'}`,
      ...(v.before !== undefined ? [`before: ${v.before}`] : []),
      ...(v.after !== undefined ? [`after: ${v.after}`] : []),
      ...(v.stop ? [`ended early: ${stopText(v.stop)}`] : []),
      ...(v.cancelled ? ['cancelled: it ended early'] : []),
    ];
    return {
      text: lines.join('\n'),
      structured: {
        frame_before: v.frameBefore,
        frame_after: v.frameAfter,
        frames_advanced: v.framesAdvanced,
        elapsed_ms: v.elapsedMs,
        held: v.holdsRetaken > 0,
        ...(v.waitedForHoldsMs !== undefined ? { waited_for_holds_ms: v.waitedForHoldsMs } : {}),
        ...(v.before !== undefined ? { before: v.before } : {}),
        ...(v.after !== undefined ? { after: v.after } : {}),
        ...(v.stop ? { stop: stopOut(v.stop) } : {}),
        ...(v.cancelled ? { cancelled: true } : {}),
      },
      cost: r.cost,
    };
  },
});

export const advanceTools = [advance];
