// Sum, Average, Min and Max with the result types of System.Linq.Enumerable's overloads, as
// Mono's System.Core computes them: Sum of int (and long) is checked, Sum of float adds in
// double and rounds once, Average of int or long divides a long total as double, nullable
// overloads skip nulls (an empty one gives 0 for Sum, null for the others), an empty
// non-nullable sequence throws InvalidOperationException; Min of doubles is NaN when any is,
// Max skips NaN unless all are.

import { num, NULL, type EvalValue, type NumericKind } from '../../values.js';
import {
  decimalAdd,
  decimalCompare,
  decimalDivide,
  decimalFromBigInt,
} from '../../semantics/decimal.js';
import type { DecimalValue } from '../../semantics/numeric-types.js';
import { ManagedException, sem } from '../errors.js';
import { bitsFromDecimal, decimalFromBits } from '../primitives.js';
import { compareNumbers } from './keys.js';

export type AggregateKind = 'int' | 'long' | 'float' | 'double' | 'decimal';

export const NO_ELEMENTS = (): ManagedException =>
  new ManagedException('System.InvalidOperationException', 'Sequence contains no elements');

const OVERFLOW = (): ManagedException =>
  new ManagedException('System.OverflowException', 'Arithmetic operation resulted in an overflow.');

/** The numeric overload a selector's return type binds to (§12.6.4: the better conversion). */
export function sumOverload(kind: string): AggregateKind | undefined {
  switch (kind) {
    case 'sbyte':
    case 'byte':
    case 'short':
    case 'ushort':
    case 'char':
    case 'int':
      return 'int';
    case 'uint':
    case 'long':
      return 'long';
    case 'ulong':
    case 'float':
      return 'float';
    case 'double':
      return 'double';
    case 'decimal':
      return 'decimal';
  }
  return undefined;
}

const decimalOf = (v: EvalValue): DecimalValue => {
  if (v.kind !== 'decimal') throw new Error(`not a decimal: ${v.kind}`);
  return decimalFromBits(v.bits);
};

const decimalValue = (d: DecimalValue): EvalValue => ({
  kind: 'decimal',
  bits: bitsFromDecimal(d),
});

function numberOf(v: EvalValue): number | bigint {
  if (v.kind === 'number') return v.value;
  if (v.kind === 'enum') return v.value;
  throw new Error(`not a number: ${v.kind}`);
}

/**
 * Sum or Average folded element by element, as Enumerable's loops do: an overflow throws at the
 * element that caused it, so the elements after it are never enumerated (nor their selector
 * called).
 */
export interface Accumulator {
  add(v: EvalValue): void;
  result(): EvalValue;
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;
const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

export function summing(kind: AggregateKind): Accumulator {
  switch (kind) {
    case 'int': {
      let s = 0;
      return {
        add(v) {
          if (v.kind === 'null') return;
          s += Number(numberOf(v));
          if (s > INT_MAX || s < INT_MIN) throw OVERFLOW();
        },
        result: () => num('int', s),
      };
    }
    case 'long': {
      let s = 0n;
      return {
        add(v) {
          if (v.kind === 'null') return;
          s += BigInt(numberOf(v));
          if (s > LONG_MAX || s < LONG_MIN) throw OVERFLOW();
        },
        result: () => num('long', s),
      };
    }
    case 'float':
    case 'double': {
      let s = 0;
      return {
        add(v) {
          if (v.kind !== 'null') s += Number(numberOf(v));
        },
        result: () => num(kind, kind === 'float' ? Math.fround(s) : s),
      };
    }
    case 'decimal': {
      let s = decimalFromBigInt(0n);
      return {
        add(v) {
          if (v.kind !== 'null') s = sem(() => decimalAdd(s, decimalOf(v)));
        },
        result: () => decimalValue(s),
      };
    }
  }
}

/** Average: nulls skipped; none left is null for a nullable overload, else no elements. */
export function averaging(kind: AggregateKind, nullable: boolean): Accumulator {
  const total = summing(kind === 'int' ? 'long' : kind === 'float' ? 'double' : kind);
  let count = 0;
  return {
    add(v) {
      if (v.kind === 'null') return;
      total.add(v);
      count++;
    },
    result() {
      if (count === 0) {
        if (nullable) return NULL;
        throw NO_ELEMENTS();
      }
      const s = total.result();
      switch (kind) {
        case 'int':
        case 'long':
          return num('double', Number(numberOf(s)) / count);
        case 'float':
        case 'double': {
          const avg = Number(numberOf(s)) / count;
          return num(kind, kind === 'float' ? Math.fround(avg) : avg);
        }
        case 'decimal': {
          const n = decimalFromBigInt(BigInt(count));
          return decimalValue(sem(() => decimalDivide(decimalOf(s), n)));
        }
      }
    },
  };
}

/** Min or Max of numbers of one kind (`numeric` says which), with .NET's NaN rules. */
export function extremum(
  values: readonly EvalValue[],
  kind: NumericKind | 'decimal',
  max: boolean,
  nullable: boolean,
): EvalValue {
  let best: EvalValue | undefined;
  for (const v of values) {
    if (v.kind === 'null') continue;
    if (!best) {
      best = v;
      continue;
    }
    if (kind === 'decimal') {
      const c = decimalCompare(decimalOf(v), decimalOf(best));
      if (max ? c > 0 : c < 0) best = v;
      continue;
    }
    const x = numberOf(v);
    const b = numberOf(best);
    if (typeof x === 'number' && (kind === 'double' || kind === 'float')) {
      if (max) {
        if (x > (b as number) || Number.isNaN(b)) best = v;
      } else if (x < (b as number)) best = v;
      else if (Number.isNaN(x)) return v;
      continue;
    }
    const c = compareNumbers(x, b);
    if (max ? c > 0 : c < 0) best = v;
  }
  if (best) return best;
  if (nullable) return NULL;
  throw NO_ELEMENTS();
}
