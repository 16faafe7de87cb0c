// Breakpoints and where they can go: set one at a line or method (pending until its code
// loads), break where an exception is thrown, remove them, and list a method's source lines.
// A pause made by a breakpoint belongs to the caller that set it (unity/debug/debugger.ts).

import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import { costSchema } from '../schemas.js';
import { CONTROLS, CONTROLS_IDEMPOTENT, READS, defineTool } from '../tool.js';
import { breakpointOut, breakpointSchema, whereText } from './debug-format.js';

export const debugSetBreakpoint = defineTool({
  name: 'debug_set_breakpoint',
  title: 'Set a breakpoint',
  description:
    'Stop the game when code reaches a location: `type` + `method` (+ `line` or `il_offset`; ' +
    'default the first line; `signature` like "(int)" picks an overload), or `file` + `line` ' +
    '(methods the game has compiled). A type (by full name) or file not in the game yet gives ' +
    'a pending breakpoint (`waiting_for`) that binds when that code loads, before it first ' +
    'runs. `condition` is C# evaluated in the frame (locals, ' +
    'parameters, `this`, bare members of `this`): it stops only when true. `hit_count` N stops on the N-th hit only. ' +
    '`log` makes it a logpoint: "hp={hp}, pos={transform.position}" ({holes} are C# evaluated in the frame; {{ }} are braces) ' +
    'is recorded at each hit (read with debug_trace) and the game runs on, stopped only while the holes are evaluated; ' +
    'condition and hit_count combine with it. ' +
    'A coroutine (iterator), an async method, or a line inside a lambda binds to the code the compiler generated ' +
    "for the body (the state machine's MoveNext, the lambda's method), on your lines; a name that is no member is " +
    'looked up as a local function. Their frames show your method (`Enemy.Patrol (coroutine)`), hoisted locals and ' +
    'parameters by their names (read-only), and the declaring object as `this`. ' +
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
    log: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe('logpoint message with C# {holes}: record and run on instead of pausing'),
  }),
  output: z.object({ breakpoint: breakpointSchema, cost: costSchema }),
  annotations: CONTROLS,
  // wire commands without a window (Debugger.setBreakpoint): it waits behind no one
  tier: 'instant',
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
      ...(args.log !== undefined ? { log: args.log } : {}),
    });
    const b = r.value;
    return {
      text: `${b.log !== undefined ? 'logpoint' : 'breakpoint'} ${b.id} ${b.pending ? '' : 'at '}${whereText(b)}`,
      structured: { breakpoint: breakpointOut(b) },
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
  annotations: CONTROLS,
  // wire commands without a window: it waits behind no one
  tier: 'instant',
  run: async (args, { debug, caller }) => {
    const r = await debug.breakOnException(caller, {
      ...(args.type !== undefined ? { type: args.type } : {}),
      ...(args.subclasses !== undefined ? { subclasses: args.subclasses } : {}),
    });
    const b = r.value;
    return {
      text: `breakpoint ${b.id}: break when ${b.exceptionType ?? 'any exception'}${b.subclasses ? ' (or a subclass)' : ''} is thrown`,
      structured: { breakpoint: breakpointOut(b) },
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
  annotations: CONTROLS_IDEMPOTENT,
  // wire commands without a window: it waits behind no one
  tier: 'instant',
  run: async (args, { debug, caller }) => {
    if ((args.id === undefined) === (args.all !== true))
      throw new UnityError('INVALID_ARGUMENT', 'give id, or all: true');
    const r = await debug.remove(caller, args.id, args.force === true);
    return {
      text: r.value.length ? `removed ${r.value.join(', ')}` : 'nothing to remove',
      structured: { removed: r.value },
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
  annotations: READS,
  tier: 'instant',
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
      },
      cost: r.cost,
    };
  },
});
