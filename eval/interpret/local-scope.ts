// The program's locals, one scope per block (C# §7.7): a name is looked up from the innermost
// scope out; each scope is a set of mutable cells, so a lambda that captures its scope chain
// shares the variables themselves with the code around it (C#'s capture semantics), and a
// foreach body's fresh scope per iteration gives each closure its own iteration variable.

import type * as A from '../syntax/index.js';
import type { EvalValue } from '../values.js';
import type { SType } from './type-facts.js';

export interface Local {
  type: SType;
  value: EvalValue;
  assigned: boolean;
  /** The iteration variable of a foreach, a catch's variable...: not assignable (CS1656). */
  readonly readOnly?: string;
  /** A local function declared under this name. */
  readonly fn?: A.LocalFunction;
}

export class LocalScope {
  /** Made at the first declaration: most scopes (a loop body's, a block's) declare nothing. */
  private vars: Map<string, Local> | undefined;

  constructor(readonly parent: LocalScope | undefined = undefined) {}

  child(): LocalScope {
    return new LocalScope(this);
  }

  get(name: string): Local | undefined {
    // a loop rather than recursion: a body's lookups walk a few empty scopes per element
    const own = this.vars?.get(name);
    if (own) return own;
    for (let s = this.parent; s; s = s.parent) {
      const l = s.vars?.get(name);
      if (l) return l;
    }
    return undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Declared in this very scope (CS0128), rather than an enclosing one (CS0136). */
  hasOwn(name: string): boolean {
    return this.vars?.has(name) ?? false;
  }

  set(name: string, local: Local): this {
    (this.vars ??= new Map()).set(name, local);
    return this;
  }

  delete(name: string): boolean {
    return this.vars?.delete(name) ?? false;
  }

  keys(): string[] {
    return [...(this.vars?.keys() ?? []), ...(this.parent?.keys() ?? [])];
  }

  /** The names visible from here with their types (what code bound here depends on), as a key. */
  shape(): string {
    let out = '';
    for (const [name, l] of this.vars ?? [])
      out += `${name}:${l.type === 'null' ? 'null' : l.type.key};`;
    return this.parent ? out + this.parent.shape() : out;
  }

  /** Every cell visible from here (for definite assignment across branches). */
  cells(): Local[] {
    return [...(this.vars?.values() ?? []), ...(this.parent?.cells() ?? [])];
  }
}
