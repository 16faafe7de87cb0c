// What the debugger tools say, as schemas and as text: code locations, stops (also shown by
// status and advance), breakpoints, and the frames of a paused thread with their variables.

import { z } from 'zod';

import type { Breakpoint, CodeLocation, Stop } from '../../unity/debug/debugger.js';
import type { FrameView } from '../../unity/debug/frames.js';

export const locationSchema = z.object({
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

export function locationText(l: CodeLocation | undefined): string {
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

export const queuedSchema = stopSchema.omit({ seq: true });

export function stopOut(s: Stop): z.input<typeof stopSchema> {
  return { seq: s.seq, ...queuedOut(s) };
}

export function queuedOut(s: Omit<Stop, 'seq'>): z.input<typeof queuedSchema> {
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

export const breakpointSchema = z.object({
  id: z.number().int(),
  owner: z.string(),
  kind: z.enum(['line', 'exception']),
  locations: z.array(locationSchema),
  exception_type: z.string().optional().describe('absent: every exception'),
  subclasses: z.boolean().optional(),
  condition: z.string().optional(),
  hit_count: z.number().int().optional(),
  log: z
    .string()
    .optional()
    .describe('a logpoint: its hits are recorded (debug_trace), not paused at'),
  hits: z.number().int(),
  stop_cost: z
    .object({
      stops: z.number().int(),
      avg_ms: z.number(),
      max_ms: z.number(),
    })
    .optional()
    .describe(
      'hits it stopped the game for and let go at once (logpoint hits, false conditions): the game stood still this long per hit',
    ),
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

export function breakpointOut(b: Breakpoint): z.input<typeof breakpointSchema> {
  return {
    id: b.id,
    owner: b.owner,
    kind: b.kind,
    locations: b.locations.map(locationOut),
    ...(b.exceptionType !== undefined ? { exception_type: b.exceptionType } : {}),
    ...(b.kind === 'exception' ? { subclasses: b.subclasses ?? true } : {}),
    ...(b.condition !== undefined ? { condition: b.condition } : {}),
    ...(b.hitCount !== undefined ? { hit_count: b.hitCount } : {}),
    ...(b.log !== undefined ? { log: b.log } : {}),
    hits: b.hits,
    ...(b.stopCost && b.stopCost.stops > 0
      ? {
          stop_cost: {
            stops: b.stopCost.stops,
            avg_ms: round3(b.stopCost.totalMs / b.stopCost.stops),
            max_ms: round3(b.stopCost.maxMs),
          },
        }
      : {}),
    ...(b.passed ? { passed: b.passed } : {}),
    ...(b.spent ? { spent: true } : {}),
    ...(b.pending ? { waiting_for: b.pending.waitingFor } : {}),
    ...(b.pending?.suggestions ? { suggestions: b.pending.suggestions } : {}),
    ...(b.bindError !== undefined ? { bind_error: b.bindError } : {}),
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** `, stopped 0.8 ms per hit (12)`: what a breakpoint's let-go hits cost the game. */
export function stopCostText(b: Breakpoint): string {
  const c = b.stopCost;
  if (!c || c.stops === 0) return '';
  return `, stopped ${(c.totalMs / c.stops).toFixed(2)} ms per hit (max ${c.maxMs.toFixed(2)}, ${c.stops} stops)`;
}

export function whereText(b: Breakpoint): string {
  if (b.pending)
    return `(pending) waiting for ${b.pending.waitingFor}${b.pending.suggestions?.length ? `; loaded types with a close name: ${b.pending.suggestions.join(', ')}` : ''}`;
  if (b.bindError !== undefined) return `(not bound: ${b.bindError})`;
  return b.locations.map(locationText).join('; ');
}

const variableSchema = z.object({
  name: z.string(),
  kind: z.enum(['param', 'local', 'this']),
  type: z.string(),
  value: z.string(),
});

export const frameSchema = z.object({
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

export function frameOut(f: FrameView): z.input<typeof frameSchema> {
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
