// Breakpoints, break-on-throw, stepping, frames and evaluation in a frame. A pause made by a
// breakpoint belongs to the caller that set it; detach, shutdown and a departing caller clear
// the requests and resume (unity/debug/debugger.ts).

import { evalOutcome, evalOutputSchema } from './eval.js';
import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import type { Breakpoint, CodeLocation, Stop } from '../../unity/debug/debugger.js';
import type { FrameView } from '../../unity/debug/frames.js';
import { evaluateInPause, pauseState } from '../../unity/debug/inspect.js';
import { costSchema } from '../schemas.js';
import { clip, costOut, defineTool, untouched } from '../tool.js';

const locationSchema = z.object({
  method: z.string(),
  il_offset: z.number().int(),
  file: z.string().optional(),
  line: z.number().int().optional(),
});

function locationOut(l: CodeLocation): z.input<typeof locationSchema> {
  return {
    method: l.method,
    il_offset: l.ilOffset,
    ...(l.file !== undefined ? { file: l.file } : {}),
    ...(l.line !== undefined ? { line: l.line } : {}),
  };
}

function locationText(l: CodeLocation | undefined): string {
  if (!l) return 'an unknown location';
  const file = l.file
    ? ` (${l.file.split(/[\\/]/).pop()}${l.line !== undefined ? `:${l.line}` : ''})`
    : '';
  return `${l.method} IL ${l.ilOffset}${file}`;
}

export const stopSchema = z.object({
  seq: z.number().int().describe('increases with every stop'),
  reason: z.enum(['breakpoint', 'step', 'exception']),
  owner: z.string().describe('the caller this pause belongs to'),
  thread: z.number().int().describe('the stopped thread'),
  breakpoint: z.number().int().optional(),
  location: locationSchema.optional(),
  exception_type: z.string().optional(),
  condition_error: z
    .string()
    .optional()
    .describe('the condition could not be evaluated, so the breakpoint stopped'),
  queued: z
    .boolean()
    .optional()
    .describe('this thread stopped while another pause was current, and waited at its stop'),
});

const queuedSchema = stopSchema.omit({ seq: true });

export function stopOut(s: Stop): z.input<typeof stopSchema> {
  return { seq: s.seq, ...queuedOut(s) };
}

function queuedOut(s: Omit<Stop, 'seq'>): z.input<typeof queuedSchema> {
  return {
    reason: s.reason,
    owner: s.owner,
    thread: s.threadId,
    ...(s.breakpointId !== undefined ? { breakpoint: s.breakpointId } : {}),
    ...(s.location ? { location: locationOut(s.location) } : {}),
    ...(s.exception ? { exception_type: s.exception.type } : {}),
    ...(s.conditionError !== undefined ? { condition_error: s.conditionError } : {}),
    ...(s.queued ? { queued: true } : {}),
  };
}

export function stopText(s: Omit<Stop, 'seq'>): string {
  const what =
    s.reason === 'exception'
      ? `${s.exception?.type ?? 'an exception'} thrown`
      : s.reason === 'step'
        ? 'step done'
        : `breakpoint ${s.breakpointId}`;
  const cond = s.conditionError ? ` (condition failed: ${s.conditionError})` : '';
  const waited = s.queued ? ' (stopped while another pause was current)' : '';
  return `paused: ${what} at ${locationText(s.location)}, thread ${s.threadId}, owned by ${s.owner}${cond}${waited}`;
}

const breakpointSchema = z.object({
  id: z.number().int(),
  owner: z.string(),
  kind: z.enum(['line', 'exception']),
  locations: z.array(locationSchema),
  exception_type: z.string().optional().describe('absent: every exception'),
  subclasses: z.boolean().optional(),
  condition: z.string().optional(),
  hit_count: z.number().int().optional(),
  hits: z.number().int(),
  passed: z
    .number()
    .int()
    .optional()
    .describe('hits let go undecided: they came while an evaluation ran with every thread resumed'),
  spent: z
    .boolean()
    .optional()
    .describe('a hit-count breakpoint after its stop: it will not stop again'),
  waiting_for: z
    .string()
    .optional()
    .describe('not bound yet: it binds when this loads, before its code first runs'),
  suggestions: z.array(z.string()).optional().describe('loaded types with a close name'),
  bind_error: z.string().optional().describe('its type loaded, but the location is not there'),
});

function breakpointOut(b: Breakpoint): z.input<typeof breakpointSchema> {
  return {
    id: b.id,
    owner: b.owner,
    kind: b.kind,
    locations: b.locations.map(locationOut),
    ...(b.exceptionType !== undefined ? { exception_type: b.exceptionType } : {}),
    ...(b.kind === 'exception' ? { subclasses: b.subclasses ?? true } : {}),
    ...(b.condition !== undefined ? { condition: b.condition } : {}),
    ...(b.hitCount !== undefined ? { hit_count: b.hitCount } : {}),
    hits: b.hits,
    ...(b.passed ? { passed: b.passed } : {}),
    ...(b.spent ? { spent: true } : {}),
    ...(b.pending ? { waiting_for: b.pending.waitingFor } : {}),
    ...(b.pending?.suggestions ? { suggestions: b.pending.suggestions } : {}),
    ...(b.bindError !== undefined ? { bind_error: b.bindError } : {}),
  };
}

function whereText(b: Breakpoint): string {
  if (b.pending)
    return `(pending) waiting for ${b.pending.waitingFor}${b.pending.suggestions?.length ? `; loaded types with a close name: ${b.pending.suggestions.join(', ')}` : ''}`;
  if (b.bindError !== undefined) return `(not bound: ${b.bindError})`;
  return b.locations.map(locationText).join('; ');
}

const readOnly = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const control = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

export const debugSetBreakpoint = defineTool({
  name: 'debug_set_breakpoint',
  title: 'Set a breakpoint',
  description:
    'Stop the game when code reaches a location: `type` + `method` (+ `line` or `il_offset`; ' +
    'default the first line; `signature` like "(int)" picks an overload), or `file` + `line` ' +
    '(methods the game has compiled). A type (by full name) or file not in the game yet gives ' +
    'a pending breakpoint (`waiting_for`) that binds when that code loads, before it first ' +
    'runs. `condition` is C# evaluated in the frame (locals, ' +
    'parameters, `this`): it stops only when true. `hit_count` N stops on the N-th hit only. ' +
    'The pause belongs to you; then debug_wait, debug_pause_state, debug_step.',
  input: z.object({
    type: z.string().min(1).optional().describe('full or simple type name'),
    method: z.string().min(1).optional(),
    line: z.number().int().min(1).optional(),
    il_offset: z.number().int().min(0).optional(),
    signature: z.string().optional().describe('parameter types, e.g. "(int, string)"'),
    file: z.string().min(1).optional().describe('source file (full path or file name)'),
    condition: z.string().min(1).max(2000).optional(),
    hit_count: z.number().int().min(1).optional(),
  }),
  output: z.object({ breakpoint: breakpointSchema, cost: costSchema }),
  annotations: control,
  run: async (args, { debug, caller }) => {
    const r = await debug.setBreakpoint(caller, {
      ...(args.type !== undefined ? { type: args.type } : {}),
      ...(args.method !== undefined ? { method: args.method } : {}),
      ...(args.line !== undefined ? { line: args.line } : {}),
      ...(args.il_offset !== undefined ? { ilOffset: args.il_offset } : {}),
      ...(args.signature !== undefined ? { signature: args.signature } : {}),
      ...(args.file !== undefined ? { file: args.file } : {}),
      ...(args.condition !== undefined ? { condition: args.condition } : {}),
      ...(args.hit_count !== undefined ? { hitCount: args.hit_count } : {}),
    });
    const b = r.value;
    return {
      text: `breakpoint ${b.id} ${b.pending ? '' : 'at '}${whereText(b)}`,
      structured: { breakpoint: breakpointOut(b), cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const debugBreakOnException = defineTool({
  name: 'debug_break_on_exception',
  title: 'Break where an exception is thrown',
  description:
    'Stop the game where an exception of `type` (with `subclasses`, default true; no type: any ' +
    'exception) is thrown, caught or not: Unity players catch nearly everything, so stops on ' +
    'uncaught exceptions would never fire. Remove it with debug_remove_breakpoint.',
  input: z.object({
    type: z.string().min(1).optional().describe('exception type, full or simple name'),
    subclasses: z.boolean().optional(),
  }),
  output: z.object({ breakpoint: breakpointSchema, cost: costSchema }),
  annotations: control,
  run: async (args, { debug, caller }) => {
    const r = await debug.breakOnException(caller, {
      ...(args.type !== undefined ? { type: args.type } : {}),
      ...(args.subclasses !== undefined ? { subclasses: args.subclasses } : {}),
    });
    const b = r.value;
    return {
      text: `breakpoint ${b.id}: break when ${b.exceptionType ?? 'any exception'}${b.subclasses ? ' (or a subclass)' : ''} is thrown`,
      structured: { breakpoint: breakpointOut(b), cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const debugRemoveBreakpoint = defineTool({
  name: 'debug_remove_breakpoint',
  title: 'Remove breakpoints',
  description:
    "Remove breakpoint `id`, or all of yours (`all: true`; with `force` everyone's). A pause " +
    'in place stays: resume it with debug_step {kind: "resume"}.',
  input: z.object({
    id: z.number().int().optional(),
    all: z.boolean().optional(),
    force: z.boolean().optional().describe("also another caller's"),
  }),
  output: z.object({ removed: z.array(z.number().int()), cost: costSchema }),
  annotations: { ...control, idempotentHint: true },
  run: async (args, { debug, caller }) => {
    if ((args.id === undefined) === (args.all !== true))
      throw new UnityError('INVALID_ARGUMENT', 'give id, or all: true');
    const r = await debug.remove(caller, args.id, args.force === true);
    return {
      text: r.value.length ? `removed ${r.value.join(', ')}` : 'nothing to remove',
      structured: { removed: r.value, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const debugStatus = defineTool({
  name: 'debug_status',
  title: 'Debugger status',
  description:
    'Breakpoints (with hits), whether the game is paused at an event and where, who owns the ' +
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
  annotations: readOnly,
  run: (_args, { app, debug }) => {
    const started = performance.now();
    const d = debug.status();
    const holds = app.session.status().holds;
    const lines = [
      d.pause
        ? stopText(d.pause)
        : holds.length
          ? `held by ${holds.map((h) => h.caller).join(', ')}`
          : 'running',
      ...d.queued.map((q) => `in line: ${stopText(q)}`),
      ...d.breakpoints.map(
        (b) =>
          `#${b.id} ${b.kind === 'exception' ? `throw ${b.exceptionType ?? '(any)'}` : whereText(b)} hits ${b.hits}${b.passed ? ` (${b.passed} let go during evaluations)` : ''}${b.condition ? ` if ${b.condition}` : ''}${b.hitCount ? ` on hit ${b.hitCount}` : ''}${b.spent ? ' (spent)' : ''} [${b.owner}]`,
      ),
    ];
    const cost = untouched(started);
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
        cost: costOut(cost),
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
  output: z.object({ stopped: z.boolean(), stop: stopSchema.optional(), cost: costSchema }),
  annotations: readOnly,
  run: async (args, { debug }) => {
    const started = performance.now();
    const s = await debug.wait(args.timeout_ms);
    const cost = untouched(started);
    return {
      text: s ? stopText(s) : `no stop within ${args.timeout_ms} ms`,
      structured: {
        stopped: s !== undefined,
        ...(s ? { stop: stopOut(s) } : {}),
        cost: costOut(cost),
      },
      cost,
    };
  },
});

const variableSchema = z.object({
  name: z.string(),
  kind: z.enum(['param', 'local', 'this']),
  type: z.string(),
  value: z.string(),
});

const frameSchema = z.object({
  index: z.number().int(),
  method: z.string(),
  il_offset: z.number().int(),
  file: z.string().optional(),
  line: z.number().int().optional(),
  native: z.boolean().optional(),
  variables: z.array(variableSchema).optional(),
  unreadable: z.string().optional(),
  more_variables: z.number().int().optional().describe('variables left out (40 are shown)'),
});

function frameOut(f: FrameView): z.input<typeof frameSchema> {
  return {
    index: f.index,
    method: f.method,
    il_offset: f.ilOffset,
    ...(f.file !== undefined ? { file: f.file } : {}),
    ...(f.line !== undefined ? { line: f.line } : {}),
    ...(f.native ? { native: true } : {}),
    ...(f.variables
      ? {
          variables: f.variables.map((v) => ({
            name: v.name,
            kind: v.kind,
            type: v.type,
            value: v.value,
          })),
        }
      : {}),
    ...(f.unreadable !== undefined ? { unreadable: f.unreadable } : {}),
    ...(f.moreVariables !== undefined ? { more_variables: f.moreVariables } : {}),
  };
}

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
  annotations: readOnly,
  run: async (args, { app, debug, caller }) => {
    const r = await pauseState(app.session, debug, caller, {
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
        cost: costOut(r.cost),
      },
      cost: r.cost,
    };
  },
});

export const debugEvaluate = defineTool({
  name: 'debug_evaluate',
  title: 'Evaluate C# in a frame',
  description:
    'Like eval, in the scope of a frame of the paused game (`frame`, default the top managed one): its parameters, ' +
    'locals and `this` are readable; `name = expr` on a parameter or local writes the frame ' +
    '(read back; the game uses it when it resumes; a later call may still show the old value ' +
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
  annotations: { ...control, destructiveHint: true },
  run: async (args, { app, debug, journal, caller }) => {
    return evalOutcome(
      await evaluateInPause(app.session, debug, journal, caller, args.code, {
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
  annotations: control,
  run: async (args, { debug, caller }) => {
    const r = await debug.step(caller, args.kind, {
      force: args.force === true,
      timeoutMs: args.timeout_ms,
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
            : `the step did not finish within ${args.timeout_ms} ms; the game runs (debug_wait catches the stop)`;
    return {
      text,
      structured: {
        stopped: s !== undefined,
        ...(s ? { stop: stopOut(s) } : {}),
        cost: costOut(r.cost),
      },
      cost: r.cost,
    };
  },
});

export const debugLocations = defineTool({
  name: 'debug_locations',
  title: 'Source lines of a method',
  description:
    "A method's sequence points (IL offset, file, line): where breakpoints can go, and the " +
    'stand-in for source text.',
  input: z.object({
    type: z.string().min(1),
    method: z.string().min(1),
    signature: z.string().optional(),
  }),
  output: z.object({
    methods: z.array(
      z.object({
        method: z.string(),
        signature: z.string(),
        points: z.array(
          z.object({
            il_offset: z.number().int(),
            line: z.number().int(),
            file: z.string().optional(),
          }),
        ),
      }),
    ),
    cost: costSchema,
  }),
  annotations: readOnly,
  run: async (args, { debug, caller }) => {
    const r = await debug.methodLocations(caller, args.type, args.method, args.signature);
    const lines: string[] = [];
    for (const m of r.value) {
      lines.push(`${m.method}${m.signature}`);
      for (const p of m.points)
        lines.push(
          `  IL ${p.ilOffset}: line ${p.line}${p.file ? ` ${p.file.split(/[\\/]/).pop()}` : ''}`,
        );
    }
    return {
      text: lines.join('\n'),
      structured: {
        methods: r.value.map((m) => ({
          method: m.method,
          signature: m.signature,
          points: m.points.map((p) => ({
            il_offset: p.ilOffset,
            line: p.line,
            ...(p.file !== undefined ? { file: p.file } : {}),
          })),
        })),
        cost: costOut(r.cost),
      },
      cost: r.cost,
    };
  },
});

export const debugTools = [
  debugSetBreakpoint,
  debugBreakOnException,
  debugRemoveBreakpoint,
  debugStatus,
  debugWait,
  debugPauseState,
  debugEvaluate,
  debugStep,
  debugLocations,
];
