// What foreach (and LINQ, over the game's collections) enumerates (§13.9.5): arrays and
// List<T> are read in bulk from their storage (an array's elements in one wire command per
// chunk; a List<T>'s `_items` and `_size`), strings locally; anything else goes through its own
// enumerator, GetEnumerator / MoveNext / Current invoked in the game, and Dispose at the end.
// A List<T> read in bulk still fails as C#'s enumerator would when the loop changed it: its
// `_version` is read again after any game call or write and compared.

import type * as A from '../syntax/index.js';
import {
  GameExceptionError,
  type FieldDescriptor,
  type GameAccess,
  type TypeHandle,
} from '../runtime.js';
import { columnOf, num, type ElementColumn, type EvalValue } from '../values.js';
import { CompileError, ManagedException, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { LocalScope } from './local-scope.js';
import type { Operand } from './operand.js';
import type { SType } from './type-facts.js';
import type { Maybe } from './maybe.js';
import type { Budget } from './budget.js';
import type { RowChain } from './linq/row-pull.js';

export interface SequenceSource {
  readonly elementType: SType;
  /**
   * One enumeration, pulled element by element (C#'s MoveNext/Current): each call starts over,
   * so a deferred query sees its source as it is then. Ending it early (`return()`) disposes.
   */
  iterate(): AsyncGenerator<EvalValue, void, undefined>;
  /**
   * The same enumeration as `iterate`, for sources that can hand over an element without a
   * promise when it is already read (a chunk of an array or List<T>, a Where or Select over
   * one): the elements come in the same order, with the same effects at the same points.
   */
  pull?(): Pull;
  /**
   * The source reads its elements in chunks (an array or a List<T>, read in bulk): its pull has
   * `chunk` and `skipTo`.
   */
  readonly bulk?: true;
  /** A Where/Select chain over a bulk source, for the row pull (linq/row-pull.ts). */
  readonly rows?: RowChain;
}

/** What `Pull.next` gives after the last element. */
export const END: unique symbol = Symbol('end of the sequence');

/** One enumeration pulled by hand: `next` until END; `close` when left before END (Dispose). */
export interface Pull {
  next(): Maybe<EvalValue | typeof END>;
  close(): Promise<void> | undefined;
  /**
   * A bulk source's pull, right after `next` gave an element read with its chunk (the chunk's
   * first, or one after it with nothing changed since): that chunk, and the index of the element
   * `next` gives. Undefined before the first element.
   */
  chunk?(): { readonly elements: ElementColumn; readonly at: number } | undefined;
  /**
   * A bulk source's pull: the element `next` gives is the current chunk's `at` (its length: the
   * next chunk's first). Elements skipped are as if pulled (the caller did for them what the
   * loop would have done, nothing in the game changed since); an element given before is given
   * again (the caller had not used it).
   */
  skipTo?(at: number): void;
}

/** A source's pull, or its async iteration behind the same interface. */
export function pullOf(source: SequenceSource): Pull {
  if (source.pull) return source.pull();
  const gen = source.iterate();
  return {
    next: () => gen.next().then((r) => (r.done ? END : r.value)),
    close: () => gen.return(undefined).then(() => undefined),
  };
}

/**
 * Visits a sequence's elements in order until `visit` returns true (stop). As `for await`: a
 * stop closes the source; so does a `visit` that throws (its error wins over the close's).
 */
export async function eachOf(
  source: SequenceSource,
  visit: (v: EvalValue) => Maybe<boolean>,
): Promise<void> {
  const p = pullOf(source);
  for (;;) {
    let x = p.next();
    if (x instanceof Promise) x = await x;
    if (x === END) return;
    let stop: Maybe<boolean>;
    try {
      stop = visit(x);
      if (stop instanceof Promise) stop = await stop;
    } catch (e) {
      try {
        await p.close();
      } catch {
        // the visit's error is the one reported, as for await's
      }
      throw e;
    }
    if (stop) {
      await p.close();
      return;
    }
  }
}

/** A chunk pull as an async iteration (`iterate` of the sources `chunkPull` serves). */
async function* pulled(p: Pull): AsyncGenerator<EvalValue, void, undefined> {
  for (;;) {
    let x = p.next();
    if (x instanceof Promise) x = await x;
    if (x === END) return;
    yield x;
  }
}

/**
 * A pull over elements [0, total) of a game array, a chunk per wire command; `total` is found
 * at the first pull, `afterEach` (when given) runs before each element after the first and
 * after the last (List<T>'s check that the loop did not change it). With `effects` (an array's
 * pull), what was read is not used after anything that may have changed the array's elements
 * (an element write, a call: a write to the array in the loop is seen by the elements after
 * it, as in C#): the next element is read on its own (a loop that changes the game at every
 * element costs a read per element, not the rest of the chunk each time), and the rest of the
 * chunk again at once when an element is reached with nothing changed since.
 */
function chunkPull(
  game: GameAccess,
  start: () => Promise<{ array: EvalValue; total: number }>,
  afterEach?: () => Promise<void> | undefined,
  effects?: Budget,
): Pull {
  let array: EvalValue | undefined;
  let total = -1;
  let read = 0;
  let buffer: ElementColumn = columnOf([]);
  let at = 0;
  let started = false;
  /** The element effects counted when the buffer was read. */
  let seen = effects?.elementEffects;
  /** The element effects counted when an element was last read on its own. */
  let single: number | undefined;
  /** Elements [from, from + count) in the buffer, then the first of them. */
  const readFrom = async (from: number, count: number): Promise<EvalValue | typeof END> => {
    seen = effects?.elementEffects;
    buffer = game.readElements
      ? await game.readElements(array!, from, count)
      : columnOf([await game.readElement(array!, from)]);
    at = 0;
    read = from + buffer.length;
    if (buffer.length === 0) return END;
    return buffer.at(at++);
  };
  const fill = async (): Promise<EvalValue | typeof END> => {
    if (total < 0) ({ array, total } = await start());
    if (read >= total) return END;
    return readFrom(read, Math.min(CHUNK, total - read));
  };
  const element = (): Maybe<EvalValue | typeof END> => {
    if (at >= buffer.length) return fill();
    if (effects && effects.elementEffects !== seen) {
      const index = read - buffer.length + at;
      if (effects.elementEffects !== single) {
        single = effects.elementEffects;
        at++;
        return game.readElement(array!, index);
      }
      return readFrom(index, read - index);
    }
    return buffer.at(at++);
  };
  return {
    next: () => {
      if (started && afterEach) {
        const checked = afterEach();
        if (checked) return checked.then(element);
      }
      started = true;
      return element();
    },
    close: () => undefined,
    chunk: () => (started ? { elements: buffer, at } : undefined),
    skipTo: (i) => {
      at = Math.min(Math.max(i, 0), buffer.length);
    },
  };
}

/**
 * Elements read per wire command from an array: a List<T> of 10,000 objects in one, so that
 * their fields are read for all of them at once (prefetch.ts).
 */
const CHUNK = 16_384;

const MODIFIED = 'Collection was modified; enumeration operation may not execute.';

export class Sequences {
  constructor(private readonly it: Interpreter) {}

  private get game() {
    return this.it.rt.game;
  }

  async source(collection: Operand, span: A.Span): Promise<SequenceSource> {
    const local = this.it.clientValues.sequenceOf(collection);
    if (local) return local;
    if (collection.type === 'null')
      throw new CompileError('CS0186', 'foreach cannot operate on a null literal', span);
    const type = collection.type;
    const d = await this.it.facts.describe(type);
    if (d.kind === 'array' && d.elementType) return this.array(collection.value, d.elementType);
    if (await this.it.facts.isString(type))
      return this.string(collection.value, await this.it.wk.keyword('char'));
    if (d.genericDefinition) {
      const def = await this.it.facts.describe(d.genericDefinition);
      if (def.fullName === 'System.Collections.Generic.List`1' && d.typeArguments[0]) {
        const list = await this.list(collection.value, type, d.typeArguments[0]);
        if (list) return list;
      }
    }
    return this.enumerator(collection, span, await this.it.linq.elementTypeOf(type));
  }

  private array(array: EvalValue, elementType: TypeHandle): SequenceSource {
    const game = this.game;
    const start = async (): Promise<{ array: EvalValue; total: number }> => {
      if (array.kind === 'null') throw Messages.nullReference();
      return { array, total: (await game.arrayLengths(array)).reduce((a, b) => a * b, 1) };
    };
    const budget = this.it.budget;
    return {
      elementType,
      iterate: () => pulled(chunkPull(game, start, undefined, budget)),
      pull: () => chunkPull(game, start, undefined, budget),
      bulk: true,
    };
  }

  private string(s: EvalValue, elementType: TypeHandle): SequenceSource {
    const game = this.game;
    return {
      elementType,
      async *iterate() {
        if (s.kind === 'null') throw Messages.nullReference();
        const text = (s.kind === 'string' ? s.text : undefined) ?? (await game.stringText(s)).text;
        for (let i = 0; i < text.length; i++) yield num('char', text.charCodeAt(i));
      },
    };
  }

  /** A List<T> by its storage, when the runtime's List<T> has the fields we know. */
  private async list(
    list: EvalValue,
    type: TypeHandle,
    elementType: TypeHandle,
  ): Promise<SequenceSource | undefined> {
    const fields = await this.it.md.allFields(type);
    const field = (name: string): FieldDescriptor | undefined =>
      fields.find((f) => f.name === name && !f.isStatic);
    const items = field('_items');
    const size = field('_size');
    const version = field('_version');
    if (!items || !size || !version) return undefined;
    const { game, it } = this;
    /** One enumeration's start: the version, size and storage, and the check of the version. */
    const open = async () => {
      if (list.kind === 'null') throw Messages.nullReference();
      // three reads in one round trip (pipelined, in this order)
      const [v0, n, array] = await Promise.all([
        game.readField(list, version),
        game.readField(list, size) as Promise<{ value: number }>,
        game.readField(list, items),
      ]);
      let seen = it.budget.gameEffects;
      const stillValid = (): Promise<void> | undefined => {
        if (it.budget.gameEffects === seen) return undefined;
        seen = it.budget.gameEffects;
        return game.readField(list, version).then((v) => {
          if ((v as { value: number }).value !== (v0 as { value: number }).value)
            throw new ManagedException('System.InvalidOperationException', MODIFIED);
        });
      };
      return { array, total: Number(n.value), stillValid };
    };
    const pull = (): Pull => {
      let check: (() => Promise<void> | undefined) | undefined;
      return chunkPull(
        game,
        async () => {
          const o = await open();
          check = o.stillValid;
          return o;
        },
        () => check?.(),
      );
    };
    return { elementType, iterate: () => pulled(pull()), pull, bulk: true };
  }

  /** An array or List<T> behind an interface-typed collection, by the value's runtime type. */
  private async byRuntimeType(
    value: EvalValue,
    elementType: SType,
  ): Promise<SequenceSource | undefined> {
    if (value.kind !== 'object' || elementType === 'null') return undefined;
    const runtime = value.type ?? (await this.game.typeOf(value));
    const d = await this.it.facts.describe(runtime);
    const same = (t: TypeHandle | undefined) => !!t && this.it.facts.same(t, elementType);
    if (d.kind === 'array' && d.rank === 1 && same(d.elementType))
      return this.array(value, d.elementType!);
    if (d.genericDefinition && same(d.typeArguments[0])) {
      const def = await this.it.facts.describe(d.genericDefinition);
      if (def.fullName === 'System.Collections.Generic.List`1')
        return this.list(value, runtime, d.typeArguments[0]!);
    }
    return undefined;
  }

  /** Any other enumerable, through GetEnumerator / MoveNext / Current in the game. */
  private async enumerator(
    collection: Operand,
    span: A.Span,
    /** T of the IEnumerable<T> the type implements (foreach's element type, §13.9.5). */
    generic: TypeHandle | undefined,
  ): Promise<SequenceSource> {
    const it = this.it;
    const syn = synthetic(span);
    const outer = it.locals;
    const scope = it.locals.child();
    it.locals = scope;
    let elementType: SType;
    let disposable = true;
    const moveNext = syn.call(syn.name('$enumerator'), 'MoveNext');
    const current = syn.member(syn.name('$enumerator'), 'Current');
    const dispose = syn.call(syn.name('$enumerator'), 'Dispose');
    try {
      scope.set('$collection', { type: collection.type, value: collection.value, assigned: true });
      let e: Operand;
      try {
        // bound here; called when the loop starts (or not at all, when read in bulk)
        e = await it.inDry(() => it.expr(syn.call(syn.name('$collection'), 'GetEnumerator')));
      } catch (err) {
        if (!(err instanceof CompileError)) throw err;
        throw new CompileError(
          'CS1579',
          `foreach statement cannot operate on variables of type '${await it.facts.name(collection.type)}' because it does not contain a public instance definition for 'GetEnumerator'`,
          span,
        );
      }
      scope.set('$enumerator', { type: e.type, value: e.value, assigned: true });
      elementType = (await it.inDry(() => it.expr(current))).type;
      // an interface's GetEnumerator found on non-generic IEnumerable gives object: C# uses
      // IEnumerable<T>'s, whose Current is T (the values are the same ones)
      if (generic && (await it.facts.isObject(elementType))) elementType = generic;
      await it.inDry(() => it.expr(moveNext));
      try {
        await it.inDry(() => it.expr(dispose));
      } catch (err) {
        if (!(err instanceof CompileError)) throw err;
        disposable = false;
      }
    } finally {
      it.locals = outer;
    }
    // each enumeration has its own enumerator: scopes of their own over the one bound above
    const inScope = async <T>(own: LocalScope, fn: () => Promise<T>): Promise<T> => {
      const saved = it.locals;
      it.locals = own;
      try {
        return await fn();
      } finally {
        it.locals = saved;
      }
    };
    const byRuntimeType = this.byRuntimeType.bind(this);
    return {
      elementType,
      async *iterate() {
        // a collection typed by an interface may be an array or a List<T>: read in bulk
        const fast = await byRuntimeType(collection.value, elementType);
        if (fast) {
          yield* fast.iterate();
          return;
        }
        const own = scope.child();
        const e = await inScope(own, () =>
          it.expr(syn.call(syn.name('$collection'), 'GetEnumerator')),
        );
        // a struct enumerator (boxed behind IEnumerator<T>) arrives as its value: called by
        // its own type, its MoveNext changes the local, not a copy
        const type = e.value.kind === 'struct' ? e.value.type : e.type;
        own.set('$enumerator', { type, value: e.value, assigned: true });
        let disposing = disposable;
        try {
          for (;;) {
            const more = await inScope(own, () => it.expr(moveNext));
            if (more.value.kind !== 'bool' || !more.value.value) return;
            yield (await inScope(own, () => it.expr(current))).value;
          }
        } catch (err) {
          if (!(err instanceof ManagedException || err instanceof GameExceptionError))
            disposing = false; // a bound or a refusal: nothing more runs
          throw err;
        } finally {
          if (disposing && !it.budget.stopped) await inScope(own, () => it.expr(dispose));
        }
      },
    };
  }
}

/** AST nodes the interpreter makes for itself, placed at the statement they stand for. */
export function synthetic(span: A.Span) {
  const id = (name: string): A.Identifier => ({ kind: 'Identifier', name, span });
  const name = (n: string): A.Name => ({ kind: 'Name', name: n, typeArgs: [], alias: null, span });
  const member = (target: A.Expression, n: string): A.MemberAccess => ({
    kind: 'MemberAccess',
    target,
    name: id(n),
    typeArgs: [],
    conditional: false,
    span,
  });
  const call = (target: A.Expression, n: string, args: A.Expression[] = []): A.Invocation => ({
    kind: 'Invocation',
    target: member(target, n),
    arguments: args.map((value) => ({
      kind: 'Argument',
      name: null,
      modifier: 'none',
      value,
      span,
    })),
    span,
  });
  return { id, name, member, call };
}
