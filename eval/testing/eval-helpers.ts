// Evaluating a program over a fake game and taking the one outcome a test expects: a value, a
// thrown exception, or a refusal (EvalError). Any other outcome fails with what happened.

import { EvalError, evaluate, type EvaluateOptions, type EvaluateResult } from '../evaluate.js';
import { NULL, type EvalValue } from '../values.js';
import { jsonBigInt } from './fake-game.js';
import type { FakeRuntime } from './fake-runtime.js';

/** Tests name their types in full unless they test `using`. */
const DEFAULTS: EvaluateOptions = { usings: ['System'], anyNamespace: false };

export interface ValueOutcome {
  /** The static type as C# writes it. */
  readonly type: string;
  /** The value as the evaluator formats it for a reader. */
  readonly text: string;
  readonly value: EvalValue;
}

export async function valueOf(
  fake: FakeRuntime,
  source: string,
  options: EvaluateOptions = DEFAULTS,
): Promise<ValueOutcome> {
  const r = await evaluate(source, fake, { ...DEFAULTS, ...options });
  if (r.kind !== 'value') throw new Error(`expected a value from ${source}, got ${describe(r)}`);
  return { type: r.type, text: r.text, value: r.value };
}

/** Runs a program that must complete (with a value or void), for its effects on the game. */
export async function runs(
  fake: FakeRuntime,
  source: string,
  options: EvaluateOptions = DEFAULTS,
): Promise<void> {
  const r = await evaluate(source, fake, { ...DEFAULTS, ...options });
  if (r.kind === 'exception') throw new Error(`expected ${source} to run, got ${describe(r)}`);
}

export async function exceptionOf(
  fake: FakeRuntime,
  source: string,
  options: EvaluateOptions = DEFAULTS,
): Promise<{ type: string; message: string }> {
  const r = await evaluate(source, fake, { ...DEFAULTS, ...options });
  if (r.kind !== 'exception')
    throw new Error(`expected an exception from ${source}, got ${describe(r)}`);
  return { type: r.type, message: r.message };
}

export async function refusal(
  fake: FakeRuntime,
  source: string,
  options: EvaluateOptions = DEFAULTS,
): Promise<EvalError> {
  try {
    const r = await evaluate(source, fake, { ...DEFAULTS, ...options });
    throw new Error(`expected ${source} to be refused, got ${describe(r)}`);
  } catch (e) {
    if (e instanceof EvalError) return e;
    throw e;
  }
}

function describe(r: unknown): string {
  return JSON.stringify(r, jsonBigInt);
}

/** Builtins (names for game objects, as `world` is) typed by their values' runtime types. */
export function builtins(
  fake: FakeRuntime,
  values: Readonly<Record<string, EvalValue>>,
): NonNullable<EvaluateOptions['builtins']> {
  return new Map(
    Object.entries(values).map(([name, v]) => [
      name,
      { type: fake.game.typeOfValue(v), value: () => Promise.resolve(v) },
    ]),
  );
}

/**
 * Game.Log: a static method Write (one parameter, `parameter`) that counts its calls in the
 * static field Count: a game call whose effect a test can see.
 */
export function declareCallLog(fake: FakeRuntime, parameter: string): void {
  fake.class('Game.Log', {
    fields: { Count: { type: 'int', static: true } },
    methods: {
      Write: {
        static: true,
        params: [parameter],
        impl: (c) => {
          const n = c.fake.static('Game.Log', 'Count') as { value: number };
          c.fake.setStatic('Game.Log', 'Count', {
            kind: 'number',
            type: 'int',
            value: n.value + 1,
          });
          return NULL;
        },
      },
    },
  });
}

/**
 * What a run came to as plain data, for comparing two runs of a program: its value (static
 * type and text), the exception it threw (type, message, hint), or its refusal (code, message).
 */
export async function outcomeOf(run: () => Promise<EvaluateResult>): Promise<unknown> {
  try {
    const r = await run();
    if (r.kind === 'value') return { kind: r.kind, type: r.type, text: r.text };
    if (r.kind === 'exception')
      return { kind: r.kind, type: r.type, message: r.message, hint: r.hint };
    return r;
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    return { refused: e.code, message: e.message };
  }
}
