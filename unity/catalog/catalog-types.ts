// The public shapes of the type catalogue: what findTypes, describe and findMember return.

import type { MatchKind } from './name-query.js';

export type TypeKind = 'class' | 'struct' | 'enum' | 'interface' | 'array' | 'pointer';

/** Where an assembly's type names came from. */
export type TypeListSource = 'metadata-blob' | 'file' | 'fallback';

export interface AssemblyEntry {
  assemblyId: number;
  /** Simple name (`Assembly-CSharp`). */
  name: string;
  /** As ASSEMBLY.GET_NAME gives it (`mscorlib, Version=4.0.0.0, Culture=neutral, ...`). */
  fullName: string;
}

export interface TypeMatch {
  /** Reflection full name (``Unity.Entities.World+NoAllocReadOnlyCollection`1``). */
  fullName: string;
  /** Namespace of the outermost type. */
  namespace: string;
  /** Innermost simple name, arity kept. */
  name: string;
  assembly: string;
  assemblyId: number;
  /** From the assembly's metadata; undefined when its names came from the fallback lister. */
  kind: TypeKind | undefined;
  /** How the query matched (best first: exact, name, exact-ignore-case, ...). */
  match: MatchKind;
  /** Resolved for the returned page only; undefined when the runtime could not load the type. */
  typeId: number | undefined;
}

export interface UnlistedAssembly {
  assembly: string;
  assemblyId: number;
  /** Why each source failed, in the order tried. */
  reasons: string[];
}

export interface FindTypesResult {
  query: string;
  matches: TypeMatch[];
  /** Matches before the limit. */
  total: number;
  truncated: boolean;
  /** Close names, only when nothing matched. */
  suggestions: string[];
  /** Assemblies whose types could not be listed (their types cannot match patterns). */
  unlisted: UnlistedAssembly[];
}

export interface FindTypesOptions {
  /** Page size (default 50). */
  limit?: number;
  /** Only types of this assembly (simple name, case-insensitive). */
  assembly?: string;
}

/** A type as members and descriptions refer to it. */
export interface TypeRef {
  typeId: number;
  /** Readable full name (`System.Collections.Generic.List`1[System.Int32]`). */
  name: string;
}

export type Access =
  | 'private'
  | 'private protected'
  | 'internal'
  | 'protected'
  | 'protected internal'
  | 'public'
  | 'compiler';

export interface FieldMember {
  kind: 'field';
  name: string;
  fieldId: number;
  type: TypeRef;
  isStatic: boolean;
  /** A const: no storage, the value lives in metadata (GET_VALUES refuses it). */
  isLiteral: boolean;
  isReadOnly: boolean;
  access: Access;
  declaringType: TypeRef;
}

export interface ParameterMember {
  name: string;
  type: TypeRef;
}

export interface PropertyMember {
  kind: 'property';
  name: string;
  propertyId: number;
  /** The getter's return type (or the setter's value parameter's). */
  type: TypeRef | undefined;
  /** 0 when absent. */
  getterId: number;
  setterId: number;
  isStatic: boolean;
  /** Indexer parameters; empty for plain properties. */
  indexParameters: ParameterMember[];
  access: Access;
  declaringType: TypeRef;
}

export interface MethodMember {
  kind: 'method';
  name: string;
  methodId: number;
  returnType: TypeRef;
  parameters: ParameterMember[];
  isStatic: boolean;
  isVirtual: boolean;
  isAbstract: boolean;
  /** Constructors, accessors, operators. */
  isSpecialName: boolean;
  /** Number of method type parameters (`Echo<T>` → 1). */
  genericArity: number;
  access: Access;
  declaringType: TypeRef;
}

export type Member = FieldMember | PropertyMember | MethodMember;
export type MemberCategory = 'fields' | 'properties' | 'methods';

export interface MemberList<T> {
  items: T[];
  /** Before the limit. */
  total: number;
  truncated: boolean;
  /** Members left out because the agent could not describe them (a type failed to load). */
  omitted: number;
}

export interface DescribeOptions {
  /** Which member lists to include (default all three). */
  members?: readonly MemberCategory[];
  /** Also members declared by base types (default false). Constructors are never inherited. */
  inherited?: boolean;
  /** Items per member list (default 200). */
  limit?: number;
}

export interface TypeDescription {
  typeId: number;
  /** As the agent spells it (closed generics carry assembly-qualified arguments). */
  fullName: string;
  /** Readable form of fullName. */
  name: string;
  namespace: string;
  assembly: string;
  assemblyId: number;
  kind: TypeKind;
  isGenericDefinition: boolean;
  /** Base types, nearest first, ending at System.Object (empty for interfaces and Object). */
  baseTypes: TypeRef[];
  /** Arguments of a closed generic; generic parameters (T) of a definition. */
  genericArguments: TypeRef[];
  /** Element type of arrays and pointers. */
  elementType: TypeRef | undefined;
  fields?: MemberList<FieldMember>;
  properties?: MemberList<PropertyMember>;
  methods?: MemberList<MethodMember>;
}

export type MemberLookup =
  | { kind: 'field'; field: FieldMember }
  | { kind: 'property'; property: PropertyMember }
  /** Every overload of that name, most derived first. */
  | { kind: 'method'; overloads: MethodMember[] };

/**
 * A parameter's default value, from the assembly's Constant table (ECMA-335 II.22.9). Enum
 * defaults carry their underlying integer (`Allocator.Temp` → `{ kind: 'int', value: 2 }`); a
 * char is its UTF-16 code unit; 64-bit integers are bigints.
 */
export type DefaultValue =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | {
      kind: 'char' | 'sbyte' | 'byte' | 'short' | 'ushort' | 'int' | 'uint' | 'float' | 'double';
      value: number;
    }
  | { kind: 'long' | 'ulong'; value: bigint }
  | { kind: 'string'; value: string };

export type RefKind = 'none' | 'ref' | 'out' | 'in';

/** What the agent's METHOD.GET_PARAM_INFO does not tell about a parameter. */
export interface SignatureParameter {
  /** From the Param row; '' when the compiler wrote none for this position. */
  name: string;
  /**
   * `ref`, `out` (Out flag without In) or `in` (In flag without Out, or IsReadOnlyAttribute) for
   * a by-reference parameter; the agent reports such a parameter by its element type.
   */
  refKind: RefKind;
  /** The Optional flag: C# lets a call leave this parameter out. */
  optional: boolean;
  /**
   * The default a call that leaves it out passes, when optional and stored as a constant.
   * Optional without a default means `default(T)` (a struct's zero value, or a default stored as
   * DecimalConstantAttribute / DateTimeConstantAttribute, which are not decoded).
   */
  defaultValue?: DefaultValue;
  /** `params T[]`: the parameter carries System.ParamArrayAttribute. */
  isParams: boolean;
}

export interface MethodSignature {
  /** In declaration order, one per parameter the agent reports (`this` not included). */
  parameters: SignatureParameter[];
  /** Method type parameters (`Echo<T>` → 1); 0 for methods that are not generic. */
  genericArity: number;
  /** The method type parameters and their constraints, when the image has GenericParam rows. */
  genericParameters?: GenericParameterSignature[];
}

/** A method type parameter's `where` clause. */
export interface GenericParameterSignature {
  name: string;
  /** `class`. */
  referenceType: boolean;
  /** `struct`. */
  valueType: boolean;
  /** `new()`. */
  defaultConstructor: boolean;
  /**
   * The base class and interfaces, by reflection full name (``System.IComparable`1[!!0]`` for
   * one built from type parameters, which no lookup by name finds).
   */
  constraints: string[];
}
