// Interpolated strings (C# standard §12.8.3): text with `{{` / `}}`, and holes
// `{expression[,alignment][:format]}` whose expressions are lexed into tokens here, so that
// strings and nested interpolated strings inside a hole are read correctly.

import { Diagnostics } from './diagnostics.js';
import { scanEscape } from './lex-strings.js';
import type { Scanner } from './scanner.js';
import { isNewLine } from './span.js';
import type {
  InterpolatedHolePart,
  InterpolatedTextPart,
  InterpolatedToken,
  Token,
} from './tokens.js';

/** Bounds `$"{$"{...}"}"` so that hostile input cannot exhaust the stack. */
const MAX_INTERPOLATION_DEPTH = 16;

type LexToken = (s: Scanner) => Token;

/**
 * `$"..."`, `$@"..."` or `@$"..."` (`prefixLength` counts the characters before the text).
 * `{{` and `}}` stand for braces; `{` opens a hole `{expression[,alignment][:format]}`.
 */
export function scanInterpolated(
  s: Scanner,
  verbatim: boolean,
  prefixLength: number,
  lexToken: LexToken,
): InterpolatedToken {
  const start = s.pos;
  s.pos += prefixLength;
  const parts: (InterpolatedTextPart | InterpolatedHolePart)[] = [];
  let text = '';
  let textStart = s.pos;
  const flush = (end: number): void => {
    if (text !== '') parts.push({ kind: 'text', value: text, span: s.span(textStart, end) });
    text = '';
  };
  if (s.interpolationDepth >= MAX_INTERPOLATION_DEPTH) {
    s.error(Diagnostics.interpolationTooDeep(s.span(start, s.pos)));
  }
  s.interpolationDepth++;
  let holeUnterminated = false;
  for (;;) {
    const c = s.code();
    if (s.atEnd || (!verbatim && isNewLine(c))) {
      flush(s.pos);
      if (!holeUnterminated) s.error(Diagnostics.unterminatedString(s.span(start)));
      break;
    }
    if (c === 0x22) {
      if (verbatim && s.code(1) === 0x22) {
        text += '"';
        s.pos += 2;
        continue;
      }
      flush(s.pos);
      s.pos++;
      break;
    }
    if (c === 0x7b || c === 0x7d) {
      if (s.code(1) === c) {
        text += s.char();
        s.pos += 2;
      } else if (c === 0x7d) {
        s.error(Diagnostics.interpolationBrace(s.span(s.pos, s.pos + 1)));
        text += '}';
        s.pos++;
      } else if (s.interpolationDepth > MAX_INTERPOLATION_DEPTH) {
        text += '{';
        s.pos++;
      } else {
        flush(s.pos);
        const hole = scanHole(s, verbatim, lexToken);
        parts.push(hole.part);
        holeUnterminated ||= hole.unterminated;
        textStart = s.pos;
      }
    } else if (c === 0x5c && !verbatim) {
      text += scanEscape(s);
    } else {
      text += s.char();
      s.pos++;
    }
  }
  s.interpolationDepth--;
  return {
    kind: 'interpolated',
    span: s.span(start),
    text: s.src.slice(start, s.pos),
    verbatim,
    parts,
  };
}

interface Collected {
  tokens: Token[];
  stop: '}' | ',' | ':' | null;
  sawQuestion: boolean;
}

/** Lexes tokens up to one of `stops` at bracket depth 0; `stop` is null at the end of input. */
function collect(s: Scanner, stops: string, lexToken: LexToken): Collected {
  const tokens: Token[] = [];
  let depth = 0;
  let sawQuestion = false;
  let stop: Collected['stop'] = null;
  for (;;) {
    s.skipTrivia();
    if (s.atEnd) break;
    const c = s.char();
    if (depth === 0 && stops.includes(c) && (c !== ':' || s.char(1) !== ':')) {
      stop = c as '}' | ',' | ':';
      break;
    }
    const t = lexToken(s);
    if (t.kind === 'eof') break;
    if (t.kind === 'punct') {
      if (t.punct === '(' || t.punct === '[' || t.punct === '{') depth++;
      else if ((t.punct === ')' || t.punct === ']' || t.punct === '}') && depth > 0) depth--;
      else if (t.punct === '?' && depth === 0) sawQuestion = true;
    }
    tokens.push(t);
  }
  tokens.push({ kind: 'eof', span: s.span(s.pos, s.pos), text: stop ?? '' });
  return { tokens, stop, sawQuestion };
}

function scanHole(
  s: Scanner,
  verbatim: boolean,
  lexToken: LexToken,
): { part: InterpolatedHolePart; unterminated: boolean } {
  const start = s.pos;
  s.pos++;
  const expression = collect(s, '},:', lexToken);
  let alignment: Collected | null = null;
  let stop = expression.stop;
  if (stop === ',') {
    s.pos++;
    alignment = collect(s, '}:', lexToken);
    stop = alignment.stop;
  }
  let format: string | null = null;
  if (stop === ':') {
    s.pos++;
    format = scanFormat(s, verbatim);
  }
  const unterminated = s.code() !== 0x7d;
  if (unterminated) s.error(Diagnostics.unterminatedInterpolation(s.span(start, start + 1)));
  else s.pos++;
  const part: InterpolatedHolePart = {
    kind: 'hole',
    expression: expression.tokens,
    alignment: alignment?.tokens ?? null,
    format,
    conditionalBeforeFormat: expression.stop === ':' && expression.sawQuestion,
    span: s.span(start),
  };
  return { part, unterminated };
}

/** The format clause, up to `}`; escapes are decoded in a regular interpolated string. */
function scanFormat(s: Scanner, verbatim: boolean): string {
  let format = '';
  while (!s.atEnd) {
    const c = s.code();
    if (c === 0x7d || (!verbatim && isNewLine(c))) break;
    if (c === 0x22) {
      if (!verbatim || s.code(1) !== 0x22) break;
      format += '"';
      s.pos += 2;
    } else if (c === 0x5c && !verbatim) {
      format += scanEscape(s);
    } else {
      format += s.char();
      s.pos++;
    }
  }
  return format;
}
