// Source positions. Every token and every AST node carries a Span so that each error, at parse
// time or later in the interpreter, can name the column the agent has to fix.

/**
 * A stretch of the source: UTF-16 offsets `[start, end)`, and the 1-based line and column of
 * `start` (columns count UTF-16 code units, the way editors and JavaScript strings do).
 */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
}

/** Offsets to lines and columns. C# new-line characters (spec §6.3.2): CR, LF, CR LF, NEL, LS, PS. */
export class LineMap {
  private readonly lineStarts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = 0; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 0x0d) {
        if (source.charCodeAt(i + 1) === 0x0a) i++;
        this.lineStarts.push(i + 1);
      } else if (c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029) {
        this.lineStarts.push(i + 1);
      }
    }
  }

  span(start: number, end: number): Span {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= start) lo = mid;
      else hi = mid - 1;
    }
    return { start, end, line: lo + 1, column: start - starts[lo]! + 1 };
  }
}

/** The span from the start of `first` to the end of `last`. */
export function joinSpans(first: Span, last: Span): Span {
  return { start: first.start, end: last.end, line: first.line, column: first.column };
}

/** True for the C# new-line characters (spec §6.3.2). */
export function isNewLine(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}
