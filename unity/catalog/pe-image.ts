// The PE/COFF layer of an assembly (ECMA-335 Partition II §25): from the file's bytes to the
// CLI metadata root. Every read is bounds-checked against the region it belongs to, so a
// truncated or hostile image fails with MetadataFormatError, never a RangeError or garbage.

/** The image is not a well-formed .NET assembly (or not one at all). */
export class MetadataFormatError extends Error {
  override name = 'MetadataFormatError';
  readonly code = 'BAD_METADATA';
  constructor(
    message: string,
    /** Byte offset in the image where the problem was found, when known. */
    readonly offset?: number,
  ) {
    super(offset === undefined ? message : `${message} (at offset ${offset})`);
  }
}

/** A bounds-checked little-endian view of [start, end) of an image. */
export class Region {
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly what: string,
  ) {
    if (start < 0 || end > bytes.length || start > end) {
      throw new MetadataFormatError(`${what} lies outside the image`, start);
    }
  }

  get length(): number {
    return this.end - this.start;
  }

  /** Throws unless [offset, offset + n) lies inside this region (offsets are absolute). */
  need(offset: number, n: number, what: string): void {
    if (!Number.isSafeInteger(offset) || offset < this.start || offset + n > this.end) {
      throw new MetadataFormatError(`${what} lies outside the ${this.what}`, offset);
    }
  }

  u8(offset: number, what: string): number {
    this.need(offset, 1, what);
    return this.bytes[offset]!;
  }

  u16(offset: number, what: string): number {
    this.need(offset, 2, what);
    return this.bytes[offset]! | (this.bytes[offset + 1]! << 8);
  }

  u32(offset: number, what: string): number {
    this.need(offset, 4, what);
    const b = this.bytes;
    return (b[offset]! | (b[offset + 1]! << 8) | (b[offset + 2]! << 16)) + b[offset + 3]! * 2 ** 24;
  }

  /** An unsigned index of 2 or 4 bytes. */
  index(offset: number, width: number, what: string): number {
    return width === 2 ? this.u16(offset, what) : this.u32(offset, what);
  }

  sub(offset: number, length: number, what: string): Region {
    this.need(offset, length, what);
    return new Region(this.bytes, offset, offset + length, what);
  }
}

interface Section {
  virtualAddress: number;
  rawSize: number;
  rawPointer: number;
}

const MZ = 0x5a4d;
const PE_SIGNATURE = 0x00004550;
const PE32 = 0x10b;
const PE32_PLUS = 0x20b;
const CLI_HEADER_DIRECTORY = 14;
const METADATA_SIGNATURE = 0x424a5342; // "BSJB"

/** The metadata root (II.24.2.1) of a PE image: the region holding the metadata streams. */
export function locateMetadata(image: Uint8Array): Region {
  const file = new Region(image, 0, image.length, 'image');
  if (image.length < 0x40 || file.u16(0, 'DOS signature') !== MZ) {
    throw new MetadataFormatError('not a PE image: no MZ signature', 0);
  }
  const pe = file.u32(0x3c, 'PE header offset');
  if (file.u32(pe, 'PE signature') !== PE_SIGNATURE) {
    throw new MetadataFormatError('not a PE image: no PE signature', pe);
  }
  const coff = pe + 4;
  const sectionCount = file.u16(coff + 2, 'section count');
  const optionalSize = file.u16(coff + 16, 'optional header size');
  const optional = file.sub(coff + 20, optionalSize, 'optional header');
  const magic = optional.u16(optional.start, 'optional header magic');
  if (magic !== PE32 && magic !== PE32_PLUS) {
    throw new MetadataFormatError(`unknown optional header magic 0x${magic.toString(16)}`);
  }
  const dirCountAt = optional.start + (magic === PE32 ? 92 : 108);
  const dirs = dirCountAt + 4;
  if (optional.u32(dirCountAt, 'data directory count') <= CLI_HEADER_DIRECTORY) {
    throw new MetadataFormatError('not a .NET assembly: no CLI header directory');
  }
  const cliRva = optional.u32(dirs + CLI_HEADER_DIRECTORY * 8, 'CLI header RVA');
  const cliSize = optional.u32(dirs + CLI_HEADER_DIRECTORY * 8 + 4, 'CLI header size');
  if (cliRva === 0) throw new MetadataFormatError('not a .NET assembly: empty CLI header');

  const sectionTable = file.sub(optional.end, sectionCount * 40, 'section table');
  const sections: Section[] = [];
  for (let s = sectionTable.start; s < sectionTable.end; s += 40) {
    sections.push({
      virtualAddress: sectionTable.u32(s + 12, 'section address'),
      rawSize: sectionTable.u32(s + 16, 'section raw size'),
      rawPointer: sectionTable.u32(s + 20, 'section raw pointer'),
    });
  }
  const map = (rva: number, size: number, what: string): Region => {
    // Like Mono's mono_cli_rva_image_map: only a section's raw bytes back an RVA.
    for (const s of sections) {
      if (rva >= s.virtualAddress && rva < s.virtualAddress + s.rawSize) {
        if (rva + size > s.virtualAddress + s.rawSize) break;
        return file.sub(rva - s.virtualAddress + s.rawPointer, size, what);
      }
    }
    throw new MetadataFormatError(`${what} (RVA 0x${rva.toString(16)}) is in no section`);
  };

  const cli = map(cliRva, Math.max(cliSize, 16), 'CLI header');
  const metadata = map(
    cli.u32(cli.start + 8, 'metadata RVA'),
    cli.u32(cli.start + 12, 'metadata size'),
    'metadata',
  );
  if (metadata.u32(metadata.start, 'metadata signature') !== METADATA_SIGNATURE) {
    throw new MetadataFormatError('metadata root has no BSJB signature', metadata.start);
  }
  return metadata;
}

export interface Stream {
  name: string;
  region: Region;
}

/** The stream headers of the metadata root (II.24.2.2). */
export function readStreams(root: Region): Stream[] {
  const versionLength = root.u32(root.start + 12, 'version length');
  if (versionLength > 255) {
    throw new MetadataFormatError(`implausible version length ${versionLength}`, root.start + 12);
  }
  const flagsAt = root.start + 16 + ((versionLength + 3) & ~3);
  const count = root.u16(flagsAt + 2, 'stream count');
  let at = flagsAt + 4;
  const streams: Stream[] = [];
  for (let i = 0; i < count; i++) {
    const offset = root.u32(at, 'stream offset');
    const size = root.u32(at + 4, 'stream size');
    let name = '';
    let end = at + 8;
    for (;;) {
      const c = root.u8(end, 'stream name');
      if (c === 0) break;
      if (end - at - 8 >= 32) throw new MetadataFormatError('stream name too long', at + 8);
      name += String.fromCharCode(c);
      end++;
    }
    const nameBytes = end - (at + 8) + 1;
    streams.push({ name, region: root.sub(root.start + offset, size, `${name} stream`) });
    at += 8 + ((nameBytes + 3) & ~3);
  }
  return streams;
}
