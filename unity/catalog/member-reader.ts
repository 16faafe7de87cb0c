// Types and members as the agent describes them, each fetched once per id and cached: ids of
// types, methods and fields are never reused while the game runs, so nothing here goes stale.
// Requests are issued together and travel pipelined on the one connection.

import {
  FieldAttributes,
  isAgentError,
  MethodAttributes,
  type SdbConnection,
  type TypeInfo,
} from '../../sdb-protocol/index.js';
import type {
  Access,
  FieldMember,
  MethodMember,
  ParameterMember,
  PropertyMember,
  TypeRef,
} from './catalog-types.js';
import { displayTypeName } from './type-names.js';

const ACCESS: Record<number, Access> = {
  0: 'compiler',
  1: 'private',
  2: 'private protected',
  3: 'internal',
  4: 'protected',
  5: 'protected internal',
  6: 'public',
};

export function accessOf(attributes: number): Access {
  return ACCESS[attributes & MethodAttributes.MemberAccessMask] ?? 'compiler';
}

/** A memo whose failed entries are forgotten, so a later call retries. */
export function memo<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let p = map.get(key);
  if (!p) {
    p = load();
    map.set(key, p);
    void p.catch(() => map.delete(key));
  }
  return p;
}

/** Declared members of one type; `omitted` counts members the agent could not detail. */
export interface Declared<T> {
  items: T[];
  omitted: number;
}

export class MemberReader {
  private readonly infos = new Map<number, Promise<TypeInfo>>();
  private readonly methodDetails = new Map<number, Promise<MethodMember>>();
  private readonly declaredFields = new Map<number, Promise<Declared<FieldMember>>>();
  private readonly declaredProperties = new Map<number, Promise<Declared<PropertyMember>>>();
  private readonly declaredMethods = new Map<number, Promise<Declared<MethodMember>>>();

  constructor(private readonly conn: SdbConnection) {}

  info(typeId: number): Promise<TypeInfo> {
    return memo(this.infos, typeId, () => this.conn.send('TYPE.GET_INFO', { typeId }));
  }

  async ref(typeId: number): Promise<TypeRef> {
    return { typeId, name: displayTypeName((await this.info(typeId)).fullName) };
  }

  /** The type itself, then its base types up to System.Object (one GET_INFO per level). */
  async chain(typeId: number): Promise<{ typeId: number; info: TypeInfo }[]> {
    const out: { typeId: number; info: TypeInfo }[] = [];
    const seen = new Set<number>();
    for (let id = typeId; id !== 0 && !seen.has(id);) {
      seen.add(id);
      const info = await this.info(id);
      out.push({ typeId: id, info });
      id = info.baseTypeId;
    }
    return out;
  }

  fields(typeId: number): Promise<Declared<FieldMember>> {
    return memo(this.declaredFields, typeId, async () => {
      const [declaringType, fields] = await Promise.all([
        this.ref(typeId),
        this.conn.send('TYPE.GET_FIELDS', { typeId }),
      ]);
      const items = await Promise.all(
        fields.map(async (f): Promise<FieldMember> => ({
          kind: 'field',
          name: f.name,
          fieldId: f.fieldId,
          type: await this.ref(f.typeId),
          isStatic: (f.attributes & FieldAttributes.Static) !== 0,
          isLiteral: (f.attributes & FieldAttributes.Literal) !== 0,
          isReadOnly: (f.attributes & FieldAttributes.InitOnly) !== 0,
          access: accessOf(f.attributes),
          declaringType,
        })),
      );
      return { items, omitted: 0 };
    });
  }

  methods(typeId: number): Promise<Declared<MethodMember>> {
    return memo(this.declaredMethods, typeId, async () => {
      const [declaringType, ids] = await Promise.all([
        this.ref(typeId),
        this.conn.send('TYPE.GET_METHODS', { typeId }),
      ]);
      return settleAll(ids.map((id) => this.method(id, declaringType)));
    });
  }

  properties(typeId: number): Promise<Declared<PropertyMember>> {
    return memo(this.declaredProperties, typeId, async () => {
      const [declaringType, props] = await Promise.all([
        this.ref(typeId),
        this.conn.send('TYPE.GET_PROPERTIES', { typeId }),
      ]);
      return settleAll(
        props.map(async (p): Promise<PropertyMember> => {
          const [getter, setter] = await Promise.all([
            p.getterId ? this.method(p.getterId, declaringType) : undefined,
            p.setterId ? this.method(p.setterId, declaringType) : undefined,
          ]);
          // the getter returns the property's type; a setter takes it as its last parameter
          const type = getter ? getter.returnType : setter?.parameters.at(-1)?.type;
          const indexParameters = getter
            ? getter.parameters
            : (setter?.parameters.slice(0, -1) ?? []);
          const accessors = [getter, setter].filter((m): m is MethodMember => m !== undefined);
          return {
            kind: 'property',
            name: p.name,
            propertyId: p.propertyId,
            type,
            getterId: p.getterId,
            setterId: p.setterId,
            isStatic: accessors.some((m) => m.isStatic),
            indexParameters,
            access: widest(accessors.map((m) => m.access)),
            declaringType,
          };
        }),
      );
    });
  }

  /** One method's name, flags and signature (three commands, then its types). */
  method(methodId: number, declaringType: TypeRef): Promise<MethodMember> {
    return memo(this.methodDetails, methodId, async () => {
      const [name, info, params] = await Promise.all([
        this.conn.send('METHOD.GET_NAME', { methodId }),
        this.conn.send('METHOD.GET_INFO', { methodId }),
        this.conn.send('METHOD.GET_PARAM_INFO', { methodId }),
      ]);
      const [returnType, ...paramTypes] = await Promise.all(
        [params.returnTypeId, ...params.paramTypeIds].map((t) => this.ref(t)),
      );
      const parameters: ParameterMember[] = paramTypes.map((type, i) => ({
        name: params.paramNames[i] ?? `arg${i}`,
        type,
      }));
      const a = info.attributes;
      return {
        kind: 'method',
        name,
        methodId,
        returnType: returnType!,
        parameters,
        isStatic: (a & MethodAttributes.Static) !== 0,
        isVirtual: (a & MethodAttributes.Virtual) !== 0,
        isAbstract: (a & MethodAttributes.Abstract) !== 0,
        isSpecialName: (a & MethodAttributes.SpecialName) !== 0,
        genericArity: params.genericParamCount,
        access: accessOf(a),
        declaringType,
      };
    });
  }
}

const ACCESS_ORDER: readonly Access[] = [
  'compiler',
  'private',
  'private protected',
  'internal',
  'protected',
  'protected internal',
  'public',
];

function widest(access: readonly Access[]): Access {
  let best = 0;
  for (const a of access) best = Math.max(best, ACCESS_ORDER.indexOf(a));
  return ACCESS_ORDER[best]!;
}

/**
 * Every member the agent could describe. A member whose signature names a type the runtime
 * cannot load (a missing reference) fails alone with an agent error and is counted, not thrown;
 * connection failures and timeouts still fail the whole list.
 */
async function settleAll<T>(items: Promise<T>[]): Promise<Declared<T>> {
  const settled = await Promise.allSettled(items);
  const out: T[] = [];
  let omitted = 0;
  for (const s of settled) {
    if (s.status === 'fulfilled') out.push(s.value);
    else if (isAgentError(s.reason)) omitted++;
    else throw s.reason;
  }
  return { items: out, omitted };
}
