// Types (C# standard §8: predefined types, namespace-or-type names with type arguments, arrays,
// nullable types) and the generic-name disambiguation of §6.2.5 for names inside expressions.

import type { NamedType, OmittedTypeArgument, TypeNamePart, TypeNode } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { describe, type Parser } from './parser-core.js';
import { isPredefinedType, type Token } from './tokens.js';

/**
 * Where a type is read:
 * - 'type': casts, declarations, default(T), sizeof(T), out declarations;
 * - 'typeArg': inside `<...>`;
 * - 'isAs': after `is` / `as`, where a `?` may instead start a conditional expression;
 * - 'new': after `new`, where `[` starts the array sizes rather than a rank;
 * - 'typeof': where unbound generics (`List<>`) and `void` are allowed.
 */
export type TypeContext = 'type' | 'typeArg' | 'isAs' | 'new' | 'typeof';

/**
 * Parses a type at the cursor; reports and returns null when there is none. Callers that only
 * want to know whether a type is there run this inside `p.speculate`.
 */
export function parseType(p: Parser, ctx: TypeContext): TypeNode | null {
  p.enter();
  try {
    const start = p.tok.span;
    let type = parseNonArrayType(p);
    if (type === null) return null;
    if (p.atPunct('?') && nullableAllowed(p, ctx)) {
      p.advance();
      type = { kind: 'NullableType', underlying: type, span: p.finish(start) };
    }
    if (ctx === 'new') return type;
    const ranks: number[] = [];
    for (let rank = rankAt(p); rank > 0; rank = rankAt(p)) {
      ranks.push(rank);
      p.skipGroup();
    }
    return ranks.length === 0
      ? type
      : { kind: 'ArrayType', elementType: type, ranks, span: p.finish(start) };
  } finally {
    p.leave();
  }
}

/** The rank of a `[` `,`* `]` rank specifier at the cursor, else 0. */
export function rankAt(p: Parser): number {
  if (!p.atPunct('[')) return 0;
  let rank = 1;
  for (let k = 1; ; k++) {
    if (p.atPunct(']', k)) return rank;
    if (!p.atPunct(',', k)) return 0;
    rank++;
  }
}

/**
 * After `is` / `as`, `x is int ? a : b` is a conditional, not a nullable type: take `?` as
 * nullable only when what follows cannot start an expression (Roslyn's rule for these contexts,
 * which keeps `x as int?`, `x is int? ? a : b` and `x as int?[]` working).
 */
function nullableAllowed(p: Parser, ctx: TypeContext): boolean {
  return ctx !== 'isAs' || !canStartExpression(p.peek(1));
}

export function canStartExpression(t: Token): boolean {
  switch (t.kind) {
    case 'identifier':
    case 'integer':
    case 'real':
    case 'char':
    case 'string':
    case 'interpolated':
      return true;
    case 'keyword':
      return (
        isPredefinedType(t.keyword) ||
        [
          'new', 'this', 'base', 'typeof', 'default', 'checked', 'unchecked', 'sizeof', 'true',
          'false', 'null', 'delegate', 'throw', 'stackalloc', 'ref',
        ].includes(t.keyword) // prettier-ignore
      );
    case 'punct':
      return ['(', '+', '-', '!', '~', '++', '--', '&', '*', '^', '..'].includes(t.punct);
    case 'eof':
      return false;
  }
}

function parseNonArrayType(p: Parser): TypeNode | null {
  const t = p.tok;
  if (t.kind === 'keyword' && isPredefinedType(t.keyword)) {
    p.advance();
    return { kind: 'PredefinedType', name: t.keyword, span: t.span };
  }
  if (t.kind === 'identifier') return parseNamedType(p);
  if (t.kind === 'punct' && t.punct === '(' && hasTopLevelComma(p)) {
    p.error(Diagnostics.tuple(t.span));
    p.skipGroup();
    return null;
  }
  p.error(Diagnostics.missingType(t.span, describe(t)));
  return null;
}

/** `( ... , ... )` at the cursor: a tuple (type or literal). */
export function hasTopLevelComma(p: Parser, at = p.pos): boolean {
  const end = p.match[at] ?? -1;
  for (let i = at + 1; i < end; i++) {
    const t = p.tokens[i]!;
    if (t.kind === 'punct' && t.punct === ',') return true;
    const m = p.match[i] ?? -1;
    if (m > i) i = m;
  }
  return false;
}

function parseNamedType(p: Parser): NamedType {
  const start = p.tok.span;
  let alias = null;
  if (p.atPunct('::', 1) && p.atIdentifier(2)) {
    const a = p.advance();
    alias = { kind: 'Identifier' as const, name: (a as { name: string }).name, span: a.span };
    p.advance();
  }
  const parts = [parseNamePart(p)];
  while (p.atPunct('.') && p.atIdentifier(1)) {
    p.advance();
    parts.push(parseNamePart(p));
  }
  return { kind: 'NamedType', alias, parts, span: p.finish(start) };
}

function parseNamePart(p: Parser): TypeNamePart {
  const t = p.advance();
  const name = {
    kind: 'Identifier' as const,
    name: t.kind === 'identifier' ? t.name : t.text,
    span: t.span,
  };
  const typeArgs = p.atPunct('<') ? (parseTypeArgumentList(p, true) ?? []) : [];
  return { kind: 'TypeNamePart', name, typeArgs, span: p.finish(t.span) };
}

/**
 * A type argument list at `<`, tried speculatively and memoized by position (a failed `<` stays
 * a less-than for the caller). `allowOmitted` admits the unbound forms `<>`, `<,>` of typeof.
 */
export function parseTypeArgumentList(p: Parser, allowOmitted: boolean): TypeNode[] | null {
  const key = p.pos * 2 + (allowOmitted ? 1 : 0);
  const memo = p.typeArgMemo.get(key);
  if (memo !== undefined) {
    if (memo !== null) p.pos = memo.end;
    return memo?.args ?? null;
  }
  const args = p.speculate(() => {
    p.advance();
    if (allowOmitted && (p.atPunct('>') || p.atPunct(','))) {
      const omitted: OmittedTypeArgument[] = [
        { kind: 'OmittedTypeArgument', span: p.finish(p.tok.span) },
      ];
      while (p.eatPunct(','))
        omitted.push({ kind: 'OmittedTypeArgument', span: p.finish(p.tok.span) });
      return p.eatPunct('>') ? omitted : null;
    }
    const list: TypeNode[] = [];
    do {
      const arg = parseType(p, 'typeArg');
      if (arg === null) return null;
      list.push(arg);
    } while (p.eatPunct(','));
    return p.eatPunct('>') ? list : null;
  });
  p.typeArgMemo.set(key, args === null ? null : { end: p.pos, args });
  return args;
}

/**
 * C# standard §6.2.5 (Grammar ambiguities): a `<` after a name in an expression starts type
 * arguments only if a type argument list parses and the token after its `>` is one of
 * `( ) ] } : ; , . ? == != | ^ && || & [` or `< <= >= is as`. Otherwise `<` is less-than, "even
 * if there is no other possible parse": `F(G<A, B>(7))` is one generic call, `F(G<A, B>7)` two
 * comparisons, `x = F<A> + y` two comparisons. The end of the input counts as `;`, because the
 * final `;` of the input is optional. (The identifier-after-`is`/`out` and tuple cases of the
 * rule concern patterns and tuples, which this subset rejects.)
 */
export function parseTypeArgumentsInExpression(p: Parser): TypeNode[] {
  if (!p.atPunct('<')) return [];
  const start = p.pos;
  const args = parseTypeArgumentList(p, false);
  if (args !== null && followsTypeArguments(p.tok)) return args;
  p.pos = start;
  return [];
}

const FOLLOWERS: ReadonlySet<string> = new Set([
  '(', ')', ']', '}', ':', ';', ',', '.', '?', '==', '!=', '|', '^', '&&', '||', '&', '[',
  '<', '<=', '>=',
]); // prettier-ignore

function followsTypeArguments(t: Token): boolean {
  if (t.kind === 'punct') return FOLLOWERS.has(t.punct);
  if (t.kind === 'keyword') return t.keyword === 'is' || t.keyword === 'as';
  return t.kind === 'eof';
}

/**
 * Reports the types this evaluator does not take: `dynamic`, and `void` / unbound generics
 * outside typeof (`inTypeof` allows them at the top level only).
 */
export function checkType(p: Parser, type: TypeNode, inTypeof: boolean): void {
  switch (type.kind) {
    case 'PredefinedType':
      if (type.name === 'void' && !inTypeof) {
        p.error(Diagnostics.invalidType(type.span, "'void' is only a type inside typeof(void)"));
      }
      return;
    case 'NamedType':
      for (const part of type.parts) {
        const unbound = part.typeArgs.some((a) => a.kind === 'OmittedTypeArgument');
        if (unbound && !inTypeof) {
          p.error(
            Diagnostics.invalidType(
              part.span,
              'an unbound generic type is only allowed inside typeof',
            ),
          );
        }
        for (const arg of part.typeArgs) checkType(p, arg, false);
      }
      if (
        type.alias === null &&
        type.parts.length === 1 &&
        type.parts[0]!.name.name === 'dynamic'
      ) {
        if (type.parts[0]!.typeArgs.length === 0) p.error(Diagnostics.dynamic(type.span));
      }
      return;
    case 'ArrayType':
      return checkType(p, type.elementType, false);
    case 'NullableType':
      return checkType(p, type.underlying, false);
    case 'OmittedTypeArgument':
      return;
  }
}
