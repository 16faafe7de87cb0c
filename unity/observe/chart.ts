// A line chart drawn client-side as a PNG (unity/png): one series per numeric expression, the
// frame on the x axis, each series scaled to its own range (the legend in the tool's text gives
// the ranges and the colours). No text in the image: it has no font.

import { encodePng } from '../png/index.js';

export interface ChartSeries {
  /** Points in frame order; a missing value breaks the line. */
  points: readonly { frame: number; value: number | undefined }[];
}

/** The series colours, in order (named in the legend). */
export const SERIES_COLOURS: readonly { name: string; rgb: readonly [number, number, number] }[] = [
  { name: 'blue', rgb: [31, 119, 180] },
  { name: 'orange', rgb: [255, 127, 14] },
  { name: 'green', rgb: [44, 160, 44] },
  { name: 'red', rgb: [214, 39, 40] },
  { name: 'purple', rgb: [148, 103, 189] },
  { name: 'brown', rgb: [140, 86, 75] },
  { name: 'pink', rgb: [227, 119, 194] },
  { name: 'grey', rgb: [127, 127, 127] },
];

const MARGIN = 12;

export function lineChart(
  series: readonly ChartSeries[],
  size: { width: number; height: number } = { width: 640, height: 260 },
): Buffer {
  const { width, height } = size;
  const data = new Uint8Array(width * height * 4).fill(255);
  const plot = (x: number, y: number, rgb: readonly number[]): void => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (Math.round(y) * width + Math.round(x)) * 4;
    data[i] = rgb[0]!;
    data[i + 1] = rgb[1]!;
    data[i + 2] = rgb[2]!;
    data[i + 3] = 255;
  };
  const line = (
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    rgb: readonly number[],
    thick = 1,
  ) => {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let s = 0; s <= steps; s++) {
      const x = x0 + ((x1 - x0) * s) / steps;
      const y = y0 + ((y1 - y0) * s) / steps;
      for (let t = 0; t < thick; t++) plot(x, y + t, rgb);
    }
  };
  const left = MARGIN;
  const right = width - MARGIN;
  const top = MARGIN;
  const bottom = height - MARGIN;
  // frame and grid
  const grid = [225, 225, 225];
  for (let k = 1; k < 4; k++)
    line(left, top + ((bottom - top) * k) / 4, right, top + ((bottom - top) * k) / 4, grid);
  const axis = [90, 90, 90];
  line(left, top, left, bottom, axis);
  line(left, bottom, right, bottom, axis);
  line(left, top, right, top, grid);
  line(right, top, right, bottom, grid);

  const frames = series.flatMap((s) => s.points.map((p) => p.frame));
  if (frames.length === 0) return encodePng({ width, height, data });
  const f0 = Math.min(...frames);
  const f1 = Math.max(...frames);
  const xOf = (f: number): number => left + ((f - f0) / (f1 - f0 || 1)) * (right - left);
  series.forEach((s, k) => {
    const rgb = SERIES_COLOURS[k % SERIES_COLOURS.length]!.rgb;
    const vs = s.points.flatMap((p) => (p.value !== undefined ? [p.value] : []));
    if (vs.length === 0) return;
    const lo = Math.min(...vs);
    const hi = Math.max(...vs);
    // a flat series sits in the middle
    const yOf = (v: number): number =>
      hi === lo ? (top + bottom) / 2 : bottom - ((v - lo) / (hi - lo)) * (bottom - top);
    let prev: { x: number; y: number } | undefined;
    for (const p of s.points) {
      if (p.value === undefined) {
        prev = undefined;
        continue;
      }
      const at = { x: xOf(p.frame), y: yOf(p.value) };
      if (prev) line(prev.x, prev.y, at.x, at.y, rgb, 2);
      else plot(at.x, at.y, rgb);
      prev = at;
    }
  });
  return encodePng({ width, height, data });
}
