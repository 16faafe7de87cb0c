// The paused game: the debugger's state, waiting for a stop, the stack of the stopped thread,
// evaluation in one of its frames, and stepping or resuming. Detach, shutdown and a departing
// caller clear the requests and resume (unity/debug/debugger.ts).

import { z } from 'zod';

import { evaluateInPause, pauseState } from '../../unity/debug/inspect.js';
import { callCost } from '../cost.js';
import { costSchema } from '../schemas.js';
import { CHANGES_GAME, CONTROLS, READS, clip, defineTool } from '../tool.js';
import { evalOutcome, evalOutputSchema } from './eval.js';
import {
  breakpointOut,
  breakpointSchema,
  frameOut,
  frameSchema,
  queuedOut,
  queuedSchema,
  stopCostText,
  stopOut,
  stopSchema,
  stopText,
  whereText,
} from './debug-format.js';

export const debugStatus = defineTool({
  name: 'debug_status',
  title: 'Debugger status',
  description:
    "Breakpoints (with hits, and for hits that did not pause, as a logpoint's: how long the game stood still per hit), whether the game is paused at an event and where, who owns the " +
    'pause, who holds the game. Never attaches, never suspends.',
  input: z.object({}),
  output: z.object({
    breakpoints: z.array(breakpointSchema),
    paused: z.boolean().describe('stopped at an event or held'),
    pause: stopSchema.optional(),
    queued: z
      .array(queuedSchema)
      .describe('other threads stopped meanwhile, in line: each becomes the pause in turn'),
    holds: z.array(z.object({ caller: z.string(), count: z.number().int() })),
    stepping: z.string().optional().describe('a step is under way for this caller'),
    stops: z.number().int(),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'instant',
  run: (_args, { session, debug }) => {
    const started = performance.now();
    const d = debug.status();
    const holds = session.status().holds;
    const lines = [
      d.pause
        ? stopText(d.pause)
        : holds.length
          ? `held by ${holds.map((h) => h.caller).join(', ')}`
          : 'running',
      ...d.queued.map((q) => `in line: ${stopText(q)}`),
      ...d.breakpoints.map(
        (b) =>
          `#${b.id} ${b.kind === 'exception' ? `throw ${b.exceptionType ?? '(any)'}` : whereText(b)} hits ${b.hits}${stopCostText(b)}${b.passed ? ` (${b.passed} let go during evaluations)` : ''}${b.log !== undefined ? ` log "${b.log}"` : ''}${b.condition ? ` if ${b.condition}` : ''}${b.hitCount ? ` on hit ${b.hitCount}` : ''}${b.spent ? ' (spent)' : ''} [${b.owner}]`,
      ),
    ];
    const cost = callCost(started);
    return Promise.resolve({
      text: lines.join('\n'),
      structured: {
        breakpoints: d.breakpoints.map(breakpointOut),
        paused: d.pause !== undefined || holds.length > 0,
        ...(d.pause ? { pause: stopOut(d.pause) } : {}),
        queued: d.queued.map(queuedOut),
        holds,
        ...(d.stepping ? { stepping: d.stepping.owner } : {}),
        stops: d.stops,
      },
      cost,
    });
  },
});

export const debugWait = defineTool({
  name: 'debug_wait',
  title: 'Wait for a stop',
  description:
    'Wait (at most `timeout_ms`) until the game stops at a breakpoint, step or exception; a ' +
    'pause already in place is returned at once. `stopped: false` when the time ran out.',
  input: z.object({
    timeout_ms: z.number().int().min(0).max(120_000).default(10_000),
  }),
  output: z.object({
    stopped: z.boolean(),
    stop: stopSchema.optional(),
    cancelled: z.boolean().optional().describe('job_cancel ended the wait before a stop came'),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'heavy',
  run: async (args, { debug, signal, progress }) => {
    const started = performance.now();
    progress({ expectedMs: args.timeout_ms });
    const s = await debug.wait(args.timeout_ms, signal);
    const cost = callCost(started);
    const cancelled = s === undefined && signal?.aborted === true;
    return {
      text: s
        ? stopText(s)
        : cancelled
          ? 'cancelled before a stop came'
          : `no stop within ${args.timeout_ms} ms`,
      structured: {
        stopped: s !== undefined,
        ...(s ? { stop: stopOut(s) } : {}),
        ...(cancelled ? { cancelled: true } : {}),
      },
      cost,
    };
  },
});

export const debugPauseState = defineTool({
  name: 'debug_pause_state',
  title: 'Stack of the paused game',
  description:
    'The stack of the stopped thread (default: the thread at the breakpoint, else the main ' +
    'thread under a hold), top first, with source lines and the parameters, locals and `this` ' +
    'of the first `variable_frames` frames, formatted like eval (bounded).',
  input: z.object({
    thread: z.number().int().optional().describe('a thread id (see debug_status)'),
    frames: z.number().int().min(1).max(64).default(20),
    variable_frames: z.number().int().min(0).max(64).default(3),
    all_threads: z.boolean().optional().describe("also every other thread's stack (frames only)"),
  }),
  output: z.object({
    stop: stopSchema.optional(),
    thread: z.number().int(),
    total_frames: z.number().int(),
    frames: z.array(frameSchema),
    other_threads: z
      .array(
        z.object({
          thread: z.number().int(),
          name: z.string(),
          total_frames: z.number().int(),
          frames: z.array(frameSchema),
          unreadable: z.string().optional().describe('why its stack could not be read'),
        }),
      )
      .optional(),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, debug, caller }) => {
    const r = await pauseState(session, debug, caller, {
      ...(args.thread !== undefined ? { threadId: args.thread } : {}),
      frames: args.frames,
      variableFrames: args.variable_frames,
      ...(args.all_threads ? { allThreads: true } : {}),
    });
    const p = r.value;
    const lines = [p.stop ? stopText(p.stop) : `held; thread ${p.threadId}`];
    for (const f of p.frames) {
      const where = f.line !== undefined ? `:${f.line}` : '';
      lines.push(`#${f.index} ${f.method}${where} IL ${f.ilOffset}${f.native ? ' [native]' : ''}`);
      for (const v of f.variables ?? []) lines.push(`    ${v.name} (${v.type}) = ${v.value}`);
      if (f.unreadable) lines.push(`    <variables unreadable: ${f.unreadable}>`);
      if (f.moreVariables) lines.push(`    … ${f.moreVariables} more variables`);
    }
    for (const o of p.others ?? []) {
      lines.push(`thread ${o.threadId}${o.name ? ` "${o.name}"` : ''}:`);
      if (o.unreadable) lines.push(`  <stack unreadable: ${o.unreadable}>`);
      for (const f of o.frames)
        lines.push(`  #${f.index} ${f.method}${f.line !== undefined ? `:${f.line}` : ''}`);
    }
    if (p.totalFrames > p.frames.length)
      lines.push(`… ${p.totalFrames - p.frames.length} more frames`);
    return {
      text: clip(lines.join('\n'), 20_000),
      structured: {
        ...(p.stop ? { stop: stopOut(p.stop) } : {}),
        thread: p.threadId,
        total_frames: p.totalFrames,
        frames: p.frames.map(frameOut),
        ...(p.others
          ? {
              other_threads: p.others.map((o) => ({
                thread: o.threadId,
                name: o.name,
                total_frames: o.totalFrames,
                frames: o.frames.map(frameOut),
                ...(o.unreadable !== undefined ? { unreadable: o.unreadable } : {}),
              })),
            }
          : {}),
      },
      cost: r.cost,
    };
  },
});

export const debugEvaluate = defineTool({
  name: 'debug_evaluate',
  title: 'Evaluate C# in a frame',
  description:
    'Like eval, in the scope of a frame of the paused game (`frame`, default the top managed one): names resolve as in ' +
    "the method's body (parameters, locals, `this`, and bare members of its type, its bases and outer types); " +
    "assigning a parameter, a local or a field of a struct method's `this` writes the frame (a by-ref parameter " +
    "writes the caller's variable; read back; the game uses it when it resumes; a later call may still show the old value " +
    'of a local kept in a register, see docs/solutions/frame-writes.md). Assignments to fields, ' +
    "statics, elements and properties are journaled for `undo` as eval's are (a frame's " +
    'locals are not: they end with the frame). Invokes run on the main thread.',
  input: z.object({
    code: z.string().min(1).max(20_000),
    frame: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('frame index from debug_pause_state (default: the top managed frame)'),
    thread: z.number().int().optional(),
  }),
  output: evalOutputSchema,
  annotations: CHANGES_GAME,
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, debug, journal, caller }) => {
    return evalOutcome(
      await evaluateInPause(session, debug, journal, caller, args.code, {
        ...(args.frame !== undefined ? { frame: args.frame } : {}),
        ...(args.thread !== undefined ? { threadId: args.thread } : {}),
      }),
    );
  },
});

export const debugStep = defineTool({
  name: 'debug_step',
  title: 'Step or resume',
  description:
    'From a pause: `over` / `into` / `out` one source line on the stopped thread and wait (at ' +
    'most `timeout_ms`) for where it lands, or `resume` to let the game run. Only the owner of ' +
    'the pause may do this, unless `force`. When another thread stopped meanwhile (in line, see ' +
    'debug_status), the game cannot run: ending this pause makes that stop the pause, returned ' +
    'here, and no step is made. From a plain hold (suspend) that only you hold: steps `thread` ' +
    '(default the main thread) and releases your hold; a thread waiting in native code (the ' +
    'main thread between frames) can only step `into`, which stops where it next enters game ' +
    'code.',
  input: z.object({
    kind: z.enum(['over', 'into', 'out', 'resume']),
    force: z.boolean().optional(),
    thread: z
      .number()
      .int()
      .optional()
      .describe('from a plain hold: the thread to step (default the main thread)'),
    timeout_ms: z.number().int().min(1).max(120_000).default(10_000),
  }),
  output: z.object({
    stopped: z.boolean().describe('paused again (at the step, or at a breakpoint on the way)'),
    stop: stopSchema.optional(),
    cost: costSchema,
  }),
  annotations: CONTROLS,
  tier: 'heavy',
  run: async (args, { debug, caller, signal, progress }) => {
    progress({ expectedMs: args.timeout_ms });
    const r = await debug.step(caller, args.kind, {
      force: args.force === true,
      timeoutMs: args.timeout_ms,
      ...(signal ? { signal } : {}),
      ...(args.thread !== undefined ? { threadId: args.thread } : {}),
    });
    const s = r.value;
    const text =
      s?.queued === true
        ? `this pause ended; ${stopText(s)}`
        : args.kind === 'resume'
          ? 'resumed'
          : s
            ? stopText(s)
            : signal?.aborted
              ? 'cancelled before the step finished; the game runs (debug_wait catches the stop)'
              : `the step did not finish within ${args.timeout_ms} ms; the game runs (debug_wait catches the stop)`;
    return {
      text,
      structured: {
        stopped: s !== undefined,
        ...(s ? { stop: stopOut(s) } : {}),
      },
      cost: r.cost,
    };
  },
});
