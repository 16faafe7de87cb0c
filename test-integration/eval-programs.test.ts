// The evaluator against C# on whole programs (issue 17): statements, lambdas, LINQ in extension
// form and query syntax, anonymous types, over client arrays and lists and the fixture's own
// sequences (Game.Crowd: a List<T> of 10,000 objects, a game iterator...). Every program of
// eval-diff/corpus-programs.txt is compiled by mcs as the body of a lambda (its static type is
// the one C# infers) and run in one fixture, and evaluated by us in a second fixture started the
// same way, in the same order; the outcomes must match as in eval-diff.test.ts: static type and
// printed value, exception type and message, or refusal code. Agreement is reported per family
// of the corpus (its `#` sections), then every difference is listed.

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readCorpus, type CorpusCase, type Outcome } from './eval-diff/oracle.js';
import { PROGRAMS } from './eval-diff/programs.js';
import * as diff from './eval-diff/compare.js';

/** The corpus's programs have System.Linq in scope, as the oracle compiles them. */
const USINGS = [...diff.USINGS, 'System.Linq'];

/** The families where C# itself refuses programs (on purpose): nowhere else may mcs refuse one. */
const REFUSING_SECTIONS = [/^refusals/, /^local functions/];

let cases: CorpusCase[];
let oracle: Map<string, Outcome>;
let ours: Map<string, Outcome>;
const games = new diff.Games();

beforeAll(async () => {
  cases = await readCorpus(path.join(import.meta.dirname, 'eval-diff', 'corpus-programs.txt'));
  const [a, b] = await Promise.all([games.attach(), games.attach()]);
  oracle = await diff.oracleOutcomes(a, cases, PROGRAMS);
  ours = await diff.evaluateAll(b, cases, USINGS);
}, 600_000);

afterAll(() => games.stop());

describe('the corpus of programs', () => {
  it('has the size and the shapes the issue asks for, and C# runs every one it should', () => {
    expect(cases.length).toBeGreaterThanOrEqual(500);
    let typed = 0;
    let thrown = 0;
    const unexpected: string[] = [];
    for (const c of cases) {
      const e = oracle.get(c.id)!;
      if (e.kind === 'value' && e.type !== 'void') typed++;
      if (e.kind === 'exception') thrown++;
      const refusing = REFUSING_SECTIONS.some((r) => r.test(c.section ?? ''));
      if (e.kind === 'compile-error' && !refusing && c.roslyn === undefined)
        unexpected.push(`${c.id} ${c.program}: ${e.message}`);
      if (refusing && e.kind !== 'compile-error')
        unexpected.push(`${c.id} ${c.program}: C# accepts it (${JSON.stringify(e)})`);
    }
    expect(unexpected, unexpected.join('\n')).toEqual([]);
    // typed values and exceptions are what the comparison is mostly about
    expect(typed).toBeGreaterThan(450);
    expect(thrown).toBeGreaterThan(40);
  });
});

/**
 * Programs C# runs that the evaluator refuses on purpose, loudly (a refusal is never a wrong
 * answer): each with the code it must refuse with and why; an entry the evaluator has come to
 * agree with C# on, or that it refuses otherwise, is reported as stale.
 */
const DELIBERATE_REFUSALS: ReadonlyMap<string, { code: string; why: string }> = new Map([]);

describe('the evaluator agrees with C# on whole programs', () => {
  it('on every program: static type and value, exception, or refusal code', () => {
    const differences: string[] = [];
    const bySection = new Map<string, { agree: number; total: number }>();
    for (const c of cases) {
      const tally = bySection.get(c.section ?? '') ?? { agree: 0, total: 0 };
      bySection.set(c.section ?? '', tally);
      tally.total++;
      const a = ours.get(c.id)!;
      const e = diff.expectedOutcome(c, oracle.get(c.id)!);
      if (typeof e === 'string') {
        differences.push(`${c.id} ${c.program}: ${e}`);
        continue;
      }
      const refusal = DELIBERATE_REFUSALS.get(c.program);
      if (refusal !== undefined) {
        if (a.kind === 'compile-error' && diff.codeOf(a.message) === refusal.code) {
          console.log(`deliberate refusal ${c.id} ${c.program}: ${refusal.why}`);
          tally.agree++;
        } else
          differences.push(
            `${c.id} ${c.program}: DELIBERATE_REFUSALS expects ${refusal.code}, the evaluator gives ${JSON.stringify(a)}; update or drop the entry`,
          );
        continue;
      }
      if (diff.same(e, a)) tally.agree++;
      else
        differences.push(
          `${c.id} ${c.program}\n    C#:   ${JSON.stringify(e)}\n    eval: ${JSON.stringify(a)}`,
        );
    }
    const agree = [...bySection.values()].reduce((n, t) => n + t.agree, 0);
    console.log(
      `eval-programs: ${agree} of ${cases.length} programs agree\n` +
        [...bySection]
          .map(([s, t]) => `  ${String(t.agree).padStart(4)} / ${String(t.total).padEnd(4)} ${s}`)
          .join('\n'),
    );
    expect(
      differences,
      `${differences.length} of ${cases.length} differ:\n${differences.join('\n')}`,
    ).toEqual([]);
  });

  it('lists deliberate refusals of programs the corpus has', () => {
    for (const program of DELIBERATE_REFUSALS.keys())
      expect(
        cases.some((c) => c.program === program),
        program,
      ).toBe(true);
  });

  it('compares refusals by their codes', () => {
    for (const c of cases) {
      const e = oracle.get(c.id)!;
      if (e.kind === 'compile-error')
        expect(diff.codeOf(e.message), `${c.id} ${c.program}: ${e.message}`).toMatch(/^CS\d{4}$/);
    }
  });
});
