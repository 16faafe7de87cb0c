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

function decimalSum(values: readonly EvalValue[]): DecimalValue {
  let s = decimalFromBigInt(0n);
  for (const v of values) if (v.kind !== 'null') s = sem(() => decimalAdd(s, decimalOf(v)));
  return s;
}

function numberOf(v: EvalValue): number | bigint {
  if (v.kind === 'number') return v.value;
  if (v.kind === 'enum') return v.value;
  throw new Error(`not a number: ${v.kind}`);
}

export function sum(values: readonly EvalValue[], kind: AggregateKind): EvalValue {
  switch (kind) {
    case 'int': {
      let s = 0;
      for (const v of values) {
        if (v.kind === 'null') continue;
        s += Number(numberOf(v));
        if (s > 2147483647 || s < -2147483648) throw OVERFLOW();
      }
      return num('int', s);
    }
    case 'long': {
      let s = 0n;
      for (const v of values) {
        if (v.kind === 'null') continue;
        s += BigInt(numberOf(v));
        if (s > 9223372036854775807n || s < -9223372036854775808n) throw OVERFLOW();
      }
      return num('long', s);
    }
    case 'float':
    case 'double': {
      let s = 0;
      for (const v of values) if (v.kind !== 'null') s += Number(numberOf(v));
      return num(kind, kind === 'float' ? Math.fround(s) : s);
    }
    case 'decimal':
      return decimalValue(decimalSum(values));
  }
}

export function average(
  values: readonly EvalValue[],
  kind: AggregateKind,
  nullable: boolean,
): EvalValue {
  const present = values.filter((v) => v.kind !== 'null');
  if (present.length === 0) {
    if (nullable) return NULL;
    throw NO_ELEMENTS();
  }
  switch (kind) {
    case 'int':
    case 'long': {
      let s = 0n;
      for (const v of present) {
        s += BigInt(numberOf(v));
        if (s > 9223372036854775807n || s < -9223372036854775808n) throw OVERFLOW();
      }
      return num('double', Number(s) / present.length);
    }
    case 'float':
    case 'double': {
      let s = 0;
      for (const v of present) s += Number(numberOf(v));
      const avg = s / present.length;
      return num(kind, kind === 'float' ? Math.fround(avg) : avg);
    }
    case 'decimal': {
      const count = decimalFromBigInt(BigInt(present.length));
      return decimalValue(sem(() => decimalDivide(decimalSum(present), count)));
    }
  }
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
