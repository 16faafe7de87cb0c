// `new` (C# standard §12.8.17): object creation with object and collection initializers, and
// array creation with array initializers.

import type { Argument, Expression, Identifier, NodeBase } from './ast.js';
import type { TypeNode } from './ast-types.js';

/** `new T(args)`, `new T(args) { ... }`, `new T { ... }`. */
export interface ObjectCreation extends NodeBase {
  readonly kind: 'ObjectCreation';
  readonly type: TypeNode;
  /** null when no parentheses were written (`new T { ... }`). */
  readonly arguments: Argument[] | null;
  readonly initializer: ObjectInitializer | CollectionInitializer | null;
}

/**
 * `new { a = 1, b.c, d }` (§12.8.17.7): an object of an anonymous type, made client-side. A member
 * written without a name takes the name of its expression (a simple name or a member access).
 * Query expressions' transparent identifiers (§12.20.3.8) are made of these too.
 */
export interface AnonymousObjectCreation extends NodeBase {
  readonly kind: 'AnonymousObjectCreation';
  readonly members: AnonymousMember[];
}

export interface AnonymousMember extends NodeBase {
  readonly kind: 'AnonymousMember';
  /** null when the name comes from the value (`new { x, p.Name }`). */
  readonly name: Identifier | null;
  readonly value: Expression;
}

/** `{ A = 1, B = { C = 2 }, [k] = v }`; `{ }` parses as an empty object initializer. */
export interface ObjectInitializer extends NodeBase {
  readonly kind: 'ObjectInitializer';
  readonly members: MemberInitializer[];
}

export interface MemberInitializer extends NodeBase {
  readonly kind: 'MemberInitializer';
  /** An Identifier for `A = ...`, an argument list for the indexer form `[k] = ...`. */
  readonly target: Identifier | Argument[];
  /** A nested initializer sets members of, or adds to, the existing member value. */
  readonly value: Expression | ObjectInitializer | CollectionInitializer;
}

/** `{ 1, 2 }` or `{ { k1, v1 }, { k2, v2 } }`: one Add call per element. */
export interface CollectionInitializer extends NodeBase {
  readonly kind: 'CollectionInitializer';
  readonly elements: (Expression | ElementInitializer)[];
}

/** `{ k, v }` inside a collection initializer: Add(k, v). */
export interface ElementInitializer extends NodeBase {
  readonly kind: 'ElementInitializer';
  readonly arguments: Expression[];
}

/**
 * `new int[3]`, `new int[2, 3][]`, `new int[] { 1 }`, `new[] { 1, 2 }`. `ranks` lists every
 * bracket pair, outermost first; `sizes` fills the first one (empty when not given).
 */
export interface ArrayCreation extends NodeBase {
  readonly kind: 'ArrayCreation';
  /** null for the implicitly typed `new[] { ... }`. */
  readonly elementType: TypeNode | null;
  readonly sizes: Expression[];
  readonly ranks: number[];
  readonly initializer: ArrayInitializer | null;
}

/** `{ a, b }`, nested for multi-dimensional arrays: `{ { 1, 2 }, { 3, 4 } }`. */
export interface ArrayInitializer extends NodeBase {
  readonly kind: 'ArrayInitializer';
  readonly elements: (Expression | ArrayInitializer)[];
}
