// Primary expressions (C# standard §12.8): literals, names with type arguments, the keyword
// forms (typeof, default, nameof, checked, ...), and the postfix chain of member accesses, calls,
// element accesses and their null-conditional forms.

import type { Expression, Identifier } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { parseArguments } from './parse-arguments.js';
import { checkAssignable, errorAt, parseExpression } from './parse-expressions.js';
import { parseInterpolatedString } from './parse-interpolated.js';
import { parseNew } from './parse-creation.js';
import { describe, isCloser, type Parser } from './parser-core.js';
import {
  checkType,
  parseType,
  parseTypeArgumentsInExpression,
  type TypeContext,
} from './parse-types.js';
import { isLambdaAhead, rejectAnonymousMethod, rejectLambda } from './parse-unsupported.js';
import { isQueryAhead, parseQuery } from './parse-query.js';
import { isPredefinedType, type Keyword, type Token } from './tokens.js';

export function parsePrimary(p: Parser): Expression {
  const t = p.tok;
  const span = t.span;
  switch (t.kind) {
    case 'integer':
      p.advance();
      return {
        kind: 'Literal',
        type: t.type,
        value: t.value,
        radix: t.radix,
        suffix: t.suffix,
        span,
      };
    case 'real':
      p.advance();
      return {
        kind: 'Literal',
        type: t.type,
        digits: t.digits,
        value: t.value,
        suffix: t.suffix,
        span,
      };
    case 'char':
      p.advance();
      return { kind: 'Literal', type: 'char', value: t.value, span };
    case 'string':
      p.advance();
      return { kind: 'Literal', type: 'string', value: t.value, verbatim: t.verbatim, span };
    case 'interpolated':
      p.advance();
      return parseInterpolatedString(p, t);
    case 'identifier':
      return parseIdentifierExpression(p);
    case 'keyword':
      return parseKeywordExpression(p);
    case 'punct':
      if (t.punct === '[') {
        p.error(Diagnostics.collectionExpression(span));
        p.skipGroup();
        return errorAt(p, span);
      }
      if (t.punct === '{') {
        p.error(
          Diagnostics.unexpectedToken(span, "'{'", 'an expression (initializers follow new T)'),
        );
        p.skipGroup();
        return errorAt(p, span);
      }
      return missingExpression(p);
    case 'eof':
      return missingExpression(p);
  }
}

function missingExpression(p: Parser): Expression {
  const t = p.tok;
  p.error(Diagnostics.missingExpression(t.span, describe(t)));
  if (!isCloser(t) && !(t.kind === 'punct' && t.punct === ':')) p.advance();
  return { kind: 'Error', span: t.span };
}

function parseIdentifierExpression(p: Parser): Expression {
  const start = p.tok.span;
  if (isLambdaAhead(p)) return rejectLambda(p, start);
  if (isQueryAhead(p)) return parseQuery(p);
  if (p.atContextual('nameof') && p.atPunct('(', 1)) return parseNameOf(p);
  let alias: Identifier | null = null;
  if (p.atPunct('::', 1)) {
    alias = identifier(p.advance());
    p.advance();
    if (!p.atIdentifier()) return missingName(p, start);
  }
  const t = p.advance();
  const name = t.kind === 'identifier' ? t.name : t.text;
  const typeArgs = parseTypeArgumentsInExpression(p);
  return { kind: 'Name', name, typeArgs, alias, span: p.finish(start) };
}

export function identifier(t: Token): Identifier {
  return { kind: 'Identifier', name: t.kind === 'identifier' ? t.name : t.text, span: t.span };
}

function missingName(p: Parser, start: Token['span']): Expression {
  p.error(Diagnostics.expectedToken(p.tok.span, 'a name', describe(p.tok)));
  return errorAt(p, start);
}

function parseKeywordExpression(p: Parser): Expression {
  const t = p.tok;
  if (t.kind !== 'keyword') return missingExpression(p);
  if (isPredefinedType(t.keyword)) {
    p.advance();
    if (p.atPunct('.')) return { kind: 'PredefinedType', name: t.keyword, span: t.span };
    p.error(Diagnostics.typeAsExpression(t.span, t.keyword));
    return errorAt(p, t.span);
  }
  const parseForm = KEYWORD_FORMS[t.keyword];
  return parseForm ? parseForm(p, t.span) : missingExpression(p);
}

function simple(
  e: (span: Token['span']) => Expression,
): (p: Parser, span: Token['span']) => Expression {
  return (p, span) => {
    p.advance();
    return e(span);
  };
}

/** The keywords that start a primary expression, by keyword. */
const KEYWORD_FORMS: Partial<Record<Keyword, (p: Parser, span: Token['span']) => Expression>> = {
  true: simple((span) => ({ kind: 'Literal', type: 'bool', value: true, span })),
  false: simple((span) => ({ kind: 'Literal', type: 'bool', value: false, span })),
  null: simple((span) => ({ kind: 'Literal', type: 'null', span })),
  this: simple((span) => ({ kind: 'This', span })),
  base: (p, span) => {
    p.error(Diagnostics.base(span));
    p.advance();
    return errorAt(p, span);
  },
  new: (p) => parseNew(p),
  typeof: (p) => parseTypeOperator(p, 'typeof'),
  sizeof: (p) => parseTypeOperator(p, 'type'),
  default: (p, span) => {
    if (p.atPunct('(', 1)) return parseTypeOperator(p, 'type');
    p.advance();
    return { kind: 'Default', type: null, span };
  },
  checked: (p, span) => parseChecked(p, span, true),
  unchecked: (p, span) => parseChecked(p, span, false),
  delegate: (p) => rejectAnonymousMethod(p),
  stackalloc: (p, span) => {
    p.error(Diagnostics.stackalloc(span));
    p.advance();
    p.skipUntil((x) => isCloser(x));
    return errorAt(p, span);
  },
  static: (p, span) => (isLambdaAhead(p) ? rejectLambda(p, span) : missingExpression(p)),
};

function parseChecked(p: Parser, span: Token['span'], checked: boolean): Expression {
  p.advance();
  if (!p.expectPunct('(')) return errorAt(p, span);
  const expression = parseExpression(p);
  p.expectPunct(')');
  return { kind: 'Checked', checked, expression, span: p.finish(span) };
}

/** `typeof(T)`, `sizeof(T)`, `default(T)`. */
function parseTypeOperator(p: Parser, ctx: TypeContext): Expression {
  const t = p.advance();
  const span = t.span;
  if (!p.expectPunct('(')) return errorAt(p, span);
  const type = parseType(p, ctx);
  if (type === null) {
    p.skipUntil((x) => isCloser(x));
    p.eatPunct(')');
    return errorAt(p, span);
  }
  checkType(p, type, ctx === 'typeof');
  if (p.atPunct('*')) {
    p.error(Diagnostics.pointer(p.tok.span));
    while (p.eatPunct('*'));
  }
  p.expectPunct(')');
  const s = p.finish(span);
  if (t.kind === 'keyword' && t.keyword === 'typeof') return { kind: 'TypeOf', type, span: s };
  if (t.kind === 'keyword' && t.keyword === 'sizeof') return { kind: 'SizeOf', type, span: s };
  return { kind: 'Default', type, span: s };
}

/** `nameof(x)`, `nameof(a.b.C)`, `nameof(List<int>.Count)` (§12.8.23): names only. */
function parseNameOf(p: Parser): Expression {
  const span = p.advance().span;
  p.advance();
  const argument = parseExpression(p);
  p.expectPunct(')');
  if (!isNameChain(argument)) p.error(Diagnostics.invalidNameof(argument.span));
  return { kind: 'NameOf', argument, span: p.finish(span) };
}

function isNameChain(e: Expression): boolean {
  if (e.kind === 'Name' || e.kind === 'This' || e.kind === 'Error') return true;
  if (e.kind !== 'MemberAccess' || e.conditional) return false;
  return isNameChain(e.target) || e.target.kind === 'PredefinedType';
}

/** The postfix chain after a primary expression (§12.8.7 to §12.8.16). */
export function parsePostfix(p: Parser, primary: Expression, start: Token['span']): Expression {
  // Like binary operators, each link deepens the tree: it counts against the nesting bound.
  const depth = p.depth;
  try {
    return parsePostfixChain(p, primary, start);
  } finally {
    p.depth = depth;
  }
}

function parsePostfixChain(p: Parser, primary: Expression, start: Token['span']): Expression {
  let e = primary;
  for (;;) {
    const next = parsePostfixLink(p, e, start);
    if (next === null) return e;
    e = next;
    p.enter();
  }
}

/** One link of the chain on `e`, or null when no postfix operator follows. */
function parsePostfixLink(p: Parser, e: Expression, start: Token['span']): Expression | null {
  const t = p.tok;
  if (t.kind !== 'punct') return null;
  const p1 = t.punct;
  if (p1 === '.' || (p1 === '?' && p.atPunct('.', 1))) {
    p.pos += p1 === '.' ? 1 : 2;
    return parseMemberName(p, e, p1 === '?', start);
  }
  if (p1 === '[' || (p1 === '?' && p.atPunct('[', 1))) {
    if (p1 === '?') p.advance();
    const args = parseArguments(p, '[', ']');
    const conditional = p1 === '?';
    return {
      kind: 'ElementAccess',
      target: e,
      arguments: args,
      conditional,
      span: p.finish(start),
    };
  }
  if (p1 === '(') {
    const args = parseArguments(p, '(', ')');
    return { kind: 'Invocation', target: e, arguments: args, span: p.finish(start) };
  }
  if (p1 === '++' || p1 === '--' || p1 === '!') {
    p.advance();
    if (p1 !== '!') checkAssignable(p, e, `'${p1}'`);
    return { kind: 'Postfix', operator: p1, operand: e, span: p.finish(start) };
  }
  if (p1 === '->') {
    p.error(Diagnostics.pointer(t.span));
    p.advance();
    if (p.atIdentifier()) p.advance();
    return errorAt(p, start);
  }
  return null;
}

function parseMemberName(
  p: Parser,
  target: Expression,
  conditional: boolean,
  start: Token['span'],
): Expression {
  if (!p.atIdentifier()) return missingName(p, start);
  const name = identifier(p.advance());
  const typeArgs = parseTypeArgumentsInExpression(p);
  return { kind: 'MemberAccess', target, name, typeArgs, conditional, span: p.finish(start) };
}
