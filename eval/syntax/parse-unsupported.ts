// Constructs that are valid C# but outside this evaluator, recognised early enough to be named
// in the error ("lambdas are not supported: ...") and skipped as a whole, so that the rest of the
// input is still checked.

import type { Block, Expression, Parameter } from './ast.js';
import { parseBlock, parseParameters } from './parse-control.js';
import { identifier } from './parse-primary.js';
import { Diagnostics } from './diagnostics.js';
import { errorAt, parseExpression } from './parse-expressions.js';
import { isCloser, type Parser } from './parser-core.js';
import type { Token } from './tokens.js';

/** `x =>`, `(...) =>`, `async x =>`, `static (...) =>`, `async delegate`. */
export function isLambdaAhead(p: Parser): boolean {
  if (p.atIdentifier() && p.atPunct('=>', 1)) return true;
  let k = 0;
  while (p.atContextual('async', k) || p.atKeyword('static', k)) k++;
  if (k > 0 && p.atKeyword('delegate', k)) return true;
  if (p.atIdentifier(k) && p.atPunct('=>', k + 1)) return true;
  if (!p.atPunct('(', k)) return false;
  const close = p.match[p.pos + k] ?? -1;
  const after = close < 0 ? undefined : p.tokens[close + 1];
  return after?.kind === 'punct' && after.punct === '=>';
}

/**
 * A lambda at the cursor: `x => e`, `(a, b) => e`, `(int a) => { ... }`. `async` and `static`
 * lambdas (and anything else that is not one of those) are reported and skipped.
 */
export function rejectLambda(p: Parser, start: Token['span']): Expression {
  if (p.atIdentifier() && p.atPunct('=>', 1) && !p.atContextual('async')) {
    const name = identifier(p.advance());
    p.advance();
    const parameters: Parameter[] = [{ kind: 'Parameter', type: null, name, span: name.span }];
    return { kind: 'Lambda', parameters, body: lambdaBody(p), span: p.finish(start) };
  }
  if (p.atPunct('(')) {
    const close = p.match[p.pos] ?? -1;
    const after = close < 0 ? undefined : p.tokens[close + 1];
    if (after?.kind === 'punct' && after.punct === '=>') {
      const parameters = parseParameters(p, true);
      p.expectPunct('=>');
      return { kind: 'Lambda', parameters, body: lambdaBody(p), span: p.finish(start) };
    }
  }
  p.error(Diagnostics.lambda(start));
  while (!p.atPunct('=>') && !isCloser(p.tok)) p.skipGroup();
  if (p.eatPunct('=>')) {
    if (p.atPunct('{')) p.skipGroup();
    else if (!isCloser(p.tok)) parseExpression(p);
  }
  return errorAt(p, start);
}

/** `(a, b)` opened at token `open`: a tuple literal (or deconstruction), named and skipped. */
export function rejectTuple(p: Parser, open: number): Expression {
  const start = p.tokens[open]!.span;
  p.error(Diagnostics.tuple(start));
  p.pos = open;
  p.skipGroup();
  return errorAt(p, start);
}

function lambdaBody(p: Parser): Expression | Block {
  return p.atPunct('{') ? parseBlock(p) : parseExpression(p);
}

/** `delegate (int x) { ... }`, `delegate { ... }`: a lambda with a block body. */
export function rejectAnonymousMethod(p: Parser): Expression {
  const start = p.tok.span;
  if (p.atPunct('(', 1) || p.atPunct('{', 1)) {
    p.advance();
    const parameters = p.atPunct('(') ? parseParameters(p, false) : [];
    if (p.atPunct('{'))
      return { kind: 'Lambda', parameters, body: parseBlock(p), span: p.finish(start) };
  }
  p.error(Diagnostics.anonymousMethod(start));
  p.advance();
  if (p.atPunct('(')) p.skipGroup();
  if (p.atPunct('{')) p.skipGroup();
  return errorAt(p, start);
}
