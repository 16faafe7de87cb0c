// What the host gives the interpreter: the namespaces `using` imports, whether a type's simple
// name is searched in every namespace, the game's builtin names and functions, and the scope of
// the method a program is evaluated in (a debugger's frame).

import type { TypeHandle } from '../runtime.js';
import type { EvalValue } from '../values.js';
import type { EvalScope } from './scope.js';

export interface Builtin {
  readonly type: TypeHandle;
  value(): Promise<EvalValue>;
}

/** A function the program can call by name: `entity(index)`, `entity(index, version)`. */
export interface BuiltinFunction {
  readonly returnType: TypeHandle;
  /** Accepted parameter lists; the arguments convert implicitly to one of the same length. */
  readonly signatures: readonly (readonly TypeHandle[])[];
  call(args: readonly EvalValue[]): Promise<EvalValue>;
}

export interface InterpreterOptions {
  /** Namespaces imported by `using` (C#'s default set for a Unity script, plus any extra). */
  readonly usings: readonly string[];
  /** Also find a type by its simple name in any namespace when unique (not C#: a convenience). */
  readonly anyNamespace: boolean;
  /** Names that stand for game objects (world, em) and the previous call's value (`_`). */
  readonly builtins?: ReadonlyMap<string, Builtin>;
  readonly functions?: ReadonlyMap<string, BuiltinFunction>;
  /** Evaluating inside a method (a debugger's frame): its variables, `this`, enclosing type. */
  readonly scope?: EvalScope;
  /**
   * Run loops and lambdas in the interpreter only, not compiled to closures (compiled.ts): the
   * other side of the tests that compare the two. Binding does not depend on it.
   */
  readonly interpretOnly?: boolean;
}
