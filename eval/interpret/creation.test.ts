// `new`: constructors chosen by overload resolution, object initializers (members set on the
// new object, nested ones on the existing member), collection and index initializers, and
// arrays; each asserted on what the fake game holds afterwards.

import { beforeEach, describe, expect, it } from 'vitest';
import { exceptionOf, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf } from '../testing/fake-runtime.js';
import { str, type EvalValue } from '../values.js';

let fake: FakeRuntime;

/** The object a program ended with, from the fake heap. */
async function created(source: string): Promise<EvalValue> {
  return (await valueOf(fake, source)).value;
}

beforeEach(() => {
  fake = new FakeRuntime();
  fake.struct('Game.Vec', { fields: { X: 'int', Y: 'int' } });
  fake.class('Game.Bag', {
    interfaces: ['System.Collections.IEnumerable'],
    fields: { Count: 'int', Last: 'int', Key: 'string' },
    methods: {
      Add: [
        {
          params: ['int x'],
          impl: (c) => {
            c.fake.set(c.self!, 'Count', int(numberOf(c.fake.get(c.self!, 'Count')) + 1));
            c.fake.set(c.self!, 'Last', c.args[0]!);
          },
        },
        {
          params: ['string key', 'int x'],
          impl: (c) => void c.fake.set(c.fake.set(c.self!, 'Key', c.args[0]!), 'Last', c.args[1]!),
        },
      ],
    },
  });
  fake.class('Game.Plain', { methods: { Add: { params: ['int x'] } } });
  fake.class('Game.Node', {
    fields: { Value: 'int', Child: 'Game.Node', Pos: 'Game.Vec', Tags: 'Game.Bag' },
    properties: { Label: 'string', Size: { type: 'int', get: () => int(0) } },
    indexers: [
      {
        params: ['string key'],
        type: 'int',
        set: (c, v) => void c.fake.set(c.fake.set(c.self!, 'Label', c.args[0]!), 'Value', v),
      },
    ],
    ctors: [
      { impl: (c) => void c.fake.set(c.self!, 'Tags', c.fake.new('Game.Bag')) },
      { params: ['int value'], impl: (c) => void c.fake.set(c.self!, 'Value', c.args[0]!) },
    ],
  });
  fake.class('Game.Tree', {
    fields: { Root: 'Game.Node' },
    ctors: [{ impl: (c) => void c.fake.set(c.self!, 'Root', c.fake.new('Game.Node')) }],
  });
  fake.class('Game.Shape', { abstract: true });
});

describe('constructors and object initializers', () => {
  it('sets fields and properties on the new object, in order', async () => {
    const node = await created('new Game.Node { Value = 3, Label = "x" }');
    expect(fake.get(node, 'Value')).toEqual(int(3));
    expect(fake.text(fake.get(node, 'Label'))).toBe('x');
    expect(fake.effects()).toEqual([
      'invoke Game.Node..ctor',
      'writeField Game.Node.Value',
      'invoke Game.Node.set_Label',
    ]);
  });

  it('picks the constructor by its arguments', async () => {
    expect((await valueOf(fake, 'new Game.Node(5) { Label = "n" }.Value')).text).toBe('5');
  });

  it('sets members of an existing member with a nested initializer', async () => {
    const tree = await created('new Game.Tree { Root = { Value = 4 } }');
    expect(fake.get(fake.get(tree, 'Root'), 'Value')).toEqual(int(4));
    expect(fake.effects().filter((e) => e.endsWith('..ctor'))).toEqual(['invoke Game.Tree..ctor']);
  });

  it('sets fields of a struct member in place', async () => {
    const node = await created('new Game.Node { Pos = { X = 1 } }');
    expect(fake.get(fake.get(node, 'Pos'), 'X')).toEqual(int(1));
  });

  it('throws NullReferenceException for a nested initializer on a null member', async () => {
    expect(await exceptionOf(fake, 'new Game.Node { Child = { Value = 1 } }')).toMatchObject({
      type: 'System.NullReferenceException',
    });
  });

  it('builds a struct without running anything in the game', async () => {
    expect((await valueOf(fake, 'new Game.Vec { X = 2 }')).text).toBe('Game.Vec { X = 2, Y = 0 }');
    expect(fake.effects()).toEqual([]);
  });

  it('refuses an unknown member (CS0117), a duplicate (CS1912) and a get-only property (CS0200)', async () => {
    expect(await refusal(fake, 'new Game.Node { Nope = 1 }')).toMatchObject({ csCode: 'CS0117' });
    expect(await refusal(fake, 'new Game.Node { Value = 1, Value = 2 }')).toMatchObject({
      csCode: 'CS1912',
    });
    expect(await refusal(fake, 'new Game.Node { Size = 1 }')).toMatchObject({ csCode: 'CS0200' });
    expect(fake.effects()).toEqual([]);
  });

  it('refuses an abstract type (CS0144)', async () => {
    expect(await refusal(fake, 'new Game.Shape()')).toMatchObject({ csCode: 'CS0144' });
  });
});

describe('collection and index initializers', () => {
  it('calls Add for each element, with element initializers choosing the overload', async () => {
    const bag = await created('new Game.Bag { 1, 2, 3 }');
    expect([fake.get(bag, 'Count'), fake.get(bag, 'Last')]).toEqual([int(3), int(3)]);
    const keyed = await created('new Game.Bag { { "k", 9 } }');
    expect([fake.text(fake.get(keyed, 'Key')), fake.get(keyed, 'Last')]).toEqual(['k', int(9)]);
  });

  it('adds to a collection member', async () => {
    const node = await created('new Game.Node { Tags = { 4, 5 } }');
    expect(fake.get(fake.get(node, 'Tags'), 'Count')).toEqual(int(2));
  });

  it('sets through the indexer with an index initializer', async () => {
    const node = await created('new Game.Node { ["k"] = 7 }');
    expect(fake.get(node, 'Value')).toEqual(int(7));
    expect(fake.get(node, 'Label')).toEqual(str('k'));
  });

  // mcs and Roslyn refuse it: a collection initializer needs a type implementing IEnumerable
  it('refuses a collection initializer on a type without IEnumerable (CS1922)', async () => {
    expect(await refusal(fake, 'new Game.Plain { 1 }')).toMatchObject({ csCode: 'CS1922' });
  });
});

describe('arrays', () => {
  it('makes zeroed arrays of the element type', async () => {
    expect(await valueOf(fake, 'new int[3]')).toMatchObject({
      type: 'int[]',
      text: 'int[3] { 0, 0, 0 }',
    });
    expect((await valueOf(fake, 'new Game.Node[2]')).text).toBe('Game.Node[2] { null, null }');
    expect((await valueOf(fake, '(new Game.Vec[1])[0].X')).text).toBe('0');
    expect((await valueOf(fake, 'new int[2][]')).type).toBe('int[][]');
  });

  it('fills arrays from initializers, inferring the element type of new[]', async () => {
    expect((await valueOf(fake, 'int[] a = { 1, 2 }; a')).text).toBe('int[2] { 1, 2 }');
    expect(await valueOf(fake, 'new[] { 1, 2L }')).toMatchObject({ type: 'long[]' });
    expect(await valueOf(fake, 'new[] { "a", null }')).toMatchObject({ type: 'string[]' });
    const grid = await valueOf(fake, 'new int[,] { { 1, 2 }, { 3, 4 } }');
    expect(grid).toMatchObject({ type: 'int[,]', text: 'int[2,2] { 1, 2, 3, 4 }' });
  });

  it('refuses mismatched sizes (CS0847), no best type (CS0826) and negative sizes (CS0248)', async () => {
    expect(await refusal(fake, 'new int[2] { 1 }')).toMatchObject({ csCode: 'CS0847' });
    expect(await refusal(fake, 'new[] { 1, "a" }')).toMatchObject({ csCode: 'CS0826' });
    expect(await refusal(fake, 'new int[-1]')).toMatchObject({ csCode: 'CS0248' });
  });

  it('throws OverflowException for a negative size known only when running', async () => {
    expect(await exceptionOf(fake, 'int n = -1; new int[n]')).toMatchObject({
      type: 'System.OverflowException',
    });
  });
});
