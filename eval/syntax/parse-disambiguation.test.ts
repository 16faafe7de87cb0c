import { describe, expect, it } from 'vitest';

import { unparseOk } from './testing/helpers.js';

describe('generic names in expressions (C# standard §6.2.5, Grammar ambiguities)', () => {
  it.each<[string, string]>([
    // The standard's own examples.
    ['F(G<A, B>(7))', 'F(G<A, B>(7))'],
    ['F(G<A, B>7)', 'F((G < A), (B > 7))'],
    ['F(G<A, B>>7)', 'F((G < A), (B >> 7))'],
    ['x = F<A> + y', '(x = ((F < A) > (+y)))'],
    ['x = y is C<T> && z', '(x = ((y is C<T>) && z))'],
    // The examples.
    ['(int)a.M<Foo.Bar>(e).x', '((int)a.M<Foo.Bar>(e).x)'],
    ['x = a < b > (c)', '(x = a<b>(c))'],
    // Each token of the follow set keeps the type arguments.
    ['x = F<A>(1)', '(x = F<A>(1))'],
    ['f(F<A>)', 'f(F<A>)'],
    ['a[F<A>]', 'a[F<A>]'],
    ['new List<int> { F<A> }', 'new List<int> { F<A> }'],
    ['c ? F<A> : b', '(c ? F<A> : b)'],
    ['F<A>;', 'F<A>;'],
    ['f(F<A>, 1)', 'f(F<A>, 1)'],
    ['x = F<A>.B', '(x = F<A>.B)'],
    ['x = F<A>?.B', '(x = F<A>?.B)'],
    ['x = F<A> ? b : c', '(x = (F<A> ? b : c))'],
    ['x = F<A> == b', '(x = (F<A> == b))'],
    ['x = F<A> != b', '(x = (F<A> != b))'],
    ['x = F<A> | b', '(x = (F<A> | b))'],
    ['x = F<A> ^ b', '(x = (F<A> ^ b))'],
    ['x = F<A> && b', '(x = (F<A> && b))'],
    ['x = F<A> || b', '(x = (F<A> || b))'],
    ['x = F<A> & b', '(x = (F<A> & b))'],
    ['x = F<A>[0]', '(x = F<A>[0])'],
    ['x = F<A> < b', '(x = (F<A> < b))'],
    ['x = F<A> <= b', '(x = (F<A> <= b))'],
    ['x = F<A> >= b', '(x = (F<A> >= b))'],
    ['x = F<A> is T', '(x = (F<A> is T))'],
    ['x = F<A> as T', '(x = (F<A> as T))'],
    ['x = F<A>', '(x = F<A>)'],
    // Any other follower makes `<` a less-than.
    ['x = a < b > c', '(x = ((a < b) > c))'],
    ['x = F<A> - y', '(x = ((F < A) > (-y)))'],
    ['x = a<b>1', '(x = ((a < b) > 1))'],
    ['x = F<A>"s"', '(x = ((F < A) > "s"))'],
    ['x = a < b', '(x = (a < b))'],
    ['x = a < b < c', '(x = ((a < b) < c))'],
    ['f(a < b, c > d)', 'f((a < b), (c > d))'],
    ['f(a < b, c > (d))', 'f(a<b, c>(d))'],
    ['x = a < b >= c', '(x = ((a < b) >= c))'],
    ['x = i < n >> 1', '(x = (i < (n >> 1)))'],
    // Nested type arguments close with separate `>` tokens.
    ['F<List<int>>()', 'F<List<int>>()'],
    ['F<List<List<int>>>()', 'F<List<List<int>>>()'],
    ['F<Dictionary<int, List<int>>>(x)', 'F<Dictionary<int, List<int>>>(x)'],
    ['a.M<List<int>>(x).y', 'a.M<List<int>>(x).y'],
    // Type arguments take types only: a literal inside makes it a comparison.
    ['x = F<1>(2)', '(x = ((F < 1) > (2)))'],
    ['x = F<a.b>(2)', '(x = F<a.b>(2))'],
    ['x = F<a[]>(2)', '(x = F<a[]>(2))'],
    ['x = F<int?>(2)', '(x = F<int?>(2))'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
});

describe('casts (C# standard §12.9.7)', () => {
  it.each<[string, string]>([
    // The standard's note: (x)y, (x)(y), (x)(-y) are casts, (x)-y is not...
    ['(x)y', '((x)y)'],
    ['(x)(y)', '((x)(y))'],
    ['(x)(-y)', '((x)((-y)))'],
    ['(x)-y', '((x) - y)'],
    // ...unless x is a keyword type.
    ['(int)y', '((int)y)'],
    ['(int)(y)', '((int)(y))'],
    ['(int)(-y)', '((int)((-y)))'],
    ['(int)-y', '((int)(-y))'],
    ['(A)-b', '((A) - b)'],
    ['(A)+b', '((A) + b)'],
    ['(x)+y', '((x) + y)'],
    ['(x)*y', '((x) * y)'],
    ['(x)&y', '((x) & y)'],
    ['(x)++', '((x)++)'],
    ['(x)--', '((x)--)'],
    ['(x)[0]', '(x)[0]'],
    ['(x).y', '(x).y'],
    ['(x) as T', '((x) as T)'],
    ['(x) is T', '((x) is T)'],
    ['(x) ? a : b', '((x) ? a : b)'],
    ['(x) == y', '((x) == y)'],
    ['(x);', '(x);'],
    // A type that cannot be an expression is always a cast.
    ['(int?)-y', '((int?)(-y))'],
    ['(T?)-y', '((T?)(-y))'],
    ['(T[])-y', '((T[])(-y))'],
    ['(List<int>[])+y', '((List<int>[])(+y))'],
    ['(int[,])x', '((int[,])x)'],
    // A generic type is also an expression (§6.2.5, followed by `)`), so only rule 2 applies.
    ['(A<B>)c', '((A<B>)c)'],
    ['(A<B>)-c', '((A<B>) - c)'],
    ['(A<B>)(c)', '((A<B>)(c))'],
    ['(A.B)c', '((A.B)c)'],
    ['(A.B)-c', '((A.B) - c)'],
    // Commas inside type arguments do not make a tuple.
    ['(F<A, B>(x))', '(F<A, B>(x))'],
    ['(Dictionary<int, string>)x', '((Dictionary<int, string>)x)'],
    ['(d ??= new Dictionary<int, string>())', '((d ??= new Dictionary<int, string>()))'],
    // Not a type at all: a parenthesized expression.
    ['(a + b)', '((a + b))'],
    ['(a < b)', '((a < b))'],
    ['(a ? b : c)', '((a ? b : c))'],
    ['(f())', '(f())'],
    ['(1)', '(1)'],
    ['(int.MaxValue)', '(int.MaxValue)'],
    ['(a[0])', '(a[0])'],
    ['(a?.b)', '(a?.b)'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
});

describe('declaration or expression at the start of a statement', () => {
  it.each<[string, string]>([
    ['a b;', 'a b;'],
    ['a.b c;', 'a.b c;'],
    ['a<b> c;', 'a<b> c;'],
    ['a < b > c;', 'a<b> c;'],
    ['a[] b;', 'a[] b;'],
    ['a? b;', 'a? b;'],
    ['a? b = c;', 'a? b = c;'],
    ['a ? b : c;', '(a ? b : c);'],
    ['a ? b = c : d;', '(a ? (b = c) : d);'],
    ['a * b;', '(a * b);'],
    ['a < b;', '(a < b);'],
    ['a<b>(c);', 'a<b>(c);'],
    ['a(b);', 'a(b);'],
    ['a.b(c);', 'a.b(c);'],
    ['a[b] = c;', '(a[b] = c);'],
    ['a = b;', '(a = b);'],
    ['int.Parse(s);', 'int.Parse(s);'],
    ['var.x;', 'var.x;'],
    ['var(1);', 'var(1);'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
});

describe('? as nullable, conditional or null-conditional', () => {
  it.each<[string, string]>([
    ['a?.b', 'a?.b'],
    ['a?[0]', 'a?[0]'],
    ['a ? .5 : 1', '(a ? 0.5 : 1)'],
    ['a?.5:1', '(a ? 0.5 : 1)'],
    ['a ? b : c', '(a ? b : c)'],
    ['a ?? b', '(a ?? b)'],
    ['x as int? ?? 0', '((x as int?) ?? 0)'],
    ['x is int? ? 1 : 0', '((x is int?) ? 1 : 0)'],
    ['x is int ? 1 : 0', '((x is int) ? 1 : 0)'],
    ['x as T ? a : b', '((x as T) ? a : b)'],
    ['x is T? && y', '((x is T?) && y)'],
    ['(int?)x', '((int?)x)'],
    ['F<int?>()', 'F<int?>()'],
    ['new int?[2]', 'new int?[2]'],
    ['int?[] a = null;', 'int?[] a = null;'],
  ])('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
});
