// The scope a program is evaluated in when it runs "inside" a method, as a debugger's frame
// evaluation does: the method's parameters and locals, its `this`, and its enclosing type, whose
// members (and its bases', and the members of the types it is nested in) bare names find, as in
// the method's body (ECMA-334 §12.8.4). The host owns the variables: reading and writing them
// is its business (a stopped frame's slots, written through the debugger protocol).

import type { TypeHandle } from '../runtime.js';
import type { EvalValue } from '../values.js';

/** A variable the host owns: a parameter, a local, or `this`. */
export interface ScopeVariable {
  /** Its declared type (for a by-ref parameter, the type it refers to). */
  readonly type: TypeHandle;
  read(): Promise<EvalValue>;
  /**
   * Stores a value (already converted to `type`); absent for a read-only variable (the `this`
   * of a class). Reading afterwards gives what the host holds now.
   */
  write?(value: EvalValue): Promise<void>;
}

export interface EvalScope {
  /** Parameters and locals by name: they hide members of the same name, as in C#. */
  readonly variables: ReadonlyMap<string, ScopeVariable>;
  /** The type declaring the method: bare names find its members and its bases' members. */
  readonly enclosingType: TypeHandle;
  /** The method's `this`; undefined in a static method (`this` is CS0026 there). */
  readonly self?: ScopeVariable;
}
