// Types that exist only in the evaluator: anonymous types (`new { a = 1, p.Name }`) and what
// is built from them (IEnumerable<'a>, Func<int, 'a>, 'a[], List<'a>), which the game cannot
// name. The interpreter's metadata is the game's with these added: an anonymous type is a
// sealed class with one read-only property per member (their getters run client-side) and
// ToString/Equals/GetHashCode overrides; a generic instance over one takes its definition's
// descriptor with the client arguments. Both passes share one registry (kept in the notes),
// so a type bound in the first pass is the same in the second.

import type {
  FieldDescriptor,
  MemberSet,
  MetadataProvider,
  MethodDescriptor,
  PropertyDescriptor,
  TypeDescriptor,
  TypeHandle,
} from '../runtime.js';
import { csharpName } from '../format/type-names.js';

const PREFIX = '<client>';

interface ClientType {
  readonly descriptor: TypeDescriptor;
  /** An anonymous type's members, in order. */
  readonly members?: readonly { readonly name: string; readonly type: TypeHandle }[];
  readonly interfaces: () => Promise<TypeHandle[]>;
}

/** The registry both passes of one evaluation share. */
export class ClientTypeRegistry {
  readonly types = new Map<string, ClientType>();
}

export function isClientType(t: TypeHandle): boolean {
  return t.key.startsWith(PREFIX);
}

const EMPTY: MemberSet = { fields: [], properties: [], methods: [], nestedTypes: [] };

export class ClientTypes implements MetadataProvider {
  readonly closestMemberNames?: (type: TypeHandle, name: string) => Promise<string[]>;

  constructor(
    private readonly inner: MetadataProvider,
    private readonly registry: ClientTypeRegistry,
  ) {
    const closest = inner.closestMemberNames?.bind(inner);
    if (closest)
      this.closestMemberNames = (type, name) =>
        isClientType(type) ? this.memberNames(type) : closest(type, name);
  }

  private own(t: TypeHandle): ClientType | undefined {
    return isClientType(t) ? this.registry.types.get(t.key) : undefined;
  }

  /** The anonymous type of these members (one type per sequence of names and types, as C#). */
  async anonymous(members: readonly { name: string; type: TypeHandle }[]): Promise<TypeHandle> {
    const key = `${PREFIX}anon{${members.map((m) => `${m.name}:${m.type.key}`).join(',')}}`;
    if (!this.registry.types.has(key)) {
      const names: string[] = [];
      for (const m of members) names.push(`${await csharpName(this, m.type)} ${m.name}`);
      const object = (await this.inner.findType('System.Object'))!;
      this.registry.types.set(key, {
        descriptor: descriptor(key, `<anonymous type: ${names.join(', ')}>`, 'class', {
          baseType: object,
          isSealed: true,
        }),
        members,
        interfaces: () => Promise.resolve([]),
      });
    }
    return { key };
  }

  // ---------------------------------------------------------------- MetadataProvider

  findType(name: string): Promise<TypeHandle | undefined> {
    return this.inner.findType(name);
  }

  typesNamed(simpleName: string): Promise<TypeHandle[]> {
    return this.inner.typesNamed(simpleName);
  }

  hasNamespace(name: string): Promise<boolean> {
    return this.inner.hasNamespace(name);
  }

  async interfaces(type: TypeHandle): Promise<TypeHandle[]> {
    const own = this.own(type);
    return own ? own.interfaces() : this.inner.interfaces(type);
  }

  async describe(type: TypeHandle): Promise<TypeDescriptor> {
    const own = this.own(type);
    if (own) return own.descriptor;
    if (isClientType(type)) throw new Error(`unknown client type ${type.key}`);
    return this.inner.describe(type);
  }

  async members(type: TypeHandle, name: string): Promise<MemberSet> {
    const own = this.own(type);
    if (!own) return this.inner.members(type, name);
    if (own.members) return this.anonymousMemberSet(type, own, name);
    // IGrouping<K, 'a>.Key, the one member a client generic instance has of its own
    const d = own.descriptor;
    if (name === 'Key' && d.genericDefinition) {
      const def = await this.inner.describe(d.genericDefinition);
      if (def.fullName === 'System.Linq.IGrouping`2' && d.typeArguments[0])
        return { ...EMPTY, properties: [property(type, 'Key', d.typeArguments[0])] };
    }
    return EMPTY;
  }

  private async anonymousMemberSet(
    type: TypeHandle,
    own: ClientType,
    name: string,
  ): Promise<MemberSet> {
    const m = own.members!.find((x) => x.name === name);
    if (m) return { ...EMPTY, properties: [property(type, m.name, m.type)] };
    const bool = (await this.inner.findType('System.Boolean'))!;
    const int = (await this.inner.findType('System.Int32'))!;
    const string = (await this.inner.findType('System.String'))!;
    const object = (await this.inner.findType('System.Object'))!;
    if (name === 'ToString') return { ...EMPTY, methods: [method(type, name, [], string)] };
    if (name === 'GetHashCode') return { ...EMPTY, methods: [method(type, name, [], int)] };
    if (name === 'Equals') return { ...EMPTY, methods: [method(type, name, [object], bool)] };
    return EMPTY;
  }

  async memberNames(type: TypeHandle): Promise<string[]> {
    const own = this.own(type);
    if (!own) return this.inner.memberNames(type);
    return (own.members ?? []).map((m) => m.name);
  }

  async allFields(type: TypeHandle): Promise<FieldDescriptor[]> {
    return this.own(type) ? [] : this.inner.allFields(type);
  }

  async isAssignable(to: TypeHandle, from: TypeHandle): Promise<boolean> {
    if (to.key === from.key) return true;
    if (!isClientType(to) && !isClientType(from)) return this.inner.isAssignable(to, from);
    const target = await this.describe(to);
    if (target.fullName === 'System.Object') return true;
    for (const i of await this.interfaces(from)) if (i.key === to.key) return true;
    return false;
  }

  async constructGeneric(definition: TypeHandle, args: readonly TypeHandle[]): Promise<TypeHandle> {
    if (!args.some(isClientType)) return this.inner.constructGeneric(definition, args);
    const key = `${PREFIX}${definition.key}<${args.map((a) => a.key).join(',')}>`;
    if (!this.registry.types.has(key)) {
      const def = await this.inner.describe(definition);
      const enumerable = await this.inner.findType('System.Collections.Generic.IEnumerable`1');
      const nonGeneric = await this.inner.findType('System.Collections.IEnumerable');
      const element =
        def.fullName === 'System.Linq.IGrouping`2'
          ? args[1]
          : args.length === 1
            ? args[0]
            : undefined;
      const sequence = [
        'System.Collections.Generic.List`1',
        'System.Collections.Generic.HashSet`1',
        'System.Linq.IOrderedEnumerable`1',
        'System.Linq.IGrouping`2',
      ].includes(def.fullName);
      this.registry.types.set(key, {
        descriptor: {
          ...def,
          handle: { key },
          genericDefinition: definition,
          typeArguments: args,
        },
        interfaces: async () => {
          const out: TypeHandle[] = [];
          if (sequence && element && enumerable)
            out.push(await this.constructGeneric(enumerable, [element]));
          if (
            (sequence || def.fullName === 'System.Collections.Generic.IEnumerable`1') &&
            nonGeneric
          )
            out.push(nonGeneric);
          return out;
        },
      });
    }
    return { key };
  }

  async arrayOf(element: TypeHandle, rank: number): Promise<TypeHandle> {
    if (!isClientType(element)) return this.inner.arrayOf(element, rank);
    const key = `${PREFIX}${element.key}[${','.repeat(rank - 1)}]`;
    if (!this.registry.types.has(key)) {
      const array = (await this.inner.findType('System.Array'))!;
      const name = `${(await this.describe(element)).fullName}[]`;
      const enumerable = await this.inner.findType('System.Collections.Generic.IEnumerable`1');
      this.registry.types.set(key, {
        descriptor: {
          ...descriptor(key, name, 'array', { baseType: array }),
          elementType: element,
          rank,
        },
        interfaces: async () =>
          enumerable ? [await this.constructGeneric(enumerable, [element])] : [],
      });
    }
    return { key };
  }

  instantiateMethod(
    method: MethodDescriptor,
    args: readonly TypeHandle[],
  ): Promise<MethodDescriptor> {
    return this.inner.instantiateMethod(method, args);
  }
}

function descriptor(
  key: string,
  fullName: string,
  kind: TypeDescriptor['kind'],
  extra: Partial<TypeDescriptor>,
): TypeDescriptor {
  return {
    handle: { key },
    fullName,
    namespace: '',
    name: fullName,
    kind,
    baseType: undefined,
    elementType: undefined,
    rank: 0,
    enumUnderlying: undefined,
    genericDefinition: undefined,
    typeArguments: [],
    isAbstract: false,
    isSealed: false,
    ...extra,
  };
}

function method(
  declaringType: TypeHandle,
  name: string,
  parameters: readonly TypeHandle[],
  returnType: TypeHandle,
): MethodDescriptor {
  return {
    handle: `client:${name}`,
    name,
    declaringType,
    isStatic: false,
    isVirtual: true,
    isAbstract: false,
    isConstructor: false,
    isPublic: true,
    parameters: parameters.map((type, i) => ({
      name: `p${i}`,
      type,
      refKind: 'none',
      optional: false,
      defaultValue: undefined,
      isParams: false,
    })),
    returnType,
    genericArity: 0,
  };
}

function property(declaringType: TypeHandle, name: string, type: TypeHandle): PropertyDescriptor {
  return {
    name,
    declaringType,
    type,
    getter: method(declaringType, `get_${name}`, [], type),
    setter: undefined,
    isStatic: false,
    parameters: [],
  };
}
