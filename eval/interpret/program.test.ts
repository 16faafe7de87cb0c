// Whole programs: the two-pass guarantee (a program C# would refuse touches nothing in the
// game, wherever its error is), statements, exceptions from the game, checked and unchecked.

import { beforeEach, describe, expect, it } from 'vitest';
import { evaluate, type EvaluateOptions } from '../evaluate.js';
import { builtins, exceptionOf, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, gameException, int } from '../testing/fake-runtime.js';
import type { EvalValue } from '../values.js';

let fake: FakeRuntime;
let n: EvalValue;
let options: EvaluateOptions;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.class('Game.Node', {
    fields: { Value: 'int', Next: 'Game.Node' },
    properties: { Label: 'string' },
  });
  fake.class('Game.Log', {
    fields: { Count: { type: 'int', static: true } },
    methods: {
      Write: { static: true, params: ['string s'] },
      Fail: {
        static: true,
        returns: 'int',
        impl: () => {
          throw gameException('System.InvalidOperationException', 'the log is closed');
        },
      },
    },
  });
  n = fake.new('Game.Node', { Value: int(3) });
  options = { builtins: builtins(fake, { n }) };
});

describe('two passes: a refused program runs nothing', () => {
  it.each([
    ['an unknown name', 'Undefined', 'CS0103'],
    ['a type error', 'n.Value = "x"', 'CS0029'],
    ['no applicable overload', 'Game.Log.Write(1)', 'CS1502'],
    ['an error in the branch not taken', 'true ? 1 : Game.Log.Nope()', 'CS0117'],
    ['an error on the right of a false &&', 'false && Game.Log.Nope()', 'CS0117'],
  ])('does not write or invoke before %s in the last statement', async (_what, last, code) => {
    const program = `Game.Log.Write("a"); n.Value = 5; n.Label = "l"; Game.Log.Count++; new Game.Node(); ${last}`;
    expect(await refusal(fake, program, options)).toMatchObject({
      code: 'EVAL_COMPILE',
      csCode: code,
    });
    expect(fake.log).toEqual([]);
    expect(fake.get(n, 'Value')).toEqual(int(3));
    expect(fake.static('Game.Log', 'Count')).toEqual(int(0));
  });

  it('does not read a builtin while binding', async () => {
    let reads = 0;
    const counted = new Map([
      ['n', { type: fake.type('Game.Node'), value: () => (reads++, Promise.resolve(n)) }],
    ]);
    expect((await valueOf(fake, 'n.Value', { builtins: counted })).text).toBe('3');
    expect(reads).toBe(1);
    await refusal(fake, 'n.Value = 1; Undefined', { builtins: counted });
    expect(reads).toBe(1);
  });

  it('keeps the effects of statements before a run-time exception', async () => {
    const r = await exceptionOf(fake, 'n.Value = 1; n.Next.Value = 2; n.Value = 3', options);
    expect(r.type).toBe('System.NullReferenceException');
    expect(fake.get(n, 'Value')).toEqual(int(1));
  });
});

describe('statements and results', () => {
  it('refuses an expression statement that is not a call, assignment, ++ or new (CS0201)', async () => {
    expect(await refusal(fake, 'n.Value; 1', options)).toMatchObject({ csCode: 'CS0201' });
    expect(await refusal(fake, '1 + 2; 3')).toMatchObject({ csCode: 'CS0201' });
  });

  it('gives the compiler codes of C# where the parser refuses what C# refuses when compiling', async () => {
    // mcs: CS0818 "An implicitly typed local variable declarator must include an initializer"
    expect(await refusal(fake, 'var x; x')).toMatchObject({
      code: 'EVAL_COMPILE',
      csCode: 'CS0818',
    });
    // mcs: CS9030 "The left-hand side of an assignment cannot contain a null propagating operator"
    for (const p of ['n?.Value = 1', 'n?.Next.Value += 1', 'n?.Value++', '(n?.Value) = 2'])
      expect(await refusal(fake, p, options)).toMatchObject({
        code: 'EVAL_COMPILE',
        csCode: 'CS9030',
      });
    // no C# code of its own: a syntax error
    expect(await refusal(fake, '1 = n')).toMatchObject({ code: 'EVAL_SYNTAX' });
    expect((await refusal(fake, '1 = n')).csCode).toBeUndefined();
  });

  it('gives a void call no value', async () => {
    expect(await evaluate('Game.Log.Write("x")', fake, options)).toEqual({ kind: 'void' });
  });

  it('reports an exception thrown in the game as the result', async () => {
    expect(await exceptionOf(fake, 'Game.Log.Fail() + 1')).toEqual({
      type: 'System.InvalidOperationException',
      message: 'the log is closed',
    });
  });

  it('evaluates enums, typeof, is and as', async () => {
    fake.enum('Game.Color', { members: { Red: 0, Green: 1, Blue: 2 } });
    expect(await valueOf(fake, 'Game.Color.Green')).toMatchObject({
      type: 'Game.Color',
      text: 'Green',
    });
    expect((await valueOf(fake, '(int)Game.Color.Blue')).text).toBe('2');
    expect((await valueOf(fake, 'typeof(Game.Node)')).text).toBe('typeof(Game.Node)');
    expect((await valueOf(fake, 'n.GetType() == typeof(Game.Node)', options)).text).toBe('True');
    expect((await valueOf(fake, 'object o = n; o is Game.Node', options)).text).toBe('True');
    expect(await valueOf(fake, 'object o = n; o as string', options)).toMatchObject({
      type: 'string',
      text: 'null',
    });
  });
});

describe('checked and unchecked', () => {
  it('wraps at run time by default and in unchecked, throws in checked', async () => {
    const max = 'int x = int.MaxValue; ';
    expect((await valueOf(fake, `${max}x + 1`)).text).toBe('-2147483648');
    expect((await valueOf(fake, `${max}unchecked(x + 1)`)).text).toBe('-2147483648');
    expect(await exceptionOf(fake, `${max}checked(x + 1)`)).toEqual({
      type: 'System.OverflowException',
      message: 'Arithmetic operation resulted in an overflow.',
    });
    expect(await exceptionOf(fake, 'long l = 1L << 40; checked((int)l)')).toMatchObject({
      type: 'System.OverflowException',
    });
  });

  it('refuses constant overflow (CS0220) unless unchecked', async () => {
    expect(await refusal(fake, 'int.MaxValue + 1')).toMatchObject({ csCode: 'CS0220' });
    expect((await valueOf(fake, 'unchecked(int.MaxValue + 1)')).text).toBe('-2147483648');
  });

  it('writes nothing when a checked compound assignment overflows', async () => {
    const r = await exceptionOf(fake, 'checked(n.Value += int.MaxValue)', options);
    expect(r.type).toBe('System.OverflowException');
    expect(fake.get(n, 'Value')).toEqual(int(3));
  });

  it('keeps plain arithmetic right (smoke)', async () => {
    expect(await valueOf(fake, '1 + 2 * 3')).toMatchObject({ type: 'int', text: '7' });
    expect(await valueOf(fake, '7 / 2.0')).toMatchObject({ type: 'double', text: '3.5' });
    expect(await valueOf(fake, '7 / 2')).toMatchObject({ text: '3' });
  });
});
