// What the evaluator needs from a running game, and nothing more. `eval/` defines it and
// `unity/` implements it over the debugger session, the way mono/debugger-libs keeps
// ObjectValueAdaptor in its evaluator and implements it in SoftDebuggerAdaptor; unit tests use a
// fake. Two halves: metadata (types and members, no side effects, safe while binding) and game
// access (reads, writes, invokes: only while evaluating).

import type { ElementColumn, EvalValue } from './values.js';

/** A type as the runtime knows it. Opaque to the evaluator but for the fields below. */
export interface TypeHandle {
  /** Runtime-specific identity; equal handles denote the same type. */
  readonly key: string;
}

export type TypeKind = 'class' | 'struct' | 'enum' | 'interface' | 'array' | 'pointer' | 'delegate';

export interface TypeDescriptor {
  readonly handle: TypeHandle;
  /** Reflection name: `Ns.Outer+Inner`, closed generics with `[[...]]` arguments. */
  readonly fullName: string;
  readonly namespace: string;
  /** Simple name with arity: `List\`1`. */
  readonly name: string;
  readonly kind: TypeKind;
  readonly baseType: TypeHandle | undefined;
  /** Arrays: element type and rank. */
  readonly elementType: TypeHandle | undefined;
  readonly rank: number;
  /** Enums: the underlying integral type's reflection name (`System.Int32`). */
  readonly enumUnderlying: string | undefined;
  /** Generic instances: their definition and arguments; definitions: their parameters. */
  readonly genericDefinition: TypeHandle | undefined;
  readonly typeArguments: readonly TypeHandle[];
  readonly isAbstract: boolean;
  readonly isSealed: boolean;
}

export type RefKind = 'none' | 'ref' | 'out' | 'in';

export interface ParameterDescriptor {
  readonly name: string;
  readonly type: TypeHandle;
  readonly refKind: RefKind;
  /** Has a default value (C# optional parameter). */
  readonly optional: boolean;
  /** The default, when optional and representable. */
  readonly defaultValue: EvalValue | undefined;
  /** `params T[]`. */
  readonly isParams: boolean;
}

export interface FieldDescriptor {
  readonly handle: unknown;
  readonly name: string;
  readonly declaringType: TypeHandle;
  readonly type: TypeHandle;
  readonly isStatic: boolean;
  /** A `const`: its value is known without reading the game. */
  readonly constant: EvalValue | undefined;
  readonly isReadOnly: boolean;
  readonly isPublic: boolean;
}

export interface MethodDescriptor {
  readonly handle: unknown;
  readonly name: string;
  readonly declaringType: TypeHandle;
  readonly isStatic: boolean;
  readonly isVirtual: boolean;
  readonly isAbstract: boolean;
  readonly isConstructor: boolean;
  readonly isPublic: boolean;
  readonly parameters: readonly ParameterDescriptor[];
  readonly returnType: TypeHandle | undefined; // undefined for void
  /** Method type parameters (0 for non-generic). */
  readonly genericArity: number;
  /** For generic definitions: how each parameter's type mentions method type parameters. */
  readonly genericParameterTypes?: readonly TypeHandle[];
  /**
   * For generic definitions: each method type parameter's constraints, in order; absent when
   * the runtime cannot read them (the runtime then refuses a bad instantiation itself).
   */
  readonly genericConstraints?: readonly GenericConstraints[];
}

/** What a type argument must be for a method type parameter (`where T : class, Base, new()`). */
export interface GenericConstraints {
  /** The parameter's name (`T`). */
  readonly name: string;
  /** `class`. */
  readonly referenceType: boolean;
  /** `struct` (a non-nullable value type). */
  readonly valueType: boolean;
  /** `new()`. */
  readonly defaultConstructor: boolean;
  /**
   * The base class and interfaces the argument must convert to; a constraint the runtime cannot
   * name (one built from type parameters, `IComparable<T>`) is left out.
   */
  readonly types: readonly TypeHandle[];
}

export interface PropertyDescriptor {
  readonly name: string;
  readonly declaringType: TypeHandle;
  readonly type: TypeHandle;
  readonly getter: MethodDescriptor | undefined;
  readonly setter: MethodDescriptor | undefined;
  readonly isStatic: boolean;
  /** Indexer parameters (empty for plain properties). */
  readonly parameters: readonly ParameterDescriptor[];
}

export interface MemberSet {
  readonly fields: readonly FieldDescriptor[];
  readonly properties: readonly PropertyDescriptor[];
  readonly methods: readonly MethodDescriptor[];
  /** Nested types of this name. */
  readonly nestedTypes: readonly TypeHandle[];
}

/** Metadata only: never reads or changes the game's state. */
export interface MetadataProvider {
  /** A type by reflection name (`System.Int32`, `Game.Probe`, `Ns.Outer+Inner`, `List\`1`). */
  findType(name: string): Promise<TypeHandle | undefined>;
  /** Every type of this simple name (arity kept: `List\`1`) in any namespace (for `anyNamespace`). */
  typesNamed(simpleName: string): Promise<TypeHandle[]>;
  /** The interfaces a type implements, inherited ones included. */
  interfaces(type: TypeHandle): Promise<TypeHandle[]>;
  /** Whether a namespace exists (for name lookup of `A.B.C`). */
  hasNamespace(name: string): Promise<boolean>;
  describe(type: TypeHandle): Promise<TypeDescriptor>;
  /** Members of this name declared on the type itself (not inherited). */
  members(type: TypeHandle, name: string): Promise<MemberSet>;
  /** Every member name declared on the type (for suggestions on a miss). */
  memberNames(type: TypeHandle): Promise<string[]>;
  /** The member names of the type (and its bases) closest to a missed one, best first. */
  closestMemberNames?(type: TypeHandle, name: string): Promise<string[]>;
  /** Every field declared on the type, in declaration order, statics included. */
  allFields(type: TypeHandle): Promise<FieldDescriptor[]>;
  /** A reference, boxing or identity conversion from `from` to `to` exists. */
  isAssignable(to: TypeHandle, from: TypeHandle): Promise<boolean>;
  /** A closed generic type (`List<int>`), or a clear error when the runtime cannot name it. */
  constructGeneric(definition: TypeHandle, args: readonly TypeHandle[]): Promise<TypeHandle>;
  /** An array type of this element type and rank. */
  arrayOf(element: TypeHandle, rank: number): Promise<TypeHandle>;
  /**
   * A generic method instantiated with these type arguments; rejects with
   * InstantiationRefusedError when the runtime refuses them (they break a constraint).
   */
  instantiateMethod(
    method: MethodDescriptor,
    args: readonly TypeHandle[],
  ): Promise<MethodDescriptor>;
}

export interface InvokeResult {
  result: EvalValue;
  /** The receiver after the call (struct methods mutate a copy). */
  outThis?: EvalValue;
  /** Every argument after the call (out/ref). */
  outArgs?: EvalValue[];
}

export interface InvokeOptions {
  virtual: boolean;
  outThis: boolean;
  outArgs: boolean;
  /**
   * The call is this property's (or indexer's) setter in an assignment to a property of a
   * reference-type object or to a static property: a write to the game that a runtime may
   * journal (arguments: the index arguments, then the value). Not set for a setter called on a
   * struct value, which changes a copy (written back, when it is a variable, as a field write).
   */
  propertySet?: PropertyDescriptor;
}

/** Reads, writes and calls in the game. */
export interface GameAccess {
  readStatic(field: FieldDescriptor): Promise<EvalValue>;
  writeStatic(field: FieldDescriptor, value: EvalValue): Promise<void>;
  /** A field of a reference-type instance (struct fields are read from the value itself). */
  readField(target: EvalValue, field: FieldDescriptor): Promise<EvalValue>;
  /**
   * The field's value when it is already read (a bulk-read chunk's field read ahead), without a
   * promise; undefined when it is not (then `readField`).
   */
  readFieldNow?(target: EvalValue, field: FieldDescriptor): EvalValue | undefined;
  /**
   * Field `field` of every element of a chunk that `readElements` gave (the same column
   * object), read in one batch when it can be (64 elements or more, none null, a number, bool,
   * enum or string field): undefined when it cannot, or when the chunk's reads were dropped by
   * a game effect.
   */
  chunkColumn?(elements: ElementColumn, field: FieldDescriptor): Promise<ElementColumn | undefined>;
  writeField(target: EvalValue, field: FieldDescriptor, value: EvalValue): Promise<void>;
  invoke(
    method: MethodDescriptor,
    thisArg: EvalValue | undefined,
    args: readonly EvalValue[],
    options: InvokeOptions,
  ): Promise<InvokeResult>;
  /** Lengths per dimension. */
  arrayLengths(array: EvalValue): Promise<number[]>;
  /**
   * Lower bounds per dimension: C# indexes an array from its lower bound, which is 0 but for
   * arrays made by Array.CreateInstance(type, lengths, lowerBounds). All 0 when absent.
   */
  arrayLowerBounds?(array: EvalValue): Promise<number[]>;
  readElement(array: EvalValue, index: number): Promise<EvalValue>;
  /**
   * `count` elements from `index` (flat, row-major) in one read, when the runtime can: what
   * foreach and LINQ use over arrays and List<T> storage. Absent: one readElement each.
   */
  readElements?(array: EvalValue, index: number, count: number): Promise<ElementColumn>;
  writeElement(array: EvalValue, index: number, value: EvalValue): Promise<void>;
  newArray(element: TypeHandle, lengths: readonly number[]): Promise<EvalValue>;
  /** The text of a game string (bounded: `maxChars` with a clipping note left to the caller). */
  stringText(value: EvalValue, maxChars?: number): Promise<{ text: string; length: number }>;
  /** A string in the game (arguments of reference type must be game objects). */
  createString(text: string): Promise<EvalValue>;
  /** A boxed copy in the game of a value-type value, for `object`/interface slots. */
  box(value: EvalValue, type: TypeHandle): Promise<EvalValue>;
  /** The struct inside a box made by `box` (a copy: C#'s unboxing). */
  unbox(box: EvalValue, type: TypeHandle): Promise<EvalValue>;
  /** Stores a struct value into a box (after a call through an interface changed a copy). */
  rebox(box: EvalValue, value: EvalValue): Promise<void>;
  /** The `System.Type` object of a type (for `typeof`). */
  typeObject(type: TypeHandle): Promise<EvalValue>;
  /** The runtime type of an object or boxed value. */
  typeOf(value: EvalValue): Promise<TypeHandle>;
  /**
   * Lets the game run (resume, then suspend again) between two statements of a program that
   * asked for it (`budget.releaseBetweenStatements`); absent where the game cannot be released.
   */
  release?(): Promise<void>;
}

export interface Runtime {
  readonly metadata: MetadataProvider;
  readonly game: GameAccess;
}

/** The runtime refused a generic method's type arguments: they break one of its constraints. */
export class InstantiationRefusedError extends Error {
  override name = 'InstantiationRefusedError';
}

/** An exception thrown in the game, as the game reported it. */
export class GameExceptionError extends Error {
  override name = 'GameExceptionError';
  constructor(
    readonly type: string,
    readonly gameMessage: string,
    readonly stackTrace: string,
    /** The exception object in the game, when the runtime has it (for `catch (T e)`). */
    readonly exception?: EvalValue,
  ) {
    super(`${type}: ${gameMessage}`);
  }
}
