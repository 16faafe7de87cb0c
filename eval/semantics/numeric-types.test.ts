import { describe, expect, it } from 'vitest';
import {
  INTEGRAL_INFO,
  InvalidPrimitiveError,
  type PrimitiveKind,
  inRange,
  primitive,
  wrapToKind,
} from './numeric-types.js';

describe('primitive', () => {
  it.each<[PrimitiveKind, unknown]>([
    ['sbyte', -128],
    ['byte', 255],
    ['short', -32768],
    ['ushort', 65535],
    ['char', 0xffff],
    ['int', -2147483648],
    ['uint', 4294967295],
    ['long', -(2n ** 63n)],
    ['ulong', 2n ** 64n - 1n],
    ['float', Math.fround(0.1)],
    ['float', NaN],
    ['float', -0],
    ['double', 0.1],
    ['decimal', { negative: true, scale: 28, mantissa: 2n ** 96n - 1n }],
    ['bool', false],
  ])('accepts %s %s', (kind, value) => {
    expect(primitive(kind, value as never)).toEqual({ kind, value });
  });

  it.each<[PrimitiveKind, unknown]>([
    ['sbyte', 128],
    ['byte', -1],
    ['int', 1.5],
    ['int', 2147483648],
    ['uint', -1],
    ['char', 65536],
    ['long', 1],
    ['long', 2n ** 63n],
    ['ulong', -1n],
    ['float', 0.1],
    ['double', 1n],
    ['decimal', { negative: false, scale: 29, mantissa: 1n }],
    ['decimal', { negative: false, scale: 0, mantissa: 2n ** 96n }],
    ['decimal', { negative: false, scale: 0, mantissa: -1n }],
    ['bool', 1],
  ])('rejects %s %s', (kind, value) => {
    expect(() => primitive(kind, value as never)).toThrow(InvalidPrimitiveError);
  });
});

describe('integral ranges', () => {
  it.each([
    ['sbyte', -128n, 127n],
    ['byte', 0n, 255n],
    ['short', -32768n, 32767n],
    ['ushort', 0n, 65535n],
    ['char', 0n, 65535n],
    ['int', -2147483648n, 2147483647n],
    ['uint', 0n, 4294967295n],
    ['long', -9223372036854775808n, 9223372036854775807n],
    ['ulong', 0n, 18446744073709551615n],
  ] as const)('%s is %d..%d', (kind, min, max) => {
    expect(INTEGRAL_INFO[kind].min).toBe(min);
    expect(INTEGRAL_INFO[kind].max).toBe(max);
    expect(inRange(kind, min - 1n)).toBe(false);
    expect(inRange(kind, max + 1n)).toBe(false);
  });

  it.each([
    ['byte', 300n, 44n],
    ['sbyte', 200n, -56n],
    ['int', 2n ** 31n, -(2n ** 31n)],
    ['uint', -1n, 4294967295n],
    ['ulong', -1n, 2n ** 64n - 1n],
    ['char', 65536n + 65n, 65n],
  ] as const)('wraps %s %d to %d', (kind, value, wrapped) => {
    expect(wrapToKind(kind, value)).toBe(wrapped);
  });
});
