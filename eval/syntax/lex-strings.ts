// Character and string literals (C# standard §6.4.5.5, §6.4.5.6): escapes, verbatim strings,
// and the rejected raw strings. Interpolated strings: lex-interpolated.ts.

import { Diagnostics } from './diagnostics.js';
import { isHexDigit, type Scanner } from './scanner.js';
import { isNewLine } from './span.js';
import type { CharToken, StringToken } from './tokens.js';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "'": "'",
  '"': '"',
  '\\': '\\',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

function readHex(s: Scanner, max: number): string {
  let hex = '';
  while (hex.length < max && isHexDigit(s.code())) {
    hex += s.char();
    s.pos++;
  }
  return hex;
}

/**
 * Decodes the escape sequence at `s.pos` (a backslash) and returns the UTF-16 text it stands for;
 * '' after reporting a bad escape. `\x` takes one to four hex digits, greedily, so "\x41BC" is
 * one character, U+41BC (the trap that makes `\x` worth avoiding in C#).
 */
export function scanEscape(s: Scanner): string {
  const start = s.pos;
  s.pos++;
  const c = s.char();
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) {
    s.pos++;
    return simple;
  }
  if (c === 'x' || c === 'u' || c === 'U') {
    s.pos++;
    const want = c === 'x' ? 4 : c === 'u' ? 4 : 8;
    const hex = readHex(s, want);
    const text = s.src.slice(start, s.pos);
    if (hex === '' || (c !== 'x' && hex.length !== want)) {
      const needs = c === 'x' ? '1 to 4' : String(want);
      s.error(
        Diagnostics.invalidEscape(
          s.span(start),
          text,
          `the escape \\${c} needs ${needs} hex digits:`,
        ),
      );
      return '';
    }
    const value = parseInt(hex, 16);
    if (value > 0x10ffff) {
      s.error(Diagnostics.invalidEscape(s.span(start), text, 'beyond U+10FFFF:'));
      return '';
    }
    return String.fromCodePoint(value);
  }
  if (s.atEnd || isNewLine(s.code())) {
    s.error(Diagnostics.invalidEscape(s.span(start), '\\'));
    return '';
  }
  const cp = s.src.codePointAt(s.pos) ?? 0;
  s.pos += cp > 0xffff ? 2 : 1;
  s.error(Diagnostics.invalidEscape(s.span(start), s.src.slice(start, s.pos)));
  return '';
}

export function scanChar(s: Scanner): CharToken {
  const start = s.pos;
  s.pos++;
  let text = '';
  let badEscape = false;
  while (!s.atEnd && s.code() !== 0x27 && !isNewLine(s.code())) {
    if (s.code() === 0x5c) {
      const before = s.errors.length;
      text += scanEscape(s);
      badEscape ||= s.errors.length > before;
    } else {
      text += s.char();
      s.pos++;
    }
  }
  if (s.code() === 0x27) {
    s.pos++;
    if (!badEscape && text.length === 0) s.error(Diagnostics.emptyChar(s.span(start)));
    if (text.length > 1) s.error(Diagnostics.charTooLong(s.span(start)));
  } else {
    s.error(Diagnostics.unterminatedChar(s.span(start)));
  }
  const span = s.span(start);
  return { kind: 'char', span, text: s.src.slice(start, s.pos), value: text.charCodeAt(0) || 0 };
}

export function scanString(s: Scanner): StringToken {
  const start = s.pos;
  s.pos++;
  let value = '';
  for (;;) {
    if (s.atEnd || isNewLine(s.code())) {
      s.error(Diagnostics.unterminatedString(s.span(start)));
      break;
    }
    const c = s.code();
    if (c === 0x22) {
      s.pos++;
      break;
    }
    if (c === 0x5c) {
      value += scanEscape(s);
    } else {
      value += s.char();
      s.pos++;
    }
  }
  return {
    kind: 'string',
    span: s.span(start),
    text: s.src.slice(start, s.pos),
    value,
    verbatim: false,
  };
}

/** `@"..."`: no escapes, new lines allowed, `""` stands for one quote. */
export function scanVerbatimString(s: Scanner): StringToken {
  const start = s.pos;
  s.pos += 2;
  let value = '';
  for (;;) {
    if (s.atEnd) {
      s.error(Diagnostics.unterminatedString(s.span(start)));
      break;
    }
    if (s.code() === 0x22) {
      if (s.code(1) !== 0x22) {
        s.pos++;
        break;
      }
      value += '"';
      s.pos += 2;
    } else {
      value += s.char();
      s.pos++;
    }
  }
  return {
    kind: 'string',
    span: s.span(start),
    text: s.src.slice(start, s.pos),
    value,
    verbatim: true,
  };
}

/** C# 11 raw strings (`"""...""""`, `$"""..."""`): rejected, skipped to their end. */
export function scanRawString(s: Scanner, prefixLength: number): StringToken {
  const start = s.pos;
  s.pos += prefixLength;
  let quotes = 0;
  while (s.code() === 0x22) {
    quotes++;
    s.pos++;
  }
  const end = s.src.indexOf('"'.repeat(quotes), s.pos);
  s.pos = end < 0 ? s.src.length : end + quotes;
  s.error(Diagnostics.rawString(s.span(start)));
  return {
    kind: 'string',
    span: s.span(start),
    text: s.src.slice(start, s.pos),
    value: '',
    verbatim: true,
  };
}
