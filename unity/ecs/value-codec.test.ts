import { describe, expect, it } from 'vitest';

import { Values, type Value } from '../../sdb-protocol/index.js';
import { UnityError } from '../errors.js';
import {
  float32Shortest,
  fromJson,
  patchAt,
  sameJson,
  toJson,
  toJsonMany,
  type CodecTypes,
} from './value-codec.js';
import { refusal } from '../testing/errors.js';

// type ids: 1 float3 {x,y,z}; 2 Unit {Kind, Selected, Stats}; 3 Stats {Level, Speed, Home}; 4 UnitKind enum
const names: Record<number, string[]> = {
  1: ['x', 'y', 'z'],
  2: ['Kind', 'Selected', 'Stats'],
  3: ['Level', 'Speed', 'Home'],
};
let lookups = 0;
const types: CodecTypes = {
  fieldNames: (id) => {
    lookups++;
    return Promise.resolve(names[id] ?? []);
  },
  enumConstants: () =>
    Promise.resolve(
      new Map<string, number | bigint>([
        ['Infantry', 0],
        ['Archer', 1],
        ['Cavalry', 2],
      ]),
    ),
  fullName: (id) => Promise.resolve(['', 'float3', 'Unit', 'Stats', 'UnitKind'][id] ?? '?'),
};

const f3 = (x: number, y: number, z: number): Value =>
  Values.struct(1, [Values.r4(x), Values.r4(y), Values.r4(z)]);
const unit = (kind: number, level: number): Value =>
  Values.struct(2, [
    Values.struct(4, [Values.i4(kind)], true),
    Values.bool(true),
    Values.struct(3, [Values.i4(level), Values.r4(1.5), f3(1, 2, 3)]),
  ]);

describe('toJson', () => {
  it('names struct fields, enum constants, and keeps non-finite floats as strings', async () => {
    expect(await toJson(unit(2, 7), types)).toEqual({
      Kind: 'Cavalry',
      Selected: true,
      Stats: { Level: 7, Speed: 1.5, Home: { x: 1, y: 2, z: 3 } },
    });
    expect(await toJson(f3(NaN, Infinity, -Infinity), types)).toEqual({
      x: 'NaN',
      y: 'Infinity',
      z: '-Infinity',
    });
    expect(await toJson(Values.struct(4, [Values.i4(9)], true), types)).toBe(9);
    expect(await toJson(Values.i8(2n ** 60n), types)).toBe('1152921504606846976');
  });

  it('decodes many values with one lookup per type', async () => {
    lookups = 0;
    const many = await toJsonMany(
      Array.from({ length: 1000 }, (_, i) => unit(i % 3, i)),
      types,
    );
    expect(many).toHaveLength(1000);
    expect((many[999] as { Stats: { Level: number } }).Stats.Level).toBe(999);
    expect(lookups).toBe(3);
  });
});

describe('fromJson', () => {
  it('changes only the fields named, keeping wire kinds', async () => {
    const v = await fromJson(unit(0, 1), { Kind: 'Archer', Stats: { Home: { y: 9 } } }, types);
    expect(await toJson(v, types)).toEqual({
      Kind: 'Archer',
      Selected: true,
      Stats: { Level: 1, Speed: 1.5, Home: { x: 1, y: 9, z: 3 } },
    });
    const inner = (v as unknown as { fields: Value[] }).fields[0] as unknown as {
      isEnum: boolean;
      fields: Value[];
    };
    expect(inner.isEnum).toBe(true);
    expect(inner.fields[0]).toEqual(Values.i4(1));
  });

  it('refuses values that do not fit, naming the path', async () => {
    const cases: [unknown, string][] = [
      [{ Stats: { Level: 'x' } }, 'Unit.Stats.Level'],
      [{ Stats: { Level: 1.5 } }, 'not a i4'],
      [{ Stats: { Level: 2 ** 31 } }, 'not a i4'],
      [{ Kind: 'Wizard' }, 'Infantry, Archer, Cavalry'],
      [{ Selected: 1 }, 'true or false'],
      [5, 'is a struct'],
    ];
    for (const [patch, fragment] of cases) {
      const e = await refusal(fromJson(unit(0, 1), patch as never, types, 'Unit'));
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.message).toContain(fragment);
    }
    const missing = await refusal(fromJson(unit(0, 1), { Stat: {} }, types));
    expect(missing.code).toBe('MEMBER_NOT_FOUND');
  });

  it('round-trips floats exactly as the game stores them', async () => {
    const v = await fromJson(f3(0, 0, 0), { x: 0.1 }, types);
    expect((v as unknown as { fields: Value[] }).fields[0]).toEqual(Values.r4(0.1));
    expect(sameJson(await toJson(v, types), { x: 0.1, y: 0, z: 0 })).toBe(true);
    // what is printed is written back as the very same float
    const odd = f3(-0.798976719379425, 2.5867648124694824, 1 / 3);
    const back = await fromJson(odd, await toJson(odd, types), types);
    expect(back).toEqual(odd);
  });
});

describe('float32Shortest', () => {
  it('prints a float32 as its shortest round-trip decimal', () => {
    const cases: [number, string][] = [
      [-0.798976719379425, '-0.7989767'],
      [0.1, '0.1'],
      [1 / 3, '0.33333334'],
      [2.5867648124694824, '2.5867648'],
      [1.5, '1.5'],
      [16777216, '16777216'],
      [16777217, '16777216'], // not a float32: rounded first
      [3.4028234663852886e38, '3.4028235e+38'], // float.MaxValue
      [1.401298464324817e-45, '1e-45'], // the smallest subnormal
      [1.1754943508222875e-38, '1.1754944e-38'], // float.MinNormal
      // a power of two, where the shortest is the neighbour of the correctly rounded decimal
      [2 ** -96, '1.2621775e-29'],
      [-(2 ** 87), '-1.5474251e+26'],
    ];
    for (const [x, text] of cases) {
      expect(String(float32Shortest(x)), String(x)).toBe(text);
      expect(Math.fround(float32Shortest(x))).toBe(Math.fround(x));
    }
    expect(Object.is(float32Shortest(-0), -0)).toBe(true);
    expect(float32Shortest(NaN)).toBeNaN();
    expect(float32Shortest(-Infinity)).toBe(-Infinity);
  });

  it('always reads back as the same float, and no shorter decimal does', () => {
    const bits = new Uint32Array(1);
    const float = new Float32Array(bits.buffer);
    let seed = 12345;
    for (let i = 0; i < 5000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      bits[0] = seed ^ (seed << 7);
      const f = float[0]!;
      if (!Number.isFinite(f) || f === 0) continue;
      const s = float32Shortest(f);
      expect(Math.fround(s)).toBe(f);
      const digits = s.toExponential().split('e')[0]!.replace(/[-.]/g, '').length;
      if (digits > 1) {
        // every decimal with one digit fewer, near f, reads back as another float
        const fewer = Number(f.toExponential(digits - 2));
        const step = Number(`1e${Number(fewer.toExponential().split('e')[1]) - (digits - 2)}`);
        for (const c of [fewer - step, fewer, fewer + step]) expect(Math.fround(c)).not.toBe(f);
      }
    }
  });
});

describe('patchAt', () => {
  it('builds a nested patch from a dotted path', () => {
    expect(patchAt('Stats.Home.x', 4)).toEqual({ Stats: { Home: { x: 4 } } });
    expect(() => patchAt('', 1)).toThrow(UnityError);
  });
});
