import { describe, expect, it } from 'vitest';
import { decimalToNumber, doubleToNumber, exactDigits, integerToNumber } from './number-buffer.js';
import { monoNumberToDouble } from './number-to-double.js';

describe('exactDigits', () => {
  it.each<[number, string, number]>([
    [0.1, '1000000000000000055511151231257827021181583404541015625', 0],
    [1.5, '15', 1],
    [2 ** 70, '1180591620717411303424', 22],
    [
      5e-324,
      '4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625',
      -323,
    ],
  ])('%s', (x, digits, point) => {
    expect(exactDigits(x)).toEqual({ digits, point });
  });
});

describe('doubleToNumber (Mono: %.40e, then half-up to the precision)', () => {
  it.each<[number, number, string, number, boolean]>([
    [1.5, 15, '150000000000000', 1, false],
    [-0.001, 15, '100000000000000', -2, true],
    [0.1, 17, '10000000000000001', 0, false],
    [1.005, 15, '100500000000000', 1, false],
    [Number('9.9999999999999995'), 15, '100000000000000', 2, false],
    [-0, 15, '000000000000000', 0, false],
  ])('%s at %d digits', (x, precision, digits, scale, negative) => {
    expect(doubleToNumber(x, precision)).toEqual({
      digits,
      scale,
      negative,
      precision,
      isDecimal: false,
    });
  });

  it('reports NaN and infinities', () => {
    expect(doubleToNumber(NaN, 15)).toBe('NaN');
    expect(doubleToNumber(-Infinity, 15)).toBe('-Infinity');
  });
});

describe('other buffers', () => {
  it('keeps every decimal digit and no integer padding', () => {
    expect(decimalToNumber({ negative: true, scale: 2, mantissa: 150n })).toEqual({
      digits: '150',
      scale: 1,
      negative: true,
      precision: 29,
      isDecimal: true,
    });
    expect(integerToNumber(0n, 10).digits).toBe('');
    expect(integerToNumber(-42n, 10)).toMatchObject({ digits: '42', scale: 2, negative: true });
  });
});

describe("monoNumberToDouble (Mono's lossy parser)", () => {
  const buffer = (digits: string, scale: number, negative = false) => ({
    digits,
    scale,
    negative,
    precision: digits.length,
    isDecimal: false,
  });

  it('parses ordinary digits exactly', () => {
    expect(monoNumberToDouble(buffer('100000000000000', 0))).toBe(0.1);
    expect(monoNumberToDouble(buffer('333333333333333', 0))).toBe(0.333333333333333);
    expect(monoNumberToDouble(buffer('000000000000000', 0))).toBe(0);
  });

  it('misses the nearest double where Mono does (hence "R" keeps 17 digits)', () => {
    expect(monoNumberToDouble(buffer('111129000000000', 1, true))).not.toBe(-1.11129);
  });
});
