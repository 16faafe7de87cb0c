// The lexer: source text to tokens (C# standard §6.4), errors collected, never thrown. Every
// malformed literal still yields a token, so that the parser does not pile up follow-on errors.

import { Diagnostics, type ParseError } from './diagnostics.js';
import { scanNumber } from './lex-numbers.js';
import { scanInterpolated } from './lex-interpolated.js';
import { scanChar, scanRawString, scanString, scanVerbatimString } from './lex-strings.js';
import { isDecimalDigit, isIdentifierPart, isIdentifierStart, Scanner } from './scanner.js';
import { isNewLine, LineMap } from './span.js';
import { isKeyword, PUNCTUATORS, type Punct, type Token } from './tokens.js';

export interface LexResult {
  /** Always ends with one `eof` token. */
  tokens: Token[];
  errors: ParseError[];
  lines: LineMap;
}

export function lex(source: string): LexResult {
  const lines = new LineMap(source);
  const errors: ParseError[] = [];
  const s = new Scanner(source, lines, errors);
  const tokens: Token[] = [];
  for (;;) {
    const t = nextToken(s);
    tokens.push(t);
    if (t.kind === 'eof') return { tokens, errors, lines };
  }
}

const PUNCT_BY_LENGTH: ReadonlySet<string>[] = [3, 2, 1].map(
  (n) => new Set(PUNCTUATORS.filter((p) => p.length === n)),
);

function codePointAt(s: Scanner, offset: number): number {
  return s.src.codePointAt(offset) ?? -1;
}

function scanIdentifier(s: Scanner, start: number, verbatim: boolean): Token {
  let cp = codePointAt(s, s.pos);
  for (;;) {
    if (cp >= 0 && isIdentifierPart(cp)) {
      s.pos += cp > 0xffff ? 2 : 1;
    } else if (
      cp === 0x5c &&
      /^\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/.test(s.src.slice(s.pos, s.pos + 10))
    ) {
      // Unicode escapes inside identifiers (§6.4.3) are legal C# that nobody types: say so.
      const escapeStart = s.pos;
      s.pos += s.char(1) === 'u' ? 6 : 10;
      s.error(Diagnostics.identifierEscape(s.span(escapeStart)));
    } else {
      break;
    }
    cp = codePointAt(s, s.pos);
  }
  const text = s.src.slice(start, s.pos);
  const span = s.span(start);
  const name = verbatim ? text.slice(1) : text;
  if (!verbatim && isKeyword(name)) return { kind: 'keyword', span, text, keyword: name };
  return { kind: 'identifier', span, text, name, verbatim };
}

/** Only whitespace before `offset` on its line: where a preprocessor directive may start. */
function atLineStart(s: Scanner, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = s.src.charCodeAt(i);
    if (isNewLine(c)) return true;
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** Skips trivia and returns the next token; `eof` at the end of the source. */
export function nextToken(s: Scanner): Token {
  for (;;) {
    s.skipTrivia();
    const start = s.pos;
    if (s.atEnd) return { kind: 'eof', span: s.span(start, start), text: '' };
    const c = s.code();
    const cp = codePointAt(s, start);
    if (isIdentifierStart(cp)) return scanIdentifier(s, start, false);
    if (isDecimalDigit(c) || (c === 0x2e && isDecimalDigit(s.code(1)))) return scanNumber(s);
    switch (s.char()) {
      case '"':
        return s.char(1) === '"' && s.char(2) === '"' ? scanRawString(s, 0) : scanString(s);
      case "'":
        return scanChar(s);
      case '@':
        if (s.char(1) === '"') return scanVerbatimString(s);
        if (s.char(1) === '$' && s.char(2) === '"') return scanInterpolated(s, true, 3, nextToken);
        if (isIdentifierStart(codePointAt(s, start + 1))) {
          s.pos++;
          return scanIdentifier(s, start, true);
        }
        break;
      case '$': {
        let dollars = 1;
        while (s.char(dollars) === '$') dollars++;
        const rest = s.src.slice(start + dollars, start + dollars + 3);
        if (rest === '"""' || (dollars > 1 && rest.startsWith('"')))
          return scanRawString(s, dollars);
        if (dollars === 1 && rest.startsWith('"')) return scanInterpolated(s, false, 2, nextToken);
        if (dollars === 1 && rest.startsWith('@"')) return scanInterpolated(s, true, 3, nextToken);
        break;
      }
      case '\\':
        if (/^\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/.test(s.src.slice(start, start + 10))) {
          return scanIdentifier(s, start, false);
        }
        break;
      case '#':
        if (!atLineStart(s, start)) break;
        s.error(Diagnostics.preprocessor(s.span(start, start + 1)));
        while (!s.atEnd && !isNewLine(s.code())) s.pos++;
        continue;
      default: {
        for (const [i, set] of PUNCT_BY_LENGTH.entries()) {
          const text = s.src.slice(start, start + 3 - i);
          if (set.has(text)) {
            s.pos += text.length;
            return { kind: 'punct', span: s.span(start), text, punct: text as Punct };
          }
        }
      }
    }
    s.pos += cp > 0xffff ? 2 : 1;
    s.error(Diagnostics.unexpectedCharacter(s.span(start), s.src.slice(start, s.pos)));
  }
}
