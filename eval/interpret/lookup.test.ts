// Name lookup over a fake game: locals, builtins, usings, nested types, inherited and hidden
// members, and the compiler's refusals (CS0103, CS0104, CS0117, CS1061...) with their hints.

import { beforeEach, describe, expect, it } from 'vitest';
import { builtins, refusal, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf } from '../testing/fake-runtime.js';
import { str } from '../values.js';

let fake: FakeRuntime;

beforeEach(() => {
  fake = new FakeRuntime();
  fake.class('Game.Node', {
    fields: { Value: 'int', Count: { type: 'int', static: true } },
    methods: { Describe: { returns: 'string', impl: () => str('a node') } },
  });
  fake.class('Game.Leaf', { base: 'Game.Node' });
  fake.class('Game.Base', { fields: { Tag: 'string' } });
  // `new string Tag` hides the base's field: both live in the object
  fake.class('Game.Derived', { base: 'Game.Base', fields: { Tag: 'string' } });
  fake.class('Game.Outer');
  fake.class('Game.Outer+Inner', { fields: { Depth: { type: 'int', const: int(2) } } });
  fake.enum('Game.Color', { members: { Red: 0, Green: 1 } });
  fake.enum('Other.Color', { members: { Red: 10 } });
  fake.class('Game.Util.Helper', {
    methods: {
      Twice: {
        static: true,
        params: ['int x'],
        returns: 'int',
        impl: (c) => int(2 * numberOf(c.args[0])),
      },
    },
  });
  fake.setStatic('Game.Node', 'Count', int(7));
});

describe('locals and builtins', () => {
  it('reads locals declared earlier in the program', async () => {
    expect(await valueOf(fake, 'var x = 2; int y = x * 3; y')).toMatchObject({
      type: 'int',
      text: '6',
    });
  });

  it('gives a declaration ending the program its variable as value', async () => {
    expect(await valueOf(fake, 'long n = 4')).toMatchObject({ type: 'long', text: '4' });
  });

  it('finds a local before a type of the same name', async () => {
    const r = await valueOf(fake, 'var Node = 3; Node + 1', { usings: ['Game'] });
    expect(r).toMatchObject({ type: 'int', text: '4' });
  });

  it('refuses an unassigned local (CS0165) and a second declaration (CS0128)', async () => {
    expect(await refusal(fake, 'int x; x')).toMatchObject({ csCode: 'CS0165' });
    expect(await refusal(fake, 'int x = 1; var x = 2; x')).toMatchObject({ csCode: 'CS0128' });
  });

  it('reads a builtin and refuses to assign it', async () => {
    const options = {
      builtins: builtins(fake, { world: fake.new('Game.Node', { Value: int(5) }) }),
    };
    expect(await valueOf(fake, 'world.Value', options)).toMatchObject({ text: '5' });
    expect(await refusal(fake, 'world = null', options)).toMatchObject({ csCode: 'CS0131' });
  });
});

describe('types and namespaces', () => {
  it('finds a type by its full name, through a using, and with global::', async () => {
    expect((await valueOf(fake, 'Game.Node.Count')).text).toBe('7');
    expect((await valueOf(fake, 'Node.Count', { usings: ['Game'] })).text).toBe('7');
    expect((await valueOf(fake, 'global::Game.Node.Count')).text).toBe('7');
  });

  it('finds nested types, by full name and through a using', async () => {
    expect(await valueOf(fake, 'Game.Outer.Inner.Depth')).toMatchObject({ type: 'int', text: '2' });
    expect((await valueOf(fake, 'Outer.Inner.Depth', { usings: ['Game'] })).text).toBe('2');
    const r = await valueOf(fake, 'Game.Outer.Inner x = new Game.Outer.Inner(); x');
    expect(r.type).toBe('Game.Outer.Inner');
  });

  it('refuses a name two usings import (CS0104), naming both', async () => {
    const e = await refusal(fake, 'Color.Red', { usings: ['Game', 'Other'] });
    expect(e).toMatchObject({ code: 'EVAL_COMPILE', csCode: 'CS0104' });
    expect(e.message).toContain("'Game.Color'");
    expect(e.message).toContain("'Other.Color'");
  });

  it('takes a simple name from any namespace only when enabled and unique', async () => {
    const anywhere = { usings: [], anyNamespace: true };
    expect((await valueOf(fake, 'Helper.Twice(21)', anywhere)).text).toBe('42');
    expect(await refusal(fake, 'Helper.Twice(21)', { usings: [] })).toMatchObject({
      csCode: 'CS0103',
    });
    expect(await refusal(fake, 'Color.Red', anywhere)).toMatchObject({ csCode: 'CS0104' });
  });

  it('refuses a namespace, a type or a method group used as a value (CS0118, CS0119, CS0428)', async () => {
    expect(await refusal(fake, 'Game.Util')).toMatchObject({ csCode: 'CS0118' });
    expect(await refusal(fake, 'Game.Node')).toMatchObject({ csCode: 'CS0119' });
    expect(await refusal(fake, 'new Game.Node().Describe')).toMatchObject({ csCode: 'CS0428' });
  });

  it('refuses calling what is not a method (CS1955)', async () => {
    expect(await refusal(fake, 'new Game.Node().Value()')).toMatchObject({ csCode: 'CS1955' });
    expect(await refusal(fake, 'Game.Node()')).toMatchObject({ csCode: 'CS1955' });
  });

  it('refuses a missing type in a namespace (CS0234) and in a type (CS0426)', async () => {
    expect(await refusal(fake, 'Game.Nope x = null; x')).toMatchObject({ csCode: 'CS0234' });
    expect(await refusal(fake, 'Game.Outer.Nope x = null; x')).toMatchObject({ csCode: 'CS0426' });
  });
});

describe('unknown names', () => {
  it('refuses an unknown name (CS0103), suggesting a local that differs in case', async () => {
    const e = await refusal(fake, 'var count = 1; Count + 1');
    expect(e).toMatchObject({ code: 'EVAL_COMPILE', csCode: 'CS0103' });
    expect(e.message).toContain("the name 'Count' does not exist");
    expect(e.message).toContain("did you mean 'count'?");
  });

  it('refuses a missing instance member (CS1061), suggesting a near name', async () => {
    const e = await refusal(fake, 'var n = new Game.Node(); n.Valeu');
    expect(e).toMatchObject({ csCode: 'CS1061' });
    expect(e.message).toContain("'Game.Node' does not contain a definition for 'Valeu'");
    expect(e.message).toContain("'Value'"); // the closest name, as a hint
  });

  it('refuses a missing static member (CS0117)', async () => {
    const e = await refusal(fake, 'Game.Node.Nope');
    expect(e).toMatchObject({ csCode: 'CS0117' });
    expect(e.message).toContain("'Nope'");
  });

  it('refuses an instance member through the type (CS0120) and a static one through an instance (CS0176)', async () => {
    expect(await refusal(fake, 'Game.Node.Value')).toMatchObject({ csCode: 'CS0120' });
    expect(await refusal(fake, 'new Game.Node().Count')).toMatchObject({ csCode: 'CS0176' });
    expect(await refusal(fake, 'Game.Node.Describe()')).toMatchObject({ csCode: 'CS0120' });
  });
});

describe('inherited and hidden members', () => {
  it('finds a member declared on a base type', async () => {
    const options = {
      builtins: builtins(fake, { leaf: fake.new('Game.Leaf', { Value: int(9) }) }),
    };
    expect((await valueOf(fake, 'leaf.Value', options)).text).toBe('9');
    expect((await valueOf(fake, 'leaf.Describe()', options)).text).toBe('"a node"');
  });

  it('reads the hiding field through the derived type and the hidden one through the base', async () => {
    const d = fake.new('Game.Derived');
    fake.set(d, 'Tag', str('derived'));
    fake.set(d, 'Tag', str('base'), 'Game.Base');
    const options = { builtins: builtins(fake, { d }) };
    expect((await valueOf(fake, 'd.Tag', options)).text).toBe('"derived"');
    expect((await valueOf(fake, '((Game.Base)d).Tag', options)).text).toBe('"base"');
  });
});
