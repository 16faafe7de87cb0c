// A chain of Where and Select over an array or List<T> of the game, computed a chunk at a time:
// when every lambda of the chain is a row lambda (row-lambdas.ts: no effect, no exception, a
// value of the element's fields or of the element itself), each chunk's elements go through all
// of them in a few loops over numbers (the fields read for the whole chunk in one batch), and
// the elements that pass are handed on one by one, as the chain's iterators would hand them.
// What C# would do differently cannot be seen: the lambdas' values are the same, they change
// nothing, and the budget counts their calls as each element is handed on (the calls made
// for it and for the elements dropped before it), so a program stops at the same element. As
// soon as something could tell (the code that takes the elements changed the game, the next
// calls would pass the iterations bound, a chunk's fields cannot be batched, a lambda is not a
// row lambda), the rest of the enumeration goes through the chain's iterators, element by
// element, from the first element not yet handed on.

import type * as A from '../../syntax/index.js';
import type { PrimitiveKind } from '../../semantics/numeric-types.js';
import type { ElementColumn, EvalValue } from '../../values.js';
import type { Interpreter } from '../interpreter.js';
import { isPromise, type Maybe } from '../maybe.js';
import { rowInputs, rowValue, type RowLambda } from '../row-lambdas.js';
import { END, type Pull, type SequenceSource } from '../sequences.js';
import type { BoundFn } from './enumerable.js';

export interface RowStage {
  readonly op: 'where' | 'select';
  readonly fn: BoundFn;
  /** The lambda's argument: where a bound reached while handing an element on is reported. */
  readonly span: A.Span;
}

/** A Where/Select chain over a bulk source (an array or List<T> read in chunks). */
export interface RowChain {
  readonly base: SequenceSource;
  readonly stages: readonly RowStage[];
}

/** Stages per chain at most (a count per element of the stages it reached is a byte). */
const MAX_STAGES = 255;

/** The chain `stage` over `src` makes, when `src` is a bulk source or such a chain. */
export function rowChain(src: SequenceSource, stage: RowStage): RowChain | undefined {
  if (src.rows && src.rows.stages.length < MAX_STAGES)
    return { base: src.rows.base, stages: [...src.rows.stages, stage] };
  if (src.bulk) return { base: src, stages: [stage] };
  return undefined;
}

/** One stage's iterator over `src` (wherePull or selectPull, not indexed). */
export type ScalarStage = (src: SequenceSource, stage: RowStage) => Pull;

/** What the row paths did (tests ask whether a chunk went by rows or element by element). */
export interface RowStats {
  /** Chunks a row pull's chain or a row foreach's body ran over as numbers. */
  chunks: number;
  /** Enumerations (or their rest) that went element by element instead. */
  fallbacks: number;
}

/** A chunk's elements through the chain, and how far they were handed on. */
interface Rows {
  readonly elements: ElementColumn;
  /** Indices of the elements that passed every Where, in order. */
  readonly pass: Int32Array;
  /** The last Select's values by element index (undefined: the elements themselves pass). */
  readonly values: Float64Array | undefined;
  readonly kind: PrimitiveKind | undefined;
  /** The number of lambdas called for each element. */
  readonly reach: Uint8Array;
  /** The game effects counted when they were computed. */
  readonly effects: number;
  /** The next of `pass` to hand on. */
  k: number;
  /** The index of the last element whose calls were counted. */
  last: number;
}

/** A lambda reads no outer local: its kernel's state is empty. */
const NO_STATE = new Float64Array(0);

export function rowPull(chain: RowChain, it: Interpreter, scalarStage: ScalarStage): Pull {
  const base = chain.base.pull!();
  const { stages } = chain;
  const budget = it.budget;
  const stats = it.rowStats;
  let fallback: Pull | undefined;
  let rows: Rows | undefined;
  /** The stages' row lambdas: undefined until asked, null when one is not a row lambda. */
  let lambdas: readonly RowLambda[] | null | undefined;

  /** The chain's iterators over `base`. */
  const iterators = (): Pull => {
    stats.fallbacks++;
    const over = (p: Pull): SequenceSource => ({
      elementType: chain.base.elementType,
      iterate: () => {
        throw new Error('a row pull stage is pulled, not iterated');
      },
      pull: () => p,
    });
    return stages.reduce((p, st) => scalarStage(over(p), st), base);
  };

  /** The rest of the enumeration by the chain's iterators, `base` giving element `at` next. */
  const scalar = (at: number): Maybe<EvalValue | typeof END> => {
    base.skipTo!(at);
    rows = undefined;
    fallback = iterators();
    return fallback.next();
  };

  const compute = async (elements: ElementColumn, from: number): Promise<Rows | undefined> => {
    if (lambdas === undefined) {
      // one after the other: binding one sets the interpreter's scope while it waits
      const made: RowLambda[] = [];
      for (const st of stages) {
        const l = await st.fn.call.row?.();
        if (!l) break;
        made.push(l);
      }
      lambdas = made.length === stages.length ? made : null;
    }
    if (!lambdas || (it.checked && lambdas.some((l) => l.wraps))) return undefined;
    const n = elements.length;
    const columns: Float64Array[][] = [];
    for (const l of lambdas) {
      // the fields of the elements (a lambda after a Select reads its value, no field)
      const inputs = await rowInputs(it.rt.game, { ...l, readsValue: false }, elements);
      if (!inputs) return undefined;
      columns.push(inputs.columns);
    }
    // the elements themselves, when a lambda reads them (any up to the first Select's)
    let value: Float64Array | undefined;
    const firstSelect = stages.findIndex((st) => st.op === 'select');
    const upTo = firstSelect < 0 ? lambdas.length : firstSelect + 1;
    if (lambdas.slice(0, upTo).some((l) => l.readsValue)) {
      value = elements.numbers?.();
      if (!value) return undefined;
    }
    // stage by stage over the elements still in: nothing here has an effect or can throw
    let alive = new Int32Array(n - from);
    let count = alive.length;
    for (let j = 0; j < count; j++) alive[j] = from + j;
    const reach = new Uint8Array(n);
    let kind: PrimitiveKind | undefined;
    let selected = false;
    for (let s = 0; s < lambdas.length; s++) {
      const { kernel } = lambdas[s]!;
      const cs = columns[s]!;
      for (let j = 0; j < count; j++) reach[alive[j]!]!++;
      if (stages[s]!.op === 'where') {
        let m = 0;
        for (let j = 0; j < count; j++) {
          const i = alive[j]!;
          if (kernel(cs, value, i, NO_STATE) !== 0) alive[m++] = i;
        }
        count = m;
      } else {
        const out = new Float64Array(n);
        for (let j = 0; j < count; j++) {
          const i = alive[j]!;
          out[i] = kernel(cs, value, i, NO_STATE);
        }
        value = out;
        kind = lambdas[s]!.kind;
        selected = true;
      }
    }
    if (count < alive.length) alive = alive.subarray(0, count);
    stats.chunks++;
    return {
      elements,
      pass: alive,
      values: selected ? value : undefined,
      kind,
      reach,
      effects: budget.gameEffects,
      k: 0,
      last: from - 1,
    };
  };

  /** The calls made for elements (last, to], counted, or false when they would pass the bound. */
  const counted = (r: Rows, to: number): boolean => {
    let calls = 0;
    for (let i = r.last + 1; i <= to; i++) calls += r.reach[i]!;
    if (!budget.fits(calls)) return false;
    r.last = to;
    budget.iterationsDone(calls, stages[stages.length - 1]!.span);
    return true;
  };

  const hand = (r: Rows): Maybe<EvalValue | typeof END> => {
    if (r.k < r.pass.length) {
      const i = r.pass[r.k]!;
      if (!counted(r, i)) return scalar(r.last + 1);
      r.k++;
      return r.values ? rowValue(r.kind!, r.values[i]!) : r.elements.at(i);
    }
    // the chunk's last elements were dropped by a Where: their calls come before the next chunk
    if (!counted(r, r.elements.length - 1)) return scalar(r.last + 1);
    base.skipTo!(r.elements.length);
    rows = undefined;
    return start();
  };

  /** The first element of a chunk, and the chunk through the chain from it. */
  const start = (): Maybe<EvalValue | typeof END> => {
    const x = base.next();
    return isPromise(x) ? x.then(started) : started(x);
  };

  const started = (x: EvalValue | typeof END): Maybe<EvalValue | typeof END> => {
    if (x === END) return END;
    const c = base.chunk!()!;
    const from = c.at - 1;
    return compute(c.elements, from).then((r) => {
      if (!r) return scalar(from);
      rows = r;
      return hand(r);
    });
  };

  // a program that lets the game run between statements: every element as the game is then
  if (budget.releases) fallback = iterators();

  return {
    next: () => {
      if (fallback) return fallback.next();
      if (!rows) return start();
      // the code taking the elements changed the game: the rest sees it, element by element
      if (budget.gameEffects !== rows.effects) return scalar(rows.last + 1);
      return hand(rows);
    },
    close: () => (fallback ?? base).close(),
  };
}
