// The C# parser of the evaluator: source text to an owned AST, with every error located.

export type * from './ast.js';
export { describeLocation } from './diagnostics.js';
export type { ParseError, ParseErrorCode } from './diagnostics.js';
export { lex } from './lexer.js';
export type { LexResult } from './lexer.js';
export { BINARY_PRECEDENCE } from './parse-expressions.js';
export { anonymousMemberName } from './parse-creation.js';
export { TRANSPARENT_PREFIX } from './parse-query.js';
export { parse } from './parser.js';
export type { ParseResult } from './parser.js';
export type { Span } from './span.js';
export type { Token } from './tokens.js';
export { unparse, unparseType } from './unparse.js';
