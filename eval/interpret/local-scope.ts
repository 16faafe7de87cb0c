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
  /**
   * The first local declared here, then a map from the second on: most scopes declare nothing
   * or one local (a foreach's variable, a lambda's parameter), made per element.
   */
  private firstName: string | undefined;
  private first: Local | undefined;
  private vars: Map<string, Local> | undefined;

  constructor(readonly parent: LocalScope | undefined = undefined) {}

  child(): LocalScope {
    return new LocalScope(this);
  }

  get(name: string): Local | undefined {
    // a loop rather than recursion: a body's lookups walk a few scopes per element
    if (this.firstName === name) return this.first;
    const own = this.vars?.get(name);
    if (own) return own;
    for (let s = this.parent; s; s = s.parent) {
      if (s.firstName === name) return s.first;
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
    return this.firstName === name || (this.vars?.has(name) ?? false);
  }

  set(name: string, local: Local): this {
    if (this.firstName === undefined || this.firstName === name) {
      this.firstName = name;
      this.first = local;
    } else (this.vars ??= new Map()).set(name, local);
    return this;
  }

  delete(name: string): boolean {
    if (this.firstName === name) {
      // the map's first entry (if any) takes its place: one name, one cell
      const next = this.vars?.entries().next();
      if (next && !next.done) {
        [this.firstName, this.first] = next.value;
        this.vars!.delete(next.value[0]);
      } else {
        this.firstName = undefined;
        this.first = undefined;
      }
      return true;
    }
    return this.vars?.delete(name) ?? false;
  }

  keys(): string[] {
    return [...this.own().keys(), ...(this.parent?.keys() ?? [])];
  }

  /** The names visible from here with their types (what code bound here depends on), as a key. */
  shape(): string {
    let out = '';
    for (const [name, l] of this.own())
      out += `${name}:${l.type === 'null' ? 'null' : l.type.key};`;
    return this.parent ? out + this.parent.shape() : out;
  }

  /** Every cell visible from here (for definite assignment across branches). */
  cells(): Local[] {
    return [...this.own().values(), ...(this.parent?.cells() ?? [])];
  }

  /** The locals declared in this very scope, in declaration order. */
  private own(): Map<string, Local> {
    const m = new Map<string, Local>();
    if (this.firstName !== undefined) m.set(this.firstName, this.first!);
    for (const [k, v] of this.vars ?? []) m.set(k, v);
    return m;
  }
}
