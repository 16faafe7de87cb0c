// Builds one type of the fake game from its spec: the descriptor, and the fields, properties
// (auto-properties over backing fields), indexers, methods and constructors it declares, with
// type strings resolved in the scope of its type parameters (and a method's own).

import type {
  FieldDescriptor,
  MethodDescriptor,
  ParameterDescriptor,
  PropertyDescriptor,
  TypeDescriptor,
  TypeHandle,
  TypeKind,
} from '../runtime.js';
import type { EvalValue, IntegralKind } from '../values.js';
import type { FakeMetadata } from './fake-metadata.js';
import {
  KEYWORD_NAMES,
  parseParam,
  type EnumSpec,
  type Impl,
  type MethodSpec,
  type ParamSpec,
  type SetterImpl,
  type TypeSpec,
} from './fake-specs.js';

export type Scope = ReadonlyMap<string, TypeHandle>;

export interface TypeEntry {
  readonly handle: TypeHandle;
  readonly fullName: string;
  readonly namespace: string;
  readonly name: string;
  readonly kind: TypeKind;
  readonly assembly: string;
  readonly spec: TypeSpec;
  /** Type parameter names → a definition's parameters or a closed type's arguments. */
  readonly scope: Scope;
  readonly definition: TypeHandle | undefined;
  readonly typeArgs: readonly TypeHandle[];
  readonly element: TypeHandle | undefined;
  readonly rank: number;
  readonly enumSpec: EnumSpec | undefined;
  readonly nested: TypeHandle[];
  readonly isNested: boolean;
  /** A generic parameter (of a type or a method). */
  readonly isParameter: boolean;
  built?: Built;
}

export interface Built {
  readonly descriptor: TypeDescriptor;
  readonly fields: FieldDescriptor[];
  readonly properties: PropertyDescriptor[];
  readonly methods: MethodDescriptor[];
  readonly interfaces: TypeHandle[];
}

/** A MethodDescriptor's handle: what the fake game runs for it. */
export interface FakeMethod {
  readonly impl: Impl | undefined;
  /** Auto-property accessors read and write their backing field. */
  readonly auto: { readonly field: FieldDescriptor; readonly accessor: 'get' | 'set' } | undefined;
  readonly typeArgs: readonly TypeHandle[];
  /** A generic definition, for instantiateMethod. */
  readonly generic:
    { readonly spec: MethodSpec; readonly name: string; readonly owner: TypeEntry } | undefined;
}

/** Accessor bodies: given, over a backing field (auto-property), or none (an interface's). */
type PropertyBody = { get?: Impl; set?: SetterImpl } | { field: FieldDescriptor } | 'abstract';

/** Builds one type's descriptor and declared members from its spec. */
export class Builder {
  private readonly fields: FieldDescriptor[] = [];
  private readonly properties: PropertyDescriptor[] = [];
  private readonly methods: MethodDescriptor[] = [];

  constructor(
    private readonly md: FakeMetadata,
    private readonly e: TypeEntry,
  ) {}

  private type(text: string, scope = this.e.scope): TypeHandle {
    return this.md.resolve(text, scope);
  }

  build(): Built {
    const { e } = this;
    const spec = e.spec;
    if (e.enumSpec) this.enumFields(e.enumSpec);
    for (const [name, f] of Object.entries(spec.fields ?? {})) {
      const s = typeof f === 'string' ? { type: f } : f;
      this.field(name, this.type(s.type), {
        isStatic: !!s.static || s.const !== undefined,
        constant: s.const,
        isReadOnly: !!s.readonly,
        isPublic: !s.private,
      });
    }
    for (const [name, p] of Object.entries(spec.properties ?? {})) {
      const s = typeof p === 'string' ? { type: p } : p;
      const type = this.type(s.type);
      let body: PropertyBody = s;
      if (!s.get && !s.set)
        body =
          e.kind === 'interface'
            ? 'abstract'
            : {
                field: this.field(`<${name}>k__BackingField`, type, {
                  isStatic: !!s.static,
                  constant: undefined,
                  isReadOnly: !!s.readOnly,
                  isPublic: false,
                }),
              };
      const accessors = s.readOnly ? 'get' : 'both';
      this.property(name, type, [], !!s.static, !!s.virtual, body, accessors);
    }
    for (const ix of spec.indexers ?? []) {
      const params = ix.params.map((p) => this.parameter(p, this.e.scope));
      this.property(ix.name ?? 'Item', this.type(ix.type), params, false, false, ix, 'both');
    }
    for (const [name, list] of Object.entries(spec.methods ?? {}))
      for (const m of Array.isArray(list) ? (list as MethodSpec[]) : [list as MethodSpec])
        this.methods.push(this.method(name, m, this.e.scope, []));
    const ctors = spec.ctors ?? (e.kind === 'class' && !e.isParameter && !e.element ? [{}] : []);
    for (const c of ctors) this.methods.push(this.method('.ctor', c, this.e.scope, []));
    return {
      descriptor: this.descriptor(),
      fields: this.fields,
      properties: this.properties,
      methods: this.methods,
      interfaces: (spec.interfaces ?? []).map((i) => this.type(i)),
    };
  }

  private descriptor(): TypeDescriptor {
    const { e } = this;
    return {
      handle: e.handle,
      fullName: e.fullName,
      namespace: e.namespace,
      name: e.name,
      kind: e.kind,
      baseType: this.baseType(),
      elementType: e.element,
      rank: e.rank,
      enumUnderlying: e.enumSpec ? KEYWORD_NAMES[e.enumSpec.underlying ?? 'int'] : undefined,
      genericDefinition: e.definition,
      typeArguments: e.typeArgs,
      isAbstract: !!e.spec.abstract || e.kind === 'interface',
      isSealed: !!e.spec.sealed || e.kind === 'struct' || e.kind === 'enum',
    };
  }

  private baseType(): TypeHandle | undefined {
    const { e } = this;
    if (e.spec.base) return this.type(e.spec.base);
    if (e.kind === 'interface' || e.fullName === 'System.Object') return undefined;
    const base: Partial<Record<TypeKind, string>> = {
      struct: 'System.ValueType',
      enum: 'System.Enum',
      array: 'System.Array',
    };
    return this.md.named(base[e.kind] ?? 'System.Object');
  }

  private enumFields(spec: EnumSpec): void {
    const underlying: IntegralKind = spec.underlying ?? 'int';
    const utype = this.md.named(underlying);
    const big = underlying === 'long' || underlying === 'ulong';
    const flags = { isReadOnly: false, isPublic: true };
    this.field('value__', utype, { ...flags, isStatic: false, constant: undefined });
    for (const [name, value] of Object.entries(spec.members)) {
      const constant: EvalValue = {
        kind: 'enum',
        type: this.e.handle,
        underlying,
        value: big ? BigInt(value) : Number(value),
      };
      this.field(name, this.e.handle, { ...flags, isStatic: true, constant });
    }
  }

  private field(
    name: string,
    type: TypeHandle,
    flags: Pick<FieldDescriptor, 'isStatic' | 'constant' | 'isReadOnly' | 'isPublic'>,
  ): FieldDescriptor {
    const f: FieldDescriptor = {
      handle: { name },
      name,
      declaringType: this.e.handle,
      type,
      ...flags,
    };
    this.fields.push(f);
    return f;
  }

  private property(
    name: string,
    type: TypeHandle,
    parameters: ParameterDescriptor[],
    isStatic: boolean,
    isVirtual: boolean,
    body: PropertyBody,
    accessors: 'get' | 'both',
  ): void {
    const accessor = (kind: 'get' | 'set', handle: FakeMethod): MethodDescriptor => ({
      ...this.plainMethod(`${kind}_${name}`, isStatic, isVirtual, handle),
      parameters: kind === 'get' ? parameters : [...parameters, valueParameter(type)],
      returnType: kind === 'get' ? type : undefined,
    });
    let getter: MethodDescriptor | undefined;
    let setter: MethodDescriptor | undefined;
    if (body === 'abstract') {
      getter = accessor('get', NO_BODY);
      if (accessors === 'both') setter = accessor('set', NO_BODY);
    } else if ('field' in body) {
      getter = accessor('get', { ...NO_BODY, auto: { field: body.field, accessor: 'get' } });
      if (accessors === 'both')
        setter = accessor('set', { ...NO_BODY, auto: { field: body.field, accessor: 'set' } });
    } else {
      const { get, set } = body;
      if (get) getter = accessor('get', { ...NO_BODY, impl: get });
      if (set) setter = accessor('set', { ...NO_BODY, impl: (c) => set(c, c.args.at(-1)!) });
    }
    for (const m of [getter, setter]) if (m) this.methods.push(m);
    this.properties.push({
      name,
      declaringType: this.e.handle,
      type,
      getter,
      setter,
      isStatic,
      parameters,
    });
  }

  private plainMethod(
    name: string,
    isStatic: boolean,
    isVirtual: boolean,
    handle: FakeMethod,
  ): MethodDescriptor {
    return {
      handle,
      name,
      declaringType: this.e.handle,
      isStatic,
      isVirtual: isVirtual || this.e.kind === 'interface',
      isAbstract: this.e.kind === 'interface' && !handle.impl && !handle.auto,
      isConstructor: false,
      isPublic: true,
      parameters: [],
      returnType: undefined,
      genericArity: 0,
    };
  }

  private parameter(spec: ParamSpec, scope: Scope): ParameterDescriptor {
    const p = parseParam(spec);
    return {
      name: p.name,
      type: this.type(p.type, scope),
      refKind: p.refKind ?? 'none',
      optional: !!p.optional || p.default !== undefined,
      defaultValue: p.default,
      isParams: !!p.params,
    };
  }

  method(
    name: string,
    spec: MethodSpec,
    ownerScope: Scope,
    typeArgs: readonly TypeHandle[],
  ): MethodDescriptor {
    const generic = spec.generic ?? [];
    const typeParams = generic.map((g) => this.md.typeParameter(g, `${this.e.fullName}::${name}`));
    const scope = new Map([...ownerScope, ...generic.map((g, i) => [g, typeParams[i]!] as const)]);
    const handle: FakeMethod = {
      impl: spec.impl,
      auto: undefined,
      typeArgs,
      generic: generic.length ? { spec, name, owner: this.e } : undefined,
    };
    const isInterface = this.e.kind === 'interface';
    return {
      ...this.plainMethod(name, !!spec.static, !!spec.virtual || !!spec.abstract, handle),
      isAbstract: !!spec.abstract || (isInterface && !spec.impl),
      isConstructor: name === '.ctor',
      isPublic: !spec.private,
      parameters: (spec.params ?? []).map((p) => this.parameter(p, scope)),
      returnType:
        spec.returns && spec.returns !== 'void' ? this.type(spec.returns, scope) : undefined,
      genericArity: generic.length,
      ...(generic.length
        ? {
            genericParameterTypes: typeParams,
            genericConstraints: generic.map((g) => {
              const w = spec.where?.[g];
              return {
                name: g,
                referenceType: !!w?.class,
                valueType: !!w?.struct,
                defaultConstructor: !!w?.new,
                types: (w?.types ?? []).map((t) => this.type(t, scope)),
              };
            }),
          }
        : {}),
    };
  }
}

const NO_BODY: FakeMethod = { impl: undefined, auto: undefined, typeArgs: [], generic: undefined };

function valueParameter(type: TypeHandle): ParameterDescriptor {
  return {
    name: 'value',
    type,
    refKind: 'none',
    optional: false,
    defaultValue: undefined,
    isParams: false,
  };
}
