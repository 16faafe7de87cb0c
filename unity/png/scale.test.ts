import { describe, expect, it } from 'vitest';

import type { RgbaImage } from './image.js';
import { decodePng } from './png-decode.js';
import { encodePng } from './png-encode.js';
import { fitWithin, scaleArea } from './scale.js';

function solid(width: number, height: number, rgba: readonly number[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = rgba[i & 3]!;
  return { width, height, data };
}

/** Grey pixels from a list (rows top first). */
function greys(width: number, values: readonly number[]): RgbaImage {
  return {
    width,
    height: values.length / width,
    data: Uint8Array.from(values.flatMap((v) => [v, v, v, 255])),
  };
}

const reds = (img: RgbaImage) => [...img.data].filter((_, i) => i % 4 === 0);

describe('fitWithin', () => {
  it.each([
    [320, 180, 1024, 320, 180],
    [320, 180, 320, 320, 180],
    [320, 180, 160, 160, 90],
    [320, 180, 100, 100, 56],
    [180, 320, 160, 90, 160],
    [1920, 1080, 1024, 1024, 576],
    [3840, 2160, 1024, 1024, 576],
    [17, 16, 16, 16, 15],
    [100, 100, 16, 16, 16],
    [1, 1, 16, 1, 1],
    [100_000, 2, 16, 16, 1],
    [1, 100_000, 16, 1, 16],
  ])('%ix%i within %i is %ix%i', (w, h, max, ew, eh) => {
    expect(fitWithin(w, h, max)).toEqual({ width: ew, height: eh });
  });
});

describe('scaleArea', () => {
  it('averages whole blocks exactly', () => {
    expect(reds(scaleArea(greys(2, [0, 100, 200, 100]), 1, 1))).toEqual([100]);
    expect(reds(scaleArea(greys(4, [0, 10, 20, 30]), 2, 1))).toEqual([5, 25]);
  });

  it('weighs pixels by the share of them each output pixel covers', () => {
    // 3 → 2: output 0 covers pixel 0 and half of pixel 1; output 1 the other half and pixel 2
    expect(reds(scaleArea(greys(3, [0, 90, 180]), 2, 1))).toEqual([30, 150]);
    // vertically too
    expect(reds(scaleArea(greys(1, [0, 90, 180]), 1, 2))).toEqual([30, 150]);
  });

  it('keeps a uniform image uniform at any ratio', () => {
    const src = solid(37, 23, [12, 200, 99, 255]);
    for (const [w, h] of [
      [36, 23],
      [19, 11],
      [5, 3],
      [1, 1],
      [37, 1],
    ] as const) {
      const out = scaleArea(src, w, h);
      expect(out.width).toBe(w);
      expect(out.height).toBe(h);
      expect(Buffer.from(out.data).equals(Buffer.from(solid(w, h, [12, 200, 99, 255]).data))).toBe(
        true,
      );
    }
  });

  it('keeps a one-pixel detail visible instead of dropping it', () => {
    const data = solid(8, 8, [0, 0, 0, 255]);
    data.data.set([255, 255, 255, 255], (3 * 8 + 5) * 4);
    const out = scaleArea(data, 2, 2);
    expect(reds(out)).toEqual([0, 16, 0, 0]); // 255 / 16 pixels of the block
  });

  it('averages colour by coverage of alpha: transparent pixels do not bleed', () => {
    const src: RgbaImage = {
      width: 2,
      height: 1,
      data: Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 0]),
    };
    expect([...scaleArea(src, 1, 1).data]).toEqual([255, 0, 0, 128]);
  });

  it('returns the same image at its own size, and refuses to enlarge', () => {
    const src = solid(4, 4, [1, 2, 3, 255]);
    expect(scaleArea(src, 4, 4)).toBe(src);
    expect(() => scaleArea(src, 5, 4)).toThrow(RangeError);
    expect(() => scaleArea(src, 0, 1)).toThrow(RangeError);
  });

  it('shrinks a huge aspect ratio to a strip and round-trips through PNG', () => {
    const src = greys(
      4000,
      Array.from({ length: 8000 }, (_, i) => (i % 4000 < 2000 ? 0 : 200)),
    );
    const size = fitWithin(src.width, src.height, 16);
    expect(size).toEqual({ width: 16, height: 1 });
    const out = scaleArea(src, size.width, size.height);
    expect(reds(out)).toEqual([...Array<number>(8).fill(0), ...Array<number>(8).fill(200)]);
    const back = decodePng(encodePng(out));
    expect(back.width).toBe(16);
    expect(back.height).toBe(1);
    expect(Buffer.from(back.data).equals(Buffer.from(out.data))).toBe(true);
  });

  it('keeps the aspect ratio of a screen through fit, scale, encode and decode', () => {
    const src = solid(1920, 1080, [10, 20, 30, 255]);
    const size = fitWithin(src.width, src.height, 1024);
    const back = decodePng(encodePng(scaleArea(src, size.width, size.height)));
    expect([back.width, back.height]).toEqual([1024, 576]);
    expect(back.width / back.height).toBeCloseTo(1920 / 1080, 2);
  });
});
