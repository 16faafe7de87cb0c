// Loops and lambdas compiled to closures (compiled.ts) against the interpreter running the same
// programs (`interpretOnly`): the same value and static type, the same exception (type, message
// and which part was null), the same refusal, and the same reads, writes and calls in the game,
// in the same order. And the compiled forms do run compiled: a loop of numbers costs no promise
// per iteration.

import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { evaluate, type EvaluateOptions } from '../evaluate.js';
import { declareLinqTypes } from '../testing/fake-linq.js';
import { declareFakeList, fakeList } from '../testing/fake-list.js';
import { FakeRuntime, int } from '../testing/fake-runtime.js';
import { jsonBigInt } from '../testing/fake-game.js';
import { declareCallLog, outcomeOf } from '../testing/eval-helpers.js';
import { NULL, str } from '../values.js';

function world(): FakeRuntime {
  const fake = new FakeRuntime();
  declareLinqTypes(fake);
  declareFakeList(fake);
  fake.struct('Game.Point', { fields: { X: 'int', Y: 'int' } });
  fake.class('Game.Enemy', {
    fields: { Hp: 'int', Name: 'string', At: 'Game.Point' },
    properties: { Self: { type: 'Game.Enemy', get: (c) => c.self! } },
  });
  declareCallLog(fake, 'string s');
  fake.class('Game.World', {
    fields: {
      Ints: { type: 'int[]', static: true },
      Bytes: { type: 'byte[]', static: true },
      Enemies: { type: 'System.Collections.Generic.List<Game.Enemy>', static: true },
      WithNull: { type: 'System.Collections.Generic.List<Game.Enemy>', static: true },
    },
  });
  fake.setStatic('Game.World', 'Ints', fake.array('int', [3, 1, 4, 1, 5, 9, 2, 6].map(int)));
  fake.setStatic(
    'Game.World',
    'Bytes',
    fake.array(
      'byte',
      [250, 3, 7].map((n) => ({ kind: 'number', type: 'byte', value: n })),
    ),
  );
  const enemy = (hp: number, name: string) =>
    fake.new('Game.Enemy', {
      Hp: int(hp),
      Name: str(name),
      At: fake.new('Game.Point', { X: int(hp), Y: int(-hp) }),
    });
  const enemies = [enemy(5, 'a'), enemy(20, 'b'), enemy(15, 'c'), enemy(20, 'd')];
  fake.setStatic('Game.World', 'Enemies', fakeList(fake, 'Game.Enemy', enemies));
  fake.setStatic(
    'Game.World',
    'WithNull',
    fakeList(fake, 'Game.Enemy', [enemies[0]!, NULL, enemies[1]!]),
  );
  return fake;
}

const OPTIONS: EvaluateOptions = {
  usings: ['System', 'System.Linq', 'System.Collections.Generic', 'Game'],
  anyNamespace: false,
};

/** What a run came to, and what it did in the game. */
async function outcome(source: string, interpretOnly: boolean, budget?: EvaluateOptions['budget']) {
  const fake = world();
  const result = await outcomeOf(() =>
    evaluate(source, fake, {
      ...OPTIONS,
      ...(interpretOnly ? { interpretOnly } : {}),
      ...(budget ? { budget } : {}),
    }),
  );
  return JSON.parse(JSON.stringify({ result, log: fake.game.log }, jsonBigInt)) as {
    result: Record<string, unknown>;
    log: string[];
  };
}

const PROGRAMS: readonly (readonly [string, string])[] = [
  // numeric casts: wrapping, truncating, rounding, and throwing in a checked context
  [
    'casts between numbers',
    'long t = 0; for (int i = 250; i < 260; i++) t += (byte)i + (long)i * 3000000000L + (sbyte)(i * 7); t',
  ],
  [
    'casts from floating',
    'int t = 0; foreach (var x in new[] { 3.7, -3.7, 1e10, -0.0 }) t += (int)x + (short)(float)x; t',
  ],
  [
    'a cast to float and back',
    'double d = 0; for (int i = 16777215; i < 16777220; i++) d += (float)i; d',
  ],
  [
    'a cast that overflows, checked',
    'int t = 0; for (int i = 254; i < 258; i++) t += checked((byte)i); t',
  ],
  [
    'a cast of a NaN',
    'var x = double.NaN; int t = 0; for (int i = 0; i < 2; i++) t += (int)(x * i); t',
  ],
  ['an identity cast', 'int t = 0; for (int i = 0; i < 5; i++) t += (int)i; t'],
  ['a for loop', 'int t = 0; for (int i = 0; i < 100; i++) t += i; t'],
  ['two locals, two operators', 'long t = 0; for (int i = 0; i < 20; i++) { t += i; t *= 3; } t'],
  [
    'while with continue',
    'int t = 0; int i = 0; while (i < 10) { i++; if (i % 2 == 0) continue; t += i; } t',
  ],
  ['do while', 'int t = 0; int i = 0; do { t += i; i += 2; } while (i < 9); t'],
  [
    'for with two variables and iterators',
    'int t = 0; for (int i = 0, j = 10; i < j; i++, j--) t += i * j; t',
  ],
  ['an endless for left by break', 'int t = 0; for (;;) { t++; if (t == 7) break; } t'],
  ['unchecked wrap-around', 'int t = int.MaxValue - 5; for (int i = 0; i < 10; i++) t += 1; t'],
  [
    'checked overflow inside',
    'int t = int.MaxValue - 5; for (int i = 0; i < 10; i++) t = checked(t + 1); t',
  ],
  ['division by zero in the body', 'int t = 0; for (int i = 0; i < 10; i++) t += 100 / (5 - i); t'],
  [
    'prefix and postfix steps',
    'int a = 0; int b = 0; for (int i = 0; i < 5; i++) { b += a++; b += ++a; b -= a--; } a * 1000 + b',
  ],
  ['a char stepped', "char c = 'a'; for (int i = 0; i < 3; i++) c++; c"],
  ['a byte needing the conversion back', 'byte b = 250; for (int i = 0; i < 10; i++) b += 1; b'],
  [
    'declarations in the body',
    'int t = 0; for (int i = 0; i < 5; i++) { int sq = i * i; var cube = sq * i; t = t + sq - cube; } t',
  ],
  ['mixed kinds', 'double d = 0; foreach (var x in World.Ints) d += x * 0.5 + x / 4; d'],
  ['float division', 'float f = 0; foreach (var x in World.Ints) f += x / 3f; f'],
  [
    'unary minus and not',
    'int t = 0; bool odd = false; foreach (var x in World.Ints) { t -= -x; odd = !odd; } odd ? t : -t',
  ],
  [
    'short-circuit',
    'bool any = false; int n = 0; foreach (var x in World.Ints) { any = any || x > 8; if (x > 2 && ++n > 2) break; } any ? n : -n',
  ],
  ['foreach over a List<T> field', 'int t = 0; foreach (var e in World.Enemies) t += e.Hp; t'],
  [
    'a struct field of an element',
    'int t = 0; foreach (var e in World.Enemies) t += e.At.Y * 2; t',
  ],
  ['a null element', 'int t = 0; foreach (var e in World.WithNull) t += e.Hp; t'],
  [
    'string concatenation in a loop',
    'string s = ""; foreach (var e in World.Enemies) s += e.Name; s',
  ],
  [
    'break out of foreach',
    'int t = 0; foreach (var x in World.Ints) { if (x > 4) break; t += x; } t',
  ],
  [
    'nested foreach',
    'int n = 0; foreach (var a in World.Ints) foreach (var b in World.Ints) if (a < b) n++; n',
  ],
  ['foreach with an explicit conversion', 'int t = 0; foreach (byte b in World.Ints) t += b; t'],
  ['over bytes', 'int t = 0; foreach (var b in World.Bytes) t += b; t'],
  [
    'a capture per iteration',
    'int t = 0; var fs = new List<Func<int>>(); foreach (var x in World.Ints) { Func<int> f = () => x * 2; t += f(); } t',
  ],
  [
    'writes to the game in the loop',
    'int t = 0; foreach (var e in World.Enemies) { e.Hp = e.Hp + 1; t += e.Hp; } t',
  ],
  [
    'a list changed while enumerated',
    'int t = 0; foreach (var e in World.Enemies) { t += e.Hp; World.Enemies.Add(e); } t',
  ],
  ['game calls in a loop', 'for (int i = 0; i < 3; i++) Log.Write(i.ToString()); Log.Count'],
  ['return from a loop', 'foreach (var x in World.Ints) if (x > 4) return x * 10; return -1;'],
  ['Where, Select, Sum', 'World.Enemies.Where(e => e.Hp > 10).Select(e => e.Hp).Sum()'],
  ['indexed Where', 'World.Ints.Where((x, i) => i % 2 == 0).Sum()'],
  ['Count with a predicate', 'World.Enemies.Count(e => e.Hp > 10)'],
  ['a selector that throws', 'World.Ints.Select(x => 10 / (x - 1)).Sum()'],
  ['a selector with a cast', 'World.Ints.Select(x => (long)x * x).Sum()'],
  ['a selector needing a conversion', 'World.Bytes.Select(b => b).Sum(b => b)'],
  [
    'a block lambda',
    'int calls = 0; var q = World.Ints.Where(x => { calls++; return x > 2; }); int a = q.Count(); calls * 100 + a',
  ],
  [
    'a capture seen when enumerated',
    'int k = 0; var q = World.Ints.Select(x => x + k); k = 10; q.Sum()',
  ],
  [
    'side effects in lambdas, in order',
    'var seen = ""; var q = World.Ints.Where(x => { seen += "w" + x; return x > 2; }).Select(x => { seen += "s" + x; return x; }); q.Sum(); seen',
  ],
  ['a null element in a lambda', 'World.WithNull.Sum(e => e.Hp)'],
  ['First of a filtered list', 'World.Enemies.Where(e => e.Hp > 10).First().Name'],
  ['ToList of a projection', 'World.Enemies.Select(e => e.Hp * 2).ToList().Count'],
  // what a review of the compiled path found refused or run twice (each bound as the binder does)
  [
    'an out variable under &&',
    'int t = 0; for (int i = 0; i < 3; i++) { if (int.TryParse("5", out var n) && n > i) t += n; } t',
  ],
  [
    'an out variable in a converted initializer',
    'int t = 0; for (int i = 0; i < 3; i++) { object o = int.TryParse("5", out var n); t += n; } t',
  ],
  [
    'assigned in every case of a switch',
    'int t = 0; for (int i = 0; i < 4; i++) { int v; switch (i % 2) { case 0: v = 1; break; default: v = 10; break; } t += v; } t',
  ],
  [
    'a do body assigning what its condition reads',
    'int t = 0; int k; do { k = t; t++; } while (k < 5); t',
  ],
  ['a do of one statement', 'int k; int n = 0; do k = n++; while (k < 3); n'],
  [
    'a parenthesized lambda initializer',
    'int t = 0; for (int i = 0; i < 3; i++) { Func<int, int> f = (x => x * 2); t += f(i); } t',
  ],
  [
    'a typed local assigned in its own initializer',
    'int t = 0; for (int i = 0; i < 3; i++) { int x = (x = 5) + i; t += x; } t',
  ],
  ['a field behind a property', 'int t = 0; foreach (var e in World.Enemies) t += e.Self.Hp; t'],
  [
    "a while's out variable, fresh per pass",
    'int t = 0; int i = 0; while (int.TryParse((i + 1).ToString(), out var n) && i < 3) { t += n; i++; } t',
  ],
  [
    "a do's out variable, fresh per test",
    'int t = 0; int i = 0; do { t += i; i++; } while (int.TryParse("5", out var n) && i < n); t',
  ],
  [
    "a for's out variable, fresh per pass",
    'int t = 0; for (int i = 0; int.TryParse((i + 1).ToString(), out var n) && i < 3; i++) t += n; t',
  ],
];

describe('compiled loops and lambdas do what the interpreter does', () => {
  it.each(PROGRAMS)('%s', async (_what, source) => {
    const compiled = await outcome(source, false);
    const interpreted = await outcome(source, true);
    expect(compiled).toEqual(interpreted);
  });

  it('give the out variables of a loop condition one variable per pass, as C# does', async () => {
    const ints = PROGRAMS.filter(([what]) => /^a (while|do)'s out variable/.test(what));
    expect(ints.length).toBe(2);
    const values = await Promise.all(
      ints.map(async ([, source]) => (await outcome(source, false)).result),
    );
    expect(values).toEqual([
      { kind: 'value', type: 'int', text: '6' },
      { kind: 'value', type: 'int', text: '10' },
    ]);
  });

  // it refused its second pass (CS0128: the declaration ran again in the loop's scope)
  it('run a for whose condition declares an out variable, pass after pass', async () => {
    const found = PROGRAMS.find(([what]) => what.startsWith("a for's out variable"));
    if (!found) throw new Error('the program is missing');
    expect((await outcome(found[1], false)).result).toEqual({
      kind: 'value',
      type: 'int',
      text: '6',
    });
  });

  it('stop at the same bound with the same message', async () => {
    const source = 'int t = 0; for (int i = 0; ; i++) t += i; t';
    const budget = { iterations: 500 };
    const compiled = await outcome(source, false, budget);
    expect(compiled.result).toMatchObject({ refused: 'EVAL_BUDGET' });
    expect(compiled).toEqual(await outcome(source, true, budget));
    const lambda = 'World.Ints.Select(x => x + 1).Sum()';
    const tight = { iterations: 3 };
    expect((await outcome(lambda, false, tight)).result).toMatchObject({ refused: 'EVAL_BUDGET' });
    expect(await outcome(lambda, false, tight)).toEqual(await outcome(lambda, true, tight));
  });
});

/** Promises made while `fn` runs (every async step of the evaluator makes some). */
async function promisesDuring(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') n++;
    },
  });
  hook.enable();
  try {
    await fn();
  } finally {
    hook.disable();
  }
  return n;
}

describe('the compiled forms run without the interpreter', () => {
  it('a loop of 5,000 iterations makes no promise per iteration', async () => {
    const source =
      'int t = 0; for (int i = 0; i < 5000; i++) { if (i % 3 == 0) continue; t += i; } t';
    const fake = world();
    await evaluate(source, fake, OPTIONS); // warm: types looked up once
    const compiled = await promisesDuring(() => evaluate(source, fake, OPTIONS));
    const interpreted = await promisesDuring(() =>
      evaluate(source, fake, { ...OPTIONS, interpretOnly: true }),
    );
    expect(compiled).toBeLessThan(1500);
    expect(interpreted).toBeGreaterThan(5000);
  });

  it('a numeric cast in a loop makes no promise per iteration', async () => {
    const source = 'long t = 0; for (int i = 0; i < 5000; i++) t += (long)i * (byte)i; t';
    const fake = world();
    await evaluate(source, fake, OPTIONS);
    expect(await promisesDuring(() => evaluate(source, fake, OPTIONS))).toBeLessThan(1500);
  });

  it('a lambda called per element makes no promise per call', async () => {
    const fake = world();
    const big = fake.array(
      'int',
      Array.from({ length: 2000 }, (_, i) => int(i)),
    );
    fake.setStatic('Game.World', 'Ints', big);
    const source = 'World.Ints.Where(x => x % 2 == 0).Select(x => x * 3).Sum()';
    // the fake game reads an array one element at a time: that promise per element stays
    const compiled = await promisesDuring(() => evaluate(source, fake, OPTIONS));
    const interpreted = await promisesDuring(() =>
      evaluate(source, fake, { ...OPTIONS, interpretOnly: true }),
    );
    expect(compiled * 4).toBeLessThan(interpreted);
  });
});
