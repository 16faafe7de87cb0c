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
