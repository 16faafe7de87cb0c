// What a series of per-frame samples says: its distribution (min, median, p95, max, mean), the
// frames where it jumped, and the hitches of a frame-time series. Pure functions.

export interface Distribution {
  count: number;
  min: number;
  median: number;
  p95: number;
  max: number;
  mean: number;
}

/** The value at quantile q (0..1) of sorted values, by nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function distribution(values: readonly number[]): Distribution | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0]!,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

export interface Jump {
  /** The frame of the new value. */
  frame: number;
  from: number;
  to: number;
}

/**
 * The frames where a series jumped: a change from the previous sample larger than 4 times the
 * median change, and than a tenth of the series' range (a steady ramp or jitter is no jump; a
 * step is). At most `limit`, the first ones.
 */
export function jumps(
  points: readonly { frame: number; value: number }[],
  limit = 50,
): { jumps: Jump[]; more: number } {
  if (points.length < 2) return { jumps: [], more: 0 };
  const deltas = points.slice(1).map((p, i) => Math.abs(p.value - points[i]!.value));
  const sorted = [...deltas].sort((a, b) => a - b);
  const typical = quantile(sorted, 0.5);
  const values = points.map((p) => p.value);
  const range = Math.max(...values) - Math.min(...values);
  const threshold = Math.max(4 * typical, range / 10);
  const out: Jump[] = [];
  let more = 0;
  deltas.forEach((d, i) => {
    if (d <= threshold || d === 0) return;
    if (out.length >= limit) {
      more++;
      return;
    }
    out.push({ frame: points[i + 1]!.frame, from: points[i]!.value, to: points[i + 1]!.value });
  });
  return { jumps: out, more };
}

/** Frames whose time is over `factor` × the median frame time (a profile's hitches). */
export function hitches(
  points: readonly { frame: number; value: number }[],
  factor = 2,
): { frame: number; ms: number }[] {
  const d = distribution(points.map((p) => p.value));
  if (!d) return [];
  return points
    .filter((p) => p.value > factor * d.median)
    .map((p) => ({ frame: p.frame, ms: p.value }));
}

/** A histogram of `values` in `buckets` equal bins over [min, max]. */
export function histogram(
  values: readonly number[],
  buckets = 10,
): { from: number; to: number; count: number }[] {
  const d = distribution(values);
  if (!d) return [];
  const width = (d.max - d.min) / buckets || 1;
  const out = Array.from({ length: buckets }, (_, i) => ({
    from: d.min + i * width,
    to: d.min + (i + 1) * width,
    count: 0,
  }));
  for (const v of values) out[Math.min(buckets - 1, Math.floor((v - d.min) / width))]!.count++;
  return out;
}
