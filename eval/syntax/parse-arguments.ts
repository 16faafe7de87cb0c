// Argument lists (C# standard §12.6.2): `(args)` and `[args]`, with names, the out / ref / in
// modifiers and C# 7 out variable declarations.

import type { Argument, Expression, Identifier, OutDeclaration } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { checkAssignable, parseExpression } from './parse-expressions.js';
import { identifier } from './parse-primary.js';
import { describe, type Parser } from './parser-core.js';
import { checkType, parseType } from './parse-types.js';

/**
 * `(args)` or `[args]`: each `[name:] [out|ref|in] expression`, or an out variable declaration
 * `out var x` / `out T x`. Errors inside one argument resynchronise at the next `,` or the close.
 */
export function parseArguments(p: Parser, open: '(' | '[', close: ')' | ']'): Argument[] {
  const args: Argument[] = [];
  p.expectPunct(open);
  if (p.eatPunct(close)) return args;
  for (;;) {
    const before = p.pos;
    args.push(parseArgument(p));
    if (p.eatPunct(',')) continue;
    if (p.eatPunct(close)) return args;
    if (p.pos === before || p.atEof || p.atPunct(';')) {
      p.expectPunct(close);
      return args;
    }
    p.error(Diagnostics.expectedToken(p.tok.span, `',' or '${close}'`, describe(p.tok)));
    p.skipUntil(
      (t) => t.kind === 'punct' && (t.punct === ',' || t.punct === close || t.punct === ';'),
    );
    if (p.eatPunct(',')) continue;
    p.expectPunct(close);
    return args;
  }
}

function parseArgument(p: Parser): Argument {
  const start = p.tok.span;
  let name: Identifier | null = null;
  if (p.atIdentifier() && p.atPunct(':', 1)) {
    name = identifier(p.advance());
    p.advance();
  }
  const t = p.tok;
  const modifier =
    t.kind === 'keyword' && (t.keyword === 'out' || t.keyword === 'ref' || t.keyword === 'in')
      ? t.keyword
      : 'none';
  if (modifier !== 'none') p.advance();
  const declaration = modifier === 'out' ? parseOutDeclaration(p) : null;
  const value = declaration ?? parseExpression(p);
  if (modifier !== 'none' && modifier !== 'in' && declaration === null) {
    checkAssignable(p, value as Expression, `'${modifier}'`);
  }
  return { kind: 'Argument', name, modifier, value, span: p.finish(start) };
}

/** `out var x` / `out T x`: a type followed by a name, then `,` or the close (C# 7 out variables). */
function parseOutDeclaration(p: Parser): OutDeclaration | null {
  const start = p.tok.span;
  const declaration = p.speculate(() => {
    let type: OutDeclaration['type'] | null;
    if (p.atContextual('var') && p.atIdentifier(1)) {
      p.advance();
      type = 'var';
    } else {
      type = parseType(p, 'type');
    }
    if (type === null || !p.atIdentifier()) return null;
    const name = identifier(p.advance());
    if (!(p.atPunct(',') || p.atPunct(')') || p.atPunct(']'))) return null;
    return { kind: 'OutDeclaration', type, name, span: p.finish(start) } satisfies OutDeclaration;
  });
  if (declaration !== null && declaration.type !== 'var') checkType(p, declaration.type, false);
  return declaration;
}
