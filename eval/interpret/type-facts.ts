// Questions about types the language asks all the time, answered from the runtime's metadata.

import { csharpName } from '../format/type-names.js';
import type { IntegralKind, PrimitiveKind } from '../semantics/numeric-types.js';
import type { MetadataProvider, TypeDescriptor, TypeHandle } from '../runtime.js';
import { primitiveKindOfName } from './primitives.js';

/** A static type: a runtime type, or the type of the `null` literal. */
export type SType = TypeHandle | 'null';

export class TypeFacts {
  constructor(readonly md: MetadataProvider) {}

  describe(t: TypeHandle): Promise<TypeDescriptor> {
    return this.md.describe(t);
  }

  async name(t: SType): Promise<string> {
    return t === 'null' ? '<null>' : csharpName(this.md, t);
  }

  async fullName(t: TypeHandle): Promise<string> {
    return (await this.md.describe(t)).fullName;
  }

  same(a: SType, b: SType): boolean {
    return a === 'null' || b === 'null' ? a === b : a.key === b.key;
  }

  private readonly names = new Map<string, Promise<string>>();
  /** The names `names` has resolved: read synchronously on the per-element paths. */
  private readonly resolvedNames = new Map<string, string>();

  /** The reflection name, once per type and evaluation (asked for every operator applied). */
  private cachedName(t: TypeHandle): Promise<string> {
    let n = this.names.get(t.key);
    if (!n) {
      n = this.fullName(t);
      this.names.set(t.key, n);
      n.then(
        (name) => this.resolvedNames.set(t.key, name),
        () => this.names.delete(t.key),
      );
    }
    return n;
  }

  /**
   * The primitive kind of a type whose name was already asked for (`primitive`, `isString`):
   * undefined when not known yet (then ask `primitive`), null when not a primitive.
   */
  knownPrimitive(t: SType): PrimitiveKind | null | undefined {
    if (t === 'null') return null;
    const name = this.resolvedNames.get(t.key);
    return name === undefined ? undefined : (primitiveKindOfName(name) ?? null);
  }

  async primitive(t: SType): Promise<PrimitiveKind | undefined> {
    return t === 'null' ? undefined : primitiveKindOfName(await this.cachedName(t));
  }

  async isString(t: SType): Promise<boolean> {
    return t !== 'null' && (await this.cachedName(t)) === 'System.String';
  }

  async isObject(t: SType): Promise<boolean> {
    return t !== 'null' && (await this.fullName(t)) === 'System.Object';
  }

  async isValueType(t: SType): Promise<boolean> {
    if (t === 'null') return false;
    const k = (await this.md.describe(t)).kind;
    const valueType = k === 'struct' || k === 'enum';
    this.valueTypes.set(t.key, valueType);
    return valueType;
  }

  private readonly valueTypes = new Map<string, boolean>();

  /** What `isValueType` answered for this type before, else undefined (then ask it). */
  knownValueType(t: SType): boolean | undefined {
    return t === 'null' ? false : this.valueTypes.get(t.key);
  }

  async isReferenceType(t: SType): Promise<boolean> {
    return t === 'null' || !(await this.isValueType(t));
  }

  /** A delegate type: one deriving from System.MulticastDelegate (the debugger says 'class'). */
  async isDelegate(t: SType): Promise<boolean> {
    if (t === 'null') return false;
    const d = await this.md.describe(t);
    if (d.kind === 'delegate') return true;
    if (d.kind !== 'class' || !d.baseType) return false;
    const base = (await this.md.describe(d.baseType)).fullName;
    return base === 'System.MulticastDelegate';
  }

  async isEnum(t: SType): Promise<boolean> {
    return t !== 'null' && (await this.md.describe(t)).kind === 'enum';
  }

  async enumUnderlying(t: TypeHandle): Promise<IntegralKind> {
    const d = await this.md.describe(t);
    const k = d.enumUnderlying ? primitiveKindOfName(d.enumUnderlying) : undefined;
    if (!k || k === 'bool' || k === 'float' || k === 'double' || k === 'decimal') return 'int';
    return k;
  }

  /** T for Nullable<T>, else undefined. */
  async nullableUnderlying(t: SType): Promise<TypeHandle | undefined> {
    if (t === 'null') return undefined;
    const d = await this.md.describe(t);
    if (!d.genericDefinition) return undefined;
    const def = await this.md.describe(d.genericDefinition);
    return def.fullName === 'System.Nullable`1' ? d.typeArguments[0] : undefined;
  }

  /** The type and its base types, nearest first. */
  async chain(t: TypeHandle): Promise<TypeDescriptor[]> {
    const out: TypeDescriptor[] = [];
    for (let c: TypeHandle | undefined = t; c; c = out.at(-1)?.baseType) {
      out.push(await this.md.describe(c));
    }
    return out;
  }

  /**
   * The type nested in `t` by its reflection name (`Inner`, `Inner\`1`). A closed generic has no
   * nested types of its own in the metadata: C#'s `List<int>.Enumerator` is the definition's
   * nested type (`List\`1+Enumerator`, generic over the outer's parameters) closed over `t`'s
   * arguments.
   */
  async nested(
    t: TypeHandle,
    reflection: string,
    ownArity: number,
  ): Promise<TypeHandle | undefined> {
    const direct = (await this.md.members(t, reflection)).nestedTypes[0];
    if (direct || ownArity > 0) return direct;
    const d = await this.md.describe(t);
    if (!d.genericDefinition || d.typeArguments.length === 0) return undefined;
    const open = (await this.md.members(d.genericDefinition, reflection)).nestedTypes[0];
    return open ? this.md.constructGeneric(open, d.typeArguments) : undefined;
  }

  /** A reference/boxing/identity conversion from `from` to `to`. */
  async assignable(to: TypeHandle, from: TypeHandle): Promise<boolean> {
    return this.same(to, from) || this.md.isAssignable(to, from);
  }
}
