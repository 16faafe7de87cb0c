// Statements (C# standard §13) and the function forms (lambdas §12.19, local functions §13.6.4)
// the evaluator runs client-side. Query expressions have no nodes of their own: the parser
// translates them to method calls and lambdas (§12.20.3), as the specification does.

import type {
  Expression,
  ExpressionStatement,
  Identifier,
  LocalDeclaration,
  NodeBase,
} from './ast.js';
import type { TypeNode } from './ast-types.js';

export type Statement =
  | ExpressionStatement
  | LocalDeclaration
  | Block
  | EmptyStatement
  | If
  | While
  | Do
  | For
  | Foreach
  | Break
  | Continue
  | Return
  | Throw
  | Switch
  | Try
  | LocalFunction;

export interface Block extends NodeBase {
  readonly kind: 'Block';
  readonly statements: Statement[];
}

export interface EmptyStatement extends NodeBase {
  readonly kind: 'EmptyStatement';
}

export interface If extends NodeBase {
  readonly kind: 'If';
  readonly condition: Expression;
  readonly then: Statement;
  readonly else: Statement | null;
}

export interface While extends NodeBase {
  readonly kind: 'While';
  readonly condition: Expression;
  readonly body: Statement;
}

export interface Do extends NodeBase {
  readonly kind: 'Do';
  readonly body: Statement;
  readonly condition: Expression;
}

export interface For extends NodeBase {
  readonly kind: 'For';
  /** A declaration, or statement expressions separated by commas. */
  readonly init: LocalDeclaration | Expression[];
  readonly condition: Expression | null;
  readonly iterators: Expression[];
  readonly body: Statement;
}

export interface Foreach extends NodeBase {
  readonly kind: 'Foreach';
  readonly type: TypeNode | 'var';
  readonly name: Identifier;
  readonly collection: Expression;
  readonly body: Statement;
}

export interface Break extends NodeBase {
  readonly kind: 'Break';
}

export interface Continue extends NodeBase {
  readonly kind: 'Continue';
}

export interface Return extends NodeBase {
  readonly kind: 'Return';
  readonly value: Expression | null;
}

/** `throw e;`, or `throw;` (a rethrow, only inside a catch). */
export interface Throw extends NodeBase {
  readonly kind: 'Throw';
  readonly value: Expression | null;
}

export interface Switch extends NodeBase {
  readonly kind: 'Switch';
  readonly value: Expression;
  readonly sections: SwitchSection[];
}

export interface SwitchSection extends NodeBase {
  readonly kind: 'SwitchSection';
  readonly labels: SwitchLabel[];
  readonly statements: Statement[];
}

/**
 * `case 1:`, `case Color.Red:` (constant: an expression; a type name decided when binding),
 * `case string s:` / `case Foo _:` (a type pattern with a designation), `default:`; an optional
 * `when` guard.
 */
export interface SwitchLabel extends NodeBase {
  readonly kind: 'SwitchLabel';
  readonly pattern:
    | { readonly k: 'default' }
    | { readonly k: 'constant'; readonly value: Expression }
    | { readonly k: 'type'; readonly type: TypeNode; readonly name: Identifier | null };
  readonly when: Expression | null;
}

export interface Try extends NodeBase {
  readonly kind: 'Try';
  readonly block: Block;
  readonly catches: CatchClause[];
  readonly finally: Block | null;
}

/** `catch`, `catch (T)`, `catch (T e)`, each with an optional `when (filter)`. */
export interface CatchClause extends NodeBase {
  readonly kind: 'CatchClause';
  readonly type: TypeNode | null;
  readonly name: Identifier | null;
  readonly filter: Expression | null;
  readonly block: Block;
}

export interface Parameter extends NodeBase {
  readonly kind: 'Parameter';
  /** null for an implicitly typed lambda parameter. */
  readonly type: TypeNode | null;
  readonly name: Identifier;
  /** `= value` of an optional parameter (local functions only; a constant, §15.6.2). */
  readonly defaultValue?: Expression;
}

/** `x => e`, `(int x, int y) => { ... }`, `() => e`, `delegate (int x) { ... }`. */
export interface Lambda extends NodeBase {
  readonly kind: 'Lambda';
  readonly parameters: Parameter[];
  readonly body: Expression | Block;
}

/** `int Twice(int x) => x * 2;`, `void Log(string s) { ... }`. */
export interface LocalFunction extends NodeBase {
  readonly kind: 'LocalFunction';
  /** 'void' for a void function. */
  readonly returnType: TypeNode | 'void';
  readonly name: Identifier;
  readonly parameters: Parameter[];
  readonly body: Expression | Block;
}
