// The type system over the fake game: virtual and hidden methods, interfaces, closed generic
// types and inference through them, Nullable<T> members, boxing, casts and type tests.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, exceptionOf, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf, type MethodSpec } from '../testing/fake-runtime.js';
import { str, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let options: EvaluateOptions;

const says = (text: string, virtual = false): MethodSpec => ({
  returns: 'string',
  virtual,
  impl: () => str(text),
});

beforeEach(() => {
  fake = new FakeRuntime();
  fake.interface('Game.INamed', { properties: { Name: { type: 'string', readOnly: true } } });
  fake.interface('Game.IPet', { interfaces: ['Game.INamed'] });
  fake.interface('Game.IMovable', { methods: { Move: { params: ['int dx'] } } });
  fake.class('Game.Animal', {
    interfaces: ['Game.INamed'],
    properties: { Name: { type: 'string', get: () => str('animal') } },
    methods: { Speak: says('...', true), Kind: says('animal') },
  });
  // Speak overrides (same signature, virtual); Kind hides (`new`, not virtual)
  fake.class('Game.Dog', {
    base: 'Game.Animal',
    interfaces: ['Game.IPet'],
    methods: { Speak: says('woof', true), Kind: says('dog') },
  });
  fake.struct('Game.Vec', {
    interfaces: ['Game.IMovable'],
    fields: { X: 'int' },
    methods: {
      Move: {
        params: ['int dx'],
        impl: (c) =>
          c.setThis(
            c.fake.set(c.self!, 'X', int(numberOf(c.fake.get(c.self!, 'X')) + numberOf(c.args[0]))),
          ),
      },
    },
  });
  fake.class('Game.Box`1', {
    typeParams: ['T'],
    fields: { Value: 'T', Items: 'T[]' },
    methods: { Get: { returns: 'T', impl: (c) => c.fake.get(c.self!, 'Value') } },
  });
  fake.class('Game.IntBox', { base: 'Game.Box<int>' });
  fake.class('Game.Util', {
    methods: {
      Unbox: {
        static: true,
        generic: ['T'],
        params: ['Game.Box<T> box'],
        returns: 'T',
        impl: (c) => c.fake.get(c.args[0]!, 'Value'),
      },
    },
  });
  const dog: EvalValue = fake.new('Game.Dog');
  options = { builtins: builtins(fake, { dog }) };
});

describe('inheritance', () => {
  it('calls an override through a base-typed reference, a hidden method by static type', async () => {
    expect((await valueOf(fake, 'Game.Animal a = dog; a.Speak()', options)).text).toBe('"woof"');
    expect((await valueOf(fake, 'Game.Animal a = dog; a.Kind()', options)).text).toBe('"animal"');
    expect((await valueOf(fake, 'dog.Kind()', options)).text).toBe('"dog"');
  });

  it('converts to a base type implicitly and back with a checked cast', async () => {
    expect((await valueOf(fake, 'Game.Animal a = dog; ((Game.Dog)a).Kind()', options)).text).toBe(
      '"dog"',
    );
    expect(await exceptionOf(fake, '(Game.Dog)new Game.Animal()')).toEqual({
      type: 'System.InvalidCastException',
      message: 'Specified cast is not valid.',
    });
    expect(await refusal(fake, 'Game.Dog d = new Game.Animal(); d')).toMatchObject({
      csCode: 'CS0266',
    });
  });

  it('tests types with is and as', async () => {
    expect((await valueOf(fake, 'object o = dog; o is Game.Animal', options)).text).toBe('True');
    expect((await valueOf(fake, 'object o = dog; o is Game.Vec', options)).text).toBe('False');
    expect((await valueOf(fake, '(new Game.Animal() as Game.Dog) == null')).text).toBe('True');
  });
});

describe('interfaces', () => {
  it('reads a member through an interface, dispatched to the implementation', async () => {
    expect(await valueOf(fake, 'Game.INamed n = dog; n.Name', options)).toMatchObject({
      type: 'string',
      text: '"animal"',
    });
    expect((await valueOf(fake, 'object o = dog; o is Game.INamed', options)).text).toBe('True');
  });

  it('finds a member of an inherited interface', async () => {
    expect((await valueOf(fake, 'Game.IPet p = dog; p.Name', options)).text).toBe('"animal"');
    expect(
      (await valueOf(fake, 'Game.INamed n = (Game.IPet)dog; n is Game.IPet', options)).text,
    ).toBe('True');
  });

  it('calls object members on an interface-typed value', async () => {
    expect((await valueOf(fake, 'Game.INamed n = dog; n.ToString()', options)).text).toBe(
      '"Game.Dog"',
    );
  });

  // C#: converting a struct to an interface boxes it once; a mutating call changes that box
  // (mcs: ((Vec)m).X is 1 here, and the local v stays 0)
  it('mutates the box when a struct is called through an interface', async () => {
    const r = await valueOf(
      fake,
      'var v = new Game.Vec(); Game.IMovable m = v; m.Move(1); ((Game.Vec)m).X * 10 + v.X',
    );
    expect(r.text).toBe('10');
  });
});

describe('generic types', () => {
  it('substitutes type arguments in members', async () => {
    const r = await valueOf(fake, 'var b = new Game.Box<int>(); b.Value = 4; b.Get() + 1');
    expect(r).toMatchObject({ type: 'int', text: '5' });
    expect((await valueOf(fake, 'new Game.Box<string>().Value')).type).toBe('string');
    expect((await valueOf(fake, 'new Game.Box<long>()')).type).toBe('Game.Box<long>');
  });

  it('refuses a value of the wrong type argument', async () => {
    expect(await refusal(fake, 'new Game.Box<int>().Value = "x"')).toMatchObject({
      csCode: 'CS0029',
    });
  });

  it('infers method type arguments through a generic type, and a base of one', async () => {
    expect(
      await valueOf(fake, 'var b = new Game.Box<string>(); b.Value = "s"; Game.Util.Unbox(b)'),
    ).toMatchObject({
      type: 'string',
      text: '"s"',
    });
    expect(await valueOf(fake, 'Game.Util.Unbox(new Game.IntBox())')).toMatchObject({
      type: 'int',
      text: '0',
    });
  });
});

describe('Nullable<T>', () => {
  it('calls HasValue, Value and GetValueOrDefault', async () => {
    expect((await valueOf(fake, 'int? x = 5; x.HasValue')).text).toBe('True');
    expect((await valueOf(fake, 'int? x = null; x.HasValue')).text).toBe('False');
    expect(await valueOf(fake, 'int? x = 5; x.Value + 1')).toMatchObject({
      type: 'int',
      text: '6',
    });
    expect((await valueOf(fake, 'int? x = null; x.GetValueOrDefault()')).text).toBe('0');
  });

  it('throws InvalidOperationException for the value of null', async () => {
    const noValue = {
      type: 'System.InvalidOperationException',
      message: 'Nullable object must have a value.',
    };
    expect(await exceptionOf(fake, 'int? x = null; x.Value')).toEqual(noValue);
    expect(await exceptionOf(fake, 'int? x = null; (int)x')).toEqual(noValue);
  });

  it('lifts comparisons and arithmetic', async () => {
    expect((await valueOf(fake, 'int? x = null; x > 3')).text).toBe('False');
    expect(await valueOf(fake, 'int? x = null; x + 1')).toMatchObject({
      type: 'int?',
      text: 'null',
    });
    expect(await valueOf(fake, 'int? x = 2; x * 3')).toMatchObject({ type: 'int?', text: '6' });
  });
});

describe('boxing and unboxing', () => {
  it('unboxes to the exact type only', async () => {
    expect(await valueOf(fake, 'object o = 5; (int)o')).toMatchObject({ type: 'int', text: '5' });
    expect((await valueOf(fake, 'object o = 5; o is int')).text).toBe('True');
    expect((await valueOf(fake, 'object o = 5; o is long')).text).toBe('False');
    expect(await exceptionOf(fake, 'object o = 5; (long)o')).toEqual({
      type: 'System.InvalidCastException',
      message: 'Specified cast is not valid.',
    });
  });

  // mcs and Roslyn: CS0037 (null to a non-nullable value type), not CS0030
  it('refuses casting null to a struct (CS0037)', async () => {
    expect(await refusal(fake, '(Game.Vec)null')).toMatchObject({ csCode: 'CS0037' });
  });

  it('boxes a struct as a copy', async () => {
    const r = await valueOf(
      fake,
      'var v = new Game.Vec(); object o = v; v.Move(2); ((Game.Vec)o).X',
    );
    expect(r.text).toBe('0');
  });
});

// C# 7 constant patterns: K converts to x's type; the match is object.Equals(K, x)
describe('constant patterns', () => {
  beforeEach(() => {
    fake.enum('Game.Color', { members: { Red: 0, Green: 1 } });
  });

  it.each([
    ['int x = 42; x is 42', 'True'],
    ['int x = 42; x is 41', 'False'],
    ['int x = -1; x is -1', 'True'],
    ["int x = 97; x is 'a'", 'True'],
    ['long x = 42; x is 42', 'True'],
    ['double d = 1.5; d is 1.5', 'True'],
    ['int x = 2147483647; x is int.MaxValue', 'True'],
    ['double d = -0.0; d is 0.0', 'True'],
    ['decimal m = 1.50m; m is 1.5m', 'True'],
    ['int? n = 5; n is 5', 'True'],
    ['int? n = null; n is 5', 'False'],
    ['bool b = true; b is true', 'True'],
    ['string s = "a"; s is "a"', 'True'],
    ['string s = "a"; s is "b"', 'False'],
    ['string s = null; s is "a"', 'False'],
    ['object o = 42; o is 42', 'True'],
    ['object o = 42L; o is 42', 'False'],
    ['object o = 42L; o is 42L', 'True'],
    ['object o = "a"; o is "a"', 'True'],
    ['object o = null; o is 42', 'False'],
    ['Game.Color c = Game.Color.Green; c is Game.Color.Green', 'True'],
    ['Game.Color c = Game.Color.Red; c is 0', 'True'],
    ['object o = Game.Color.Green; o is Game.Color.Green', 'True'],
    ['object o = 1; o is Game.Color.Green', 'False'],
  ])('%s', async (source, text) => {
    expect((await valueOf(fake, source)).text).toBe(text);
  });

  it.each([
    ['int x = 1; x is "a"', 'CS0029'],
    ['Game.Color c = Game.Color.Red; c is 1', 'CS0266'],
    ['Game.Vec v = new Game.Vec(); v is 5', 'CS0029'],
    ['string s = ""; s is 5', 'CS0029'],
    ['int x = 1; x is 3000000000', 'CS0031'],
    ['int x = 1; x is 1.5', 'CS0266'],
  ])('refuses %s (%s, as mcs)', async (source, code) => {
    expect(await refusal(fake, source)).toMatchObject({ csCode: code });
  });
});
