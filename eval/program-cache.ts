// Programs parsed and bound once, run many times: a logpoint's holes, a breakpoint's condition,
// a watch's expressions are the same text at every hit, in a frame of the same shape. Binding
// depends only on the text, the names in scope with their types (and which can be written), the
// enclosing type, the builtins and the usings; values never enter it. So a bound program is kept
// under that key and later runs skip parsing and the binding pass; a scope whose names or types
// differ (another method, a local's live range, a hoisted local that came and went) is another
// key, bound anew. Only programs that bound are kept: a refusal is computed again every time
// (it may stop being one once a type loads).

import type { InterpreterOptions } from './interpret/options.js';
import { parse, type Program } from './syntax/index.js';

/** A program that bound in one scope shape: what running it needs. */
export interface PreparedProgram {
  readonly source: string;
  readonly program: Program;
  /** What binding found that running needs (a program's return type...), by node. */
  readonly notes: WeakMap<object, unknown>;
  /** The key of the scope shape it was bound in (see shapeKey). */
  readonly key: string;
  /** The program is this scope variable and nothing else: running it reads the variable. */
  readonly variable?: string;
}

export interface ProgramCacheStats {
  /** Runs that found their program bound. */
  hits: number;
  /** Runs that bound it (then kept it). */
  misses: number;
  /** Programs dropped to stay within the capacity. */
  evicted: number;
}

/** Prepared programs by shape key, the least recently used dropped beyond `capacity`. */
export class ProgramCache {
  private readonly entries = new Map<string, PreparedProgram>();
  readonly stats: ProgramCacheStats = { hits: 0, misses: 0, evicted: 0 };

  constructor(readonly capacity = 256) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`a program cache holds at least 1 program (got ${capacity})`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): PreparedProgram | undefined {
    const p = this.entries.get(key);
    if (!p) return undefined;
    // most recently used last: the first in the map is the one to drop
    this.entries.delete(key);
    this.entries.set(key, p);
    return p;
  }

  set(p: PreparedProgram): void {
    this.entries.delete(p.key);
    this.entries.set(p.key, p);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.stats.evicted++;
    }
  }

  /** Memo of readsOnly, by source. */
  private readonly readOnly = new Map<string, boolean>();

  /** readsOnly(source), remembered (a logpoint asks it at every hit). */
  readsOnly(source: string): boolean {
    let r = this.readOnly.get(source);
    if (r === undefined) {
      r = readsOnly(source);
      if (this.readOnly.size >= this.capacity) this.readOnly.clear();
      this.readOnly.set(source, r);
    }
    return r;
  }

  /** Forgets one program (it failed to run as bound). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Everything binding depends on, as one string: the source, the usings, the scope's names with
 * their types and writability, `this`, the enclosing type, the builtins and functions.
 */
export function shapeKey(source: string, settings: InterpreterOptions): string {
  return `${source}\u0000${contextKey(settings)}`;
}

/** The last context key made for a scope, with what it was made of (the holes of one hit share it). */
const contextKeys = new WeakMap<object, { from: readonly unknown[]; key: string }>();

function contextKey(settings: InterpreterOptions): string {
  const scope = settings.scope;
  const from = [settings.usings, settings.anyNamespace, settings.builtins, settings.functions];
  const kept = scope && contextKeys.get(scope);
  if (kept && kept.from.every((x, i) => x === from[i])) return kept.key;
  const parts: string[] = [settings.usings.join(','), settings.anyNamespace ? '*' : ''];
  if (scope) {
    parts.push(`in ${scope.enclosingType.key}`);
    if (scope.self) parts.push(`this ${scope.self.type.key}${scope.self.write ? ' w' : ''}`);
    for (const [name, v] of scope.variables)
      parts.push(`${name} ${v.type.key}${v.write ? ' w' : ''}`);
  }
  for (const [name, b] of settings.builtins ?? []) parts.push(`builtin ${name} ${b.type.key}`);
  for (const [name, f] of settings.functions ?? [])
    parts.push(
      `function ${name} ${f.returnType.key} ${f.signatures.map((s) => s.map((t) => t.key).join(',')).join('|')}`,
    );
  const key = parts.join('\u0000');
  if (scope) contextKeys.set(scope, { from, key });
  return key;
}

/**
 * The nodes of an expression that reads: names, accesses, operators, casts, tests, literals,
 * interpolation, and the type names they hold. Anything else (a call, an assignment, a creation,
 * a lambda, a form added later) is taken to act.
 */
const READING = new Set([
  'Name',
  'Identifier',
  'This',
  'PredefinedType',
  'MemberAccess',
  'ElementAccess',
  'Argument',
  'Cast',
  'Unary',
  'Postfix',
  'Binary',
  'Coalesce',
  'Conditional',
  'Is',
  'TypePattern',
  'NullPattern',
  'ConstantPattern',
  'As',
  'TypeOf',
  'SizeOf',
  'Default',
  'NameOf',
  'Checked',
  'Parenthesized',
  'Literal',
  'InterpolatedString',
  'InterpolatedText',
  'Interpolation',
  'NamedType',
  'TypeNamePart',
  'ArrayType',
  'NullableType',
  'OmittedTypeArgument',
]);

/**
 * Whether a program is one expression that writes and calls nothing by its syntax (names,
 * member and element accesses, operators, casts, literals, interpolation): running it twice, or
 * beside another such program, shows nothing the other could see. Property getters, indexers
 * and user-defined operators may run game code; as a debugger's watch does, they are taken as
 * side-effect free. A program that does not parse is not read-only.
 */
export function readsOnly(source: string): boolean {
  const { program, errors } = parse(source);
  if (errors.length > 0 || program.statements.length !== 1) return false;
  const [only] = program.statements;
  return only?.kind === 'ExpressionStatement' && pure(only.expression);
}

function pure(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(pure);
  if (typeof node !== 'object' || node === null) return true;
  const n = node as { kind?: unknown; operator?: unknown };
  if (typeof n.kind === 'string') {
    if (!READING.has(n.kind)) return false;
    if (
      (n.kind === 'Unary' || n.kind === 'Postfix') &&
      (n.operator === '++' || n.operator === '--')
    )
      return false;
  }
  for (const [k, v] of Object.entries(node)) if (k !== 'span' && !pure(v)) return false;
  return true;
}
