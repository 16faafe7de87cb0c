// Programs the tools run for themselves (advance's frame counter, the player log's path, a
// screenshot's capture or render), bound and run with eval's discipline (eval-bridge/) but not
// the agent's: they leave the agent's `_` alone, journal nothing (no write of theirs is an
// agent's write to undo), and see no builtins (`_`, `world`, `em`) to look up.

import type { EvaluateOptions, EvaluateResult } from '../eval/index.js';
import { evaluateInGame, runBound } from './eval-bridge/evaluate-in-session.js';
import type { GameSession, OperationContext, OperationResult } from './session/session.js';

export const TOOL_PROGRAM_OPTIONS: EvaluateOptions = { builtins: new Map(), functions: new Map() };

/**
 * Runs one of our programs in one window of the session; `then` reads what it returned (a
 * string's text, say) inside the same window, before the game runs again and may collect it.
 */
export function runToolProgram<R>(
  session: GameSession,
  caller: string,
  label: string,
  source: string,
  then: (result: EvaluateResult, ctx: OperationContext) => R | Promise<R>,
): Promise<OperationResult<R>> {
  return runBound(session, caller, source, TOOL_PROGRAM_OPTIONS, label, async (ctx) =>
    then(await evaluateInGame(ctx, source, TOOL_PROGRAM_OPTIONS, false), ctx),
  );
}

/** One of our programs' result, as eval gives it. */
export function evaluateToolProgram(
  session: GameSession,
  caller: string,
  label: string,
  source: string,
): Promise<OperationResult<EvaluateResult>> {
  return runToolProgram(session, caller, label, source, (r) => r);
}
