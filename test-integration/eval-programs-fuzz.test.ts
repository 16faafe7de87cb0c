// Random statement programs (seeded) against the real fixture, through the server's path
// (evaluateInSession): loops that may never end, nested jumps, try/catch/finally, switch, throws,
// division by zero and out-of-range reads of game arrays. Whatever a program does, the evaluation
// must come back (the budget holds: a program that would run on stops with EVAL_BUDGET), with a
// value, an exception of the program or a refusal, never an internal error; afterwards the
// session still evaluates and the game runs (it was not left suspended). And every program that
// finished agrees with C#: compiled by mcs (as eval-programs.test.ts compiles its corpus) and
// run in a second fixture, it gives the same typed value or the same exception.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { evaluateInSession } from '../unity/eval-bridge/evaluate-in-session.js';
import { UnityError } from '../unity/errors.js';
import { GameSession } from '../unity/session/session.js';
import { Games, oracleOutcomes, same } from './eval-diff/compare.js';
import type { CorpusCase, Outcome } from './eval-diff/oracle.js';
import { PROGRAMS as PROGRAM_DIALECT } from './eval-diff/programs.js';

const SEED = 17;
const PROGRAMS = 200;
const USINGS = ['System', 'System.Collections.Generic', 'Game'];
/** Small bounds, so that the endless loops stop soon; each is reached by some program. */
const BUDGET = { iterations: 3_000, invokes: 150, freezeMs: 1_500 };
/** Far above any budget: an evaluation still running after this has hung. */
const HANG_MS = 30_000;

/** Park and Miller's minimal standard generator, seeded: every run makes the same programs. */
function random(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => {
    s = (s * 48271) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

/** Makes statement programs over three int locals, with loops, jumps and game reads. */
function programs(seed: number, count: number): string[] {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const v = (): string => pick(['a', 'b', 'c']);
  const n = (): string => String(Math.floor(r() * 7) - 2);
  const expr = (): string =>
    pick([
      () => `${v()} + ${n()}`,
      () => `${v()} * ${v()} - ${n()}`,
      () => `${v()} / ${v()}`,
      () => `${v()} % (${v()} | 1)`,
      () => `Math.Abs(${v()})`,
      () => `Probe.SInts[${v()} & 3]`,
      () => `Probe.SList.Count + ${v()}`,
      () => `(${v()} > ${n()} ? ${v()} : ${n()})`,
    ])();
  const cond = (): string =>
    pick([
      () => `${v()} < ${v()}`,
      () => `${v()} != ${n()}`,
      () => `(${v()} & 1) == 0`,
      () => `${v()} > ${n()} && ${v()} < 50`,
      () => `${v()} == ${v()}`,
      () => 'Probe.SBool',
    ])();
  let loops = 0;
  const statement = (depth: number, inLoop: boolean): string => {
    const leaf = [
      () => `${v()} = ${expr()};`,
      () => `${v()} += ${expr()};`,
      () => `${v()}++;`,
      () => `${v()}--;`,
    ];
    const jumps = inLoop ? [() => `if (${cond()}) break;`, () => `if (${cond()}) continue;`] : [];
    if (depth >= 3) return pick([...leaf, ...jumps])();
    const block = (loop: boolean): string => {
      const k = 1 + Math.floor(r() * 3);
      return `{ ${Array.from({ length: k }, () => statement(depth + 1, loop)).join(' ')} }`;
    };
    return pick([
      ...leaf,
      ...leaf,
      ...jumps,
      () => `if (${cond()}) ${block(inLoop)} else ${block(inLoop)}`,
      () => `if (${cond()}) ${statement(depth + 1, inLoop)}`,
      () => `while (${cond()}) ${block(true)}`,
      () => {
        const i = `i${loops++}`;
        return `for (int ${i} = 0; ${i} < ${n()} + 3; ${i}++) ${block(true)}`;
      },
      () => `do ${block(true)} while (${cond()});`,
      () =>
        `try ${block(inLoop)} catch (DivideByZeroException) { ${v()} = -1; } finally { ${v()}++; }`,
      () => `try ${block(inLoop)} catch (Exception e) { ${v()} = e.Message.Length; }`,
      () =>
        `switch (${v()} % 3) { case 0: ${statement(depth + 1, inLoop)} break; case 1: ${v()} = ${n()}; break; default: break; }`,
      () => `if (${cond()}) throw new InvalidOperationException("fuzz");`,
    ])();
  };
  const out: string[] = [];
  for (let p = 0; p < count; p++) {
    loops = 0;
    const k = 2 + Math.floor(r() * 5);
    const body = Array.from({ length: k }, () => statement(0, false)).join(' ');
    const end = r() < 0.2 ? `if (${cond()}) return ${v()}; a + b + c` : 'a + b + c';
    out.push(`int a = ${n()}, b = ${n()}, c = ${n()}; ${body} ${end}`);
  }
  return out;
}

let fixture: FixtureProcess;
let session: GameSession;
/** The programs that finished (a value or an exception), with what they gave. */
const finished: { source: string; outcome: Outcome }[] = [];

beforeAll(async () => {
  fixture = await startFixture({ entities: 50 });
  session = new GameSession({ invokeTimeoutMs: 10_000 });
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
}, 120_000);

afterAll(async () => {
  await session?.shutdown();
  await fixture?.stop();
});

async function evaluate(source: string, budget?: typeof BUDGET) {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung for ${HANG_MS} ms: ${source}`)), HANG_MS);
  });
  try {
    return await Promise.race([
      evaluateInSession(session, 'fuzz', source, {
        usings: USINGS,
        anyNamespace: false,
        ...(budget ? { budget } : {}),
      }),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('random statement programs', () => {
  it('always come back: a value, the program’s exception, or a refusal; never an internal error', async () => {
    const tally = new Map<string, number>();
    const bad: string[] = [];
    for (const source of programs(SEED, PROGRAMS)) {
      let kind: string;
      try {
        const r = await evaluate(source, BUDGET);
        kind = r.value.kind === 'exception' ? `exception ${r.value.type}` : r.value.kind;
        if (r.value.kind === 'value')
          finished.push({
            source,
            outcome: { kind: 'value', type: r.value.type, text: r.value.text },
          });
        if (r.value.kind === 'exception')
          finished.push({
            source,
            outcome: { kind: 'exception', type: r.value.type, message: r.value.message },
          });
      } catch (e) {
        if (!(e instanceof UnityError)) throw e; // a hang, or a crash of ours
        kind = e.code;
        if (e.code === 'EVAL_BUDGET')
          kind += ` ${String((e.details?.budget as { bound?: string } | undefined)?.bound)}`;
        // a refusal is fine only as C# would refuse (a compile error); anything else is a bug
        if (e.code !== 'EVAL_BUDGET' && e.code !== 'EVAL_COMPILE')
          bad.push(`${e.code}: ${e.message}\n    ${source}`);
      }
      tally.set(kind, (tally.get(kind) ?? 0) + 1);
    }
    console.log(
      `fuzz (seed ${SEED}, ${PROGRAMS} programs): ` +
        [...tally].map(([k, c]) => `${k} ${c}`).join(', '),
    );
    expect(bad, bad.join('\n')).toEqual([]);
    // the generator reaches every outcome: values, thrown exceptions, and the budget's stop
    expect(tally.get('value') ?? 0).toBeGreaterThan(20);
    expect([...tally.keys()].some((k) => k.startsWith('exception '))).toBe(true);
    expect([...tally.keys()].some((k) => k.startsWith('EVAL_BUDGET'))).toBe(true);
  }, 900_000);

  it('leave the session working and the game running', async () => {
    expect(fixture.alive()).toBe(true);
    const two = await evaluate('1 + 1');
    expect(two.value).toMatchObject({ kind: 'value', text: '2' });
    const before = await evaluate('UnityEngine.Time.frameCount');
    await new Promise((r) => setTimeout(r, 300));
    const after = await evaluate('UnityEngine.Time.frameCount');
    if (before.value.kind !== 'value' || after.value.kind !== 'value')
      throw new Error('Time.frameCount gave no value');
    expect(Number(after.value.text)).toBeGreaterThan(Number(before.value.text));
  }, 120_000);

  it('agree with C# wherever they finish', async () => {
    expect(finished.length).toBeGreaterThan(50);
    const cases: CorpusCase[] = finished.map((f, i) => ({ id: `F${i + 1}`, program: f.source }));
    const games = new Games();
    try {
      const oracle = await oracleOutcomes(await games.attach(50), cases, PROGRAM_DIALECT);
      const differences = cases.flatMap((c, i) => {
        const e = oracle.get(c.id)!;
        const a = finished[i]!.outcome;
        return same(e, a)
          ? []
          : [`${c.program}\n    C#:   ${JSON.stringify(e)}\n    eval: ${JSON.stringify(a)}`];
      });
      expect(differences, differences.join('\n')).toEqual([]);
    } finally {
      await games.stop();
    }
  }, 300_000);
});
