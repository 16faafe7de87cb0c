// Evaluating inside a method's scope (a debugger frame) over a fake game: the method's variables
// hide members, bare names find the members of the enclosing type, its bases and its outer
// types, then types of its namespace; `this` only where the method has one (CS0026); writes to
// a variable or to a field of a struct `this` go to the host's variable.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { refusal, runs, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf, type Call } from '../testing/fake-runtime.js';
import type { TypeHandle } from '../runtime.js';
import type { EvalValue } from '../values.js';
import type { EvalScope, ScopeVariable } from './scope.js';

let fake: FakeRuntime;
let unit: EvalValue;

/** A host variable that records what was written to it. */
function hostVariable(type: string | TypeHandle, initial: EvalValue) {
  const v = { value: initial, writes: 0 };
  const variable: ScopeVariable = {
    type: fake.type(type),
    read: () => Promise.resolve(v.value),
    write: (value) => {
      v.value = value;
      v.writes++;
      return Promise.resolve();
    },
  };
  return Object.assign(v, { variable });
}

function inScope(
  enclosing: string,
  self: ScopeVariable | undefined,
  variables: Record<string, ScopeVariable> = {},
): EvaluateOptions {
  const scope: EvalScope = {
    variables: new Map(Object.entries(variables)),
    enclosingType: fake.type(enclosing),
    ...(self ? { self } : {}),
  };
  return { scope };
}

const readOnly = (type: string, value: EvalValue): ScopeVariable => ({
  type: fake.type(type),
  read: () => Promise.resolve(value),
});

beforeEach(() => {
  fake = new FakeRuntime();
  fake.class('Game.Base', {
    fields: { BaseField: 'int', Shared: { type: 'int', static: true } },
    methods: { Hello: { returns: 'int', impl: () => int(5) } },
  });
  fake.class('Game.Unit', {
    base: 'Game.Base',
    fields: {
      Health: 'int',
      hidden: 'int',
      Limit: { type: 'int', const: int(42) },
      Count: { type: 'int', static: true },
    },
    properties: {
      Doubled: { type: 'int', get: (c) => int(2 * numberOf(c.fake.get(c.self!, 'Health'))) },
    },
    methods: {
      Scale: {
        params: ['int k'],
        returns: 'int',
        impl: (c) => int(numberOf(c.fake.get(c.self!, 'Health')) * numberOf(c.args[0])),
      },
      Twice: {
        static: true,
        params: ['int k'],
        returns: 'int',
        impl: (c) => int(2 * numberOf(c.args[0])),
      },
      // one name, a static and an instance overload: a bare call may pick either
      Mix: [
        { static: true, params: ['int k'], returns: 'int', impl: (c) => int(numberOf(c.args[0])) },
        {
          params: ['long k'],
          returns: 'int',
          impl: (c) => int(numberOf(c.fake.get(c.self!, 'Health')) + numberOf(c.args[0])),
        },
      ],
    },
  });
  fake.class('Game.Unit+Part', { fields: { N: { type: 'int', const: int(3) } } });
  fake.class('Game.Unit+Part+Leaf');
  fake.class('Game.Helper', { fields: { Id: { type: 'int', const: int(1) } } });
  fake.class('Other.Helper', { fields: { Id: { type: 'int', const: int(2) } } });
  fake.struct('Game.Spot', {
    fields: { X: 'int', Y: 'int' },
    methods: {
      Grow: {
        params: ['int d'],
        impl: (c: Call) => {
          const x = c.fake.set(
            c.self!,
            'X',
            int(numberOf(c.fake.get(c.self!, 'X')) + numberOf(c.args[0])),
          );
          c.setThis(x);
        },
      },
    },
  });
  unit = fake.new('Game.Unit', { Health: int(100), hidden: int(1), BaseField: int(7) });
  fake.setStatic('Game.Unit', 'Count', int(9));
  fake.setStatic('Game.Base', 'Shared', int(70));
});

describe('bare names in an instance method', () => {
  it('find fields, properties, methods of `this` and its bases, statics and consts', async () => {
    const o = inScope('Game.Unit', readOnly('Game.Unit', unit));
    for (const [code, text] of [
      ['Health', '100'],
      ['Doubled', '200'],
      ['Scale(3)', '300'],
      ['Twice(4)', '8'],
      ['BaseField', '7'],
      ['Hello()', '5'],
      ['Shared', '70'],
      ['Limit', '42'],
      ['Count', '9'],
      ['this.Health + Health', '200'],
      ['Mix(1)', '1'],
      ['Mix(1L)', '101'],
    ])
      expect((await valueOf(fake, code!, o)).text, code).toBe(text);
  });

  it('let parameters and locals hide members, and refuse redeclaring them (CS0136)', async () => {
    const o = inScope('Game.Unit', readOnly('Game.Unit', unit), {
      hidden: readOnly('int', int(2)),
    });
    expect((await valueOf(fake, 'hidden', o)).text).toBe('2');
    expect((await valueOf(fake, 'this.hidden', o)).text).toBe('1');
    expect(await refusal(fake, 'var hidden = 3; hidden', o)).toMatchObject({ csCode: 'CS0136' });
  });

  it('find nested types of the enclosing type and of its outer types, then its namespace', async () => {
    const o = { ...inScope('Game.Unit+Part', undefined), anyNamespace: false };
    expect((await valueOf(fake, 'Part.N + N', o)).text).toBe('6');
    expect((await valueOf(fake, 'typeof(Leaf) == typeof(Game.Unit.Part.Leaf)', o)).text).toBe(
      'True',
    );
    // Game.Helper, not Other.Helper: the enclosing namespace comes first
    expect((await valueOf(fake, 'Helper.Id', { ...o, usings: ['Other'] })).text).toBe('1');
  });

  it('write a bare field of a class `this` to the object', async () => {
    await runs(fake, 'Health = 150', inScope('Game.Unit', readOnly('Game.Unit', unit)));
    expect(fake.get(unit, 'Health')).toMatchObject({ value: 150 });
  });
});

describe('a static method', () => {
  it('has no `this` (CS0026), refuses instance members (CS0120), reads statics', async () => {
    const o = inScope('Game.Unit', undefined);
    expect(await refusal(fake, 'this', o)).toMatchObject({ csCode: 'CS0026' });
    expect(await refusal(fake, 'Health', o)).toMatchObject({ csCode: 'CS0120' });
    expect(await refusal(fake, 'Scale(1)', o)).toMatchObject({ csCode: 'CS0120' });
    expect((await valueOf(fake, 'Limit + Twice(1) + Count', o)).text).toBe('53');
  });

  it('outside any method, `this` is CS0026 as before', async () => {
    expect(await refusal(fake, 'this')).toMatchObject({ csCode: 'CS0026' });
  });
});

describe('a struct method', () => {
  it('writes a field of `this` and a `this` a method mutated to the host', async () => {
    const self = hostVariable('Game.Spot', fake.new('Game.Spot', { X: int(1), Y: int(2) }));
    const o = inScope('Game.Spot', self.variable);
    expect((await valueOf(fake, 'X = 50; X + Y', o)).text).toBe('52');
    expect(self.writes).toBe(1);
    expect(numberOf(fake.get(self.value, 'X'))).toBe(50);
    await runs(fake, 'Grow(5)', o);
    expect(numberOf(fake.get(self.value, 'X'))).toBe(55);
  });

  it('writes a struct local a mutating method is called on, and a parameter', async () => {
    const p = hostVariable('Game.Spot', fake.new('Game.Spot', { X: int(1), Y: int(2) }));
    const n = hostVariable('int', int(4));
    const o = inScope('Game.Unit', readOnly('Game.Unit', unit), {
      p: p.variable,
      n: n.variable,
    });
    await runs(fake, 'p.Grow(n); n = 7', o);
    expect(numberOf(fake.get(p.value, 'X'))).toBe(5);
    expect(n.value).toMatchObject({ value: 7 });
  });
});
