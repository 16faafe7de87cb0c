// Shrinking an image by area averaging (a box filter with exact fractional coverage): each
// output pixel is the mean of the source area it covers, so thin lines and single pixels fade
// instead of vanishing or aliasing as they would with nearest-neighbour. Colours are averaged
// with premultiplied alpha, so transparent pixels do not bleed their colour into the result.

import { isOpaque, type RgbaImage } from './image.js';

/**
 * The size that fits within `maxSize` on its longest edge, keeping the aspect ratio, never larger
 * than the original and never below 1 pixel on either edge.
 */
export function fitWithin(
  width: number,
  height: number,
  maxSize: number,
): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= maxSize) return { width, height };
  const scaled = (edge: number) => Math.max(1, Math.round((edge * maxSize) / longest));
  return width >= height
    ? { width: maxSize, height: scaled(height) }
    : { width: scaled(width), height: maxSize };
}

/** The image at `width` × `height`, each no larger than the source's (only shrinks). */
export function scaleArea(src: RgbaImage, width: number, height: number): RgbaImage {
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 1 ||
    height < 1 ||
    width > src.width ||
    height > src.height
  ) {
    throw new RangeError(
      `scaleArea shrinks only: ${src.width}x${src.height} to ${width}x${height} is not allowed`,
    );
  }
  if (width === src.width && height === src.height) return src;
  const premultiply = !isOpaque(src);
  const xs = areaTaps(src.width, width);
  const ys = areaTaps(src.height, height);

  // horizontal pass: every source row, shrunk to `width` columns
  const tmp = new Float32Array(src.height * width * 4);
  const s = src.data;
  const { first: xFirst, index: xIndex, weight: xWeight } = xs;
  for (let y = 0; y < src.height; y++) {
    const rowIn = y * src.width * 4;
    let o = y * width * 4;
    for (let x = 0; x < width; x++, o += 4) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      const end = xFirst[x + 1]!;
      for (let t = xFirst[x]!; t < end; t++) {
        const i = rowIn + xIndex[t]! * 4;
        const w = xWeight[t]!;
        const alpha = s[i + 3]! * w;
        const m = premultiply ? alpha / 255 : w;
        r += s[i]! * m;
        g += s[i + 1]! * m;
        b += s[i + 2]! * m;
        a += alpha;
      }
      tmp[o] = r;
      tmp[o + 1] = g;
      tmp[o + 2] = b;
      tmp[o + 3] = a;
    }
  }

  // vertical pass: rows of `tmp` averaged into the output rows
  const out = new Uint8Array(width * height * 4);
  const acc = new Float64Array(width * 4);
  const { first: yFirst, index: yIndex, weight: yWeight } = ys;
  const n = acc.length;
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    const end = yFirst[y + 1]!;
    for (let t = yFirst[y]!; t < end; t++) {
      const row = yIndex[t]! * n;
      const w = yWeight[t]!;
      for (let i = 0; i < n; i++) acc[i] = acc[i]! + tmp[row + i]! * w;
    }
    const o = y * n;
    for (let i = 0; i < n; i += 4) {
      const a = acc[i + 3]!;
      const k = premultiply ? (a > 0 ? 255 / a : 0) : 1;
      out[o + i] = clamp(acc[i]! * k);
      out[o + i + 1] = clamp(acc[i + 1]! * k);
      out[o + i + 2] = clamp(acc[i + 2]! * k);
      out[o + i + 3] = clamp(a);
    }
  }
  return { width, height, data: out };
}

function clamp(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

interface Taps {
  /** Output pixel o uses taps first[o] .. first[o + 1] - 1. */
  first: Int32Array;
  index: Int32Array;
  weight: Float64Array;
}

/**
 * For each of `dst` output pixels, the source pixels its span covers and the share of each.
 * Spans are measured in units of 1 / dst source pixels, so overlaps are exact integers.
 */
function areaTaps(src: number, dst: number): Taps {
  const first = new Int32Array(dst + 1);
  const index: number[] = [];
  const weight: number[] = [];
  for (let o = 0; o < dst; o++) {
    first[o] = index.length;
    const a = o * src; // span [a, b) in units where a source pixel is `dst` long
    const b = a + src;
    for (let i = Math.floor(a / dst); i * dst < b; i++) {
      const overlap = Math.min(b, (i + 1) * dst) - Math.max(a, i * dst);
      if (overlap > 0) {
        index.push(i);
        weight.push(overlap / src);
      }
    }
  }
  first[dst] = index.length;
  return { first, index: Int32Array.from(index), weight: Float64Array.from(weight) };
}
