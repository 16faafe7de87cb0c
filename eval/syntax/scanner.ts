// Character-level state shared by the lexer's pieces (numbers, strings, the token loop).

import { Diagnostics, type ParseError } from './diagnostics.js';
import { isNewLine, type LineMap, type Span } from './span.js';

export class Scanner {
  pos = 0;
  /** Nesting of interpolated strings, bounded so that hostile input cannot exhaust the stack. */
  interpolationDepth = 0;

  constructor(
    readonly src: string,
    readonly lines: LineMap,
    readonly errors: ParseError[],
  ) {}

  get atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  /** The UTF-16 code unit at `pos + k`, or NaN past the end. */
  code(k = 0): number {
    return this.src.charCodeAt(this.pos + k);
  }

  char(k = 0): string {
    return this.src.charAt(this.pos + k);
  }

  span(start: number, end = this.pos): Span {
    return this.lines.span(start, end);
  }

  error(e: ParseError): void {
    this.errors.push(e);
  }

  /** Skips whitespace (spec §6.3.4: Zs, tab, VT, FF, new lines; a BOM too) and comments. */
  skipTrivia(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || isNewLine(c) || c === 0xfeff) {
        this.pos++;
      } else if (c === 0x2f && src.charCodeAt(this.pos + 1) === 0x2f) {
        while (this.pos < src.length && !isNewLine(src.charCodeAt(this.pos))) this.pos++;
      } else if (c === 0x2f && src.charCodeAt(this.pos + 1) === 0x2a) {
        const end = src.indexOf('*/', this.pos + 2);
        if (end < 0) {
          this.error(Diagnostics.unterminatedComment(this.span(this.pos, this.pos + 2)));
          this.pos = src.length;
        } else {
          this.pos = end + 2;
        }
      } else if (c > 0x7f && SPACE_SEPARATOR.test(src.charAt(this.pos))) {
        this.pos++;
      } else {
        return;
      }
    }
  }
}

const SPACE_SEPARATOR = /\p{Zs}/u;

export function isDecimalDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

const LETTER = /[\p{L}\p{Nl}]/u;
const PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\p{Cf}]/u;

/** Identifier_Start_Character (spec §6.4.3): a letter or `_`. `cp` is a code point. */
export function isIdentifierStart(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f;
  }
  return LETTER.test(String.fromCodePoint(cp));
}

/** Identifier_Part_Character (spec §6.4.3): letters, digits, connectors, combining and formatting marks. */
export function isIdentifierPart(cp: number): boolean {
  if (cp < 0x80) {
    return (
      (cp >= 0x61 && cp <= 0x7a) ||
      (cp >= 0x41 && cp <= 0x5a) ||
      (cp >= 0x30 && cp <= 0x39) ||
      cp === 0x5f
    );
  }
  return PART.test(String.fromCodePoint(cp));
}
