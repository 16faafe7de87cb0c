// How the differential tests compare C#'s outcome of a program with the evaluator's, and how the
// evaluator's side is run: shared by eval-diff.test.ts (expressions) and eval-programs.test.ts
// (whole programs).

import { buildFixture } from '../../fixtures/build.js';
import { startFixture, type FixtureProcess } from '../../fixtures/launch.js';
import { DEFAULT_USINGS, EvalError } from '../../eval/index.js';
import { evaluateInGame } from '../../unity/eval-bridge/evaluate-in-session.js';
import { GameSession } from '../../unity/session/session.js';
import {
  LINES,
  compileOracle,
  runOracle,
  type CorpusCase,
  type Dialect,
  type Outcome,
} from './oracle.js';

/** The namespaces the differential tests evaluate in: a Unity script's, and the game's. */
export const USINGS: readonly string[] = [...DEFAULT_USINGS, 'Game'];

/** Fixture games, each with a session attached, started the same way; stopped together. */
export class Games {
  private readonly fixtures: FixtureProcess[] = [];
  private readonly sessions: GameSession[] = [];

  async attach(entities = 200): Promise<GameSession> {
    const fixture = await startFixture({ entities });
    this.fixtures.push(fixture);
    const session = new GameSession({ invokeTimeoutMs: 10_000 });
    this.sessions.push(session);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
    return session;
  }

  async stop(): Promise<void> {
    for (const s of this.sessions) await s.shutdown();
    for (const f of this.fixtures) await f.stop();
  }
}

/** What C# gives for every case: compiled by mcs in `dialect`, run in the session's game. */
export async function oracleOutcomes(
  session: GameSession,
  cases: readonly CorpusCase[],
  dialect: Dialect = LINES,
): Promise<Map<string, Outcome>> {
  const build = await buildFixture();
  const { dll, compileErrors } = await compileOracle(cases, build.dir, dialect);
  const r = await session.run(
    'oracle',
    'eval-diff',
    (ctx) => runOracle(ctx, dll, cases, compileErrors),
    {
      exclusive: true,
    },
  );
  return r.value;
}

/** The refusal's code: CSxxxx, or our own code when the refusal has no compiler code. */
export const codeOf = (message: string): string => /^(\S+?):? /.exec(message)?.[1] ?? message;

export function same(expected: Outcome, actual: Outcome): boolean {
  if (expected.kind !== actual.kind) return false;
  if (expected.kind === 'value') {
    const a = actual as typeof expected;
    return expected.type === a.type && expected.text === a.text;
  }
  if (expected.kind === 'exception') {
    const a = actual as typeof expected;
    return expected.type === a.type && expected.message === a.message;
  }
  return codeOf(expected.message) === codeOf((actual as typeof expected).message);
}

/**
 * What C# gives for a case: the oracle's outcome, or the `//roslyn` note's where mcs is wrong
 * (then mcs must still disagree with the note, or the note is stale: an error string).
 */
export function expectedOutcome(c: CorpusCase, mcs: Outcome): Outcome | string {
  if (c.roslyn === undefined) return mcs;
  const type = c.roslyn.type ?? (mcs.kind === 'value' ? mcs.type : undefined);
  if (type === undefined) return 'the //roslyn note needs the type: //roslyn(T): value';
  const e: Outcome = { kind: 'value', type, text: c.roslyn.text };
  if (same(mcs, e)) return 'mcs now agrees with the //roslyn note; drop the note';
  return e;
}

/** Evaluates every case in order in one session, each in its own run, as an agent's calls are. */
export async function evaluateAll(
  session: GameSession,
  cases: readonly CorpusCase[],
  usings: readonly string[],
): Promise<Map<string, Outcome>> {
  const ours = new Map<string, Outcome>();
  for (const c of cases) {
    const r = await session.run('eval', 'eval-diff', async (ctx): Promise<Outcome> => {
      try {
        const v = await evaluateInGame(ctx, c.program, { usings, anyNamespace: false });
        if (v.kind === 'value') return { kind: 'value', type: v.type, text: v.text };
        if (v.kind === 'void') return { kind: 'value', type: 'void', text: 'void' };
        return { kind: 'exception', type: v.type, message: v.message };
      } catch (e) {
        // the compiler's code first, as mcs's messages start with it; our own code when none
        if (e instanceof EvalError)
          return {
            kind: 'compile-error',
            message: `${e.csCode ?? e.code}: ${e.code} ${e.message}`,
          };
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
  return ours;
}
