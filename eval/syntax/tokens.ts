// The tokens of the C# subset we read (C# standard §6.4), with literal values decoded exactly.
//
// Two choices follow Roslyn rather than the textbook lexer:
// - `>` is never merged with a following `>` or `>=`: `List<List<int>>` closes two type argument
//   lists, and the parser joins adjacent `>` `>` into a shift and `>` `>=` into `>>=`.
// - `?` is never merged with a following `.` or `[`: `int?[]` is a nullable-int array type, and
//   the parser reads `?` followed by `.` or `[` after an expression as a null-conditional access.

import type { Span } from './span.js';

export const KEYWORDS = [
  'abstract', 'as', 'base', 'bool', 'break', 'byte', 'case', 'catch', 'char', 'checked',
  'class', 'const', 'continue', 'decimal', 'default', 'delegate', 'do', 'double', 'else', 'enum',
  'event', 'explicit', 'extern', 'false', 'finally', 'fixed', 'float', 'for', 'foreach', 'goto',
  'if', 'implicit', 'in', 'int', 'interface', 'internal', 'is', 'lock', 'long', 'namespace',
  'new', 'null', 'object', 'operator', 'out', 'override', 'params', 'private', 'protected',
  'public', 'readonly', 'ref', 'return', 'sbyte', 'sealed', 'short', 'sizeof', 'stackalloc',
  'static', 'string', 'struct', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'uint',
  'ulong', 'unchecked', 'unsafe', 'ushort', 'using', 'virtual', 'void', 'volatile', 'while',
] as const; // prettier-ignore

/** Reserved keywords (spec §6.4.4). Contextual keywords (var, nameof, await, ...) lex as identifiers. */
export type Keyword = (typeof KEYWORDS)[number];

const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

export function isKeyword(text: string): text is Keyword {
  return KEYWORD_SET.has(text);
}

export const PREDEFINED_TYPES = [
  'bool', 'byte', 'sbyte', 'char', 'decimal', 'double', 'float', 'int', 'uint', 'long', 'ulong',
  'short', 'ushort', 'object', 'string', 'void',
] as const; // prettier-ignore

/** The keywords that name a type (spec §8.2.1, §8.3.1), `void` included for typeof(void). */
export type PredefinedTypeName = (typeof PREDEFINED_TYPES)[number];

const PREDEFINED_SET: ReadonlySet<string> = new Set(PREDEFINED_TYPES);

export function isPredefinedType(text: string): text is PredefinedTypeName {
  return PREDEFINED_SET.has(text);
}

/** Operators and punctuators (spec §6.4.6), minus the merges described at the top of this file. */
export const PUNCTUATORS = [
  '??=', '<<=',
  '??', '::', '++', '--', '&&', '||', '->', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=',
  '%=', '&=', '|=', '^=', '<<', '=>', '..',
  '{', '}', '[', ']', '(', ')', '.', ',', ':', ';', '+', '-', '*', '/', '%', '&', '|', '^',
  '!', '~', '=', '<', '>', '?',
] as const; // prettier-ignore

export type Punct = (typeof PUNCTUATORS)[number];

export type IntegerType = 'int' | 'uint' | 'long' | 'ulong';
export type RealType = 'float' | 'double' | 'decimal';

interface TokenBase {
  readonly span: Span;
  /** The source text of the token, exactly as written. */
  readonly text: string;
}

export interface IdentifierToken extends TokenBase {
  readonly kind: 'identifier';
  /** Without the `@` of a verbatim identifier. */
  readonly name: string;
  /** `@name`: never a keyword nor a contextual keyword. */
  readonly verbatim: boolean;
}

export interface KeywordToken extends TokenBase {
  readonly kind: 'keyword';
  readonly keyword: Keyword;
}

export interface PunctToken extends TokenBase {
  readonly kind: 'punct';
  readonly punct: Punct;
}

export interface IntegerToken extends TokenBase {
  readonly kind: 'integer';
  readonly value: bigint;
  /** The type the spec gives the literal (§6.4.5.3): the first of the suffix's list that fits. */
  readonly type: IntegerType;
  readonly radix: 2 | 10 | 16;
  /** Lower-cased and ordered: '', 'u', 'l' or 'ul' (written `lu`, `UL`, `Lu`, ... alike). */
  readonly suffix: '' | 'u' | 'l' | 'ul';
}

export interface RealToken extends TokenBase {
  readonly kind: 'real';
  readonly type: RealType;
  /**
   * The literal without separators and suffix, e.g. `1_000.5e3f` → `1000.5e3`: the exact decimal
   * the conversion to float, double or decimal starts from.
   */
  readonly digits: string;
  /** The nearest double (for float, then rounded to float): a convenience, not the decimal value. */
  readonly value: number;
  readonly suffix: '' | 'f' | 'd' | 'm';
}

export interface CharToken extends TokenBase {
  readonly kind: 'char';
  /** One UTF-16 code unit. */
  readonly value: number;
}

export interface StringToken extends TokenBase {
  readonly kind: 'string';
  readonly value: string;
  readonly verbatim: boolean;
}

export interface InterpolatedTextPart {
  readonly kind: 'text';
  readonly value: string;
  readonly span: Span;
}

export interface InterpolatedHolePart {
  readonly kind: 'hole';
  /** The hole's expression tokens, ending with an `eof` token where the expression ends. */
  readonly expression: Token[];
  /** After `,`: the alignment's tokens, ending with `eof`. */
  readonly alignment: Token[] | null;
  /** After `:`: the format text with escapes decoded. */
  readonly format: string | null;
  /** Set when a `?` sits at the top level of the expression and `:` then began the format. */
  readonly conditionalBeforeFormat: boolean;
  /** From `{` to `}` inclusive. */
  readonly span: Span;
}

export interface InterpolatedToken extends TokenBase {
  readonly kind: 'interpolated';
  readonly verbatim: boolean;
  readonly parts: (InterpolatedTextPart | InterpolatedHolePart)[];
}

export interface EofToken extends TokenBase {
  readonly kind: 'eof';
}

export type Token =
  | IdentifierToken
  | KeywordToken
  | PunctToken
  | IntegerToken
  | RealToken
  | CharToken
  | StringToken
  | InterpolatedToken
  | EofToken;
