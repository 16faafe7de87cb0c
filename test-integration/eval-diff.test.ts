// The evaluator against C# itself: every program of the corpus is compiled by mcs and run in
// one fixture, and evaluated by us in a second fixture started the same way, in the same order.
// Values (as formatted), thrown exceptions and compile refusals must all match.

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildFixture } from '../fixtures/build.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { EvalError } from '../eval/index.js';
import { evaluateInGame } from '../unity/eval-bridge/evaluate-in-session.js';
import { GameSession } from '../unity/session/session.js';
import {
  compileOracle,
  readCorpus,
  runOracle,
  type CorpusCase,
  type Outcome,
} from './eval-diff/oracle.js';

const USINGS = [
  'System',
  'System.Collections.Generic',
  'UnityEngine',
  'Unity.Entities',
  'Unity.Mathematics',
  'Unity.Collections',
  'Unity.Transforms',
  'Game',
];

let cases: CorpusCase[];
let oracle: Map<string, Outcome>;
let ours: Map<string, Outcome>;
const fixtures: FixtureProcess[] = [];
const sessions: GameSession[] = [];

async function attached(): Promise<GameSession> {
  const fixture = await startFixture({ entities: 200 });
  fixtures.push(fixture);
  const session = new GameSession({ invokeTimeoutMs: 10_000 });
  sessions.push(session);
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
  return session;
}

beforeAll(async () => {
  cases = await readCorpus(path.join(import.meta.dirname, 'eval-diff', 'corpus.txt'));
  const build = await buildFixture();
  const { dll, compileErrors } = await compileOracle(cases, build.dir);
  const [a, b] = await Promise.all([attached(), attached()]);
  oracle = (
    await a.run('oracle', 'eval-diff', (ctx) => runOracle(ctx, dll, cases, compileErrors), {
      exclusive: true,
    })
  ).value;
  ours = new Map();
  for (const c of cases) {
    const r = await b.run('eval', 'eval-diff', async (ctx): Promise<Outcome> => {
      try {
        const v = await evaluateInGame(ctx, c.program, { usings: USINGS, anyNamespace: false });
        if (v.kind === 'value') return { kind: 'value', text: v.text };
        if (v.kind === 'void') return { kind: 'value', text: 'void' };
        return { kind: 'exception', type: v.type, message: v.message };
      } catch (e) {
        if (e instanceof EvalError)
          return { kind: 'compile-error', message: `${e.code} ${e.message}` };
        // anything else is a bug of ours: recorded as a difference, not hidden
        return {
          kind: 'exception',
          type: 'EVALUATOR-BUG',
          message: String((e as Error).stack ?? e).slice(0, 400),
        };
      }
    });
    ours.set(c.id, r.value);
  }
}, 300_000);

afterAll(async () => {
  for (const s of sessions) await s.shutdown();
  for (const f of fixtures) await f.stop();
});

function same(expected: Outcome, actual: Outcome): boolean {
  if (expected.kind !== actual.kind) return false;
  if (expected.kind === 'value') return expected.text === (actual as typeof expected).text;
  if (expected.kind === 'exception') {
    const a = actual as typeof expected;
    return expected.type === a.type && expected.message === a.message;
  }
  return true; // both refused; the codes are compared in the next test
}

describe('the evaluator agrees with C#', () => {
  it('on every program of the corpus', () => {
    const differences: string[] = [];
    for (const c of cases) {
      const mcs = oracle.get(c.id)!;
      const a = ours.get(c.id)!;
      if (c.roslyn !== undefined && same(mcs, { kind: 'value', text: c.roslyn })) {
        differences.push(
          `${c.id} ${c.program}: mcs now agrees with the //roslyn note; drop the note`,
        );
      }
      const e: Outcome = c.roslyn === undefined ? mcs : { kind: 'value', text: c.roslyn };
      if (!same(e, a))
        differences.push(
          `${c.id} ${c.program}\n    C#:   ${JSON.stringify(e)}\n    eval: ${JSON.stringify(a)}`,
        );
    }
    expect(cases.length).toBeGreaterThan(800);
    expect(
      differences,
      `${differences.length} of ${cases.length} differ:\n${differences.join('\n')}`,
    ).toEqual([]);
  });

  it("refuses with the compiler's own error code where C# does", () => {
    const codes: string[] = [];
    for (const c of cases) {
      const e = oracle.get(c.id)!;
      const a = ours.get(c.id)!;
      if (e.kind !== 'compile-error' || a.kind !== 'compile-error') continue;
      const expected = /^(CS\d+)/.exec(e.message)?.[1];
      const actual = /(CS\d+)/.exec(a.message)?.[1];
      if (expected !== actual && !a.message.startsWith('EVAL_SYNTAX'))
        codes.push(`${c.id} ${c.program}: C# ${e.message} / eval ${a.message}`);
    }
    expect(codes, codes.join('\n')).toEqual([]);
  });
});
