// Name lookup (ECMA-334 §7.6, §12.8.4, §12.8.7): what a simple name or `a.b` denotes — a local,
// a game builtin, a type, a namespace, a field, a property or a method group — and type names
// (`int[]`, `List<int>`, `Outer.Inner`, `int?`) to runtime types. Inside a method's scope (a
// debugger's frame) a simple name also finds the method's variables and, as in its body, the
// members of its enclosing type and of the types that one is nested in, then types of its
// namespace; `this` is the method's receiver.

import type * as A from '../syntax/index.js';
import type {
  FieldDescriptor,
  MethodDescriptor,
  PropertyDescriptor,
  TypeHandle,
} from '../runtime.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { constantOf } from '../semantics/constant-folding.js';
import { CompileError, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { ConstantValue, Operand, Resolved } from './operand.js';
import type { ScopeVariable } from './scope.js';
import { fromPrimitive, toPrimitive } from './primitives.js';
import {
  asValue,
  primitive,
  type DecimalValue,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import {
  DECIMAL_MAX_VALUE,
  DECIMAL_MIN_VALUE,
  DECIMAL_ONE,
  DECIMAL_ZERO,
  makeDecimal,
} from '../semantics/decimal.js';

const DECIMAL_CONSTANTS: Readonly<Record<string, DecimalValue>> = {
  Zero: DECIMAL_ZERO,
  One: DECIMAL_ONE,
  MinusOne: makeDecimal(true, 0, 1n),
  MaxValue: DECIMAL_MAX_VALUE,
  MinValue: DECIMAL_MIN_VALUE,
};

/** What a member name finds on a type (§12.5). */
export type Member =
  | { readonly k: 'field'; readonly field: FieldDescriptor }
  | { readonly k: 'property'; readonly property: PropertyDescriptor }
  | { readonly k: 'methods'; readonly methods: readonly MethodDescriptor[] }
  | { readonly k: 'type'; readonly type: TypeHandle };

export interface TypeOptions {
  readonly allowVoid?: boolean;
  /** `List<>` inside typeof. */
  readonly allowUnbound?: boolean;
}

/** Whether an access only needs the member's location (the target of `=`), not its value. */
export type AccessMode = 'read' | 'write';

export class Lookup {
  constructor(private readonly it: Interpreter) {}

  /** The enclosing type, then the types it is nested in (innermost first). */
  private enclosing: Promise<TypeHandle[]> | undefined;

  private get md() {
    return this.it.md;
  }

  private get scope() {
    return this.it.options.scope;
  }

  // ---------------------------------------------------------------- simple names

  async simpleName(e: A.Name, mode: AccessMode = 'read'): Promise<Resolved> {
    if (e.alias) {
      if (e.alias.name !== 'global')
        throw new CompileError('CS0432', `alias '${e.alias.name}' not found`, e.alias.span);
      const t = await this.typeIn('', e.name, e.typeArgs, e.span);
      if (t) return { k: 'type', type: t };
      if (await this.md.hasNamespace(e.name)) return { k: 'namespace', name: e.name };
      throw new CompileError(
        'CS0400',
        `the type or namespace name '${e.name}' could not be found in the global namespace`,
        e.span,
      );
    }
    if (e.typeArgs.length === 0) {
      const local = this.it.localOperand(e.name, e.span, mode);
      if (local) return { k: 'value', op: local };
      const variable = this.scope?.variables.get(e.name);
      if (variable) return { k: 'value', op: await this.scopeOperand(e.name, variable, mode) };
    }
    if (this.scope) {
      const member = await this.enclosingMember(e, mode);
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
    const t = await this.typeBySimpleName(e.name, e.typeArgs, e.span);
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
    return { k: 'value', op: await this.scopeOperand('this', self, mode) };
  }

  /** A scope variable as an operand: a variable (a place) when the host can write it. */
  private async scopeOperand(
    name: string,
    variable: ScopeVariable,
    mode: AccessMode,
  ): Promise<Operand> {
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
  private async enclosingMember(e: A.Name, mode: AccessMode): Promise<Resolved | undefined> {
    const types = await this.enclosingTypes();
    for (const [depth, type] of types.entries()) {
      const m = await this.member(type, e.name, e.typeArgs.length);
      if (!m) continue;
      const self = depth === 0 ? this.scope?.self : undefined;
      const receiver = async () =>
        self
          ? this.scopeOperand('this', self, 'read')
          : Promise.reject(this.needsInstance(type, e.name, e.span));
      switch (m.k) {
        case 'type':
          return { k: 'type', type: await this.construct(m.type, e.typeArgs, e.span, {}) };
        case 'methods': {
          const typeArgs = await this.typeArgs(e.typeArgs);
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
            return { k: 'value', op: await this.fieldOperand(undefined, m.field, mode, e.span) };
          return {
            k: 'value',
            op: await this.fieldOperand(await receiver(), m.field, mode, e.span),
          };
        case 'property':
          if (m.property.isStatic)
            return {
              k: 'value',
              op: await this.propertyOperand(undefined, m.property, [], mode, e.span),
            };
          return {
            k: 'value',
            op: await this.propertyOperand(await receiver(), m.property, [], mode, e.span),
          };
      }
    }
    return undefined;
  }

  /** The enclosing type and the types it is nested in, innermost first. */
  private enclosingTypes(): Promise<TypeHandle[]> {
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
  private async enclosingNamespaces(): Promise<string[]> {
    const types = await this.enclosingTypes();
    const outermost = types.at(-1);
    if (!outermost) return [];
    const ns = (await this.md.describe(outermost)).namespace;
    const out: string[] = [];
    for (let n = ns; n; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') out.push(n);
    return out;
  }

  /** A type named in a namespace (`''` is the global one), constructed with its arguments. */
  private async typeIn(
    ns: string,
    name: string,
    typeArgs: readonly A.TypeNode[],
    span: A.Span,
    options: TypeOptions = {},
  ): Promise<TypeHandle | undefined> {
    const arity = typeArgs.length;
    const def = await this.md.findType(`${ns ? `${ns}.` : ''}${name}${arity ? `\`${arity}` : ''}`);
    return def && this.construct(def, typeArgs, span, options);
  }

  private async construct(
    def: TypeHandle,
    typeArgs: readonly A.TypeNode[],
    span: A.Span,
    options: TypeOptions,
  ): Promise<TypeHandle> {
    if (typeArgs.length === 0) return def;
    if (typeArgs.every((a) => a.kind === 'OmittedTypeArgument')) {
      if (!options.allowUnbound)
        throw new CompileError('CS7003', 'an unbound generic name is only valid in typeof', span);
      return def;
    }
    if (typeArgs.some((a) => a.kind === 'OmittedTypeArgument'))
      throw new CompileError('CS1031', 'a type argument is missing', span);
    const args: TypeHandle[] = [];
    for (const a of typeArgs) args.push(await this.type(a));
    return this.md.constructGeneric(def, args);
  }

  /**
   * A type by simple name: the global namespace, then the `using` namespaces (two hits are
   * ambiguous, CS0104), then — when enabled — any namespace where the name is unique.
   */
  private async typeBySimpleName(
    name: string,
    typeArgs: readonly A.TypeNode[],
    span: A.Span,
    options: TypeOptions = {},
  ): Promise<TypeHandle | undefined> {
    const arity = typeArgs.length;
    // inside a method: the nested types of its type (and outer types), then its namespaces
    for (const type of await this.enclosingTypes()) {
      const nested = await this.nestedType(type, name, arity);
      if (nested) return this.construct(nested, typeArgs, span, options);
    }
    for (const ns of await this.enclosingNamespaces()) {
      const t = await this.typeIn(ns, name, typeArgs, span, options);
      if (t) return t;
    }
    const global = await this.typeIn('', name, typeArgs, span, options);
    if (global) return global;
    // a namespace of the global namespace hides types the usings import (§7.6.2): the caller
    // resolves it as the namespace
    if (arity === 0 && (await this.md.hasNamespace(name))) return undefined;
    const reflection = `${name}${arity ? `\`${arity}` : ''}`;
    const found = new Map<string, { ns: string; def: TypeHandle }>();
    for (const ns of this.it.options.usings) {
      const def = await this.md.findType(`${ns}.${reflection}`);
      if (def) found.set(def.key, { ns, def });
    }
    if (found.size > 1) {
      const names = [...found.values()].map((f) => `${f.ns}.${name}`);
      throw new CompileError(
        'CS0104',
        `'${name}' is an ambiguous reference between ${names.map((n) => `'${n}'`).join(' and ')}`,
        span,
      );
    }
    const only = [...found.values()][0];
    if (only) return this.construct(only.def, typeArgs, span, options);
    if (this.it.options.anyNamespace) {
      const all = await this.md.typesNamed(reflection);
      if (all.length === 1) return this.construct(all[0]!, typeArgs, span, options);
      if (all.length > 1) {
        const names = await Promise.all(all.slice(0, 5).map((t) => this.it.facts.fullName(t)));
        throw new CompileError(
          'CS0104',
          `'${name}' is ambiguous: ${names.join(', ')}${all.length > 5 ? ', ...' : ''}; qualify it with its namespace`,
          span,
        );
      }
    }
    return undefined;
  }

  // ---------------------------------------------------------------- type names

  async type(node: A.TypeNode, options: TypeOptions = {}): Promise<TypeHandle> {
    switch (node.kind) {
      case 'PredefinedType':
        if (node.name === 'void' && !options.allowVoid)
          throw new CompileError('CS1547', "'void' cannot be used here", node.span);
        return this.it.wk.keyword(node.name);
      case 'ArrayType': {
        let t = await this.type(node.elementType);
        for (const rank of [...node.ranks].reverse()) t = await this.md.arrayOf(t, rank);
        return t;
      }
      case 'NullableType': {
        const u = await this.type(node.underlying);
        return (await this.it.facts.isValueType(u)) && !(await this.it.facts.nullableUnderlying(u))
          ? this.nullableOf(u)
          : u;
      }
      case 'OmittedTypeArgument':
        throw new CompileError('CS1031', 'a type is expected here', node.span);
      case 'NamedType':
        return this.namedType(node, options);
    }
  }

  async nullableOf(t: TypeHandle): Promise<TypeHandle> {
    return this.md.constructGeneric(await this.it.wk.named('System.Nullable`1'), [t]);
  }

  private async namedType(node: A.NamedType, options: TypeOptions): Promise<TypeHandle> {
    const [first, ...rest] = node.parts;
    if (!first) throw new CompileError('CS1001', 'a type name is expected', node.span);
    let ns: string | undefined;
    let type: TypeHandle | undefined;
    if (node.alias) {
      if (node.alias.name !== 'global')
        throw new CompileError('CS0432', `alias '${node.alias.name}' not found`, node.alias.span);
      type = await this.typeIn('', first.name.name, first.typeArgs, first.span, options);
    } else {
      type = await this.typeBySimpleName(first.name.name, first.typeArgs, first.span, options);
    }
    if (!type) {
      if (first.typeArgs.length || !(await this.md.hasNamespace(first.name.name))) {
        throw new CompileError(
          'CS0246',
          `the type or namespace name '${first.name.name}' could not be found (a using directive or an assembly reference may be missing)`,
          first.span,
        );
      }
      ns = first.name.name;
    }
    for (const part of rest) {
      if (type) {
        const nested = await this.nestedType(type, part.name.name, part.typeArgs.length);
        if (!nested)
          throw new CompileError(
            'CS0426',
            `the type name '${part.name.name}' does not exist in the type '${await this.it.facts.name(type)}'`,
            part.span,
          );
        type = await this.construct(nested, part.typeArgs, part.span, options);
        continue;
      }
      const t = await this.typeIn(ns!, part.name.name, part.typeArgs, part.span, options);
      if (t) {
        type = t;
        continue;
      }
      const next = `${ns}.${part.name.name}`;
      if (part.typeArgs.length || !(await this.md.hasNamespace(next))) {
        throw new CompileError(
          'CS0234',
          `the type or namespace name '${part.name.name}' does not exist in the namespace '${ns}'`,
          part.span,
        );
      }
      ns = next;
    }
    if (!type)
      throw new CompileError('CS0118', `'${ns}' is a namespace but is used like a type`, node.span);
    return type;
  }

  /** A nested type of a type or of one of its bases. */
  private async nestedType(
    type: TypeHandle,
    name: string,
    arity: number,
  ): Promise<TypeHandle | undefined> {
    const reflection = arity ? `${name}\`${arity}` : name;
    for (const d of await this.it.facts.chain(type)) {
      const hit = (await this.md.members(d.handle, reflection)).nestedTypes[0];
      if (hit) return hit;
    }
    return undefined;
  }

  // ---------------------------------------------------------------- member access

  async memberAccess(e: A.MemberAccess, mode: AccessMode = 'read'): Promise<Resolved> {
    const target = await this.it.resolveInChain(e.target);
    const name = e.name.name;
    switch (target.k) {
      case 'namespace': {
        const t = await this.typeIn(target.name, name, e.typeArgs, e.span);
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
        if (await this.isVoid(op.type))
          throw new CompileError(
            'CS0023',
            "the '.' operator cannot be applied to operand of type 'void'",
            e.span,
          );
        if (e.conditional) op = await this.it.conditionalReceiver(op, e.span);
        return this.instanceMember(op, e, mode);
      }
    }
  }

  async isVoid(t: Operand['type']): Promise<boolean> {
    return t !== 'null' && this.it.facts.same(t, await this.it.wk.keyword('void'));
  }

  /** `T.name`: a static member, a constant, a nested type. */
  private async staticMember(
    type: TypeHandle,
    e: A.MemberAccess,
    mode: AccessMode,
  ): Promise<Resolved> {
    const name = e.name.name;
    const m = await this.member(type, name, e.typeArgs.length);
    if (!m) throw await this.missing(type, name, e.name.span, 'CS0117');
    switch (m.k) {
      case 'type':
        return { k: 'type', type: await this.construct(m.type, e.typeArgs, e.span, {}) };
      case 'methods': {
        const typeArgs = await this.typeArgs(e.typeArgs);
        return { k: 'methods', name, methods: m.methods, receiver: undefined, typeArgs };
      }
      case 'field':
        if (!m.field.isStatic && !m.field.constant) throw this.needsInstance(type, name, e.span);
        return { k: 'value', op: await this.fieldOperand(undefined, m.field, mode, e.span) };
      case 'property':
        if (!m.property.isStatic) throw this.needsInstance(type, name, e.span);
        return {
          k: 'value',
          op: await this.propertyOperand(undefined, m.property, [], mode, e.span),
        };
    }
  }

  private needsInstance(type: TypeHandle, name: string, span: A.Span): CompileError {
    return new CompileError(
      'CS0120',
      `an object reference is required to access the non-static member '${name}' (of ${type.key})`,
      span,
    );
  }

  /** `x.name` on a value. */
  private async instanceMember(
    op: Operand,
    e: A.MemberAccess,
    mode: AccessMode,
  ): Promise<Resolved> {
    const name = e.name.name;
    const type = op.type as TypeHandle;
    const m = await this.member(type, name, e.typeArgs.length);
    if (!m) throw await this.missing(type, name, e.name.span);
    switch (m.k) {
      case 'type':
        throw new CompileError(
          'CS0572',
          `'${name}': cannot reference a type through an expression; use the type name`,
          e.name.span,
        );
      case 'methods': {
        const typeArgs = await this.typeArgs(e.typeArgs);
        return { k: 'methods', name, methods: m.methods, receiver: op, typeArgs };
      }
      case 'field':
        if (m.field.isStatic || m.field.constant) throw this.staticThroughInstance(name, e.span);
        return { k: 'value', op: await this.fieldOperand(op, m.field, mode, e.span) };
      case 'property':
        if (m.property.isStatic) throw this.staticThroughInstance(name, e.span);
        return { k: 'value', op: await this.propertyOperand(op, m.property, [], mode, e.span) };
    }
  }

  private staticThroughInstance(name: string, span: A.Span): CompileError {
    return new CompileError(
      'CS0176',
      `static member '${name}' cannot be accessed with an instance reference; qualify it with a type name`,
      span,
    );
  }

  private async typeArgs(nodes: readonly A.TypeNode[]): Promise<TypeHandle[]> {
    const out: TypeHandle[] = [];
    for (const n of nodes) out.push(await this.type(n));
    return out;
  }

  /**
   * Member lookup (§12.5): the nearest type in the base chain that declares the name decides
   * what it is; a method group gathers that name's methods from the whole chain (overriding and
   * hiding methods replace the base declaration with the same signature). Interfaces search
   * themselves, the interfaces they extend, then object.
   */
  async member(type: TypeHandle, name: string, arity = 0): Promise<Member | undefined> {
    const levels = await this.searchOrder(type);
    for (let i = 0; i < levels.length; i++) {
      const set = await this.md.members(levels[i]!, name);
      const field = set.fields[0];
      if (field) return { k: 'field', field };
      const property = set.properties.find((p) => p.parameters.length === 0);
      if (property) return { k: 'property', property };
      if (set.methods.some((m) => !m.isConstructor)) {
        const methods: MethodDescriptor[] = [];
        const seen = new Set<string>();
        for (const level of levels.slice(i)) {
          for (const method of (await this.md.members(level, name)).methods) {
            if (method.isConstructor) continue;
            const sig = `${method.genericArity}(${method.parameters.map((p) => `${p.refKind}${p.type.key}`).join(',')})`;
            if (seen.has(sig)) continue;
            seen.add(sig);
            methods.push(method);
          }
        }
        return { k: 'methods', methods };
      }
      const nested = (await this.md.members(levels[i]!, arity ? `${name}\`${arity}` : name))
        .nestedTypes[0];
      if (nested) return { k: 'type', type: nested };
    }
    return undefined;
  }

  /** Indexers of a type (properties with parameters), nearest declaring type first. */
  async indexers(type: TypeHandle): Promise<PropertyDescriptor[]> {
    const out: PropertyDescriptor[] = [];
    for (const level of await this.searchOrder(type)) {
      // C# names the indexer by DefaultMemberAttribute; every corlib and Unity collection uses Item
      for (const name of ['Item', 'Chars']) {
        for (const p of (await this.md.members(level, name)).properties) {
          if (p.parameters.length > 0) out.push(p);
        }
      }
      if (out.length) return out;
    }
    return out;
  }

  async searchOrder(type: TypeHandle): Promise<TypeHandle[]> {
    const d = await this.md.describe(type);
    if (d.kind !== 'interface') return (await this.it.facts.chain(type)).map((c) => c.handle);
    return [type, ...(await this.md.interfaces(type)), await this.it.wk.keyword('object')];
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
        ? ' (extension methods are not searched: call one as a static method, e.g. Enumerable.Sum(xs))'
        : '';
    return new CompileError(
      code,
      `'${await this.it.facts.name(type)}' does not contain a definition for '${name}'${hint}`,
      span,
      near.slice(0, 3),
    );
  }

  // ---------------------------------------------------------------- fields and properties

  /** A field as an operand: a constant, a static, a class instance's or a struct copy's field. */
  async fieldOperand(
    receiver: Operand | undefined,
    field: FieldDescriptor,
    mode: AccessMode,
    span: A.Span,
  ): Promise<Operand> {
    if (field.constant) {
      if (mode === 'write')
        throw new CompileError('CS0131', `the constant '${field.name}' cannot be assigned`, span);
      const constant = constantValueOf(field.constant);
      return constant
        ? { type: field.type, value: field.constant, constant }
        : { type: field.type, value: field.constant };
    }
    if (!receiver) {
      const decimalConstant = await this.decimalConstant(field);
      if (decimalConstant) {
        if (mode === 'write')
          throw new CompileError('CS0131', `the constant '${field.name}' cannot be assigned`, span);
        return decimalConstant;
      }
      const place = { k: 'static', field } as const;
      return { type: field.type, value: mode === 'read' ? await this.it.read(place) : VOID, place };
    }
    const rv = receiver.value;
    if (await this.it.facts.isValueType(receiver.type)) {
      const index = await this.instanceFieldIndex(field);
      const place = receiver.place
        ? ({ k: 'struct-field', parent: receiver.place, index, field } as const)
        : undefined;
      let value: EvalValue = VOID;
      if (!this.it.dry && mode === 'read') {
        if (rv.kind !== 'struct') throw new Error(`a field of a ${rv.kind} value`);
        value = rv.fields[index] ?? NULL;
      }
      if (mode === 'write' && !place) {
        throw new CompileError(
          'CS1612',
          `cannot modify the value of '${field.name}': its struct is not a variable (store it in a local first)`,
          span,
        );
      }
      return place ? { type: field.type, value, place } : { type: field.type, value };
    }
    if (!this.it.dry && rv.kind === 'null') throw Messages.nullReference();
    const place = { k: 'field', target: rv, field } as const;
    return { type: field.type, value: mode === 'read' ? await this.it.read(place) : VOID, place };
  }

  /**
   * decimal.Zero, One, MinusOne, MaxValue, MinValue: `const decimal` in C#, but stored as
   * static readonly fields with DecimalConstantAttribute, which the compiler reads as constants.
   */
  private async decimalConstant(field: FieldDescriptor): Promise<Operand | undefined> {
    if (!field.isStatic || !field.isReadOnly) return undefined;
    const value = DECIMAL_CONSTANTS[field.name];
    if (!value || (await this.it.facts.fullName(field.declaringType)) !== 'System.Decimal')
      return undefined;
    const p = asValue(primitive('decimal', value));
    return {
      type: field.type,
      value: fromPrimitive(p),
      constant: { kind: 'number', c: constantOf(p) },
    };
  }

  private async instanceFieldIndex(field: FieldDescriptor): Promise<number> {
    const fields = (await this.md.allFields(field.declaringType)).filter((f) => !f.isStatic);
    const i = fields.findIndex((f) => f.name === field.name);
    if (i < 0) throw new Error(`field ${field.name} is not an instance field of its type`);
    return i;
  }

  /** A property or indexer: read through its getter, assignable through its setter. */
  async propertyOperand(
    receiver: Operand | undefined,
    property: PropertyDescriptor,
    args: readonly EvalValue[],
    mode: AccessMode,
    span: A.Span,
  ): Promise<Operand> {
    const target = { property, receiver: receiver?.value, receiverPlace: receiver?.place, args };
    if (mode === 'write') {
      if (!property.setter)
        throw new CompileError(
          'CS0200',
          `property or indexer '${property.name}' cannot be assigned to: it is read only`,
          span,
        );
      // a struct's setter on a copy C# cannot name would change nothing (CS1612)
      if (receiver && !receiver.place && (await this.it.facts.isValueType(receiver.type))) {
        throw new CompileError(
          'CS1612',
          `cannot modify the value of '${property.name}': its struct is not a variable (store it in a local first)`,
          span,
        );
      }
      return { type: property.type, value: VOID, property: target };
    }
    if (!property.getter)
      throw new CompileError(
        'CS0154',
        `the property or indexer '${property.name}' cannot be used in this context because it lacks the get accessor`,
        span,
      );
    const value = await this.it.invoker.callGetter(target);
    return { type: property.type, value, property: target };
  }
}

/** A constant field's value as the language sees it (numbers fold; strings and null too). */
export function constantValueOf(v: EvalValue): ConstantValue | undefined {
  if (v.kind === 'null') return { kind: 'null' };
  if (v.kind === 'string' && v.text !== undefined) return { kind: 'string', value: v.text };
  if (v.kind === 'enum') {
    const big = v.underlying === 'long' || v.underlying === 'ulong';
    return {
      kind: 'number',
      c: constantOf({
        kind: v.underlying,
        value: big ? BigInt(v.value) : Number(v.value),
      } as PrimitiveValue),
    };
  }
  const p = toPrimitive(v);
  return p ? { kind: 'number', c: constantOf(p) } : undefined;
}
