// The parser's cursor over a token list: lookahead, bracket matching, speculation, error
// collection and the nesting bound. The grammar lives in the parse-*.ts files, as functions of
// this cursor.

import { Diagnostics, type ParseError } from './diagnostics.js';
import { joinSpans, type Span } from './span.js';
import type { TypeNode } from './ast.js';
import type { Keyword, Punct, PunctToken, Token } from './tokens.js';

/**
 * Nesting bound (expressions, types and statements count one level each). Deeper input ends the
 * parse with one `nesting-too-deep` error instead of a stack overflow.
 */
const MAX_DEPTH = 500;

/** Unwinds a parse that went too deep; caught by `parse`. */
export class NestingTooDeep extends Error {
  constructor(readonly span: Span) {
    super('nesting too deep');
  }
}

/** The contextual keywords of query expressions (§12.20.1). */
const QUERY_WORDS: ReadonlySet<string> = new Set([
  'from', 'where', 'select', 'group', 'by', 'into', 'orderby', 'let', 'join', 'on', 'equals',
  'ascending', 'descending',
]); // prettier-ignore

const CLOSER: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/** For each bracket token, the index of its partner; -1 when unmatched or not a bracket. */
function matchBrackets(tokens: Token[]): Int32Array {
  const match = new Int32Array(tokens.length).fill(-1);
  const open: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'punct') return;
    if (t.punct === '(' || t.punct === '[' || t.punct === '{') {
      open.push(i);
      return;
    }
    const opener = CLOSER[t.punct];
    if (opener === undefined) return;
    for (let k = open.length - 1; k >= 0; k--) {
      const j = open[k]!;
      if ((tokens[j] as PunctToken).punct === opener) {
        match[i] = j;
        match[j] = i;
        open.length = k;
        return;
      }
    }
  });
  return match;
}

export class Parser {
  pos = 0;
  readonly match: Int32Array;
  /** Type argument lists already tried, by the index of their `<` (see parse-types.ts). */
  readonly typeArgMemo = new Map<number, { end: number; args: TypeNode[] } | null>();
  /** Hidden lambda parameters made so far by query translation, to name the next one uniquely. */
  transparentIdentifiers = 0;
  /** Query expressions open around the cursor: inside one, its contextual keywords end operands. */
  queryDepth = 0;

  constructor(
    readonly tokens: Token[],
    readonly errors: ParseError[],
    public depth = 0,
  ) {
    this.match = matchBrackets(tokens);
  }

  /** The current token (the final `eof` once past the end). */
  get tok(): Token {
    return this.peek(0);
  }

  peek(k = 1): Token {
    const tokens = this.tokens;
    return tokens[Math.min(this.pos + k, tokens.length - 1)]!;
  }

  get atEof(): boolean {
    return this.tok.kind === 'eof';
  }

  advance(): Token {
    const t = this.tok;
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  atPunct(p: Punct, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.punct === p;
  }

  atKeyword(kw: Keyword, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'keyword' && t.keyword === kw;
  }

  atIdentifier(k = 0): boolean {
    return this.peek(k).kind === 'identifier';
  }

  /** A contextual keyword: an identifier spelled `name`, not written `@name`. */
  atContextual(name: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'identifier' && !t.verbatim && t.name === name;
  }

  /**
   * Inside a query expression, a word that goes on with the query (`select`, `descending`, ...):
   * not the name a cast's operand or a pattern's designation would be (`where (x) select x`).
   */
  atQueryKeyword(k = 0): boolean {
    const t = this.peek(k);
    return this.queryDepth > 0 && t.kind === 'identifier' && !t.verbatim && QUERY_WORDS.has(t.name);
  }

  /** Two tokens with nothing between them, as `>` `>` must be to make a shift. */
  adjacent(k: number): boolean {
    return this.peek(k).span.end === this.peek(k + 1).span.start;
  }

  eatPunct(p: Punct): boolean {
    if (!this.atPunct(p)) return false;
    this.advance();
    return true;
  }

  expectPunct(p: Punct): boolean {
    if (this.eatPunct(p)) return true;
    this.error(Diagnostics.expectedToken(this.tok.span, `'${p}'`, describe(this.tok)));
    return false;
  }

  error(e: ParseError): void {
    this.errors.push(e);
  }

  /** From `start` to the end of the last token consumed (empty when nothing was). */
  finish(start: Span): Span {
    const last = this.tokens[this.pos - 1];
    if (!last || last.span.end < start.start) return { ...start, end: start.start };
    return joinSpans(start, last.span);
  }

  /**
   * Runs `fn` as a trial: if it returns null or reports an error, the position and the error
   * list are restored and null is returned. The disambiguation rules are built on this.
   */
  speculate<T>(fn: () => T | null): T | null {
    const pos = this.pos;
    const errorCount = this.errors.length;
    const result = fn();
    if (result !== null && this.errors.length === errorCount) return result;
    this.pos = pos;
    this.errors.length = errorCount;
    return null;
  }

  enter(): void {
    if (++this.depth > MAX_DEPTH) throw new NestingTooDeep(this.tok.span);
  }

  leave(): void {
    this.depth--;
  }

  /** Skips one token, or a whole bracketed group when at its opening bracket. */
  skipGroup(): void {
    const m = this.match[this.pos] ?? -1;
    if (m > this.pos) this.pos = m;
    this.advance();
  }

  /** Skips tokens and whole groups until `stop` holds for the current token, or the end. */
  skipUntil(stop: (t: Token) => boolean): void {
    while (!this.atEof && !stop(this.tok)) this.skipGroup();
  }
}

export function describe(t: Token): string {
  switch (t.kind) {
    case 'identifier':
      return `identifier '${t.text}'`;
    case 'keyword':
    case 'punct':
      return `'${t.text}'`;
    case 'integer':
    case 'real':
      return `number ${t.text}`;
    case 'char':
      return `character literal ${t.text}`;
    case 'string':
    case 'interpolated':
      return 'a string literal';
    case 'eof':
      return t.text === '' ? 'the end of the input' : `'${t.text}'`;
  }
}

/** `) ] } ; ,` and the end: where a missing operand is reported without consuming anything. */
export function isCloser(t: Token): boolean {
  if (t.kind === 'eof') return true;
  if (t.kind !== 'punct') return false;
  return (
    t.punct === ')' || t.punct === ']' || t.punct === '}' || t.punct === ';' || t.punct === ','
  );
}
