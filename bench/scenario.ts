// What every benchmark scenario takes and prints (bench/run.ts runs them).

export interface Options {
  rounds: number;
  iterations: number;
}

/** One printed line: ours against the reference, and the target it is held to. */
export interface Line {
  name: string;
  ours: number;
  /** Undefined for rows only we have (counts, first evaluations). */
  reference: number | undefined;
  unit: string;
  /** `ratio <= x` or `ours < x`. */
  target?: { kind: 'ratio' | 'absolute'; value: number };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const round = (x: number, digits: number): number =>
  Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Runs `rounds` rounds of both clients and returns per-key medians. The order alternates each
 * round and the machine gets a moment between clients: a client process that is still exiting
 * (Mono's takes about a second) must not compete with the next one's measurements.
 */
export async function alternate(
  label: string,
  rounds: number,
  reference: () => Promise<Record<string, number>>,
  ours: () => Promise<Record<string, number>>,
): Promise<{ ours: Record<string, number>; reference: Record<string, number> }> {
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
  const med = (x: Record<string, number[]>): Record<string, number> =>
    Object.fromEntries(Object.entries(x).map(([k, v]) => [k, median(v)]));
  return { ours: med(a), reference: med(b) };
}
