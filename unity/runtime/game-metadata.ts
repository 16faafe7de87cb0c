// The evaluator's MetadataProvider over the debugger: types and members from the agent, cached
// per connection (ids never change while it lives), so a second evaluation of the same program
// asks the game almost nothing. Parameter details the agent does not send (ref/out, defaults,
// params) come from the assembly's metadata through the catalogue.

import type { Values } from '../../sdb-protocol/index.js';
import {
  BindingFlags,
  FieldAttributes,
  MethodAttributes,
  SdbAgentError,
  TypeAttributes,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import type {
  FieldDescriptor,
  GenericConstraints,
  MemberSet,
  MetadataProvider,
  MethodDescriptor,
  ParameterDescriptor,
  PropertyDescriptor,
  TypeDescriptor,
  TypeHandle,
} from '../../eval/runtime.js';
import { InstantiationRefusedError } from '../../eval/runtime.js';
import { closestNames, kindOf, type MethodSignature, type TypeCatalog } from '../catalog/index.js';
import type { OperationContext } from '../session/session.js';
import { connectionPart } from '../session/game-connection.js';
import { fromWire, handleOf, typeIdOf, type TypeNames } from './convert.js';

/** Invokes the metadata side needs (naming closed generics and arrays), run on the main thread. */
export interface MetadataInvoker {
  invokeStatic(methodId: number, args: Parameters<typeof Values.object>[0][]): Promise<number>;
}

const ALL_DECLARED =
  BindingFlags.DeclaredOnly |
  BindingFlags.Instance |
  BindingFlags.Static |
  BindingFlags.Public |
  BindingFlags.NonPublic;

/** Binding asked the game for something (naming a closed generic invokes): bind in a window. */
export class NeedsTheGame extends Error {
  override name = 'NeedsTheGame';
}

export class GameMetadata implements MetadataProvider, TypeNames {
  private readonly types = new Map<number, Promise<TypeDescriptor>>();
  private readonly memberSets = new Map<string, Promise<MemberSet>>();
  private readonly methods = new Map<number, Promise<MethodDescriptor>>();
  private readonly byName = new Map<string, Promise<TypeHandle | undefined>>();
  private readonly namespaces = new Map<string, Promise<boolean>>();
  private readonly fieldLists = new Map<string, Promise<FieldDescriptor[]>>();
  private readonly interfaceLists = new Map<string, Promise<TypeHandle[]>>();
  private readonly named = new Map<string, TypeHandle[]>();
  /** Generic method instances, by `method<args>` (an instance's id never changes). */
  private readonly instances = new Map<string, Promise<MethodDescriptor>>();
  /** System.Type objects by type id: the runtime keeps each for good once made. */
  private readonly typeObjects = new Map<number, Promise<number>>();
  /** Types whose static constructor has run (their statics read as C# sees them). */
  readonly initialized = new Set<string>();
  /** Closed generics and arrays seen so far, by `definition<args>` / `element[rank]`. */
  private readonly constructed = new Map<string, TypeHandle>();
  /** How a closed generic or array type gets a name when none was seen: set per operation. */
  invokeRoute:
    | ((
        kind: 'generic' | 'array',
        base: TypeHandle,
        args: readonly TypeHandle[],
        rank: number,
      ) => Promise<number>)
    | undefined;

  constructor(
    private readonly conn: SdbConnection,
    private readonly catalog: TypeCatalog,
  ) {}

  findType(name: string): Promise<TypeHandle | undefined> {
    let p = this.byName.get(name);
    if (!p) {
      p = (async () => {
        if (/[[\]*&,<>]/.test(name)) return undefined; // plain names only (closed generics crash Mono 6.8)
        const [id] = await this.conn.send('VM.GET_TYPES', { name, ignoreCase: false });
        return id === undefined ? undefined : handleOf(id);
      })();
      this.byName.set(name, p);
    }
    return p;
  }

  hasNamespace(name: string): Promise<boolean> {
    let p = this.namespaces.get(name);
    if (!p) {
      p = this.catalog.findTypes(`${name}.*`, { limit: 1 }).then((r) => r.total > 0);
      this.namespaces.set(name, p);
    }
    return p;
  }

  async instanceFieldNames(typeId: number): Promise<string[]> {
    return (await this.allFields(handleOf(typeId))).filter((f) => !f.isStatic).map((f) => f.name);
  }

  async fullName(typeId: number): Promise<string> {
    return (await this.describe(handleOf(typeId))).fullName;
  }

  describe(type: TypeHandle): Promise<TypeDescriptor> {
    const id = typeIdOf(type);
    let p = this.types.get(id);
    if (!p) {
      p = (async () => {
        const info = await this.conn.send('TYPE.GET_INFO', { typeId: id });
        const baseNames: string[] = [];
        if (info.baseTypeId)
          baseNames.push((await this.describe(handleOf(info.baseTypeId))).fullName);
        const kind = kindOf(info, baseNames);
        let enumUnderlying: string | undefined;
        if (kind === 'enum') {
          const fields = await this.conn.send('TYPE.GET_FIELDS', { typeId: id });
          const value = fields.find((f) => (f.attributes & FieldAttributes.Static) === 0);
          if (value) enumUnderlying = (await this.describe(handleOf(value.typeId))).fullName;
        }
        const d: TypeDescriptor = {
          handle: type,
          fullName: info.fullName,
          namespace: info.namespace,
          name: info.name,
          kind,
          baseType: info.baseTypeId ? handleOf(info.baseTypeId) : undefined,
          elementType: info.elementTypeId ? handleOf(info.elementTypeId) : undefined,
          rank: info.rank,
          enumUnderlying,
          genericDefinition:
            info.genericDefinitionId && info.genericDefinitionId !== id
              ? handleOf(info.genericDefinitionId)
              : undefined,
          typeArguments: info.typeArgIds.map(handleOf),
          isAbstract: (info.attributes & TypeAttributes.Abstract) !== 0,
          isSealed: (info.attributes & TypeAttributes.Sealed) !== 0,
        };
        if (d.genericDefinition)
          this.constructed.set(genericKey(d.genericDefinition, d.typeArguments), type);
        if (d.elementType) this.constructed.set(arrayKey(d.elementType, d.rank), type);
        return d;
      })();
      this.types.set(id, p);
    }
    return p;
  }

  members(type: TypeHandle, name: string): Promise<MemberSet> {
    const key = `${type.key}:${name}`;
    let p = this.memberSets.get(key);
    if (!p) {
      p = this.loadMembers(type, name);
      this.memberSets.set(key, p);
    }
    return p;
  }

  allFields(type: TypeHandle): Promise<FieldDescriptor[]> {
    let p = this.fieldLists.get(type.key);
    if (!p) {
      p = this.conn.send('TYPE.GET_FIELDS', { typeId: typeIdOf(type) }).then((fields) =>
        fields.map((f) => ({
          handle: f.fieldId,
          name: f.name,
          declaringType: type,
          type: handleOf(f.typeId),
          isStatic: (f.attributes & FieldAttributes.Static) !== 0,
          constant: undefined,
          isReadOnly: (f.attributes & FieldAttributes.InitOnly) !== 0,
          isPublic: (f.attributes & FieldAttributes.FieldAccessMask) === FieldAttributes.Public,
        })),
      );
      this.fieldLists.set(type.key, p);
    }
    return p;
  }

  private async loadMembers(type: TypeHandle, name: string): Promise<MemberSet> {
    const typeId = typeIdOf(type);
    const [allFields, allProps, methodIds, info] = await Promise.all([
      this.conn.send('TYPE.GET_FIELDS', { typeId }),
      this.conn.send('TYPE.GET_PROPERTIES', { typeId }),
      this.conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', { typeId, name, flags: ALL_DECLARED }),
      this.conn.send('TYPE.GET_INFO', { typeId }),
    ]);
    const fieldInfos = allFields.filter((f) => f.name === name);
    const literals = fieldInfos.filter((f) => f.attributes & FieldAttributes.Literal);
    const constants = literals.length
      ? await this.conn.send('TYPE.GET_VALUES', {
          typeId,
          fieldIds: literals.map((f) => f.fieldId),
        })
      : [];
    const fields: FieldDescriptor[] = await Promise.all(
      fieldInfos.map(async (f) => {
        const li = literals.indexOf(f);
        return {
          handle: f.fieldId,
          name: f.name,
          declaringType: type,
          type: handleOf(f.typeId),
          isStatic: (f.attributes & FieldAttributes.Static) !== 0,
          constant: li >= 0 ? await fromWire(constants[li]!, this) : undefined,
          isReadOnly: (f.attributes & FieldAttributes.InitOnly) !== 0,
          isPublic: (f.attributes & FieldAttributes.FieldAccessMask) === FieldAttributes.Public,
        };
      }),
    );
    const properties: PropertyDescriptor[] = await Promise.all(
      allProps
        .filter((p) => p.name === name)
        .map(async (p) => {
          const getter = p.getterId ? await this.method(p.getterId) : undefined;
          const setter = p.setterId ? await this.method(p.setterId) : undefined;
          const accessor = getter ?? setter;
          const valueType = getter?.returnType ?? setter?.parameters.at(-1)?.type;
          if (!accessor || !valueType) throw new Error(`property ${name} has no usable accessor`);
          return {
            name: p.name,
            declaringType: type,
            type: valueType,
            getter,
            setter,
            isStatic: accessor.isStatic,
            parameters: getter ? getter.parameters : (setter?.parameters.slice(0, -1) ?? []),
          };
        }),
    );
    const methods = await Promise.all(methodIds.map((id) => this.method(id)));
    const nested = await Promise.all(info.nestedTypeIds.map((id) => this.describe(handleOf(id))));
    return {
      fields,
      properties,
      methods,
      nestedTypes: nested.filter((n) => n.name === name).map((n) => n.handle),
    };
  }

  /** A method's descriptor, cached per method id. */
  method(methodId: number): Promise<MethodDescriptor> {
    let p = this.methods.get(methodId);
    if (!p) {
      p = this.loadMethod(methodId);
      this.methods.set(methodId, p);
    }
    return p;
  }

  private async loadMethod(methodId: number): Promise<MethodDescriptor> {
    const [name, declaring, info, params] = await Promise.all([
      this.conn.send('METHOD.GET_NAME', { methodId }),
      this.conn.send('METHOD.GET_DECLARING_TYPE', { methodId }),
      this.conn.send('METHOD.GET_INFO', { methodId }),
      this.conn.send('METHOD.GET_PARAM_INFO', { methodId }),
    ]);
    const signature = await this.catalog.methodSignature?.(methodId).catch(() => undefined);
    const returnName = (await this.describe(handleOf(params.returnTypeId))).fullName;
    const parameters: ParameterDescriptor[] = params.paramTypeIds.map((t, i) => {
      const s = signature?.parameters[i];
      return {
        name: params.paramNames[i] ?? `arg${i}`,
        type: handleOf(t),
        refKind: s?.refKind ?? 'none',
        optional: s?.optional ?? false,
        defaultValue: s?.defaultValue ? defaultOf(s.defaultValue) : undefined,
        isParams: s?.isParams ?? false,
      };
    });
    return {
      handle: methodId,
      name,
      declaringType: handleOf(declaring),
      isStatic: (info.attributes & MethodAttributes.Static) !== 0,
      isVirtual: (info.attributes & MethodAttributes.Virtual) !== 0,
      isAbstract: (info.attributes & MethodAttributes.Abstract) !== 0,
      isConstructor: name === '.ctor',
      isPublic: (info.attributes & MethodAttributes.MemberAccessMask) === MethodAttributes.Public,
      parameters,
      returnType: returnName === 'System.Void' ? undefined : handleOf(params.returnTypeId),
      genericArity: info.isGenericDefinition ? info.typeArgIds.length : 0,
      genericParameterTypes: info.isGenericDefinition ? info.typeArgIds.map(handleOf) : undefined,
      ...(info.isGenericDefinition && signature?.genericParameters
        ? { genericConstraints: await this.genericConstraints(signature.genericParameters) }
        : {}),
    };
  }

  /**
   * A generic method's `where` clauses from its metadata, each constraint type found by name; a
   * constraint built from type parameters (``IComparable`1[!!0]``) has no such name and is left
   * out, for the agent's own check of the instantiation.
   */
  private async genericConstraints(
    params: NonNullable<MethodSignature['genericParameters']>,
  ): Promise<GenericConstraints[]> {
    return Promise.all(
      params.map(async (p) => {
        const found = await Promise.all(p.constraints.map((name) => this.findType(name)));
        return {
          name: p.name,
          referenceType: p.referenceType,
          valueType: p.valueType,
          defaultConstructor: p.defaultConstructor,
          types: found.filter((t): t is TypeHandle => t !== undefined),
        };
      }),
    );
  }

  async typesNamed(simpleName: string): Promise<TypeHandle[]> {
    // found types stay found; a miss is asked again (an assembly may load later)
    const known = this.named.get(simpleName);
    if (known) return known;
    const found = await this.findNamed(simpleName);
    if (found.length) this.named.set(simpleName, found);
    return found;
  }

  private async findNamed(simpleName: string): Promise<TypeHandle[]> {
    const r = await this.catalog.findTypes(simpleName, { limit: 20 });
    const exact = r.matches.filter(
      (m) =>
        m.name === simpleName &&
        (m.match === 'exact' || m.match === 'name') &&
        !m.fullName.includes('+'),
    );
    const ids = exact.map((m) => m.typeId).filter((id): id is number => id !== undefined);
    return [...new Set(ids)].map(handleOf);
  }

  interfaces(type: TypeHandle): Promise<TypeHandle[]> {
    let p = this.interfaceLists.get(type.key);
    if (!p) {
      p = this.conn
        .send('TYPE.GET_INTERFACES', { typeId: typeIdOf(type) })
        .then((ids) => ids.map(handleOf));
      this.interfaceLists.set(type.key, p);
    }
    return p;
  }

  /** Names of the type's members and its bases', closest to `name` first. */
  async closestMemberNames(type: TypeHandle, name: string): Promise<string[]> {
    const names: string[] = [];
    for (let t: TypeHandle | undefined = type; t; t = (await this.describe(t)).baseType) {
      const d = await this.describe(t);
      if (d.fullName === 'System.Object' || d.fullName === 'System.ValueType') break;
      names.push(...(await this.memberNames(t)));
    }
    const usable = names.filter(
      (n) =>
        !n.includes('<') &&
        !n.startsWith('get_') &&
        !n.startsWith('set_') &&
        !n.startsWith('op_') &&
        n !== '.ctor' &&
        n !== '.cctor',
    );
    return closestNames(
      name,
      usable.map((n) => ({ label: n, keys: [n] })),
      { limit: 3 },
    );
  }

  async memberNames(type: TypeHandle): Promise<string[]> {
    const d = await this.catalog.describe(typeIdOf(type), {
      members: ['fields', 'properties', 'methods'],
      limit: 1000,
    });
    const names = new Set<string>();
    for (const list of [d.fields, d.properties, d.methods])
      for (const m of list?.items ?? []) names.add(m.name);
    return [...names];
  }

  isAssignable(to: TypeHandle, from: TypeHandle): Promise<boolean> {
    return this.conn.send('TYPE.IS_ASSIGNABLE_FROM', {
      typeId: typeIdOf(to),
      otherTypeId: typeIdOf(from),
    });
  }

  async constructGeneric(definition: TypeHandle, args: readonly TypeHandle[]): Promise<TypeHandle> {
    const known = this.constructed.get(genericKey(definition, args));
    if (known) return known;
    if (!this.invokeRoute)
      throw new NeedsTheGame('naming a closed generic type needs the game (an invoke)');
    const id = await this.invokeRoute('generic', definition, args, 0);
    await this.describe(handleOf(id)); // records it in `constructed`
    return handleOf(id);
  }

  async arrayOf(element: TypeHandle, rank: number): Promise<TypeHandle> {
    const known = this.constructed.get(arrayKey(element, rank));
    if (known) return known;
    if (!this.invokeRoute)
      throw new NeedsTheGame('naming an array type needs the game (an invoke)');
    const id = await this.invokeRoute('array', element, [], rank);
    await this.describe(handleOf(id));
    return handleOf(id);
  }

  /** The method instantiated with these type arguments, asked once per connection. */
  instantiateMethod(
    method: MethodDescriptor,
    args: readonly TypeHandle[],
  ): Promise<MethodDescriptor> {
    const key = `${String(method.handle)}<${args.map((a) => a.key).join(',')}>`;
    let p = this.instances.get(key);
    if (!p) {
      p = this.makeGenericMethod(method, args);
      p.catch(() => this.instances.delete(key));
      this.instances.set(key, p);
    }
    return p;
  }

  private async makeGenericMethod(
    method: MethodDescriptor,
    args: readonly TypeHandle[],
  ): Promise<MethodDescriptor> {
    let id: number;
    try {
      id = await this.conn.send('METHOD.MAKE_GENERIC_METHOD', {
        methodId: method.handle as number,
        typeArgIds: args.map(typeIdOf),
      });
    } catch (e) {
      // the agent's answer when mono_verifier_is_method_valid_generic_instantiation says no
      if (e instanceof SdbAgentError && e.errorName === 'INVALID_ARGUMENT')
        throw new InstantiationRefusedError(`${method.name}: ${e.message}`);
      throw e;
    }
    return this.method(id);
  }

  /**
   * The id of a type's System.Type object (TYPE.GET_OBJECT), asked once per connection: the
   * runtime caches the object in its domain, so the id stays valid as long as the game runs.
   */
  typeObjectId(type: TypeHandle): Promise<number> {
    const typeId = typeIdOf(type);
    let p = this.typeObjects.get(typeId);
    if (!p) {
      p = this.conn.send('TYPE.GET_OBJECT', { typeId });
      p.catch(() => this.typeObjects.delete(typeId));
      this.typeObjects.set(typeId, p);
    }
    return p;
  }

  /** Forgets the System.Type objects' ids (after INVALID_OBJECT: should one be gone, asked anew). */
  forgetTypeObjects(): void {
    this.typeObjects.clear();
  }
}

function genericKey(def: TypeHandle, args: readonly TypeHandle[]): string {
  return `${def.key}<${args.map((a) => a.key).join(',')}>`;
}

function arrayKey(element: TypeHandle, rank: number): string {
  return `${element.key}[${rank}]`;
}

type CatalogDefault = NonNullable<
  NonNullable<
    Awaited<ReturnType<NonNullable<TypeCatalog['methodSignature']>>>
  >['parameters'][number]['defaultValue']
>;

function defaultOf(d: CatalogDefault): ParameterDescriptor['defaultValue'] {
  if (d.kind === 'null') return { kind: 'null' };
  if (d.kind === 'bool') return { kind: 'bool', value: d.value };
  if (d.kind === 'string') return { kind: 'string', text: d.value };
  return { kind: 'number', type: d.kind, value: d.value };
}

/** The evaluator's metadata of one attached game (it memoizes every lookup). */
export const GAME_METADATA = connectionPart(
  'evaluator metadata',
  (c) => new GameMetadata(c.conn, c.catalog),
);

export function metadataFor(ctx: OperationContext): GameMetadata {
  return ctx.connection.part(GAME_METADATA);
}
