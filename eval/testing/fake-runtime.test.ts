// The fake game answers as the debugger bridge does: the evaluator's unit tests are only as
// good as this. Declared-only members, field order, assignability, generics, calls.

import { beforeEach, describe, expect, it } from 'vitest';
import { NULL, num, str } from '../values.js';
import { FakeRuntime, int, numberOf } from './fake-runtime.js';

let fake: FakeRuntime;
const md = () => fake.metadata;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.interface('Game.INamed');
  fake.interface('Game.IPet', { interfaces: ['Game.INamed'] });
  fake.class('Game.Animal', {
    interfaces: ['Game.IPet'],
    fields: { Legs: 'int', Census: { type: 'int', static: true }, Weight: 'double' },
    methods: { Speak: { returns: 'string', virtual: true, impl: () => str('...') } },
  });
  fake.class('Game.Dog', {
    base: 'Game.Animal',
    methods: { Speak: { returns: 'string', virtual: true, impl: () => str('woof') } },
  });
  fake.struct('Game.Vec', { fields: { X: 'int', Y: 'float' }, properties: { Tag: 'string' } });
  fake.class('Game.Box`1', { typeParams: ['T'], fields: { Value: 'T' } });
  fake.class('Game.Util', {
    methods: {
      Pick: { static: true, generic: ['T'], params: ['T a', 'T[] rest'], returns: 'T' },
    },
  });
});

describe('metadata', () => {
  it('names the primitives by their reflection names, with keyword spellings in specs', async () => {
    const d = await md().describe(fake.type('int'));
    expect(d).toMatchObject({ fullName: 'System.Int32', namespace: 'System', kind: 'struct' });
    expect((await md().describe(d.baseType!)).fullName).toBe('System.ValueType');
    expect(await md().findType('System.String')).toEqual(fake.type('string'));
  });

  it('lists only members declared on the type itself', async () => {
    const dog = fake.type('Game.Dog');
    expect((await md().members(dog, 'Legs')).fields).toEqual([]);
    expect((await md().members(dog, 'Speak')).methods).toHaveLength(1);
    expect((await md().members(fake.type('Game.Animal'), 'Legs')).fields).toHaveLength(1);
  });

  it('lists fields in declaration order with statics, and backing fields of auto-properties', async () => {
    const names = (await md().allFields(fake.type('Game.Animal'))).map((f) => f.name);
    expect(names).toEqual(['Legs', 'Census', 'Weight']);
    const vec = (await md().allFields(fake.type('Game.Vec'))).map((f) => f.name);
    expect(vec).toEqual(['X', 'Y', '<Tag>k__BackingField']);
  });

  it('answers assignability by identity, base classes, interfaces, boxing and array covariance', async () => {
    const t = (s: string) => fake.type(s);
    const yes = [
      ['Game.Animal', 'Game.Dog'],
      ['Game.INamed', 'Game.Dog'],
      ['object', 'Game.Vec'],
      ['System.ValueType', 'int'],
      ['Game.Animal[]', 'Game.Dog[]'],
      ['System.Array', 'int[]'],
    ];
    for (const [to, from] of yes) expect(await md().isAssignable(t(to!), t(from!))).toBe(true);
    const no = [
      ['Game.Dog', 'Game.Animal'],
      ['long', 'int'],
      ['object[]', 'int[]'],
      ['int?', 'int'],
    ];
    for (const [to, from] of no) expect(await md().isAssignable(t(to!), t(from!))).toBe(false);
    expect(await md().interfaces(t('Game.Dog'))).toEqual([t('Game.IPet'), t('Game.INamed')]);
  });

  it('finds plain names only, and types by simple name and namespace', async () => {
    expect(await md().findType('Game.Box`1')).toBeDefined();
    expect(await md().findType('Game.Box`1[[System.Int32, mscorlib]]')).toBeUndefined();
    expect(await md().typesNamed('Dog')).toEqual([fake.type('Game.Dog')]);
    expect(await md().hasNamespace('Game')).toBe(true);
    expect(await md().hasNamespace('Gam')).toBe(false);
  });

  it('closes generic types with substituted members and a reflection name', async () => {
    const box = await md().constructGeneric(fake.type('Game.Box`1'), [fake.type('int')]);
    expect(box).toBe(fake.type('Game.Box<int>'));
    const d = await md().describe(box);
    expect(d.fullName).toBe('Game.Box`1[[System.Int32, mscorlib]]');
    expect((await md().members(box, 'Value')).fields[0]!.type).toEqual(fake.type('int'));
    expect(fake.reflectionName(box)).toBe('Game.Box`1[System.Int32]');
  });

  it('instantiates generic methods, type parameters included in parameter types', async () => {
    const [pick] = (await md().members(fake.type('Game.Util'), 'Pick')).methods;
    const [tp] = pick!.genericParameterTypes!;
    expect(pick!.parameters.map((p) => p.type)).toEqual([tp, fake.metadata.array(tp!, 1)]);
    const closed = await md().instantiateMethod(pick!, [fake.type('long')]);
    expect(closed.genericArity).toBe(0);
    expect(closed.parameters.map((p) => p.type)).toEqual([fake.type('long'), fake.type('long[]')]);
    expect(closed.returnType).toEqual(fake.type('long'));
  });
});

describe('game', () => {
  it('dispatches virtual calls on the run-time type', async () => {
    const [speak] = (await md().members(fake.type('Game.Animal'), 'Speak')).methods;
    const dog = fake.new('Game.Dog');
    const call = (virtual: boolean) =>
      fake.game.invoke(speak!, dog, [], { virtual, outThis: false, outArgs: false });
    expect((await call(true)).result).toEqual(str('woof'));
    expect((await call(false)).result).toEqual(str('...'));
  });

  it('returns a mutated struct receiver only when asked', async () => {
    const [setter] = (await md().members(fake.type('Game.Vec'), 'set_Tag')).methods;
    const vec = fake.new('Game.Vec');
    const asked = await fake.game.invoke(setter!, vec, [str('t')], {
      virtual: false,
      outThis: true,
      outArgs: false,
    });
    expect(fake.get(asked.outThis!, 'Tag')).toEqual(str('t'));
    const notAsked = await fake.game.invoke(setter!, vec, [str('t')], {
      virtual: false,
      outThis: false,
      outArgs: false,
    });
    expect(notAsked.outThis).toBeUndefined();
  });

  it('keeps objects in the heap with every instance field of the chain, defaulted', () => {
    const dog = fake.new('Game.Dog', { Legs: int(4) });
    expect(fake.get(dog, 'Legs')).toEqual(int(4));
    expect(fake.get(dog, 'Weight')).toEqual(num('double', 0));
    expect(fake.game.defaultOf(fake.type('Game.Vec'))).toEqual({
      kind: 'struct',
      type: fake.type('Game.Vec'),
      fields: [int(0), num('float', 0), NULL],
    });
    expect(fake.game.defaultOf(fake.type('int?'))).toEqual(NULL);
  });

  it('logs every access, and counts invokes, writes and allocations as effects', async () => {
    const dog = fake.new('Game.Dog');
    const [legs] = (await md().members(fake.type('Game.Animal'), 'Legs')).fields;
    await fake.game.readField(dog, legs!);
    await fake.game.writeField(dog, legs!, int(3));
    await fake.game.newArray(fake.type('int'), [2]);
    expect(fake.log).toEqual([
      'readField Game.Animal.Legs',
      'writeField Game.Animal.Legs',
      'newArray System.Int32[2]',
    ]);
    expect(fake.effects()).toEqual(['writeField Game.Animal.Legs', 'newArray System.Int32[2]']);
    expect(numberOf(fake.get(dog, 'Legs'))).toBe(3);
  });
});
