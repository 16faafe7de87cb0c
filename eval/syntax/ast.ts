// The evaluator's own syntax tree for the C# subset it reads. Every node has a `kind` and a
// `span` (start/end offsets and the line/column of its start), so every later error can point
// at the text to fix. Nodes are plain immutable data; the interpreter is a visitor over them.
//
// Conventions the interpreter relies on:
// - Evaluate a Program only when `parse` returned no errors: after an error the tree holds
//   ErrorExpression placeholders and whatever recovery made of the rest.
// - Names are not resolved: in `System.Math.Abs(x)` the parser sees MemberAccess over Name
//   `System`; whether a name is a local, a member, a type or a namespace is the interpreter's
//   call. A PredefinedType appears as an expression only as a member access target
//   (`int.MaxValue`). A Name or MemberAccess with typeArgs is a generic method group (invoked
//   right after) or a generic type (as in `List<int>.Count` inside nameof, or a member target).
// - Parentheses are kept (`Parenthesized`): `(a?.b).c` differs from `a?.b.c`.
// - A null-conditional access (`?.` / `?[`) short-circuits the rest of its postfix chain: in
//   `a?.b.c(d)[e]` a null `a` makes the whole chain null. The chain is the maximal run of
//   MemberAccess / Invocation / ElementAccess / Postfix('!') nodes above the conditional one; a
//   Parenthesized node (or any other kind) ends it.
// - Array ranks are listed outermost first, as written: `int[][,]` is a one-dimensional array
//   whose elements are `int[,]` (C# standard §17.2.1).
// - There is no query expression node: the parser translates `from ... select ...` into the
//   method calls of C# standard §12.20.3 (parse-query.ts), so the interpreter sees Invocation,
//   MemberAccess, Lambda and AnonymousObjectCreation nodes spanning the clauses they came from.
//   Their lambdas may take a hidden parameter (`<>h__TransparentIdentifierN`, TRANSPARENT_PREFIX),
//   a name no program can write: an error about it should name the clause, not the parameter.

import type { Span } from './span.js';
import type {
  AnonymousObjectCreation,
  ArrayCreation,
  ArrayInitializer,
  CollectionInitializer,
  ElementInitializer,
  MemberInitializer,
  ObjectCreation,
  ObjectInitializer,
} from './ast-creation.js';
import type {
  InterpolatedText,
  Interpolation,
  InterpolatedString,
  Literal,
} from './ast-literals.js';
import type { PredefinedType, TypeNamePart, TypeNode } from './ast-types.js';
import type {
  CatchClause,
  Lambda,
  Parameter,
  Statement,
  SwitchLabel,
  SwitchSection,
} from './ast-statements.js';

export type * from './ast-creation.js';
export type * from './ast-literals.js';
export type * from './ast-types.js';
export type * from './ast-statements.js';

/** What every node has: where it is in the source. */
export interface NodeBase {
  readonly span: Span;
}

export interface Identifier extends NodeBase {
  readonly kind: 'Identifier';
  /** Without the `@` of a verbatim identifier. */
  readonly name: string;
}

// ---------------------------------------------------------------- program and statements

export interface Program extends NodeBase {
  readonly kind: 'Program';
  readonly statements: Statement[];
}

export interface ExpressionStatement extends NodeBase {
  readonly kind: 'ExpressionStatement';
  readonly expression: Expression;
  /** Whether a `;` ended it (the last statement may omit it). */
  readonly semicolon: boolean;
}

/** `var x = e;`, `T a = e1, b;`. */
export interface LocalDeclaration extends NodeBase {
  readonly kind: 'LocalDeclaration';
  /** 'var' for an implicitly typed local (then exactly one declarator, with an initializer). */
  readonly type: TypeNode | 'var';
  readonly declarators: VariableDeclarator[];
  readonly semicolon: boolean;
}

export interface VariableDeclarator extends NodeBase {
  readonly kind: 'VariableDeclarator';
  readonly name: Identifier;
  /** An ArrayInitializer only for an explicitly typed array local: `int[] a = { 1, 2 };`. */
  readonly initializer: Expression | ArrayInitializer | null;
}

// ---------------------------------------------------------------- expressions

export type Expression =
  | Literal
  | InterpolatedString
  | Name
  | This
  | PredefinedType
  | MemberAccess
  | Invocation
  | ElementAccess
  | ObjectCreation
  | AnonymousObjectCreation
  | ArrayCreation
  | Cast
  | Unary
  | Postfix
  | Binary
  | Coalesce
  | Assignment
  | Conditional
  | Is
  | As
  | TypeOf
  | SizeOf
  | Default
  | NameOf
  | Checked
  | Parenthesized
  | Lambda
  | ErrorExpression;

/** A simple name (`x`, `world`, `Foo<int>`), possibly `global::`-qualified. */
export interface Name extends NodeBase {
  readonly kind: 'Name';
  readonly name: string;
  readonly typeArgs: TypeNode[];
  readonly alias: Identifier | null;
}

export interface This extends NodeBase {
  readonly kind: 'This';
}

/** `a.b`, `a?.b`, `a.M<T>` (the access to a method group with explicit type arguments). */
export interface MemberAccess extends NodeBase {
  readonly kind: 'MemberAccess';
  /** PredefinedType for `int.MaxValue`; a Name for `Foo.Bar` (type or value: resolved later). */
  readonly target: Expression;
  readonly name: Identifier;
  readonly typeArgs: TypeNode[];
  /** `?.` */
  readonly conditional: boolean;
}

export interface Invocation extends NodeBase {
  readonly kind: 'Invocation';
  readonly target: Expression;
  readonly arguments: Argument[];
}

export interface ElementAccess extends NodeBase {
  readonly kind: 'ElementAccess';
  readonly target: Expression;
  readonly arguments: Argument[];
  /** `?[` */
  readonly conditional: boolean;
}

export interface Argument extends NodeBase {
  readonly kind: 'Argument';
  /** `name: value` */
  readonly name: Identifier | null;
  readonly modifier: 'none' | 'out' | 'ref' | 'in';
  /** An OutDeclaration only with modifier 'out'. */
  readonly value: Expression | OutDeclaration;
}

/** `out var x` / `out T x` (C# 7 out variables; `out var _` is a discard). */
export interface OutDeclaration extends NodeBase {
  readonly kind: 'OutDeclaration';
  readonly type: TypeNode | 'var';
  readonly name: Identifier;
}

export interface Cast extends NodeBase {
  readonly kind: 'Cast';
  readonly type: TypeNode;
  readonly operand: Expression;
}

/** Prefix operators. */
export interface Unary extends NodeBase {
  readonly kind: 'Unary';
  readonly operator: '+' | '-' | '!' | '~' | '++' | '--';
  readonly operand: Expression;
}

/** `x++`, `x--`, and the null-forgiving `x!` (no run-time effect). */
export interface Postfix extends NodeBase {
  readonly kind: 'Postfix';
  readonly operator: '++' | '--' | '!';
  readonly operand: Expression;
}

export type BinaryOperator =
  | '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '<' | '>' | '<=' | '>='
  | '==' | '!=' | '&' | '^' | '|' | '&&' | '||'; // prettier-ignore

export interface Binary extends NodeBase {
  readonly kind: 'Binary';
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** `a ?? b` (right-associative). */
export interface Coalesce extends NodeBase {
  readonly kind: 'Coalesce';
  readonly left: Expression;
  readonly right: Expression;
}

export type AssignmentOperator =
  | '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=' | '??='; // prettier-ignore

export interface Assignment extends NodeBase {
  readonly kind: 'Assignment';
  readonly operator: AssignmentOperator;
  /** Name, MemberAccess, ElementAccess or a Parenthesized one of those (checked by the parser). */
  readonly target: Expression;
  readonly value: Expression;
}

export interface Conditional extends NodeBase {
  readonly kind: 'Conditional';
  readonly condition: Expression;
  readonly whenTrue: Expression;
  readonly whenFalse: Expression;
}

/**
 * `x is T` (a type pattern; the type may also name a constant, e.g. an enum member), `x is null`
 * or `x is 5` (a constant pattern: a literal, signed if numeric).
 */
export interface Is extends NodeBase {
  readonly kind: 'Is';
  readonly operand: Expression;
  readonly pattern: TypePattern | NullPattern | ConstantPattern;
}

export interface TypePattern extends NodeBase {
  readonly kind: 'TypePattern';
  readonly type: TypeNode;
}

export interface NullPattern extends NodeBase {
  readonly kind: 'NullPattern';
}

/** A literal in a pattern (`x is 5`, `x is -1.5`, `x is "a"`, `x is true`). */
export interface ConstantPattern extends NodeBase {
  readonly kind: 'ConstantPattern';
  readonly value: Expression;
}

export interface As extends NodeBase {
  readonly kind: 'As';
  readonly operand: Expression;
  readonly type: TypeNode;
}

/** `typeof(T)`, `typeof(List<>)`, `typeof(void)`. */
export interface TypeOf extends NodeBase {
  readonly kind: 'TypeOf';
  readonly type: TypeNode;
}

export interface SizeOf extends NodeBase {
  readonly kind: 'SizeOf';
  readonly type: TypeNode;
}

/** `default(T)`, or the target-typed `default` literal when `type` is null. */
export interface Default extends NodeBase {
  readonly kind: 'Default';
  readonly type: TypeNode | null;
}

/** `nameof(a.b.C)`: the argument is a Name, MemberAccess chain or PredefinedType access. */
export interface NameOf extends NodeBase {
  readonly kind: 'NameOf';
  readonly argument: Expression;
}

/** `checked(e)` / `unchecked(e)`: the overflow context of the integral arithmetic inside e. */
export interface Checked extends NodeBase {
  readonly kind: 'Checked';
  readonly checked: boolean;
  readonly expression: Expression;
}

export interface Parenthesized extends NodeBase {
  readonly kind: 'Parenthesized';
  readonly expression: Expression;
}

/** Stands where an error was reported; a program containing one is never evaluated. */
export interface ErrorExpression extends NodeBase {
  readonly kind: 'Error';
}

export type Node =
  | Program
  | Statement
  | VariableDeclarator
  | TypeNode
  | TypeNamePart
  | Expression
  | Identifier
  | InterpolatedText
  | Interpolation
  | Argument
  | OutDeclaration
  | ObjectInitializer
  | MemberInitializer
  | CollectionInitializer
  | ElementInitializer
  | ArrayInitializer
  | TypePattern
  | NullPattern
  | ConstantPattern
  | SwitchSection
  | SwitchLabel
  | CatchClause
  | Parameter;
