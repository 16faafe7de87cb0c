// The right-hand side of `is`. This subset takes the type pattern (`x is T`, C# standard §11.2.6),
// `x is null` and the constant pattern of a literal (`x is 5`, `x is -1`, `x is "a"`; a named
// constant such as `x is Color.Red` parses as a type and binds as a constant); every other
// pattern form is rejected by name, with the equivalent to write.

import type { Expression } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { errorAt, parseUnary } from './parse-expressions.js';
import type { Parser } from './parser-core.js';
import { checkType, parseType } from './parse-types.js';
import { isPredefinedType, type Token } from './tokens.js';

interface Rejected {
  what: string;
  hint: string;
}

/** After `is`; `start` is where the whole `x is ...` expression begins. */
export function parseIsPattern(p: Parser, operand: Expression, start: Token['span']): Expression {
  const t = p.tok;
  if (p.atKeyword('null')) {
    p.advance();
    const pattern = { kind: 'NullPattern' as const, span: t.span };
    return { kind: 'Is', operand, pattern, span: p.finish(start) };
  }
  if (atConstantPattern(p)) {
    const value = parseUnary(p);
    const pattern = { kind: 'ConstantPattern' as const, value, span: value.span };
    return { kind: 'Is', operand, pattern, span: p.finish(start) };
  }
  const rejected = rejectedPatternAt(p);
  if (rejected) return reject(p, t, rejected, start);
  const type = parseType(p, 'isAs');
  if (type === null) return errorAt(p, start);
  checkType(p, type, false);
  // `where x is T select x`: in a query, its keywords end the pattern.
  if (p.atIdentifier() && !p.atQueryKeyword()) {
    const combinator = p.atContextual('and') || p.atContextual('or');
    return reject(
      p,
      p.tok,
      combinator
        ? { what: "pattern combinators ('and', 'or')", hint: 'combine two is-tests with && or ||' }
        : {
            what: 'declaration patterns (x is T name)',
            hint: 'test with x is T, then cast with (T)x',
          },
      start,
    );
  }
  if (p.atPunct('{') || p.atPunct('(')) {
    return reject(p, p.tok, PROPERTY, start);
  }
  const pattern = { kind: 'TypePattern' as const, type, span: type.span };
  return { kind: 'Is', operand, pattern, span: p.finish(start) };
}

const PROPERTY: Rejected = {
  what: 'property and positional patterns',
  hint: 'compare the members with == instead',
};

/**
 * The constant patterns this subset parses as expressions: a literal, a numeric one with a sign,
 * or a constant named through a keyword type (`x is int.MaxValue`, which is no type pattern).
 */
function atConstantPattern(p: Parser): boolean {
  const t = p.tok;
  if (t.kind === 'keyword' && isPredefinedType(t.keyword) && p.atPunct('.', 1)) return true;
  const literal = (x: Token) =>
    x.kind === 'integer' ||
    x.kind === 'real' ||
    x.kind === 'char' ||
    x.kind === 'string' ||
    (x.kind === 'keyword' && (x.keyword === 'true' || x.keyword === 'false'));
  if (literal(t)) return true;
  const next = p.peek(1);
  return (p.atPunct('-') || p.atPunct('+')) && (next.kind === 'integer' || next.kind === 'real');
}

function rejectedPatternAt(p: Parser): Rejected | null {
  const t = p.tok;
  const next = p.peek(1);
  switch (t.kind) {
    case 'interpolated':
      return CONSTANT;
    case 'integer':
    case 'real':
    case 'char':
    case 'string':
    case 'keyword':
      return null;
    case 'identifier':
      if (p.atContextual('not') && startsPattern(next)) {
        return { what: "'not' patterns", hint: 'write !(x is T), or x != null' };
      }
      if (p.atContextual('var') && (next.kind === 'identifier' || p.atPunct('(', 1))) {
        return { what: 'var patterns', hint: 'declare the variable with var first' };
      }
      return null;
    case 'punct':
      return PUNCT_PATTERNS.get(t.punct) ?? null;
    case 'eof':
      return null;
  }
}

const CONSTANT: Rejected = {
  what: 'constant patterns other than a literal or a named constant (x is 5, x is Color.Red)',
  hint: 'compare with == instead',
};

const RELATIONAL: Rejected = {
  what: 'relational patterns (x is > 5)',
  hint: 'compare with < > <= >= instead',
};

/** Patterns that start with a punctuator. */
const PUNCT_PATTERNS: ReadonlyMap<string, Rejected> = new Map([
  ['-', CONSTANT],
  ['+', CONSTANT],
  ['{', PROPERTY],
  ['(', PROPERTY],
  ['[', { what: 'list patterns (x is [...])', hint: 'index the elements instead' }],
  ['<', RELATIONAL],
  ['>', RELATIONAL],
  ['<=', RELATIONAL],
  ['>=', RELATIONAL],
]);

function startsPattern(t: Token): boolean {
  if (t.kind === 'punct') return PUNCT_PATTERNS.has(t.punct);
  return t.kind !== 'eof';
}

function reject(p: Parser, at: Token, r: Rejected, start: Token['span']): Expression {
  p.error(Diagnostics.pattern(at.span, r.what, r.hint));
  p.skipUntil(endsPattern);
  return errorAt(p, start);
}

/** Where a rejected pattern is taken to end, for recovery. */
function endsPattern(t: Token): boolean {
  if (t.kind !== 'punct') return false;
  return [')', ']', '}', ';', ',', '?', ':', '&&', '||', '??', '=', '==', '!='].includes(t.punct);
}
