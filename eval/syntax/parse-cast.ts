// Parentheses at the start of a unary expression: a cast, a parenthesized expression, or a
// rejected lambda or tuple. The cast rule is the C# standard's §12.9.7, quoted below.

import type { Expression, TypeNode } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { errorAt, parseExpression, parseUnary } from './parse-expressions.js';
import type { Parser } from './parser-core.js';
import { canStartExpression, checkType, parseType } from './parse-types.js';
import { isLambdaAhead, rejectLambda, rejectTuple } from './parse-unsupported.js';
import type { Token } from './tokens.js';

/**
 * `(` at the cursor: a lambda's parameters (rejected), a tuple (rejected), a cast, or a
 * parenthesized expression. The cast rule, C# standard §12.9.7: the parenthesized tokens are a
 * cast's type only if they form a type and either (1) they cannot be an expression (a keyword
 * type such as `int`, a nullable `T?` or an array `T[]`), or (2) the token after `)` is `~`,
 * `!`, `(`, an identifier, a literal, or any keyword except `as` and `is`. So `(x)y`, `(x)(y)`
 * and `(int)-y` are casts, while `(x)-y`, `(x)+y` and `(x).y` are not; inside a query, neither is
 * `(x) descending` (the query's contextual keywords are not identifiers there, as in Roslyn).
 */
export function parseParenthesizedOrCast(p: Parser): Expression {
  const start = p.tok.span;
  if (isLambdaAhead(p)) return rejectLambda(p, start);
  const open = p.pos;
  const close = p.match[open] ?? -1;
  const type =
    close < 0
      ? null
      : p.speculate(() => {
          p.advance();
          const t = parseType(p, 'type');
          return t !== null && p.pos === close ? t : null;
        });
  if (type !== null) {
    const after = p.tokens[close + 1];
    const castFollows = canFollowCast(after) && !p.atQueryKeyword(close + 1 - p.pos);
    if (after !== undefined && (isDefinitelyType(type) || castFollows)) {
      p.pos = close + 1;
      checkType(p, type, false);
      const operand = parseUnary(p);
      return { kind: 'Cast', type, operand, span: p.finish(start) };
    }
    p.pos = open;
  }
  if (close >= 0 && isPointerCast(p, close)) {
    p.error(Diagnostics.pointer(start));
    p.pos = close + 1;
    if (canStartExpression(p.tok)) parseUnary(p);
    return errorAt(p, start);
  }
  p.advance();
  const expression = parseExpression(p);
  // `(a, b)`: known only now, since `(F<A, B>(x))` has a comma too.
  if (p.atPunct(',') && close >= 0) return rejectTuple(p, open);
  p.expectPunct(')');
  return { kind: 'Parenthesized', expression, span: p.finish(start) };
}

/** Rule (1) of §12.9.7: token sequences that form a type and never an expression. */
function isDefinitelyType(type: TypeNode): boolean {
  return (
    type.kind === 'PredefinedType' || type.kind === 'NullableType' || type.kind === 'ArrayType'
  );
}

/** Rule (2) of §12.9.7. Interpolated strings count as literals, as Roslyn has it. */
function canFollowCast(t: Token | undefined): boolean {
  if (t === undefined) return false;
  if (t.kind === 'punct') return t.punct === '~' || t.punct === '!' || t.punct === '(';
  if (t.kind === 'keyword') return t.keyword !== 'as' && t.keyword !== 'is';
  return t.kind !== 'eof'; // an identifier or a literal
}

/** `(T*)x`, `(int**)p`: a type followed by stars, then `)`. */
function isPointerCast(p: Parser, close: number): boolean {
  const open = p.pos;
  const end = p.speculate(() => {
    p.advance();
    return parseType(p, 'type') === null ? null : p.pos;
  });
  p.pos = open;
  if (end === null) return false;
  let i = end;
  while (i < close && isStar(p.tokens[i])) i++;
  return i === close && i > end;
}

function isStar(t: Token | undefined): boolean {
  return t?.kind === 'punct' && t.punct === '*';
}
