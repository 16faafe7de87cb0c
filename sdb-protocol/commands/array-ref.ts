// ARRAY_REF (13): sdb-protocol.md §3.6. An index or count out of range makes the agent assert
// and abort the game, so every range is checked against the array's length first.

import type { GuardContext } from '../command.js';
import { defineCommand, noReply } from '../command.js';
import { SdbUnsafeRequestError } from '../errors.js';
import { readValues, writeValue, type Value } from '../values.js';

export interface ArrayLength {
  rank: number;
  dimensions: { length: number; lowerBound: number }[];
}

async function guardRange(
  arrayId: number,
  index: number,
  count: number,
  ctx: GuardContext,
): Promise<void> {
  if (!Number.isInteger(index) || !Number.isInteger(count) || index < 0 || count < 0) {
    throw new SdbUnsafeRequestError(`array range [${index}, +${count}) is not a valid range`);
  }
  const length = await ctx.arrayLength(arrayId);
  if (index + count > length) {
    throw new SdbUnsafeRequestError(
      `array range [${index}, ${index + count}) is outside the array's ${length} element(s); ` +
        `Mono's agent aborts the game on an out-of-range array access`,
    );
  }
}

export const arrayRefCommands = {
  'ARRAY_REF.GET_LENGTH': defineCommand<{ arrayId: number }, ArrayLength>({
    set: 'ARRAY_REF',
    command: 1,
    encode: (w, p) => void w.objectId(p.arrayId),
    decode: (r) => {
      const rank = r.count('array rank', 32);
      const dimensions = [];
      for (let i = 0; i < rank; i++) dimensions.push({ length: r.i32(), lowerBound: r.i32() });
      return { rank, dimensions };
    },
  }),
  /** `index` is the flat, row-major element index. */
  'ARRAY_REF.GET_VALUES': defineCommand<{ arrayId: number; index: number; count: number }, Value[]>(
    {
      set: 'ARRAY_REF',
      command: 2,
      guard: (p, ctx) => guardRange(p.arrayId, p.index, p.count, ctx),
      encode: (w, p) => void w.objectId(p.arrayId).i32(p.index).i32(p.count),
      decode: (r, v, p) => readValues(r, v, p.count),
    },
  ),
  'ARRAY_REF.SET_VALUES': defineCommand<{
    arrayId: number;
    index: number;
    values: readonly Value[];
  }>({
    set: 'ARRAY_REF',
    command: 3,
    guard: (p, ctx) => guardRange(p.arrayId, p.index, p.values.length, ctx),
    encode: (w, p, v) => {
      w.objectId(p.arrayId).i32(p.index).i32(p.values.length);
      for (const x of p.values) writeValue(w, x, v);
    },
    decode: noReply,
  }),
} as const;

/** Flat element count of an array from its GET_LENGTH reply. */
export function flatLength(l: ArrayLength): number {
  return l.dimensions.reduce((n, d) => n * d.length, l.rank === 0 ? 0 : 1);
}
