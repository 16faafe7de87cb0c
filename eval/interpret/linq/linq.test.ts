// LINQ client-side (issue 17): the operators over game arrays, List<T> storage and client
// sequences, their static types, deferred execution (a query sees its source as it is when
// enumerated; lambdas run when and as often as in .NET), and .NET's exceptions.

import { beforeEach, describe, expect, it } from 'vitest';
import { exceptionOf, refusal, valueOf } from '../../testing/eval-helpers.js';
import { declareLinqTypes } from '../../testing/fake-linq.js';
import { declareFakeList, fakeList } from '../../testing/fake-list.js';
import { FakeRuntime, int } from '../../testing/fake-runtime.js';
import { str } from '../../values.js';

let fake: FakeRuntime;

beforeEach(() => {
  fake = new FakeRuntime();
  declareLinqTypes(fake);
  declareFakeList(fake);
  fake.class('Game.Enemy', { fields: { Hp: 'int', Name: 'string' } });
  fake.class('Game.World', {
    fields: {
      Ints: { type: 'int[]', static: true },
      Enemies: { type: 'System.Collections.Generic.List<Game.Enemy>', static: true },
      Words: { type: 'string[]', static: true },
    },
  });
  fake.setStatic('Game.World', 'Ints', fake.array('int', [3, 1, 4, 1, 5, 9, 2, 6].map(int)));
  const enemy = (hp: number, name: string) =>
    fake.new('Game.Enemy', { Hp: int(hp), Name: str(name) });
  fake.setStatic(
    'Game.World',
    'Enemies',
    fakeList(fake, 'Game.Enemy', [enemy(5, 'a'), enemy(20, 'b'), enemy(15, 'c'), enemy(20, 'd')]),
  );
  fake.setStatic(
    'Game.World',
    'Words',
    fake.array('string', ['pear', 'fig', 'apple', 'kiwi'].map(str)),
  );
});

const LINQ = { usings: ['System', 'System.Linq'], anyNamespace: false };
const v = (source: string) => valueOf(fake, source, LINQ);
const text = async (source: string) => (await v(source)).text;

describe('operators', () => {
  it('Where, Select (with indexes), Sum over a List<T> of objects', async () => {
    expect(await text('Game.World.Enemies.Where(e => e.Hp > 10).Select(e => e.Hp).Sum()')).toBe(
      '55',
    );
    expect(await text('Game.World.Ints.Where((x, i) => i % 2 == 0).Sum()')).toBe('14');
    expect(await text('Game.World.Ints.Select((x, i) => x * i).Max()')).toBe('45');
    expect(await text('Game.World.Enemies.Sum(e => e.Hp)')).toBe('60');
  });

  it('have the static types of Enumerable', async () => {
    expect((await v('Game.World.Ints.Where(x => x > 1)')).type).toBe(
      'System.Collections.Generic.IEnumerable<int>',
    );
    expect((await v('Game.World.Ints.OrderBy(x => x)')).type).toBe(
      'System.Linq.IOrderedEnumerable<int>',
    );
    expect((await v('Game.World.Ints.Average()')).type).toBe('double');
    expect((await v('Game.World.Ints.Select(x => (long)x).Sum()')).type).toBe('long');
    expect((await v('Game.World.Ints.ToList()')).type).toBe('System.Collections.Generic.List<int>');
    expect((await v('Game.World.Ints.Count()')).type).toBe('int');
  });

  it('order stably, by several keys, and group in order of first key', async () => {
    expect(
      await text(
        'Game.World.Enemies.OrderByDescending(e => e.Hp).ThenBy(e => e.Name).Select(e => e.Name).ToArray()',
      ),
    ).toBe('string[4] { "b", "d", "c", "a" }');
    expect(await text('Game.World.Ints.OrderBy(x => x % 3).ToArray()')).toBe(
      'int[8] { 3, 9, 6, 1, 4, 1, 5, 2 }',
    );
    expect(
      await text(
        'Game.World.Ints.GroupBy(x => x % 2).Select(g => g.Key * 100 + g.Count()).ToArray()',
      ),
    ).toBe('int[2] { 105, 3 }');
    expect(await text('Game.World.Words.OrderBy(w => w).First()')).toBe('"apple"');
  });

  it('quantifiers, element operators, Distinct, Take/Skip, Reverse, Concat, Zip, Aggregate', async () => {
    expect(await text('Game.World.Ints.Any(x => x > 8)')).toBe('True');
    expect(await text('Game.World.Ints.All(x => x > 1)')).toBe('False');
    expect(await text('Game.World.Ints.Contains(9)')).toBe('True');
    expect(await text('Game.World.Ints.First(x => x > 3)')).toBe('4');
    expect(await text('Game.World.Ints.LastOrDefault(x => x > 100)')).toBe('0');
    expect(await text('Game.World.Ints.Distinct().Count()')).toBe('7');
    expect(await text('Game.World.Ints.Skip(2).Take(3).ToArray()')).toBe('int[3] { 4, 1, 5 }');
    expect(await text('Game.World.Ints.TakeWhile(x => x < 5).Count()')).toBe('4');
    expect(await text('Game.World.Ints.SkipWhile(x => x < 5).First()')).toBe('5');
    expect(await text('Game.World.Ints.Reverse().First()')).toBe('6');
    expect(await text('Game.World.Ints.Concat(Game.World.Ints).Count()')).toBe('16');
    expect(await text('Game.World.Ints.Zip(Game.World.Words, (x, w) => w.Length + x).Sum()')).toBe(
      '25',
    );
    expect(await text('Game.World.Ints.Aggregate((a, b) => a * b)')).toBe('6480');
    expect(await text('Game.World.Ints.Aggregate(10, (a, b) => a + b, a => a * 2)')).toBe('82');
    expect(await text('Enumerable.Range(1, 4).Select(i => i * i).Sum()')).toBe('30');
    expect(await text('Enumerable.Repeat("x", 3).Count()')).toBe('3');
    expect(await text('Game.World.Ints.SelectMany(x => Enumerable.Range(0, x)).Count()')).toBe(
      '31',
    );
  });

  it('Join and GroupJoin match keys', async () => {
    expect(
      await text(
        'Game.World.Ints.Join(Game.World.Enemies, x => x * 5, e => e.Hp, (x, e) => e.Name).Count()',
      ),
    ).toBe('5');
    expect(
      await text(
        'Game.World.Ints.GroupJoin(Game.World.Words, x => x, w => w.Length, (x, ws) => ws.Count()).Sum()',
      ),
    ).toBe('4');
  });
});

describe('deferred execution and side effects', () => {
  it('a query sees its source as it is when enumerated', async () => {
    expect(
      await text(
        'var q = Game.World.Enemies.Where(e => e.Hp > 10); Game.World.Enemies.Clear(); q.Count()',
      ),
    ).toBe('0');
  });

  it('lambdas run when the query is enumerated, once per element per enumeration', async () => {
    expect(
      await text(
        'int n = 0; var q = Game.World.Ints.Select(x => { n++; return x; }); int before = n; q.Count(); q.Count(); before * 100 + n',
      ),
    ).toBe('16');
    expect(
      await text('int n = 0; Game.World.Ints.Where(x => { n++; return x > 3; }).First(); n'),
    ).toBe('3');
  });

  it("a query's own enumerator runs it one MoveNext at a time", async () => {
    expect(
      await text(
        'int n = 0; var e = Game.World.Ints.Where(x => { n++; return x > 3; }).GetEnumerator(); e.MoveNext(); n * 10 + e.Current',
      ),
    ).toBe('34');
  });

  it('a foreach runs over a query', async () => {
    expect(
      await text('int s = 0; foreach (var x in Game.World.Ints.Where(x => x > 4)) s += x; s'),
    ).toBe('20');
  });
});

describe('anonymous objects', () => {
  it('have members, C#’s ToString, value equality and serve as keys', async () => {
    const o = await v('var o = new { a = 1, b = "x" }; o');
    expect(o).toMatchObject({
      type: '<anonymous type: int a, string b>',
      text: '{ a = 1, b = x }',
    });
    expect(await text('var o = new { a = 1, b = 2.5 }; o.a + o.b')).toBe('3.5');
    expect(await text('new { a = 1 }.Equals(new { a = 1 })')).toBe('True');
    expect(await text('var x = new { a = 1 }; var y = new { a = 1 }; x == y')).toBe('False');
    expect(
      await text('Game.World.Ints.Select(x => new { odd = x % 2 == 1 }).Distinct().Count()'),
    ).toBe('2');
    expect(await text('Game.World.Enemies.Select(e => new { e.Name, e.Hp }).First()')).toBe(
      '{ Name = a, Hp = 5 }',
    );
    expect(await text('new[] { new { a = 1 }, new { a = 2 } }.Select(p => p.a).Sum()')).toBe('3');
    expect(await text('Game.World.Ints.Take(2).Select(x => new { x }).ToArray()')).toBe(
      '<anonymous type: int x>[2] { { x = 3 }, { x = 1 } }',
    );
  });
});

describe('batched field reads', () => {
  it('a field read ahead for the next elements is read again after a write', async () => {
    expect(
      await text(
        'int s = 0; foreach (var e in Game.World.Enemies) { s += e.Hp; Game.World.Enemies.Last().Hp = 100; } s',
      ),
    ).toBe('140');
    expect(await text('Game.World.Enemies.Select(e => e.Hp).Sum()')).toBe('140');
  });
});

describe('exceptions', () => {
  it('empty sequences throw as .NET does', async () => {
    const e = await exceptionOf(fake, 'Game.World.Ints.Where(x => x > 100).First()', LINQ);
    expect(e).toEqual({
      type: 'System.InvalidOperationException',
      message: 'Sequence contains no elements',
    });
    expect((await exceptionOf(fake, 'Game.World.Ints.First(x => x > 100)', LINQ)).message).toBe(
      'Sequence contains no matching element',
    );
    expect(
      (await exceptionOf(fake, 'Game.World.Ints.Where(x => x > 100).Max()', LINQ)).message,
    ).toBe('Sequence contains no elements');
    expect((await exceptionOf(fake, 'Game.World.Ints.Single(x => x == 1)', LINQ)).message).toBe(
      'Sequence contains more than one matching element',
    );
  });

  it('int Sum is checked', async () => {
    const e = await exceptionOf(fake, 'Enumerable.Repeat(int.MaxValue, 2).Sum()', LINQ);
    expect(e.type).toBe('System.OverflowException');
  });

  it('ThenBy needs an ordered sequence', async () => {
    expect((await refusal(fake, 'Game.World.Ints.ThenBy(x => x)', LINQ)).csCode).toBe('CS1061');
  });
});
