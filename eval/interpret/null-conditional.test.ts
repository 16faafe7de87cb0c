// `?.` and `?[` (a null receiver makes the rest of the chain null, running nothing of it; a
// value-type result becomes Nullable), `??` (the right side runs only when needed) and `??=`.

import { beforeEach, describe, expect, it } from 'vitest';
import { evaluate, type EvaluateOptions } from '../evaluate.js';
import { builtins, exceptionOf, refusal, runs, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int } from '../testing/fake-runtime.js';
import { str, type EvalValue } from '../values.js';

let fake: FakeRuntime;
let n: EvalValue;
let options: EvaluateOptions;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.struct('Game.Vec', { fields: { X: 'int' } });
  fake.class('Game.Node', {
    fields: { Value: 'int', Next: 'Game.Node', Name: 'string', Items: 'int[]', Pos: 'Game.Vec' },
    properties: { Label: 'string' },
    methods: {
      Count: { returns: 'int', impl: () => int(5) },
      MakeName: { returns: 'string', impl: () => str('made') },
      Touch: {},
    },
  });
  n = fake.new('Game.Node', {
    Value: int(3),
    Name: str('abc'),
    Items: fake.array('int', [int(1), int(2)]),
  });
  options = { builtins: builtins(fake, { n }) };
});

describe('?. and ?[', () => {
  it('is null when the receiver is null, typed Nullable for a value type', async () => {
    expect(await valueOf(fake, 'n.Next?.Value', options)).toMatchObject({
      type: 'int?',
      text: 'null',
    });
    expect(await valueOf(fake, 'n?.Value', options)).toMatchObject({ type: 'int?', text: '3' });
    expect(await valueOf(fake, 'n.Next?.Pos', options)).toMatchObject({ type: 'Game.Vec?' });
  });

  it('keeps a reference type as it is', async () => {
    expect(await valueOf(fake, 'n.Next?.Name', options)).toMatchObject({
      type: 'string',
      text: 'null',
    });
    expect(await valueOf(fake, 'n?.Name', options)).toMatchObject({ text: '"abc"' });
  });

  it('short-circuits the whole rest of the chain', async () => {
    expect(await valueOf(fake, 'n.Next?.Next.Next.Value', options)).toMatchObject({
      type: 'int?',
      text: 'null',
    });
    expect(await valueOf(fake, 'n.Next?.Name.Length', options)).toMatchObject({
      type: 'int?',
      text: 'null',
    });
    expect(await valueOf(fake, 'n?.Name.Length', options)).toMatchObject({ text: '3' });
  });

  it('runs nothing of a short-circuited chain', async () => {
    expect(await valueOf(fake, 'n.Next?.Count()', options)).toMatchObject({
      type: 'int?',
      text: 'null',
    });
    expect(fake.effects()).toEqual([]);
  });

  it('still throws for a null met after the conditional access', async () => {
    expect(await exceptionOf(fake, 'n?.Next.Value', options)).toMatchObject({
      type: 'System.NullReferenceException',
    });
  });

  it('ends the chain at parentheses', async () => {
    expect(await exceptionOf(fake, '(n.Next?.Next).Value', options)).toMatchObject({
      type: 'System.NullReferenceException',
    });
  });

  it('indexes conditionally with ?[', async () => {
    expect(await valueOf(fake, 'n.Items?[1]', options)).toMatchObject({ type: 'int?', text: '2' });
    expect(await valueOf(fake, 'n.Next?.Items[0]', options)).toMatchObject({ text: 'null' });
    expect(await valueOf(fake, 'n.Next?.Items?[0] ?? -1', options)).toMatchObject({
      type: 'int',
      text: '-1',
    });
  });

  it('calls a void method only on a non-null receiver', async () => {
    await runs(fake, 'n.Next?.Touch(); n?.Touch()', options);
    expect(fake.effects()).toEqual(['invoke Game.Node.Touch']);
  });

  // C# types `a?.M()` for a void M as void (§12.8.8): only a non-nullable value type T of the
  // result becomes T?
  it('gives a void call through ?. no value', async () => {
    expect(await evaluate('n.Next?.Touch()', fake, options)).toEqual({ kind: 'void' });
  });

  it('refuses ?. on a non-nullable value (CS0023) and as an assignment target', async () => {
    expect(await refusal(fake, 'n.Value?.ToString()', options)).toMatchObject({ csCode: 'CS0023' });
    // C# 9 has no null-conditional assignment; the parser already refuses it
    expect((await refusal(fake, 'n?.Value = 1', options)).message).toContain("'='");
  });
});

describe('??', () => {
  it('takes the right side only for a null left side', async () => {
    expect((await valueOf(fake, 'n.Next?.Name ?? "none"', options)).text).toBe('"none"');
    expect((await valueOf(fake, 'n.Name ?? n.MakeName()', options)).text).toBe('"abc"');
    expect(fake.effects()).toEqual([]);
    expect((await valueOf(fake, 'n.Next ?? n', options)).type).toBe('Game.Node');
  });

  it('unwraps a Nullable left side, or converts to the right side type', async () => {
    expect(await valueOf(fake, 'int? x = null; x ?? 5', options)).toMatchObject({
      type: 'int',
      text: '5',
    });
    expect(await valueOf(fake, 'int? x = 2; x ?? 5L', options)).toMatchObject({
      type: 'long',
      text: '2',
    });
    expect(await valueOf(fake, 'int? x = null; int? y = null; x ?? y ?? 7')).toMatchObject({
      type: 'int',
      text: '7',
    });
  });

  it('refuses a non-nullable value on the left (CS0019)', async () => {
    expect(await refusal(fake, 'n.Value ?? 1', options)).toMatchObject({ csCode: 'CS0019' });
  });
});

describe('??=', () => {
  it('assigns a null variable, and leaves a non-null one without running the right side', async () => {
    expect((await valueOf(fake, 'n.Name = null; n.Name ??= "x"', options)).text).toBe('"x"');
    expect(fake.text(fake.get(n, 'Name'))).toBe('x');
    fake.clearLog();
    expect((await valueOf(fake, 'n.Name ??= n.MakeName()', options)).text).toBe('"x"');
    expect(fake.effects()).toEqual([]);
  });

  it('assigns through a property setter', async () => {
    await runs(fake, 'n.Label ??= "l"', options);
    expect(fake.text(fake.get(n, 'Label'))).toBe('l');
  });

  it('assigns a Nullable local', async () => {
    expect((await valueOf(fake, 'int? x = null; x ??= 5; x')).text).toBe('5');
  });

  // the result of a ??= b for a Nullable a is the underlying type (C# 8 ??= spec: "A0")
  it('gives the underlying type for a Nullable target', async () => {
    expect((await valueOf(fake, 'int? x = null; x ??= 5')).type).toBe('int');
  });

  it('refuses a non-nullable value target (CS0019)', async () => {
    expect(await refusal(fake, 'n.Value ??= 1', options)).toMatchObject({ csCode: 'CS0019' });
  });
});
