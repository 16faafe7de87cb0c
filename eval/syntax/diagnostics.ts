// The catalogue of parse errors: one named factory per problem, each with a stable code and an
// actionable message that ends with the place to fix ("(column 12)"). Callers never build
// messages themselves, so wording stays consistent and codes stay stable for tests and tools.

import type { Span } from './span.js';

export type ParseErrorCode =
  // lexical
  | 'unexpected-character'
  | 'unterminated-string'
  | 'unterminated-char'
  | 'unterminated-comment'
  | 'unterminated-interpolation'
  | 'invalid-char-literal'
  | 'invalid-escape'
  | 'malformed-number'
  | 'invalid-suffix'
  | 'integer-too-large'
  | 'real-out-of-range'
  | 'invalid-interpolation'
  // syntax
  | 'unexpected-token'
  | 'expected-token'
  | 'missing-expression'
  | 'missing-type'
  | 'invalid-assignment-target'
  | 'invalid-declaration'
  | 'invalid-array-creation'
  | 'invalid-initializer'
  | 'invalid-type'
  | 'invalid-nameof'
  | 'invalid-query'
  | 'type-as-expression'
  | 'nesting-too-deep'
  // supported C#, but not by this evaluator: rejected by name
  | 'unsupported-lambda'
  | 'unsupported-anonymous-method'
  | 'unsupported-switch-expression'
  | 'unsupported-throw-expression'
  | 'unsupported-await'
  | 'unsupported-tuple'
  | 'unsupported-pattern'
  | 'unsupported-statement'
  | 'unsupported-declaration'
  | 'unsupported-local-function'
  | 'unsupported-stackalloc'
  | 'unsupported-pointer'
  | 'unsupported-dynamic'
  | 'unsupported-range'
  | 'unsupported-target-typed-new'
  | 'unsupported-base'
  | 'unsupported-ref'
  | 'unsupported-collection-expression'
  | 'unsupported-with'
  | 'unsupported-unsigned-shift'
  | 'unsupported-raw-string'
  | 'unsupported-identifier-escape'
  | 'unsupported-preprocessor';

export interface ParseError {
  readonly code: ParseErrorCode;
  /** The C# compiler's code, where C# reports this as a compile error of its own (CS0818...). */
  readonly csCode?: string;
  /** The whole message, location included: show it to the agent as is. */
  readonly message: string;
  readonly span: Span;
}

export function describeLocation(span: Span): string {
  return span.line === 1 ? `(column ${span.column})` : `(line ${span.line}, column ${span.column})`;
}

function make(code: ParseErrorCode, span: Span, text: string): ParseError {
  return { code, span, message: `${text} ${describeLocation(span)}` };
}

const PIECES = 'or evaluate the pieces separately';
const SHAPE = "the input is expressions and local declarations separated by ';'";

export const Diagnostics = {
  // ---- lexical
  unexpectedCharacter: (s: Span, ch: string) =>
    make('unexpected-character', s, `unexpected character '${ch}'`),
  unterminatedString: (s: Span) =>
    make('unterminated-string', s, 'unterminated string literal: add the closing "'),
  unterminatedChar: (s: Span) =>
    make('unterminated-char', s, "unterminated character literal: add the closing '"),
  unterminatedComment: (s: Span) =>
    make('unterminated-comment', s, 'unterminated comment: add the closing */'),
  unterminatedInterpolation: (s: Span) =>
    make('unterminated-interpolation', s, "unterminated interpolation hole: add the closing '}'"),
  emptyChar: (s: Span) =>
    make('invalid-char-literal', s, "empty character literal: write a character between ' and '"),
  charTooLong: (s: Span) =>
    make(
      'invalid-char-literal',
      s,
      'too many characters in character literal: use a string literal "..." for text',
    ),
  invalidEscape: (s: Span, text: string, why = 'unrecognized escape sequence') =>
    make('invalid-escape', s, `${why} '${text}'`),
  malformedNumber: (s: Span, why: string) => make('malformed-number', s, why),
  invalidSuffix: (s: Span, text: string) =>
    make('invalid-suffix', s, `invalid numeric literal '${text}': suffixes are u, l, ul, f, d, m`),
  integerTooLarge: (s: Span) =>
    make('integer-too-large', s, 'integral constant is too large for ulong'),
  realOutOfRange: (s: Span, type: string) =>
    make('real-out-of-range', s, `floating-point constant is outside the range of type '${type}'`),
  interpolationBrace: (s: Span) =>
    make('invalid-interpolation', s, "a '}' in an interpolated string must be doubled as '}}'"),
  emptyInterpolation: (s: Span) =>
    make(
      'invalid-interpolation',
      s,
      'empty interpolation hole: write an expression between { and }',
    ),
  interpolationConditional: (s: Span) =>
    make(
      'invalid-interpolation',
      s,
      "a conditional expression in an interpolation hole needs parentheses: write {(c ? a : b)}, since ':' starts the format",
    ),
  interpolationTooDeep: (s: Span) =>
    make('nesting-too-deep', s, 'interpolated strings are nested too deeply'),
  rawString: (s: Span) =>
    make(
      'unsupported-raw-string',
      s,
      'raw string literals (""") are not supported: use @"..." instead',
    ),
  identifierEscape: (s: Span) =>
    make(
      'unsupported-identifier-escape',
      s,
      'unicode escapes in identifiers are not supported: write the character itself',
    ),
  preprocessor: (s: Span) =>
    make('unsupported-preprocessor', s, 'preprocessor directives (#...) are not supported'),

  // ---- syntax
  unexpectedToken: (s: Span, found: string, expected: string) =>
    make('unexpected-token', s, `unexpected ${found}: expected ${expected}`),
  expectedToken: (s: Span, expected: string, found: string) =>
    make('expected-token', s, `expected ${expected} but found ${found}`),
  missingExpression: (s: Span, found: string) =>
    make('missing-expression', s, `expected an expression but found ${found}`),
  missingType: (s: Span, found: string) =>
    make('missing-type', s, `expected a type but found ${found}`),
  invalidAssignmentTarget: (s: Span, what: string) =>
    make(
      'invalid-assignment-target',
      s,
      `the operand of ${what} must be a variable, field, property or indexer`,
    ),
  invalidDeclaration: (s: Span, why: string) => make('invalid-declaration', s, why),
  varWithoutInitializer: (s: Span): ParseError => ({
    ...make('invalid-declaration', s, 'var needs an initializer: var x = ...;'),
    csCode: 'CS0818',
  }),
  conditionalAssignmentTarget: (s: Span, what: string): ParseError => ({
    ...make(
      'invalid-assignment-target',
      s,
      `the operand of ${what} cannot contain a null-conditional access (?. or ?[]): test for null first`,
    ),
    csCode: 'CS9030',
  }),
  invalidArrayCreation: (s: Span, why: string) => make('invalid-array-creation', s, why),
  mixedInitializer: (s: Span) =>
    make(
      'invalid-initializer',
      s,
      'an initializer either sets members (A = 1, ...) or adds elements (1, 2, ...), not both',
    ),
  invalidType: (s: Span, why: string) => make('invalid-type', s, why),
  queryWithoutSelect: (s: Span, found: string): ParseError => ({
    ...make(
      'invalid-query',
      s,
      `a query body must end with a select or group clause (found ${found}): add select x`,
    ),
    csCode: 'CS0742',
  }),
  queryExpected: (s: Span, expected: string, found: string, csCode: string): ParseError => ({
    ...make(
      'expected-token',
      s,
      `expected ${expected} but found ${found}: the clauses are from x in e, join y in e on k1 equals k2, group v by k`,
    ),
    csCode,
  }),
  joinKeyScope: (s: Span, name: string, side: 'left' | 'right'): ParseError => ({
    ...make(
      'invalid-query',
      s,
      `the name '${name}' is not in scope on the ${side} side of 'equals': the earlier range variables go left, the joined one right (swap the two keys)`,
    ),
    csCode: side === 'left' ? 'CS1937' : 'CS1938',
  }),
  rangeVariableRedeclared: (s: Span, name: string): ParseError => ({
    ...make(
      'invalid-query',
      s,
      `the range variable '${name}' is already declared in this query: give this one another name`,
    ),
    csCode: 'CS1930',
  }),
  anonymousMemberDeclarator: (s: Span): ParseError => ({
    ...make(
      'invalid-initializer',
      s,
      'an anonymous type member is written name = value, a simple name (x) or a member access (p.Name)',
    ),
    csCode: 'CS0746',
  }),
  duplicateAnonymousMember: (s: Span, name: string): ParseError => ({
    ...make(
      'invalid-initializer',
      s,
      `an anonymous type cannot have two members named '${name}': name one of them (other = ...)`,
    ),
    csCode: 'CS0833',
  }),
  invalidNameof: (s: Span) =>
    make('invalid-nameof', s, 'nameof(...) takes a name such as x, T or a.b.c'),
  typeAsExpression: (s: Span, type: string) =>
    make(
      'type-as-expression',
      s,
      `'${type}' is a type, not a value: use a member such as ${type}.MaxValue, a cast (${type})x, or typeof(${type})`,
    ),
  nestingTooDeep: (s: Span) =>
    make('nesting-too-deep', s, 'the expression is nested too deeply: split it into declarations'),

  // ---- rejected by name
  lambda: (s: Span) =>
    make(
      'unsupported-lambda',
      s,
      'async and static lambdas are not supported: write x => e or (T x) => { ... }',
    ),
  anonymousMethod: (s: Span) =>
    make(
      'unsupported-anonymous-method',
      s,
      `anonymous methods (delegate { ... }) are not supported: write the call without one, ${PIECES}`,
    ),
  switchExpression: (s: Span) =>
    make(
      'unsupported-switch-expression',
      s,
      'switch expressions are not supported: use the conditional operator c ? a : b',
    ),
  throwExpression: (s: Span) =>
    make(
      'unsupported-throw-expression',
      s,
      'throw expressions are not supported: the evaluator reads and calls, it does not throw',
    ),
  await: (s: Span) =>
    make(
      'unsupported-await',
      s,
      'await is not supported: evaluation is synchronous on the game thread; inspect the task object instead',
    ),
  tuple: (s: Span) =>
    make('unsupported-tuple', s, 'tuples are not supported: evaluate the elements separately'),
  pattern: (s: Span, what: string, hint: string) =>
    make(
      'unsupported-pattern',
      s,
      `${what} are not supported: 'is' takes a type (x is T) or null (x is null); ${hint}`,
    ),
  statement: (s: Span, what: string, hint: string) =>
    make('unsupported-statement', s, `${what} not supported: ${SHAPE}; ${hint}`),
  declaration: (s: Span, what: string, hint: string) =>
    make('unsupported-declaration', s, `${what} not supported: ${hint}`),
  localFunction: (s: Span) =>
    make(
      'unsupported-local-function',
      s,
      `local functions are not supported: ${SHAPE}; call existing methods instead`,
    ),
  stackalloc: (s: Span) =>
    make('unsupported-stackalloc', s, 'stackalloc is not supported: use new T[n]'),
  pointer: (s: Span) =>
    make('unsupported-pointer', s, 'pointers and unsafe code are not supported'),
  dynamic: (s: Span) =>
    make('unsupported-dynamic', s, "'dynamic' is not supported: use var, object or the real type"),
  range: (s: Span) =>
    make('unsupported-range', s, 'ranges (a..b) are not supported: index elements one by one'),
  indexFromEnd: (s: Span) =>
    make(
      'unsupported-range',
      s,
      'index-from-end (^i) is not supported: write a[a.Length - i] (or a.Count - i)',
    ),
  targetTypedNew: (s: Span) =>
    make(
      'unsupported-target-typed-new',
      s,
      'target-typed new() is not supported: write new T(...)',
    ),
  base: (s: Span) =>
    make('unsupported-base', s, "'base' is not supported: call the member on this"),
  ref: (s: Span) =>
    make('unsupported-ref', s, "'ref' is only supported on call arguments: f(ref x)"),
  collectionExpression: (s: Span) =>
    make(
      'unsupported-collection-expression',
      s,
      'collection expressions ([...]) are not supported: write new[] { ... } or new List<T> { ... }',
    ),
  withExpression: (s: Span) =>
    make('unsupported-with', s, "'with' expressions are not supported: copy and set the members"),
  unsignedShift: (s: Span) =>
    make(
      'unsupported-unsigned-shift',
      s,
      '>>> is not supported: cast to an unsigned type and use >>',
    ),
};
