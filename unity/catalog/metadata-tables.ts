// The streams of a metadata root (ECMA-335 Partition II §24.2): the `#~` table stream, the
// `#Strings`, `#Blob` and `#GUID` heaps. Every read is bounds-checked; a bad index throws
// MetadataFormatError, and nothing loops on counts the image did not prove it has room for.

import { CodedIndex, columnWidths, Table, tagBitsOf } from './metadata-schema.js';
import { locateMetadata, MetadataFormatError, readStreams, Region } from './pe-image.js';

export interface MetadataStreams {
  tables: Tables;
  strings: StringHeap;
  blobs: BlobHeap;
  guids: Region | undefined;
}

/** Locates the metadata root of a PE image and opens its streams. */
export function openStreams(image: Uint8Array): MetadataStreams {
  const streams = readStreams(locateMetadata(image));
  // Like Mono, the last stream of a name wins.
  const stream = (...names: string[]): Region | undefined => {
    let found: Region | undefined;
    for (const s of streams) if (names.includes(s.name)) found = s.region;
    return found;
  };
  const tablesStream = stream('#~', '#-');
  if (!tablesStream) throw new MetadataFormatError('metadata has no #~ tables stream');
  return {
    tables: new Tables(tablesStream),
    strings: new StringHeap(stream('#Strings')),
    blobs: new BlobHeap(stream('#Blob')),
    guids: stream('#GUID'),
  };
}

/** The `#~` stream: row counts, row sizes and where each table starts (II.24.2.6). */
export class Tables {
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
    // Only tables up to GenericParamConstraint are needed; ECMA-335 defines every one of them.
    for (let t = 0; t <= Table.GenericParamConstraint; t++) {
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

  /** Row `n` of a table, which must exist. */
  need(table: number, n: number, what: string): Row {
    const r = this.row(table, n);
    if (!r)
      throw new MetadataFormatError(`${what} names row ${n} of table 0x${table.toString(16)}`);
    return r;
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

export class Row {
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
export class StringHeap {
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

/**
 * An unsigned compressed integer (II.23.2): 1, 2 or 4 bytes, big-endian, the length in the top
 * bits of the first byte. Returns [value, bytes used].
 */
export function readCompressed(region: Region, at: number, what: string): [number, number] {
  const b0 = region.u8(at, what);
  if ((b0 & 0x80) === 0) return [b0, 1];
  if ((b0 & 0xc0) === 0x80) return [((b0 & 0x3f) << 8) | region.u8(at + 1, what), 2];
  if ((b0 & 0xe0) === 0xc0) {
    region.need(at, 4, what);
    const b = region.bytes;
    return [(b0 & 0x1f) * 2 ** 24 + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!, 4];
  }
  throw new MetadataFormatError(`bad compressed integer in ${what}`, at);
}

/** The `#Blob` heap: each blob is a compressed length and that many bytes (II.24.2.4). */
export class BlobHeap {
  constructor(private readonly region: Region | undefined) {}

  /** Blob `index` as its own region (index 0 is the empty blob). */
  at(index: number, what: string): Region {
    const r = this.region;
    if (!r) {
      if (index === 0) return emptyRegion;
      throw new MetadataFormatError(`${what}: metadata has no #Blob heap`);
    }
    if (index >= r.length) {
      throw new MetadataFormatError(`${what}: blob index ${index} is outside the #Blob heap`);
    }
    const [length, used] = readCompressed(r, r.start + index, `${what} length`);
    return r.sub(r.start + index + used, length, what);
  }
}

const emptyRegion = new Region(new Uint8Array(0), 0, 0, 'empty blob');

/** GUID `index` (1-based) of the `#GUID` heap, formatted like Mono's mono_guid_to_string. */
export function readGuid(heap: Region | undefined, index: number): string {
  if (index === 0) return '';
  if (!heap) throw new MetadataFormatError('metadata has no #GUID heap');
  const at = heap.start + (index - 1) * 16;
  heap.need(at, 16, 'module MVID');
  const b = (i: number): string => heap.bytes[at + i]!.toString(16).padStart(2, '0');
  const hex = (...i: number[]): string => i.map(b).join('');
  return `${hex(3, 2, 1, 0)}-${hex(5, 4)}-${hex(7, 6)}-${hex(8, 9)}-${hex(10, 11, 12, 13, 14, 15)}`.toUpperCase();
}

/**
 * The rows a list column gives row `row` of `owner` (TypeDef.MethodList, MethodDef.ParamList:
 * "the first of a contiguous run", II.22): from its value up to the next owner row's, or to the
 * end of the target table. Through the pointer table (MethodPtr, ParamPtr) when the image has
 * one, as uncompressed `#-` images may.
 */
export function listRows(
  tables: Tables,
  list: { owner: number; row: number; column: number; pointer: number; target: number },
  what: string,
): number[] {
  const { owner, row, column, pointer, target } = list;
  const viaPointer = tables.rows[pointer]! > 0;
  const count = viaPointer ? tables.rows[pointer]! : tables.rows[target]!;
  const start = tables.need(owner, row, what).index(column);
  const next = tables.row(owner, row + 1);
  const end = next ? next.index(column) : count + 1;
  if (start < 1 || start > end || end > count + 1) {
    throw new MetadataFormatError(`${what} of row ${row} is [${start}, ${end}) of ${count} rows`);
  }
  const out: number[] = [];
  for (let i = start; i < end; i++) {
    out.push(viaPointer ? tables.need(pointer, i, what).index(0) : i);
  }
  return out;
}
