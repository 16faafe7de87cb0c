import { describe, expect, it } from 'vitest';

import type { Expression, Invocation, Lambda, MemberAccess } from './ast.js';
import { parse } from './parser.js';
import { TRANSPARENT_PREFIX } from './parse-query.js';
import { unparseOk, walk } from './testing/helpers.js';

// [query, its translation by C# standard §12.20.3 written by hand, in unparse's notation]
function table(rows: [string, string][]): void {
  it.each(rows)('%s', (input, expected) => {
    expect(unparseOk(input)).toBe(expected);
  });
}

/** The hidden parameter of the n-th transparent identifier of a parse. */
const h = (n: number): string => `${TRANSPARENT_PREFIX}${n}`;

function only(source: string): Expression {
  const { program, errors } = parse(source);
  expect(errors).toEqual([]);
  const s = program.statements[0];
  if (s?.kind !== 'ExpressionStatement') throw new Error('not an expression statement');
  return s.expression;
}

const text = (source: string, n: { span: { start: number; end: number } }): string =>
  source.slice(n.span.start, n.span.end);

describe('each clause by its translation (§12.20.3.3 to §12.20.3.6)', () => {
  table([
    [
      'from x in xs where x > 1 select x * 2',
      'xs.Where(((x) => (x > 1))).Select(((x) => (x * 2)))',
    ],
    ['from x in xs select x.Name', 'xs.Select(((x) => x.Name))'],
    // degenerate: still a Select, so that the result is never the source itself (§12.20.3.4)
    ['from x in xs select x', 'xs.Select(((x) => x))'],
    ['from x in xs select (x)', 'xs.Select(((x) => (x)))'],
    // after another clause, `select x` adds nothing (§12.20.3.6)
    ['from x in xs where x > 1 select x', 'xs.Where(((x) => (x > 1)))'],
    ['from x in xs orderby x select x', 'xs.OrderBy(((x) => x))'],
    // an explicit range variable type is a Cast (§12.20.3.3)
    ['from int x in xs select x', 'xs.Cast<int>().Select(((x) => x))'],
    [
      'from Enemy e in list where e.hp < 10 select e',
      'list.Cast<Enemy>().Where(((e) => (e.hp < 10)))',
    ],
    ['from List<int> l in ls select l.Count', 'ls.Cast<List<int>>().Select(((l) => l.Count))'],
    ['from x in a + b select x', '(a + b).Select(((x) => x))'],
    // the source in parentheses: a ?. chain does not take the call in
    ['from x in a?.b select x', '(a?.b).Select(((x) => x))'],
    ['from x in xs where x.a?.b > 1 select x', 'xs.Where(((x) => (x.a?.b > 1)))'],
    [
      'from x in xs orderby x.a, x.b descending, x.c ascending select x',
      'xs.OrderBy(((x) => x.a)).ThenByDescending(((x) => x.b)).ThenBy(((x) => x.c))',
    ],
    ['from x in xs orderby x descending select x', 'xs.OrderByDescending(((x) => x))'],
    [
      'from x in xs orderby x.a orderby x.b select x',
      'xs.OrderBy(((x) => x.a)).OrderBy(((x) => x.b))',
    ],
    ['from x in xs group x by x % 2', 'xs.GroupBy(((x) => (x % 2)))'],
    ['from x in xs group x.Name by x.Kind', 'xs.GroupBy(((x) => x.Kind), ((x) => x.Name))'],
    ['from x in xs where x > 0 group x by x', 'xs.Where(((x) => (x > 0))).GroupBy(((x) => x))'],
    [
      'from x in xs from y in x.ys select x + y',
      'xs.SelectMany(((x) => x.ys), ((x, y) => (x + y)))',
    ],
    [
      'from x in xs from int y in x.ys select y',
      'xs.SelectMany(((x) => x.ys.Cast<int>()), ((x, y) => y))',
    ],
    [
      'from x in xs join y in ys on x.Id equals y.Id select x.A + y.B',
      'xs.Join(ys, ((x) => x.Id), ((y) => y.Id), ((x, y) => (x.A + y.B)))',
    ],
    [
      'from x in xs join T y in ys on x equals y select y',
      'xs.Join(ys.Cast<T>(), ((x) => x), ((y) => y), ((x, y) => y))',
    ],
    [
      'from x in xs join y in ys on x.Id equals y.Id into g select g.Count()',
      'xs.GroupJoin(ys, ((x) => x.Id), ((y) => y.Id), ((x, g) => g.Count()))',
    ],
    [
      'from x in xs let y = x * 2 select y',
      'xs.Select(((x) => new { x, y = (x * 2) })).Select(((' + h(0) + ') => ' + h(0) + '.y))',
    ],
  ]);
});

describe('transparent identifiers (§12.20.3.8)', () => {
  table([
    // the standard's own example
    [
      'from c in customers from o in c.Orders orderby o.Total descending select new { c.Name, o.Total }',
      `customers.SelectMany(((c) => c.Orders), ((c, o) => new { c, o }))` +
        `.OrderByDescending(((${h(0)}) => ${h(0)}.o.Total))` +
        `.Select(((${h(0)}) => new { ${h(0)}.c.Name, ${h(0)}.o.Total }))`,
    ],
    [
      'from x in xs let y = x + 1 let z = y * x where z > 0 select x + y + z',
      `xs.Select(((x) => new { x, y = (x + 1) }))` +
        `.Select(((${h(0)}) => new { ${h(0)}, z = (${h(0)}.y * ${h(0)}.x) }))` +
        `.Where(((${h(1)}) => (${h(1)}.z > 0)))` +
        `.Select(((${h(1)}) => ((${h(1)}.${h(0)}.x + ${h(1)}.${h(0)}.y) + ${h(1)}.z)))`,
    ],
    [
      'from a in xs from b in ys from c in zs select a + b + c',
      `xs.SelectMany(((a) => ys), ((a, b) => new { a, b }))` +
        `.SelectMany(((${h(0)}) => zs), ((${h(0)}, c) => ((${h(0)}.a + ${h(0)}.b) + c)))`,
    ],
    [
      'from x in xs join y in ys on x equals y where x > y select x',
      `xs.Join(ys, ((x) => x), ((y) => y), ((x, y) => new { x, y }))` +
        `.Where(((${h(0)}) => (${h(0)}.x > ${h(0)}.y)))` +
        `.Select(((${h(0)}) => ${h(0)}.x))`,
    ],
    [
      'from x in xs join y in ys on x equals y into g from z in g select z',
      `xs.GroupJoin(ys, ((x) => x), ((y) => y), ((x, g) => new { x, g }))` +
        `.SelectMany(((${h(0)}) => ${h(0)}.g), ((${h(0)}, z) => z))`,
    ],
    [
      // the inner key sees only the joined variable; the outer key sees all in scope
      'from a in xs let b = a join c in ys on b equals c select c',
      `xs.Select(((a) => new { a, b = a }))` +
        `.Join(ys, ((${h(0)}) => ${h(0)}.b), ((c) => c), ((${h(0)}, c) => c))`,
    ],
    [
      // a lambda in a key hides the range variable it is named after
      'from a in xs join b in ys on a equals ys.Count(a => a > 0) select a',
      'xs.Join(ys, ((a) => a), ((b) => ys.Count(((a) => (a > 0)))), ((a, b) => a))',
    ],
    [
      'from x in xs let y = x group x by y',
      `xs.Select(((x) => new { x, y = x }))` +
        `.GroupBy(((${h(0)}) => ${h(0)}.y), ((${h(0)}) => ${h(0)}.x))`,
    ],
    [
      'from x in xs let y = x orderby y, x descending select new { x, y }',
      `xs.Select(((x) => new { x, y = x }))` +
        `.OrderBy(((${h(0)}) => ${h(0)}.y)).ThenByDescending(((${h(0)}) => ${h(0)}.x))` +
        `.Select(((${h(0)}) => new { ${h(0)}.x, ${h(0)}.y }))`,
    ],
    [
      // a lambda parameter named like a range variable hides it inside the lambda
      'from a in xs let b = a where b.Any(a => a > b) select a',
      `xs.Select(((a) => new { a, b = a }))` +
        `.Where(((${h(0)}) => ${h(0)}.b.Any(((a) => (a > ${h(0)}.b)))))` +
        `.Select(((${h(0)}) => ${h(0)}.a))`,
    ],
    [
      'from a in xs let b = a where b.Any(c => { var d = c; return d > a; }) select b',
      `xs.Select(((a) => new { a, b = a }))` +
        `.Where(((${h(0)}) => ${h(0)}.b.Any(((c) => { var d = c; return (d > ${h(0)}.a); }))))` +
        `.Select(((${h(0)}) => ${h(0)}.b))`,
    ],
    [
      // `@y` is the identifier y; `y<int>` is a generic method group, not the variable
      'from x in xs let y = 1 select @y + y<int>()',
      `xs.Select(((x) => new { x, y = 1 })).Select(((${h(0)}) => (${h(0)}.y + y<int>())))`,
    ],
  ]);

  it('gives every hidden parameter of one parse its own name', () => {
    const e = only('from a in xs let b = a select from c in ys let d = c select a + b + c + d');
    const names = new Set<string>();
    for (const n of walk(e)) {
      if (n.kind === 'Lambda') {
        for (const q of n.parameters) if (q.name.name.startsWith('<>')) names.add(q.name.name);
      }
    }
    expect([...names].sort()).toEqual([h(0), h(1)]);
  });
});

describe('continuations, nesting and queries inside other expressions', () => {
  table([
    ['from x in xs select x into y select y', 'xs.Select(((x) => x)).Select(((y) => y))'],
    [
      'from x in xs select x into y where y > 1 select y',
      'xs.Select(((x) => x)).Where(((y) => (y > 1)))',
    ],
    [
      'from x in xs group x by x.Kind into g select new { g.Key, n = g.Count() }',
      'xs.GroupBy(((x) => x.Kind)).Select(((g) => new { g.Key, n = g.Count() }))',
    ],
    [
      'from x in xs group x by x.Kind into g orderby g.Key select g',
      'xs.GroupBy(((x) => x.Kind)).OrderBy(((g) => g.Key))',
    ],
    [
      'from x in from y in ys where y > 0 select y * 2 select x + 1',
      'ys.Where(((y) => (y > 0))).Select(((y) => (y * 2))).Select(((x) => (x + 1)))',
    ],
    [
      // the inner query ends at its select: the outer one's select follows
      'from x in xs let q = from y in ys select y select q.Count()',
      `xs.Select(((x) => new { x, q = ys.Select(((y) => y)) }))` +
        `.Select(((${h(0)}) => ${h(0)}.q.Count()))`,
    ],
    [
      'from x in xs select from y in x.ys where y > x select y',
      'xs.Select(((x) => x.ys.Where(((y) => (y > x)))))',
    ],
    [
      'xs.Select(x => from y in x.ys select y * x).ToList()',
      'xs.Select(((x) => x.ys.Select(((y) => (y * x))))).ToList()',
    ],
    ['var q = from x in xs select x; q.Count()', 'var q = xs.Select(((x) => x)); q.Count()'],
    ['f(from x in xs select x, 2)', 'f(xs.Select(((x) => x)), 2)'],
    ['c ? from x in xs select x : ys', '(c ? xs.Select(((x) => x)) : ys)'],
    ['(from x in xs select x).Count()', '(xs.Select(((x) => x))).Count()'],
    ['from x in xs select x == 1 ? a : b', 'xs.Select(((x) => ((x == 1) ? a : b)))'],
    [
      'from x in xs where ys.Any(y => y == x) select x',
      'xs.Where(((x) => ys.Any(((y) => (y == x)))))',
    ],
    [
      'foreach (var e in from e in enemies where e.hp < 10 select e.name) n++;',
      'foreach (var e in enemies.Where(((e) => (e.hp < 10))).Select(((e) => e.name))) (n++);',
    ],
  ]);
});

describe('inside a query its keywords end operands, as Roslyn reads them', () => {
  table([
    // not casts of `select` / `descending` / `into` / `by` / `equals`
    ['from x in xs where (b) select x', 'xs.Where(((x) => (b)))'],
    ['from x in xs orderby (x) descending select x', 'xs.OrderByDescending(((x) => (x)))'],
    ['from x in xs select (x) into y select y', 'xs.Select(((x) => (x))).Select(((y) => y))'],
    ['from x in xs group (x) by (x)', 'xs.GroupBy(((x) => (x)), ((x) => (x)))'],
    [
      'from x in xs join y in ys on (x) equals (y) select x',
      'xs.Join(ys, ((x) => (x)), ((y) => (y)), ((x, y) => x))',
    ],
    // not a declaration pattern's name
    ['from x in xs where x is Enemy select x', 'xs.Where(((x) => (x is Enemy)))'],
    [
      'from x in xs where x is int orderby x select x',
      'xs.Where(((x) => (x is int))).OrderBy(((x) => x))',
    ],
    // still casts where no keyword follows
    ['from x in xs select (T)x', 'xs.Select(((x) => ((T)x)))'],
    // outside the query, the same words are names again
    ['(x)select', '((x)select)'],
    [
      'f(from x in xs where (b) select x, (x)descending)',
      'f(xs.Where(((x) => (b))), ((x)descending))',
    ],
  ]);
});

describe('contextual keywords stay names outside queries', () => {
  table([
    ['var from = 1; from + 1', 'var from = 1; (from + 1)'],
    ['from(1)', 'from(1)'],
    ['from.x', 'from.x'],
    ['from x;', 'from x;'],
    ['from x = null;', 'from x = null;'],
    ['from ? a : b', '(from ? a : b)'],
    ['int where = 1, select = 2; where * select', 'int where = 1, select = 2; (where * select)'],
    ['group.by(into, orderby)', 'group.by(into, orderby)'],
    ['join.on.equals', 'join.on.equals'],
    ['let = ascending + descending', '(let = (ascending + descending))'],
    ['var into = from x in xs select x; into', 'var into = xs.Select(((x) => x)); into'],
    ['from x in xs select from => from', 'xs.Select(((x) => ((from) => from)))'],
  ]);
});

describe('spans point at the clause each call came from', () => {
  it('covers each clause with its call, its member name and its lambda', () => {
    const source = 'from x in xs where x > 1 select x * 2';
    const select = only(source) as Invocation;
    const where = (select.target as MemberAccess).target as Invocation;
    expect(text(source, select)).toBe('select x * 2');
    expect(text(source, where)).toBe('where x > 1');
    expect(text(source, (where.target as MemberAccess).name)).toBe('where x > 1');
    const lambda = where.arguments[0]!.value as Lambda;
    expect(text(source, lambda)).toBe('where x > 1');
    // the parameter is the range variable as declared in the from clause
    expect(lambda.parameters[0]!.name.span.start).toBe(5);
  });

  it('points a rewritten reference at the reference', () => {
    const source = 'from x in xs let y = x where y > 1 select y';
    const select = only(source) as Invocation;
    const lambda = select.arguments[0]!.value as Lambda;
    const access = lambda.body as MemberAccess;
    expect(access).toMatchObject({ kind: 'MemberAccess', name: { name: 'y' } });
    expect(access.span.start).toBe(source.lastIndexOf('y'));
    expect(text(source, access)).toBe('y');
  });

  it('spans a Cast with its from clause', () => {
    const source = 'from int x in xs where x > 0 select x';
    const where = only(source) as Invocation;
    const cast = (where.target as MemberAccess).target;
    expect(text(source, cast)).toBe('from int x in xs');
  });
});
