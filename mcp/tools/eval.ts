// `eval`: a C# program run in the game by our evaluator (fields are wire reads, properties and
// methods main-thread invokes); see docs/eval-contract.md for what it accepts.

import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import type { EvaluateResult } from '../../eval/index.js';
import { evaluateInSession } from '../../unity/eval-bridge/evaluate-in-game.js';
import type { OperationResult } from '../../unity/session/session.js';
import { costSchema } from '../schemas.js';
import { CHANGES_GAME, clip, costOut, defineTool, type ToolOutcome } from '../tool.js';

/** An exception's stack in a failure result: enough to find the frame, never a flood. */
const STACK_CHARS = 2000;

/** What an evaluation returns, for `eval` and `debug_evaluate`. */
export const evaluationSchema = z.object({
  kind: z.enum(['value', 'void']),
  type: z.string().optional().describe('static type of the value, as C# writes it'),
  value: z.string().optional().describe('the value as text (clipped when large)'),
  cost: costSchema,
});

/** An evaluation as a tool result: a value or void; the game's exception as GAME_EXCEPTION. */
export function evaluationOutcome(
  r: OperationResult<EvaluateResult>,
): ToolOutcome<z.input<typeof evaluationSchema>> {
  const v = r.value;
  if (v.kind === 'exception') {
    throw new UnityError(
      'GAME_EXCEPTION',
      `${v.type}: ${v.message}${v.hint ? ` (${v.hint})` : ''}`,
      {
        details: {
          type: v.type,
          message: v.message,
          stackTrace: clip(v.stackTrace, STACK_CHARS),
          ...(v.hint ? { hint: v.hint } : {}),
          cost: costOut(r.cost),
        },
      },
    );
  }
  if (v.kind === 'void')
    return {
      text: 'done (no value)',
      structured: { kind: 'void', cost: costOut(r.cost) },
      cost: r.cost,
    };
  return {
    text: `${v.text}  (${v.type})`,
    structured: { kind: 'value', type: v.type, value: v.text, cost: costOut(r.cost) },
    cost: r.cost,
  };
}

export const evalTool = defineTool({
  name: 'eval',
  title: 'Evaluate C#',
  description:
    'Run a short C# program in the game, on its main thread, and return the value of the last ' +
    'expression, formatted (bounded). Statements are separated by `;`; locals (`var x = ...;`) ' +
    "live for this call; `_` is the previous call's value. Builtins for ECS games: `world`, " +
    '`em` (its EntityManager), `entity(index)` / `entity(index, version)`. Usings as a Unity ' +
    'script has them (System, System.Collections.Generic, UnityEngine, Unity.Entities, ' +
    'Unity.Mathematics, Unity.Collections, Unity.Transforms). Non-public members are reachable. ' +
    'No lambdas, LINQ query syntax or loops: call methods instead (extension methods as statics: ' +
    '`Enumerable.Sum(xs)`). Assignments change the game.',
  input: z.object({
    code: z.string().min(1).max(20_000).describe('the C# program'),
  }),
  output: evaluationSchema,
  annotations: CHANGES_GAME,
  run: async (args, { app, caller }) =>
    evaluationOutcome(await evaluateInSession(app.session, caller, args.code)),
});

export const evalTools = [evalTool];
