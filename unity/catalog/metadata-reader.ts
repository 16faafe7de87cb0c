// A small, strict ECMA-335 metadata reader: every TypeDef of an assembly image with its
// reflection full name, as Mono's agent spells it (TYPE.GET_INFO full name, format FULL_NAME).
// No SDB command lists the types of an assembly, so the catalogue reads them from the image.
// Everything is bounds-checked; a malformed image throws MetadataFormatError, and nothing loops
// on counts the image did not prove it has room for.

import { CodedIndex, columnWidths, Table, tagBitsOf } from './metadata-schema.js';
import type { Region } from './pe-image.js';
import { locateMetadata, MetadataFormatError, readStreams } from './pe-image.js';
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

/** Reads every TypeDef (including `<Module>`, row 1) of a PE image. */
export function readAssemblyMetadata(image: Uint8Array): AssemblyMetadata {
  const streams = readStreams(locateMetadata(image));
  // Like Mono, the last stream of a name wins.
  const stream = (...names: string[]): Region | undefined => {
    let found: Region | undefined;
    for (const s of streams) if (names.includes(s.name)) found = s.region;
    return found;
  };
  const tablesStream = stream('#~', '#-');
  if (!tablesStream) throw new MetadataFormatError('metadata has no #~ tables stream');
  const tables = new Tables(tablesStream);
  const strings = new StringHeap(stream('#Strings'));
  const guids = stream('#GUID');

  const module = tables.row(Table.Module, 1);
  const mvid = module ? readGuid(guids, module.index(2)) : '';

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

  const typeRefName = typeRefNamer(tables, strings);
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
  return {
    mvid,
    types: raw.map((t, i) => ({
      token: 0x02000000 | (i + 1),
      flags: t.flags,
      namespace: t.namespace,
      name: t.name,
      fullName: fullNames[i]!,
      enclosingToken: enclosing[i + 1] ? 0x02000000 | enclosing[i + 1]! : 0,
      extends: t.extends,
    })),
  };
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

/** The `#~` stream: row counts, row sizes and where each table starts (II.24.2.6). */
class Tables {
  readonly rows: number[] = new Array<number>(64).fill(0);
  private readonly offsets: number[] = [];
  private readonly widths: (readonly number[])[] = [];
  private readonly rowSizes: number[] = [];

  constructor(private readonly region: Region) {
    const s = region.start;
    const heapSizes = region.u8(s + 6, 'heap sizes');
    const validLow = region.u32(s + 8, 'valid mask');
    const validHigh = region.u32(s + 12, 'valid mask');
    let at = s + 24;
    for (let t = 0; t < 64; t++) {
      const present = t < 32 ? (validLow >>> t) & 1 : (validHigh >>> (t - 32)) & 1;
      if (!present) continue;
      this.rows[t] = region.u32(at, `row count of table 0x${t.toString(16)}`);
      at += 4;
    }
    // Only tables up to NestedClass are needed; every one of them is defined by ECMA-335.
    for (let t = 0; t <= Table.NestedClass; t++) {
      const widths = columnWidths(t, this.rows, heapSizes);
      const size = widths.reduce((a, b) => a + b, 0);
      const length = this.rows[t]! * size;
      region.need(at, length, `table 0x${t.toString(16)}`);
      this.offsets[t] = at;
      this.widths[t] = widths;
      this.rowSizes[t] = size;
      at += length;
    }
  }

  /** Row `n` (1-based) of a table, or undefined when the table has fewer rows. */
  row(table: number, n: number): Row | undefined {
    if (n < 1 || n > this.rows[table]!) return undefined;
    return new Row(
      this.region,
      this.offsets[table]! + (n - 1) * this.rowSizes[table]!,
      this.widths[table]!,
    );
  }

  /** Splits a coded index into [table, row]; row 0 means null. */
  decode(kind: keyof typeof CodedIndex, value: number): [number, number] {
    const targets: readonly number[] = CodedIndex[kind];
    const bits = tagBitsOf(targets.length);
    const table = targets[value & ((1 << bits) - 1)];
    if (table === undefined || table < 0) {
      throw new MetadataFormatError(`bad ${kind} coded index 0x${value.toString(16)}`);
    }
    return [table, Math.floor(value / 2 ** bits)];
  }
}

class Row {
  constructor(
    private readonly region: Region,
    private readonly at: number,
    private readonly widths: readonly number[],
  ) {}

  /** Column `c` as an unsigned integer (fixed-width value or index). */
  index(c: number): number {
    let offset = this.at;
    for (let i = 0; i < c; i++) offset += this.widths[i]!;
    return this.region.index(offset, this.widths[c]!, 'table row');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The `#Strings` heap: NUL-terminated UTF-8, decoded once per offset. */
class StringHeap {
  private readonly cache = new Map<number, string>();
  /** Offsets of every NUL, found in one pass: hostile images cannot make lookups quadratic. */
  private nuls: Uint32Array | undefined;
  constructor(private readonly region: Region | undefined) {}

  at(index: number): string {
    if (index === 0) return '';
    const cached = this.cache.get(index);
    if (cached !== undefined) return cached;
    const r = this.region;
    if (!r || index >= r.length) {
      throw new MetadataFormatError(`string index ${index} is outside the #Strings heap`);
    }
    const start = r.start + index;
    const end = this.nextNul(r, start);
    if (end < 0) throw new MetadataFormatError('unterminated string', start);
    let s: string;
    try {
      s = utf8.decode(r.bytes.subarray(start, end));
    } catch {
      throw new MetadataFormatError('string is not valid UTF-8', start);
    }
    this.cache.set(index, s);
    return s;
  }

  private nextNul(r: Region, from: number): number {
    if (!this.nuls) {
      let n = 0;
      for (let i = r.start; i < r.end; i++) if (r.bytes[i] === 0) n++;
      const nuls = new Uint32Array(n);
      n = 0;
      for (let i = r.start; i < r.end; i++) if (r.bytes[i] === 0) nuls[n++] = i;
      this.nuls = nuls;
    }
    const nuls = this.nuls;
    let lo = 0;
    let hi = nuls.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (nuls[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < nuls.length ? nuls[lo]! : -1;
  }
}

/** GUID `index` (1-based) of the `#GUID` heap, formatted like Mono's mono_guid_to_string. */
function readGuid(heap: Region | undefined, index: number): string {
  if (index === 0) return '';
  if (!heap) throw new MetadataFormatError('metadata has no #GUID heap');
  const at = heap.start + (index - 1) * 16;
  heap.need(at, 16, 'module MVID');
  const b = (i: number): string => heap.bytes[at + i]!.toString(16).padStart(2, '0');
  const hex = (...i: number[]): string => i.map(b).join('');
  return `${hex(3, 2, 1, 0)}-${hex(5, 4)}-${hex(7, 6)}-${hex(8, 9)}-${hex(10, 11, 12, 13, 14, 15)}`.toUpperCase();
}
