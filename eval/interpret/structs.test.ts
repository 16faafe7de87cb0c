// Struct semantics: values are copies; a write to a field of a struct that is a variable (a
// local, a field, an array element, nested to any depth) is written back where it lives; a
// mutating method on such a variable writes its receiver back (the game's outThis); a struct
// that is only a value (a property's result) is changed nowhere.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../evaluate.js';
import { builtins, refusal, runs, valueOf } from '../testing/eval-helpers.js';
import { FakeRuntime, int, numberOf, type Call } from '../testing/fake-runtime.js';
import type { EvalValue } from '../values.js';

let fake: FakeRuntime;
let ship: EvalValue;
let options: EvaluateOptions;

/** Vec.Move(dx, dy): X += dx; Y += dy on the receiver. */
function move(c: Call): void {
  const [dx, dy] = c.args.map(numberOf);
  const moved = c.fake.set(c.self!, 'X', int(numberOf(c.fake.get(c.self!, 'X')) + dx!));
  c.setThis(c.fake.set(moved, 'Y', int(numberOf(c.fake.get(moved, 'Y')) + dy!)));
}

const vec = (x: number, y: number) => fake.new('Game.Vec', { X: int(x), Y: int(y) });
const xy = (v: EvalValue) => [numberOf(fake.get(v, 'X')), numberOf(fake.get(v, 'Y'))];

beforeEach(() => {
  fake = new FakeRuntime();
  fake.struct('Game.Vec', {
    fields: { X: 'int', Y: 'int' },
    properties: { Tag: 'string' },
    ctors: [
      {
        params: ['int x', 'int y'],
        impl: (c) => c.setThis(c.fake.set(c.fake.set(c.self!, 'X', c.args[0]!), 'Y', c.args[1]!)),
      },
    ],
    methods: {
      Move: { params: ['int dx', 'int dy'], impl: move },
      Sum: { returns: 'int', impl: (c) => int(xy(c.self!).reduce((a, b) => a + b)) },
    },
  });
  fake.struct('Game.Body', { fields: { Mass: 'int', Pos: 'Game.Vec' } });
  fake.class('Game.Ship', {
    fields: {
      Body: 'Game.Body',
      Pos: 'Game.Vec',
      Anchor: { type: 'Game.Vec', readonly: true },
      Path: 'Game.Vec[]',
      Origin: { type: 'Game.Vec', static: true },
      Home: { type: 'Game.Vec', static: true, readonly: true },
      Frame: { type: 'Game.Body', readonly: true },
    },
    properties: {
      PosProp: {
        type: 'Game.Vec',
        get: (c) => c.fake.get(c.self!, 'Pos'),
        set: (c, v) => void c.fake.set(c.self!, 'Pos', v),
      },
    },
  });
  ship = fake.new('Game.Ship', { Path: fake.array('Game.Vec', [vec(0, 0), vec(1, 1)]) });
  options = { builtins: builtins(fake, { s: ship }) };
});

describe('copies', () => {
  it('copies a struct on assignment', async () => {
    const r = await valueOf(fake, 'var a = new Game.Vec(); a.X = 1; var b = a; b.X = 2; a');
    expect(r).toMatchObject({ type: 'Game.Vec', text: 'Game.Vec { X = 1, Y = 0 }' });
  });

  it('zeroes a struct for default and for new without arguments', async () => {
    expect((await valueOf(fake, 'default(Game.Body)')).text).toBe(
      'Game.Body { Mass = 0, Pos = Game.Vec { X = 0, Y = 0 } }',
    );
    expect(fake.effects()).toEqual([]);
  });

  it('runs a struct constructor on a zeroed value', async () => {
    expect((await valueOf(fake, 'new Game.Vec(3, 4).Sum()')).text).toBe('7');
  });

  it('boxes a copy: later writes do not change it', async () => {
    const r = await valueOf(
      fake,
      'var v = new Game.Vec(1, 1); object o = v; v.X = 9; ((Game.Vec)o).X',
    );
    expect(r.text).toBe('1');
  });
});

describe('writes into struct variables', () => {
  it('writes a field of a struct field of an object', async () => {
    await valueOf(fake, 's.Pos.X = 5', options);
    expect(xy(fake.get(ship, 'Pos'))).toEqual([5, 0]);
    expect(fake.effects()).toEqual(['writeField Game.Ship.Pos']);
  });

  it('writes through nested struct fields', async () => {
    await valueOf(fake, 's.Body.Pos.Y = 6; s.Body.Mass += 2', options);
    const body = fake.get(ship, 'Body');
    expect(xy(fake.get(body, 'Pos'))).toEqual([0, 6]);
    expect(fake.get(body, 'Mass')).toEqual(int(2));
  });

  it('writes a field of a struct array element', async () => {
    await valueOf(fake, 's.Path[1].Y = 7', options);
    expect(fake.elements(fake.get(ship, 'Path')).map(xy)).toEqual([
      [0, 0],
      [1, 7],
    ]);
  });

  it('writes a field of a static struct field', async () => {
    await valueOf(fake, 'Game.Ship.Origin.X = 3');
    expect(xy(fake.static('Game.Ship', 'Origin'))).toEqual([3, 0]);
  });

  it('writes a field of a local copy only', async () => {
    const r = await valueOf(fake, 'var p = s.Pos; p.X = 4; s.Pos.X', options);
    expect(r.text).toBe('0');
    expect(fake.effects()).toEqual([]);
  });

  it('refuses a field write on a property result (CS1612)', async () => {
    expect(await refusal(fake, 's.PosProp.X = 1', options)).toMatchObject({ csCode: 'CS1612' });
  });

  // mcs and Roslyn refuse a property or indexer set on a struct that is not a variable too
  it('refuses a property write on a property result (CS1612)', async () => {
    expect(await refusal(fake, 's.PosProp.Tag = "t"', options)).toMatchObject({ csCode: 'CS1612' });
    expect(fake.effects()).toEqual([]);
  });
});

describe('mutating methods', () => {
  it('writes the receiver back into a field, an element and a local', async () => {
    const r = await valueOf(
      fake,
      's.Pos.Move(1, 2); s.Path[0].Move(3, 3); var v = s.Pos; v.Move(10, 0); v.X',
      options,
    );
    expect(r.text).toBe('11');
    expect(xy(fake.get(ship, 'Pos'))).toEqual([1, 2]);
    expect(xy(fake.elements(fake.get(ship, 'Path'))[0]!)).toEqual([3, 3]);
  });

  it('writes the receiver back through nested struct fields', async () => {
    await runs(fake, 's.Body.Pos.Move(2, 2)', options);
    expect(xy(fake.get(fake.get(ship, 'Body'), 'Pos'))).toEqual([2, 2]);
  });

  it('runs a struct property setter on the variable', async () => {
    await valueOf(fake, 's.Pos.Tag = "t"', options);
    expect(fake.text(fake.get(fake.get(ship, 'Pos'), 'Tag'))).toBe('t');
    // the setter changed a copy, written back as a field: that write is the game's change
    expect(fake.game.propertySets).toEqual([]);
    expect(fake.effects()).toEqual(['invoke Game.Vec.set_Tag', 'writeField Game.Ship.Pos']);
  });

  it('says a setter on an object is a property set, one on a struct value is not', async () => {
    await valueOf(fake, 'var v = s.Pos; v.Tag = "local"; s.PosProp = v', options);
    expect(fake.game.propertySets).toEqual(['set_PosProp (PosProp)']);
  });

  it('changes only a copy when the receiver is a property result', async () => {
    const r = await valueOf(fake, 's.PosProp.Move(1, 1); s.Pos.X', options);
    expect(r.text).toBe('0');
    expect(fake.effects()).toEqual(['invoke Game.Ship.get_PosProp', 'invoke Game.Vec.Move']);
  });

  it('does not write back a call that does not change the receiver', async () => {
    expect((await valueOf(fake, 's.Pos.Sum()', options)).text).toBe('0');
    expect(fake.effects()).toEqual(['invoke Game.Vec.Sum']);
  });

  // C# (ECMA-334 §12.8.7): a readonly field outside a constructor is a value, not a variable:
  // a method is called on a copy, and assigning a member is CS1648 (mcs agrees)
  it('changes only a copy when the receiver is a readonly field', async () => {
    const r = await valueOf(fake, 's.Anchor.Move(1, 1); s.Anchor.X', options);
    expect(r.text).toBe('0');
    expect(xy(fake.get(ship, 'Anchor'))).toEqual([0, 0]);
  });

  it('refuses assigning a member of a readonly struct field (CS1648)', async () => {
    expect(await refusal(fake, 's.Anchor.X = 1', options)).toMatchObject({ csCode: 'CS1648' });
    expect(xy(fake.get(ship, 'Anchor'))).toEqual([0, 0]);
  });

  // mcs: CS1648 for members of an instance readonly field, CS1650 for those of a static one,
  // however the member is written (=, op=, ++, a property's setter) and however deep
  it.each([
    ['s.Anchor.X += 1', 'CS1648'],
    ['s.Anchor.X++', 'CS1648'],
    ['s.Anchor.Tag = "t"', 'CS1648'],
    ['s.Frame.Pos.X = 1', 'CS1648'],
    ['Game.Ship.Home.X = 1', 'CS1650'],
    ['Game.Ship.Home.X += 1', 'CS1650'],
    ['--Game.Ship.Home.Y', 'CS1650'],
    ['Game.Ship.Home.Tag = "t"', 'CS1650'],
    ['Game.Ship.Home = new Game.Vec()', 'CS0198'],
    ['s.Anchor = new Game.Vec()', 'CS0191'],
  ])('refuses %s (%s)', async (source, code) => {
    expect(await refusal(fake, source, options)).toMatchObject({ csCode: code });
    expect(fake.effects().filter((e) => !e.startsWith('read'))).toEqual([]);
  });
});
