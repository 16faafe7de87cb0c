import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { PngError, type RgbaImage } from './image.js';
import { decodePng, MAX_PIXELS } from './png-decode.js';
import { encodePng, pngChunk as chunk } from './png-encode.js';

/** A deterministic pseudo-random image (xorshift), optionally with varying alpha. */
function noise(width: number, height: number, seed: number, alpha: boolean): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  let s = seed | 1;
  for (let i = 0; i < data.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    data[i] = (i & 3) === 3 && !alpha ? 255 : s & 0xff;
  }
  return { width, height, data };
}

/** Smooth content, where the filters matter (sub/up/avg/paeth all win somewhere). */
function gradient(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 3) & 0xff;
      data[i + 1] = (y * 5) & 0xff;
      data[i + 2] = ((x ^ y) * 7) & 0xff;
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG built by hand from already-filtered scanlines (each with its filter byte). */
function handmade(opts: {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace?: number;
  raw: Uint8Array;
  extra?: Buffer[];
  level?: number;
}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(opts.width, 0);
  ihdr.writeUInt32BE(opts.height, 4);
  ihdr[8] = opts.bitDepth;
  ihdr[9] = opts.colorType;
  ihdr[12] = opts.interlace ?? 0;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    ...(opts.extra ?? []),
    chunk('IDAT', deflateSync(opts.raw, { level: opts.level ?? 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function colourType(png: Buffer): number {
  return png[25]!;
}

describe('encodePng → decodePng', () => {
  const cases: [string, RgbaImage][] = [
    ['1x1 opaque', noise(1, 1, 1, false)],
    ['1x1 with alpha', noise(1, 1, 2, true)],
    ['one row', noise(257, 1, 3, false)],
    ['one column', noise(1, 300, 4, true)],
    ['noise 64x48 RGB', noise(64, 48, 5, false)],
    ['noise 33x17 RGBA', noise(33, 17, 6, true)],
    ['gradient 320x180', gradient(320, 180)],
  ];
  it.each(cases)('%s comes back pixel for pixel', (_name, image) => {
    const png = encodePng(image);
    const back = decodePng(png);
    expect(back.width).toBe(image.width);
    expect(back.height).toBe(image.height);
    expect(Buffer.from(back.data).equals(Buffer.from(image.data))).toBe(true);
  });

  it('writes RGB for an opaque image and RGBA otherwise (unless told)', () => {
    expect(colourType(encodePng(noise(8, 8, 7, false)))).toBe(2);
    expect(colourType(encodePng(noise(8, 8, 7, true)))).toBe(6);
    expect(colourType(encodePng(noise(8, 8, 7, false), { alpha: true }))).toBe(6);
    expect(decodePng(encodePng(noise(8, 8, 7, false))).hasAlpha).toBe(false);
  });

  it('compresses smooth content with filters (far below the raw size)', () => {
    const png = encodePng(gradient(320, 180));
    expect(png.length).toBeLessThan((320 * 3 + 1) * 180 * 0.2);
  });

  it('refuses an empty or inconsistent image', () => {
    expect(() => encodePng({ width: 0, height: 1, data: new Uint8Array(0) })).toThrow(RangeError);
    expect(() => encodePng({ width: 2, height: 2, data: new Uint8Array(4) })).toThrow(RangeError);
  });
});

describe('decodePng reads every PNG form', () => {
  it('stored deflate blocks, RGB (what the fixture game writes)', () => {
    // 2x2 RGB: red green / blue white, rows top first, filter 0
    const raw = Uint8Array.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
    const png = handmade({ width: 2, height: 2, bitDepth: 8, colorType: 2, raw, level: 0 });
    const img = decodePng(png);
    expect([...img.data]).toEqual([
      255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ]);
    expect(img.hasAlpha).toBe(false);
  });

  it('each of the five row filters', () => {
    // one RGB row pair per filter: row 0 = [10,20,30, 40,50,60], row 1 filtered against it
    const row0 = [10, 20, 30, 40, 50, 60];
    const row1 = [15, 25, 35, 100, 110, 120];
    const paeth = (a: number, b: number, c: number) => {
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    };
    const filtered = (f: number): number[] =>
      row1.map((x, i) => {
        const a = i >= 3 ? row1[i - 3]! : 0;
        const b = row0[i]!;
        const c = i >= 3 ? row0[i - 3]! : 0;
        const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][f]!;
        return (x - pred) & 0xff;
      });
    for (let f = 0; f <= 4; f++) {
      const raw = Uint8Array.from([0, ...row0, f, ...filtered(f)]);
      const img = decodePng(handmade({ width: 2, height: 2, bitDepth: 8, colorType: 2, raw }));
      expect([...img.data.subarray(8, 16)], `filter ${f}`).toEqual([
        15, 25, 35, 255, 100, 110, 120, 255,
      ]);
    }
  });

  it('grey at 1, 2, 4, 8 and 16 bits', () => {
    const cases: [number, number[], number[]][] = [
      [1, [0b10100000], [255, 0, 255]],
      [2, [0b00011011], [0, 85, 170]],
      [4, [0x0f, 0x80], [0, 255, 136]],
      [8, [0, 128, 255], [0, 128, 255]],
      [16, [0x00, 0x00, 0x80, 0x80, 0xff, 0xff], [0, 128, 255]],
    ];
    for (const [depth, bytes, grey] of cases) {
      const raw = Uint8Array.from([0, ...bytes]);
      const img = decodePng(handmade({ width: 3, height: 1, bitDepth: depth, colorType: 0, raw }));
      expect([...img.data], `depth ${depth}`).toEqual(grey.flatMap((g) => [g, g, g, 255]));
    }
  });

  it('grey + alpha, RGBA and RGB at 16 bits', () => {
    const ga = decodePng(
      handmade({ width: 1, height: 1, bitDepth: 8, colorType: 4, raw: Uint8Array.from([0, 7, 9]) }),
    );
    expect([...ga.data]).toEqual([7, 7, 7, 9]);
    expect(ga.hasAlpha).toBe(true);
    const rgba16 = decodePng(
      handmade({
        width: 1,
        height: 1,
        bitDepth: 16,
        colorType: 6,
        raw: Uint8Array.from([0, 0xff, 0xff, 0x01, 0x01, 0x7f, 0xff, 0x00, 0x80]),
      }),
    );
    expect([...rgba16.data]).toEqual([255, 1, 127, 0]);
  });

  it('palettes with tRNS, and colour-key tRNS for RGB and grey', () => {
    const plte = chunk('PLTE', Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255]));
    const trns = chunk('tRNS', Uint8Array.from([0, 128]));
    const pal = decodePng(
      handmade({
        width: 3,
        height: 1,
        bitDepth: 2,
        colorType: 3,
        raw: Uint8Array.from([0, 0b00011000]),
        extra: [plte, trns],
      }),
    );
    expect([...pal.data]).toEqual([255, 0, 0, 0, 0, 255, 0, 128, 0, 0, 255, 255]);
    expect(pal.hasAlpha).toBe(true);

    const key = chunk('tRNS', Uint8Array.from([0, 1, 0, 2, 0, 3]));
    const rgb = decodePng(
      handmade({
        width: 2,
        height: 1,
        bitDepth: 8,
        colorType: 2,
        raw: Uint8Array.from([0, 1, 2, 3, 1, 2, 4]),
        extra: [key],
      }),
    );
    expect([...rgb.data]).toEqual([1, 2, 3, 0, 1, 2, 4, 255]);

    const greyKey = chunk('tRNS', Uint8Array.from([0, 5]));
    const grey = decodePng(
      handmade({
        width: 2,
        height: 1,
        bitDepth: 8,
        colorType: 0,
        raw: Uint8Array.from([0, 5, 6]),
        extra: [greyKey],
      }),
    );
    expect([...grey.data]).toEqual([5, 5, 5, 0, 6, 6, 6, 255]);
  });

  it('Adam7 interlacing', () => {
    // 10x9 grey image where each pixel is y * 10 + x; write the seven passes by hand
    const width = 10;
    const height = 9;
    const passes = [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ] as const;
    const bytes: number[] = [];
    for (const [x0, y0, dx, dy] of passes) {
      for (let y = y0; y < height; y += dy) {
        const row: number[] = [];
        for (let x = x0; x < width; x += dx) row.push(y * 10 + x);
        if (row.length > 0) bytes.push(0, ...row);
      }
    }
    const img = decodePng(
      handmade({
        width,
        height,
        bitDepth: 8,
        colorType: 0,
        interlace: 1,
        raw: Uint8Array.from(bytes),
      }),
    );
    for (let i = 0; i < width * height; i++) expect(img.data[i * 4]).toBe(i);
  });

  it('tolerates extra bytes after the image data, as libpng does', () => {
    const raw = Uint8Array.from([0, 1, 2, 3, 0, 0, 0]);
    const img = decodePng(handmade({ width: 1, height: 1, bitDepth: 8, colorType: 2, raw }));
    expect([...img.data]).toEqual([1, 2, 3, 255]);
  });

  it('skips ancillary chunks', () => {
    const text = chunk('tEXt', Buffer.from('Software\0Unity'));
    const raw = Uint8Array.from([0, 1, 2, 3]);
    const img = decodePng(
      handmade({ width: 1, height: 1, bitDepth: 8, colorType: 2, raw, extra: [text] }),
    );
    expect([...img.data]).toEqual([1, 2, 3, 255]);
  });
});

describe('decodePng refuses what it cannot read, saying why', () => {
  const good = encodePng(noise(4, 4, 9, false));
  const failure = (png: Uint8Array): PngError => {
    try {
      decodePng(png);
    } catch (e) {
      if (e instanceof PngError) return e;
      throw e;
    }
    throw new Error('decoded');
  };

  it('not a PNG', () => {
    expect(failure(Buffer.from('GIF89a....')).message).toMatch(/signature/);
  });

  it('cut short anywhere', () => {
    for (const n of [8, 20, 33, good.length - 12, good.length - 1]) {
      const e = failure(good.subarray(0, n));
      expect(e.kind, `at ${n}`).toBe('corrupt');
      expect(e.message).toMatch(/truncated|IEND/);
    }
  });

  it('a flipped bit (CRC)', () => {
    const bad = Buffer.from(good);
    bad[40] = bad[40]! ^ 1;
    expect(failure(bad).message).toMatch(/bad CRC/);
  });

  it('a size above the bound, an undefined depth, an unknown critical chunk', () => {
    const side = Math.ceil(Math.sqrt(MAX_PIXELS)) + 1;
    const huge = handmade({
      width: side,
      height: side,
      bitDepth: 8,
      colorType: 2,
      raw: Uint8Array.of(0),
    });
    expect(failure(huge).kind).toBe('unsupported');
    const depth = handmade({
      width: 1,
      height: 1,
      bitDepth: 4,
      colorType: 2,
      raw: Uint8Array.of(0),
    });
    expect(failure(depth).message).toMatch(/bit depth 4/);
    const odd = handmade({
      width: 1,
      height: 1,
      bitDepth: 8,
      colorType: 2,
      raw: Uint8Array.of(0, 1, 2, 3),
      extra: [chunk('ZZZZ', Buffer.alloc(0))],
    });
    expect(failure(odd).message).toMatch(/critical chunk ZZZZ/);
  });

  it('too little image data, an unknown filter', () => {
    const short = handmade({
      width: 2,
      height: 2,
      bitDepth: 8,
      colorType: 2,
      raw: Uint8Array.of(0, 1),
    });
    expect(failure(short).message).toMatch(/bytes of image data/);
    const filter = handmade({
      width: 1,
      height: 1,
      bitDepth: 8,
      colorType: 2,
      raw: Uint8Array.of(9, 1, 2, 3),
    });
    expect(failure(filter).message).toMatch(/filter 9/);
  });
});
