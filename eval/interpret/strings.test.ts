// String concatenation (each non-string operand through its ToString() in the game, null as
// "") and interpolated strings that need no formatting (built here, no String.Format call).

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf } from '../testing/fake-runtime.js';
import { str, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let n: EvalValue;
let options: EvaluateOptions;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.struct('Game.Vec', { fields: { X: 'int' } });
  fake.enum('Game.Color', { members: { Red: 0, Green: 1 } });
  fake.class('Game.Node', {
    fields: { Value: 'int', Name: 'string', Next: 'Game.Node', Pos: 'Game.Vec' },
    methods: {
      ToString: {
        returns: 'string',
        virtual: true,
        impl: (c) => str(`Node#${numberOf(c.fake.get(c.self!, 'Value'))}`),
      },
      Touch: {},
    },
  });
  fake.class('Game.Leaf', { base: 'Game.Node' });
  n = fake.new('Game.Node', { Value: int(3), Name: fake.string('abc') });
  options = {
    builtins: builtins(fake, { n, leaf: fake.new('Game.Leaf', { Value: int(4) }) }),
  };
});

describe('concatenation', () => {
  it("appends an object's ToString() override, dispatched on its run-time type", async () => {
    expect(await valueOf(fake, '"n=" + n', options)).toMatchObject({
      type: 'string',
      text: '"n=Node#3"',
    });
    expect((await valueOf(fake, 'object o = leaf; o + "!"', options)).text).toBe('"Node#4!"');
    expect(fake.effects()).toContain('invoke Game.Node.ToString');
  });

  it('appends the type name for a struct without an override, and the member name of an enum', async () => {
    expect((await valueOf(fake, '"v=" + n.Pos', options)).text).toBe('"v=Game.Vec"');
    expect((await valueOf(fake, '"c=" + Game.Color.Green')).text).toBe('"c=Green"');
  });

  it('appends nothing for null and the C# text of primitives', async () => {
    expect((await valueOf(fake, '"s" + n.Next + 1 + \'c\' + true', options)).text).toBe(
      '"s1cTrue"',
    );
    expect((await valueOf(fake, '1 + 2 + "x" + 1 + 2')).text).toBe('"3x12"');
    expect((await valueOf(fake, 'double d = 1.5; "d=" + d')).text).toBe('"d=1.5"');
  });

  it('reads game strings by reference', async () => {
    expect((await valueOf(fake, 'n.Name + "!"', options)).text).toBe('"abc!"');
    expect((await valueOf(fake, 'n.Name.Length', options)).text).toBe('3');
    expect(fake.text(fake.get(n, 'Name'))).toBe('abc');
  });

  it('folds constants without touching the game', async () => {
    expect(await valueOf(fake, '"a" + "b" + null')).toMatchObject({ text: '"ab"' });
    expect(fake.log).toEqual(['stringText']); // formatting the result
  });

  it('compares strings by value', async () => {
    expect((await valueOf(fake, 'n.Name == "ab" + "c"', options)).text).toBe('True');
    expect((await valueOf(fake, 'n.Name != null', options)).text).toBe('True');
  });

  it('refuses a void operand (CS0019)', async () => {
    expect(await refusal(fake, '"a" + n.Touch()', options)).toMatchObject({ csCode: 'CS0019' });
  });
});

describe('interpolated strings', () => {
  it('builds plain holes itself, without String.Format', async () => {
    const r = await valueOf(fake, '$"{n.Value} and {n.Name}, {true} {\'c\'} {{x}}"', options);
    expect(r).toMatchObject({ type: 'string', text: '"3 and abc, True c {x}"' });
    expect(fake.effects()).toEqual([]);
  });

  it('formats other holes in the game with String.Format', async () => {
    expect((await valueOf(fake, '$"[{n}]"', options)).text).toBe('"[Node#3]"');
    expect(fake.effects()).toContain('invoke System.String.Format');
  });

  it('refuses a void hole (CS0029)', async () => {
    expect(await refusal(fake, '$"{n.Touch()}"', options)).toMatchObject({ csCode: 'CS0029' });
  });
});
