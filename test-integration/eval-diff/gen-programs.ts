// `npx tsx test-integration/eval-diff/gen-programs.ts`: writes corpus-programs.txt, the
// differential corpus of whole programs (statements, lambdas, LINQ, query syntax, anonymous
// types), by families: each family is a few lines here that print every combination it covers
// (element types x operators x overloads, sources x traps...). The output is committed and
// reviewed as text; what C# gives for each line is what the oracle computes when the test runs
// (`show-oracle.ts` prints it).

import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const out: string[] = [];
const section = (title: string): void => {
  out.push('', `# ${title}`);
};
const add = (...programs: string[]): void => {
  for (const p of programs) {
    if (p.includes('\n')) throw new Error(`a program must be one line: ${p}`);
    out.push(p);
  }
};

// ---------------------------------------------------------------------------------------------
section('aggregates: Sum/Min/Max/Average over every numeric type, plain and with a selector');
const numeric: [string, string][] = [
  ['int', '3, 1, 4, 1, 5'],
  ['long', '3L, 1L, 4000000000L'],
  ['float', '1.5f, 2.25f, -0.5f'],
  ['double', '0.1, 0.2, 0.3'],
  ['decimal', '1.1m, 2.2m, 3.30m'],
  ['int?', '3, null, 4'],
  ['long?', 'null, 7L, 2L'],
  ['float?', '1.5f, null, 2f'],
  ['double?', '2.5, null, -1.0'],
  ['decimal?', '1.5m, null, 2.25m'],
];
for (const [t, values] of numeric) {
  for (const op of ['Sum', 'Min', 'Max', 'Average']) {
    add(`var xs = new ${t}[] { ${values} }; xs.${op}()`);
    // the selector overload: the selector's result type picks it, whatever the source's type
    add(`var names = new[] { "a", "bbb", "cc" }; names.${op}(s => (${t})s.Length)`);
    add(`new ${t}[0].${op}()`);
  }
  add(`var xs = new List<${t}> { ${values} }; xs.Where(x => x != null).Count()`);
}
for (const t of ['int?', 'long?', 'float?', 'double?', 'decimal?'])
  for (const op of ['Sum', 'Min', 'Max', 'Average']) add(`new ${t}[] { null, null }.${op}()`);
add(
  'new[] { int.MaxValue, 1 }.Sum()',
  'new[] { long.MaxValue, 1L }.Sum()',
  'new[] { int.MaxValue, 1 }.Sum(x => (long)x)',
  'new[] { int.MaxValue, int.MaxValue }.Average()',
  'new[] { float.MaxValue, float.MaxValue }.Sum()',
  'new[] { 1, 2 }.Average(x => x / 2)',
  'new[] { 1, 2 }.Average(x => x / 2.0)',
  'new[] { "b", "a", "c" }.Min()',
  'new[] { "b", "a", "c" }.Max()',
  'new string[0].Min()',
  'new[] { "b", null, "a" }.Min()',
  'new[] { 3, 1, 2 }.Min(x => -x)',
  'new[] { 3, 1, 2 }.Max(x => x.ToString())',
  'new[] { 1.0, double.NaN, 2.0 }.Max()',
  'new[] { 1.0, double.NaN, 2.0 }.Min()',
  'Probe.SDoubles.Max()',
  'Probe.SDoubles.Min()',
  'Probe.SDoubles.Sum()',
  'new[] { 1, 2, 3 }.Count()',
  'new[] { 1, 2, 3 }.Count(x => x % 2 == 1)',
  'new[] { 1, 2, 3 }.LongCount()',
  'new[] { 1, 2, 3 }.LongCount(x => x > 1)',
  'new byte[] { 200, 100 }.Sum(b => b)',
  'new short[] { 1, 2 }.Select(s => (int)s).Sum()',
  'var xs = new[] { 1, 2, 3 }; int total = xs.Sum() * 2; total',
);

// ---------------------------------------------------------------------------------------------
section('element operators: First/Last/Single(OrDefault), ElementAt, on one, many, none');
const elementSources: [string, string][] = [
  ['new[] { 5, 6, 7 }', 'x > 5'],
  ['new List<int> { 8 }', 'x > 5'],
  ['new int[0]', 'x > 5'],
  ['new[] { 1, 2 }', 'x > 5'],
  ['new[] { "a", "bb" }', 'x.Length == 2'],
  ['new string[0]', 'x.Length == 2'],
];
for (const [src, pred] of elementSources) {
  for (const op of [
    'First',
    'Last',
    'Single',
    'FirstOrDefault',
    'LastOrDefault',
    'SingleOrDefault',
  ]) {
    add(`${src}.${op}()`);
    add(`${src}.${op}(x => ${pred})`);
  }
}
add(
  'new[] { 4, 5 }.ElementAt(1)',
  'new[] { 4, 5 }.ElementAt(2)',
  'new[] { 4, 5 }.ElementAtOrDefault(2)',
  'new[] { 4, 5 }.Where(x => true).ElementAt(-1)',
  'new List<string> { "p" }.ElementAtOrDefault(3)',
  'new[] { 1, 2, 2 }.Single(x => x == 2)',
  'new[] { 1, 2, 3 }.SingleOrDefault(x => x > 1)',
  'new[] { 1, 2 }.Where(x => x > 0).Single()',
  'new[] { 1, 2 }.Select(x => x * 2).Last()',
  'new[] { 1, 2 }.DefaultIfEmpty().ToArray()',
  'new int[0].DefaultIfEmpty().ToArray()',
  'new int[0].DefaultIfEmpty(9).ToArray()',
  'new string[0].DefaultIfEmpty().ToArray()',
);

// ---------------------------------------------------------------------------------------------
section('projection and filtering: Where, Select (with index), SelectMany, Take/Skip(While)');
add(
  'new[] { 1, 2, 3, 4 }.Where(x => x % 2 == 0).ToArray()',
  'new[] { 1, 2, 3, 4 }.Where((x, i) => i % 2 == 0).ToArray()',
  'new[] { 1, 2, 3 }.Select(x => x * x).ToList()',
  'new[] { 1, 2, 3 }.Select((x, i) => x * 10 + i).ToArray()',
  'new[] { 1, 2, 3 }.Select(x => (long)x).ToArray()',
  'new[] { 1, 2, 3 }.Select(x => x / 2.0).ToArray()',
  'new[] { 1, 2, 3 }.Select(x => x > 1).ToArray()',
  'new[] { "a", "bb" }.Select(s => s.Length).ToArray()',
  'new[] { "a", "bb" }.Select(s => s[0]).ToArray()',
  'new[] { 1, 2 }.Select(x => x.ToString()).ToArray()',
  'new[] { 1, 2 }.Select(x => (object)x).ToArray()',
  'new[] { 1, 2 }.Select(x => new[] { x, -x }).ToArray()',
  'new[] { 1, 2 }.Select(x => x == 1 ? null : "two").ToArray()',
  'new[] { 1, 2 }.Select(x => x == 1 ? (int?)null : x).ToArray()',
  'new[] { new[] { 1, 2 }, new[] { 3 } }.SelectMany(a => a).ToArray()',
  'new[] { 1, 2, 3 }.SelectMany(x => Enumerable.Repeat(x, x)).ToArray()',
  'new[] { 1, 2 }.SelectMany((x, i) => new[] { x, i }).ToArray()',
  'new[] { 1, 2 }.SelectMany(x => new[] { "a", "b" }, (x, s) => s + x).ToArray()',
  'new[] { "ab", "c" }.SelectMany(s => s).ToArray()',
  'new[] { 1, 2, 3, 4, 5 }.Take(2).ToArray()',
  'new[] { 1, 2, 3, 4, 5 }.Skip(2).ToArray()',
  'new[] { 1, 2, 3 }.Take(0).ToArray()',
  'new[] { 1, 2, 3 }.Take(-1).ToArray()',
  'new[] { 1, 2, 3 }.Skip(10).ToArray()',
  'new[] { 1, 2, 3 }.Take(10).ToArray()',
  'new[] { 1, 2, 5, 1 }.TakeWhile(x => x < 3).ToArray()',
  'new[] { 1, 2, 5, 1 }.SkipWhile(x => x < 3).ToArray()',
  'new[] { 5, 4, 1, 7 }.TakeWhile((x, i) => x > i).ToArray()',
  'new[] { 5, 4, 1, 7 }.SkipWhile((x, i) => x > i).ToArray()',
  'new[] { 1, 2, 3 }.Reverse().ToArray()',
  'new List<int> { 1, 2, 3 }.AsEnumerable().Reverse().ToList()',
  'new[] { 1, 2 }.Concat(new[] { 3 }).ToArray()',
  'new[] { 1, 2 }.Concat(new List<int> { 2, 1 }).Distinct().ToArray()',
  'new[] { 3, 1, 3, 2, 1 }.Distinct().ToArray()',
  'new[] { "a", "A", "b" }.Distinct(StringComparer.OrdinalIgnoreCase).ToArray()',
  'new[] { 1, 2, 3 }.Any()',
  'new int[0].Any()',
  'new[] { 1, 2, 3 }.Any(x => x > 2)',
  'new[] { 1, 2, 3 }.All(x => x > 0)',
  'new int[0].All(x => x > 0)',
  'new[] { 1, 2, 3 }.Contains(2)',
  'new[] { "a", "b" }.Contains("B")',
  'new[] { "a", "b" }.Contains("B", StringComparer.OrdinalIgnoreCase)',
  'new[] { 1, 2 }.SequenceEqual(new List<int> { 1, 2 })',
  'new[] { 1, 2 }.SequenceEqual(new[] { 2, 1 })',
  'new[] { 1, 2, 3 }.Zip(new[] { "a", "b" }, (x, s) => s + x).ToArray()',
  'new object[] { 1, "a", 2, null }.OfType<int>().ToArray()',
  'new object[] { 1, "a", 2, null }.OfType<string>().ToArray()',
  'new object[] { 1, 2 }.Cast<int>().Sum()',
  'new object[] { 1, "a" }.Cast<int>().ToArray()',
  'new object[] { 1L }.Cast<int>().ToArray()',
  'Probe.SObjects.OfType<Point>().ToArray()',
  'Probe.SObjects.OfType<Game.Color>().ToArray()',
  'Probe.SObjects.Where(o => o != null).Select(o => o.GetType().Name).ToArray()',
);

// ---------------------------------------------------------------------------------------------
section('Aggregate: seedless, seeded, with a result selector; Range, Repeat, Empty');
add(
  'new[] { 1, 2, 3, 4 }.Aggregate((a, b) => a * b)',
  'new int[0].Aggregate((a, b) => a * b)',
  'new[] { 1, 2, 3 }.Aggregate(10, (a, b) => a - b)',
  'new[] { 1, 2, 3 }.Aggregate("", (s, x) => s + x)',
  'new[] { 1, 2, 3 }.Aggregate(0L, (s, x) => s + x, s => s * 2.5)',
  'new[] { "a", "b", "c" }.Aggregate((a, b) => b + a)',
  'new int[0].Aggregate(7, (a, b) => a + b)',
  'Enumerable.Range(1, 5).ToArray()',
  'Enumerable.Range(-2, 3).Sum()',
  'Enumerable.Range(0, 0).Count()',
  'Enumerable.Range(0, -1).Count()',
  'Enumerable.Range(int.MaxValue, 2).Count()',
  'Enumerable.Repeat("ab", 3).ToArray()',
  'Enumerable.Repeat(1.5, 2).Sum()',
  'Enumerable.Repeat(0, -1).ToArray()',
  'Enumerable.Empty<int>().Count()',
  'Enumerable.Empty<string>().FirstOrDefault()',
  'Enumerable.Empty<double>().DefaultIfEmpty(2.5).Single()',
  'Enumerable.Range(1, 10).Where(x => x % 3 == 0).Select(x => x * x).Sum()',
  'Enumerable.Range(1, 4).Select(x => Enumerable.Range(1, x).Sum()).ToArray()',
);

// ---------------------------------------------------------------------------------------------
section('ordering: OrderBy/ThenBy (stable), descending, on strings, doubles with NaN, keys');
add(
  'new[] { 3, 1, 2 }.OrderBy(x => x).ToArray()',
  'new[] { 3, 1, 2 }.OrderByDescending(x => x).ToArray()',
  'new[] { "bb", "a", "ccc", "dd" }.OrderBy(s => s.Length).ToArray()',
  'new[] { "bb", "a", "ccc", "dd" }.OrderBy(s => s.Length).ThenByDescending(s => s).ToArray()',
  'new[] { "bb", "a", "ccc", "dd" }.OrderByDescending(s => s.Length).ThenBy(s => s).ToArray()',
  'new[] { "b", "B", "a", "A" }.OrderBy(s => s, StringComparer.Ordinal).ToArray()',
  'new[] { 2.0, double.NaN, -1.0, 0.0 }.OrderBy(x => x).ToArray()',
  'new[] { 5, 3, 5, 1 }.Select((x, i) => x * 10 + i).OrderBy(v => v / 10).ToArray()',
  'new[] { 1, 2, 3, 4, 5, 6 }.OrderBy(x => x % 3).ThenBy(x => -x).ToArray()',
  'new[] { 3, 1, 2 }.OrderBy(x => x).First()',
  'new[] { 3, 1, 2 }.OrderByDescending(x => x).Last()',
  'new[] { 3, 1, 2 }.OrderBy(x => x).Reverse().ToArray()',
  'new[] { "x", null, "a" }.OrderBy(s => s).ToArray()',
  'new int?[] { 2, null, 1 }.OrderBy(x => x).ToArray()',
  'var o = new[] { 3, 1, 2 }.OrderBy(x => x); IOrderedEnumerable<int> again = o; again.ThenBy(x => x).ToArray()',
  'Game.Crowd.Squad.OrderBy(c => c.Hp).Select(c => c.Name).ToArray()',
  'Game.Crowd.Squad.OrderBy(c => c.Team).ThenByDescending(c => c.Hp).Select(c => c.Name).ToArray()',
  'Game.Crowd.Squads.OrderByDescending(c => c.Level).First().Name',
);

// ---------------------------------------------------------------------------------------------
section('grouping and joining: GroupBy (overloads), ToLookup-free Join/GroupJoin, ToDictionary');
add(
  'new[] { 1, 2, 3, 4, 5 }.GroupBy(x => x % 2).Select(g => g.Key + ":" + g.Count()).ToArray()',
  'new[] { 1, 2, 3, 4, 5 }.GroupBy(x => x % 2).Select(g => g.Sum()).ToArray()',
  'new[] { "a", "bb", "cc", "d" }.GroupBy(s => s.Length, s => s.ToUpper()).Select(g => g.Key + "=" + string.Concat(g)).ToArray()',
  'new[] { "a", "bb", "cc", "d" }.GroupBy(s => s.Length, (k, g) => k * 100 + g.Count()).ToArray()',
  'new[] { "a", "bb", "cc", "d" }.GroupBy(s => s.Length, s => s[0], (k, g) => new string(g.ToArray())).ToArray()',
  'new[] { 1, 2, 3 }.GroupBy(x => x > 1).First().Key',
  'new[] { 1, 2, 3 }.GroupBy(x => x > 1).Last().ToArray()',
  'new int[0].GroupBy(x => x).Count()',
  'new[] { "a", "A", "b" }.GroupBy(s => s, StringComparer.OrdinalIgnoreCase).Count()',
  'Game.Crowd.Squad.GroupBy(c => c.Team).Select(g => g.Key + ":" + g.Sum(c => c.Hp)).ToArray()',
  'Game.Crowd.Squad.GroupBy(c => c.Team).OrderByDescending(g => g.Count()).ThenBy(g => g.Key).First().Key',
  'new[] { 1, 2, 3 }.Join(new[] { 2, 3, 4 }, a => a, b => b, (a, b) => a * b).ToArray()',
  'new[] { "ab", "cd", "ax" }.Join(new[] { \'a\', \'c\' }, s => s[0], c => c, (s, c) => s + c).ToArray()',
  'new[] { 1, 2, 3 }.GroupJoin(new[] { 1, 1, 3 }, a => a, b => b, (a, bs) => a + ":" + bs.Count()).ToArray()',
  'Game.Crowd.Teams.Select((t, i) => i).Join(Game.Crowd.Squad, i => i, c => c.Team, (i, c) => Game.Crowd.Teams[i] + c.Name).ToArray()',
  'new[] { "a", "bb" }.ToDictionary(s => s, s => s.Length)',
  'new[] { "a", "bb" }.ToDictionary(s => s.Length)["bb".Length]',
  'new[] { "a", "b", "a" }.ToDictionary(s => s)',
  'new[] { 1, 2 }.ToDictionary(x => x, x => x * 1.5).Values.Sum()',
  'new[] { 3, 1, 3 }.ToHashSet().Count',
  'new[] { 3, 1, 3 }.ToHashSet().Contains(1)',
  'new[] { 1, 2 }.ToList().Count',
  'new[] { 1, 2 }.ToArray().Length',
  'var l = new[] { 2, 1 }.ToList(); l.Add(0); l.Count',
  'var l = Enumerable.Range(0, 3).ToList(); l.Sort(); l[2]',
  'Probe.SDict.Select(kv => kv.Key + "=" + kv.Value).ToArray()',
  'Probe.SDict.Where(kv => kv.Value > 1).Select(kv => kv.Key).Single()',
  'Probe.SDict.Keys.OrderByDescending(k => k).ToArray()',
  'Probe.SDict.Values.Sum()',
  'Probe.SDict.ToDictionary(kv => kv.Value, kv => kv.Key)[2]',
);

// ---------------------------------------------------------------------------------------------
section('deferred execution: a query sees its source as it is when enumerated, side effects');
add(
  'var l = new List<int> { 1, 2, 3 }; var q = l.Where(x => x > 1); l.Add(4); q.Count()',
  'var l = new List<int> { 1, 2, 3 }; var q = l.Select(x => x * 10); l[0] = 5; q.ToArray()',
  'var l = new List<int> { 1, 2, 3 }; var q = l.Select(x => x * 10).ToList(); l[0] = 5; q.ToArray()',
  'var l = new List<int> { 1, 2, 3 }; var q = l.Where(x => x > 1); l.Clear(); q.Any()',
  'var a = new[] { 1, 2, 3 }; var q = a.Select(x => -x); a[1] = 20; q.Sum()',
  'var l = new List<string> { "a" }; var q = l.Concat(l); l.Add("b"); q.ToArray()',
  'int n = 0; var q = new[] { 1, 2, 3 }.Select(x => { n++; return x; }); q.Count(); q.Count(); n',
  'int n = 0; var q = new[] { 1, 2, 3 }.Select(x => { n++; return x; }); n',
  'int n = 0; var q = new[] { 1, 2, 3 }.Select(x => { n++; return x; }).ToList(); q.Count(); q.Count(); n',
  'int n = 0; var f = new[] { 1, 2, 3 }.Where(x => { n++; return x > 1; }).First(); n * 10 + f',
  'int n = 0; var any = new[] { 1, 2, 3 }.Any(x => { n++; return x == 2; }); n',
  'int n = 0; var all = new[] { 1, 2, 3 }.All(x => { n++; return x < 2; }); n',
  'int n = 0; var t = new[] { 1, 2, 3, 4 }.Select(x => { n++; return x; }).Take(2).Sum(); n * 100 + t',
  'int n = 0; var s = new[] { 3, 1, 2 }.OrderBy(x => { n++; return x; }).First(); n * 10 + s',
  'int n = 0; var q = new[] { 1, 2, 3 }.Where(x => { n++; return true; }).Select(x => { n += 10; return x; }); q.Last(); n',
  'int n = 0; var q = new[] { 1, 2 }.Select(x => n += x); var a = q.ToArray(); var b = q.ToArray(); b[1] * 100 + a[1]',
  'int k = 1; var q = new[] { 1, 2, 3 }.Where(x => x > k); k = 2; q.Count()',
  'int k = 1; var q = new[] { 1, 2, 3 }.Where(x => x > k); var c1 = q.Count(); k = 0; c1 * 10 + q.Count()',
  'var l = new List<int> { 1, 2, 3 }; try { foreach (var x in l.Where(v => v > 0)) l.Add(x); } catch (InvalidOperationException e) { return e.Message; } return "no";',
  'var l = new List<int> { 1, 2, 3 }; int s = 0; foreach (var x in l.Select(v => v * 2)) s += x; l.Add(4); foreach (var x in l.Select(v => v * 2)) s += x; s',
  'int n = 0; var q = Enumerable.Range(1, 3).Select(x => { n++; return x; }); foreach (var x in q) if (x == 2) break; n',
  'int n = 0; var q = Enumerable.Repeat(5, 3).Where(x => ++n > 0); var e = q.GetEnumerator(); e.MoveNext(); n',
  'var l = new List<int> { 5 }; var q = l.DefaultIfEmpty(-1); l.Clear(); q.Single()',
  'var l = new List<int> { 2, 1 }; var q = l.OrderBy(x => x); l.Add(0); q.First()',
  'var l = new List<int> { 1, 2 }; var q = l.Reverse<int>(); l.Add(3); q.First()',
  'var l = new List<int> { 1, 2 }; var g = l.GroupBy(x => x % 2); l.Add(3); g.Count() * 10 + g.First().Count()',
  'int n = 0; var g = new[] { 1, 2, 3 }.GroupBy(x => { n++; return x % 2; }); var c = g.Count(); c = g.Count(); n',
  'int n = 0; var d = new[] { 1, 2, 2 }.Distinct().Where(x => { n++; return true; }); d.Count(); n',
  'Game.Crowd.LazyRuns = 0; var q = Game.Crowd.Lazy.Where(x => x > 1); Game.Crowd.LazyRuns',
  'Game.Crowd.LazyRuns = 0; var q = Game.Crowd.Lazy.Where(x => x > 1); q.Count(); q.Count(); Game.Crowd.LazyRuns',
  'Game.Crowd.LazyRuns = 0; Game.Crowd.Lazy.First(); Game.Crowd.LazyRuns',
  'Game.Crowd.LazyRuns = 0; var s = Game.Crowd.Lazy.Sum() + Game.Crowd.Lazy.Max(); s * 10 + Game.Crowd.LazyRuns',
  'var q = Game.Crowd.Hps.Where(h => h > 50); Game.Crowd.Hps.Add(99); var c = q.Count(); Game.Crowd.Hps.Remove(99); c',
  'var q = Game.Crowd.Squad.Where(c => c.Hp > 50); Game.Crowd.Squad[0].Hp = 60; var r = q.Count(); Game.Crowd.Squad[0].Hp = 11; r',
  // an overflow stops Sum and Average at the element that caused it: later selectors never run
  'int n = 0; try { new[] { int.MaxValue, 1, 2 }.Sum(x => { n++; return x; }); } catch (OverflowException) { } n',
  'int n = 0; try { new[] { 1, int.MaxValue, 3, 4 }.Select(x => { n++; return x; }).Sum(); } catch (OverflowException) { } n',
  'int n = 0; try { new[] { long.MaxValue, 1L, 2L }.Average(x => { n++; return x; }); } catch (OverflowException) { } n',
  'int n = 0; try { new[] { decimal.MaxValue, 1m, 2m }.Sum(x => { n++; return x; }); } catch (OverflowException) { } n',
  'int n = 0; var s = new int?[] { 1, null, 2 }.Average(x => { n++; return x; }); n * 10 + (int)s',
);

// ---------------------------------------------------------------------------------------------
section(
  'captures: for shares its variable, foreach gives one per iteration, closures share locals',
);
add(
  'Func<int> f = null; for (int i = 0; i < 3; i++) { if (i == 1) f = () => i; } f()',
  'Func<int> f = null; foreach (var x in new[] { 1, 2, 3 }) { if (x == 2) f = () => x; } f()',
  'Func<int> f = null; for (int i = 0; i < 3; i++) { int j = i; if (i == 1) f = () => j; } f()',
  'Func<int> f = null, g = null; int i = 0; while (i < 2) { int j = i * 10; if (i == 0) f = () => j; else g = () => j; i++; } f() + g()',
  // an out variable of a for's or a while's condition: one per pass, as Roslyn lowers the loop (a
  // lambda keeps its pass's own; mcs 6.8 shares one for the loop and gives 44)
  'Func<int> f = null, g = null; int i = 0; while (int.TryParse((i + 1).ToString(), out var n) && i < 3) { if (i == 0) f = () => n; else g = () => n; i++; } f() * 10 + g() //roslyn(int): 13',
  'int t = 0; for (int i = 0; int.TryParse((i + 1).ToString(), out var n) && i < 3; i++) t += n; t',
  'Func<int> f = null, g = null; for (int i = 0; int.TryParse((i + 1).ToString(), out var n) && i < 3; i++) { if (i == 0) f = () => n; else g = () => n; } f() * 10 + g() //roslyn(int): 13',
  'int s = 0; for (int i = 0; i < 3 && int.TryParse("4", out int m); i++) s += m * i; s',
  'int c = 0; Func<int> inc = () => ++c; Func<int> get = () => c; inc(); inc(); get()',
  'int x = 1; Func<int> f = () => x; x = 5; f()',
  'int x = 1; Action a = () => x *= 3; a(); a(); x',
  'int x = 1; Func<int, int> add = d => x += d; add(2); add(3)',
  'var fs = Enumerable.Range(0, 3).Select(i => (Func<int>)(() => i * 10)); fs.Select(f => f()).Sum()',
  'Func<int, Func<int, int>> adder = a => b => a + b; adder(2)(3)',
  'Func<int, Func<int>> counter = start => { int n = start; return () => n++; }; var c = counter(5); c(); c(); c()',
  'Func<int, Func<int>> counter = start => { int n = start; return () => n++; }; var c1 = counter(0); var c2 = counter(0); c1(); c1(); c2()',
  'int total = 0; foreach (var x in new[] { 1, 2, 3 }) { Action a = () => total += x; a(); } total',
  'int total = 0; for (int i = 1; i <= 3; i++) { Func<int> f = () => i * i; total += f(); } total',
  'Func<int> last = null; foreach (var s in new[] { "a", "bb", "ccc" }) last = () => s.Length; last()',
  'int x = 10; Func<int> f = () => { int y = x; x = 0; return y; }; f() + x',
  'Func<int, int> fact = null; fact = n => n <= 1 ? 1 : n * fact(n - 1); fact(5)',
  'Func<int, int> fib = null; fib = n => n < 2 ? n : fib(n - 1) + fib(n - 2); fib(10)',
  'Func<int, bool> even = x => x % 2 == 0; new[] { 1, 2, 3, 4 }.Where(even).Count()',
  'Predicate<int> p = x => x > 1; p(2)',
  'Comparison<string> cmp = (a, b) => a.Length - b.Length; cmp("aaa", "b")',
  'Func<string, string, string> join = (a, b) => a + "-" + b; join("x", "y")',
  'Action<int> noop = _ => { }; noop(1); 7',
  'Func<double> pi = () => Math.PI; pi()',
  'Func<int, long> widen = x => x; widen(3)',
  'Func<int, int> sq = x => x * x; Func<int, int> twice = x => sq(sq(x)); twice(3)',
  'Func<int, int> f = x => x + 1; f.Invoke(41)',
  'Func<int> f = () => 1; f = () => 2; f()',
  'Func<int, int> f = delegate (int x) { return x * 3; }; f(4)',
);

// ---------------------------------------------------------------------------------------------
section('query syntax: from/where/select, let, orderby, group, join, into, several froms');
add(
  'var q = from x in new[] { 1, 2, 3, 4 } where x > 2 select x * 10; q.ToArray()',
  '(from x in new[] { 1, 2, 3 } select x).Sum()',
  '(from s in new[] { "a", "bb", "ccc" } let n = s.Length where n > 1 select s + n).ToArray()',
  '(from s in new[] { "bb", "a", "cc" } orderby s.Length, s descending select s).ToArray()',
  '(from s in new[] { "bb", "a", "cc" } orderby s.Length descending select s).First()',
  '(from x in new[] { 1, 2, 3, 4, 5 } group x by x % 2).Select(g => g.Key + ":" + g.Sum()).ToArray()',
  '(from x in new[] { 1, 2, 3, 4, 5 } group x * 10 by x % 2 into g select g.Sum()).ToArray()',
  '(from x in new[] { 1, 2, 3, 4, 5 } group x by x % 2 into g orderby g.Key select g.Count()).ToArray()',
  '(from a in new[] { 1, 2 } from b in new[] { 10, 20 } select a + b).ToArray()',
  '(from a in new[] { 1, 2, 3 } from b in new[] { 1, 2, 3 } where a < b select a * 10 + b).ToArray()',
  '(from a in new[] { 1, 2 } from b in new[] { "x", "y" } from c in new[] { true } select b + a + c).ToArray()',
  '(from a in new[] { 1, 2, 3 } join b in new[] { 2, 3, 4 } on a equals b select a * b).ToArray()',
  "(from s in new[] { \"ab\", \"cd\" } join c in new[] { 'a', 'c', 'a' } on s[0] equals c select s + c).ToArray()",
  '(from a in new[] { 1, 2, 3 } join b in new[] { 1, 1, 3 } on a equals b into bs select a + ":" + bs.Count()).ToArray()',
  '(from object o in new object[] { 1, 2 } select (int)o * 2).ToArray()',
  '(from int x in new object[] { 1, 2 } select x + 1).ToArray()',
  '(from int x in new object[] { 1, "a" } select x).ToArray()',
  '(from x in new[] { 3, 1, 2 } orderby x select x).ToArray()',
  '(from x in new[] { 3, 1, 2 } orderby x descending, x select x).Last()',
  '(from x in new[] { 1, 2, 3 } select x into y where y > 1 select y * y).ToArray()',
  '(from x in new[] { 1, 2, 3 } let y = x * 2 let z = y + 1 select x + y + z).ToArray()',
  '(from x in new[] { 1, 2, 3 } let y = x * 2 where y > 2 orderby -y select new { x, y }).ToArray()',
  '(from c in Game.Crowd.Squad where c.Hp > 40 select c.Name).ToArray()',
  '(from c in Game.Crowd.Squad orderby c.Hp descending select c.Hp).Take(3).ToArray()',
  '(from c in Game.Crowd.Squad group c by c.Team into g select g.Key + "=" + g.Count()).ToArray()',
  '(from c in Game.Crowd.Squad join t in Game.Crowd.Teams.Select((n, i) => new { n, i }) on c.Team equals t.i select c.Name + t.n).ToArray()',
  '(from c in Game.Crowd.Squad let lv = c.Level where lv % 2 == 0 select lv).Sum()',
  '(from c in Game.Crowd.Squads from t in Game.Crowd.Teams where t.Length == 3 && c.Team == 0 select c.Name + t).ToArray()',
  'int n = 0; var q = from x in new[] { 1, 2, 3 } where ++n > 0 select x; var c = q.Count() + q.Count(); n',
  'var src = new List<int> { 1, 2 }; var q = from x in src select x * 2; src.Add(3); q.Sum()',
  'var from = 1; var select = 2; from + select',
  '(from a in new[] { 1, 2 } from b in new[] { 3, 4 } let s = a + b where s % 2 == 1 orderby s descending select a * 10 + b).ToArray()',
  '(from a in new[] { 1, 2, 3 } let sq = a * a from b in Enumerable.Range(0, a) select sq + b).ToArray()',
  '(from a in new[] { 1, 2, 3 } join b in new[] { 1, 3 } on a equals b into bs from b2 in bs.DefaultIfEmpty(-1) select a + ":" + b2).ToArray()',
  '(from s in new[] { "ab", "ac", "bd" } group s by s[0] into g let n = g.Count() where n > 1 select g.Key + "" + n).ToArray()',
  '(from x in new[] { 1, 2, 3, 4 } group x by new { odd = x % 2 == 1 } into g select g.Key.odd + ":" + g.Sum()).ToArray()',
  '(from x in new[] { 1, 2, 3 } select from y in new[] { 10, 20 } select x + y).Select(q => q.Sum()).ToArray()',
  '(from x in new[] { 1, 2, 3 } where (from y in new[] { 2, 3, 4 } select y).Contains(x) select x).ToArray()',
  'Func<int, int[]> upTo = n => (from i in Enumerable.Range(1, n) where i % 2 == 0 select i).ToArray(); upTo(6)',
  '(from c in Game.Crowd.Squad orderby c.Team, c.Hp descending select c.Name).ToArray()',
  '(from c in Game.Crowd.Squad group c.Hp by c.Team into g orderby g.Key descending select g.Max()).ToArray()',
  '(from c in Game.Crowd.Squad from t in Game.Crowd.Teams where c.Team == Array.IndexOf(Game.Crowd.Teams, t) select t + c.Hp).Take(3).ToArray()',
  '(from c in Game.Crowd.Squad let big = c.Hp > 50 group c by big into g select new { Big = g.Key, Count = g.Count() }).ToArray()',
  '(from c in Game.Crowd.Squad join h in Game.Crowd.Hps on c.Hp equals h select c.Name).Count()',
  '(from int h in Game.Crowd.Hps select h / 10).Distinct().Count()',
  'var q = from c in Game.Crowd.Squad where c.Hp > 50 select c.Name; Game.Crowd.Squad[0].Hp = 99; var r = q.ToArray(); Game.Crowd.Squad[0].Hp = 11; r',
  '(from x in new[] { 3, 1, 2 } orderby x ascending select x).ToArray()',
  '(from x in new[] { "b", "a" } select x.ToUpper() into u orderby u select u + u).ToArray()',
  '(from x in new[] { 1, 2 } from y in new[] { 1, 2 } from z in new[] { 1, 2 } where x + y + z == 4 select new { x, y, z }).Count()',
  '(from x in Enumerable.Range(1, 3) join y in Enumerable.Range(2, 3) on x * 2 equals y select new { x, y }).ToArray()',
);

// ---------------------------------------------------------------------------------------------
section('anonymous types: ToString, members, equality, as GroupBy/Distinct keys');
add(
  'var o = new { a = 1, b = "x" }; o',
  'var o = new { a = 1, b = "x" }; o.ToString()',
  'new { a = 1, b = (string)null }.ToString()',
  'var o = new { a = 1, b = 2.5 }; o.a + o.b',
  'var p = new Point(1, 2); var o = new { p.X, p.Y, Sum = p.X + p.Y }; o',
  'var s = "hi"; var o = new { s, s.Length }; o',
  'var o = new { Inner = new { v = 3 } }; o.Inner.v',
  'var o = new { Inner = new { v = 3 } }; o',
  'new { a = 1 }.Equals(new { a = 1 })',
  'new { a = 1 }.Equals(new { a = 2 })',
  'var x = new { a = 1 }; var y = new { a = 1 }; x == y',
  'var x = new { a = 1 }; var y = x; x == y',
  'var x = new { a = 1, b = "s" }; var y = new { a = 1, b = "s" }; x.Equals(y) && x.GetHashCode() == y.GetHashCode()',
  'new[] { new { a = 1 }, new { a = 2 }, new { a = 1 } }.Distinct().Count()',
  'new[] { new { a = 1 }, new { a = 2 }, new { a = 1 } }.Distinct().ToList()',
  'new[] { 1, 2, 3, 4 }.GroupBy(x => new { odd = x % 2 == 1, big = x > 2 }).Count()',
  'new[] { 1, 2, 3, 4 }.GroupBy(x => new { odd = x % 2 == 1 }).Select(g => g.Key.ToString() + g.Count()).ToArray()',
  'new[] { 1, 2 }.Select(x => new { x, sq = x * x }).ToArray()',
  'new[] { 1, 2 }.Select(x => new { x, sq = x * x }).Last().sq',
  'new[] { "a", "bb" }.Select((s, i) => new { s, i }).Where(p => p.i > 0).Single().s',
  'var people = new[] { new { Name = "ann", Age = 30 }, new { Name = "bob", Age = 25 } }; people.OrderBy(p => p.Age).First().Name',
  'var people = new[] { new { Name = "ann", Age = 30 }, new { Name = "bob", Age = 25 } }; people.Max(p => p.Age)',
  'var people = new[] { new { Name = "ann", Age = 30 }, new { Name = "bob", Age = 25 } }; people.ToDictionary(p => p.Name, p => p.Age)["bob"]',
  'Game.Crowd.Squad.Select(c => new { c.Name, c.Hp }).First()',
  'Game.Crowd.Squad.GroupBy(c => new { c.Team }).Select(g => g.Key).ToArray()',
  'Game.Crowd.Squad.Select(c => new { c.Team, Big = c.Hp > 50 }).Distinct().Count()',
  'var o = new { a = 1 }; var arr = new[] { o, new { a = 2 } }; arr.Sum(e => e.a)',
  'var o = new { a = 1, b = new[] { 1, 2 } }; o.b.Length',
);

// ---------------------------------------------------------------------------------------------
section('empty sequences and bad arguments: the exceptions LINQ throws, caught and not');
const empties = [
  'new int[0]',
  'new List<int>()',
  'Enumerable.Empty<int>()',
  'new[] { 1 }.Where(x => x > 1)',
];
for (const e of empties)
  for (const op of [
    'First()',
    'Last()',
    'Single()',
    'Min()',
    'Max()',
    'Average()',
    'Aggregate((a, b) => a + b)',
  ])
    add(`${e}.${op}`);
add(
  'new[] { 1, 2 }.Single()',
  'new[] { 1, 2 }.SingleOrDefault()',
  'new[] { 1, 2, 3 }.Single(x => x > 1)',
  'new[] { 1, 2, 3 }.SingleOrDefault(x => x > 1)',
  'new[] { 1, 2 }.First(x => x > 2)',
  'new[] { 1, 2 }.Last(x => x > 2)',
  'try { new int[0].First(); return "no"; } catch (InvalidOperationException e) { return e.Message; }',
  'try { new[] { 1, 2 }.Single(); return 0; } catch (InvalidOperationException) { return -1; }',
  'try { new[] { 1, 0 }.Select(x => 10 / x).ToList(); return "no"; } catch (DivideByZeroException e) { return e.GetType().Name; }',
  'string s = null; new[] { 1 }.Select(x => s.Length).ToArray()',
  'int[] a = null; a.Count()',
  'IEnumerable<int> e = null; e.Where(x => x > 0).Count()',
  'new[] { 1, 2 }.Where((Func<int, bool>)null).Count()',
  'new[] { "a" }.ToDictionary(s => (string)null)',
  'new[] { 1 }.Cast<string>().ToArray()',
  'new int?[] { null }.Select(x => x.Value).ToArray()',
  'new[] { 1 }.ElementAt(-1)',
  'Enumerable.Range(0, 3).ElementAt(3)',
  'new[] { 1, 2 }.Zip(new int[0], (a, b) => a + b).Count()',
  'Game.Crowd.Nobody.First()',
  'Game.Crowd.Nobody.Max(c => c.Hp)',
  'Game.Crowd.Nobody.Average(c => c.Hp)',
  'Game.Crowd.Nobody.Sum(c => c.Hp)',
  'Game.Crowd.Nobody.FirstOrDefault()',
  'Game.Crowd.Nobody.Select(c => (int?)c.Hp).Max()',
  'Probe.SEmptyInts.Average()',
  'Probe.SStrings.Select(s => s.Length).ToArray()',
  'Probe.SStrings.Where(s => s != null).Select(s => s.Length).ToArray()',
  'Game.Shop.Shelf.Select(i => i.Name).ToArray()',
  'Game.Shop.Shelf.Where(i => i != null).Select(i => i.Name).ToArray()',
  'Game.Shop.Shelf.Select(i => i?.Name).ToArray()',
  'Game.Shop.Shelf.Count(i => i == null)',
);

// ---------------------------------------------------------------------------------------------
section('statements around LINQ and lambdas: loops, if, switch, try, return from anywhere');
add(
  'int s = 0; foreach (var x in new[] { 1, 2, 3 }.Where(v => v != 2)) s += x; s',
  'int s = 0; foreach (var x in Enumerable.Range(1, 10)) { if (x % 2 == 0) continue; if (x > 7) break; s += x; } s',
  'foreach (var x in new[] { 3, 8, 5 }.OrderBy(v => v)) if (x > 4) return x; return -1;',
  'foreach (var c in Game.Crowd.Squad) if (c.Hp > 80) return c.Name; return "none";',
  'var names = new List<string>(); foreach (var c in Game.Crowd.Squad.Where(c => c.Team == 1)) names.Add(c.Name); names',
  'var best = Game.Crowd.Squad[0]; foreach (var c in Game.Crowd.Squad) if (c.Hp > best.Hp) best = c; best.Name',
  'int hp = 0; foreach (var c in Game.Crowd.Squad) hp += c.Hp; hp == Game.Crowd.Squad.Sum(c => c.Hp)',
  'var l = new List<int>(); for (int i = 0; i < 5; i++) l.Add(i * i); l.Where(x => x > 3).Sum()',
  'var xs = new[] { 4, 9, 2 }; int i = 0; while (i < xs.Length && xs[i] != 9) i++; i',
  'int n = 0; do { n++; } while (Enumerable.Range(0, n).Sum() < 10); n',
  'var q = new[] { 1, 2, 3 }; switch (q.Count(x => x > 1)) { case 2: return "two"; default: return "other"; }',
  'object o = new[] { 1, 2 }.Sum(); switch (o) { case int i when i > 2: return "big int " + i; case int i: return "int"; default: return "?"; } //roslyn(string): "big int 3"',
  'object o = new[] { 1, 2 }.Sum(); switch (o) { case string s: return "string"; case int i: return "int " + i; default: return "?"; } //roslyn(string): "int 3"',
  'var r = ""; foreach (var g in new[] { "a", "bb", "c" }.GroupBy(s => s.Length)) { r += g.Key; foreach (var s in g) r += s; } r',
  'var d = new Dictionary<string, int>(); foreach (var s in new[] { "a", "b", "a" }) { int v; d.TryGetValue(s, out v); d[s] = v + 1; } d.OrderBy(kv => kv.Key).Select(kv => kv.Value).ToArray()',
  'int found = -1; for (int i = 0; i < 10; i++) { if (new[] { 3, 6 }.Contains(i)) { found = i; break; } } found',
  'var acc = new List<string>(); try { foreach (var x in new[] { 2, 1, 0 }) acc.Add((6 / x).ToString()); } catch (DivideByZeroException) { acc.Add("div0"); } finally { acc.Add("end"); } acc',
  'try { throw new InvalidOperationException(new[] { "a", "b" }.Aggregate((x, y) => x + y)); } catch (Exception e) { return e.Message; }',
  'var xs = new[] { 5, 3 }; if (xs.Any(x => x > 4)) return xs.Max(); else return xs.Min();',
  'var xs = new int[0]; if (xs.Any()) return xs.Max(); return 0;',
  'if (true) return 1;',
  'if (new[] { 1 }.Any()) return 1; else throw new InvalidOperationException("none");',
  'var list = new[] { 1, 2, 3 }; var total = 0L; foreach (var x in list.Select(v => (long)v * int.MaxValue)) total += x; total',
  'int Count = 0; foreach (var x in Game.Crowd.Lazy) Count += x; Count',
  'var seen = new HashSet<int>(); foreach (var x in new[] { 1, 2, 1, 3 }) if (!seen.Add(x)) return x; return 0;',
  'Func<int, string> classify = x => { if (x < 0) return "neg"; if (x == 0) return "zero"; return "pos"; }; new[] { -1, 0, 3 }.Select(classify).ToArray()',
  'Func<int, int> clamp = x => { switch (x) { case 0: return 1; default: return x > 10 ? 10 : x; } }; new[] { 0, 5, 50 }.Select(clamp).ToArray()',
  'Func<int, int> loop = n => { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }; loop(5)',
  'Func<int, int> safe = x => { try { return 10 / x; } catch (DivideByZeroException) { return -1; } }; safe(0) + safe(5)',
  'Action<List<int>> fill = l => { for (int i = 0; i < 3; i++) l.Add(i); }; var l2 = new List<int>(); fill(l2); l2.Count',
  'var xs = Enumerable.Range(1, 5).ToArray(); var evens = xs.Where(x => x % 2 == 0); var odds = xs.Except(evens); odds.ToArray()',
  'new[] { 1, 2, 3 }.Intersect(new[] { 2, 3, 4 }).ToArray()',
  'new[] { 1, 2 }.Union(new[] { 2, 3 }).ToArray()',
  'int i = 0; var xs = new int[3]; foreach (var v in Enumerable.Range(5, 3)) xs[i++] = v; xs',
  'var words = "the quick brown fox".Split(\' \'); words.OrderByDescending(w => w.Length).ThenBy(w => w).First()',
  'var words = "b a c".Split(\' \'); string.Join(",", words.OrderBy(w => w))',
  'string.Join("+", Enumerable.Range(1, 3))',
  'string.Concat(new[] { "x", "y" }.Select(s => s.ToUpper()))',
  'var text = "hello"; new string(text.Reverse().ToArray())',
  'var text = "hello"; text.Count(c => c == \'l\')',
  'var text = "hello"; text.Distinct().Count()',
  'var text = "a1b2"; text.Where(char.IsDigit).Select(c => c - \'0\').Sum()',
);

// ---------------------------------------------------------------------------------------------
section('game sequences: arrays, List<T>, IList<T>, IEnumerable<T>, an iterator, 10,000 objects');
const gameSources: [string, string][] = [
  ['Probe.SInts', 'x'],
  ['Probe.SList', 'x'],
  ['Game.Shop.Ints', 'x'],
  ['Game.Shop.Sequence', 'x'],
  ['Game.Crowd.Hps', 'x'],
  ['Game.Crowd.Lazy', 'x'],
];
for (const [src] of gameSources) {
  add(
    `${src}.Sum()`,
    `${src}.Where(x => x % 2 == 0).ToArray()`,
    `${src}.Select(x => x * 2L).Max()`,
    `${src}.OrderByDescending(x => x).First()`,
    `${src}.Average()`,
    `${src}.Count()`,
    `int s = 0; foreach (var x in ${src}) s += x; s`,
  );
}
add(
  'Game.Crowd.People.Count',
  'Game.Crowd.People.Count()',
  'Game.Crowd.People.Sum(c => c.Hp)',
  'Game.Crowd.People.Where(c => c.Hp > 10).Select(c => c.Hp).Sum()',
  'int total = 0; foreach (var c in Game.Crowd.People) total += c.Hp; total',
  'Game.Crowd.People.Max(c => c.Hp)',
  'Game.Crowd.People.Count(c => c.Team == 3)',
  'Game.Crowd.People.Where(c => c.Hp == 99).Select(c => c.Name).Take(3).ToArray()',
  'Game.Crowd.People.Skip(9998).Select(c => c.Name).ToArray()',
  'Game.Crowd.People.First(c => c.Hp == 0).Name',
  'Game.Crowd.People.Last().Name',
  'Game.Crowd.People.Average(c => (double)c.Hp)',
  'Game.Crowd.Squad.Average(c => (double)c.Level)',
  'Game.Crowd.Squad.Select(c => c.ToString()).ToArray()',
  'Game.Crowd.Squad.Where(c => c.Hp > 50).ToList()',
  'Game.Crowd.Squads.Where(c => c.Team == 0).ToArray()',
  'Game.Crowd.Squad.Select(c => c.Level).Distinct().Count()',
  'Game.Crowd.Squad.Any(c => c.Name == "c3")',
  'Game.Crowd.Squad.All(c => c.Name.StartsWith("c"))',
  'Game.Crowd.Squads.Sum(c => (long)c.Hp)',
  'Game.Crowd.Squads.Average(c => c.Hp)',
  'Game.Crowd.Squads.Min(c => c.Name)',
  'Game.Crowd.Teams.Select(t => t.Length).ToArray()',
  'Game.Crowd.Teams.Where(t => t.Contains("e")).ToList()',
  'Game.Crowd.Teams.Zip(Game.Crowd.Squad, (t, c) => t + c.Hp).ToArray()',
  'Probe.SPoints.Select(p => p.X + p.Y).ToArray()',
  'Probe.SPoints.Sum(p => p.Sum())',
  'Probe.SPoints.Select(p => p).Last()',
  'Probe.Instance.IList.Select(s => s + s).ToArray()',
  'Probe.Instance.IInts.Reverse().ToArray()',
  'Game.Shop.Featured.Tags.OrderBy(t => t).First()',
  'Game.Shop.Places.Select(kv => kv.Value.x).Single()',
  'Probe.SChain.Value + new[] { Probe.SChain, Probe.SChain.Next }.Sum(n => n.Value)',
  'var squad = Game.Crowd.Squad; var total = 0; for (int i = 0; i < squad.Count; i++) total += squad[i].Team; total',
);

// ---------------------------------------------------------------------------------------------
section('row lambdas: Where/Select chains over game arrays and lists, computed a chunk at a time');
// every kind a row holds, at its edges: int wraps (unchecked), float rounds after each
// operation, NaN and -0 compare as IEEE says, small ints promote to int; and lambdas just
// outside the row forms (unchecked(), a cast), which go element by element
add(
  'Game.Crowd.Extremes.Select(x => x + 1).ToArray()',
  'Game.Crowd.Extremes.Select(x => x * x).ToArray()',
  'Game.Crowd.Extremes.Select(x => -x).ToArray()',
  'Game.Crowd.Extremes.Select(x => x - 1).Where(x => x < 0).Count()',
  'Game.Crowd.Extremes.Select(x => x * 0.5).ToArray()',
  'Game.Crowd.Extremes.Select(x => x * 1f).ToArray()',
  'Game.Crowd.Extremes.Where(x => x > 0 == x < 46342).ToArray()',
  'Game.Crowd.Extremes.Select(x => unchecked(x + 1)).ToArray()',
  'Game.Crowd.Floats.Select(f => f * 3f).ToArray()',
  'Game.Crowd.Floats.Select(f => f + 0.1f).ToArray()',
  'Game.Crowd.Floats.Where(f => f > 0).Count()',
  'Game.Crowd.Floats.Where(f => f != f).Count()',
  'Game.Crowd.Floats.Select(f => f * 0.1).ToArray()',
  'Game.Crowd.Floats.Select(f => -f).ToArray()',
  'Game.Crowd.Floats.Select(f => f * 2f).Sum()',
  'Game.Crowd.Floats.Select(f => f - 16777215).ToArray()',
  'Probe.SDoubles.Select(d => d * 2).ToArray()',
  'Probe.SDoubles.Where(d => d >= 0.1).ToArray()',
  'Probe.SDoubles.Select(d => -d).ToArray()',
  'Probe.SDoubles.Where(d => !(d < 1)).Count()',
  'Game.Crowd.Shorts.Select(s => s * s).ToArray()',
  'Game.Crowd.Shorts.Select(s => -s).ToArray()',
  'Game.Crowd.Shorts.Where(s => s < 0).Select(s => s + 1f).ToArray()',
  'Game.Crowd.Shorts.Select(s => s).ToArray()',
  'Game.Crowd.Bytes.Select(b => b * 2).Sum()',
  'Game.Crowd.Bytes.Where(b => b > 100).ToArray()',
  'Game.Crowd.Bytes.Select(b => b + b).Max()',
  'Game.Crowd.Flags.Where(f => f).Count()',
  'Game.Crowd.Flags.Select(f => !f).ToArray()',
  'Game.Crowd.Flags.Where(f => f == false || f != true).Count()',
  'Game.Crowd.Flags.Select(f => f && true).ToList()',
);
// fields of 10,000 objects, read in one batch per field
add(
  'Game.Crowd.People.Where(c => c.Hp > 10 && c.Team != 2).Select(c => c.Hp * c.Team - 7).Sum()',
  'Game.Crowd.People.Select(c => c.Hp * 50000000).Where(v => v < 0).Count()',
  'Game.Crowd.People.Select(c => c.Hp * 0.1).Sum()',
  'Game.Crowd.People.Select(c => c.Hp * 0.1f).Sum()',
  'Game.Crowd.People.Where(c => !(c.Hp < 50) || c.Team == 1).Count()',
  'Game.Crowd.People.Select(c => -c.Hp).Min()',
  'Game.Crowd.People.Select(c => c.Hp > 50).Where(b => b).Count()',
  'Game.Crowd.People.Where(c => c.Hp > 98).Select(c => c.Team).Take(5).ToArray()',
  'Game.Crowd.People.Where(c => c.Hp == 42).First().Name',
  'Game.Crowd.People.Where(c => c.Hp > 10).Select(c => c.Hp).Average()',
  'Game.Crowd.People.Where(c => c.Hp > 90).Where(c => c.Team == 1).Select(c => c.Hp + c.Team).Max()',
  'Game.Crowd.People.Where(c => c.Hp > 10).Select(c => (long)c.Hp).Sum()',
  'var xs = Game.Crowd.Extremes; var sum = 0; foreach (var x in xs) { xs[5] = 3; sum += x; } xs[5] = int.MaxValue; sum',
  'Game.Crowd.People.Select(c => c.Hp / 3).Where(h => h > 30).Count()',
);
// more than one chunk (16,384 elements a read): elements handed on across the boundary
add(
  'Game.Crowd.Many.Where(x => x > 100 && x < 19990).Select(x => x * 2).Sum()',
  'Game.Crowd.Many.Where(x => x > 16380).Take(8).ToArray()',
  'Game.Crowd.Many.Select(x => x * 3).Where(x => x % 7 == 0).Count()',
  'int t = 0; foreach (var x in Game.Crowd.Many) t += x; t',
  'int n = 0; int s = 0; foreach (var x in Game.Crowd.Many.Where(v => v > 16380)) { if (n++ == 2) Game.Crowd.Many[16390] = -5; s += x; } Game.Crowd.Many[16390] = 16390; s',
);
// foreach bodies of the same expressions over the loop's outer locals
add(
  'int t = 0; foreach (var x in Game.Crowd.Extremes) t += x; t',
  'int t = 5; foreach (var x in Game.Crowd.Extremes) t = t * 3 + x; t',
  'double d = 0; foreach (var f in Game.Crowd.Floats) d += f * 2; d',
  'float f = 0; foreach (var s in Game.Crowd.Shorts) f += s; f',
  'float f = 1; foreach (var x in Game.Crowd.Floats) f *= x; f',
  'int n = 0; foreach (var b in Game.Crowd.Flags) if (b) n++; else n -= 2; n',
  'int m = int.MinValue; foreach (var c in Game.Crowd.People) if (c.Hp * 3 + c.Team > m) m = c.Hp * 3 + c.Team; m',
  'int a = 0, b = 0; foreach (var c in Game.Crowd.People) { if (c.Team == 1) a += c.Hp; else b++; } a * 10 + b',
  'double s = 0; foreach (var c in Game.Crowd.People) s += c.Hp * 0.01; s',
  'float s = 0; foreach (var c in Game.Crowd.People) s += c.Hp * 0.5f; s',
  'int last = -1; foreach (var c in Game.Crowd.People) if (c.Hp == 42) last = c.Team; last',
  'bool all = true; foreach (var c in Game.Crowd.People) all = all && c.Hp < 100; all',
  'int t = 0; Func<int> f = () => t; foreach (var c in Game.Crowd.People) t += c.Team; f()',
  'int w = 0; foreach (var c in Game.Crowd.People) w = w * 31 + c.Hp; w',
);
// the code taking the elements changes the game: the rest of the query sees it
add(
  'var n = 0; foreach (var h in Game.Crowd.People.Where(p => p.Hp > 97).Select(p => p.Hp)) { if (n == 0) Game.Crowd.People[9999].Hp = 98; n++; } Game.Crowd.People[9999].Hp = 74; n',
  'var r = ""; try { foreach (var c in Game.Crowd.People.Where(p => p.Hp > 98)) Game.Crowd.People.Add(c); } catch (InvalidOperationException e) { r = e.Message; } Game.Crowd.People.RemoveAt(10000); r',
  'var seen = 0; foreach (var x in Game.Crowd.Extremes.Select(v => v * 2)) { Game.Crowd.Extremes[5] = 7; seen += x; } Game.Crowd.Extremes[5] = int.MaxValue; seen',
);

// ---------------------------------------------------------------------------------------------
section('static types of sequences: interfaces over arrays and lists, long results, variance');
add(
  'new[] { 1, 2 }.AsEnumerable()',
  'new List<int> { 1 }.AsEnumerable()',
  'Probe.SList.AsEnumerable()',
  'Enumerable.Empty<string>()',
  'new[] { 1, 2 }.Cast<int>()',
  'new object[] { "a" }.Cast<object>()',
  'IEnumerable<int> e = Probe.SInts; e',
  'var a = new[] { 1 }; object.ReferenceEquals(a.AsEnumerable(), a)',
  'var a = new[] { 1 }; object.ReferenceEquals(a.Cast<int>(), a)',
  'var a = new[] { 1 }; object.ReferenceEquals(a.Select(x => x), a)',
  'var a = new[] { 1 }; object.ReferenceEquals(a.ToArray(), a)',
  'object.ReferenceEquals(Probe.SList.AsEnumerable(), Probe.SList)',
  'object.ReferenceEquals(Enumerable.Empty<int>(), Enumerable.Empty<int>())',
  'IEnumerable<object> e = Probe.SStrings; e',
  'IEnumerable<object> e = Probe.SStrings; e.Count(o => o is string)',
  'IList<int> l = new[] { 1, 2 }.ToList(); l',
  'ICollection<string> c = new[] { "x" }.ToList(); c.Count',
  'IGrouping<int, int> g = new[] { 1 }.GroupBy(x => x).Single(); g.Key + g.Count()',
  'IOrderedEnumerable<string> o = new[] { "b", "a" }.OrderBy(s => s); o.First()',
  'Dictionary<string, int> d = new[] { "a" }.ToDictionary(s => s, s => 1); d',
  'HashSet<int> h = new[] { 1, 1 }.ToHashSet(); h.Count',
  'Enumerable.Range(0, 12).ToArray()',
  'Enumerable.Range(0, 12).ToList()',
  'Enumerable.Range(0, 12).ToDictionary(i => i, i => i * i)',
  'Enumerable.Repeat(new { a = 1 }, 2).ToArray()',
  'Enumerable.Range(0, 3).Select(i => new List<int> { i }).ToArray()',
  'Enumerable.Range(0, 3).Select(i => Enumerable.Range(0, i).ToArray()).ToList()',
  'new[] { 1, 2 }.Select(x => (double?)x).ToArray()',
  'new[] { 1, 2 }.Select(x => (Game.Color)x).ToArray()',
  'new[] { Game.Color.Blue, Game.Color.Red }.OrderBy(c => c).ToArray()',
  'new[] { Game.Color.Blue, Game.Color.Red }.Max()',
  'Probe.SPoints.Select(p => new Point(p.Y, p.X)).ToArray()',
  'Game.Crowd.Squad.Select(c => c).Take(2).ToList()',
  'Game.Crowd.Squad.ToDictionary(c => c.Name, c => c.Hp)',
  'Game.Crowd.Squad.ToArray()',
  'var r = ""; try { foreach (var h in Game.Crowd.Hps.Select(x => x)) Game.Crowd.Hps.Add(h); } catch (InvalidOperationException e) { r = e.Message; } Game.Crowd.Hps.RemoveAt(6); r',
  'var r = 0; foreach (var h in Game.Crowd.Hps.ToList()) { Game.Crowd.Hps.Add(h); r++; } Game.Crowd.Hps.RemoveRange(6, 6); r * 100 + Game.Crowd.Hps.Count',
);

// ---------------------------------------------------------------------------------------------
section('local functions: mcs 6.8 has none, so each line carries what Roslyn gives');
add(
  'int Sq(int x) => x * x; Sq(7) //roslyn(int): 49',
  'int Fact(int n) { return n <= 1 ? 1 : n * Fact(n - 1); } Fact(5) //roslyn(int): 120',
  'var r = Twice(3); int Twice(int x) => x * 2; r //roslyn(int): 6',
  'int k = 10; int AddK(int x) => x + k; k = 20; AddK(1) //roslyn(int): 21',
  'bool IsOdd(int x) => x % 2 == 1; new[] { 1, 2, 3 }.Where(IsOdd).Sum() //roslyn(int): 4',
  'int Tri(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; } Tri(4) //roslyn(int): 6',
  'string Greet(string who = "you") => "hi " + who; Greet() + Greet("me") //roslyn(string): "hi youhi me"',
  'int calls = 0; int Next() => ++calls; Next(); Next(); calls //roslyn(int): 2',
  'long Pow(int b, int e) => e == 0 ? 1 : b * Pow(b, e - 1); Pow(2, 40) //roslyn(long): 1099511627776',
  'double Half(int x) => x / 2.0; new[] { 1, 3 }.Select(Half).Sum() //roslyn(double): 2',
);

// ---------------------------------------------------------------------------------------------
section('refusals: what C# refuses in these forms, with the code it gives');
add(
  'new[] { 1 }.Wher(x => x > 0)',
  'new[] { 1 }.Where(x => y > 0).Count()',
  'Func<int, int> f = (a, b) => a; 1',
  'int x = 1; Func<int, int> f = x => x; f(2)',
  'Func<int> f = () => { }; 1',
  'int s; foreach (var x in new[] { 1 }) s = x; s',
  'var xs = new[] { 1 }; foreach (var x in xs) { x = 2; } 0',
  'for (int i = 0; i < 3; i++) { if (i > 1) return i; }',
  'if (Probe.SBool) return 1; return "a";',
  'new[] { 1 }.Select(x => x.Length).ToArray()',
  'new[] { "a" }.Average()',
);

// ---------------------------------------------------------------------------------------------
const header = `# The differential corpus of whole programs: statements, lambdas, LINQ (extension form and
# query syntax) and anonymous types. Each line is one program, the body of a method: its value is
# what a \`return\` gives, else its last statement's (docs/eval-contract.md, "The program"). The
# oracle compiles each as the body of a lambda run by Prog.Run (test-integration/eval-diff/
# programs.ts), so the value's static type is the one C# infers, and runs it inside the fixture
# with System.Linq in scope; the evaluator runs the same line. Both sides run the lines in order,
# so a program's writes to the game are seen by later lines on both.
# Written by gen-programs.ts: edit that, then run it (\`npx tsx test-integration/eval-diff/gen-programs.ts\`).
# A line ending in \` //roslyn(<type>): <value>\` is where mcs is wrong or lacks the feature
# (local functions): what Roslyn (Unity's compiler) gives.
# Anonymous types: their static type is written \`<anonymous type: int a, string b>\` (Roslyn's
# display form), their value as their ToString prints it (\`{ a = 1, b = x }\`).`;

await writeFile(
  path.join(import.meta.dirname, 'corpus-programs.txt'),
  `${header}\n${out.join('\n')}\n`,
);
console.log(`${out.filter((l) => l && !l.startsWith('#')).length} programs`);
