// Where/Select chains and foreach bodies computed a chunk at a time (row-pull.ts, row-lambdas.ts,
// compiled.ts rowLoop) against the same
// programs run by the interpreter alone (`interpretOnly`): the same value and static type, the
// same exception, the same refusal at the same place, the same reads, writes and calls in the
// game, in the same order. And the row pull is what ran (its counts), or what gave way to the
// iterators when it had to. The fake game reads arrays element by element: chunks of one.
// Over the real game (chunks of 10,000, fields batched) the differential corpus's "row lambdas"
// family and eval-linq.test.ts cover the same.

import { describe, expect, it } from 'vitest';

import { evaluate, type EvaluateOptions } from '../../evaluate.js';
import { declareLinqTypes } from '../../testing/fake-linq.js';
import { declareFakeList, fakeList } from '../../testing/fake-list.js';
import { jsonBigInt } from '../../testing/fake-game.js';
import { declareCallLog, outcomeOf } from '../../testing/eval-helpers.js';
import { FakeRuntime, int } from '../../testing/fake-runtime.js';
import { columnOf, num, type EvalValue } from '../../values.js';
import type { RowStats } from './row-pull.js';

function world(): FakeRuntime {
  const fake = new FakeRuntime();
  declareLinqTypes(fake);
  declareFakeList(fake);
  declareCallLog(fake, 'int x');
  fake.class('Game.Thing', { fields: { Hp: 'int' } });
  fake.class('Game.World', {
    fields: {
      Things: { type: 'Game.Thing[]', static: true },
      Ints: { type: 'int[]', static: true },
      Floats: { type: 'float[]', static: true },
      Doubles: { type: 'double[]', static: true },
      Shorts: { type: 'short[]', static: true },
      Flags: { type: 'bool[]', static: true },
      List: { type: 'System.Collections.Generic.List<int>', static: true },
    },
  });
  const of = (type: 'float' | 'double' | 'short', xs: number[]): EvalValue[] =>
    xs.map((value) => num(type, value));
  const ints = [-2147483648, -1, 0, 7, 46341, 2147483647];
  fake.setStatic('Game.World', 'Ints', fake.array('int', ints.map(int)));
  fake.setStatic(
    'Game.World',
    'Floats',
    fake.array('float', of('float', [Math.fround(0.1), -0, NaN, Math.fround(3.4e38), 16777216])),
  );
  fake.setStatic(
    'Game.World',
    'Doubles',
    fake.array('double', of('double', [0.1, -0, NaN, 1e300])),
  );
  fake.setStatic('Game.World', 'Shorts', fake.array('short', of('short', [-32768, -1, 32767])));
  fake.setStatic(
    'Game.World',
    'Flags',
    fake.array(
      'bool',
      [true, false, true].map((value) => ({ kind: 'bool', value })),
    ),
  );
  fake.setStatic('Game.World', 'List', fakeList(fake, 'System.Int32', [5, 50, 500].map(int)));
  fake.setStatic(
    'Game.World',
    'Things',
    fake.array(
      'Game.Thing',
      [1, 2, 3].map((hp) => fake.new('Game.Thing', { Hp: int(hp) })),
    ),
  );
  return fake;
}

const OPTIONS: EvaluateOptions = {
  usings: ['System', 'System.Linq', 'System.Collections.Generic', 'Game'],
  anyNamespace: false,
};

/** The fake game reading arrays in bulk, as the real one does (a command logged per read). */
function withBulkReads(fake: FakeRuntime): FakeRuntime {
  const game = fake.game as unknown as Record<string, unknown>;
  game.readElements = (array: EvalValue, index: number, count: number) => {
    fake.game.log.push(`readElements [${index}, +${count}]`);
    return Promise.resolve(columnOf(fake.elements(array).slice(index, index + count)));
  };
  return fake;
}

async function outcome(
  source: string,
  interpretOnly: boolean,
  budget?: EvaluateOptions['budget'],
  bulk = false,
): Promise<{ result: unknown; log: string[]; rows: RowStats }> {
  const fake = bulk ? withBulkReads(world()) : world();
  const rows: RowStats = { chunks: 0, fallbacks: 0 };
  const result = await outcomeOf(() =>
    evaluate(source, fake, {
      ...OPTIONS,
      rowStats: rows,
      ...(interpretOnly ? { interpretOnly } : {}),
      ...(budget ? { budget } : {}),
    }),
  );
  const log = JSON.parse(JSON.stringify(fake.game.log, jsonBigInt)) as string[];
  return { result, log, rows };
}

/**
 * Runs by rows and by the interpreter, over arrays read element by element (chunks of one) and
 * in bulk (one chunk, elements dropped and handed on inside it): the same outcome and game log
 * each way; the rows' counts of the first.
 */
async function same(source: string, budget?: EvaluateOptions['budget']): Promise<RowStats> {
  let first: RowStats | undefined;
  for (const bulk of [false, true]) {
    const rows = await outcome(source, false, budget, bulk);
    const interpreted = await outcome(source, true, budget, bulk);
    expect(rows.result).toEqual(interpreted.result);
    expect(rows.log).toEqual(interpreted.log);
    expect(interpreted.rows).toEqual({ chunks: 0, fallbacks: 0 });
    first ??= rows.rows;
  }
  return first!;
}

describe('row lambdas compute what C# computes', () => {
  it.each([
    'World.Ints.Select(x => x + 1).ToArray()',
    'World.Ints.Select(x => x * x).ToArray()',
    'World.Ints.Select(x => -x).ToArray()',
    'World.Ints.Select(x => x - 1).Where(x => x < 0).Count()',
    'World.Ints.Select(x => x * 0.5).ToArray()',
    'World.Ints.Select(x => x * 1f).ToArray()',
    'World.Ints.Where(x => x > 0 == x < 46342).ToArray()',
    'World.Ints.Where(x => !(x > 0) && x != -1 || x == 7).Select(x => x * 3 - 1).Sum()',
    'World.Floats.Select(f => f * 3f).ToArray()',
    'World.Floats.Select(f => f + 0.1f).ToArray()',
    'World.Floats.Where(f => f != f).Count()',
    'World.Floats.Select(f => f * 0.1).ToArray()',
    'World.Floats.Select(f => f - 16777215).ToArray()',
    'World.Floats.Select(f => -f).Sum()',
    'World.Doubles.Select(d => d * 2 - 0.5).ToArray()',
    'World.Doubles.Where(d => d >= 0.1 || d < 0).ToArray()',
    'World.Shorts.Select(s => s * s).ToArray()',
    'World.Shorts.Select(s => -s).ToArray()',
    'World.Shorts.Where(s => s < 0).Select(s => s + 1f).ToArray()',
    'World.Shorts.Select(s => s).ToArray()',
    'World.Flags.Where(f => f).Count()',
    'World.Flags.Select(f => !f).ToArray()',
    'World.Flags.Where(f => f == false || f != true).Count()',
    'World.List.Where(x => x > 10).Select(x => x * 1.0 > 100).ToList()',
    'World.List.Where(x => x > 10).Sum()',
    // a first Where that does not read its element, a later stage that does
    'World.Ints.Where(x => true).Where(x => x > 0).Count()',
    'World.Ints.Where(x => 1 < 2).Select(x => x + 1).ToArray()',
  ])('%s', async (source) => {
    const rows = await same(source);
    expect(rows.fallbacks).toBe(0);
    expect(rows.chunks).toBeGreaterThan(0);
  });
});

describe('the row pull gives way to the iterators when it must', () => {
  it.each([
    // a lambda that is not a row lambda: a call, a division (may throw), a conversion
    ['World.Ints.Select(x => x.ToString()).ToArray()'],
    ['World.Ints.Where(x => x / 7 > 0).Count()'],
    ['World.Ints.Select(x => (long)x * 2).Sum()'],
    // checked: the int operations would throw, not wrap
    ['checked(World.Ints.Select(x => x + 1).ToArray())'],
    // the lambda's scope is not only its parameter's
    ['int k = 3; World.Ints.Where(x => x > k).Count()'],
  ])('%s', async (source) => {
    const rows = await same(source);
    expect(rows.chunks).toBe(0);
    expect(rows.fallbacks).toBe(1);
  });

  it('when the code taking the elements changes the game, the rest sees it', async () => {
    const rows = await same(
      'var xs = World.Ints; var seen = 0; foreach (var x in xs.Select(v => v * 2)) { xs[4] = 3; seen += x; } seen',
    );
    // the first element went by rows, the write made the rest go by iterators
    expect(rows).toEqual({ chunks: 1, fallbacks: 1 });
  });

  it('a game call in the loop over a query makes the rest go by iterators too', async () => {
    const rows = await same(
      'int n = 0; foreach (var x in World.List.Where(v => v > 1)) { Log.Write(x); n += x; } n * 10 + Log.Count',
    );
    expect(rows.fallbacks).toBe(1);
  });

  it('a list changed in the loop over a query fails as C#', async () => {
    const source = 'foreach (var x in World.List.Where(v => v > 1)) World.List.Add(x); 0';
    await same(source);
    expect((await outcome(source, false)).result).toMatchObject({
      kind: 'exception',
      type: 'System.InvalidOperationException',
    });
  });

  it('the iterations bound stops the program at the same call', async () => {
    for (const iterations of [1, 2, 5, 7, 8]) {
      const rows = await same('World.Ints.Where(x => x > 0).Select(x => x + 1).Sum()', {
        iterations,
      });
      expect(rows.fallbacks).toBe(1);
    }
  });

  it('enough iterations for the whole chain: no fallback', async () => {
    // 6 Where calls, 3 Select calls
    const rows = await same('World.Ints.Where(x => x > 0).Select(x => x + 1).Sum()', {
      iterations: 9,
    });
    expect(rows.fallbacks).toBe(0);
  });
});

describe('foreach bodies over outer locals compute what C# computes', () => {
  it.each([
    'int t = 0; foreach (var x in World.Ints) t += x; t',
    'int t = 5; foreach (var x in World.Ints) t = t * 3 + x; t',
    'double d = 0; foreach (var f in World.Floats) d += f * 2; d',
    'float f = 0; foreach (var s in World.Shorts) f += s; f',
    'float f = 1; foreach (var s in World.Floats) f *= s; f',
    'int n = 0; foreach (var b in World.Flags) if (b) n++; else n -= 2; n',
    'int c = 0; int last; foreach (var x in World.Ints) { if (x > 0) last = x; c++; } c',
    'int m = int.MinValue; foreach (var x in World.List) if (x > m) m = x; m',
    'bool any = false; foreach (var x in World.Ints) any = any || x == 7; any',
    'int a = 0; int b = 0; foreach (var x in World.Ints) { ++a; b--; ; } a * 100 + b',
    'double s = 0; int n = 0; foreach (var d in World.Doubles) { if (d == d) { s += d; n++; } } s / n',
    'int t = 0; foreach (var x in World.List) { } t',
    'int m = 0; int best; foreach (var x in World.Ints) { best = x * 2; if (best > m) m = best; } m',
    'int t = 0; int last; foreach (var x in World.Ints) { last = x; t += last; } t',
  ])('%s', async (source) => {
    const rows = await same(source);
    expect(rows.fallbacks).toBe(0);
    expect(rows.chunks).toBeGreaterThan(0);
  });

  it.each([
    // not a row body: a division, a call, a local declared in the body, a break
    'int t = 0; foreach (var x in World.Ints) t += x / 2; t',
    'int t = 0; foreach (var x in World.Ints) t += x.CompareTo(0); t',
    'int t = 0; foreach (var x in World.Ints) { var y = x; t += y; } t',
    'int t = 0; foreach (var x in World.Ints) { if (x > 5) break; t += x; } t',
    'long t = 0; foreach (var x in World.Ints) t += x; t',
  ])('runs element by element: %s', async (source) => {
    expect(await same(source)).toEqual({ chunks: 0, fallbacks: 0 });
  });

  it('a checked context when the loop runs: element by element, as the interpreter runs it', async () => {
    // the interpreter's checked context is the caller's: a lambda called inside checked() runs
    // checked (C# scopes it by the text: f's body is unchecked there; noted, not changed here)
    const source =
      'Func<int> f = () => { int t = 0; foreach (var x in World.Ints) t += x; return t; }; checked(f())';
    const rows = await same(source);
    expect(rows).toEqual({ chunks: 0, fallbacks: 1 });
  });

  it('the iterations bound stops the loop at the same pass', async () => {
    for (const iterations of [1, 3, 5]) {
      const rows = await same('int t = 0; foreach (var x in World.Ints) t += x; t', {
        iterations,
      });
      expect(rows.fallbacks).toBe(1);
    }
  });
});

describe('an array read in bulk and changed by the loop', () => {
  async function bulk(source: string): Promise<{ text: string; reads: string[] }> {
    const fake = withBulkReads(world());
    const r = await evaluate(source, fake, OPTIONS);
    if (r.kind !== 'value') throw new Error(JSON.stringify(r));
    return { text: r.text, reads: fake.game.log.filter((l) => l.startsWith('readElement')) };
  }

  it('a write at every element: the next element read on its own each time', async () => {
    const r = await bulk(
      'var xs = World.Ints; int s = 0; foreach (var x in xs) { xs[5] = 100; s += x; } s',
    );
    // -2147483648 - 1 + 0 + 7 + 46341 + 100 (the last element as written)
    expect(r.text).toBe(String(-2147483648 - 1 + 7 + 46341 + 100));
    expect(r.reads).toEqual([
      'readElements [0, +6]',
      'readElement [1]',
      'readElement [2]',
      'readElement [3]',
      'readElement [4]',
      'readElement [5]',
    ]);
  });

  it('one write: the next element on its own, then the rest of the chunk at once', async () => {
    const r = await bulk(
      'var xs = World.Ints; int s = 0; int i = 0; foreach (var x in xs) { if (i++ == 0) xs[5] = 100; s += x; } s',
    );
    expect(r.text).toBe(String(-2147483648 - 1 + 7 + 46341 + 100));
    expect(r.reads).toEqual(['readElements [0, +6]', 'readElement [1]', 'readElements [2, +4]']);
  });

  it('a field write changes no element: the array is not read again', async () => {
    const r = await bulk('int s = 0; foreach (var t in World.Things) { t.Hp += 10; s += t.Hp; } s');
    expect(r.text).toBe('36');
    expect(r.reads).toEqual(['readElements [0, +3]']);
  });
});
