// ref and out arguments: the game's values after the call are written back into the variables
// passed (locals, fields, elements, struct fields), `out var` takes its parameter's type, `_`
// discards; properties and mismatched types are refused.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, refusal, runs, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf } from '../testing/fake-runtime.js';
import { str, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let n: EvalValue;
let options: EvaluateOptions;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.struct('Game.Vec', { fields: { X: 'int' } });
  fake.class('Game.Node', {
    fields: { Value: 'int', Items: 'int[]', Pos: 'Game.Vec' },
    properties: { Prop: 'int' },
  });
  fake.class('Game.Util', {
    fields: { Counter: { type: 'int', static: true } },
    methods: {
      Inc: {
        static: true,
        params: ['ref int x'],
        impl: (c) => c.setArg(0, int(numberOf(c.args[0]) + 1)),
      },
      Swap: {
        static: true,
        params: ['ref int a', 'ref int b'],
        impl: (c) => {
          const [a, b] = c.args;
          c.setArg(0, b!);
          c.setArg(1, a!);
        },
      },
      Make: {
        static: true,
        params: ['out string s', 'int n = 2'],
        returns: 'bool',
        impl: (c) => {
          c.setArg(0, str('x'.repeat(numberOf(c.args[1]))));
          return { kind: 'bool', value: true };
        },
      },
    },
  });
  n = fake.new('Game.Node', {
    Value: int(1),
    Items: fake.array('int', [int(10), int(20)]),
  });
  options = { builtins: builtins(fake, { n }) };
});

describe('ref', () => {
  it('writes locals back after the call', async () => {
    const r = await valueOf(fake, 'int a = 1, b = 2; Game.Util.Swap(ref a, ref b); a * 10 + b');
    expect(r.text).toBe('21');
  });

  it('writes fields, elements, struct fields and statics back', async () => {
    await runs(
      fake,
      'Game.Util.Inc(ref n.Value); Game.Util.Inc(ref n.Items[1]); Game.Util.Inc(ref n.Pos.X); Game.Util.Inc(ref Game.Util.Counter)',
      options,
    );
    expect(fake.get(n, 'Value')).toEqual(int(2));
    expect(fake.elements(fake.get(n, 'Items'))).toEqual([int(10), int(21)]);
    expect(fake.get(fake.get(n, 'Pos'), 'X')).toEqual(int(1));
    expect(fake.static('Game.Util', 'Counter')).toEqual(int(1));
  });

  it('refuses an unassigned local (CS0165)', async () => {
    expect(await refusal(fake, 'int x; Game.Util.Inc(ref x); x')).toMatchObject({
      csCode: 'CS0165',
    });
  });

  it('refuses a property (CS0206), a missing modifier and another type (CS1502)', async () => {
    expect(await refusal(fake, 'Game.Util.Inc(ref n.Prop)', options)).toMatchObject({
      csCode: 'CS0206',
    });
    expect(await refusal(fake, 'int x = 1; Game.Util.Inc(x)')).toMatchObject({ csCode: 'CS1502' });
    const e = await refusal(fake, 'long l = 1; Game.Util.Inc(ref l)');
    expect(e).toMatchObject({ csCode: 'CS1502' });
    expect(e.message).toContain("cannot convert from 'ref long' to 'ref int'");
  });
});

describe('out', () => {
  it('declares an out var of the parameter type', async () => {
    expect(await valueOf(fake, 'int.TryParse("12", out var v); v')).toMatchObject({
      type: 'int',
      text: '12',
    });
    expect(await valueOf(fake, 'Game.Util.Make(out var s, 3); s')).toMatchObject({
      type: 'string',
      text: '"xxx"',
    });
  });

  it('assigns a declared local, typed or not yet assigned', async () => {
    expect((await valueOf(fake, 'int.TryParse("5", out int m); m + 1')).text).toBe('6');
    expect((await valueOf(fake, 'string s; Game.Util.Make(out s); s')).text).toBe('"xx"');
  });

  it('discards with out _', async () => {
    expect(await valueOf(fake, 'int.TryParse("x", out _)')).toMatchObject({
      type: 'bool',
      text: 'False',
    });
    expect((await valueOf(fake, 'int.TryParse("7", out var _)')).text).toBe('True');
  });

  it('writes an out argument into a field', async () => {
    await runs(fake, 'int.TryParse("42", out n.Value)', options);
    expect(fake.get(n, 'Value')).toEqual(int(42));
  });

  it('refuses an out var that redeclares a local (CS0128)', async () => {
    expect(await refusal(fake, 'int v = 1; int.TryParse("2", out var v)')).toMatchObject({
      csCode: 'CS0128',
    });
  });

  it('refuses a property as an out argument (CS0206)', async () => {
    expect(await refusal(fake, 'int.TryParse("1", out n.Prop)', options)).toMatchObject({
      csCode: 'CS0206',
    });
  });
});
