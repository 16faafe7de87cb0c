import { describe, expect, it } from 'vitest';
import {
  type BinaryOperator,
  type OperandInfo,
  type UnaryOperator,
  binaryNumericPromotion,
  resolveBinaryOperator,
  resolveEnumBinaryOperator,
  resolveEnumUnaryOperator,
  resolveUnaryOperator,
  unaryNumericPromotion,
} from './promotion.js';
import { EvalCompileError } from './errors.js';
import { NUMERIC_KINDS, type PrimitiveKind, intValue, longValue } from './numeric-types.js';

const variable = (kind: PrimitiveKind): OperandInfo => ({ kind });

describe('resolveBinaryOperator (variables)', () => {
  // [op, left, right, operand type, result type]
  it.each<[BinaryOperator, PrimitiveKind, PrimitiveKind, PrimitiveKind, PrimitiveKind]>([
    ['+', 'byte', 'byte', 'int', 'int'],
    ['+', 'sbyte', 'byte', 'int', 'int'],
    ['+', 'char', 'char', 'int', 'int'],
    ['+', 'short', 'ushort', 'int', 'int'],
    ['+', 'int', 'uint', 'long', 'long'],
    ['+', 'uint', 'uint', 'uint', 'uint'],
    ['+', 'uint', 'ushort', 'uint', 'uint'],
    ['-', 'sbyte', 'uint', 'long', 'long'],
    ['*', 'long', 'int', 'long', 'long'],
    ['/', 'ulong', 'byte', 'ulong', 'ulong'],
    ['%', 'ulong', 'uint', 'ulong', 'ulong'],
    ['+', 'long', 'float', 'float', 'float'],
    ['+', 'ulong', 'float', 'float', 'float'],
    ['+', 'float', 'double', 'double', 'double'],
    ['+', 'int', 'decimal', 'decimal', 'decimal'],
    ['+', 'char', 'decimal', 'decimal', 'decimal'],
    ['&', 'byte', 'byte', 'int', 'int'],
    ['^', 'uint', 'int', 'long', 'long'],
    ['|', 'bool', 'bool', 'bool', 'bool'],
    ['==', 'bool', 'bool', 'bool', 'bool'],
    ['==', 'int', 'double', 'double', 'bool'],
    ['<', 'uint', 'int', 'long', 'bool'],
    ['>=', 'decimal', 'long', 'decimal', 'bool'],
  ])('%s on %s, %s binds to %s -> %s', (op, l, r, operand, result) => {
    const sig = resolveBinaryOperator(op, variable(l), variable(r));
    expect(sig).toEqual({ left: operand, right: operand, result });
  });

  it.each<[BinaryOperator, PrimitiveKind, PrimitiveKind]>([
    ['<<', 'int', 'int'],
    ['<<', 'byte', 'byte'],
    ['<<', 'char', 'sbyte'],
    ['>>', 'uint', 'short'],
    ['<<', 'long', 'int'],
    ['>>', 'ulong', 'char'],
  ])('shift %s on %s by %s keeps the promoted left type, count int', (op, l, r) => {
    const sig = resolveBinaryOperator(op, variable(l), variable(r));
    expect(sig.right).toBe('int');
    expect(sig.result).toBe(unaryNumericPromotion(l as 'int'));
  });

  // Measured with mcs: CS0019 for each of these (also where Roslyn says CS0034).
  it.each<[BinaryOperator, PrimitiveKind, PrimitiveKind]>([
    ['+', 'long', 'ulong'],
    ['+', 'ulong', 'int'],
    ['+', 'sbyte', 'ulong'],
    ['+', 'float', 'decimal'],
    ['*', 'double', 'decimal'],
    ['+', 'bool', 'int'],
    ['+', 'bool', 'bool'],
    ['<', 'bool', 'bool'],
    ['<<', 'int', 'long'],
    ['<<', 'int', 'uint'],
    ['<<', 'double', 'int'],
    ['&', 'float', 'float'],
    ['==', 'ulong', 'int'],
  ])('%s on %s, %s is CS0019', (op, l, r) => {
    expect(() => resolveBinaryOperator(op, variable(l), variable(r))).toThrow(
      expect.objectContaining({ code: 'CS0019' }),
    );
  });

  it('words the error like mcs', () => {
    expect(() => resolveBinaryOperator('+', variable('long'), variable('ulong'))).toThrow(
      "Operator `+' cannot be applied to operands of type `long' and `ulong'",
    );
  });
});

describe('resolveBinaryOperator with constants (implicit constant conversions)', () => {
  it.each<[PrimitiveKind, OperandInfo, PrimitiveKind]>([
    ['uint', { kind: 'int', constant: intValue(1) }, 'uint'],
    ['ulong', { kind: 'int', constant: intValue(1) }, 'ulong'],
    ['ulong', { kind: 'long', constant: longValue(1n) }, 'ulong'],
    ['uint', { kind: 'int', constant: intValue(-1) }, 'long'],
    ['byte', { kind: 'int', constant: intValue(1) }, 'int'],
    ['ushort', { kind: 'int', constant: intValue(70000) }, 'int'],
  ])('%s + %o binds to %s', (left, right, operand) => {
    expect(resolveBinaryOperator('+', variable(left), right).left).toBe(operand);
  });

  it('still refuses ulong + -1 (CS0019)', () => {
    expect(() =>
      resolveBinaryOperator('+', variable('ulong'), { kind: 'int', constant: intValue(-1) }),
    ).toThrow(EvalCompileError);
  });
});

describe('resolveUnaryOperator', () => {
  it.each<[UnaryOperator, PrimitiveKind, PrimitiveKind]>([
    ['-', 'byte', 'int'],
    ['-', 'uint', 'long'],
    ['-', 'char', 'int'],
    ['-', 'float', 'float'],
    ['-', 'decimal', 'decimal'],
    ['+', 'ushort', 'int'],
    ['+', 'ulong', 'ulong'],
    ['~', 'char', 'int'],
    ['~', 'uint', 'uint'],
    ['~', 'sbyte', 'int'],
    ['!', 'bool', 'bool'],
  ])('%s%s is %s', (op, kind, result) => {
    expect(resolveUnaryOperator(op, variable(kind)).result).toBe(result);
  });

  it.each<[UnaryOperator, PrimitiveKind]>([
    ['-', 'ulong'],
    ['~', 'double'],
    ['~', 'bool'],
    ['!', 'int'],
    ['-', 'bool'],
  ])('%s%s is CS0023', (op, kind) => {
    expect(() => resolveUnaryOperator(op, variable(kind))).toThrow(
      expect.objectContaining({ code: 'CS0023' }),
    );
  });
});

describe('numeric promotion (the spec table)', () => {
  it.each([
    ['byte', 'byte', 'int'],
    ['int', 'uint', 'long'],
    ['uint', 'ushort', 'uint'],
    ['long', 'ulong', undefined],
    ['float', 'decimal', undefined],
    ['ulong', 'byte', 'ulong'],
    ['char', 'char', 'int'],
    ['float', 'long', 'float'],
  ] as const)('%s, %s -> %s', (a, b, result) => {
    expect(binaryNumericPromotion(a, b)).toBe(result);
  });

  it('agrees with overload resolution for every pair of non-constant operands', () => {
    for (const a of NUMERIC_KINDS) {
      for (const b of NUMERIC_KINDS) {
        let bound: PrimitiveKind | undefined;
        try {
          bound = resolveBinaryOperator('*', variable(a), variable(b)).left;
        } catch {
          bound = undefined;
        }
        expect(bound, `${a} * ${b}`).toBe(binaryNumericPromotion(a, b));
      }
    }
  });
});

describe('enum operators', () => {
  const e = { enumName: 'Color', underlying: 'byte' } as const;
  it.each<[BinaryOperator, 'E' | 'U' | '0', 'E' | 'U' | '0', string]>([
    ['+', 'E', 'U', 'enum'],
    ['+', 'U', 'E', 'enum'],
    ['-', 'E', 'E', 'underlying'],
    ['-', 'E', 'U', 'enum'],
    ['&', 'E', 'E', 'enum'],
    ['==', 'E', 'E', 'bool'],
    ['==', 'E', '0', 'bool'],
    ['<', 'E', 'E', 'bool'],
  ])('E %s: %s, %s gives %s', (op, l, r, result) => {
    const side = (t: string) =>
      t === 'E'
        ? e
        : t === 'U'
          ? variable('byte')
          : { kind: 'int' as const, constant: intValue(0) };
    expect(resolveEnumBinaryOperator(op, side(l), side(r)).result).toBe(result);
  });

  it.each<[BinaryOperator]>([['*'], ['/'], ['<<']])('refuses E %s E', (op) => {
    expect(() => resolveEnumBinaryOperator(op, e, e)).toThrow(EvalCompileError);
  });

  it('refuses E + E and U - E', () => {
    expect(() => resolveEnumBinaryOperator('+', e, e)).toThrow(EvalCompileError);
    expect(() => resolveEnumBinaryOperator('-', variable('byte'), e)).toThrow(EvalCompileError);
  });

  it('~E converts back unchecked', () => {
    expect(resolveEnumUnaryOperator('~', e)).toEqual({
      underlying: 'byte',
      result: 'enum',
      uncheckedResult: true,
    });
    expect(() => resolveEnumUnaryOperator('-', e)).toThrow(EvalCompileError);
  });
});
