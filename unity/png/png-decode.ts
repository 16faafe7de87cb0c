// A PNG decoder for what games write (and for anything else valid): every colour type and bit
// depth of the PNG specification, all five row filters, Adam7 interlacing, palette and tRNS
// transparency. Ancillary chunks (gamma, colour profiles, text) are skipped; every chunk's CRC is
// checked. The result is always 8-bit RGBA (16-bit samples are rounded to 8 bits).

import { inflateSync } from 'node:zlib';

import { crc32 } from './crc32.js';
import { PngError, type RgbaImage } from './image.js';

export interface DecodedPng extends RgbaImage {
  /** The file carries transparency (an alpha channel or a tRNS chunk). */
  readonly hasAlpha: boolean;
}

/** Bound on width × height: 64 Mpx (256 MiB as RGBA), above any screen × superSize 2. */
export const MAX_PIXELS = 1 << 26;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Header {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

/** Samples per pixel of each colour type (0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/** Adam7 passes: first column, first row, column step, row step. */
const ADAM7: readonly (readonly [number, number, number, number])[] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

export function decodePng(png: Uint8Array): DecodedPng {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) {
    throw new PngError('corrupt', 'not a PNG: the signature is missing');
  }
  let header: Header | undefined;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  let pos = 8;
  while (pos < buf.length && !ended) {
    if (pos + 12 > buf.length) throw new PngError('corrupt', 'truncated PNG: a chunk is cut short');
    const length = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const end = pos + 8 + length;
    if (length > 0x7fffffff || end + 4 > buf.length) {
      throw new PngError('corrupt', `truncated PNG: the ${type} chunk is cut short`);
    }
    if (crc32(buf.subarray(pos + 4, end)) !== buf.readUInt32BE(end)) {
      throw new PngError('corrupt', `corrupt PNG: bad CRC in the ${type} chunk`);
    }
    const data = buf.subarray(pos + 8, end);
    pos = end + 4;
    if (!header && type !== 'IHDR') throw new PngError('corrupt', 'corrupt PNG: IHDR is not first');
    switch (type) {
      case 'IHDR':
        header = parseHeader(data);
        break;
      case 'PLTE':
        palette = data;
        break;
      case 'tRNS':
        transparency = data;
        break;
      case 'IDAT':
        idat.push(data);
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        // bit 5 of the first letter: 0 = critical, a chunk a decoder must understand
        if ((type.charCodeAt(0) & 0x20) === 0) {
          throw new PngError('unsupported', `PNG with an unknown critical chunk ${type}`);
        }
    }
  }
  if (!header) throw new PngError('corrupt', 'truncated PNG: no IHDR chunk');
  if (!ended) throw new PngError('corrupt', 'truncated PNG: no IEND chunk');
  if (idat.length === 0) throw new PngError('corrupt', 'corrupt PNG: no image data (IDAT)');
  if (header.colorType === 3 && (!palette || palette.length % 3 !== 0)) {
    throw new PngError('corrupt', 'corrupt PNG: a palette image without a valid PLTE chunk');
  }
  const passes = passesOf(header);
  const bitsPerPixel = CHANNELS[header.colorType]! * header.bitDepth;
  const expected = passes.reduce(
    (n, p) => n + (p.width === 0 ? 0 : p.height * (1 + rowBytes(p.width, bitsPerPixel))),
    0,
  );
  let raw: Buffer;
  try {
    // bounded (a small PNG can inflate to gigabytes); a little slack for extra data after the
    // image, which libpng also tolerates
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 65536 });
  } catch (e) {
    throw new PngError(
      'corrupt',
      `corrupt PNG: the image data does not inflate (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (raw.length < expected) {
    throw new PngError(
      'corrupt',
      `truncated PNG: ${raw.length} bytes of image data, ${expected} expected`,
    );
  }
  const out = new Uint8Array(header.width * header.height * 4);
  const samples = new SampleReader(header, palette, transparency);
  let offset = 0;
  for (const p of passes) {
    if (p.width === 0 || p.height === 0) continue;
    const rb = rowBytes(p.width, bitsPerPixel);
    const bpp = Math.max(1, bitsPerPixel >> 3);
    let prev: Uint8Array = new Uint8Array(rb);
    for (let r = 0; r < p.height; r++) {
      const filter = raw[offset]!;
      const row = raw.subarray(offset + 1, offset + 1 + rb);
      unfilter(filter, row, prev, bpp);
      const y = p.y0 + r * p.dy;
      for (let i = 0; i < p.width; i++) {
        samples.pixel(row, i, out, (y * header.width + p.x0 + i * p.dx) * 4);
      }
      prev = row;
      offset += 1 + rb;
    }
  }
  return {
    width: header.width,
    height: header.height,
    data: out,
    hasAlpha: header.colorType === 4 || header.colorType === 6 || transparency !== undefined,
  };
}

function parseHeader(d: Uint8Array): Header {
  if (d.length !== 13) throw new PngError('corrupt', 'corrupt PNG: IHDR is not 13 bytes');
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const bitDepth = d[8]!;
  const colorType = d[9]!;
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) {
    throw new PngError('corrupt', `corrupt PNG: size ${width}x${height}`);
  }
  if (!DEPTHS[colorType]?.includes(bitDepth)) {
    throw new PngError(
      'corrupt',
      `corrupt PNG: colour type ${colorType} with bit depth ${bitDepth} is not defined`,
    );
  }
  if (d[10] !== 0 || d[11] !== 0) {
    throw new PngError('unsupported', 'PNG with an unknown compression or filter method');
  }
  if (d[12]! > 1) throw new PngError('unsupported', `PNG with interlace method ${d[12]}`);
  if (width * height > MAX_PIXELS) {
    throw new PngError(
      'unsupported',
      `PNG of ${width}x${height} pixels: more than the ${MAX_PIXELS} read here`,
    );
  }
  return { width, height, bitDepth, colorType, interlaced: d[12] === 1 };
}

interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

function passesOf(h: Header): Pass[] {
  const all: readonly (readonly [number, number, number, number])[] = h.interlaced
    ? ADAM7
    : [[0, 0, 1, 1]];
  return all.map(([x0, y0, dx, dy]) => ({
    x0,
    y0,
    dx,
    dy,
    width: h.width > x0 ? Math.ceil((h.width - x0) / dx) : 0,
    height: h.height > y0 ? Math.ceil((h.height - y0) / dy) : 0,
  }));
}

function rowBytes(width: number, bitsPerPixel: number): number {
  return Math.ceil((width * bitsPerPixel) / 8);
}

/** Undoes one row's filter in place; `prev` is the previous row of the pass, already unfiltered. */
function unfilter(filter: number, row: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = row.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) row[i] = row[i]! + row[i - bpp]!;
      return;
    case 2:
      for (let i = 0; i < n; i++) row[i] = row[i]! + prev[i]!;
      return;
    case 3:
      for (let i = 0; i < n; i++) {
        const left = i >= bpp ? row[i - bpp]! : 0;
        row[i] = row[i]! + ((left + prev[i]!) >> 1);
      }
      return;
    case 4:
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        row[i] = row[i]! + paeth(a, b, c);
      }
      return;
    default:
      throw new PngError('corrupt', `corrupt PNG: unknown row filter ${filter}`);
  }
}

export function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Turns one pixel of an unfiltered row into RGBA8. */
class SampleReader {
  private readonly channels: number;
  private readonly maxSample: number;
  private readonly key: readonly number[] | undefined;

  constructor(
    private readonly h: Header,
    private readonly palette: Uint8Array | undefined,
    private readonly transparency: Uint8Array | undefined,
  ) {
    this.channels = CHANNELS[h.colorType]!;
    this.maxSample = (1 << h.bitDepth) - 1;
    // tRNS for grey and RGB: the one colour (in raw samples) that is fully transparent
    const t = transparency;
    if (t && h.colorType === 0 && t.length >= 2) this.key = [(t[0]! << 8) | t[1]!];
    if (t && h.colorType === 2 && t.length >= 6) {
      this.key = [(t[0]! << 8) | t[1]!, (t[2]! << 8) | t[3]!, (t[4]! << 8) | t[5]!];
    }
  }

  /** The raw sample `k` (0-based over the row), at the file's bit depth. */
  private sample(row: Uint8Array, k: number): number {
    const depth = this.h.bitDepth;
    if (depth === 8) return row[k]!;
    if (depth === 16) return (row[2 * k]! << 8) | row[2 * k + 1]!;
    const bit = k * depth;
    return (row[bit >> 3]! >> (8 - depth - (bit & 7))) & this.maxSample;
  }

  private to8(v: number): number {
    const depth = this.h.bitDepth;
    if (depth === 8) return v;
    if (depth === 16) return (v * 255 + 32895) >> 16; // round(v / 257)
    return Math.round((v * 255) / this.maxSample);
  }

  pixel(row: Uint8Array, i: number, out: Uint8Array, at: number): void {
    const c = this.channels;
    switch (this.h.colorType) {
      case 3: {
        const index = this.sample(row, i);
        const p = this.palette!;
        if (index * 3 + 2 >= p.length) {
          throw new PngError('corrupt', `corrupt PNG: palette index ${index} out of range`);
        }
        out[at] = p[index * 3]!;
        out[at + 1] = p[index * 3 + 1]!;
        out[at + 2] = p[index * 3 + 2]!;
        out[at + 3] = this.transparency?.[index] ?? 255;
        return;
      }
      case 0:
      case 4: {
        const g = this.sample(row, i * c);
        const v = this.to8(g);
        out[at] = out[at + 1] = out[at + 2] = v;
        out[at + 3] =
          c === 2 ? this.to8(this.sample(row, i * c + 1)) : this.key?.[0] === g ? 0 : 255;
        return;
      }
      default: {
        const r = this.sample(row, i * c);
        const g = this.sample(row, i * c + 1);
        const b = this.sample(row, i * c + 2);
        out[at] = this.to8(r);
        out[at + 1] = this.to8(g);
        out[at + 2] = this.to8(b);
        if (c === 4) out[at + 3] = this.to8(this.sample(row, i * c + 3));
        else {
          const k = this.key;
          out[at + 3] = k && k[0] === r && k[1] === g && k[2] === b ? 0 : 255;
        }
      }
    }
  }
}
