// The one in-memory image form the PNG pieces share: 8-bit RGBA, rows top to bottom (PNG order,
// not Unity's bottom-up texture order).

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** width × height × 4 bytes: R, G, B, A per pixel, the top row first. */
  readonly data: Uint8Array;
}

/** True when every pixel has alpha 255 (the image can be written as RGB). */
export function isOpaque(image: RgbaImage): boolean {
  const d = image.data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) return false;
  return true;
}

/** A problem with PNG data: `corrupt` (not a valid PNG) or `unsupported` (valid, but not read here). */
export class PngError extends Error {
  override name = 'PngError';
  constructor(
    readonly kind: 'corrupt' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}
