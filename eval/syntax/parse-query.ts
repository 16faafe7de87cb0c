// Query expressions (C# standard §12.20), parsed and translated on the spot into the method calls
// the specification defines (§12.20.3): no query node reaches the interpreter, only Invocation,
// MemberAccess, Lambda and AnonymousObjectCreation nodes. The translation follows the clauses left
// to right:
// - `from T x in e` reads `e.Cast<T>()` (§12.20.3.3); a query `from x in e select x` with no other
//   clause is `e.Select(x => x)` (§12.20.3.4), while a `select x` after other clauses disappears.
// - each clause wraps the source built so far: `where` → Where, `orderby` → OrderBy / ThenBy
//   (Descending), a second `from` → SelectMany, `join` → Join / GroupJoin, `let` → Select
//   (§12.20.3.5); `select` → Select, `group v by k` → GroupBy(k, v) or GroupBy(k) (§12.20.3.6).
// - when a clause brings a second range variable into scope, the elements become anonymous objects
//   `new { x, y }` (transparent identifiers, §12.20.3.8): later lambdas take one hidden parameter
//   (a name no program can write) and their references to `x` and `y` become member accesses of it.
// - `... into y body` continues with the result as the source of `from y in ...` (§12.20.3.2).
// Every generated node carries the span of the clause it came from.

import type {
  AnonymousMember,
  Argument,
  Expression,
  Identifier,
  Lambda,
  Parameter,
  TypeNode,
} from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { inConditionalChain, parseExpression } from './parse-expressions.js';
import { identifier } from './parse-primary.js';
import { checkType, parseType } from './parse-types.js';
import { describe, type Parser } from './parser-core.js';
import type { Span } from './span.js';
import { isPredefinedType } from './tokens.js';

/**
 * `from x in ...` / `from T x in ...`: `from` followed by a name or a predefined type, the test
 * Roslyn applies in expression context. Otherwise `from` is an ordinary name (`from + 1`).
 */
export function isQueryAhead(p: Parser): boolean {
  if (!p.atContextual('from')) return false;
  const next = p.peek(1);
  return next.kind === 'identifier' || (next.kind === 'keyword' && isPredefinedType(next.keyword));
}

/** The prefix of the hidden parameters of transparent identifiers (Roslyn's spelling). */
export const TRANSPARENT_PREFIX = '<>h__TransparentIdentifier';

/**
 * What the range variables in scope are: one variable (a lambda takes it as its parameter), or a
 * transparent identifier: a hidden parameter whose members (nested for three variables and more)
 * hold the variables, each reached by its path of member names.
 */
type Scope =
  | { readonly k: 'variable'; readonly name: Identifier }
  | { readonly k: 'transparent'; readonly name: string; readonly paths: Map<string, string[]> };

interface Query {
  /** The translation of the clauses so far. */
  source: Expression;
  scope: Scope;
  /** Clauses translated since the last `from ... in` head (the degenerate rule counts them). */
  clauses: number;
  /** The range variables declared in this query body, for CS1930. */
  declared: Set<string>;
}

/** At `from`, as isQueryAhead found it. */
export function parseQuery(p: Parser): Expression {
  const depth = p.depth;
  p.queryDepth++;
  try {
    const start = p.advance().span;
    const head = parseRangeHead(p, start);
    const query: Query = {
      source: head.source,
      scope: { k: 'variable', name: head.name },
      clauses: 0,
      declared: new Set([head.name.name]),
    };
    return parseBody(p, query);
  } finally {
    p.depth = depth;
    p.queryDepth--;
  }
}

interface RangeHead {
  readonly name: Identifier;
  /** The expression after `in`, with `.Cast<T>()` when a type was written. */
  readonly source: Expression;
}

/** After `from` or `join`: `[T] x in e`. */
function parseRangeHead(p: Parser, start: Span): RangeHead {
  let type: TypeNode | null = null;
  if (!(p.atIdentifier() && p.atKeyword('in', 1))) {
    // `T x in`; without the `in`, a lone name is the variable (`from x xs`: 'in' is missing).
    type = p.speculate(() => {
      const t = parseType(p, 'type');
      return t !== null && p.atIdentifier() && p.atKeyword('in', 1) ? t : null;
    });
    if (type === null && !p.atIdentifier()) type = parseType(p, 'type');
    if (type !== null) checkType(p, type, false);
  }
  const name = rangeVariable(p);
  if (p.atKeyword('in')) p.advance();
  else p.error(Diagnostics.queryExpected(p.tok.span, "'in'", describe(p.tok), 'CS1003'));
  const e = operand(p);
  const span = p.finish(start);
  const source = type === null ? e : call(e, 'Cast', [], span, [type]);
  return { name, source };
}

function parseBody(p: Parser, q: Query): Expression {
  for (;;) {
    // Each clause wraps the source in a call and a member access: two levels of the tree, which
    // count against the nesting bound like any other.
    p.enter();
    p.enter();
    const start = p.tok.span;
    if (p.atContextual('from')) {
      p.advance();
      if (parseFrom(p, q, start)) return continuation(p, q);
    } else if (p.atContextual('let')) {
      p.advance();
      parseLet(p, q, start);
    } else if (p.atContextual('where')) {
      p.advance();
      const condition = operand(p);
      const span = p.finish(start);
      q.source = call(q.source, 'Where', [lambda(q.scope, condition, span)], span);
    } else if (p.atContextual('join')) {
      p.advance();
      if (parseJoin(p, q, start)) return continuation(p, q);
    } else if (p.atContextual('orderby')) {
      p.advance();
      parseOrderBy(p, q, start);
    } else if (p.atContextual('select')) {
      p.advance();
      parseSelect(p, q, start);
      return continuation(p, q);
    } else if (p.atContextual('group')) {
      p.advance();
      parseGroup(p, q, start);
      return continuation(p, q);
    } else {
      p.error(Diagnostics.queryWithoutSelect(p.tok.span, describe(p.tok)));
      return q.source;
    }
    q.clauses++;
  }
}

/** After a select or group clause: `into y` and another body, or the end of the query. */
function continuation(p: Parser, q: Query): Expression {
  if (!p.atContextual('into')) return q.source;
  p.advance();
  const name = rangeVariable(p);
  q.scope = { k: 'variable', name };
  q.clauses = 0;
  q.declared = new Set([name.name]);
  return parseBody(p, q);
}

/** `from [T] x2 in e2`; true when a select clause followed and ended the body. */
function parseFrom(p: Parser, q: Query, start: Span): boolean {
  const head = parseRangeHead(p, start);
  declare(p, q, head.name);
  const span = p.finish(start);
  const collection = lambda(q.scope, head.source, span);
  if (p.atContextual('select')) {
    const selectStart = p.advance().span;
    const value = operand(p);
    const selectSpan = p.finish(selectStart);
    const result = lambda2(q.scope, head.name, value, selectSpan);
    q.source = call(q.source, 'SelectMany', [collection, result], selectSpan);
    return true;
  }
  const pair = lambda2(q.scope, head.name, transparentObject(q.scope, head.name, null, span), span);
  q.source = call(q.source, 'SelectMany', [collection, pair], span);
  q.scope = extend(p, q.scope, head.name);
  return false;
}

/** `let y = f`: `Select(x => new { x, y = f })`. */
function parseLet(p: Parser, q: Query, start: Span): void {
  const name = rangeVariable(p);
  p.expectPunct('=');
  const value = operand(p);
  declare(p, q, name);
  const span = p.finish(start);
  const body = transparentObject(q.scope, name, value, span);
  q.source = call(q.source, 'Select', [lambda(q.scope, body, span)], span);
  q.scope = extend(p, q.scope, name);
}

/**
 * `join [T] x2 in e2 on k1 equals k2 [into g]`: Join, or GroupJoin with `into`; true when a select
 * clause followed and ended the body. `e2` and `k2` do not see the earlier range variables.
 */
function parseJoin(p: Parser, q: Query, start: Span): boolean {
  const head = parseRangeHead(p, start);
  expectContextual(p, 'on', 'CS0743');
  const outerKey = operand(p);
  expectContextual(p, 'equals', 'CS0744');
  const innerKey = operand(p);
  let into: Identifier | null = null;
  if (p.atContextual('into')) {
    p.advance();
    into = rangeVariable(p);
  }
  checkJoinKeys(p, q.scope, head.name, outerKey, innerKey);
  declare(p, q, head.name);
  if (into) declare(p, q, into);
  const span = p.finish(start);
  const method = into ? 'GroupJoin' : 'Join';
  const second = into ?? head.name;
  const keys = [
    head.source,
    lambda(q.scope, outerKey, span),
    lambda({ k: 'variable', name: head.name }, innerKey, span),
  ];
  if (p.atContextual('select')) {
    const selectStart = p.advance().span;
    const value = operand(p);
    const selectSpan = p.finish(selectStart);
    const result = lambda2(q.scope, second, value, selectSpan);
    q.source = call(q.source, method, [...keys, result], selectSpan);
    return true;
  }
  const pair = lambda2(q.scope, second, transparentObject(q.scope, second, null, span), span);
  q.source = call(q.source, method, [...keys, pair], span);
  q.scope = extend(p, q.scope, second);
  return false;
}

/**
 * The joined variable is only in scope right of `equals`, the earlier ones only left of it: a key
 * written on the wrong side is CS1937 / CS1938 (the usual fix is to swap the two keys).
 */
function checkJoinKeys(
  p: Parser,
  scope: Scope,
  joined: Identifier,
  outerKey: Expression,
  innerKey: Expression,
): void {
  const earlier = new Set(scope.k === 'variable' ? [scope.name.name] : scope.paths.keys());
  if (!earlier.has(joined.name)) {
    const wrong = findReference(outerKey, new Set([joined.name]));
    if (wrong) p.error(Diagnostics.joinKeyScope(wrong.span, wrong.name, 'left'));
  }
  earlier.delete(joined.name);
  const wrong = findReference(innerKey, earlier);
  if (wrong) p.error(Diagnostics.joinKeyScope(wrong.span, wrong.name, 'right'));
}

/** `orderby k1 [ascending|descending], k2 ...`: OrderBy then ThenBy, each maybe Descending. */
function parseOrderBy(p: Parser, q: Query, start: Span): void {
  let first = true;
  do {
    const keyStart = p.tok.span;
    const key = operand(p);
    let descending = false;
    if (p.atContextual('descending')) {
      p.advance();
      descending = true;
    } else if (p.atContextual('ascending')) {
      p.advance();
    }
    const span = first ? p.finish(start) : p.finish(keyStart);
    const method = (first ? 'OrderBy' : 'ThenBy') + (descending ? 'Descending' : '');
    q.source = call(q.source, method, [lambda(q.scope, key, span)], span);
    first = false;
  } while (p.eatPunct(','));
}

/** `select v`: Select, except that `select x` of the only range variable selects nothing new. */
function parseSelect(p: Parser, q: Query, start: Span): void {
  const value = operand(p);
  const span = p.finish(start);
  if (isRangeVariable(q.scope, value)) {
    // §12.20.3.4: written directly after `from x in e`, the query still calls Select, so that
    // its result is never the source itself; after other clauses the identity is dropped.
    if (q.clauses > 0) return;
  }
  q.source = call(q.source, 'Select', [lambda(q.scope, value, span)], span);
}

/** `group v by k`: GroupBy(x => k, x => v), or GroupBy(x => k) when v is the range variable. */
function parseGroup(p: Parser, q: Query, start: Span): void {
  const value = operand(p);
  expectContextual(p, 'by', 'CS0745');
  const key = operand(p);
  const span = p.finish(start);
  const args = [lambda(q.scope, key, span)];
  if (!isRangeVariable(q.scope, value)) args.push(lambda(q.scope, value, span));
  q.source = call(q.source, 'GroupBy', args, span);
}

/**
 * A clause's expression. A query keyword where it should start (`where select`, `from x in
 * select`) is a missing expression, not a name: inside a query those words are keywords, as in
 * Roslyn (`from` still starts a nested query).
 */
function operand(p: Parser): Expression {
  if (p.atQueryKeyword() && !isQueryAhead(p) && !p.atPunct('=>', 1)) {
    const t = p.tok;
    p.error(Diagnostics.missingExpression(t.span, describe(t)));
    return { kind: 'Error', span: { ...t.span, end: t.span.start } };
  }
  return parseExpression(p);
}

/** The name a clause declares; an empty name (never declared) after reporting it is missing. */
function rangeVariable(p: Parser): Identifier {
  if (p.atIdentifier()) return identifier(p.advance());
  p.error(Diagnostics.expectedToken(p.tok.span, 'a range variable name', describe(p.tok)));
  return { kind: 'Identifier', name: '', span: p.tok.span };
}

function expectContextual(p: Parser, word: string, csCode: string): void {
  if (p.atContextual(word)) p.advance();
  else p.error(Diagnostics.queryExpected(p.tok.span, `'${word}'`, describe(p.tok), csCode));
}

/** A range variable declared twice in one query (CS1930). */
function declare(p: Parser, q: Query, name: Identifier): void {
  if (name.name === '') return;
  if (q.declared.has(name.name)) p.error(Diagnostics.rangeVariableRedeclared(name.span, name.name));
  q.declared.add(name.name);
}

/** `v` is exactly the identifier of the only range variable (`select x`, `group x by k`). */
function isRangeVariable(scope: Scope, e: Expression): boolean {
  return (
    scope.k === 'variable' &&
    e.kind === 'Name' &&
    e.alias === null &&
    e.typeArgs.length === 0 &&
    e.name === scope.name.name
  );
}

// ---------------------------------------------------------------- building the translation

/** `source.method<typeArgs>(args)`, all spanning the clause. */
function call(
  source: Expression,
  method: string,
  args: Expression[],
  span: Span,
  typeArgs: TypeNode[] = [],
): Expression {
  // The specification writes the source in parentheses: `a?.b` must not take the call into its
  // null-conditional chain.
  const target: Expression = inConditionalChain(source)
    ? { kind: 'Parenthesized', expression: source, span: source.span }
    : source;
  const name: Identifier = { kind: 'Identifier', name: method, span };
  const access: Expression = {
    kind: 'MemberAccess',
    target,
    name,
    typeArgs,
    conditional: false,
    span,
  };
  const list: Argument[] = args.map((value) => ({
    kind: 'Argument',
    name: null,
    modifier: 'none',
    value,
    span: value.span,
  }));
  return { kind: 'Invocation', target: access, arguments: list, span };
}

function parameter(scope: Scope, span: Span): Parameter {
  const name: Identifier =
    scope.k === 'variable' ? scope.name : { kind: 'Identifier', name: scope.name, span };
  return { kind: 'Parameter', type: null, name, span: name.span };
}

/** `x => body` over the range variables in scope. */
function lambda(scope: Scope, body: Expression, span: Span): Lambda {
  return {
    kind: 'Lambda',
    parameters: [parameter(scope, span)],
    body: substitute(scope, body),
    span,
  };
}

/** `(x, y) => body`: the variables in scope and one more. */
function lambda2(scope: Scope, second: Identifier, body: Expression, span: Span): Lambda {
  const parameters = [parameter(scope, span), { ...parameter(scopeOf(second), span) }];
  return { kind: 'Lambda', parameters, body: substitute(scope, body), span };
}

const scopeOf = (name: Identifier): Scope => ({ k: 'variable', name });

/** `new { x, y }` or `new { x, y = f }`: the variables in scope plus one (a transparent identifier). */
function transparentObject(
  scope: Scope,
  name: Identifier,
  value: Expression | null,
  span: Span,
): Expression {
  const first = parameter(scope, span).name;
  const members: AnonymousMember[] = [
    { kind: 'AnonymousMember', name: null, value: nameExpression(first.name, first.span), span },
    value === null
      ? { kind: 'AnonymousMember', name: null, value: nameExpression(name.name, name.span), span }
      : { kind: 'AnonymousMember', name, value, span },
  ];
  return { kind: 'AnonymousObjectCreation', members, span };
}

/** The scope after transparentObject: a fresh hidden parameter holding the old scope and `name`. */
function extend(p: Parser, scope: Scope, name: Identifier): Scope {
  const paths = new Map<string, string[]>();
  if (scope.k === 'variable') {
    paths.set(scope.name.name, [scope.name.name]);
  } else {
    for (const [v, path] of scope.paths) paths.set(v, [scope.name, ...path]);
  }
  paths.set(name.name, [name.name]);
  return { k: 'transparent', name: TRANSPARENT_PREFIX + String(p.transparentIdentifiers++), paths };
}

function nameExpression(name: string, span: Span): Expression {
  return { kind: 'Name', name, typeArgs: [], alias: null, span };
}

/**
 * `body` with each reference to a range variable of a transparent scope replaced by the member
 * access that reaches it from the hidden parameter. A lambda or local function whose parameter
 * has the same name hides the variable inside it.
 */
function substitute(scope: Scope, body: Expression): Expression {
  if (scope.k === 'variable') return body;
  return rewrite(body, scope.name, scope.paths) as Expression;
}

type NameNode = Extract<Expression, { kind: 'Name' }>;

const isVariableName = (e: NameNode): boolean => e.alias === null && e.typeArgs.length === 0;

/** The parameter names of a lambda or local function, which hide range variables inside it. */
function parameterNames(n: { kind?: string } & Record<string, unknown>): string[] {
  if (n.kind !== 'Lambda' && n.kind !== 'LocalFunction') return [];
  return (n.parameters as Parameter[]).map((q) => q.name.name);
}

/** The first reference in `node` to one of `names` that no lambda parameter hides. */
function findReference(node: unknown, names: ReadonlySet<string>): NameNode | null {
  if (names.size === 0 || typeof node !== 'object' || node === null) return null;
  if (Array.isArray(node)) {
    for (const x of node as unknown[]) {
      const found = findReference(x, names);
      if (found) return found;
    }
    return null;
  }
  const n = node as { kind?: string } & Record<string, unknown>;
  if (n.kind === 'Name') {
    const e = n as unknown as NameNode;
    return isVariableName(e) && names.has(e.name) ? e : null;
  }
  const hidden = parameterNames(n);
  const visible = hidden.some((x) => names.has(x))
    ? new Set([...names].filter((x) => !hidden.includes(x)))
    : names;
  for (const [key, value] of Object.entries(n)) {
    if (key === 'span') continue;
    const found = findReference(value, visible);
    if (found) return found;
  }
  return null;
}

function rewrite(node: unknown, hidden: string, paths: ReadonlyMap<string, string[]>): unknown {
  if (Array.isArray(node)) {
    let changed = false;
    const out = node.map((x: unknown) => {
      const y = rewrite(x, hidden, paths);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : node;
  }
  if (typeof node !== 'object' || node === null) return node;
  const n = node as { kind?: string } & Record<string, unknown>;
  if (n.kind === 'Name') {
    const e = n as unknown as NameNode;
    const path = isVariableName(e) ? paths.get(e.name) : undefined;
    if (path === undefined) return node;
    let access: Expression = nameExpression(hidden, e.span);
    for (const member of path) {
      access = {
        kind: 'MemberAccess',
        target: access,
        name: { kind: 'Identifier', name: member, span: e.span },
        typeArgs: [],
        conditional: false,
        span: e.span,
      };
    }
    return access;
  }
  let visible = paths;
  const shadowed = parameterNames(n);
  if (shadowed.some((x) => paths.has(x))) {
    const rest = new Map(paths);
    for (const x of shadowed) rest.delete(x);
    if (rest.size === 0) return node;
    visible = rest;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(n)) {
    if (key === 'span') continue;
    const y = rewrite(value, hidden, visible);
    if (y === value) continue;
    copy ??= { ...n };
    copy[key] = y;
  }
  return copy ?? node;
}
