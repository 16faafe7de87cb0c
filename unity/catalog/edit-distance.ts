// Close names for misses ("did you mean Game.Probe?"). Optimal string alignment distance
// (Levenshtein plus adjacent transpositions, the commonest typo), computed only up to a bound:
// ranking tens of thousands of type names per miss must stay cheap.

/**
 * The edit distance between `a` and `b` if it is at most `max`, else `max + 1`. Cost
 * O(min(|a|,|b|) · max) with an early exit once every cell of a row exceeds the bound.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  const big = max + 1;
  // rows over a (the shorter); three rows for the transposition lookback
  let before = new Array<number>(n + 1).fill(big);
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let i = 0; i <= n; i++) prev[i] = i <= max ? i : big;
  for (let j = 1; j <= m; j++) {
    // only cells within the diagonal band |i - j| <= max can be <= max
    const from = Math.max(1, j - max);
    const to = Math.min(n, j + max);
    cur.fill(big);
    cur[0] = j <= max ? j : big;
    let rowMin = cur[0];
    for (let i = from; i <= to; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[i]! + 1, cur[i - 1]! + 1, prev[i - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, before[i - 2]! + 1);
      }
      cur[i] = d > big ? big : d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return big;
    [before, prev, cur] = [prev, cur, before];
  }
  return Math.min(prev[n]!, big);
}

/** The bound used for suggestions: about one edit per four characters, at least 1, at most 4. */
export function suggestionBound(query: string): number {
  return Math.max(1, Math.min(4, Math.floor(query.length / 4)));
}

export interface SuggestOptions {
  /** At most this many suggestions (default 5). */
  limit?: number;
  /** Maximum distance (default suggestionBound(query)). */
  maxDistance?: number;
}

/**
 * The candidates closest to `query` (case-insensitively), best first; ties keep the
 * candidates' order. Each candidate may offer several spellings to compare (a type's full
 * name and its simple name, say); the best one counts and the candidate's label is returned.
 */
export function closestNames(
  query: string,
  candidates: Iterable<{ label: string; keys: readonly string[] }>,
  options: SuggestOptions = {},
): string[] {
  const limit = options.limit ?? 5;
  const max = options.maxDistance ?? suggestionBound(query);
  const q = query.toLowerCase();
  const scored: { label: string; d: number; order: number }[] = [];
  const seen = new Set<string>();
  let order = 0;
  for (const c of candidates) {
    if (seen.has(c.label)) continue;
    let best = max + 1;
    for (const key of c.keys) {
      best = Math.min(best, boundedEditDistance(q, key.toLowerCase(), Math.min(max, best - 1)));
      if (best === 0) break;
    }
    if (best <= max) {
      seen.add(c.label);
      scored.push({ label: c.label, d: best, order: order++ });
    }
  }
  scored.sort((x, y) => x.d - y.d || x.order - y.order);
  return scored.slice(0, limit).map((s) => s.label);
}
