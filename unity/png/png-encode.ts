// A PNG encoder: 8-bit RGB or RGBA, each row with the filter that minimises the sum of its
// bytes taken as signed values (libpng's adaptive heuristic, good for screenshots), one zlib
// stream in one IDAT chunk.

import { deflateSync } from 'node:zlib';

import { crc32 } from './crc32.js';
import { isOpaque, type RgbaImage } from './image.js';
import { paeth } from './png-decode.js';

export interface EncodeOptions {
  /** Write the alpha channel (colour type 6); default: only when some pixel is not opaque. */
  alpha?: boolean;
  /** zlib level 0-9 (default 6). */
  level?: number;
}

export function encodePng(image: RgbaImage, options: EncodeOptions = {}): Buffer {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`cannot encode a ${width}x${height} image`);
  }
  if (data.length !== width * height * 4) {
    throw new RangeError(
      `${width}x${height} RGBA needs ${width * height * 4} bytes, got ${data.length}`,
    );
  }
  const alpha = options.alpha ?? !isOpaque(image);
  const channels = alpha ? 4 : 3;
  const rb = width * channels;
  const raw = Buffer.alloc(height * (rb + 1));
  let prev = new Uint8Array(rb);
  let cur = new Uint8Array(rb);
  let best = new Uint8Array(rb);
  let trial = new Uint8Array(rb);
  for (let y = 0; y < height; y++) {
    packRow(data, y * width * 4, width, alpha, cur);
    let bestFilter = 0;
    let bestScore = Infinity;
    for (let f = 0; f <= 4; f++) {
      const score = filterRow(f, cur, prev, channels, trial);
      if (score < bestScore) {
        bestScore = score;
        bestFilter = f;
        [best, trial] = [trial, best];
      }
    }
    const at = y * (rb + 1);
    raw[at] = bestFilter;
    raw.set(best, at + 1);
    [prev, cur] = [cur, prev];
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = alpha ? 6 : 2; // colour type; compression, filter method and interlace stay 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: options.level ?? 6 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function packRow(
  data: Uint8Array,
  from: number,
  width: number,
  alpha: boolean,
  out: Uint8Array,
): void {
  if (alpha) {
    out.set(data.subarray(from, from + width * 4));
    return;
  }
  for (let x = 0, i = from, o = 0; x < width; x++, i += 4, o += 3) {
    out[o] = data[i]!;
    out[o + 1] = data[i + 1]!;
    out[o + 2] = data[i + 2]!;
  }
}

/** Writes row `cur` filtered with `filter` into `out`; returns the sum of |signed byte|. */
function filterRow(
  filter: number,
  cur: Uint8Array,
  prev: Uint8Array,
  bpp: number,
  out: Uint8Array,
): number {
  let score = 0;
  for (let i = 0; i < cur.length; i++) {
    const x = cur[i]!;
    const a = i >= bpp ? cur[i - bpp]! : 0;
    const b = prev[i]!;
    let v: number;
    switch (filter) {
      case 0:
        v = x;
        break;
      case 1:
        v = x - a;
        break;
      case 2:
        v = x - b;
        break;
      case 3:
        v = x - ((a + b) >> 1);
        break;
      default:
        v = x - paeth(a, b, i >= bpp ? prev[i - bpp]! : 0);
    }
    v &= 0xff;
    out[i] = v;
    score += v < 128 ? v : 256 - v;
  }
  return score;
}

/** One PNG chunk: length, type, data, CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, tail]);
}
