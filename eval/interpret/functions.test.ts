// Lambdas and local functions (issue 17): conversion to delegate types, invocation, C#'s
// capture semantics (a for variable shared, a foreach variable fresh per iteration), local
// functions called before their declaration and recursively, and what C# refuses.

import { beforeEach, describe, expect, it } from 'vitest';
import { refusal, valueOf } from '../testing/eval-helpers.js';
import { declareLinqTypes } from '../testing/fake-linq.js';
import { FakeRuntime, int } from '../testing/fake-runtime.js';

let fake: FakeRuntime;

beforeEach(() => {
  fake = new FakeRuntime();
  declareLinqTypes(fake);
  fake.class('Game.Box', {
    fields: { Items: { type: 'int[]', static: true } },
    methods: {
      Apply: {
        static: true,
        params: ['System.Func<int, int> f'],
        returns: 'int',
        impl: () => int(0),
      },
    },
  });
  fake.setStatic('Game.Box', 'Items', fake.array('int', [int(1), int(2), int(3)]));
});

const text = async (source: string) => (await valueOf(fake, source)).text;

describe('lambdas', () => {
  it('convert to Func, Action, Predicate and Comparison and are invoked', async () => {
    expect(await text('Func<int, int> f = x => x * 2; f(21)')).toBe('42');
    expect(await text('Func<int, int, int> f = (a, b) => a - b; f.Invoke(5, 7)')).toBe('-2');
    expect(await text('Predicate<int> p = x => x > 2; p(3)')).toBe('True');
    expect(await text('Comparison<int> c = (x, y) => x - y; c(1, 4)')).toBe('-3');
    expect(await text('int n = 0; Action a = () => n++; a(); a(); n')).toBe('2');
    expect(await text('int n = 0; Action<int> a = k => { n += k; }; a(3); a(4); n')).toBe('7');
    expect(
      await text(
        'Func<int> f = () => { int s = 0; for (int i = 1; i <= 4; i++) s += i; return s; }; f()',
      ),
    ).toBe('10');
  });

  it('have the delegate type as their static type, and convert their result', async () => {
    const r = await valueOf(fake, 'Func<int, long> f = x => x; f(3)');
    expect(r.type).toBe('long');
    expect((await valueOf(fake, 'Func<int, int> f = x => x; f')).type).toBe(
      'System.Func<int, int>',
    );
    expect(await text('Func<int, int> f; f = x => x + 1; f(1)')).toBe('2');
  });

  it('capture variables, not values: a for variable is shared, a foreach one is fresh', async () => {
    expect(await text('int k = 1; Func<int> f = () => k; k = 5; f()')).toBe('5');
    expect(
      await text(
        'Func<int> f = null; for (int i = 0; i < 3; i++) { if (i == 0) f = () => i; } f()',
      ),
    ).toBe('3');
    expect(
      await text(
        'Func<int> f = null; foreach (var x in Game.Box.Items) { if (x == 1) f = () => x; } f()',
      ),
    ).toBe('1');
    expect(
      await text(
        'Func<int> f = null; int j = 0; while (j < 3) { int k = j; if (j == 0) f = () => k; j++; } f()',
      ),
    ).toBe('0');
  });
});

describe('local functions', () => {
  it('are called before their declaration, recursively, and capture', async () => {
    expect(await text('int Twice(int x) => 2 * x; Twice(4)')).toBe('8');
    expect(
      await text('var r = Fact(5); int Fact(int n) { return n <= 1 ? 1 : n * Fact(n - 1); } r'),
    ).toBe('120');
    expect(await text('int total = 0; void Add(int x) { total += x; } Add(2); Add(3); total')).toBe(
      '5',
    );
  });

  it('take the values of their optional parameters when the call leaves them out', async () => {
    expect(await text('int Add(int a, int b = 10, int c = 100) => a + b + c; Add(1)')).toBe('111');
    expect(await text('int Add(int a, int b = 10, int c = 100) => a + b + c; Add(1, 2)')).toBe(
      '103',
    );
    expect(await text('string G(string w = "you") => "hi " + w; G() + G("me")')).toBe(
      '"hi youhi me"',
    );
    expect((await refusal(fake, 'int Add(int a, int b = 10) => a + b; Add()')).csCode).toMatch(
      /^CS/,
    );
  });
});

describe('refusals', () => {
  it('a lambda without a delegate type, with the wrong arity or parameter type', async () => {
    expect((await refusal(fake, 'var f = x => x; 1')).csCode).toBe('CS0815');
    expect((await refusal(fake, 'object o = () => 1; o')).csCode).toBe('CS1660');
    expect((await refusal(fake, 'Func<int, int> f = (a, b) => a; 1')).csCode).toBe('CS1593');
    expect((await refusal(fake, 'Func<int, int> f = (long a) => 1; 1')).csCode).toBe('CS1661');
    expect((await refusal(fake, 'Func<int, string> f = x => x; 1')).csCode).toBe('CS0029');
  });

  it('a lambda passed to a game method stays refused, naming the call', async () => {
    const e = await refusal(fake, 'Game.Box.Apply(x => x)');
    expect(e.code).toBe('EVAL_UNSUPPORTED');
    expect(e.message).toMatch(/Game\.Box\.Apply.*takes a delegate/);
  });

  it('a client delegate cannot be passed to the game nor stored in it', async () => {
    const e = await refusal(fake, 'Func<int, int> f = x => x; Game.Box.Apply(f)');
    expect(e.code).toBe('EVAL_UNSUPPORTED');
    expect(e.message).toMatch(/into the game/);
  });
});
