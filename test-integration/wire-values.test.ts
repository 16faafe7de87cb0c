// The wire client against the real Mono agent: every kind of value the fixture holds, read and
// decoded exactly.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  SdbConnection,
  ValueTag,
  Values,
  type StructValue,
  type Value,
} from '../sdb-protocol/index.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { Mirror } from './support/mirror.js';

let fixture: FixtureProcess;
let conn: SdbConnection;
let m: Mirror;

beforeAll(async () => {
  fixture = await startFixture({ entities: 200 });
  conn = await SdbConnection.connect({ port: fixture.sdbPort });
  m = new Mirror(conn);
});

afterAll(async () => {
  await conn?.close();
  await fixture?.stop();
});

const P = 'Game.Probe';

describe('static fields of every primitive type', () => {
  it.each<[string, Value]>([
    ['SBool', Values.bool(true)],
    ['SByte', Values.number('u1', 200)],
    ['SSByte', Values.number('i1', -100)],
    ['SShort', Values.number('i2', -30000)],
    ['SUShort', Values.number('u2', 60000)],
    ['SChar', Values.char(0xe9)],
    ['SInt', Values.i4(-123456789)],
    ['SUInt', Values.number('u4', 4000000000)],
    ['SLong', Values.i8(-9007199254740993n)],
    ['SULong', Values.u8(18446744073709551615n)],
    ['SFloat', Values.r4(3.14159)],
    ['SDouble', Values.r8(2.718281828459045)],
  ])('%s', async (name, expected) => {
    expect(await m.static(P, name)).toEqual(expected);
  });

  it('reads many fields in one command', async () => {
    const values = await m.statics(P, ['SInt', 'SBool', 'SDouble']);
    expect(values).toEqual([
      Values.i4(-123456789),
      Values.bool(true),
      Values.r8(2.718281828459045),
    ]);
  });

  it('reads decimal and IntPtr as structs', async () => {
    const dec = await m.static(P, 'SDecimal');
    expect(dec.kind).toBe('valuetype');
    expect(await m.runtimeTypeName(dec)).toBe('System.Decimal');
    const ptr = await m.static(P, 'SIntPtr');
    expect(ptr).toMatchObject({
      kind: 'valuetype',
      fields: [{ kind: 'ptr', address: 0x12345678n }],
    });
    expect(await m.runtimeTypeName(ptr)).toBe('System.IntPtr');
  });
});

describe('strings', () => {
  it('reads ASCII, non-ASCII (incl. astral), empty and null', async () => {
    const [s, nonAscii, empty, nul] = await m.statics(P, [
      'SString',
      'SNonAscii',
      'SEmpty',
      'SNull',
    ]);
    expect(await m.string(s!)).toBe('hello');
    expect(await m.string(nonAscii!)).toBe(
      'h\u00e9llo w\u00f6rld \u2713 \u65e5\u672c\u8a9e \u{1F600}',
    );
    expect(await m.string(empty!)).toBe('');
    expect(nul).toEqual({ kind: 'null' });
  });

  it('reads a string holding U+0000 (the agent switches to raw UTF-16LE)', async () => {
    expect(await m.string(await m.static(P, 'SWithNul'))).toBe('a\0b');
  });

  it('reads the 1 MB string whole, and a slice of it by length and chars', async () => {
    const big = await m.static(P, 'SBig');
    const text = (await m.string(big))!;
    expect(text.length).toBe(1 << 20);
    for (const i of [0, 25, 26, 999, 1000, 1998, 1999, (1 << 20) - 1]) {
      const want = i % 1000 === 999 ? '\u00df' : String.fromCharCode(97 + (i % 26));
      expect(text[i], `char ${i}`).toBe(want);
    }
    const id = (big as { objectId: number }).objectId;
    expect(await conn.send('STRING_REF.GET_LENGTH', { objectId: id })).toBe(1 << 20);
    expect(await conn.send('STRING_REF.GET_CHARS', { objectId: id, index: 995, count: 6 })).toBe(
      text.slice(995, 1001),
    );
  });
});

describe('arrays', () => {
  it('reads the 100,000-int array in bulk', async () => {
    const arr = await m.static(P, 'SBigInts');
    expect(arr).toMatchObject({ kind: 'object', tag: ValueTag.SZARRAY });
    const arrayId = (arr as { objectId: number }).objectId;
    expect(await conn.send('ARRAY_REF.GET_LENGTH', { arrayId })).toEqual({
      rank: 1,
      dimensions: [{ length: 100_000, lowerBound: 0 }],
    });
    const values = await conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 100_000 });
    expect(values).toHaveLength(100_000);
    values.forEach((v, i) => {
      if (v.kind !== 'i4' || v.value !== i * 7 - 50000)
        throw new Error(`element ${i} is ${JSON.stringify(v)}`);
    });
  });

  it('refuses an out-of-range read instead of letting the agent abort the game', async () => {
    const arrayId = ((await m.static(P, 'SInts')) as { objectId: number }).objectId;
    await expect(
      conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 2, count: 2 }),
    ).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    expect(await conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 3 })).toEqual(
      [1, 2, 3].map(Values.i4),
    );
  });

  it('reads empty arrays, strings with nulls, doubles with NaN/-0/Inf and a 2-D array', async () => {
    const [empty, strings, doubles, matrix] = (await m.statics(P, [
      'SEmptyInts',
      'SStrings',
      'SDoubles',
      'SMatrix',
    ])) as {
      objectId: number;
      tag: number;
    }[];
    expect(await conn.send('ARRAY_REF.GET_LENGTH', { arrayId: empty!.objectId })).toMatchObject({
      rank: 1,
    });
    const s = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: strings!.objectId,
      index: 0,
      count: 3,
    });
    expect(await Promise.all(s.map((v) => m.string(v)))).toEqual(['a', null, '\u00fc']);
    const d = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: doubles!.objectId,
      index: 0,
      count: 5,
    });
    expect(d.map((v) => (v as { value: number }).value)).toEqual([0.1, -0, NaN, Infinity, 1e300]);
    expect(Object.is((d[1] as { value: number }).value, -0)).toBe(true);
    expect(matrix!.tag).toBe(ValueTag.ARRAY);
    expect(await conn.send('ARRAY_REF.GET_LENGTH', { arrayId: matrix!.objectId })).toEqual({
      rank: 2,
      dimensions: [
        { length: 2, lowerBound: 0 },
        { length: 3, lowerBound: 0 },
      ],
    });
    const flat = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: matrix!.objectId,
      index: 0,
      count: 6,
    });
    expect(flat).toEqual([1, 2, 3, 4, 5, 6].map(Values.i4));
  });

  it('reads an object[] whose boxed values arrive inline', async () => {
    const arr = (await m.static(P, 'SObjects')) as { objectId: number };
    const [boxedInt, str, nul, point, color, node] = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: arr.objectId,
      index: 0,
      count: 6,
    });
    expect(boxedInt).toMatchObject({ kind: 'valuetype', isEnum: false, fields: [Values.i4(42)] });
    expect(await m.runtimeTypeName(boxedInt!)).toBe('System.Int32');
    expect(await m.string(str!)).toBe('str');
    expect(nul).toEqual({ kind: 'null' });
    expect(point).toMatchObject({ kind: 'valuetype', fields: [Values.i4(1), Values.i4(2)] });
    expect(await m.runtimeTypeName(point!)).toBe('Game.Point');
    expect(color).toMatchObject({ kind: 'valuetype', isEnum: true, fields: [Values.i4(10)] });
    expect(node).toMatchObject({ kind: 'object', tag: ValueTag.CLASS });
    expect(await m.runtimeTypeName(node!)).toBe('Game.Node');
  });
});

describe('structs, enums, nullables', () => {
  it('reads a struct and a nested struct with float3, enum and bool', async () => {
    expect(await m.static(P, 'SPoint')).toMatchObject({
      kind: 'valuetype',
      fields: [Values.i4(3), Values.i4(4)],
    });
    const outer = await m.static(P, 'SOuter');
    expect(await m.runtimeTypeName(outer)).toBe('Game.Outer');
    expect(outer).toMatchObject({
      kind: 'valuetype',
      fields: [
        Values.i4(7),
        {
          kind: 'valuetype',
          fields: [
            { kind: 'valuetype', fields: [Values.r4(1.5), Values.r4(2.5), Values.r4(-3)] },
            { kind: 'valuetype', isEnum: true, fields: [Values.i4(10)] },
            Values.bool(true),
          ],
        },
        { kind: 'valuetype', fields: [Values.i4(-1), Values.i4(-2)] },
        { kind: 'valuetype', isEnum: true, fields: [Values.i4(2)] },
      ],
    });
  });

  it('reads enums of several underlying types by their primitive', async () => {
    const [color, small, perms, big] = await m.statics(P, [
      'SColor',
      'SSmall',
      'SPerms',
      'SBigEnum',
    ]);
    expect(color).toMatchObject({ isEnum: true, fields: [Values.i4(5)] });
    expect(small).toMatchObject({ isEnum: true, fields: [Values.number('u1', 200)] });
    expect(perms).toMatchObject({ isEnum: true, fields: [Values.i4(5)] });
    expect(big).toMatchObject({ isEnum: true, fields: [Values.i8(-(2n ** 63n))] });
    expect(await m.runtimeTypeName(small!)).toBe('Game.Small');
  });

  it('reads nullables as the Nullable struct, and a boxed int in an object field inline', async () => {
    const [set, unset, point, boxed] = await m.statics(P, [
      'SNullableSet',
      'SNullableNull',
      'SNullablePoint',
      'SBoxedInt',
    ]);
    expect(await m.runtimeTypeName(set!)).toMatch(/^System\.Nullable`1\[\[System\.Int32/);
    expect(set).toMatchObject({ kind: 'valuetype' });
    const setFields = (set as StructValue).fields;
    expect(setFields).toContainEqual(Values.bool(true));
    expect(setFields).toContainEqual(Values.i4(5));
    expect((unset as StructValue).fields).toContainEqual(Values.bool(false));
    expect(JSON.stringify(point)).toContain('"value":8');
    expect(boxed).toMatchObject({ kind: 'valuetype', fields: [Values.i4(7)] });
  });
});

describe('instance fields and object graphs', () => {
  it('reads instance fields of every kind on Probe.Instance', async () => {
    const inst = (await m.static(P, 'Instance')) as { objectId: number };
    const names = [
      'IBool',
      'IByte',
      'ISByte',
      'IShort',
      'IUShort',
      'IChar',
      'IInt',
      'IUInt',
      'ILong',
      'IULong',
      'IFloat',
      'IDouble',
    ];
    expect(await m.instance(inst.objectId, P, names)).toEqual([
      Values.bool(false),
      Values.number('u1', 7),
      Values.number('i1', -7),
      Values.number('i2', -7),
      Values.number('u2', 7),
      Values.char(0x78),
      Values.i4(42),
      Values.number('u4', 7),
      Values.i8(1n << 40n),
      Values.u8(1n << 63n),
      Values.r4(-1.5),
      Values.r8(1e-10),
    ]);
    const [str, point, color, nullable] = await m.instance(inst.objectId, P, [
      'IString',
      'IPoint',
      'IColor',
      'INullable',
    ]);
    expect(await m.string(str!)).toBe('instance');
    expect(point).toMatchObject({ fields: [Values.i4(5), Values.i4(6)] });
    expect(color).toMatchObject({ isEnum: true, fields: [Values.i4(0)] });
    expect((nullable as StructValue).fields).toContainEqual(Values.bool(false));
  });

  it('follows a linked list and reads a List<int> through its fields', async () => {
    const labels: (string | null)[] = [];
    let node = await m.static(P, 'SChain');
    while (node.kind === 'object') {
      const [value, label, next] = await m.instance(node.objectId, 'Game.Node', [
        'Value',
        'Label',
        'Next',
      ]);
      labels.push(`${(value as { value: number }).value}:${await m.string(label!)}`);
      node = next!;
    }
    expect(labels).toEqual(['1:one', '2:two', '3:three']);

    const list = (await m.static(P, 'SList')) as { objectId: number };
    const listType = await conn.send('OBJECT_REF.GET_TYPE', { objectId: list.objectId });
    const fields = await conn.send('TYPE.GET_FIELDS', { typeId: listType });
    const byName = (n: string): number => fields.find((f) => f.name === n)!.fieldId;
    const [items, size] = await conn.send('OBJECT_REF.GET_VALUES', {
      objectId: list.objectId,
      fieldIds: [byName('_items'), byName('_size')],
    });
    expect(size).toEqual(Values.i4(3));
    const got = await conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: (items as { objectId: number }).objectId,
      index: 0,
      count: 3,
    });
    expect(got).toEqual([10, 20, 30].map(Values.i4));
  });

  it('reads an auto-property through its backing field', async () => {
    expect(await m.string(await m.static(P, '<SAutoProp>k__BackingField'))).toBe('auto');
  });
});

describe('writes, read back', () => {
  it('sets a static field and an array element', async () => {
    await m.setStatic(P, 'SCounter', Values.i4(41));
    expect(await m.static(P, 'SCounter')).toEqual(Values.i4(41));
    const arrayId = ((await m.static(P, 'SInts')) as { objectId: number }).objectId;
    await conn.send('ARRAY_REF.SET_VALUES', { arrayId, index: 1, values: [Values.i4(20)] });
    expect(await conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 3 })).toEqual(
      [1, 20, 3].map(Values.i4),
    );
    await conn.send('ARRAY_REF.SET_VALUES', { arrayId, index: 1, values: [Values.i4(2)] });
  });

  it('sets an enum field and a struct field by sending them back with isEnum 0', async () => {
    const color = await m.static(P, 'SColor');
    await m.setStatic(P, 'SColor', {
      ...(color as Extract<Value, { kind: 'valuetype' }>),
      fields: [Values.i4(10)],
    });
    expect(await m.static(P, 'SColor')).toMatchObject({ isEnum: true, fields: [Values.i4(10)] });
    await m.setStatic(P, 'SColor', color);
    const ptr = await m.static(P, 'SIntPtr');
    await m.setStatic(P, 'SIntPtr', ptr); // PTR echoed as I8: the agent would abort on 0x0f
    expect(await m.static(P, 'SIntPtr')).toEqual(ptr);
  });
});
