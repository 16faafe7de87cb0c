// Type syntax (C# standard §8): the types written in casts, declarations, typeof, is / as, new
// and type argument lists. Names are unresolved: the interpreter looks them up.

import type { Identifier, NodeBase } from './ast.js';
import type { PredefinedTypeName } from './tokens.js';

export type TypeNode = PredefinedType | NamedType | ArrayType | NullableType | OmittedTypeArgument;

/** `int`, `string`, `object`, ... and `void` (only inside typeof). */
export interface PredefinedType extends NodeBase {
  readonly kind: 'PredefinedType';
  readonly name: PredefinedTypeName;
}

/** `A`, `A.B<C>.D`, `global::System.Int32`: a namespace-or-type name, resolved later. */
export interface NamedType extends NodeBase {
  readonly kind: 'NamedType';
  /** `global` in `global::A.B`. */
  readonly alias: Identifier | null;
  readonly parts: TypeNamePart[];
}

export interface TypeNamePart extends NodeBase {
  readonly kind: 'TypeNamePart';
  readonly name: Identifier;
  /** Empty when not generic; OmittedTypeArgument entries for `List<>` / `Dictionary<,>`. */
  readonly typeArgs: TypeNode[];
}

export interface ArrayType extends NodeBase {
  readonly kind: 'ArrayType';
  readonly elementType: TypeNode;
  /** One entry per `[...]`, outermost first: `int[][,]` → [1, 2]. */
  readonly ranks: number[];
}

/** `T?`: Nullable<T> for value types (reference types: an annotation the interpreter ignores). */
export interface NullableType extends NodeBase {
  readonly kind: 'NullableType';
  readonly underlying: TypeNode;
}

/** The empty argument of an unbound generic in typeof: `List<>`, `Dictionary<,>`. */
export interface OmittedTypeArgument extends NodeBase {
  readonly kind: 'OmittedTypeArgument';
}
