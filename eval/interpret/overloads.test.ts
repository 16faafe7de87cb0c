// Overload resolution (§12.6.4) as the game's methods see it: the overload each call binds to
// (every overload answers its own tag), params in normal and expanded form, named and
// optional arguments, generic inference, and the compiler's refusals.

import { beforeEach, describe, expect, it } from 'vitest';
import { refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, numberOf, type MethodSpec } from '../testing/fake-runtime.js';
import { str } from '../values.js';

let fake: FakeRuntime;

/** A static overload answering `tag` (and, for params, how many elements arrived). */
function tagged(tag: string, ...params: string[]): MethodSpec {
  return {
    static: true,
    params,
    returns: 'string',
    impl: (c) =>
      str(
        params.at(-1)?.startsWith('params')
          ? `${tag}${c.fake.elements(c.args.at(-1)!).length}`
          : tag,
      ),
  };
}

/** A generic static method returning its first argument (so its type shows what T became). */
const identity: MethodSpec = {
  static: true,
  generic: ['T'],
  params: ['T a', 'T b'],
  returns: 'T',
  impl: (c) => c.args[0],
};

beforeEach(() => {
  fake = new FakeRuntime();
  fake.enum('Game.Color', { members: { Red: 0, Green: 1 } });
  fake.struct('Game.Vec', { fields: { X: 'int' } });
  fake.class('Game.Over', {
    methods: {
      Exact: [tagged('int', 'int x'), tagged('long', 'long x')],
      Widen: [tagged('long', 'long x'), tagged('double', 'double x')],
      Ref: [tagged('object', 'object o'), tagged('string', 'string s')],
      Sum: tagged('params', 'params int[] xs'),
      Fixed: [tagged('fixed', 'int a'), tagged('params', 'params int[] xs')],
      Pair: [tagged('il', 'int a', 'long b'), tagged('li', 'long a', 'int b')],
      Gen: [
        tagged('int', 'int a'),
        {
          static: true,
          generic: ['T'],
          params: ['T a'],
          returns: 'string',
          impl: (c) => str(`T=${c.fake.metadata.entry(c.typeArgs[0]!).fullName}`),
        },
      ],
      Same: identity,
      First: {
        static: true,
        generic: ['T'],
        params: ['T[] xs'],
        returns: 'T',
        impl: (c) => c.fake.elements(c.args[0]!)[0],
      },
      Opt: {
        static: true,
        params: ['int a = 1', 'int b = 2'],
        returns: 'string',
        impl: (c) => str(c.args.map(numberOf).join(',')),
      },
      Defaults: [tagged('one', 'int a'), tagged('two', 'int a', 'int b = 0')],
      Paint: {
        static: true,
        params: ['Game.Color c = 1', 'Game.Vec at = default', 'string s = null'],
        returns: 'string',
        impl: (c) =>
          str(c.args.map((a) => (a.kind === 'enum' ? `enum ${a.value}` : a.kind)).join(' ')),
      },
    },
  });
  const constrained = (where: MethodSpec['where'], ...params: string[]): MethodSpec => ({
    static: true,
    generic: ['T'],
    where,
    params,
    returns: 'string',
    impl: (c) => str(`T=${c.fake.metadata.entry(c.typeArgs[0]!).fullName}`),
  });
  fake.interface('Game.IShape');
  fake.class('Game.Shape', { interfaces: ['Game.IShape'] });
  fake.class('Game.Square', { base: 'Game.Shape' });
  fake.class('Game.Abstract', { abstract: true });
  fake.class('Game.NoDefault', { ctors: [{ params: ['int x'] }] });
  fake.class('Game.Where', {
    methods: {
      OfClass: constrained({ T: { class: true } }, 'T x'),
      OfStruct: constrained({ T: { struct: true } }, 'T x'),
      OfNew: constrained({ T: { new: true } }),
      OfShape: constrained({ T: { types: ['Game.Shape'] } }, 'T x'),
      OfIShape: constrained({ T: { types: ['Game.IShape'] } }, 'T x'),
      OfClassNew: constrained({ T: { class: true, new: true } }),
    },
  });
  fake.class('Game.Base', { methods: { M: { ...tagged('base int', 'int x'), static: false } } });
  fake.class('Game.Derived', {
    base: 'Game.Base',
    methods: { M: { ...tagged('derived long', 'long x'), static: false } },
  });
});

const call = async (source: string) => (await valueOf(fake, source)).text;

describe('better function member', () => {
  it('prefers the exact parameter type over a widening', async () => {
    expect(await call('Game.Over.Exact(1)')).toBe('"int"');
    expect(await call('Game.Over.Exact(1L)')).toBe('"long"');
  });

  it('prefers int to long over int to double (better conversion target)', async () => {
    expect(await call('Game.Over.Widen(1)')).toBe('"long"');
    expect(await call('Game.Over.Widen(1f)')).toBe('"double"');
  });

  it('prefers the more specific reference type, for null too', async () => {
    expect(await call('Game.Over.Ref("s")')).toBe('"string"');
    expect(await call('Game.Over.Ref(null)')).toBe('"string"');
    expect(await call('Game.Over.Ref(1)')).toBe('"object"');
  });

  it('lets an applicable method of the derived type hide the base one', async () => {
    expect(await call('new Game.Derived().M(1)')).toBe('"derived long"');
    expect(await call('((Game.Base)new Game.Derived()).M(1)')).toBe('"base int"');
  });

  it('prefers the form that needs no default argument', async () => {
    expect(await call('Game.Over.Defaults(1)')).toBe('"one"');
    expect(await call('Game.Over.Defaults(1, 2)')).toBe('"two"');
  });

  it('refuses an ambiguous call (CS0121), naming the candidates', async () => {
    const e = await refusal(fake, 'Game.Over.Pair(1, 1)');
    expect(e).toMatchObject({ code: 'EVAL_COMPILE', csCode: 'CS0121' });
    expect(e.message).toContain('Game.Over.Pair(int, long)');
    expect(e.message).toContain('Game.Over.Pair(long, int)');
  });
});

describe('params', () => {
  it('expands the arguments into an array, or passes an array as is', async () => {
    expect(await call('Game.Over.Sum(1, 2, 3)')).toBe('"params3"');
    expect(await call('Game.Over.Sum()')).toBe('"params0"');
    expect(await call('Game.Over.Sum(new[] { 4, 5 })')).toBe('"params2"');
  });

  it('prefers the normal form to the expanded one', async () => {
    expect(await call('Game.Over.Fixed(1)')).toBe('"fixed"');
    expect(await call('Game.Over.Fixed(1, 2)')).toBe('"params2"');
  });
});

describe('named and optional arguments', () => {
  it('fills defaults and matches names in any order', async () => {
    expect(await call('Game.Over.Opt()')).toBe('"1,2"');
    expect(await call('Game.Over.Opt(7)')).toBe('"7,2"');
    expect(await call('Game.Over.Opt(b: 5)')).toBe('"1,5"');
    expect(await call('Game.Over.Opt(b: 3, a: 4)')).toBe('"4,3"');
  });

  it('fills enum, struct and null defaults', async () => {
    expect(await call('Game.Over.Paint()')).toBe('"enum 1 struct null"');
    expect(fake.effects()).toEqual(['invoke Game.Over.Paint']);
  });

  it('refuses an unknown parameter name (CS1739)', async () => {
    expect(await refusal(fake, 'Game.Over.Opt(c: 1)')).toMatchObject({ csCode: 'CS1739' });
  });

  // mcs and Roslyn: CS1740; we say CS1502 (no applicable overload)
  it('refuses a name given twice (CS1740)', async () => {
    expect(await refusal(fake, 'Game.Over.Opt(a: 1, a: 2)')).toMatchObject({ csCode: 'CS1740' });
  });

  // mcs and Roslyn: CS1744; we say CS1502 (no applicable overload)
  it('refuses a name for a parameter given by position (CS1744)', async () => {
    expect(await refusal(fake, 'Game.Over.Opt(1, a: 2)')).toMatchObject({ csCode: 'CS1744' });
  });
});

describe('generic methods', () => {
  it('infers T from the arguments, fixing it to the type both convert to', async () => {
    expect(await valueOf(fake, 'Game.Over.Same(1, 2)')).toMatchObject({ type: 'int', text: '1' });
    expect(await valueOf(fake, 'Game.Over.Same(1, 2L)')).toMatchObject({ type: 'long', text: '1' });
    expect(await valueOf(fake, 'Game.Over.Same("a", null)')).toMatchObject({ type: 'string' });
    expect(await valueOf(fake, 'Game.Over.First(new[] { 3, 4 })')).toMatchObject({
      type: 'int',
      text: '3',
    });
  });

  it('prefers a non-generic method on a tie, and takes explicit type arguments', async () => {
    expect(await call('Game.Over.Gen(1)')).toBe('"int"');
    expect(await call('Game.Over.Gen("s")')).toBe('"T=System.String"');
    expect(await call('Game.Over.Gen<long>(1)')).toBe('"T=System.Int64"');
  });

  it('refuses what it cannot infer (CS0411)', async () => {
    expect(await refusal(fake, 'Game.Over.Same(1, "a")')).toMatchObject({ csCode: 'CS0411' });
  });
});

// mcs: the first broken constraint of the first type argument, inferred or given
describe('generic constraints', () => {
  it.each([
    ['Game.Where.OfClass("s")', 'T=System.String'],
    ['Game.Where.OfStruct(1)', 'T=System.Int32'],
    ['Game.Where.OfStruct(Game.Color.Red)', 'T=Game.Color'],
    ['Game.Where.OfNew<int>()', 'T=System.Int32'],
    ['Game.Where.OfNew<Game.Shape>()', 'T=Game.Shape'],
    ['Game.Where.OfShape(new Game.Square())', 'T=Game.Square'],
    ['Game.Where.OfIShape<Game.Square>(null)', 'T=Game.Square'],
    ['Game.Where.OfClassNew<Game.Square>()', 'T=Game.Square'],
  ])('accepts %s', async (source, text) => {
    expect(await call(source)).toBe(`"${text}"`);
  });

  it.each([
    ['Game.Where.OfClass(1)', 'CS0452'],
    ['Game.Where.OfClass<int>(1)', 'CS0452'],
    ['Game.Where.OfStruct("s")', 'CS0453'],
    ['Game.Where.OfStruct<int?>(1)', 'CS0453'],
    ['Game.Where.OfNew<Game.NoDefault>()', 'CS0310'],
    ['Game.Where.OfNew<Game.Abstract>()', 'CS0310'],
    ['Game.Where.OfNew<Game.IShape>()', 'CS0310'],
    ['Game.Where.OfShape("s")', 'CS0311'],
    ['Game.Where.OfShape<object>(null)', 'CS0311'],
    ['Game.Where.OfIShape<int>(1)', 'CS0315'],
    ['Game.Where.OfIShape<int?>(1)', 'CS0313'],
    ['Game.Where.OfClassNew<int>()', 'CS0452'],
  ])('refuses %s (%s)', async (source, code) => {
    const e = await refusal(fake, source);
    expect(e).toMatchObject({ csCode: code });
    expect(e.message).toContain("type parameter 'T' in the generic method 'Game.Where.Of");
    expect(fake.effects()).toEqual([]);
  });
});

describe('no applicable overload', () => {
  it('refuses a wrong argument count (CS1501)', async () => {
    const e = await refusal(fake, 'Game.Over.Exact()');
    expect(e).toMatchObject({ csCode: 'CS1501' });
    expect(e.message).toContain("no overload for 'Exact' takes 0 arguments");
  });

  it('refuses an argument of the wrong type (CS1502), naming the argument', async () => {
    const e = await refusal(fake, 'Game.Over.Widen("x")');
    expect(e).toMatchObject({ csCode: 'CS1502' });
    expect(e.message).toContain("argument 1 cannot convert from 'string'");
  });

  it('runs nothing of a refused call', async () => {
    await refusal(fake, 'Game.Over.Sum(1); Game.Over.Pair(1, 1)');
    expect(fake.effects()).toEqual([]);
  });
});
