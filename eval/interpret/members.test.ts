// Fields, properties, indexers and array elements: reads, and writes that must land in the
// game (asserted on the fake's heap), with the compiler's refusals for what cannot be written.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, exceptionOf, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf } from '../testing/fake-runtime.js';
import { NULL, num, str, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let node: EvalValue;
let grid: EvalValue;
let options: EvaluateOptions;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.class('Game.Node', {
    fields: {
      Value: 'int',
      Next: 'Game.Node',
      Items: 'int[]',
      Score: { type: 'double', static: true },
      Id: { type: 'int', readonly: true },
      Seed: { type: 'int', static: true, readonly: true },
      Max: { type: 'int', const: int(10) },
    },
    properties: {
      Label: 'string',
      Size: {
        type: 'int',
        get: (c) => int(2 * numberOf(c.fake.get(c.self!, 'Value'))),
        set: (c, v) => void c.fake.set(c.self!, 'Value', int(numberOf(v) / 2)),
      },
      Half: { type: 'int', get: (c) => int(numberOf(c.fake.get(c.self!, 'Value')) / 2) },
      Sink: { type: 'int', set: () => undefined },
      Created: { type: 'int', static: true },
    },
  });
  fake.class('Game.Grid', {
    fields: { cells: { type: 'int[]', private: true } },
    indexers: [
      {
        params: ['int i'],
        type: 'int',
        get: (c) => c.fake.elements(c.fake.get(c.self!, 'cells'))[numberOf(c.args[0])]!,
        set: (c, v) => c.fake.setElement(c.fake.get(c.self!, 'cells'), numberOf(c.args[0]), v),
      },
      {
        params: ['string name'],
        type: 'string',
        get: (c) => str(`cell ${c.fake.text(c.args[0]!)}`),
      },
    ],
  });
  node = fake.new('Game.Node', {
    Value: int(3),
    Items: fake.array('int', [int(1), int(2), int(3)]),
  });
  grid = fake.new('Game.Grid', { cells: fake.array('int', [int(0), int(0), int(0)]) });
  options = { builtins: builtins(fake, { n: node, g: grid }) };
});

describe('fields', () => {
  it('reads instance, static and const fields', async () => {
    fake.setStatic('Game.Node', 'Score', num('double', 1.5));
    expect(await valueOf(fake, 'n.Value', options)).toMatchObject({ type: 'int', text: '3' });
    expect(await valueOf(fake, 'Game.Node.Score')).toMatchObject({ type: 'double', text: '1.5' });
    expect(await valueOf(fake, 'Game.Node.Max * 2')).toMatchObject({ type: 'int', text: '20' });
  });

  it('writes an instance field into the object', async () => {
    expect(await valueOf(fake, 'n.Value = 5', options)).toMatchObject({ type: 'int', text: '5' });
    expect(fake.get(node, 'Value')).toEqual(int(5));
    expect(fake.effects()).toEqual(['writeField Game.Node.Value']);
  });

  it('writes a static field', async () => {
    await valueOf(fake, 'Game.Node.Score = 2');
    expect(fake.static('Game.Node', 'Score')).toEqual(num('double', 2));
  });

  it('reads then writes for compound assignment and ++/--', async () => {
    expect((await valueOf(fake, 'n.Value += 4', options)).text).toBe('7');
    expect((await valueOf(fake, 'n.Value++', options)).text).toBe('7');
    expect((await valueOf(fake, '--n.Value', options)).text).toBe('7');
    expect(fake.get(node, 'Value')).toEqual(int(7));
  });

  it('writes through a chain of references', async () => {
    const r = await valueOf(
      fake,
      'n.Next = new Game.Node(); n.Next.Value = 4; n.Next.Value',
      options,
    );
    expect(r.text).toBe('4');
    expect(fake.get(fake.get(node, 'Next'), 'Value')).toEqual(int(4));
  });

  it('throws NullReferenceException reading or writing a field of null', async () => {
    const nre = { type: 'System.NullReferenceException' };
    expect(await exceptionOf(fake, 'n.Next.Value', options)).toMatchObject(nre);
    expect(await exceptionOf(fake, 'n.Next.Value = 1', options)).toMatchObject(nre);
    expect(fake.effects()).toEqual([]);
  });

  it('refuses writing a readonly field (CS0191) or a constant (CS0131)', async () => {
    expect(await refusal(fake, 'n.Id = 1', options)).toMatchObject({ csCode: 'CS0191' });
    expect(await refusal(fake, 'Game.Node.Max = 1')).toMatchObject({ csCode: 'CS0131' });
    expect(fake.effects()).toEqual([]);
  });

  // mcs and Roslyn: CS0198 for a static readonly field (CS0191 is the instance one)
  it('refuses writing a static readonly field (CS0198)', async () => {
    expect(await refusal(fake, 'Game.Node.Seed = 1')).toMatchObject({ csCode: 'CS0198' });
  });
});

describe('properties', () => {
  it('writes an auto-property through its setter', async () => {
    expect(await valueOf(fake, 'n.Label = "top"', options)).toMatchObject({
      type: 'string',
      text: '"top"',
    });
    expect(fake.text(fake.get(node, 'Label'))).toBe('top');
    expect(fake.effects()).toEqual(['invoke Game.Node.set_Label']);
  });

  it('runs a property body on reads and writes', async () => {
    expect((await valueOf(fake, 'n.Size', options)).text).toBe('6');
    await valueOf(fake, 'n.Size = 10', options);
    expect(fake.get(node, 'Value')).toEqual(int(5));
  });

  it('calls the getter then the setter for compound assignment', async () => {
    await valueOf(fake, 'n.Label = "a"; n.Label += "b"', options);
    expect(fake.text(fake.get(node, 'Label'))).toBe('ab');
    expect(fake.effects()).toEqual([
      'invoke Game.Node.set_Label',
      'invoke Game.Node.get_Label',
      'invoke Game.Node.set_Label',
    ]);
  });

  it('writes a static auto-property', async () => {
    await valueOf(fake, 'Game.Node.Created = 2; Game.Node.Created++');
    expect(fake.static('Game.Node', 'Created')).toEqual(int(3));
  });

  // the runtime journals these (unity/eval-bridge): a setter on an object or a static property
  it('tells the runtime which calls are property sets of an assignment', async () => {
    await valueOf(fake, 'n.Label = "a"; n.Label += "b"; n.Size++; Game.Node.Created = 1', options);
    await valueOf(fake, 'g[1] = 7; n.Sink = 2', options);
    expect(fake.game.propertySets).toEqual([
      'set_Label (Label)',
      'set_Label (Label)',
      'set_Size (Size)',
      'set_Created (Created)',
      'set_Item (Item)',
      'set_Sink (Sink)',
    ]);
  });

  it('refuses assigning a get-only property (CS0200) and reading a set-only one (CS0154)', async () => {
    expect(await refusal(fake, 'n.Half = 1', options)).toMatchObject({ csCode: 'CS0200' });
    expect(await refusal(fake, 'n.Sink + 1', options)).toMatchObject({ csCode: 'CS0154' });
  });
});

describe('indexers and elements', () => {
  it('reads and writes through an indexer, picking the overload by argument type', async () => {
    expect(await valueOf(fake, 'g[1] = 7; g[1]', options)).toMatchObject({
      type: 'int',
      text: '7',
    });
    expect(fake.elements(fake.get(grid, 'cells'))[1]).toEqual(int(7));
    expect(await valueOf(fake, 'g["one"]', options)).toMatchObject({
      type: 'string',
      text: '"cell one"',
    });
  });

  // C# resolves over every indexer, then finds the one chosen has no setter (mcs: CS0200);
  // resolving among the setters only finds none applicable
  it('refuses writing through a get-only indexer (CS0200, not CS1502)', async () => {
    expect(await refusal(fake, 'g["one"] = "x"', options)).toMatchObject({ csCode: 'CS0200' });
  });

  it('writes an array element of a field', async () => {
    expect((await valueOf(fake, 'n.Items[2] = 9', options)).text).toBe('9');
    expect(fake.elements(fake.get(node, 'Items'))).toEqual([int(1), int(2), int(9)]);
  });

  it('indexes a multi-dimensional array row-major', async () => {
    const r = await valueOf(fake, 'var m = new int[2, 3]; m[1, 2] = 5; m[1, 2] + m.Length');
    expect(r.text).toBe('11');
  });

  it('throws IndexOutOfRangeException outside the array, and NullReferenceException on null', async () => {
    expect(await exceptionOf(fake, 'n.Items[3]', options)).toEqual({
      type: 'System.IndexOutOfRangeException',
      message: 'Index was outside the bounds of the array.',
    });
    fake.set(node, 'Items', NULL);
    expect(await exceptionOf(fake, 'n.Items[0] = 1', options)).toMatchObject({
      type: 'System.NullReferenceException',
    });
  });

  it("reads a string's length and chars", async () => {
    expect(await valueOf(fake, '"abc".Length')).toMatchObject({ type: 'int', text: '3' });
    expect(await valueOf(fake, '"abc"[1]')).toMatchObject({ type: 'char', text: "'b'" });
  });
});
