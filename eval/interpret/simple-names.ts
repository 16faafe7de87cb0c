// What a simple name denotes (ECMA-334 §12.8.4), searched in C#'s order: a local of the
// program, a variable of the method's scope, a member of its enclosing types (see
// enclosing-scope.ts), a game builtin (`world`, `_`), a type, a namespace; `global::` names
// start at the global namespace. None of these is CS0103, with the local it may have meant.

import type * as A from '../syntax/index.js';
import { VOID } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { AccessMode, Resolved } from './operand.js';

export class SimpleNames {
  constructor(private readonly it: Interpreter) {}

  private get md() {
    return this.it.md;
  }

  private get scope() {
    return this.it.options.scope;
  }

  async simpleName(e: A.Name, mode: AccessMode = 'read'): Promise<Resolved> {
    if (e.alias) {
      if (e.alias.name !== 'global')
        throw new CompileError('CS0432', `alias '${e.alias.name}' not found`, e.alias.span);
      const t = await this.it.types.typeIn('', e.name, e.typeArgs, e.span);
      if (t) return { k: 'type', type: t };
      if (await this.md.hasNamespace(e.name)) return { k: 'namespace', name: e.name };
      throw new CompileError(
        'CS0400',
        `the type or namespace name '${e.name}' could not be found in the global namespace`,
        e.span,
      );
    }
    if (e.typeArgs.length === 0) {
      const local = this.it.variables.localOperand(e.name, e.span, mode);
      if (local) return { k: 'value', op: local };
      const variable = this.scope?.variables.get(e.name);
      if (variable)
        return {
          k: 'value',
          op: await this.it.enclosing.variableOperand(e.name, variable, mode),
        };
    }
    if (this.scope) {
      const member = await this.it.enclosing.member(e, mode);
      if (member) return member;
    }
    if (e.typeArgs.length === 0) {
      const builtin = this.it.options.builtins?.get(e.name);
      if (builtin) {
        if (mode === 'write')
          throw new CompileError('CS0131', `'${e.name}' cannot be assigned`, e.span);
        return {
          k: 'value',
          op: { type: builtin.type, value: this.it.dry ? VOID : await builtin.value() },
        };
      }
    }
    const t = await this.it.types.typeBySimpleName(e.name, e.typeArgs, e.span);
    if (t) return { k: 'type', type: t };
    if (e.typeArgs.length === 0 && (await this.md.hasNamespace(e.name)))
      return { k: 'namespace', name: e.name };
    const locals = [...this.it.locals.keys(), ...(this.scope?.variables.keys() ?? [])];
    const near = locals.filter((n) => n.toLowerCase() === e.name.toLowerCase());
    throw new CompileError(
      'CS0103',
      `the name '${e.name}' does not exist in the current context${near.length ? ` (did you mean '${near[0]}'?)` : ''}`,
      e.span,
      near.slice(0, 1),
    );
  }
}
