import { describe, expect, it } from 'vitest';

import { decodePng } from '../png/index.js';
import { lineChart } from './chart.js';
import { distribution, hitches, histogram, jumps } from './stats.js';

const pts = (values: number[], from = 100) =>
  values.map((value, i) => ({ frame: from + i, value }));

describe('series statistics', () => {
  it('gives min, median, p95 and max by nearest rank', () => {
    const d = distribution(Array.from({ length: 100 }, (_, i) => i + 1))!;
    expect(d).toMatchObject({ count: 100, min: 1, median: 50, p95: 95, max: 100, mean: 50.5 });
    expect(distribution([])).toBeUndefined();
  });

  it('finds the steps of a step function, not the steps of a ramp or jitter', () => {
    expect(jumps(pts([0, 0, 0, 25, 25, 25, 50, 50, 0, 0])).jumps).toEqual([
      { frame: 103, from: 0, to: 25 },
      { frame: 106, from: 25, to: 50 },
      { frame: 108, from: 50, to: 0 },
    ]);
    expect(jumps(pts([1, 2, 3, 4, 5, 6, 7, 8])).jumps).toEqual([]);
    expect(jumps(pts([16, 17, 16, 16.5, 17, 16, 90, 16.4])).jumps.map((j) => j.frame)).toEqual([
      106, 107,
    ]);
  });

  it('reports frames over twice the median as hitches, and bins a histogram', () => {
    expect(hitches(pts([16, 17, 16, 50, 16, 33, 16]))).toEqual([
      { frame: 103, ms: 50 },
      { frame: 105, ms: 33 },
    ]);
    const h = histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 10], 5);
    expect(h.map((b) => b.count)).toEqual([2, 2, 2, 2, 2]);
  });
});

describe('the line chart', () => {
  it('draws each series in its colour on white and encodes a PNG that decodes', () => {
    const png = lineChart(
      [
        { points: pts([0, 10, 5, 20]) },
        { points: pts([3, 3, 3, 3]) },
        { points: [{ frame: 100, value: undefined }] },
      ],
      { width: 200, height: 100 },
    );
    const img = decodePng(png);
    expect([img.width, img.height]).toEqual([200, 100]);
    const colours = new Set<string>();
    for (let i = 0; i < img.data.length; i += 4)
      colours.add(`${img.data[i]},${img.data[i + 1]},${img.data[i + 2]}`);
    expect(colours).toContain('255,255,255');
    expect(colours).toContain('31,119,180'); // blue, the first series
    expect(colours).toContain('255,127,14'); // orange, the second
  });
});
