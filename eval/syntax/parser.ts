// The entry point: C# source text to a Program and every error found in it. Never throws on any
// input; a program is only worth evaluating when `errors` is empty.

import type { Program } from './ast.js';
import type { ParseError } from './diagnostics.js';
import { lex } from './lexer.js';
import { parseProgram } from './parse-statements.js';
import { Parser } from './parser-core.js';

export interface ParseResult {
  program: Program;
  /** Lexical and syntax errors, in source order; each message names its column. */
  errors: ParseError[];
}

export function parse(source: string): ParseResult {
  const { tokens, errors } = lex(source);
  const parser = new Parser(tokens, errors);
  const program = parseProgram(parser, source.length);
  // Stable: errors at one offset keep the order they were found in.
  errors.sort((a, b) => a.span.start - b.span.start);
  return { program, errors };
}
