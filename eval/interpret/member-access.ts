// Member access `a.b` (ECMA-334 §12.8.7): through a namespace (a type or a namespace inside
// it), through a type (its static members, constants and nested types), through a value (its
// instance members; `?.` makes the rest of the chain conditional); with C#'s errors for a
// member that is missing (and the names it may have meant) or reached the wrong way.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { AccessMode, Operand, Resolved } from './operand.js';

export class MemberAccesses {
  constructor(private readonly it: Interpreter) {}

  private get md() {
    return this.it.md;
  }

  async memberAccess(e: A.MemberAccess, mode: AccessMode = 'read'): Promise<Resolved> {
    const target = await this.it.resolveInChain(e.target);
    const name = e.name.name;
    switch (target.k) {
      case 'namespace': {
        const t = await this.it.types.typeIn(target.name, name, e.typeArgs, e.span);
        if (t) return { k: 'type', type: t };
        const full = `${target.name}.${name}`;
        if (e.typeArgs.length === 0 && (await this.md.hasNamespace(full)))
          return { k: 'namespace', name: full };
        throw new CompileError(
          'CS0234',
          `the type or namespace name '${name}' does not exist in the namespace '${target.name}'`,
          e.name.span,
        );
      }
      case 'methods':
        throw new CompileError(
          'CS0119',
          `'${target.name}' is a method, which is not valid in the given context`,
          e.target.span,
        );
      case 'type':
        return this.staticMember(target.type, e, mode);
      case 'value': {
        let op = target.op;
        if (op.type === 'null')
          throw new CompileError(
            'CS0023',
            `the '.' operator cannot be applied to operand of type '<null>'`,
            e.span,
          );
        if (this.it.types.knownVoid(op.type) ?? (await this.it.types.isVoid(op.type)))
          throw new CompileError(
            'CS0023',
            "the '.' operator cannot be applied to operand of type 'void'",
            e.span,
          );
        if (e.conditional) op = await this.it.nullConditional.receiver(op, e.span);
        return this.instanceMember(op, e, mode);
      }
    }
  }

  /** `T.name`: a static member, a constant, a nested type. */
  private async staticMember(
    type: TypeHandle,
    e: A.MemberAccess,
    mode: AccessMode,
  ): Promise<Resolved> {
    const name = e.name.name;
    const m = await this.it.members.member(type, name, e.typeArgs.length);
    if (!m) throw await this.missing(type, name, e.name.span, 'CS0117');
    switch (m.k) {
      case 'type':
        return { k: 'type', type: await this.it.types.construct(m.type, e.typeArgs, e.span, {}) };
      case 'methods': {
        const typeArgs = await this.it.types.typeArgs(e.typeArgs);
        return { k: 'methods', name, methods: m.methods, receiver: undefined, typeArgs };
      }
      case 'field':
        if (!m.field.isStatic && !m.field.constant) throw needsInstance(type, name, e.span);
        return {
          k: 'value',
          op: await this.it.memberOperands.fieldOperand(undefined, m.field, mode, e.span),
        };
      case 'property':
        if (!m.property.isStatic) throw needsInstance(type, name, e.span);
        return {
          k: 'value',
          op: await this.it.memberOperands.propertyOperand(undefined, m.property, [], mode, e.span),
        };
    }
  }

  /** `x.name` on a value. */
  private async instanceMember(
    op: Operand,
    e: A.MemberAccess,
    mode: AccessMode,
  ): Promise<Resolved> {
    const name = e.name.name;
    const type = op.type as TypeHandle;
    const members = this.it.members;
    const m =
      members.known(type, name, e.typeArgs.length) ??
      (await members.member(type, name, e.typeArgs.length));
    if (!m) throw await this.missing(type, name, e.name.span);
    switch (m.k) {
      case 'type':
        throw new CompileError(
          'CS0572',
          `'${name}': cannot reference a type through an expression; use the type name`,
          e.name.span,
        );
      case 'methods': {
        const typeArgs = await this.it.types.typeArgs(e.typeArgs);
        return { k: 'methods', name, methods: m.methods, receiver: op, typeArgs };
      }
      case 'field':
        if (m.field.isStatic || m.field.constant) throw staticThroughInstance(name, e.span);
        return {
          k: 'value',
          op: await this.it.memberOperands.fieldOperand(op, m.field, mode, e.span),
        };
      case 'property':
        if (m.property.isStatic) throw staticThroughInstance(name, e.span);
        return {
          k: 'value',
          op: await this.it.memberOperands.propertyOperand(op, m.property, [], mode, e.span),
        };
    }
  }

  private async missing(
    type: TypeHandle,
    name: string,
    span: A.Span,
    code = 'CS1061',
  ): Promise<CompileError> {
    const near = (await this.md.closestMemberNames?.(type, name).catch(() => [] as string[])) ?? [];
    const hint = near.length
      ? ` (closest: ${near
          .slice(0, 3)
          .map((n) => `'${n}'`)
          .join(', ')})`
      : code === 'CS1061'
        ? this.it.options.usings.includes('System.Linq')
          ? " (of the extension methods only System.Linq.Enumerable's are searched, on sequences: call any other as a static method)"
          : ' (System.Linq is not among the usings: add it for LINQ; other extension methods are called as static methods)'
        : '';
    return new CompileError(
      code,
      `'${await this.it.facts.name(type)}' does not contain a definition for '${name}'${hint}`,
      span,
      near.slice(0, 3),
    );
  }
}

/** CS0120: an instance member named without an instance. */
export function needsInstance(type: TypeHandle, name: string, span: A.Span): CompileError {
  return new CompileError(
    'CS0120',
    `an object reference is required to access the non-static member '${name}' (of ${type.key})`,
    span,
  );
}

function staticThroughInstance(name: string, span: A.Span): CompileError {
  return new CompileError(
    'CS0176',
    `static member '${name}' cannot be accessed with an instance reference; qualify it with a type name`,
    span,
  );
}
