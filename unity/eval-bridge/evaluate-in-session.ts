// Evaluating C# for a caller of the session: binding outside any window, then running in one
// (unity/runtime/evaluate-in-game.ts), with the program's writes journaled for undo.

import {
  bind,
  EvalError,
  type EvaluateOptions,
  type EvaluateResult,
  type GameAccess,
} from '../../eval/index.js';
import type { GameSession, OperationContext, OperationResult } from '../session/session.js';
import { connectionPart } from '../session/game-connection.js';
import { NeedsTheGame, metadataFor } from '../runtime/game-metadata.js';
import { unityBuiltins } from '../runtime/builtins.js';
import { EVAL_PROGRAMS, evaluateInGame, lastValueOf } from '../runtime/evaluate-in-game.js';
import { UnityError, messageOf } from '../errors.js';
import { journaledWrites, type EvalWrite } from '../journal/eval-writes.js';
import type { Journal } from '../journal/journal.js';

export { evaluateInGame, journaledWrites, type EvalWrite };

/** Programs that bound on one attached game (their lookups are memoized in its metadata). */
const BOUND_PROGRAMS = connectionPart('bound programs', () => ({ programs: new Set<string>() }));
const MAX_REMEMBERED_PROGRAMS = 512;

function programKey(source: string, options: EvaluateOptions): string {
  return JSON.stringify([source, options.usings ?? null, options.anyNamespace ?? null]);
}

/**
 * Evaluates a program for a caller of the session, holding the game as briefly as possible:
 * the program is bound first in an operation that does not suspend the game (type and member
 * lookups, the slow part of a first evaluation, are metadata reads), so that a program C#
 * would refuse never holds the game at all; then it runs in a suspend window with every lookup
 * memoized. A program whose binding needs the game itself (naming a closed generic type is an
 * invoke) is bound inside the window instead. The cost reported adds both operations.
 *
 * The program's assignments are recorded in `journal` for undo; without one (a tool's own
 * program), they are listed in `writes` as not undoable.
 */
export async function evaluateInSession(
  session: GameSession,
  caller: string,
  source: string,
  options: EvaluateOptions = {},
  journal?: Journal,
): Promise<OperationResult<EvaluateResult> & { writes: EvalWrite[] }> {
  const { observer, writes } = journaledWrites(journal, caller, source);
  try {
    const r = await runBound(session, caller, source, options, 'eval', (ctx) =>
      evaluateInGame(ctx, source, options, true, observer),
    );
    return { ...r, writes };
  } catch (e) {
    // a program stopped by its budget made (and journaled) its writes before: they are told
    if (e instanceof UnityError && e.code === 'EVAL_BUDGET') throw new BudgetStop(e, writes);
    throw e;
  }
}

/** EVAL_BUDGET with the writes the program made before it stopped (journaled as any). */
export class BudgetStop extends UnityError {
  constructor(
    readonly error: UnityError,
    readonly writes: EvalWrite[],
  ) {
    super(error.code, error.message, {
      ...(error.details ? { details: error.details } : {}),
      cause: error.cause,
    });
  }
}

/**
 * The binding discipline of `evaluateInSession` for a caller that runs the program itself inside
 * the window (to read what it returned before the game runs again): `source` is bound outside
 * any window unless bound before on this connection, then `inWindow` runs in one window.
 */
function causedBy(e: unknown, type: new (...args: never[]) => Error): boolean {
  let c: unknown = e;
  for (let depth = 0; depth < 8 && c instanceof Error; depth++) {
    if (c instanceof type) return true;
    c = (c as { cause?: unknown }).cause;
  }
  return false;
}

export async function runBound<R>(
  session: GameSession,
  caller: string,
  source: string,
  options: EvaluateOptions,
  label: string,
  inWindow: (ctx: OperationContext) => Promise<R>,
): Promise<OperationResult<R>> {
  const key = programKey(source, options);
  // bound before on this connection: its lookups are memoized, binding in the window is cheap
  if (session.current?.peek(BOUND_PROGRAMS)?.programs.has(key))
    return session.run(label, caller, inWindow);
  let bound: OperationResult<boolean> | undefined;
  try {
    bound = await session.run(
      `${label} (bind)`,
      caller,
      (ctx) => bindInGame(ctx, source, options),
      { window: false },
    );
  } catch (e) {
    if (e instanceof UnityError && e.cause instanceof EvalError) throw e; // the program is refused
    // bound again, in the window, where invokes are allowed; any other cause is logged, not lost
    if (!causedBy(e, NeedsTheGame))
      session.log(`${label}: binding outside the window failed, bound in it: ${messageOf(e)}`);
    bound = undefined;
  }
  const r = await session.run(label, caller, inWindow);
  if (!bound) return r;
  return {
    value: r.value,
    cost: {
      ...r.cost,
      wireCommands: r.cost.wireCommands + bound.cost.wireCommands,
      wallMs: Math.round((r.cost.wallMs + bound.cost.wallMs) * 100) / 100,
    },
  };
}

/** Binds without a window: metadata only; game access is refused if anything asks for it. */
async function bindInGame(
  ctx: OperationContext,
  source: string,
  options: EvaluateOptions,
): Promise<boolean> {
  const metadata = metadataFor(ctx);
  const refuse = (): never => {
    throw new NeedsTheGame('binding touched the game');
  };
  const game = new Proxy({} as GameAccess, { get: () => refuse });
  const runtime = { metadata, game };
  const defaults = await unityBuiltins(runtime, lastValueOf(ctx));
  await bind(source, runtime, {
    programs: ctx.connection.part(EVAL_PROGRAMS),
    ...options,
    builtins: options.builtins ?? defaults.builtins,
    functions: options.functions ?? defaults.functions,
  });
  const bound = ctx.connection.part(BOUND_PROGRAMS);
  if (bound.programs.size >= MAX_REMEMBERED_PROGRAMS) bound.programs = new Set();
  bound.programs.add(programKey(source, options));
  return true;
}
