import { describe, expect, it } from 'vitest';

import { parse } from './parser.js';
import { unparseOk } from './testing/helpers.js';

// [input, canonical unparse]: see unparse.ts for the canonical form.
function table(rows: [string, string][]): void {
  it.each(rows)('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
}

describe('literals of every kind, printed by value', () => {
  table([
    ['42', '42'],
    ['0x2A', '42'],
    ['0b101010', '42'],
    ['4_2', '42'],
    ['42u', '42u'],
    ['42L', '42L'],
    ['42UL', '42UL'],
    ['2147483648', '2147483648u'],
    ['4294967296', '4294967296L'],
    ['0xFFFFFFFFFFFFFFFF', '18446744073709551615UL'],
    ['1.5', '1.5'],
    ['1e3', '1e3'],
    ['1E3', '1e3'],
    ['.25', '0.25'],
    ['2d', '2d'],
    ['2.5f', '2.5f'],
    ['2F', '2f'],
    ['1.50m', '1.50m'],
    ['1_000.5M', '1000.5m'],
    ["'x'", "'x'"],
    ["'\\n'", "'\\n'"],
    ["'\\''", "'\\''"],
    ["'\"'", "'\"'"],
    ["'\\x41'", "'A'"],
    ["'\\u00e9'", "'\\u00E9'"],
    ["'\\0'", "'\\0'"],
    ['"hello"', '"hello"'],
    ['"a\\"b"', '"a\\"b"'],
    ['"\\\\"', '"\\\\"'],
    ['"\\t\\r\\n\\v\\f\\a\\b\\0"', '"\\t\\r\\n\\v\\f\\a\\b\\0"'],
    ['"\\x41BC"', '"\\u41BC"'],
    ['"\\U0001F600"', '"\\uD83D\\uDE00"'],
    ['@"C:\\temp"', '"C:\\\\temp"'],
    ['@"a""b"', '"a\\"b"'],
    ['@"line1\nline2"', '"line1\\nline2"'],
    ['true', 'true'],
    ['false', 'false'],
    ['null', 'null'],
    ['default', 'default'],
  ]);
});

describe('negative minimum literals (§6.4.5.3)', () => {
  table([
    ['-2147483648', '-2147483648'],
    ['- 2147483648', '-2147483648'],
    ['-9223372036854775808', '-9223372036854775808L'],
    ['-9223372036854775808L', '-9223372036854775808L'],
    ['-2147483647', '(-2147483647)'],
    ['-(2147483648)', '(-(2147483648u))'],
    ['-2147483648u', '(-2147483648u)'],
    ['-0x80000000', '(-2147483648u)'],
    ['-9223372036854775808UL', '(-9223372036854775808UL)'],
    ['-2147483648.ToString()', '(-2147483648u.ToString())'],
    ['1-2147483648', '(1 - 2147483648u)'],
  ]);

  it('folds into one int Literal that spans the minus', () => {
    const s = parse('-2147483648').program.statements[0];
    expect(s?.kind === 'ExpressionStatement' && s.expression).toMatchObject({
      kind: 'Literal',
      type: 'int',
      value: -2147483648n,
      span: { start: 0, end: 11 },
    });
  });
});

describe('interpolated strings', () => {
  table([
    ['$"hp={hp}"', '$"hp={hp}"'],
    ['$"{a}{b}"', '$"{a}{b}"'],
    ['$"{a + b}"', '$"{(a + b)}"'],
    ['$"{x,5}|{x,-5}"', '$"{x,5}|{x,(-5)}"'],
    ['$"{x:N2}"', '$"{x:N2}"'],
    ['$"{x,10:0.00}"', '$"{x,10:0.00}"'],
    ['$"{{{x}}}"', '$"{{{x}}}"'],
    ['$"\\n{x}\\t"', '$"\\n{x}\\t"'],
    ['$@"C:\\{dir}"', '$"C:\\\\{dir}"'],
    ['@$"say ""{x}"""', '$"say \\"{x}\\""'],
    ['$"{d["k"]}"', '$"{d["k"]}"'],
    ['$"{$"{x}"}"', '$"{$"{x}"}"'],
    ['$"{(c ? a : b)}"', '$"{((c ? a : b))}"'],
    ['$"{entity(3).Index}"', '$"{entity(3).Index}"'],
    ['$"{DateTime.Now:HH:mm:ss}"', '$"{DateTime.Now:HH:mm:ss}"'],
    ['$""', '$""'],
  ]);
});

describe('names, member access, calls, generic calls, indexers', () => {
  table([
    ['world', 'world'],
    ['em', 'em'],
    ['entity(3)', 'entity(3)'],
    ['entity(3, 1)', 'entity(3, 1)'],
    ['@class', '@class'],
    ['@var', 'var'],
    ['a.b.c', 'a.b.c'],
    ['a.b()', 'a.b()'],
    ['a.b(c, d)', 'a.b(c, d)'],
    ['f()()', 'f()()'],
    ['a[0]', 'a[0]'],
    ['a[i, j]', 'a[i, j]'],
    ['a[0][1]', 'a[0][1]'],
    ['a.b[0].c(1)[2]', 'a.b[0].c(1)[2]'],
    ['F<int>()', 'F<int>()'],
    ['F<int, string>(x)', 'F<int, string>(x)'],
    ['a.M<List<int>>(x)', 'a.M<List<int>>(x)'],
    ['a.M<Dictionary<string, List<int>>>()', 'a.M<Dictionary<string, List<int>>>()'],
    [
      'world.GetExistingSystem<MoveSystem>().Enabled',
      'world.GetExistingSystem<MoveSystem>().Enabled',
    ],
    [
      'em.GetComponentData<Translation>(entity(3)).Value.x',
      'em.GetComponentData<Translation>(entity(3)).Value.x',
    ],
    [
      'GameObject.Find("Player").GetComponent<Rigidbody>().velocity',
      'GameObject.Find("Player").GetComponent<Rigidbody>().velocity',
    ],
    ['F<int[]>()', 'F<int[]>()'],
    ['F<int?>()', 'F<int?>()'],
    ['F<A.B<C>.D>()', 'F<A.B<C>.D>()'],
    ['List<int>.Enumerator', 'List<int>.Enumerator'],
    ['int.MaxValue', 'int.MaxValue'],
    ['string.Join(",", xs)', 'string.Join(",", xs)'],
    ['object.ReferenceEquals(a, b)', 'object.ReferenceEquals(a, b)'],
    ['double.Parse("1.5")', 'double.Parse("1.5")'],
    ['global::System.Math.Abs(x)', 'global::System.Math.Abs(x)'],
    ['this', 'this'],
    ['this.x', 'this.x'],
    ['a?.b', 'a?.b'],
    ['a?.b.c', 'a?.b.c'],
    ['a?.b()', 'a?.b()'],
    ['a?[0]', 'a?[0]'],
    ['a?[0]?.b', 'a?[0]?.b'],
    ['a?.b?.c', 'a?.b?.c'],
    ['a?.M<int>()', 'a?.M<int>()'],
    ['a ?. b', 'a?.b'],
    ['x!', '(x!)'],
    ['x!.y', '(x!).y'],
    ['f(x)!.y', '(f(x)!).y'],
    ['f(a: 1, b: 2)', 'f(a: 1, b: 2)'],
    ['f(out x)', 'f(out x)'],
    ['f(out var x)', 'f(out var x)'],
    ['f(out int x)', 'f(out int x)'],
    ['f(out List<int> x)', 'f(out List<int> x)'],
    ['f(out var _)', 'f(out var _)'],
    ['f(out _)', 'f(out _)'],
    ['f(out a.b)', 'f(out a.b)'],
    ['f(out a[0])', 'f(out a[0])'],
    ['f(ref x)', 'f(ref x)'],
    ['f(ref a.b[1])', 'f(ref a.b[1])'],
    ['f(in x)', 'f(in x)'],
    ['f(in x + 1)', 'f(in (x + 1))'],
    ['d.TryGetValue(k, out var v)', 'd.TryGetValue(k, out var v)'],
    ['f(name: out var v)', 'f(name: out var v)'],
    ['int.TryParse("5", out int n)', 'int.TryParse("5", out int n)'],
    ['(a).b', '(a).b'],
    ['(a + b).ToString()', '((a + b)).ToString()'],
    ['((a))', '((a))'],
    ['nameof(x)', 'nameof(x)'],
    ['nameof(a.b.C)', 'nameof(a.b.C)'],
    ['nameof(List<int>.Count)', 'nameof(List<int>.Count)'],
    ['nameof(int.MaxValue)', 'nameof(int.MaxValue)'],
    ['nameof + 1', '(nameof + 1)'],
    ['var + 1', '(var + 1)'],
    ['from + 1', '(from + 1)'],
    ['await + 1', '(await + 1)'],
    ['async', 'async'],
  ]);
});

describe('typeof, default, sizeof, checked, unchecked', () => {
  table([
    ['typeof(int)', 'typeof(int)'],
    ['typeof(void)', 'typeof(void)'],
    ['typeof(string[])', 'typeof(string[])'],
    ['typeof(int[,][])', 'typeof(int[,][])'],
    ['typeof(int?)', 'typeof(int?)'],
    ['typeof(List<int>)', 'typeof(List<int>)'],
    ['typeof(List<>)', 'typeof(List<>)'],
    ['typeof(Dictionary<,>)', 'typeof(Dictionary<,>)'],
    ['typeof(Outer<>.Inner)', 'typeof(Outer<>.Inner)'],
    [
      'typeof(System.Collections.Generic.List<int>)',
      'typeof(System.Collections.Generic.List<int>)',
    ],
    ['typeof(global::A)', 'typeof(global::A)'],
    ['typeof(T).Name', 'typeof(T).Name'],
    ['default(int)', 'default(int)'],
    ['default(string)', 'default(string)'],
    ['default(List<int>)', 'default(List<int>)'],
    ['default(int?)', 'default(int?)'],
    ['default(int) == 0', '(default(int) == 0)'],
    ['x = default', '(x = default)'],
    ['sizeof(int)', 'sizeof(int)'],
    ['sizeof(Vector3)', 'sizeof(Vector3)'],
    ['checked(a + b)', 'checked((a + b))'],
    ['unchecked((int)x)', 'unchecked(((int)x))'],
    ['checked(x * 2).ToString()', 'checked((x * 2)).ToString()'],
    ['-checked(x)', '(-checked(x))'],
  ]);
});

describe('object, collection and array creation', () => {
  table([
    ['new Foo()', 'new Foo()'],
    ['new Foo(1, "a")', 'new Foo(1, "a")'],
    ['new Foo().Bar', 'new Foo().Bar'],
    ['new List<int>()', 'new List<int>()'],
    ['new Vector3(1, 2, 3).magnitude', 'new Vector3(1, 2, 3).magnitude'],
    ['new A.B<C>.D()', 'new A.B<C>.D()'],
    ['new int?(5)', 'new int?(5)'],
    ['new global::A()', 'new global::A()'],
    ['new Foo { A = 1 }', 'new Foo { A = 1 }'],
    ['new Foo() { A = 1, B = "x" }', 'new Foo() { A = 1, B = "x" }'],
    ['new Foo { A = 1, }', 'new Foo { A = 1 }'],
    ['new Foo { }', 'new Foo { }'],
    ['new Foo { A = { B = 2 } }', 'new Foo { A = { B = 2 } }'],
    ['new Foo { A = new Bar { B = 2 } }', 'new Foo { A = new Bar { B = 2 } }'],
    ['new Foo { Items = { 1, 2 } }', 'new Foo { Items = { 1, 2 } }'],
    ['new Foo { [0] = 1, [1] = 2 }', 'new Foo { [0] = 1, [1] = 2 }'],
    ['new Foo { ["a", 1] = x }', 'new Foo { ["a", 1] = x }'],
    ['new Foo { A = a + b }', 'new Foo { A = (a + b) }'],
    ['new List<int> { 1, 2, 3 }', 'new List<int> { 1, 2, 3 }'],
    ['new List<int> { 1, 2, 3, }', 'new List<int> { 1, 2, 3 }'],
    ['new List<int> { x }', 'new List<int> { x }'],
    ['new List<int> { x == 1 }', 'new List<int> { (x == 1) }'],
    ['new List<int>(10) { 1 }', 'new List<int>(10) { 1 }'],
    [
      'new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }',
      'new Dictionary<string, int> { { "a", 1 }, { "b", 2 } }',
    ],
    ['new Dictionary<string, int> { ["a"] = 1 }', 'new Dictionary<string, int> { ["a"] = 1 }'],
    ['new int[3]', 'new int[3]'],
    ['new int[n + 1]', 'new int[(n + 1)]'],
    ['new int[2, 3]', 'new int[2, 3]'],
    ['new int[3][]', 'new int[3][]'],
    ['new int[3][,]', 'new int[3][,]'],
    ['new int[] { 1, 2, 3 }', 'new int[] { 1, 2, 3 }'],
    ['new int[] { }', 'new int[] { }'],
    ['new int[3] { 1, 2, 3 }', 'new int[3] { 1, 2, 3 }'],
    ['new int[,] { { 1, 2 }, { 3, 4 } }', 'new int[,] { { 1, 2 }, { 3, 4 } }'],
    ['new int[][] { new int[] { 1 } }', 'new int[][] { new int[] { 1 } }'],
    ['new string[] { "a", }', 'new string[] { "a" }'],
    ['new int?[3]', 'new int?[3]'],
    ['new List<int>[2]', 'new List<int>[2]'],
    ['new[] { 1, 2 }', 'new[] { 1, 2 }'],
    ['new[,] { { 1 }, { 2 } }', 'new[,] { { 1 }, { 2 } }'],
    ['new[] { 1, 2 }[0]', 'new[] { 1, 2 }[0]'],
    ['new int[3].Length', 'new int[3].Length'],
    ['new int[] { 1 }.Length', 'new int[] { 1 }.Length'],
  ]);
});

describe('anonymous object creation (§12.8.17.7)', () => {
  table([
    ['new { a = 1, p.Name, x }', 'new { a = 1, p.Name, x }'],
    ['new { A = a + b, }', 'new { A = (a + b) }'],
    ['new { }', 'new { }'],
    ['new { a?.b }', 'new { a?.b }'],
    ['new { this.x, Inner = new { y } }', 'new { this.x, Inner = new { y } }'],
    ['new { x = y = 2 }', 'new { x = (y = 2) }'],
    ['new { a = 1 }.a', 'new { a = 1 }.a'],
    ['new { @class = 1 }', 'new { @class = 1 }'],
    ['var o = new { e.hp, e.name };', 'var o = new { e.hp, e.name };'],
  ]);

  it('keeps the written name apart from the projected one', () => {
    const s = parse('new { a = 1, p.Name }').program.statements[0];
    expect(s?.kind === 'ExpressionStatement' && s.expression).toMatchObject({
      kind: 'AnonymousObjectCreation',
      members: [
        { kind: 'AnonymousMember', name: { name: 'a' }, value: { kind: 'Literal' } },
        { kind: 'AnonymousMember', name: null, value: { kind: 'MemberAccess' } },
      ],
      span: { start: 0, end: 21 },
    });
  });
});

describe('casts', () => {
  table([
    ['(int)x', '((int)x)'],
    ['(float)x / 2', '(((float)x) / 2)'],
    ['(int)x.y', '((int)x.y)'],
    ['(int)x.M()[0]', '((int)x.M()[0])'],
    ['(int)-x', '((int)(-x))'],
    ['(int)+x', '((int)(+x))'],
    ['(int)++x', '((int)(++x))'],
    ['(int)x++', '((int)(x++))'],
    ['(int)(long)x', '((int)((long)x))'],
    ['(int?)null', '((int?)null)'],
    ['(int[])arr', '((int[])arr)'],
    ['(string)o', '((string)o)'],
    ['(object)1', '((object)1)'],
    ['(Foo)x', '((Foo)x)'],
    ['(Foo.Bar)x', '((Foo.Bar)x)'],
    ['(List<int>)x', '((List<int>)x)'],
    ['(global::A)x', '((global::A)x)'],
    ['(T)(x)', '((T)(x))'],
    ['(T)!x', '((T)(!x))'],
    ['(T)~x', '((T)(~x))'],
    ['(T)1', '((T)1)'],
    ['(T)"s"', '((T)"s")'],
    ["(T)'c'", "((T)'c')"],
    ['(T)$"s"', '((T)$"s")'],
    ['(T)true', '((T)true)'],
    ['(T)null', '((T)null)'],
    ['(T)this', '((T)this)'],
    ['(T)new U()', '((T)new U())'],
    ['(T)typeof(U)', '((T)typeof(U))'],
    ['(T)default', '((T)default)'],
    ['(T)checked(x)', '((T)checked(x))'],
    ['(T)int.MaxValue', '((T)int.MaxValue)'],
    ['(Foo)x.y.z', '((Foo)x.y.z)'],
    ['(int)(x + y)', '((int)((x + y)))'],
    ['(byte)(x & 0xFF)', '((byte)((x & 255)))'],
    ['(T)x is U', '(((T)x) is U)'],
  ]);
});

describe('is patterns', () => {
  table([
    ['x is T', '(x is T)'],
    ['x is null', '(x is null)'],
    ['x is 5', '(x is 5)'],
    ['x is -1', '(x is -1)'],
    ['x is +1.5', '(x is +1.5)'],
    ['x is "a"', '(x is "a")'],
    ["x is 'c'", "(x is 'c')"],
    ['x is true', '(x is true)'],
    ['x is 5 && y', '((x is 5) && y)'],
    ['x is 5 ? 1 : 0', '((x is 5) ? 1 : 0)'],
    ['x is Color.Red', '(x is Color.Red)'],
    ['x is int.MaxValue', '(x is int.MaxValue)'],
    ['x is double.NaN ? 1 : 0', '((x is double.NaN) ? 1 : 0)'],
  ]);
});

describe('statements and declarations', () => {
  table([
    ['', ''],
    ['  // nothing but a comment\n', ''],
    ['x', 'x'],
    ['x;', 'x;'],
    ['a; b', 'a; b'],
    ['a; b;', 'a; b;'],
    [';;a;;', 'a;'],
    ['var x = 1', 'var x = 1'],
    ['var x = 1; x + 1', 'var x = 1; (x + 1)'],
    ['int x = 1;', 'int x = 1;'],
    ['int x;', 'int x;'],
    ['int a = 1, b, c = 3;', 'int a = 1, b, c = 3;'],
    ['string s = null;', 'string s = null;'],
    ['List<int> xs = new List<int>();', 'List<int> xs = new List<int>();'],
    ['Dictionary<string, List<int>> d = null;', 'Dictionary<string, List<int>> d = null;'],
    ['int[] a = { 1, 2 };', 'int[] a = { 1, 2 };'],
    ['int[,] m = { { 1 }, { 2 } };', 'int[,] m = { { 1 }, { 2 } };'],
    ['int[] a = new int[3];', 'int[] a = new int[3];'],
    ['int? n = null;', 'int? n = null;'],
    ['int? n = c ? 1 : 2;', 'int? n = (c ? 1 : 2);'],
    ['Foo.Bar x = y;', 'Foo.Bar x = y;'],
    ['global::A x = y;', 'global::A x = y;'],
    ['var @class = 1;', 'var @class = 1;'],
    ['var var = 1;', 'var var = 1;'],
    ['from x = 1;', 'from x = 1;'],
    ['a b;', 'a b;'],
    ['a < b > c;', 'a<b> c;'],
    [
      'var e = entity(3); em.GetComponentData<Health>(e).Value',
      'var e = entity(3); em.GetComponentData<Health>(e).Value',
    ],
    ['x = 5; x++; x', '(x = 5); (x++); x'],
    ['f(); g();', 'f(); g();'],
    ['new Foo();', 'new Foo();'],
    ['a * b;', '(a * b);'],
    ['a ? b : c;', '(a ? b : c);'],
    ['a ? b = 1 : c = 2;', '(a ? (b = 1) : (c = 2));'],
    ['int.Parse("1");', 'int.Parse("1");'],
    ['x // comment\n+ 1 /* more */', '(x + 1)'],
    ['a\n.b\n.c()', 'a.b.c()'],
  ]);

  it('records the declaration shape', () => {
    const s = parse('int a = 1, b;').program.statements[0];
    expect(s).toMatchObject({
      kind: 'LocalDeclaration',
      type: { kind: 'PredefinedType', name: 'int' },
      declarators: [
        { name: { name: 'a' }, initializer: { kind: 'Literal', value: 1n } },
        { name: { name: 'b' }, initializer: null },
      ],
      semicolon: true,
    });
  });
});

describe('control statements, lambdas and local functions (issue 17)', () => {
  table([
    [
      'var s = 0; for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; s += i; } s',
      'var s = 0; for (int i = 0; (i < 10); (i++)) { if (((i % 2) == 0)) continue; (s += i); } s',
    ],
    ['for (;;) { break; }', 'for (;;) { break; }'],
    ['for (i = 0, j = 1; ; i++, j--) ;', 'for ((i = 0), (j = 1);; (i++), (j--)) ;'],
    [
      'foreach (var x in xs) total += x.value; total',
      'foreach (var x in xs) (total += x.value); total',
    ],
    ['foreach (Game.Item x in xs) { }', 'foreach (Game.Item x in xs) { }'],
    ['if (a) b(); else if (c) d(); else { }', 'if (a) b(); else if (c) d(); else { }'],
    ['while (x) x--;', 'while (x) (x--);'],
    ['do { i++; } while (i < 3);', 'do { (i++); } while ((i < 3));'],
    ['return;', 'return;'],
    ['throw;', 'throw;'],
    ['throw new E("x");', 'throw new E("x");'],
    [
      'switch (x) { case 1: case 2: y = 1; break; case string s when s.Length > 0: break; case int: break; case Color.Red: break; default: break; }',
      'switch (x) { case 1: case 2: (y = 1); break; case string s when (s.Length > 0): break; case int: break; case Color.Red: break; default: break; }',
    ],
    [
      'try { a(); } catch (InvalidOperationException e) when (e.Message != null) { b(); } catch { } finally { c(); }',
      'try { a(); } catch (InvalidOperationException e) when ((e.Message != null)) { b(); } catch { } finally { c(); }',
    ],
    ['xs.Where(e => e.hp < 10)', 'xs.Where(((e) => (e.hp < 10)))'],
    ['xs.Select((e, i) => i)', 'xs.Select(((e, i) => i))'],
    ['f(() => 1)', 'f((() => 1))'],
    [
      'Func<int, int> f = (int x) => { return x * 2; };',
      'Func<int, int> f = ((int x) => { return (x * 2); });',
    ],
    ['f(delegate (int x) { return x; })', 'f(((int x) => { return x; }))'],
    ['int Twice(int x) => x * 2; Twice(3)', 'int Twice(int x) => (x * 2); Twice(3)'],
    [
      'string Greet(string who = "you", int n = -1) => who; Greet()',
      'string Greet(string who = "you", int n = (-1)) => who; Greet()',
    ],
    ['void Log(string s) { Debug.Log(s); }', 'void Log(string s) { Debug.Log(s); }'],
  ]);
});
