// What every benchmark scenario takes and prints (bench/run.ts runs them), and how a row's rounds
// become its figure, its spread and its verdict.

export interface Options {
  rounds: number;
  iterations: number;
}

/**
 * `ratio`: ours/reference at most `value`; `below`: ours under `value`; `atLeast`: ours at least
 * `value` (a speed-up).
 */
export interface Target {
  kind: 'ratio' | 'below' | 'atLeast';
  value: number;
}

/**
 * One printed line: ours against the reference, and the target it is held to. A figure is one
 * number per round (a lone number is a row measured once); the reference's rounds pair with ours
 * by index (the two clients ran back to back in that round).
 */
export interface Line {
  name: string;
  ours: number | readonly number[];
  /** Undefined for rows only we have (counts, first evaluations). */
  reference: number | readonly number[] | undefined;
  unit: string;
  target?: Target;
  /** What the row measures, or which form of the reference it is held against. */
  what?: string;
}

export type Verdict = 'met' | 'MISSED' | 'within noise';

/** min, median and max of a row's rounds. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

export interface RowResult {
  name: string;
  what?: string;
  unit: string;
  ours: Spread;
  reference?: Spread;
  /** ours/reference: the median is the ratio of the medians; min and max over the paired rounds. */
  ratio?: Spread;
  target?: Target;
  verdict?: Verdict;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const round = (x: number, digits: number): number =>
  Math.round(x * 10 ** digits) / 10 ** digits;

const many = (x: number | readonly number[]): readonly number[] =>
  typeof x === 'number' ? [x] : x;

export function spread(xs: readonly number[], digits = 3): Spread {
  if (xs.length === 0) throw new Error('a row without rounds');
  return {
    median: round(median(xs), digits),
    min: round(Math.min(...xs), digits),
    max: round(Math.max(...xs), digits),
    rounds: xs.map((x) => round(x, digits)),
  };
}

/**
 * A row's figure, spread and verdict. The verdict looks at every round, not the median alone:
 * met when every round meets the target, MISSED when none does, and `within noise` when the
 * rounds fall on both sides of it (the figure cannot say which side it is on).
 */
export function evaluateRow(l: Line): RowResult {
  const ours = many(l.ours);
  const ref = l.reference === undefined ? undefined : many(l.reference);
  const out: RowResult = {
    name: l.name,
    ...(l.what === undefined ? {} : { what: l.what }),
    unit: l.unit,
    ours: spread(ours),
  };
  let perRound = ours;
  if (ref !== undefined) {
    out.reference = spread(ref);
    // paired by round when both have one figure per round; else every pairing (worst and best)
    const ratios =
      ref.length === ours.length
        ? ours.map((x, i) => x / ref[i]!)
        : ours.flatMap((x) => ref.map((y) => x / y));
    out.ratio = { ...spread(ratios), median: round(median(ours) / median(ref), 3) };
    if (l.target?.kind === 'ratio') perRound = ratios;
  }
  if (l.target) {
    out.target = l.target;
    const t = l.target;
    if (t.kind === 'ratio' && ref === undefined)
      throw new Error(`${l.name}: a ratio target needs the reference's figure`);
    const meets = (x: number): boolean =>
      t.kind === 'atLeast' ? x >= t.value : t.kind === 'below' ? x < t.value : x <= t.value;
    const n = perRound.filter(meets).length;
    out.verdict = n === perRound.length ? 'met' : n === 0 ? 'MISSED' : 'within noise';
  }
  return out;
}

export function describeTarget(t: Target, unit: string): string {
  if (t.kind === 'ratio') return `ratio <= ${t.value}`;
  if (t.kind === 'atLeast') return `>= ${t.value} ${unit}`;
  return `< ${t.value} ${unit}`;
}

/** Per-key figures of each round, for both clients (index = round). */
export interface Rounds {
  ours: Record<string, number[]>;
  reference: Record<string, number[]>;
}

/** The rounds of `key`, or an error naming what is missing. */
export function got(x: Record<string, number[]>, key: string, who = 'the run'): number[] {
  const v = x[key];
  if (v === undefined || v.length === 0) throw new Error(`${who} reported no ${key}`);
  return v;
}

/** Per-key medians of rounds. */
export function medians(x: Record<string, number[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, median(v)]));
}

/**
 * Runs `rounds` rounds of both clients and returns each key's figure per round. The order
 * alternates each round and the machine gets a moment between clients: a client process that is
 * still exiting (Mono's takes about a second) must not compete with the next one's measurements.
 */
export async function alternate(
  label: string,
  rounds: number,
  reference: () => Promise<Record<string, number>>,
  ours: () => Promise<Record<string, number>>,
): Promise<Rounds> {
  const a: Record<string, number[]> = {};
  const b: Record<string, number[]> = {};
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 1500));
  const runRef = async (): Promise<void> => {
    process.stderr.write(' reference client...');
    for (const [k, v] of Object.entries(await reference())) (b[k] ??= []).push(v);
    await settle();
  };
  const runOurs = async (): Promise<void> => {
    process.stderr.write(' ours...');
    for (const [k, v] of Object.entries(await ours())) (a[k] ??= []).push(v);
    await settle();
  };
  for (let r = 1; r <= rounds; r++) {
    process.stderr.write(`${label}: round ${r}/${rounds}:`);
    if (r % 2 === 1) {
      await runRef();
      await runOurs();
    } else {
      await runOurs();
      await runRef();
    }
    process.stderr.write(' done\n');
  }
  return { ours: a, reference: b };
}
