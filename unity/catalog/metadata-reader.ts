// A small, strict ECMA-335 metadata reader: an opened assembly image (its tables and heaps, read
// by metadata-tables.ts; its methods by method-metadata.ts), and every TypeDef with its
// reflection full name, as Mono's agent spells it (TYPE.GET_INFO full name, format FULL_NAME).
// No SDB command lists the types of an assembly, so the catalogue reads them from the image.
// Everything is bounds-checked; a malformed image throws MetadataFormatError, and nothing loops
// on counts the image did not prove it has room for.

import { Table } from './metadata-schema.js';
import {
  openStreams,
  readGuid,
  type BlobHeap,
  type StringHeap,
  type Tables,
} from './metadata-tables.js';
import { MetadataFormatError } from './pe-image.js';
import { escapeTypeNameChars } from './type-names.js';

export { MetadataFormatError } from './pe-image.js';

export interface MetadataTypeDef {
  /** Metadata token, 0x02xxxxxx (ASSEMBLY.GET_TYPE_FROM_TOKEN takes it). */
  token: number;
  /** TypeAttributes. */
  flags: number;
  /** As stored ("" for nested types in practice). */
  namespace: string;
  /** As stored, generic arity kept (``List`1``). */
  name: string;
  /** Reflection full name: ``Ns.Outer`1+Inner``, special characters escaped like Mono does. */
  fullName: string;
  /** Token of the enclosing type, 0 for a top-level type. */
  enclosingToken: number;
  /** Full name of the base type when it is a TypeDef or TypeRef; undefined if none or generic. */
  extends: string | undefined;
}

export interface AssemblyMetadata {
  /** The module's MVID, formatted like Mono's MODULE.GET_INFO guid (upper-case, dashed). */
  mvid: string;
  types: MetadataTypeDef[];
}

/** An opened assembly image: its streams, its MVID, and (computed once) its TypeDefs. */
export class MetadataImage {
  readonly tables: Tables;
  readonly strings: StringHeap;
  readonly blobs: BlobHeap;
  /** The module's MVID, formatted like Mono's MODULE.GET_INFO guid (upper-case, dashed). */
  readonly mvid: string;
  private typeDefList: MetadataTypeDef[] | undefined;
  private typeRefNames: ((row: number) => string) | undefined;

  constructor(image: Uint8Array) {
    const s = openStreams(image);
    this.tables = s.tables;
    this.strings = s.strings;
    this.blobs = s.blobs;
    const module = s.tables.row(Table.Module, 1);
    this.mvid = module ? readGuid(s.guids, module.index(2)) : '';
  }

  /** Every TypeDef (including `<Module>`, row 1), in row order. */
  typeDefs(): MetadataTypeDef[] {
    return (this.typeDefList ??= readTypeDefs(this.tables, this.strings, this.typeRefName));
  }

  /** Full name of TypeRef row `row` (nested references as `Outer+Inner`). */
  readonly typeRefName = (row: number): string =>
    (this.typeRefNames ??= typeRefNamer(this.tables, this.strings))(row);
}

/** Reads every TypeDef (including `<Module>`, row 1) of a PE image. */
export function readAssemblyMetadata(image: Uint8Array): AssemblyMetadata {
  const m = new MetadataImage(image);
  return { mvid: m.mvid, types: m.typeDefs() };
}

function readTypeDefs(
  tables: Tables,
  strings: StringHeap,
  typeRefName: (row: number) => string,
): MetadataTypeDef[] {
  const typeDefCount = tables.rows[Table.TypeDef]!;
  if (typeDefCount > 0xffffff) throw new MetadataFormatError('more TypeDefs than tokens can name');
  const enclosing = new Uint32Array(typeDefCount + 1);
  for (let i = 1; i <= tables.rows[Table.NestedClass]!; i++) {
    const r = tables.row(Table.NestedClass, i)!;
    const nested = r.index(0);
    const outer = r.index(1);
    if (nested < 1 || nested > typeDefCount || outer < 1 || outer > typeDefCount) {
      throw new MetadataFormatError(`NestedClass row ${i} points outside the TypeDef table`);
    }
    enclosing[nested] = outer;
  }

  const raw: { flags: number; namespace: string; name: string; extends: string | undefined }[] = [];
  for (let i = 1; i <= typeDefCount; i++) {
    const r = tables.row(Table.TypeDef, i)!;
    raw.push({
      flags: r.index(0),
      name: strings.at(r.index(1)),
      namespace: strings.at(r.index(2)),
      extends: undefined,
    });
  }
  const fullNames = nestedFullNames(raw, enclosing);
  for (let i = 1; i <= typeDefCount; i++) {
    const [table, row] = tables.decode('TypeDefOrRef', tables.row(Table.TypeDef, i)!.index(3));
    if (row === 0) continue;
    if (table === Table.TypeDef) {
      if (row > typeDefCount) throw new MetadataFormatError(`TypeDef ${i} extends a bad row`);
      raw[i - 1]!.extends = fullNames[row - 1];
    } else if (table === Table.TypeRef) {
      raw[i - 1]!.extends = typeRefName(row);
    }
  }
  return raw.map((t, i) => ({
    token: 0x02000000 | (i + 1),
    flags: t.flags,
    namespace: t.namespace,
    name: t.name,
    fullName: fullNames[i]!,
    enclosingToken: enclosing[i + 1] ? 0x02000000 | enclosing[i + 1]! : 0,
    extends: t.extends,
  }));
}

/** `Ns.Name`, or `Outer+Name` for nested types (Mono ignores a nested type's namespace). */
function nestedFullNames(
  raw: readonly { namespace: string; name: string }[],
  enclosing: Uint32Array,
): string[] {
  const names: (string | undefined)[] = new Array<string | undefined>(raw.length);
  const onPath = new Uint8Array(raw.length + 1);
  for (let start = 1; start <= raw.length; start++) {
    // Iterative: a hostile image can nest arbitrarily deep, and must not overflow the stack.
    const path: number[] = [];
    let row = start;
    while (names[row - 1] === undefined) {
      if (onPath[row]) throw new MetadataFormatError(`TypeDef ${row} is nested in itself`);
      onPath[row] = 1;
      path.push(row);
      const outer = enclosing[row]!;
      if (outer === 0) break;
      row = outer;
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const r = path[i]!;
      onPath[r] = 0;
      const t = raw[r - 1]!;
      const outer = enclosing[r]!;
      names[r - 1] =
        outer !== 0
          ? `${names[outer - 1]!}+${escapeTypeNameChars(t.name)}`
          : t.namespace
            ? `${escapeTypeNameChars(t.namespace)}.${escapeTypeNameChars(t.name)}`
            : escapeTypeNameChars(t.name);
    }
  }
  return names as string[];
}

function typeRefNamer(tables: Tables, strings: StringHeap): (row: number) => string {
  const count = tables.rows[Table.TypeRef]!;
  const memo = new Map<number, string>();
  return (start) => {
    // Walk out through enclosing TypeRefs (nested type references) to one already named or
    // to a top-level one, then name the path inside out.
    const path: number[] = [];
    let outer: string | undefined;
    for (let row = start; ;) {
      outer = memo.get(row);
      if (outer !== undefined) break;
      if (row < 1 || row > count) throw new MetadataFormatError(`bad TypeRef row ${row}`);
      if (path.includes(row)) throw new MetadataFormatError(`TypeRef ${row} is nested in itself`);
      if (path.length >= 64) throw new MetadataFormatError('TypeRef nesting too deep');
      path.push(row);
      const scope = tables.row(Table.TypeRef, row)!.index(0);
      const [table, scopeRow] = tables.decode('ResolutionScope', scope);
      if (table !== Table.TypeRef || scopeRow === 0) break;
      row = scopeRow;
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const r = tables.row(Table.TypeRef, path[i]!)!;
      const simple = escapeTypeNameChars(strings.at(r.index(1)));
      const ns = strings.at(r.index(2));
      outer =
        outer !== undefined
          ? `${outer}+${simple}`
          : ns
            ? `${escapeTypeNameChars(ns)}.${simple}`
            : simple;
      memo.set(path[i]!, outer);
    }
    return outer!;
  };
}
