// The fake game's type registry, as a MetadataProvider. Types are declared from specs
// (fake-specs.ts) and built lazily, so a spec may name a type declared after it. Closed
// generics, arrays and generic parameters are registry entries too, made on demand. The
// answers follow the debugger's: members are those DECLARED on the type, fields come in
// declaration order with statics, Nullable<T> is an ordinary generic struct.

import type {
  FieldDescriptor,
  MemberSet,
  MetadataProvider,
  MethodDescriptor,
  TypeDescriptor,
  TypeHandle,
  TypeKind,
} from '../runtime.js';
import {
  Builder,
  type Built,
  type FakeMethod,
  type Scope,
  type TypeEntry,
} from './fake-builder.js';
import {
  KEYWORD_NAMES,
  parseTypeRef,
  type EnumSpec,
  type TypeRef,
  type TypeSpec,
} from './fake-specs.js';

export type { FakeMethod, TypeEntry } from './fake-builder.js';

export class FakeMetadata implements MetadataProvider {
  private readonly byKey = new Map<string, TypeEntry>();
  private readonly byName = new Map<string, TypeEntry>();
  private readonly instantiated = new Map<MethodDescriptor, Map<string, MethodDescriptor>>();
  private parameterCount = 0;

  // ---------------------------------------------------------------- declaring

  declare(fullName: string, kind: TypeKind, spec: TypeSpec, enumSpec?: EnumSpec): TypeHandle {
    if (this.byName.has(fullName)) throw new Error(`fake: ${fullName} is declared twice`);
    const plus = fullName.lastIndexOf('+');
    const outer = plus >= 0 ? this.byName.get(fullName.slice(0, plus)) : undefined;
    if (plus >= 0 && !outer) throw new Error(`fake: declare ${fullName.slice(0, plus)} first`);
    const top = outer ? outer.fullName : fullName;
    const dot = top.lastIndexOf('.');
    const arity = Number(/`(\d+)$/.exec(fullName)?.[1] ?? 0);
    const typeParams = spec.typeParams ?? [];
    if (typeParams.length !== arity)
      throw new Error(`fake: ${fullName} needs ${arity} typeParams, has ${typeParams.length}`);
    const handle: TypeHandle = { key: fullName };
    const scope = new Map(typeParams.map((p) => [p, this.typeParameter(p, fullName)]));
    const entry: TypeEntry = {
      handle,
      fullName,
      namespace: outer ? outer.namespace : dot >= 0 ? top.slice(0, dot) : '',
      name: plus >= 0 ? fullName.slice(plus + 1) : fullName.slice(dot + 1),
      kind,
      assembly: fullName.startsWith('System.') ? 'mscorlib' : 'Assembly-CSharp',
      spec,
      scope,
      definition: undefined,
      typeArgs: [...scope.values()],
      element: undefined,
      rank: 0,
      enumSpec,
      nested: [],
      isNested: !!outer,
      isParameter: false,
    };
    this.byKey.set(handle.key, entry);
    this.byName.set(fullName, entry);
    outer?.nested.push(handle);
    return handle;
  }

  /** A generic parameter: a class deriving from object, known only by its handle. */
  typeParameter(name: string, owner: string): TypeHandle {
    const handle: TypeHandle = { key: `!${name}@${owner}#${this.parameterCount++}` };
    this.byKey.set(handle.key, {
      ...this.derivedEntry(handle, name, 'class', ''),
      isParameter: true,
    });
    return handle;
  }

  private derivedEntry(
    handle: TypeHandle,
    fullName: string,
    kind: TypeKind,
    namespace: string,
  ): TypeEntry {
    return {
      handle,
      fullName,
      namespace,
      name: fullName.slice(fullName.lastIndexOf('.') + 1),
      kind,
      assembly: '',
      spec: {},
      scope: new Map(),
      definition: undefined,
      typeArgs: [],
      element: undefined,
      rank: 0,
      enumSpec: undefined,
      nested: [],
      isNested: false,
      isParameter: false,
    };
  }

  // ---------------------------------------------------------------- synchronous answers

  entry(t: TypeHandle): TypeEntry {
    const e = this.byKey.get(t.key);
    if (!e) throw new Error(`fake: unknown type handle ${t.key}`);
    return e;
  }

  named(fullName: string): TypeHandle {
    const e = this.byName.get(KEYWORD_NAMES[fullName] ?? fullName);
    if (!e) throw new Error(`fake: no type ${fullName}`);
    return e.handle;
  }

  /** A type string (`int`, `Game.Node[]`, `List<T>`, `int?`) in a scope of type parameters. */
  resolve(text: string | TypeRef, scope: Scope = new Map()): TypeHandle {
    const ref = typeof text === 'string' ? parseTypeRef(text) : text;
    let t: TypeHandle;
    const fromScope = ref.args.length === 0 ? scope.get(ref.name) : undefined;
    if (fromScope) t = fromScope;
    else {
      const name = KEYWORD_NAMES[ref.name] ?? ref.name;
      const def = this.named(ref.args.length ? `${name}\`${ref.args.length}` : name);
      t = ref.args.length
        ? this.construct(
            def,
            ref.args.map((a) => this.resolve(a, scope)),
          )
        : def;
    }
    for (const s of ref.suffixes)
      t =
        s === 'nullable'
          ? this.construct(this.named('System.Nullable`1'), [t])
          : this.array(t, s.array);
    return t;
  }

  construct(definition: TypeHandle, args: readonly TypeHandle[]): TypeHandle {
    const def = this.entry(definition);
    const params = def.spec.typeParams ?? [];
    if (params.length !== args.length || params.length === 0)
      throw new Error(`fake: ${def.fullName} takes ${params.length} type arguments`);
    const key = `${def.handle.key}<${args.map((a) => a.key).join(',')}>`;
    const known = this.byKey.get(key);
    if (known) return known.handle;
    const names = args.map((a) => `[${this.entry(a).fullName}, ${this.entry(a).assembly}]`);
    const entry: TypeEntry = {
      ...def,
      handle: { key },
      fullName: `${def.fullName}[${names.join(',')}]`,
      scope: new Map(params.map((p, i) => [p, args[i]!])),
      definition,
      typeArgs: args,
      nested: [],
      built: undefined,
    };
    this.byKey.set(key, entry);
    return entry.handle;
  }

  array(element: TypeHandle, rank: number): TypeHandle {
    const brackets = `[${','.repeat(rank - 1)}]`;
    const key = `${element.key}${brackets}`;
    const known = this.byKey.get(key);
    if (known) return known.handle;
    const e = this.entry(element);
    const entry: TypeEntry = {
      ...this.derivedEntry({ key }, `${e.fullName}${brackets}`, 'array', e.namespace),
      name: `${e.name}${brackets}`,
      assembly: e.assembly,
      element,
      rank,
    };
    this.byKey.set(key, entry);
    return entry.handle;
  }

  built(t: TypeHandle): Built {
    const e = this.entry(t);
    e.built ??= new Builder(this, e).build();
    return e.built;
  }

  /** The type and its base types, nearest first. */
  chain(t: TypeHandle): TypeHandle[] {
    const out: TypeHandle[] = [];
    for (let c: TypeHandle | undefined = t; c; c = this.built(c).descriptor.baseType) out.push(c);
    return out;
  }

  allInterfaces(t: TypeHandle): TypeHandle[] {
    const out = new Map<string, TypeHandle>();
    const visit = (x: TypeHandle): void => {
      for (const i of this.built(x).interfaces) {
        if (out.has(i.key)) continue;
        out.set(i.key, i);
        visit(i);
      }
    };
    for (const c of this.chain(t)) visit(c);
    return [...out.values()];
  }

  assignable(to: TypeHandle, from: TypeHandle): boolean {
    if (to.key === from.key) return true;
    const [dt, df] = [this.entry(to), this.entry(from)];
    if (dt.fullName === 'System.Object') return df.kind !== 'pointer';
    if (this.chain(from).some((c) => c.key === to.key)) return true;
    if (dt.kind === 'interface' && this.allInterfaces(from).some((i) => i.key === to.key))
      return true;
    // array covariance for reference element types
    if (dt.kind === 'array' && df.kind === 'array' && dt.rank === df.rank) {
      const [et, ef] = [dt.element!, df.element!];
      const valueType = (x: TypeHandle) => ['struct', 'enum'].includes(this.entry(x).kind);
      return !valueType(et) && !valueType(ef) && this.assignable(et, ef);
    }
    return false;
  }

  instantiate(method: MethodDescriptor, args: readonly TypeHandle[]): MethodDescriptor {
    const h = method.handle as FakeMethod;
    if (!h.generic || args.length !== method.genericArity)
      throw new Error(`fake: ${method.name} is not generic of arity ${args.length}`);
    let cache = this.instantiated.get(method);
    if (!cache) this.instantiated.set(method, (cache = new Map<string, MethodDescriptor>()));
    const key = args.map((a) => a.key).join(',');
    let m = cache.get(key);
    if (!m) {
      const { spec, name, owner } = h.generic;
      const names = spec.generic ?? [];
      const scope = new Map([...owner.scope, ...names.map((n, i) => [n, args[i]!] as const)]);
      m = new Builder(this, owner).method(name, { ...spec, generic: [] }, scope, args);
      cache.set(key, m);
    }
    return m;
  }

  // ---------------------------------------------------------------- MetadataProvider

  findType(name: string): Promise<TypeHandle | undefined> {
    // the debugger finds plain reflection names only
    if (/[[\]*&,<>]/.test(name)) return Promise.resolve(undefined);
    return Promise.resolve(this.byName.get(name)?.handle);
  }

  typesNamed(simpleName: string): Promise<TypeHandle[]> {
    const all = [...this.byName.values()];
    return Promise.resolve(
      all.filter((e) => e.name === simpleName && !e.isNested).map((e) => e.handle),
    );
  }

  interfaces(type: TypeHandle): Promise<TypeHandle[]> {
    return Promise.resolve(this.allInterfaces(type));
  }

  hasNamespace(name: string): Promise<boolean> {
    const all = [...this.byName.values()];
    return Promise.resolve(
      all.some((e) => e.namespace === name || e.namespace.startsWith(`${name}.`)),
    );
  }

  describe(type: TypeHandle): Promise<TypeDescriptor> {
    return Promise.resolve(this.built(type).descriptor);
  }

  members(type: TypeHandle, name: string): Promise<MemberSet> {
    const b = this.built(type);
    return Promise.resolve({
      fields: b.fields.filter((f) => f.name === name),
      properties: b.properties.filter((p) => p.name === name),
      methods: b.methods.filter((m) => m.name === name),
      nestedTypes: this.entry(type).nested.filter((n) => this.entry(n).name === name),
    });
  }

  memberNames(type: TypeHandle): Promise<string[]> {
    return Promise.resolve(this.declaredNames(type));
  }

  /** As the bridge ranks them: the type's and its bases' names within a few edits, best first. */
  closestMemberNames(type: TypeHandle, name: string): Promise<string[]> {
    const names: string[] = [];
    for (const t of this.chain(type)) {
      if (['System.Object', 'System.ValueType'].includes(this.entry(t).fullName)) break;
      names.push(...this.declaredNames(t).filter((n) => !n.startsWith('op_')));
    }
    const max = Math.max(1, Math.min(4, Math.floor(name.length / 4)));
    const scored = [...new Set(names)]
      .map((n) => ({ n, d: editDistance(name.toLowerCase(), n.toLowerCase()) }))
      .filter((x) => x.d <= max);
    return Promise.resolve(
      scored
        .sort((a, b) => a.d - b.d)
        .slice(0, 3)
        .map((x) => x.n),
    );
  }

  private declaredNames(type: TypeHandle): string[] {
    const b = this.built(type);
    const names = [
      ...b.fields.map((f) => f.name).filter((n) => !n.startsWith('<') && n !== 'value__'),
      ...b.properties.map((p) => p.name),
      ...b.methods.map((m) => m.name).filter((n) => n !== '.ctor' && !/^[gs]et_/.test(n)),
    ];
    return [...new Set(names)];
  }

  allFields(type: TypeHandle): Promise<FieldDescriptor[]> {
    return Promise.resolve([...this.built(type).fields]);
  }

  isAssignable(to: TypeHandle, from: TypeHandle): Promise<boolean> {
    return Promise.resolve(this.assignable(to, from));
  }

  constructGeneric(definition: TypeHandle, args: readonly TypeHandle[]): Promise<TypeHandle> {
    return Promise.resolve(this.construct(definition, args));
  }

  arrayOf(element: TypeHandle, rank: number): Promise<TypeHandle> {
    return Promise.resolve(this.array(element, rank));
  }

  instantiateMethod(
    method: MethodDescriptor,
    args: readonly TypeHandle[],
  ): Promise<MethodDescriptor> {
    return Promise.resolve(this.instantiate(method, args));
  }
}

/** Levenshtein distance with adjacent transpositions (the commonest typo). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}
