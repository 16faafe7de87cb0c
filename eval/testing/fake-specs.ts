// How a test declares the types of a fake game: plain data with C#-like type strings
// (`int`, `Game.Node[]`, `List<T>`, `int?`) and parameter strings (`ref int x`,
// `params object[] args`, `int count = 3`), and TypeScript functions for method bodies.

import { KEYWORD_TYPES } from '../interpret/well-known.js';
import { NUMERIC_KINDS } from '../semantics/numeric-types.js';
import type { MethodDescriptor, RefKind, TypeHandle } from '../runtime.js';
import { NULL, bool, num, str, type EvalValue, type NumericKind } from '../values.js';
import type { FakeRuntime } from './fake-runtime.js';

/** What a method body sees: its receiver, arguments, and ways to change them (struct `this`, ref/out). */
export interface Call {
  /** The receiver as passed (a boxed value arrives unboxed); undefined for static methods. */
  readonly self: EvalValue | undefined;
  readonly args: readonly EvalValue[];
  /** A generic method's type arguments. */
  readonly typeArgs: readonly TypeHandle[];
  readonly method: MethodDescriptor;
  /** The fake game, to read and change its state (`fake.get`, `fake.set`, `fake.text`...). */
  readonly fake: FakeRuntime;
  /** A struct method that mutates its receiver stores the new value here (returned as outThis). */
  setThis(value: EvalValue): void;
  /** A ref/out parameter's value after the call (returned in outArgs). */
  setArg(index: number, value: EvalValue): void;
}

/** A method body; returning nothing is returning void. */
export type Impl = (call: Call) => EvalValue | void;
export type SetterImpl = (call: Call, value: EvalValue) => void;

export interface ParamObject {
  readonly name: string;
  readonly type: string;
  readonly refKind?: RefKind;
  /** Optional; `default` holds its value unless the metadata cannot represent it (`= default`). */
  readonly optional?: boolean;
  readonly default?: EvalValue;
  readonly params?: boolean;
}

export type ParamSpec = string | ParamObject;

export interface MethodSpec {
  readonly params?: readonly ParamSpec[];
  /** Omitted: void. */
  readonly returns?: string;
  readonly static?: boolean;
  readonly virtual?: boolean;
  readonly abstract?: boolean;
  readonly private?: boolean;
  /** Method type parameters, usable in `params` and `returns`. */
  readonly generic?: readonly string[];
  /** `where` clauses of the type parameters, by name. */
  readonly where?: Readonly<Record<string, ConstraintSpec>>;
  readonly impl?: Impl;
}

/** `where T : class, Base, new()`: type names as in a field's type. */
export interface ConstraintSpec {
  readonly class?: boolean;
  readonly struct?: boolean;
  readonly new?: boolean;
  readonly types?: readonly string[];
}

export interface FieldSpec {
  readonly type: string;
  readonly static?: boolean;
  readonly readonly?: boolean;
  /** A `const`: the value the compiler sees. */
  readonly const?: EvalValue;
  readonly private?: boolean;
}

/**
 * A property. Without get and set it is an auto-property over a hidden backing field (on an
 * interface: abstract accessors, implemented by the classes).
 */
export interface PropertySpec {
  readonly type: string;
  readonly static?: boolean;
  readonly virtual?: boolean;
  readonly get?: Impl;
  readonly set?: SetterImpl;
  /** Without get and set: no setter. */
  readonly readOnly?: boolean;
}

export interface IndexerSpec {
  readonly params: readonly ParamSpec[];
  readonly type: string;
  /** `Item` unless given (System.String's is `Chars`). */
  readonly name?: string;
  readonly get?: Impl;
  readonly set?: SetterImpl;
}

export interface TypeSpec {
  readonly base?: string;
  readonly interfaces?: readonly string[];
  readonly abstract?: boolean;
  readonly sealed?: boolean;
  /** A generic definition's type parameters (its name ends in `\`N`). */
  readonly typeParams?: readonly string[];
  /** In declaration order (statics included): a type string or a full spec. */
  readonly fields?: Readonly<Record<string, string | FieldSpec>>;
  /** A type string is a read-write auto-property. */
  readonly properties?: Readonly<Record<string, string | PropertySpec>>;
  readonly methods?: Readonly<Record<string, MethodSpec | readonly MethodSpec[]>>;
  /** Omitted on a class: one public parameterless constructor, as C# gives. */
  readonly ctors?: readonly MethodSpec[];
  readonly indexers?: readonly IndexerSpec[];
}

export interface EnumSpec {
  readonly underlying?: 'byte' | 'sbyte' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong';
  readonly members: Readonly<Record<string, number | bigint>>;
}

// ------------------------------------------------------------------ type strings

/** C#'s keyword types, usable in type strings. */
export const KEYWORD_NAMES: Readonly<Record<string, string>> = KEYWORD_TYPES;

/** A parsed type string: `name<args>` then array ranks and `?`, innermost first. */
export interface TypeRef {
  readonly name: string;
  readonly args: readonly TypeRef[];
  readonly suffixes: readonly ({ readonly array: number } | 'nullable')[];
}

export function parseTypeRef(text: string): TypeRef {
  const tokens = text.match(/[A-Za-z_][\w.+`]*|[<>,[\]?]/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (expected?: string): string => {
    const t = tokens[i++];
    if (t === undefined || (expected !== undefined && t !== expected))
      throw new Error(`fake: bad type string '${text}'`);
    return t;
  };
  const type = (): TypeRef => {
    const name = take();
    const args: TypeRef[] = [];
    if (peek() === '<') {
      take('<');
      args.push(type());
      while (peek() === ',') {
        take(',');
        args.push(type());
      }
      take('>');
    }
    const suffixes: TypeRef['suffixes'][number][] = [];
    for (;;) {
      if (peek() === '?') {
        take('?');
        suffixes.push('nullable');
      } else if (peek() === '[') {
        take('[');
        let rank = 1;
        while (peek() === ',') {
          take(',');
          rank++;
        }
        take(']');
        suffixes.push({ array: rank });
      } else break;
    }
    return { name, args, suffixes };
  };
  const t = type();
  if (i !== tokens.length) throw new Error(`fake: bad type string '${text}'`);
  return t;
}

/** `ref int x`, `params int[] xs`, `int n = 3`, `string s = "a"`, `Game.Vec v = default`. */
export function parseParam(spec: ParamSpec): ParamObject {
  if (typeof spec !== 'string') return spec;
  const m = /^\s*(?:(ref|out|in|params)\s+)?(.+?)\s+(\w+)\s*(?:=\s*(.+?))?\s*$/.exec(spec);
  if (!m) throw new Error(`fake: bad parameter '${spec}'`);
  const [, modifier, type, name, given] = m;
  return {
    name: name!,
    type: type!,
    refKind: modifier === 'ref' || modifier === 'out' || modifier === 'in' ? modifier : 'none',
    params: modifier === 'params',
    optional: given !== undefined,
    ...(given !== undefined && given !== 'default'
      ? { default: defaultLiteral(given, type!) }
      : {}),
  };
}

/** The keywords the evaluator holds as `number` values (decimal has its own kind). */
const NUMERIC_KEYWORDS: ReadonlySet<string> = new Set(NUMERIC_KINDS.filter((k) => k !== 'decimal'));

/** A default value as the catalogue reports it: enum defaults arrive as plain ints. */
function defaultLiteral(text: string, type: string): EvalValue {
  if (text === 'null') return NULL;
  if (text === 'true' || text === 'false') return bool(text === 'true');
  if (text.startsWith('"')) return str(JSON.parse(text) as string);
  const kind = (NUMERIC_KEYWORDS.has(type) ? type : 'int') as NumericKind;
  return num(kind, kind === 'long' || kind === 'ulong' ? BigInt(text) : Number(text));
}
