// Type names to runtime types (ECMA-334 §7.6, §8): keywords, arrays, `T?`, generic
// constructions (`List<int>`, `List<>` inside typeof), qualified names through namespaces and
// nested types (`Outer.Inner`), and a simple type name as C# finds it: the nested types of the
// enclosing types (inside a method's scope), its namespaces, the global namespace, the usings.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export interface TypeOptions {
  readonly allowVoid?: boolean;
  /** `List<>` inside typeof. */
  readonly allowUnbound?: boolean;
}

export class TypeNames {
  constructor(private readonly it: Interpreter) {}

  private get md() {
    return this.it.md;
  }

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

  async isVoid(t: Operand['type']): Promise<boolean> {
    return t !== 'null' && this.it.facts.same(t, await this.it.wk.keyword('void'));
  }

  /** isVoid without a promise once void's type is found (else undefined: ask isVoid). */
  knownVoid(t: Operand['type']): boolean | undefined {
    if (t === 'null') return false;
    const v = this.it.wk.knownKeyword('void');
    return v && this.it.facts.same(t, v);
  }

  async typeArgs(nodes: readonly A.TypeNode[]): Promise<TypeHandle[]> {
    const out: TypeHandle[] = [];
    for (const n of nodes) out.push(await this.type(n));
    return out;
  }

  /** A type named in a namespace (`''` is the global one), constructed with its arguments. */
  async typeIn(
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

  async construct(
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
  async typeBySimpleName(
    name: string,
    typeArgs: readonly A.TypeNode[],
    span: A.Span,
    options: TypeOptions = {},
  ): Promise<TypeHandle | undefined> {
    const arity = typeArgs.length;
    // inside a method: the nested types of its type (and outer types), then its namespaces
    for (const type of await this.it.enclosing.types()) {
      const nested = await this.nestedType(type, name, arity);
      if (nested) return this.construct(nested, typeArgs, span, options);
    }
    for (const ns of await this.it.enclosing.namespaces()) {
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
  async nestedType(type: TypeHandle, name: string, arity: number): Promise<TypeHandle | undefined> {
    const reflection = arity ? `${name}\`${arity}` : name;
    for (const d of await this.it.facts.chain(type)) {
      const hit = await this.it.facts.nested(d.handle, reflection, arity);
      if (hit) return hit;
    }
    return undefined;
  }
}
