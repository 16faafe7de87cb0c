// What the scope of a method (a debugger's stopped frame, see scope.ts) adds to name lookup, as
// in the method's body (ECMA-334 §12.8.4): its variables as operands, `this` as its receiver,
// the members of its enclosing type (and bases) and of the types that one is nested in, and the
// enclosing types and namespaces that type names are searched in. Without a scope, nothing.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { VOID } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import { needsInstance } from './member-access.js';
import type { AccessMode, Operand, Resolved } from './operand.js';
import type { ScopeVariable } from './scope.js';

export class EnclosingScope {
  constructor(private readonly it: Interpreter) {}

  /** The enclosing type, then the types it is nested in (innermost first). */
  private enclosing: Promise<TypeHandle[]> | undefined;

  private get md() {
    return this.it.md;
  }

  private get scope() {
    return this.it.options.scope;
  }

  /** `this`: the scope's receiver; CS0026 where there is none (a static method, plain eval). */
  async thisAccess(e: A.This, mode: AccessMode = 'read'): Promise<Resolved> {
    const self = this.scope?.self;
    if (!self)
      throw new CompileError(
        'CS0026',
        this.scope
          ? "keyword 'this' is not valid in a static method"
          : "'this' is not available here: it exists only in a frame of an instance method",
        e.span,
      );
    if (mode === 'write' && !self.write)
      throw new CompileError('CS1604', "cannot assign to 'this' because it is read-only", e.span);
    return { k: 'value', op: await this.variableOperand('this', self, mode) };
  }

  /** A scope variable as an operand: a variable (a place) when the host can write it. */
  async variableOperand(name: string, variable: ScopeVariable, mode: AccessMode): Promise<Operand> {
    const value = this.it.dry || mode === 'write' ? VOID : await variable.read();
    return variable.write
      ? { type: variable.type, value, place: { k: 'scope', name, variable } }
      : { type: variable.type, value };
  }

  /**
   * A simple name as the method's body sees it (§12.8.4): a member of the enclosing type (or of
   * a base), then of each type it is nested in. Instance members need `this` (CS0120 in a
   * static method; the members of an outer type are never reached through it).
   */
  async member(e: A.Name, mode: AccessMode): Promise<Resolved | undefined> {
    const types = await this.types();
    for (const [depth, type] of types.entries()) {
      const m = await this.it.members.member(type, e.name, e.typeArgs.length);
      if (!m) continue;
      const self = depth === 0 ? this.scope?.self : undefined;
      const receiver = async () =>
        self
          ? this.variableOperand('this', self, 'read')
          : Promise.reject(needsInstance(type, e.name, e.span));
      switch (m.k) {
        case 'type':
          return { k: 'type', type: await this.it.types.construct(m.type, e.typeArgs, e.span, {}) };
        case 'methods': {
          const typeArgs = await this.it.types.typeArgs(e.typeArgs);
          // an instance method is called on `this`, or refused (CS0120) where there is none;
          // a static one without a receiver
          return self
            ? {
                k: 'methods',
                name: e.name,
                methods: m.methods,
                receiver: await receiver(),
                implicitThis: true,
                typeArgs,
              }
            : { k: 'methods', name: e.name, methods: m.methods, receiver: undefined, typeArgs };
        }
        case 'field':
          if (m.field.isStatic || m.field.constant)
            return {
              k: 'value',
              op: await this.it.memberOperands.fieldOperand(undefined, m.field, mode, e.span),
            };
          return {
            k: 'value',
            op: await this.it.memberOperands.fieldOperand(await receiver(), m.field, mode, e.span),
          };
        case 'property':
          if (m.property.isStatic)
            return {
              k: 'value',
              op: await this.it.memberOperands.propertyOperand(
                undefined,
                m.property,
                [],
                mode,
                e.span,
              ),
            };
          return {
            k: 'value',
            op: await this.it.memberOperands.propertyOperand(
              await receiver(),
              m.property,
              [],
              mode,
              e.span,
            ),
          };
      }
    }
    return undefined;
  }

  /** The enclosing type and the types it is nested in, innermost first. */
  types(): Promise<TypeHandle[]> {
    const scope = this.scope;
    if (!scope) return Promise.resolve([]);
    return (this.enclosing ??= (async () => {
      const out = [scope.enclosingType];
      for (;;) {
        const { fullName } = await this.md.describe(out.at(-1)!);
        const cut = fullName.lastIndexOf('+');
        // a generic outer type's name carries its arguments: it is not looked up
        if (cut < 0 || fullName.includes('[')) return out;
        const outer = await this.md.findType(fullName.slice(0, cut));
        if (!outer) return out;
        out.push(outer);
      }
    })());
  }

  /** The namespace of the enclosing type and the namespaces around it, innermost first. */
  async namespaces(): Promise<string[]> {
    const types = await this.types();
    const outermost = types.at(-1);
    if (!outermost) return [];
    const ns = (await this.md.describe(outermost)).namespace;
    const out: string[] = [];
    for (let n = ns; n; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') out.push(n);
    return out;
  }
}
