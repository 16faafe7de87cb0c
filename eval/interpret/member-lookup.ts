// Member lookup (ECMA-334 §12.5): what a name finds on a type — a field, a property, a method
// group gathered along the base chain, or a nested type — and a type's indexers, searching
// classes and structs through their bases, interfaces through the interfaces they extend.

import type {
  FieldDescriptor,
  MethodDescriptor,
  PropertyDescriptor,
  TypeHandle,
} from '../runtime.js';
import type { Interpreter } from './interpreter.js';

/** What a member name finds on a type (§12.5). */
export type Member =
  | { readonly k: 'field'; readonly field: FieldDescriptor }
  | { readonly k: 'property'; readonly property: PropertyDescriptor }
  | { readonly k: 'methods'; readonly methods: readonly MethodDescriptor[] }
  | { readonly k: 'type'; readonly type: TypeHandle };

export class MemberLookup {
  constructor(private readonly it: Interpreter) {}

  private get md() {
    return this.it.md;
  }

  /**
   * Member lookup (§12.5): the nearest type in the base chain that declares the name decides
   * what it is; a method group gathers that name's methods from the whole chain (overriding and
   * hiding methods replace the base declaration with the same signature). Interfaces search
   * themselves, the interfaces they extend, then object.
   */
  member(type: TypeHandle, name: string, arity = 0): Promise<Member | undefined> {
    // metadata does not change during an evaluation: a loop body looks a member up once
    const key = `${type.key}\u0000${name}\u0000${arity}`;
    let found = this.found.get(key);
    if (!found) {
      found = this.lookup(type, name, arity);
      this.found.set(key, found);
      found.then(
        (m) => {
          if (m) this.resolved.set(key, m);
        },
        () => this.found.delete(key),
      );
    }
    return found;
  }

  /** A member `member` has already found (no promise per element), else undefined: ask it. */
  known(type: TypeHandle, name: string, arity = 0): Member | undefined {
    return this.resolved.get(`${type.key}\u0000${name}\u0000${arity}`);
  }

  private readonly resolved = new Map<string, Member>();

  private readonly found = new Map<string, Promise<Member | undefined>>();
  private readonly orders = new Map<string, Promise<TypeHandle[]>>();

  private async lookup(type: TypeHandle, name: string, arity: number): Promise<Member | undefined> {
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
      const nested = await this.it.facts.nested(
        levels[i]!,
        arity ? `${name}\`${arity}` : name,
        arity,
      );
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

  searchOrder(type: TypeHandle): Promise<TypeHandle[]> {
    let order = this.orders.get(type.key);
    if (!order) {
      order = this.order(type);
      this.orders.set(type.key, order);
      order.catch(() => this.orders.delete(type.key));
    }
    return order;
  }

  private async order(type: TypeHandle): Promise<TypeHandle[]> {
    const d = await this.md.describe(type);
    if (d.kind !== 'interface') return (await this.it.facts.chain(type)).map((c) => c.handle);
    return [type, ...(await this.md.interfaces(type)), await this.it.wk.keyword('object')];
  }
}
