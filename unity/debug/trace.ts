// Logpoints: a breakpoint with a `log` message records an entry per hit instead of pausing. The
// message's `{holes}` are C# evaluated in the stopped frame (frame-eval.ts, as debug_evaluate
// does), one program per hole so that a hole that fails records its error text in the entry and
// the others still show. Entries go to a bounded buffer per breakpoint (the oldest dropped,
// counted); `debug_trace` reads them by a sequence cursor.

import { EvalError } from '../../eval/index.js';
import { Errors, messageOf } from '../errors.js';

/** A log message: literal text and C# holes, in order (`{{` and `}}` are literal braces). */
export type MessagePart = { text: string } | { code: string };

/** Parses `hp={hp}, pos={transform.position}`; an unclosed or empty hole is refused. */
export function parseLogMessage(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let text = '';
  let i = 0;
  while (i < message.length) {
    const c = message[i]!;
    if (c === '{' && message[i + 1] === '{') {
      text += '{';
      i += 2;
      continue;
    }
    if (c === '}' && message[i + 1] === '}') {
      text += '}';
      i += 2;
      continue;
    }
    if (c === '}') throw Errors.invalidArgument(`log: a '}' at ${i} closes no hole (write '}}')`);
    if (c !== '{') {
      text += c;
      i++;
      continue;
    }
    // a hole: up to the brace that closes it (braces inside strings and nested {} count)
    let depth = 1;
    let j = i + 1;
    let quote: string | undefined;
    for (; j < message.length && depth > 0; j++) {
      const d = message[j]!;
      if (quote) {
        if (d === '\\') j++;
        else if (d === quote) quote = undefined;
      } else if (d === '"' || d === "'") quote = d;
      else if (d === '{') depth++;
      else if (d === '}') depth--;
    }
    if (depth > 0) throw Errors.invalidArgument(`log: the hole opened at ${i} is not closed`);
    const code = message.slice(i + 1, j - 1).trim();
    if (code.length === 0) throw Errors.invalidArgument(`log: the hole at ${i} is empty`);
    if (text) parts.push({ text });
    text = '';
    parts.push({ code });
    i = j;
  }
  if (text) parts.push({ text });
  return parts;
}

/** What one hole gave: its value as eval shows it, or why it failed. */
export type HoleResult = { text: string } | { error: string };

/** The outcome of evaluating one program (evaluate's result, or what it threw). */
export type ProgramOutcome =
  | { kind: 'value'; text: string }
  | { kind: 'void' }
  | { kind: 'exception'; type: string; message: string };

export function holeResult(r: ProgramOutcome): HoleResult {
  if (r.kind === 'value') return { text: r.text };
  if (r.kind === 'void') return { error: 'the hole has no value (void)' };
  return { error: `threw ${r.type}: ${r.message}` };
}

/** What an evaluation threw, as a hole's error text (never thrown on: the hit is kept). */
export function holeError(e: unknown): HoleResult {
  if (e instanceof EvalError) return { error: `${e.code}: ${e.message}` };
  return { error: messageOf(e) };
}

/** The message with each hole's value (or `<error: …>`). */
export function renderMessage(parts: readonly MessagePart[], holes: readonly HoleResult[]): string {
  let k = 0;
  return parts
    .map((p) => {
      if ('text' in p) return p.text;
      const h = holes[k++];
      if (!h) return '<not evaluated>';
      return 'text' in h ? h.text : `<error: ${h.error}>`;
    })
    .join('');
}

export interface TraceEntry {
  /** Increases with every entry this debugger records (the `since` cursor). */
  seq: number;
  breakpointId: number;
  /** Wall-clock time the hit arrived (ms since the epoch). */
  time: number;
  /** Time.frameCount at the hit, when it could be read. */
  frame?: number;
  threadId: number;
  message: string;
  /** The holes that failed: their code and error text. */
  errors?: { code: string; error: string }[];
}

/** Entries kept per breakpoint (the oldest are dropped past it). */
export const TRACE_CAPACITY = 1000;
/** Breakpoints whose traces are kept after removal (the most recently set). */
const KEPT_TRACES = 32;

interface Buffer {
  entries: TraceEntry[];
  dropped: number;
}

/** The trace buffers of one debugger: one per logpoint, bounded. */
export class TraceStore {
  private seq = 0;
  private readonly buffers = new Map<number, Buffer>();

  constructor(private readonly capacity = TRACE_CAPACITY) {}

  record(entry: Omit<TraceEntry, 'seq'>): TraceEntry {
    let b = this.buffers.get(entry.breakpointId);
    if (!b) {
      b = { entries: [], dropped: 0 };
      this.buffers.set(entry.breakpointId, b);
      // keep the traces of the most recent breakpoints only
      while (this.buffers.size > KEPT_TRACES) {
        const oldest = this.buffers.keys().next().value!;
        this.buffers.delete(oldest);
      }
    }
    const full: TraceEntry = { ...entry, seq: ++this.seq };
    b.entries.push(full);
    if (b.entries.length > this.capacity) {
      b.entries.shift();
      b.dropped++;
    }
    return full;
  }

  /** Entries after `since` (of one breakpoint, or all), oldest first, at most `limit`. */
  read(options: { breakpointId?: number; since?: number; limit?: number } = {}): {
    entries: TraceEntry[];
    dropped: { breakpointId: number; count: number }[];
    last: number;
  } {
    const since = options.since ?? 0;
    const limit = options.limit ?? 100;
    const of =
      options.breakpointId !== undefined
        ? [[options.breakpointId, this.buffers.get(options.breakpointId)] as const]
        : [...this.buffers.entries()];
    const all: TraceEntry[] = [];
    const dropped: { breakpointId: number; count: number }[] = [];
    for (const [id, b] of of) {
      if (!b) continue;
      if (b.dropped) dropped.push({ breakpointId: id, count: b.dropped });
      for (const e of b.entries) if (e.seq > since) all.push(e);
    }
    all.sort((a, b) => a.seq - b.seq);
    return { entries: all.slice(0, limit), dropped, last: this.seq };
  }

  has(breakpointId: number): boolean {
    return this.buffers.has(breakpointId);
  }

  /** The connection ended: its breakpoints are gone, and so are their traces. */
  clear(): void {
    this.buffers.clear();
  }
}
