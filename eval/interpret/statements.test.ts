// Statements (issue 17): blocks, if, loops, foreach over arrays / List<T> storage / a game
// enumerator, switch, try/catch/finally, throw, return, definite assignment, and the budget.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, exceptionOf, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, gameException, int } from '../testing/fake-runtime.js';
import { bool, num, str, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let options: EvaluateOptions;
let list: EvalValue;
let bag: EvalValue;

function declareExceptions(f: FakeRuntime): void {
  const message = {
    Message: {
      type: 'string',
      virtual: true,
      get: (c: { self?: EvalValue; fake: FakeRuntime }) => c.fake.get(c.self!, '_message'),
    },
  };
  f.class('System.Exception', {
    fields: { _message: 'string' },
    properties: message,
    ctors: [
      { params: [] },
      { params: ['string m'], impl: (c) => void c.fake.set(c.self!, '_message', c.args[0]!) },
    ],
  });
  for (const [name, base] of [
    ['System.SystemException', 'System.Exception'],
    ['System.InvalidOperationException', 'System.SystemException'],
    ['System.ArithmeticException', 'System.SystemException'],
    ['System.DivideByZeroException', 'System.ArithmeticException'],
  ] as const)
    f.class(name, {
      base,
      ctors: [
        { params: [] },
        {
          params: ['string m'],
          impl: (c) => void c.fake.set(c.self!, '_message', c.args[0]!, 'System.Exception'),
        },
      ],
    });
}

beforeEach(() => {
  fake = new FakeRuntime();
  declareExceptions(fake);
  fake.class('Game.Item', { fields: { value: 'int' } });
  // List<T> as Mono lays it out: read from its storage, never through its enumerator
  fake.class('System.Collections.Generic.List`1', {
    typeParams: ['T'],
    fields: { _items: 'T[]', _size: 'int', _version: 'int' },
    methods: {
      GetEnumerator: {
        returns: 'int',
        impl: () => {
          throw new Error('List<T> must be read from its storage');
        },
      },
      Add: {
        params: ['T x'],
        impl: (c) => {
          const v = c.fake.get(c.self!, '_version') as { value: number };
          c.fake.set(c.self!, '_version', int(v.value + 1));
        },
      },
    },
  });
  fake.class('Game.Counter', {
    fields: { i: 'int' },
    methods: {
      MoveNext: {
        returns: 'bool',
        impl: (c) => {
          const i = (c.fake.get(c.self!, 'i') as { value: number }).value + 1;
          c.fake.set(c.self!, 'i', int(i));
          return bool(i <= 3);
        },
      },
      Dispose: { impl: (c) => void c.fake.set(c.self!, 'i', int(-100)) },
    },
    properties: {
      Current: {
        type: 'int',
        get: (c) => int((c.fake.get(c.self!, 'i') as { value: number }).value * 10),
      },
    },
  });
  fake.class('Game.Bag', {
    fields: { last: 'Game.Counter' },
    methods: {
      GetEnumerator: {
        returns: 'Game.Counter',
        impl: (c) => {
          const e = c.fake.new('Game.Counter');
          c.fake.set(c.self!, 'last', e);
          return e;
        },
      },
    },
  });
  fake.class('Game.Log', {
    fields: { Count: { type: 'int', static: true } },
    methods: {
      Fail: {
        static: true,
        returns: 'int',
        impl: () => {
          throw gameException('System.InvalidOperationException', 'the log is closed');
        },
      },
      Touch: { static: true, returns: 'int', impl: () => int(1) },
      Find: { static: true, params: ['object match'], returns: 'int', impl: () => int(1) },
      Each: { static: true, params: ['object action'] },
    },
  });
  const items = [1, 2, 3, 4].map((v) => fake.new('Game.Item', { value: int(v) }));
  const storage = fake.array('Game.Item', [...items, fake.new('Game.Item')]);
  list = fake.new('System.Collections.Generic.List<Game.Item>', {
    _items: storage,
    _size: int(4),
    _version: int(0),
  });
  bag = fake.new('Game.Bag');
  options = { usings: ['System'], anyNamespace: false, builtins: builtins(fake, { list, bag }) };
});

describe('control flow', () => {
  it.each([
    [
      'var s = 0; for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; s += i; } s',
      'int',
      '25',
    ],
    ['int i = 0; while (true) { i++; if (i > 5) break; } i', 'int', '6'],
    ['int i = 0; do { i += 2; } while (i < 7); return i;', 'int', '8'],
    ['if (1 > 2) return "a"; else return "b";', 'string', '"b"'],
    ['if (1 > 2) return 1L; return 2;', 'long', '2'],
    ['if (1 > 2) return 1; return 2L;', 'long', '2'],
    ['if (1 > 2) return null; return "a";', 'string', '"a"'],
    ['if (1 > 2) return 1.5; 2', 'double', '2'],
    [
      'var s = 0; for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) { if (j == 1) break; s++; } s',
      'int',
      '3',
    ],
    ['int x; if (true) x = 1; x', 'int', '1'],
    ['int x; if (1 < 2) x = 1; else x = 2; x', 'int', '1'],
    ['{ var a = 1; } { var a = 2; } 3', 'int', '3'],
    ['var s = ""; foreach (var c in "abc") s += c; s', 'string', '"abc"'],
    ['var s = 0; var a = new[] { 1, 2, 3 }; foreach (var x in a) s += x; s', 'int', '6'],
    ['var s = 0L; foreach (long x in new[] { 1, 2, 3 }) s += x; s', 'long', '6'],
    ['var t = 0; foreach (var it in list) t += it.value; t', 'int', '10'],
    [
      'var t = 0; foreach (Game.Item it in list) { if (it.value == 3) break; t += it.value; } t',
      'int',
      '3',
    ],
    ['var t = 0; foreach (var x in bag) t += x; t', 'int', '60'],
  ])('%s', async (src, type, text) => {
    expect(await valueOf(fake, src, options)).toMatchObject({ type, text });
  });

  it('disposes a game enumerator when the loop ends, also by break', async () => {
    await valueOf(fake, 'foreach (var x in bag) { if (x == 20) break; } 0', options);
    expect(fake.get(fake.get(bag, 'last'), 'i')).toEqual(int(-100));
  });

  it('reads a List<T> from its storage and fails as its enumerator does when the loop changes it', async () => {
    expect(await exceptionOf(fake, 'foreach (var it in list) list.Add(it); 0', options)).toEqual({
      type: 'System.InvalidOperationException',
      message: 'Collection was modified; enumeration operation may not execute.',
    });
  });

  it.each([
    ['int x; while (1 < 2) { x = 1; break; } x', 'CS0165'],
    ['int x; if (1 < 2) x = 1; x', 'CS0165'],
    ['foreach (var x in new[] { 1 }) x = 2;', 'CS1656'],
    ['break;', 'CS0139'],
    ['while (1 < 2) { continue; } switch (1) { case 1: continue; }', 'CS0139'],
    ['int x = 0; switch (x) { case 0: x = 1; case 1: break; }', 'CS0163'],
    ['var a = 1; { var a = 2; }', 'CS0136'],
    ['if (true) int y = 1;', 'CS1023'],
    ['foreach (var x in 5) { }', 'CS1579'],
    ['try { } finally { return 1; }', 'CS0157'],
    ['throw;', 'CS0156'],
    ['switch (1) { case 1: Game.Log.Touch(); }', 'CS8070'],
    ['try { } catch (Exception) { } catch (InvalidOperationException) { }', 'CS0160'],
    ['throw 5;', 'CS0155'],
    ['if (1 < 2) return 1; while (1 < 2) { }', 'CS0161'],
  ])('refuses %s (%s) before running anything', async (src, code) => {
    const e = await refusal(fake, `Game.Log.Count = 9; ${src}`, options);
    expect(e.csCode).toBe(code);
    expect(fake.static('Game.Log', 'Count')).toEqual(int(0));
  });
});

describe('switch', () => {
  it.each([
    [
      'int x = 3; string r; switch (x) { case 1: r = "one"; break; case 3: r = "three"; break; default: r = "?"; break; } r',
      '"three"',
    ],
    [
      'int x = 7; string r; switch (x) { default: r = "?"; break; case 1: r = "one"; break; } r',
      '"?"',
    ],
    [
      'object o = "hi"; switch (o) { case int n: return n; case string t when t.Length > 1: return t.Length + 100; default: return 0; }',
      '102',
    ],
    [
      'object o = 4; switch (o) { case string t: return 1; case int n when n > 9: return 2; case int _: return 3; } return 4;',
      '3',
    ],
    [
      'var s = 0; for (var i = 0; i < 4; i++) switch (i) { case 1: continue; case 2: s += 10; break; default: s += 1; break; } s',
      '12',
    ],
  ])('%s', async (src, text) => {
    expect((await valueOf(fake, src, options)).text).toBe(text);
  });
});

describe('exceptions', () => {
  it.each([
    [
      'int r = 0; try { int z = 0; r = 1 / z; } catch (DivideByZeroException) { r = -1; } finally { r += 10; } r',
      '9',
    ],
    [
      'try { throw new InvalidOperationException("boom"); } catch (Exception e) { return e.Message; }',
      '"boom"',
    ],
    [
      'try { Game.Log.Fail(); return "no"; } catch (InvalidOperationException e) when (e.Message.Length > 3) { return e.Message; }',
      '"the log is closed"',
    ],
    [
      'var n = 0; try { try { Game.Log.Fail(); } finally { n = 1; } } catch (SystemException) { n += 10; } n',
      '11',
    ],
    [
      'var n = 0; try { int z = 0; n = 5 / z; } catch (InvalidOperationException) { n = 1; } catch (ArithmeticException) { n = 2; } n',
      '2',
    ],
  ])('%s', async (src, text) => {
    expect((await valueOf(fake, src, options)).text).toBe(text);
  });

  it('lets an uncaught exception end the program with its type and message, after finally', async () => {
    expect(
      await exceptionOf(
        fake,
        'try { throw new InvalidOperationException("x"); } finally { Game.Log.Count = 1; }',
        options,
      ),
    ).toEqual({ type: 'System.InvalidOperationException', message: 'x' });
    expect(fake.static('Game.Log', 'Count')).toEqual(int(1));
  });

  it('rethrows with throw;', async () => {
    expect(
      await exceptionOf(fake, 'try { Game.Log.Fail(); } catch (Exception) { throw; }', options),
    ).toMatchObject({ type: 'System.InvalidOperationException' });
  });
});

describe('budget', () => {
  it.each([
    ['while (true) { }', { iterations: 50 }, 'iterations'],
    ['while (true) { Game.Log.Touch(); }', { invokes: 5 }, 'invokes'],
  ] as const)('stops %s at a statement boundary naming the bound', async (src, budget, bound) => {
    const e = await refusal(fake, `Game.Log.Count = 7; ${src}`, { ...options, budget });
    expect(e.code).toBe('EVAL_BUDGET');
    expect(e.budget).toEqual({ bound, limit: Object.values(budget)[0] });
    expect(e.message).toContain(bound);
    // what ran before the bound stays done (and is reported by the bridge as any write)
    expect(fake.static('Game.Log', 'Count')).toEqual(int(7));
  });

  it('stops on the freeze bound by the clock', async () => {
    let t = 0;
    const e = await refusal(fake, 'var i = 0; while (true) { i++; }', {
      ...options,
      budget: { freezeMs: 100, now: () => (t += 1) },
    });
    expect(e.budget).toEqual({ bound: 'freeze', limit: 100 });
  });

  it('lets no catch or finally run past a bound', async () => {
    const e = await refusal(
      fake,
      'try { while (true) { } } catch (Exception) { } finally { Game.Log.Count = 3; }',
      { ...options, budget: { iterations: 10 } },
    );
    expect(e.code).toBe('EVAL_BUDGET');
    expect(fake.static('Game.Log', 'Count')).toEqual(int(0));
  });

  it('clamps a bound to its hard limit and refuses one below 1', async () => {
    expect((await valueOf(fake, '1', { ...options, budget: { invokes: 1e12 } })).text).toBe('1');
    expect((await refusal(fake, '1', { ...options, budget: { invokes: 0 } })).code).toBe(
      'EVAL_UNSUPPORTED',
    );
  });

  it('refuses to release the game between statements where the runtime cannot', async () => {
    expect(
      (await refusal(fake, '1', { ...options, budget: { releaseBetweenStatements: true } })).code,
    ).toBe('EVAL_UNSUPPORTED');
  });

  it('releases the game between statements when asked and the runtime can', async () => {
    let released = 0;
    (fake.game as { release?: () => Promise<void> }).release = () => (
      released++,
      Promise.resolve()
    );
    await valueOf(fake, 'var a = 1; a++; a', {
      ...options,
      budget: { releaseBetweenStatements: true },
    });
    expect(released).toBe(3);
    void num;
    void str;
  });
});

describe('lambdas passed to the game', () => {
  it.each([
    ['Game.Log.Find(x => x != null)', 15, 'FirstOrDefault'],
    ['Game.Log.Each((int x) => { })', 15, 'a foreach loop over the collection'],
    ['Game.Log.Find(delegate (object o) { return true; })', 15, 'FirstOrDefault'],
  ])(
    "refuses %s with the call, the lambda's column and what to write instead",
    async (src, column, instead) => {
      const e = await refusal(fake, `Game.Log.Count = 1; ${src}`, options);
      expect(e.code).toBe('EVAL_UNSUPPORTED');
      expect(e.span?.column).toBe(column + 'Game.Log.Count = 1; '.length);
      expect(e.message).toContain('Game.Log.');
      expect(e.message).toContain(instead);
      expect(fake.static('Game.Log', 'Count')).toEqual(int(0));
    },
  );
});

describe('foreach over a collection typed by an interface', () => {
  it('reads a List<T> behind IEnumerable<T> from its storage, by its runtime type', async () => {
    fake.interface('System.Collections.Generic.IEnumerator`1', {
      typeParams: ['T'],
      properties: { Current: 'T' },
      methods: { MoveNext: { returns: 'bool' } },
    });
    fake.interface('System.Collections.Generic.IEnumerable`1', {
      typeParams: ['T'],
      methods: {
        GetEnumerator: {
          returns: 'System.Collections.Generic.IEnumerator<T>',
          impl: () => {
            throw new Error('must be read from its storage');
          },
        },
      },
    });
    const seq = new Map([
      [
        'seq',
        {
          type: fake.type('System.Collections.Generic.IEnumerable<Game.Item>'),
          value: () => Promise.resolve(list),
        },
      ],
    ]);
    expect(
      await valueOf(fake, 'var t = 0; foreach (var it in seq) t += it.value; t', {
        ...options,
        builtins: seq,
      }),
    ).toMatchObject({ type: 'int', text: '10' });
  });
});
