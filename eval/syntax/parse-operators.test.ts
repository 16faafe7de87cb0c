import { describe, expect, it } from 'vitest';

import { unparseOk } from './testing/helpers.js';

// The binary operators by precedence, loosest first, transcribed from the C# standard §12.4.2
// (independently of the parser's own table). `??` is right-associative, the others left.
const LEVELS: readonly (readonly string[])[] = [
  ['??'],
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<', '>', '<=', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

const levelOf = (op: string): number => LEVELS.findIndex((l) => l.includes(op));
const ALL = LEVELS.flat();

function expectedFor(op1: string, op2: string): string {
  const [l1, l2] = [levelOf(op1), levelOf(op2)];
  const leftFirst = l1 > l2 || (l1 === l2 && op1 !== '??');
  return leftFirst ? `((a ${op1} b) ${op2} c)` : `(a ${op1} (b ${op2} c))`;
}

describe('every pair of binary operators: precedence and associativity', () => {
  const rows = ALL.flatMap((op1) =>
    // `x = ` keeps `a < b > c` an expression: as a statement it declares c of type a<b>.
    ALL.map((op2): [string, string] => [
      `x = a ${op1} b ${op2} c`,
      `(x = ${expectedFor(op1, op2)})`,
    ]),
  );
  it.each(rows)('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });

  it('covers 19 operators, 361 pairs', () => {
    expect(rows).toHaveLength(361);
  });
});

describe('unary, postfix, conditional, assignment against the binary operators', () => {
  it.each<[string, string]>([
    ['-a * b', '((-a) * b)'],
    ['-a.b', '(-a.b)'],
    ['!a == b', '((!a) == b)'],
    ['!a && b', '((!a) && b)'],
    ['~a & b', '((~a) & b)'],
    ['+a - -b', '((+a) - (-b))'],
    ['- -a', '(-(-a))'],
    ['-(-a)', '(-((-a)))'],
    ['!!a', '(!(!a))'],
    ['~~a', '(~(~a))'],
    ['++a + b', '((++a) + b)'],
    ['--a * b', '((--a) * b)'],
    ['a++ + b', '((a++) + b)'],
    ['a-- - b', '((a--) - b)'],
    ['a++ + ++b', '((a++) + (++b))'],
    ['a+++b', '((a++) + b)'],
    ['a---b', '((a--) - b)'],
    ['-a++', '(-(a++))'],
    ['!a.b()', '(!a.b())'],
    ['-x[0]', '(-x[0])'],
    ['a ? b : c', '(a ? b : c)'],
    ['a ? b : c ? d : e', '(a ? b : (c ? d : e))'],
    ['a ? b ? c : d : e', '(a ? (b ? c : d) : e)'],
    ['a || b ? c : d', '((a || b) ? c : d)'],
    ['a ?? b ? c : d', '((a ?? b) ? c : d)'],
    ['a ? b ?? c : d ?? e', '(a ? (b ?? c) : (d ?? e))'],
    ['a ? b = 1 : c = 2', '(a ? (b = 1) : (c = 2))'],
    ['x = a ? b : c', '(x = (a ? b : c))'],
    ['a = b = c', '(a = (b = c))'],
    ['a += b -= c', '(a += (b -= c))'],
    ['a = b + c', '(a = (b + c))'],
    ['a = b ?? c', '(a = (b ?? c))'],
    ['a ??= b ?? c', '(a ??= (b ?? c))'],
    ['a ?? b ?? c', '(a ?? (b ?? c))'],
    ['a ?? b || c', '(a ?? (b || c))'],
    ['a || b ?? c', '((a || b) ?? c)'],
    ['a.b = c.d', '(a.b = c.d)'],
    ['a[0] = 1', '(a[0] = 1)'],
    ['(a) = 1', '((a) = 1)'],
    ['a.b.c += 2', '(a.b.c += 2)'],
    ['x = y = z += 1', '(x = (y = (z += 1)))'],
    ['a < b == c > d', '((a < b) == (c > d))'],
    ['a + b << c', '((a + b) << c)'],
    ['a << b + c', '(a << (b + c))'],
    ['a >> b >> c', '((a >> b) >> c)'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });

  it.each<[string, string]>([
    ['a = 1', '='],
    ['a += 1', '+='],
    ['a -= 1', '-='],
    ['a *= 1', '*='],
    ['a /= 1', '/='],
    ['a %= 1', '%='],
    ['a &= 1', '&='],
    ['a |= 1', '|='],
    ['a ^= 1', '^='],
    ['a <<= 1', '<<='],
    ['a >>= 1', '>>='],
    ['a ??= 1', '??='],
  ])('assignment %s', (input, op) => {
    expect(unparseOk(`${input} + 2`)).toBe(`(a ${op} (1 + 2))`);
    expect(unparseOk(`x = ${input}`)).toBe(`(x = (a ${op} 1))`);
  });
});

describe('shift from adjacent > tokens (Roslyn: the parser joins them)', () => {
  it.each<[string, string]>([
    ['a >> b', '(a >> b)'],
    ['a>>b', '(a >> b)'],
    ['a >>= b', '(a >>= b)'],
    ['a>>=b', '(a >>= b)'],
    ['a > b', '(a > b)'],
    ['a >= b', '(a >= b)'],
    ['1 << 2 >> 3', '((1 << 2) >> 3)'],
    ['a >> b > c', '((a >> b) > c)'],
    ['a > b >> c', '(a > (b >> c))'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
});

describe('is and as sit with the relational operators (§12.12)', () => {
  it.each<[string, string]>([
    ['a is T', '(a is T)'],
    ['a is T == b', '((a is T) == b)'],
    ['a == b is T', '(a == (b is T))'],
    ['a < b is bool', '((a < b) is bool)'],
    ['a is bool is bool', '((a is bool) is bool)'],
    ['a + b is int', '((a + b) is int)'],
    ['a is T && b is U', '((a is T) && (b is U))'],
    ['a is T || b', '((a is T) || b)'],
    ['!(a is T)', '(!((a is T)))'],
    ['a as T', '(a as T)'],
    ['a as T ?? b', '((a as T) ?? b)'],
    ['a + b as T', '((a + b) as T)'],
    ['a as T == null', '((a as T) == null)'],
    ['(a as T).B', '((a as T)).B'],
    ['a as T as U', '((a as T) as U)'],
    ['a is null', '(a is null)'],
    ['a is null == b', '((a is null) == b)'],
    ['a is int[]', '(a is int[])'],
    ['a is List<int>', '(a is List<int>)'],
    ['a is System.String', '(a is System.String)'],
    ['a is global::A.B', '(a is global::A.B)'],
    ['a as int?', '(a as int?)'],
    ['a as int? ?? 0', '((a as int?) ?? 0)'],
    ['a is int ? b : c', '((a is int) ? b : c)'],
    ['a is int? ? b : c', '((a is int?) ? b : c)'],
    ['a is int ? -1 : 1', '((a is int) ? (-1) : 1)'],
    ['a as int?[]', '(a as int?[])'],
    ['a is T && b', '((a is T) && b)'],
    ['x = y is C<T> && z', '(x = ((y is C<T>) && z))'],
    ['a is A<B> ? c : d', '((a is A<B>) ? c : d)'],
    ['a is Dictionary<string, List<int>>', '(a is Dictionary<string, List<int>>)'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
});
