// Field reads of a bulk-read sequence's elements, batched: when a loop or a lambda reads field F
// of element i of an array chunk (what foreach and LINQ read a List<T> or array with), F of
// the next elements of that chunk is requested at once, pipelined on the connection, and each
// later read of F of those elements takes its answer. Reading `e.Hp` over 10,000 elements is
// then a few dozen round trips, not 10,000. Anything that may change the game (an invoke, a
// write) drops what was fetched: a read after it asks the game again, as C# would see it.

import type { FieldDescriptor, GameAccess } from '../runtime.js';
import type { EvalValue } from '../values.js';
import type { Budget } from './budget.js';

/** Elements whose field is requested together with the one asked for. */
export const PREFETCH_WINDOW = 256;

interface Chunk {
  readonly elements: readonly EvalValue[];
  /** Per field handle: the read of each element, by index. */
  readonly reads: Map<unknown, Promise<EvalValue>[]>;
}

export function prefetching(game: GameAccess, budget: Budget): GameAccess {
  /** Where each object of a chunk read since the last game effect is: by object id. */
  let where = new Map<number, { chunk: Chunk; index: number }>();
  let effects = budget.gameEffects;
  const current = (): Map<number, { chunk: Chunk; index: number }> => {
    if (budget.gameEffects !== effects) {
      effects = budget.gameEffects;
      where = new Map();
    }
    return where;
  };

  const readElements = game.readElements?.bind(game);
  const overrides: Partial<GameAccess> = {
    readField(target: EvalValue, field: FieldDescriptor): Promise<EvalValue> {
      const at = target.kind === 'object' ? current().get(target.ref.id) : undefined;
      if (!at) return game.readField(target, field);
      const { chunk, index } = at;
      let reads = chunk.reads.get(field.handle);
      if (!reads) chunk.reads.set(field.handle, (reads = []));
      const known = reads[index];
      if (known) return known;
      const end = Math.min(chunk.elements.length, index + PREFETCH_WINDOW);
      for (let i = index; i < end; i++) {
        const e = chunk.elements[i]!;
        if (reads[i] || e.kind !== 'object') continue;
        const p = game.readField(e, field);
        // a prefetched read nobody asks for must not become an unhandled rejection
        p.catch(() => undefined);
        reads[i] = p;
      }
      return reads[index] ?? game.readField(target, field);
    },
  };
  if (readElements)
    overrides.readElements = async (array, index, count) => {
      const values = await readElements(array, index, count);
      if (values.some((v) => v.kind === 'object')) {
        const map = current();
        const chunk: Chunk = { elements: values, reads: new Map() };
        values.forEach((v, i) => {
          if (v.kind === 'object') map.set(v.ref.id, { chunk, index: i });
        });
      }
      return values;
    };
  return new Proxy(game, {
    get: (target, prop, receiver) => {
      const own = overrides[prop as keyof GameAccess];
      if (own) return own;
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
