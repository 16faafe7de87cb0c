// Prepared programs over a fake game: a program bound in one scope shape runs again without
// being bound (no metadata asked), with this run's values; another shape (a name's type, a name
// that now hides a member, `this`) binds anew; refusals are never kept; a bare variable is read
// as the interpreter would give it; readsOnly tells programs that only read.

import { beforeEach, describe, expect, it } from 'vitest';
import { EvalError, evaluate, prepare, run, type EvaluateOptions } from './evaluate.js';
import { ProgramCache, readsOnly, shapeKey } from './program-cache.js';
import type { EvalScope, ScopeVariable } from './interpret/scope.js';
import type { MetadataProvider, Runtime } from './runtime.js';
import type { EvalValue } from './values.js';
import { FakeRuntime, int } from './testing/fake-runtime.js';

let fake: FakeRuntime;
/** The fake game, with every metadata call counted (binding asks, running a bound program less). */
let counted: Runtime;
let metadataCalls: number;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.class('Game.Unit', {
    fields: { Health: 'int', Count: { type: 'int', static: true } },
  });
  fake.setStatic('Game.Unit', 'Count', int(9));
  metadataCalls = 0;
  const metadata = new Proxy(fake.metadata, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        metadataCalls++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as MetadataProvider;
  counted = { metadata, game: fake.game };
});

const variable = (type: string, value: EvalValue): ScopeVariable => ({
  type: fake.type(type),
  read: () => Promise.resolve(value),
});

function inScope(
  programs: ProgramCache,
  variables: Record<string, ScopeVariable>,
  self?: ScopeVariable,
): EvaluateOptions {
  const scope: EvalScope = {
    variables: new Map(Object.entries(variables)),
    enclosingType: fake.type('Game.Unit'),
    ...(self ? { self } : {}),
  };
  return { usings: ['System'], anyNamespace: false, scope, programs };
}

async function textOf(source: string, options: EvaluateOptions): Promise<string> {
  const r = await evaluate(source, counted, options);
  if (r.kind !== 'value') throw new Error(`expected a value from ${source}, got ${r.kind}`);
  return r.text;
}

describe('a program cache', () => {
  it('binds a program once per scope shape and runs it with each run’s values', async () => {
    const programs = new ProgramCache();
    expect(await textOf('hp * 2 + Count', inScope(programs, { hp: variable('int', int(5)) }))).toBe(
      '19',
    );
    expect(programs.stats).toMatchObject({ hits: 0, misses: 1 });
    const before = metadataCalls;
    // the same shape, another value: not bound again, the new value is read
    expect(await textOf('hp * 2 + Count', inScope(programs, { hp: variable('int', int(7)) }))).toBe(
      '23',
    );
    expect(programs.stats).toMatchObject({ hits: 1, misses: 1 });
    expect(programs.size).toBe(1);
    // the binding pass is what asks the metadata most: a hit asks less than the bind did
    const hitCalls = metadataCalls - before;
    const uncached = metadataCalls;
    await textOf('hp * 2 + Count', {
      ...inScope(programs, { hp: variable('int', int(7)) }),
      programs: undefined,
    });
    expect(hitCalls).toBeLessThan(metadataCalls - uncached);
  });

  it('binds anew when a name’s type differs or a variable hides a member', async () => {
    const programs = new ProgramCache();
    expect(await textOf('hp + 1', inScope(programs, { hp: variable('int', int(1)) }))).toBe('2');
    // hp is a long now: another shape, whose sum is a long
    const r = await evaluate(
      'hp + 1',
      counted,
      inScope(programs, { hp: variable('long', int(1)) }),
    );
    expect(r).toMatchObject({ kind: 'value', type: 'long' });
    expect(programs.stats).toMatchObject({ hits: 0, misses: 2 });
    // Count is the static, then a local that hides it
    expect(await textOf('Count', inScope(programs, {}))).toBe('9');
    expect(await textOf('Count', inScope(programs, { Count: variable('int', int(4)) }))).toBe('4');
    expect(await textOf('Count', inScope(programs, {}))).toBe('9');
    expect(programs.stats).toMatchObject({ hits: 1, misses: 4 });
    // `this` present or not is part of the shape: Health needs one (CS0120 without)
    const unit = fake.new('Game.Unit', { Health: int(100) });
    expect(await textOf('Health', inScope(programs, {}, variable('Game.Unit', unit)))).toBe('100');
    await expect(evaluate('Health', counted, inScope(programs, {}))).rejects.toMatchObject({
      code: 'EVAL_COMPILE',
      csCode: 'CS0120',
    });
  });

  it('never keeps a refusal: a name that was missing binds once it is in scope', async () => {
    const programs = new ProgramCache();
    for (let i = 0; i < 2; i++)
      await expect(evaluate('later + 1', counted, inScope(programs, {}))).rejects.toMatchObject({
        code: 'EVAL_COMPILE',
        csCode: 'CS0103',
      });
    await expect(evaluate('1 +', counted, inScope(programs, {}))).rejects.toBeInstanceOf(EvalError);
    expect(programs.size).toBe(0);
    expect(programs.stats).toMatchObject({ hits: 0, misses: 0 });
    expect(await textOf('later + 1', inScope(programs, { later: variable('int', int(2)) }))).toBe(
      '3',
    );
    expect(programs.stats).toMatchObject({ hits: 0, misses: 1 });
  });

  it('refuses to run a prepared program in a scope of another shape', async () => {
    const o = inScope(new ProgramCache(), { hp: variable('int', int(1)) });
    const p = await prepare('hp', counted, o);
    expect(await run(p, counted, o)).toMatchObject({ kind: 'value', text: '1' });
    await expect(
      run(p, counted, inScope(new ProgramCache(), { hp: variable('string', fake.string('a')) })),
    ).rejects.toMatchObject({ code: 'EVAL_UNSUPPORTED' });
  });

  it('drops the least recently used program beyond its capacity', async () => {
    const programs = new ProgramCache(2);
    const o = inScope(programs, { a: variable('int', int(1)) });
    await textOf('a + 1', o);
    await textOf('a + 2', o);
    await textOf('a + 1', o); // used again: a + 2 is now the oldest
    await textOf('a + 3', o);
    expect(programs.size).toBe(2);
    expect(programs.stats.evicted).toBe(1);
    await textOf('a + 1', o);
    expect(programs.stats).toMatchObject({ hits: 2, misses: 3 });
    expect(() => new ProgramCache(0)).toThrow(RangeError);
  });

  it('reads a bare variable as the interpreter gives it (type, value, text)', async () => {
    const vars = {
      n: variable('long', { kind: 'number', type: 'long', value: 12n }),
      s: variable('string', fake.string('hi')),
      u: variable('Game.Unit', fake.new('Game.Unit', { Health: int(3) })),
    };
    for (const name of Object.keys(vars)) {
      const programs = new ProgramCache();
      const p = await prepare(name, counted, inScope(programs, vars));
      expect(p.variable).toBe(name);
      const direct = await run(p, counted, inScope(programs, vars));
      // `(n)` is not a bare name: the interpreter runs it
      const interpreted = await evaluate(`(${name})`, counted, inScope(new ProgramCache(), vars));
      expect(direct).toEqual(interpreted);
    }
    // a bare name that is no variable of the scope is bound as usual
    const p = await prepare('Count', counted, inScope(new ProgramCache(), vars));
    expect(p.variable).toBeUndefined();
  });

  it('keys a shape by everything binding reads', () => {
    const a = inScope(new ProgramCache(), { x: variable('int', int(1)) });
    const settings = (o: EvaluateOptions) => ({
      usings: o.usings ?? [],
      anyNamespace: o.anyNamespace ?? true,
      ...(o.scope ? { scope: o.scope } : {}),
    });
    const writable = inScope(new ProgramCache(), {
      x: { ...variable('int', int(1)), write: () => Promise.resolve() },
    });
    expect(shapeKey('x', settings(a))).toBe(
      shapeKey('x', settings(inScope(new ProgramCache(), { x: variable('int', int(2)) }))),
    );
    expect(shapeKey('x', settings(a))).not.toBe(shapeKey('x', settings(writable)));
    expect(shapeKey('x', settings(a))).not.toBe(shapeKey('x ', settings(a)));
    expect(shapeKey('x', settings(a))).not.toBe(
      shapeKey('x', { ...settings(a), usings: ['System', 'UnityEngine'] }),
    );
  });
});

describe('readsOnly', () => {
  it('accepts names, accesses, operators, casts, tests and interpolation', () => {
    for (const code of [
      'frame',
      'Wave',
      'transform.position.x * 2 + list[3]',
      '$"{a} and {b.c:F2}"',
      '(int)x > 0 ? -y : ~z',
      'a ?? b is string',
      'typeof(List<int>) == t',
      'x!',
    ])
      expect(readsOnly(code), code).toBe(true);
  });

  it('refuses calls, assignments, increments, creation, lambdas, statements and bad syntax', () => {
    for (const code of [
      'Foo()',
      'a.b.Tick()',
      'x = 1',
      'x += 1',
      'x++',
      '--x',
      'new Vector3(1, 2, 3)',
      'new[] { 1 }',
      'new { a = 1 }',
      'list.Where(x => x > 1)',
      'a; b',
      'var x = 1',
      '1 +',
      '',
    ])
      expect(readsOnly(code), code).toBe(false);
  });

  it('is remembered per source by a cache', () => {
    const programs = new ProgramCache();
    expect(programs.readsOnly('a.b')).toBe(true);
    expect(programs.readsOnly('a.b()')).toBe(false);
    expect(programs.readsOnly('a.b')).toBe(true);
  });
});
