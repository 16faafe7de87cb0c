// The wire client against the real Mono agent: every kind of value the fixture holds, read and
// decoded exactly.

import { describe, expect, it } from 'vitest';

import { ValueTag, Values, type StructValue, type Value } from '../sdb-protocol/index.js';
import { useAttachedFixture } from './support/attached-fixture.js';

const g = useAttachedFixture();

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
    expect(await g.m.static(P, name)).toEqual(expected);
  });

  it('reads many fields in one command', async () => {
    const values = await g.m.statics(P, ['SInt', 'SBool', 'SDouble']);
    expect(values).toEqual([
      Values.i4(-123456789),
      Values.bool(true),
      Values.r8(2.718281828459045),
    ]);
  });

  it('reads decimal and IntPtr as structs', async () => {
    const dec = await g.m.static(P, 'SDecimal');
    expect(dec.kind).toBe('valuetype');
    expect(await g.m.runtimeTypeName(dec)).toBe('System.Decimal');
    const ptr = await g.m.static(P, 'SIntPtr');
    expect(ptr).toMatchObject({
      kind: 'valuetype',
      fields: [{ kind: 'ptr', address: 0x12345678n }],
    });
    expect(await g.m.runtimeTypeName(ptr)).toBe('System.IntPtr');
  });
});

describe('strings', () => {
  it('reads ASCII, non-ASCII (incl. astral), empty and null', async () => {
    const [s, nonAscii, empty, nul] = await g.m.statics(P, [
      'SString',
      'SNonAscii',
      'SEmpty',
      'SNull',
    ]);
    expect(await g.m.string(s!)).toBe('hello');
    expect(await g.m.string(nonAscii!)).toBe(
      'h\u00e9llo w\u00f6rld \u2713 \u65e5\u672c\u8a9e \u{1F600}',
    );
    expect(await g.m.string(empty!)).toBe('');
    expect(nul).toEqual({ kind: 'null' });
  });

  it('reads a string holding U+0000 (the agent switches to raw UTF-16LE)', async () => {
    expect(await g.m.string(await g.m.static(P, 'SWithNul'))).toBe('a\0b');
  });

  it('reads the 1 MB string whole, and a slice of it by length and chars', async () => {
    const big = await g.m.static(P, 'SBig');
    const text = (await g.m.string(big))!;
    expect(text.length).toBe(1 << 20);
    for (const i of [0, 25, 26, 999, 1000, 1998, 1999, (1 << 20) - 1]) {
      const want = i % 1000 === 999 ? '\u00df' : String.fromCharCode(97 + (i % 26));
      expect(text[i], `char ${i}`).toBe(want);
    }
    const id = (big as { objectId: number }).objectId;
    expect(await g.conn.send('STRING_REF.GET_LENGTH', { objectId: id })).toBe(1 << 20);
    expect(await g.conn.send('STRING_REF.GET_CHARS', { objectId: id, index: 995, count: 6 })).toBe(
      text.slice(995, 1001),
    );
  });
});

describe('arrays', () => {
  it('reads the 100,000-int array in bulk', async () => {
    const arr = await g.m.static(P, 'SBigInts');
    expect(arr).toMatchObject({ kind: 'object', tag: ValueTag.SZARRAY });
    const arrayId = (arr as { objectId: number }).objectId;
    expect(await g.conn.send('ARRAY_REF.GET_LENGTH', { arrayId })).toEqual({
      rank: 1,
      dimensions: [{ length: 100_000, lowerBound: 0 }],
    });
    const values = await g.conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 100_000 });
    expect(values).toHaveLength(100_000);
    values.forEach((v, i) => {
      if (v.kind !== 'i4' || v.value !== i * 7 - 50000)
        throw new Error(`element ${i} is ${JSON.stringify(v)}`);
    });
  });

  it('refuses an out-of-range read instead of letting the agent abort the game', async () => {
    const arrayId = ((await g.m.static(P, 'SInts')) as { objectId: number }).objectId;
    await expect(
      g.conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 2, count: 2 }),
    ).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    expect(await g.conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 3 })).toEqual(
      [1, 2, 3].map(Values.i4),
    );
  });

  it('reads empty arrays, strings with nulls, doubles with NaN/-0/Inf and a 2-D array', async () => {
    const [empty, strings, doubles, matrix] = (await g.m.statics(P, [
      'SEmptyInts',
      'SStrings',
      'SDoubles',
      'SMatrix',
    ])) as {
      objectId: number;
      tag: number;
    }[];
    expect(await g.conn.send('ARRAY_REF.GET_LENGTH', { arrayId: empty!.objectId })).toMatchObject({
      rank: 1,
    });
    const s = await g.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: strings!.objectId,
      index: 0,
      count: 3,
    });
    expect(await Promise.all(s.map((v) => g.m.string(v)))).toEqual(['a', null, '\u00fc']);
    const d = await g.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: doubles!.objectId,
      index: 0,
      count: 5,
    });
    expect(d.map((v) => (v as { value: number }).value)).toEqual([0.1, -0, NaN, Infinity, 1e300]);
    expect(Object.is((d[1] as { value: number }).value, -0)).toBe(true);
    expect(matrix!.tag).toBe(ValueTag.ARRAY);
    expect(await g.conn.send('ARRAY_REF.GET_LENGTH', { arrayId: matrix!.objectId })).toEqual({
      rank: 2,
      dimensions: [
        { length: 2, lowerBound: 0 },
        { length: 3, lowerBound: 0 },
      ],
    });
    const flat = await g.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: matrix!.objectId,
      index: 0,
      count: 6,
    });
    expect(flat).toEqual([1, 2, 3, 4, 5, 6].map(Values.i4));
  });

  it('reads an object[] whose boxed values arrive inline', async () => {
    const arr = (await g.m.static(P, 'SObjects')) as { objectId: number };
    const [boxedInt, str, nul, point, color, node] = await g.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: arr.objectId,
      index: 0,
      count: 6,
    });
    expect(boxedInt).toMatchObject({ kind: 'valuetype', isEnum: false, fields: [Values.i4(42)] });
    expect(await g.m.runtimeTypeName(boxedInt!)).toBe('System.Int32');
    expect(await g.m.string(str!)).toBe('str');
    expect(nul).toEqual({ kind: 'null' });
    expect(point).toMatchObject({ kind: 'valuetype', fields: [Values.i4(1), Values.i4(2)] });
    expect(await g.m.runtimeTypeName(point!)).toBe('Game.Point');
    expect(color).toMatchObject({ kind: 'valuetype', isEnum: true, fields: [Values.i4(10)] });
    expect(node).toMatchObject({ kind: 'object', tag: ValueTag.CLASS });
    expect(await g.m.runtimeTypeName(node!)).toBe('Game.Node');
  });
});

describe('structs, enums, nullables', () => {
  it('reads a struct and a nested struct with float3, enum and bool', async () => {
    expect(await g.m.static(P, 'SPoint')).toMatchObject({
      kind: 'valuetype',
      fields: [Values.i4(3), Values.i4(4)],
    });
    const outer = await g.m.static(P, 'SOuter');
    expect(await g.m.runtimeTypeName(outer)).toBe('Game.Outer');
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
    const [color, small, perms, big] = await g.m.statics(P, [
      'SColor',
      'SSmall',
      'SPerms',
      'SBigEnum',
    ]);
    expect(color).toMatchObject({ isEnum: true, fields: [Values.i4(5)] });
    expect(small).toMatchObject({ isEnum: true, fields: [Values.number('u1', 200)] });
    expect(perms).toMatchObject({ isEnum: true, fields: [Values.i4(5)] });
    expect(big).toMatchObject({ isEnum: true, fields: [Values.i8(-(2n ** 63n))] });
    expect(await g.m.runtimeTypeName(small!)).toBe('Game.Small');
  });

  it('reads nullables as the Nullable struct, and a boxed int in an object field inline', async () => {
    const [set, unset, point, boxed] = await g.m.statics(P, [
      'SNullableSet',
      'SNullableNull',
      'SNullablePoint',
      'SBoxedInt',
    ]);
    expect(await g.m.runtimeTypeName(set!)).toMatch(/^System\.Nullable`1\[\[System\.Int32/);
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
    const inst = (await g.m.static(P, 'Instance')) as { objectId: number };
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
    expect(await g.m.instance(inst.objectId, P, names)).toEqual([
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
    const [str, point, color, nullable] = await g.m.instance(inst.objectId, P, [
      'IString',
      'IPoint',
      'IColor',
      'INullable',
    ]);
    expect(await g.m.string(str!)).toBe('instance');
    expect(point).toMatchObject({ fields: [Values.i4(5), Values.i4(6)] });
    expect(color).toMatchObject({ isEnum: true, fields: [Values.i4(0)] });
    expect((nullable as StructValue).fields).toContainEqual(Values.bool(false));
  });

  it('follows a linked list and reads a List<int> through its fields', async () => {
    const labels: (string | null)[] = [];
    let node = await g.m.static(P, 'SChain');
    while (node.kind === 'object') {
      const [value, label, next] = await g.m.instance(node.objectId, 'Game.Node', [
        'Value',
        'Label',
        'Next',
      ]);
      labels.push(`${(value as { value: number }).value}:${await g.m.string(label!)}`);
      node = next!;
    }
    expect(labels).toEqual(['1:one', '2:two', '3:three']);

    const list = (await g.m.static(P, 'SList')) as { objectId: number };
    const listType = await g.conn.send('OBJECT_REF.GET_TYPE', { objectId: list.objectId });
    const fields = await g.conn.send('TYPE.GET_FIELDS', { typeId: listType });
    const byName = (n: string): number => fields.find((f) => f.name === n)!.fieldId;
    const [items, size] = await g.conn.send('OBJECT_REF.GET_VALUES', {
      objectId: list.objectId,
      fieldIds: [byName('_items'), byName('_size')],
    });
    expect(size).toEqual(Values.i4(3));
    const got = await g.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: (items as { objectId: number }).objectId,
      index: 0,
      count: 3,
    });
    expect(got).toEqual([10, 20, 30].map(Values.i4));
  });

  it('reads an auto-property through its backing field', async () => {
    expect(await g.m.string(await g.m.static(P, '<SAutoProp>k__BackingField'))).toBe('auto');
  });
});

describe('writes, read back', () => {
  it('sets a static field and an array element', async () => {
    await g.m.setStatic(P, 'SCounter', Values.i4(41));
    expect(await g.m.static(P, 'SCounter')).toEqual(Values.i4(41));
    const arrayId = ((await g.m.static(P, 'SInts')) as { objectId: number }).objectId;
    await g.conn.send('ARRAY_REF.SET_VALUES', { arrayId, index: 1, values: [Values.i4(20)] });
    expect(await g.conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 3 })).toEqual(
      [1, 20, 3].map(Values.i4),
    );
    await g.conn.send('ARRAY_REF.SET_VALUES', { arrayId, index: 1, values: [Values.i4(2)] });
  });

  it('sets an enum field and a struct field by sending them back with isEnum 0', async () => {
    const color = await g.m.static(P, 'SColor');
    await g.m.setStatic(P, 'SColor', {
      ...(color as Extract<Value, { kind: 'valuetype' }>),
      fields: [Values.i4(10)],
    });
    expect(await g.m.static(P, 'SColor')).toMatchObject({ isEnum: true, fields: [Values.i4(10)] });
    await g.m.setStatic(P, 'SColor', color);
    const ptr = await g.m.static(P, 'SIntPtr');
    await g.m.setStatic(P, 'SIntPtr', ptr); // PTR echoed as I8: the agent would abort on 0x0f
    expect(await g.m.static(P, 'SIntPtr')).toEqual(ptr);
  });
});
