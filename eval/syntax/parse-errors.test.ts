import { describe, expect, it } from 'vitest';

import { parse } from './parser.js';
import { errorSummary } from './testing/helpers.js';

// [input, code of the first error, its column, a fragment of its message]
function table(rows: [string, string, number, string][]): void {
  it.each(rows)('%s', (input, code, column, fragment) => {
    const { errors } = parse(input);
    expect(errors.length, 'an error is reported').toBeGreaterThan(0);
    const first = errors[0]!;
    expect({ code: first.code, column: first.span.column }).toEqual({ code, column });
    expect(first.message).toContain(fragment);
    expect(first.message).toContain(`column ${column})`);
  });
}

describe('constructs rejected by name', () => {
  table([
    ['f(async x => x)', 'unsupported-lambda', 3, 'async and static lambdas are not supported'],
    ['f(static x => x)', 'unsupported-lambda', 3, 'async and static lambdas'],
    ['x switch { 1 => a, _ => b }', 'unsupported-switch-expression', 3, 'switch expressions'],
    ['a ?? throw new E()', 'unsupported-throw-expression', 6, 'throw expressions'],
    ['await f()', 'unsupported-await', 1, 'await is not supported'],
    ['var x = await t;', 'unsupported-await', 9, 'await is not supported'],
    ['await foreach (var x in xs) {}', 'unsupported-await', 1, 'await is not supported'],
    ['(a, b)', 'unsupported-tuple', 1, 'tuples are not supported'],
    ['x = (a < b, c > d)', 'unsupported-tuple', 5, 'tuples are not supported'],
    ['var (a, b) = t;', 'unsupported-tuple', 5, 'tuples are not supported'],
    ['(int, string) t = x;', 'unsupported-tuple', 1, 'tuples are not supported'],
    ['typeof((int, int))', 'unsupported-tuple', 8, 'tuples are not supported'],
    ['x is T t', 'unsupported-pattern', 8, 'declaration patterns (x is T name)'],
    ['x is int n && n > 0', 'unsupported-pattern', 10, 'declaration patterns'],
    ['x is not null', 'unsupported-pattern', 6, "'not' patterns"],
    ['x is $"a"', 'unsupported-pattern', 6, 'constant patterns other than a literal'],
    ['x is -y', 'unsupported-pattern', 6, 'constant patterns other than a literal'],
    ['x is var y', 'unsupported-pattern', 6, 'var patterns'],
    ['x is { Length: 2 }', 'unsupported-pattern', 6, 'property and positional patterns'],
    ['x is (1, 2)', 'unsupported-pattern', 6, 'property and positional patterns'],
    ['x is T { }', 'unsupported-pattern', 8, 'property and positional patterns'],
    ['x is [1, 2]', 'unsupported-pattern', 6, 'list patterns'],
    ['x is > 5', 'unsupported-pattern', 6, 'relational patterns'],
    ['x is A or B', 'unsupported-pattern', 8, "pattern combinators ('and', 'or')"],
    ['using (var s = f()) { }', 'unsupported-statement', 1, "'using' statements"],
    ['using var s = f();', 'unsupported-statement', 1, "'using' statements"],
    ['lock (o) { }', 'unsupported-statement', 1, "'lock' statements"],
    ['goto done;', 'unsupported-statement', 1, "'goto' statements"],
    ['yield return 1;', 'unsupported-statement', 1, "'yield' statements"],
    ['checked { x++; }', 'unsupported-statement', 1, "'checked' statements"],
    ['unsafe { }', 'unsupported-statement', 1, "'unsafe' statements"],
    ['fixed (int* p = a) { }', 'unsupported-statement', 1, "'fixed' statements"],
    ['label: x;', 'unsupported-statement', 1, 'labels are not supported'],
    ['const int x = 1;', 'unsupported-declaration', 1, "'const' locals are not supported"],
    ['ref int r = ref x;', 'unsupported-declaration', 1, "'ref' locals"],
    ['class C { }', 'unsupported-declaration', 1, 'type and member declarations'],
    ['static int F() => 1;', 'unsupported-declaration', 1, 'type and member declarations'],
    ['T M<T>(T x) => x;', 'unsupported-local-function', 1, 'local functions'],
    ['stackalloc int[3]', 'unsupported-stackalloc', 1, 'stackalloc is not supported'],
    ['int* p = null;', 'unsupported-pointer', 1, 'pointers'],
    ['&x', 'unsupported-pointer', 1, 'pointers'],
    ['*p', 'unsupported-pointer', 1, 'pointers'],
    ['p->x', 'unsupported-pointer', 2, 'pointers'],
    ['(int*)p', 'unsupported-pointer', 1, 'pointers'],
    ['typeof(int*)', 'unsupported-pointer', 11, 'pointers'],
    ['dynamic d = x;', 'unsupported-dynamic', 1, "'dynamic' is not supported"],
    ['(dynamic)x', 'unsupported-dynamic', 2, "'dynamic'"],
    ['f(out dynamic d)', 'unsupported-dynamic', 7, "'dynamic'"],
    ['a[1..3]', 'unsupported-range', 4, 'ranges (a..b)'],
    ['a[..3]', 'unsupported-range', 3, 'ranges'],
    ['a[^1]', 'unsupported-range', 3, 'index-from-end (^i)'],
    ['Foo f = new();', 'unsupported-target-typed-new', 9, 'target-typed new()'],
    ['Foo f = new(1) { A = 2 };', 'unsupported-target-typed-new', 9, 'target-typed new()'],
    ['base.ToString()', 'unsupported-base', 1, "'base' is not supported"],
    ['y = ref x', 'unsupported-ref', 5, "'ref' is only supported on call arguments"],
    ['[1, 2, 3]', 'unsupported-collection-expression', 1, 'collection expressions'],
    ['q = p with { X = 1 }', 'unsupported-with', 7, "'with' expressions"],
    ['a >>> 1', 'unsupported-unsigned-shift', 3, '>>> is not supported'],
    ['"""raw"""', 'unsupported-raw-string', 1, 'raw string literals'],
    ['#region x', 'unsupported-preprocessor', 1, 'preprocessor directives'],
  ]);
});

describe('malformed input', () => {
  table([
    ['a +', 'missing-expression', 4, 'expected an expression but found the end of the input'],
    ['a + ;', 'missing-expression', 5, "found ';'"],
    ['* 2', 'unsupported-pointer', 1, 'pointers'],
    ['f(a, , b)', 'missing-expression', 6, "found ','"],
    ['f(a,)', 'missing-expression', 5, "found ')'"],
    ['x = a ? b', 'expected-token', 10, "expected ':' but found the end of the input"],
    ['a ? b :', 'missing-expression', 8, 'expected an expression'],
    ['(a + b', 'expected-token', 7, "expected ')' but found the end of the input"],
    ['f(a', 'expected-token', 4, "expected ')'"],
    ['f(a b)', 'expected-token', 5, "expected ',' or ')' but found identifier 'b'"],
    ['a[0', 'expected-token', 4, "expected ']'"],
    ['a + b)', 'unexpected-token', 6, "unexpected ')': expected ';' or an operator"],
    ['a b c', 'unexpected-token', 5, "unexpected identifier 'c'"],
    ['x = 1 2', 'unexpected-token', 7, 'unexpected number 2'],
    ['1 = x', 'invalid-assignment-target', 1, "the operand of '=' must be a variable"],
    ['a + b = c', 'invalid-assignment-target', 1, "operand of '='"],
    ['f() = 1', 'invalid-assignment-target', 1, "operand of '='"],
    ['a?.b = 1', 'invalid-assignment-target', 1, "operand of '='"],
    ['a?.b.c = 1', 'invalid-assignment-target', 1, "operand of '='"],
    ['5++', 'invalid-assignment-target', 1, "operand of '++'"],
    ['--f()', 'invalid-assignment-target', 3, "operand of '--'"],
    ['f(ref 1)', 'invalid-assignment-target', 7, "operand of 'ref'"],
    ['f(out a + b)', 'invalid-assignment-target', 7, "operand of 'out'"],
    ['var x;', 'invalid-declaration', 5, 'var needs an initializer'],
    ['var a = 1, b = 2;', 'invalid-declaration', 1, 'var declares one variable at a time'],
    ['var a = { 1, 2 };', 'invalid-declaration', 9, 'needs an array type'],
    ['int a = { 1 };', 'invalid-declaration', 9, 'needs an array type'],
    ['int a[3];', 'invalid-declaration', 6, 'write the brackets on the type'],
    ['int x = ;', 'missing-expression', 9, 'expected an expression'],
    ['int', 'type-as-expression', 1, "'int' is a type, not a value"],
    ['int + 1', 'type-as-expression', 1, "'int' is a type"],
    ['typeof(x', 'expected-token', 9, "expected ')'"],
    ['typeof()', 'missing-type', 8, "expected a type but found ')'"],
    ['default(1)', 'missing-type', 9, 'expected a type but found number 1'],
    ['List<void> x;', 'invalid-type', 6, "'void' is only a type inside typeof(void)"],
    ['default(List<>)', 'invalid-type', 9, 'unbound generic type is only allowed inside typeof'],
    ['typeof(List<List<>>)', 'invalid-type', 13, 'unbound generic'],
    ['nameof(f())', 'invalid-nameof', 8, 'nameof(...) takes a name'],
    ['nameof(1)', 'invalid-nameof', 8, 'takes a name'],
    ['new Foo', 'expected-token', 8, "expected '(', '[' or '{' after new T"],
    ['new int[]', 'invalid-array-creation', 10, 'needs sizes or an initializer'],
    ['new int[3][4]', 'invalid-array-creation', 11, 'only the first brackets take sizes'],
    ['new[3]', 'invalid-array-creation', 4, 'write new[] { ... }'],
    ['new[]', 'invalid-array-creation', 6, 'an implicitly typed array needs an initializer'],
    ['new Foo { A = 1, 2 }', 'expected-token', 18, 'a member initializer (Name = value)'],
    ['new List<int> { 1 2 }', 'expected-token', 19, "expected ',' or '}'"],
    [
      'new List<int> { 1, X = 2 }',
      'invalid-initializer',
      20,
      'sets members (A = 1, ...) or adds elements',
    ],
    ['new int[] { 1, 2', 'expected-token', 17, "expected '}'"],
    ['from x in xs', 'invalid-query', 13, 'must end with a select or group clause'],
    ['var q = from num in array;', 'invalid-query', 26, "clause (found ';'): add select x"],
    ['from x in xs where x > 1; y', 'invalid-query', 25, 'must end with a select or group'],
    ['f(from x in xs orderby x)', 'invalid-query', 25, "select or group clause (found ')')"],
    ['from x in xs group x by x into g', 'invalid-query', 33, 'must end with a select or group'],
    ['from x in xs selec x', 'invalid-query', 14, "found identifier 'selec'"],
    ['from x xs select x', 'expected-token', 8, "expected 'in' but found identifier 'xs'"],
    ['from int x xs select x', 'expected-token', 12, "expected 'in'"],
    ['from x in select x', 'missing-expression', 11, "found identifier 'select'"],
    ['from x in xs where select x', 'missing-expression', 20, "found identifier 'select'"],
    ['from x in xs select select', 'missing-expression', 21, "found identifier 'select'"],
    [
      'from x in xs orderby descending select x',
      'missing-expression',
      22,
      'expected an expression',
    ],
    [
      'from int in xs select 1',
      'expected-token',
      10,
      "expected a range variable name but found 'in'",
    ],
    ['from x in xs join y in ys x equals y select x', 'expected-token', 27, "expected 'on'"],
    ['from x in xs join y in ys on x y select x', 'expected-token', 32, "expected 'equals'"],
    [
      'from x in xs join y in ys on x equals y into select 1',
      'invalid-query',
      53,
      'select or group',
    ],
    ['from x in xs group x x.k', 'expected-token', 22, "expected 'by' but found identifier 'x'"],
    ['from x in xs group x by', 'missing-expression', 24, 'expected an expression'],
    [
      'from x in xs let y x select y',
      'expected-token',
      20,
      "expected '=' but found identifier 'x'",
    ],
    ['from x in xs let = 1 select x', 'expected-token', 18, 'expected a range variable name'],
    ['from x in xs select x into', 'expected-token', 27, 'expected a range variable name'],
    ['from x in xs from x in ys select x', 'invalid-query', 19, "range variable 'x' is already"],
    ['from x in xs let x = 1 select x', 'invalid-query', 18, "range variable 'x' is already"],
    [
      'from x in xs join x in ys on x equals x select x',
      'invalid-query',
      19,
      "variable 'x' is already",
    ],
    [
      'from x in xs join y in ys on x equals y into x select x',
      'invalid-query',
      46,
      "'x' is already",
    ],
    ['from x in xs where x > ; select x', 'missing-expression', 24, "found ';'"],
    [
      'from a in xs join b in ys on b equals a select a',
      'invalid-query',
      30,
      "'b' is not in scope on the left side",
    ],
    [
      'from a in xs join b in ys on a equals a select a',
      'invalid-query',
      39,
      "'a' is not in scope on the right side",
    ],
    [
      'from a in xs let c = a join b in ys on a equals c select a',
      'invalid-query',
      49,
      "name 'c' is not in scope",
    ],
    ['new { f() }', 'invalid-initializer', 7, 'a simple name (x) or a member access (p.Name)'],
    ['new { a + b }', 'invalid-initializer', 7, 'anonymous type member is written name = value'],
    ['new { 1 }', 'invalid-initializer', 7, 'name = value'],
    ['new { a, a = 2 }', 'invalid-initializer', 10, "two members named 'a'"],
    ['new { p.x, q.x }', 'invalid-initializer', 12, "two members named 'x'"],
    ['new { a = 1 b = 2 }', 'expected-token', 13, "expected ',' or '}'"],
    ['a.', 'expected-token', 3, 'expected a name but found the end of the input'],
    ['a.1', 'unexpected-token', 2, 'unexpected number .1'],
    ['a.if', 'expected-token', 3, "expected a name but found 'if'"],
    ['$"{}"', 'invalid-interpolation', 3, 'empty interpolation hole'],
    ['$"{a b}"', 'unexpected-token', 6, "unexpected identifier 'b': expected '}' to end the hole"],
    ['$"{a ? b : c}"', 'invalid-interpolation', 3, 'needs parentheses: write {(c ? a : b)}'],
    ['$"{a +}"', 'missing-expression', 7, "expected an expression but found '}'"],
    ['$"{x,}"', 'invalid-interpolation', 3, 'empty interpolation hole'],
    ['(a.b())c', 'unexpected-token', 8, "unexpected identifier 'c'"],
    ['checked x', 'expected-token', 9, "expected '('"],
    ['{', 'expected-token', 2, "expected '}'"],
    ['}', 'unexpected-token', 1, "unexpected '}': expected a statement"],
    [')', 'unexpected-token', 1, "unexpected ')'"],
    ['a; ] b', 'unexpected-token', 4, "unexpected ']'"],
    ['x = (', 'missing-expression', 6, 'expected an expression'],
    ['x = a < b > +', 'missing-expression', 14, 'expected an expression'],
    ['await x.F()', 'unsupported-await', 1, 'await is not supported'],
  ]);
});

describe('every error is reported, each with its column', () => {
  it.each<[string, string[]]>([
    ['a +; b +; c', ['missing-expression@4', 'missing-expression@9']],
    [
      'f(x => 1); 0x; goto b; "open',
      ['malformed-number@12', 'unsupported-statement@16', 'unterminated-string@24'],
    ],
    ['var x; var y; z', ['invalid-declaration@5', 'invalid-declaration@12']],
    ['f(a, , b, , c)', ['missing-expression@6', 'missing-expression@11']],
    [
      'x is T t; y is not null; z is -w',
      ['unsupported-pattern@8', 'unsupported-pattern@16', 'unsupported-pattern@31'],
    ],
    ['(a, b) = (b, a)', ['unsupported-tuple@1', 'unsupported-tuple@10']],
    [
      'from x in xs join y in ys x y select x; from z zs select z',
      ['expected-token@27', 'expected-token@29', 'expected-token@48'],
    ],
    ['var q = from x in xs where x; q', ['invalid-query@29']],
    ['from a in xs join b in ys on b equals a select a', ['invalid-query@30', 'invalid-query@39']],
    [
      'new { f() }; stackalloc int[1]; base.X',
      ['invalid-initializer@7', 'unsupported-stackalloc@14', 'unsupported-base@33'],
    ],
    [
      "'ab' + '' + \"\\q\"",
      ['invalid-char-literal@1', 'invalid-char-literal@8', 'invalid-escape@14'],
    ],
    ['$"{a b}{}"', ['unexpected-token@6', 'invalid-interpolation@8']],
    ['lock (o) {} x = (1', ['unsupported-statement@1', 'expected-token@19']],
    ['a +\nb +\n  c d', ['unexpected-token@5']],
  ])('%s', (input, expected) => {
    expect(errorSummary(input)).toEqual(expected);
  });

  it('gives the line as well as the column past the first line', () => {
    const { errors } = parse('var a = 1;\nvar b = a +;\n');
    expect(errors.map((e) => e.message)).toEqual([
      "expected an expression but found ';' (line 2, column 12)",
    ]);
  });

  it('keeps parsing after an error: the program holds the statements around it', () => {
    const { program, errors } = parse('a = 1; goto y; b = 2');
    expect(errors).toHaveLength(1);
    expect(program.statements.map((s) => s.kind)).toEqual([
      'ExpressionStatement',
      'ExpressionStatement',
    ]);
  });
});

describe("the C# compiler's code on errors C# reports itself", () => {
  it.each<[string, string, string]>([
    ['var x;', 'invalid-declaration', 'CS0818'],
    ['new { f() }', 'invalid-initializer', 'CS0746'],
    ['new { a = 1, a = 2 }', 'invalid-initializer', 'CS0833'],
    ['from x in xs', 'invalid-query', 'CS0742'],
    ['from x in xs group x by x into g', 'invalid-query', 'CS0742'],
    ['from x xs select x', 'expected-token', 'CS1003'],
    ['from x in xs join y in ys x equals y select x', 'expected-token', 'CS0743'],
    ['from x in xs join y in ys on x y select x', 'expected-token', 'CS0744'],
    ['from x in xs group x x.k', 'expected-token', 'CS0745'],
    ['from x in xs from x in ys select x', 'invalid-query', 'CS1930'],
    ['from a in xs join b in ys on b equals b select a', 'invalid-query', 'CS1937'],
    ['from a in xs join b in ys on a equals a select a', 'invalid-query', 'CS1938'],
  ])('%s', (input, code, csCode) => {
    const first = parse(input).errors[0];
    expect({ code: first?.code, csCode: first?.csCode }).toEqual({ code, csCode });
  });
});
