// User-defined operators and conversions (§12.4, §11.5): op_Addition, op_Equality,
// op_UnaryNegation, op_Increment, op_Implicit and op_Explicit run in the game; lifted forms on
// Nullable; the predefined reference equality when a class defines no ==.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf, type Call, type MethodSpec } from '../testing/fake-runtime.js';
import { bool, num, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let options: EvaluateOptions;
let wallet: EvalValue;

const money = (amount: number) => fake.new('Game.Money', { Amount: int(amount) });
const amount = (c: Call, i: number) => numberOf(c.fake.get(c.args[i]!, 'Amount'));

/** A static operator on Money: `params` are its operands, `body` maps their amounts. */
function op(
  params: string[],
  returns: string,
  body: (amounts: number[], c: Call) => EvalValue,
): MethodSpec {
  return {
    static: true,
    params,
    returns,
    impl: (c) =>
      body(
        params.map((_, i) => (params[i]!.startsWith('int') ? numberOf(c.args[i]) : amount(c, i))),
        c,
      ),
  };
}

beforeEach(() => {
  fake = new FakeRuntime();
  const m = (n: number) => fake.new('Game.Money', { Amount: int(n) });
  fake.struct('Game.Money', {
    fields: { Amount: 'int' },
    methods: {
      op_Addition: op(['Game.Money a', 'Game.Money b'], 'Game.Money', ([a, b]) => m(a! + b!)),
      op_Equality: op(['Game.Money a', 'Game.Money b'], 'bool', ([a, b]) => bool(a === b)),
      op_Inequality: op(['Game.Money a', 'Game.Money b'], 'bool', ([a, b]) => bool(a !== b)),
      op_UnaryNegation: op(['Game.Money a'], 'Game.Money', ([a]) => m(-a!)),
      op_Increment: op(['Game.Money a'], 'Game.Money', ([a]) => m(a! + 1)),
      op_Implicit: op(['int a'], 'Game.Money', ([a]) => m(a!)),
      op_Explicit: op(['Game.Money a'], 'int', ([a]) => int(a!)),
    },
  });
  fake.class('Game.Wallet', { fields: { Cash: 'Game.Money' } });
  fake.class('Game.Meters', {
    fields: { V: 'double' },
    methods: {
      op_Implicit: {
        static: true,
        params: ['Game.Meters m'],
        returns: 'double',
        impl: (c) => c.fake.get(c.args[0]!, 'V'),
      },
    },
  });
  wallet = fake.new('Game.Wallet', { Cash: money(10) });
  options = {
    builtins: builtins(fake, {
      a: money(2),
      b: money(3),
      w: wallet,
      d: fake.new('Game.Meters', { V: num('double', 2) }),
      e: fake.new('Game.Meters', { V: num('double', 2) }),
    }),
  };
});

describe('operators', () => {
  it('calls op_Addition in the game', async () => {
    const r = await valueOf(fake, '(a + b).Amount', options);
    expect(r).toMatchObject({ type: 'int', text: '5' });
    expect(fake.effects()).toEqual(['invoke Game.Money.op_Addition']);
  });

  it('calls op_Equality and op_Inequality', async () => {
    expect(await valueOf(fake, 'a == b', options)).toMatchObject({ type: 'bool', text: 'False' });
    expect((await valueOf(fake, 'a != b', options)).text).toBe('True');
    expect(fake.effects()).toEqual([
      'invoke Game.Money.op_Equality',
      'invoke Game.Money.op_Inequality',
    ]);
  });

  it('calls a unary operator', async () => {
    expect((await valueOf(fake, '(-a).Amount', options)).text).toBe('-2');
  });

  it('converts an operand with op_Implicit to reach the operator', async () => {
    expect((await valueOf(fake, '(a + 1).Amount', options)).text).toBe('3');
    expect(fake.effects()).toEqual([
      'invoke Game.Money.op_Implicit',
      'invoke Game.Money.op_Addition',
    ]);
  });

  it('stores compound assignment and ++ results back', async () => {
    expect((await valueOf(fake, 'var x = a; x += 3; x++; x.Amount', options)).text).toBe('6');
    await valueOf(fake, 'w.Cash++', options);
    expect(fake.get(fake.get(wallet, 'Cash'), 'Amount')).toEqual(int(11));
  });

  it('lifts an operator over Nullable: null in, null out', async () => {
    expect(await valueOf(fake, 'Game.Money? x = null; x + a', options)).toMatchObject({
      type: 'Game.Money?',
      text: 'null',
    });
    expect(await valueOf(fake, 'Game.Money? x = a; (x + b).Value.Amount', options)).toMatchObject({
      text: '5',
    });
  });

  it('refuses an operator no type defines (CS0019)', async () => {
    expect(await refusal(fake, 'a * b', options)).toMatchObject({ csCode: 'CS0019' });
  });

  it('compares class references by identity when there is no op_Equality', async () => {
    expect((await valueOf(fake, 'd == e', options)).text).toBe('False');
    expect((await valueOf(fake, 'var x = d; x == d', options)).text).toBe('True');
    expect((await valueOf(fake, 'd != null', options)).text).toBe('True');
  });
});

describe('conversions', () => {
  it('converts implicitly with op_Implicit', async () => {
    const r = await valueOf(fake, 'Game.Money m = 5; m.Amount');
    expect(r.text).toBe('5');
    expect(fake.effects()).toEqual(['invoke Game.Money.op_Implicit']);
    expect((await valueOf(fake, 'double x = d; x', options)).text).toBe('2');
  });

  it('converts explicitly with op_Explicit, and refuses it implicitly (CS0266)', async () => {
    expect(await valueOf(fake, '(int)a', options)).toMatchObject({ type: 'int', text: '2' });
    expect(await refusal(fake, 'int i = a; i', options)).toMatchObject({ csCode: 'CS0266' });
  });

  it('converts to a wider type after op_Implicit', async () => {
    expect(await valueOf(fake, 'object o = (Game.Money)7; ((Game.Money)o).Amount')).toMatchObject({
      text: '7',
    });
    expect(await valueOf(fake, '(long)a', options)).toMatchObject({ type: 'long', text: '2' });
  });

  // §12.4.5: with no user-defined operator on Meters, the predefined double + double applies,
  // its operand converted by op_Implicit (mcs: m + 1.5 is a double, 3.5)
  it('converts an operand with op_Implicit to reach a predefined operator', async () => {
    expect(await valueOf(fake, 'd + 1.5', options)).toMatchObject({ type: 'double', text: '3.5' });
  });
});
