// Field reads of a bulk-read sequence's elements, batched: when a loop or a lambda reads field F
// of an element of an array chunk (what foreach and LINQ read a List<T> or array with), F of
// the whole chunk is read at once: in a few invokes and one array read (field-batch.ts) for a
// number, enum or string field of a chunk of non-null objects, else as pipelined requests for
// the next elements; each later read of F of those elements takes its answer. Reading `e.Hp`
// over 10,000 elements is then a handful of commands, not 10,000 round trips. Anything that may
// change the game (an invoke or a write of the program) drops what was read ahead: a read after
// it asks the game again, as C# would see it. Sits under the budget's counting: its own invokes
// are reads, not the program's effects.

import type { FieldDescriptor, GameAccess, MetadataProvider } from '../runtime.js';
import type { ElementColumn, EvalValue } from '../values.js';
import type { Budget } from './budget.js';
import { FieldBatch } from './field-batch.js';

/** Elements whose field is requested together with the one asked for (pipelined path). */
export const PREFETCH_WINDOW = 256;
/** A chunk at least this long has a field read by invokes (fewer are read one by one). */
const BATCH_AT_LEAST = 64;

const BATCHED_KINDS = new Set([
  'System.Boolean',
  'System.Char',
  'System.SByte',
  'System.Byte',
  'System.Int16',
  'System.UInt16',
  'System.Int32',
  'System.UInt32',
  'System.Int64',
  'System.UInt64',
  'System.Single',
  'System.Double',
  'System.String',
]);

interface FieldReads {
  /** The whole chunk's values by invokes, or undefined when they are read per element. */
  readonly all: Promise<ElementColumn | undefined>;
  readonly each: Promise<EvalValue>[];
  /** The whole chunk's values once `all` has them (what readFieldNow answers from). */
  values?: ElementColumn;
}

interface Chunk {
  readonly array: EvalValue;
  readonly start: number;
  readonly elements: ElementColumn;
  /** Per field handle: the chunk's batched read, and the read of each element asked for, by index. */
  readonly reads: Map<unknown, FieldReads>;
  /** The index last found: a loop asks for its elements in order. */
  cursor: number;
  /** Each object's index by id, made at the first lookup the cursor does not answer. */
  positions?: Map<number, number>;
}

/** Chunks kept for lookups (the newest): an object of an older one is read as any other. */
const CHUNKS_KEPT = 8;

export function prefetching(
  game: GameAccess,
  md: MetadataProvider,
  budget: Budget,
  /** What lives as long as the game's connection (its metadata): the batch's converters are kept by it. */
  connection?: object,
): GameAccess {
  /** The chunks read since the last game effect, newest last. */
  let chunks: Chunk[] = [];
  let effects = budget.gameEffects;
  /** The chunk the last `locate` found its object in. */
  let found: Chunk | undefined;
  /**
   * The index of object `target` in the newest chunk that holds it (that chunk left in
   * `found`), or -1: at the chunk's cursor or just after it (a loop's next element, no
   * lookup), else by a map of the chunk's ids.
   */
  const locate = (target: EvalValue & { kind: 'object' }): number => {
    if (budget.gameEffects !== effects) {
      effects = budget.gameEffects;
      chunks = [];
    }
    const id = target.ref.id;
    for (let k = chunks.length - 1; k >= 0; k--) {
      const c = chunks[k]!;
      if (c.elements.objectId(c.cursor) === id) {
        found = c;
        return c.cursor;
      }
      if (c.cursor + 1 < c.elements.length && c.elements.objectId(c.cursor + 1) === id) {
        found = c;
        return ++c.cursor;
      }
    }
    for (let k = chunks.length - 1; k >= 0; k--) {
      const c = chunks[k]!;
      if (!c.positions) {
        c.positions = new Map();
        for (let i = 0; i < c.elements.length; i++) {
          const e = c.elements.objectId(i);
          if (e !== undefined) c.positions.set(e, i);
        }
      }
      const i = c.positions.get(id);
      if (i !== undefined) {
        found = c;
        c.cursor = i;
        return i;
      }
    }
    return -1;
  };
  const batch = new FieldBatch(md, game, connection);
  /** Fields the invoke path failed for (read one by one from then on). */
  const unbatchable = new Set<unknown>();

  const batchable = async (chunk: Chunk, field: FieldDescriptor): Promise<boolean> => {
    if (unbatchable.has(field.handle) || chunk.elements.length < BATCH_AT_LEAST) return false;
    for (let i = 0; i < chunk.elements.length; i++)
      if (chunk.elements.objectId(i) === undefined) return false;
    const d = await md.describe(field.type);
    return d.kind === 'enum' || BATCHED_KINDS.has(d.fullName);
  };

  const readAll = async (
    chunk: Chunk,
    field: FieldDescriptor,
  ): Promise<ElementColumn | undefined> => {
    if (!(await batchable(chunk, field))) return undefined;
    try {
      return await batch.read(chunk.array, chunk.start, chunk.elements.length, field);
    } catch {
      unbatchable.add(field.handle);
      return undefined;
    }
  };

  /** The reads of `field` over `chunk`, started (the whole chunk at once, when it can be). */
  const readsOf = (chunk: Chunk, field: FieldDescriptor): FieldReads => {
    let reads = chunk.reads.get(field.handle);
    if (!reads) {
      const all = readAll(chunk, field);
      const made: FieldReads = { all, each: [] };
      void all.then(
        (vs) => {
          if (vs) made.values = vs;
        },
        () => undefined,
      );
      chunk.reads.set(field.handle, (reads = made));
    }
    return reads;
  };

  const readElements = game.readElements?.bind(game);
  const overrides: Partial<GameAccess> = {
    readField(target: EvalValue, field: FieldDescriptor): Promise<EvalValue> {
      const index = target.kind === 'object' ? locate(target) : -1;
      if (index < 0) return game.readField(target, field);
      const chunk = found!;
      // every element's read waits for the whole chunk's, when there is one
      const { all, each } = readsOf(chunk, field);
      const known = each[index];
      if (known) return known;
      // else the elements from this one on, a window at a time, pipelined
      const end = Math.min(chunk.elements.length, index + PREFETCH_WINDOW);
      for (let i = index; i < end; i++) {
        if (each[i]) continue;
        const p = all.then((vs) => vs?.at(i) ?? game.readField(chunk.elements.at(i), field));
        p.catch(() => undefined);
        each[i] = p;
      }
      return each[index]!;
    },
  };
  // the last chunk and field answered, with their reads: a loop asks for one field of the
  // same chunk element after element
  let lastChunk: Chunk | undefined;
  let lastHandle: unknown;
  let lastReads: FieldReads | undefined;
  overrides.readFieldNow = (target: EvalValue, field: FieldDescriptor): EvalValue | undefined => {
    if (target.kind !== 'object') return undefined;
    const index = locate(target);
    if (index < 0) return undefined;
    if (found !== lastChunk || field.handle !== lastHandle || !lastReads) {
      lastChunk = found;
      lastHandle = field.handle;
      lastReads = found!.reads.get(field.handle);
    }
    return lastReads?.values?.at(index);
  };
  overrides.chunkColumn = async (elements, field) => {
    if (budget.gameEffects !== effects) return undefined;
    const chunk = chunks.find((c) => c.elements === elements);
    // the same reads an element's field read would start (or has started): made once
    return chunk ? readsOf(chunk, field).all : undefined;
  };
  if (readElements)
    overrides.readElements = async (array, index, count) => {
      const values = await readElements(array, index, count);
      if (hasObjects(values)) {
        if (budget.gameEffects !== effects) {
          effects = budget.gameEffects;
          chunks = [];
        }
        chunks.push({ array, start: index, elements: values, reads: new Map(), cursor: 0 });
        if (chunks.length > CHUNKS_KEPT) chunks.shift();
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

function hasObjects(values: ElementColumn): boolean {
  for (let i = 0; i < values.length; i++) if (values.objectId(i) !== undefined) return true;
  return false;
}
