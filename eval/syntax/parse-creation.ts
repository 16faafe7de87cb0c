// `new` (C# standard §12.8.17): object creation with object and collection initializers, and
// array creation with sizes, rank specifiers and array initializers, and anonymous object creation
// `new { a = 1, p.Name }`. Target-typed `new()` is rejected by name.

import type {
  AnonymousMember,
  AnonymousObjectCreation,
  ArrayInitializer,
  CollectionInitializer,
  ElementInitializer,
  Expression,
  MemberInitializer,
  ObjectInitializer,
  TypeNode,
} from './ast.js';
import { Diagnostics, type ParseError } from './diagnostics.js';
import { errorAt, parseExpression } from './parse-expressions.js';
import { parseArguments } from './parse-arguments.js';
import { identifier } from './parse-primary.js';
import { describe, type Parser } from './parser-core.js';
import { checkType, parseType, rankAt } from './parse-types.js';
import type { Token } from './tokens.js';

export function parseNew(p: Parser): Expression {
  const start = p.advance().span;
  if (p.atPunct('[')) {
    // `new[] { ... }`, `new[,] { ... }`: the element type comes from the elements.
    const rank = rankAt(p);
    if (rank === 0)
      return badArray(p, start, 'write new[] { ... } (sizes need an element type: new int[3])');
    p.skipGroup();
    const initializer = p.atPunct('{') ? parseArrayInitializer(p) : null;
    if (!initializer)
      return badArray(p, start, 'an implicitly typed array needs an initializer: new[] { 1, 2 }');
    return {
      kind: 'ArrayCreation',
      elementType: null,
      sizes: [],
      ranks: [rank],
      initializer,
      span: p.finish(start),
    };
  }
  if (p.atPunct('{')) return parseAnonymousObject(p, start);
  if (p.atPunct('(')) return reject(p, start, Diagnostics.targetTypedNew(start));
  const type = parseType(p, 'new');
  if (type === null) return errorAt(p, start);
  checkType(p, type, false);
  if (p.atPunct('[')) return parseArrayCreation(p, start, type);
  let args = null;
  if (p.atPunct('(')) args = parseArguments(p, '(', ')');
  const initializer = p.atPunct('{') ? parseObjectOrCollectionInitializer(p) : null;
  if (args === null && initializer === null) {
    p.error(Diagnostics.expectedToken(p.tok.span, "'(', '[' or '{' after new T", describe(p.tok)));
    return errorAt(p, start);
  }
  return { kind: 'ObjectCreation', type, arguments: args, initializer, span: p.finish(start) };
}

/**
 * `new { a = 1, p.Name, x }` (§12.8.17.7) after `new`, at `{`. A member without `name =` must be a
 * simple name or a member access (its name is the member's, CS0746); names are unique (CS0833).
 */
function parseAnonymousObject(p: Parser, start: Token['span']): AnonymousObjectCreation {
  const members = parseBraced(p, () => parseAnonymousMember(p));
  const seen = new Set<string>();
  for (const m of members) {
    const name = anonymousMemberName(m);
    if (name === null) continue;
    if (seen.has(name)) p.error(Diagnostics.duplicateAnonymousMember(m.span, name));
    seen.add(name);
  }
  return { kind: 'AnonymousObjectCreation', members, span: p.finish(start) };
}

function parseAnonymousMember(p: Parser): AnonymousMember {
  const start = p.tok.span;
  if (p.atIdentifier() && p.atPunct('=', 1)) {
    const name = identifier(p.advance());
    p.advance();
    const value = parseExpression(p);
    return { kind: 'AnonymousMember', name, value, span: p.finish(start) };
  }
  const value = parseExpression(p);
  if (value.kind !== 'Name' && value.kind !== 'MemberAccess' && value.kind !== 'Error') {
    p.error(Diagnostics.anonymousMemberDeclarator(value.span));
  }
  return { kind: 'AnonymousMember', name: null, value, span: p.finish(start) };
}

/** The property name a member declares: its own, or its value's (`x`, `p.Name`). */
export function anonymousMemberName(m: AnonymousMember): string | null {
  if (m.name) return m.name.name;
  if (m.value.kind === 'Name') return m.value.name;
  if (m.value.kind === 'MemberAccess') return m.value.name.name;
  return null;
}

function reject(p: Parser, start: Token['span'], e: ParseError): Expression {
  p.error(e);
  p.skipGroup();
  if (p.atPunct('{')) p.skipGroup();
  return errorAt(p, start);
}

function badArray(p: Parser, start: Token['span'], why: string): Expression {
  p.error(Diagnostics.invalidArrayCreation(p.tok.span, why));
  if (p.atPunct('[')) p.skipGroup();
  if (p.atPunct('{')) p.skipGroup();
  return errorAt(p, start);
}

/** After `new T`, at `[`: `new T[n, m][]...`, `new T[] { ... }`, `new T[,] { ... }`. */
function parseArrayCreation(p: Parser, start: Token['span'], elementType: TypeNode): Expression {
  const sizes: Expression[] = [];
  const ranks: number[] = [];
  if (rankAt(p) === 0) {
    p.advance();
    do sizes.push(parseExpression(p));
    while (p.eatPunct(','));
    p.expectPunct(']');
    ranks.push(sizes.length);
  }
  while (p.atPunct('[')) {
    const rank = rankAt(p);
    if (rank === 0) {
      // `new int[3][4]`: only the first brackets take sizes (§12.8.17.5).
      return badArray(
        p,
        start,
        'only the first brackets take sizes: write new int[3][] and fill the rows',
      );
    }
    ranks.push(rank);
    p.skipGroup();
  }
  const initializer = p.atPunct('{') ? parseArrayInitializer(p) : null;
  if (sizes.length === 0 && initializer === null) {
    return badArray(
      p,
      start,
      'array creation needs sizes or an initializer: new int[3] or new int[] { 1, 2 }',
    );
  }
  return { kind: 'ArrayCreation', elementType, sizes, ranks, initializer, span: p.finish(start) };
}

/** `{ e, { e, e }, ... }` with an optional trailing comma (§17.7). */
export function parseArrayInitializer(p: Parser): ArrayInitializer {
  const start = p.tok.span;
  const elements = parseBraced(p, () =>
    p.atPunct('{') ? parseArrayInitializer(p) : parseExpression(p),
  );
  return { kind: 'ArrayInitializer', elements, span: p.finish(start) };
}

/**
 * `{ ... }` after `new T(...)` or as a member's value: an object initializer when the first
 * element is `Name =` or `[args] =`, else a collection initializer (§12.8.17.3, §12.8.17.4).
 * `{ }` counts as an empty object initializer.
 */
function parseObjectOrCollectionInitializer(p: Parser): ObjectInitializer | CollectionInitializer {
  const start = p.tok.span;
  const isObject =
    p.atPunct('}', 1) ||
    (p.atIdentifier(1) && p.atPunct('=', 2)) ||
    (p.atPunct('[', 1) && isAssignmentAfterGroup(p, p.pos + 1));
  if (isObject) {
    const members = parseBraced(p, () => parseMemberInitializer(p));
    return { kind: 'ObjectInitializer', members, span: p.finish(start) };
  }
  const elements = parseBraced(p, () => {
    if (p.atPunct('{')) return parseElementInitializer(p);
    const element = parseExpression(p);
    // `{ 1, X = 2 }`: C# rejects mixing elements with member initializers (CS0747).
    if (element.kind === 'Assignment' && element.operator === '=') {
      p.error(Diagnostics.mixedInitializer(element.span));
    }
    return element;
  });
  return { kind: 'CollectionInitializer', elements, span: p.finish(start) };
}

function isAssignmentAfterGroup(p: Parser, open: number): boolean {
  const close = p.match[open] ?? -1;
  const t = close < 0 ? undefined : p.tokens[close + 1];
  return t?.kind === 'punct' && t.punct === '=';
}

function parseMemberInitializer(p: Parser): MemberInitializer {
  const start = p.tok.span;
  let target: MemberInitializer['target'];
  if (p.atPunct('[')) {
    target = parseArguments(p, '[', ']');
  } else if (p.atIdentifier()) {
    target = identifier(p.advance());
  } else {
    p.error(
      Diagnostics.expectedToken(p.tok.span, 'a member initializer (Name = value)', describe(p.tok)),
    );
    target = identifier(p.tok);
  }
  p.expectPunct('=');
  const value = p.atPunct('{') ? parseObjectOrCollectionInitializer(p) : parseExpression(p);
  return { kind: 'MemberInitializer', target, value, span: p.finish(start) };
}

function parseElementInitializer(p: Parser): ElementInitializer {
  const start = p.tok.span;
  const args = parseBraced(p, () => parseExpression(p));
  return { kind: 'ElementInitializer', arguments: args, span: p.finish(start) };
}

/** `{ item, item, }`: comma-separated, trailing comma allowed, recovering at `,` and `}`. */
function parseBraced<T>(p: Parser, item: () => T): T[] {
  const items: T[] = [];
  p.expectPunct('{');
  while (!p.atPunct('}') && !p.atEof) {
    const before = p.pos;
    p.enter();
    try {
      items.push(item());
    } finally {
      p.leave();
    }
    if (p.eatPunct(',')) continue;
    if (p.atPunct('}') || p.atEof) break;
    p.error(Diagnostics.expectedToken(p.tok.span, "',' or '}'", describe(p.tok)));
    p.skipUntil(
      (t) => t.kind === 'punct' && (t.punct === ',' || t.punct === '}' || t.punct === ';'),
    );
    if (!p.eatPunct(',') || p.pos === before) break;
  }
  p.expectPunct('}');
  return items;
}
