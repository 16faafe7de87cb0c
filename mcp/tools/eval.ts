// `eval`: a C# program run in the game by our evaluator (fields are wire reads, properties and
// methods main-thread invokes); see docs/eval-contract.md for what it accepts.

import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import { evaluateInSession } from '../../unity/eval-bridge/evaluate-in-game.js';
import { costSchema } from '../schemas.js';
import { CHANGES_GAME, clip, costOut, defineTool } from '../tool.js';

/** An exception's stack in a failure result: enough to find the frame, never a flood. */
const STACK_CHARS = 2000;

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
  output: z.object({
    kind: z.enum(['value', 'void']),
    type: z.string().optional().describe('static type of the value, as C# writes it'),
    value: z.string().optional().describe('the value as text (clipped when large)'),
    cost: costSchema,
  }),
  annotations: CHANGES_GAME,
  run: async (args, { app, caller }) => {
    const r = await evaluateInSession(app.session, caller, args.code);
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
    if (v.kind === 'void') {
      return {
        text: 'done (no value)',
        structured: { kind: 'void' as const, cost: costOut(r.cost) },
        cost: r.cost,
      };
    }
    return {
      text: `${v.text}  (${v.type})`,
      structured: { kind: 'value' as const, type: v.type, value: v.text, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const evalTools = [evalTool];
