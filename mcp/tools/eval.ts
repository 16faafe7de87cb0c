// `eval`: a C# program run in the game by our evaluator (fields are wire reads, properties and
// methods main-thread invokes); see docs/eval-contract.md for what it accepts.

import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import { DEFAULT_BUDGET, MAX_BUDGET } from '../../eval/index.js';
import type { EvaluateResult } from '../../eval/index.js';
import {
  BudgetStop,
  evaluateInSession,
  type EvalWrite,
} from '../../unity/eval-bridge/evaluate-in-session.js';
import type { OperationResult } from '../../unity/session/session.js';
import { costSchema } from '../schemas.js';
import { costFields } from '../cost.js';
import { CHANGES_GAME, clip, defineTool, type ToolOutcome } from '../tool.js';

/** An exception's stack in a failure result: enough to find the frame, never a flood. */
const STACK_CHARS = 2000;
/** The journal line of a result. */
const TEXT_CHARS = 2000;

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
          cost: costFields(r.cost),
        },
      },
    );
  }
  if (v.kind === 'void')
    return {
      text: 'done (no value)',
      structured: { kind: 'void' },
      cost: r.cost,
    };
  return {
    text: `${v.text}  (${v.type})`,
    structured: { kind: 'value', type: v.type, value: v.text },
    cost: r.cost,
  };
}

/** Writes listed in an eval result (each is in the journal whatever the count). */
const WRITES_SHOWN = 20;

export const evalOutputSchema = evaluationSchema.extend({
  writes: z
    .array(
      z.object({
        where: z.string().describe('what was assigned: a field, static, element or property'),
        journal_id: z.number().int().optional().describe('its undo journal entry: undo {id}'),
        undoable: z.boolean(),
        why_not: z.string().optional().describe('why it cannot be undone (it is not journaled)'),
      }),
    )
    .optional()
    .describe(`the game writes the program made (the first ${WRITES_SHOWN}), journaled for undo`),
  writes_total: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('how many writes, when more than are listed'),
  cost: costSchema
    .extend({
      journal_invokes: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
          'of the invokes, getter calls that read assigned properties before and after for ' +
            'the undo journal (2 per journaled property assignment)',
        ),
    })
    .describe(
      'what the call cost in the game; a journaled property assignment costs two getter invokes',
    ),
});

/** `eval`'s outcome: the evaluation, and what it wrote to the game (journaled or not, and why). */
/** The writes of a result, as listed (journal ids, or why not undoable). */
function listedWrites(all: readonly EvalWrite[]) {
  return all.slice(0, WRITES_SHOWN).map((w) => ({
    where: w.where,
    ...(w.journalId !== undefined ? { journal_id: w.journalId } : {}),
    undoable: w.journalId !== undefined,
    ...(w.notUndoable !== undefined ? { why_not: w.notUndoable } : {}),
  }));
}

export function evalOutcome(
  r: OperationResult<EvaluateResult> & { writes: EvalWrite[] },
): ToolOutcome<z.input<typeof evalOutputSchema>> {
  const writes = listedWrites(r.writes);
  const journalInvokes = r.writes.reduce((n, w) => n + w.invokes, 0);
  const extra =
    r.writes.length === 0
      ? {}
      : { writes, ...(r.writes.length > WRITES_SHOWN ? { writes_total: r.writes.length } : {}) };
  let outcome: ToolOutcome<z.input<typeof evaluationSchema>>;
  try {
    outcome = evaluationOutcome(r);
  } catch (e) {
    // the program threw after writing: its writes are journaled all the same
    if (!(e instanceof UnityError) || r.writes.length === 0) throw e;
    throw new UnityError(e.code, `${e.message}\n${writesText(r.writes)}`, {
      details: { ...(e.details as Record<string, unknown>), writes },
      ...(e.suggestions ? { suggestions: e.suggestions } : {}),
    });
  }
  const cost = journalInvokes > 0 ? { cost: { journal_invokes: journalInvokes } } : {};
  const text = [outcome.text, writesText(r.writes)].filter((t) => t).join('\n');
  return { ...outcome, text, structured: { ...outcome.structured, ...extra, ...cost } };
}

/** The writes for a reader: journal ids to undo, and what cannot be undone and why. */
function writesText(writes: readonly EvalWrite[]): string {
  const journaled = writes.filter((w) => w.journalId !== undefined);
  const lost = writes.filter((w) => w.journalId === undefined);
  const lines: string[] = [];
  if (journaled.length > 0)
    lines.push(
      clip(
        `journaled for undo: ${journaled.map((w) => `#${w.journalId} ${w.where}`).join(', ')}`,
        TEXT_CHARS,
      ),
    );
  for (const w of lost.slice(0, WRITES_SHOWN))
    lines.push(`NOT undoable: ${w.where}: ${w.notUndoable ?? 'not journaled'}`);
  const invokes = writes.reduce((n, w) => n + w.invokes, 0);
  if (invokes > 0)
    lines.push(`(${invokes} of the invokes read assigned properties for the undo journal)`);
  return lines.join('\n');
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
    'Unity.Mathematics, Unity.Collections, Unity.Transforms, System.Linq). Non-public members are reachable. ' +
    'Statements as in C# (blocks, if, for, foreach, while, do, switch, try/catch/finally, throw, ' +
    '`return e;` gives the value), within a budget (iterations, invokes, freeze ms; past one: ' +
    'EVAL_BUDGET at a statement boundary). Lambdas, local functions, anonymous objects, LINQ ' +
    '(`xs.Where(e => e.hp < 10).Select(e => e.name).ToList()`) and query syntax run here, not in ' +
    'the game: a lambda passed to a game method (List.Find, Sort) is refused; use LINQ instead. ' +
    'Assignments change the game and are journaled: `undo` restores ' +
    'them (the result lists each with its journal id, or why it cannot be undone: a property ' +
    'without a getter). A property assignment costs two extra getter invokes (the value before ' +
    'and after).',
  input: z.object({
    code: z.string().min(1).max(20_000).describe('the C# program'),
    budget: z
      .object({
        iterations: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            `loop iterations and lambda calls (default ${DEFAULT_BUDGET.iterations}, at most ${MAX_BUDGET.iterations})`,
          ),
        invokes: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            `game method, getter and setter calls (default ${DEFAULT_BUDGET.invokes}, at most ${MAX_BUDGET.invokes})`,
          ),
        freeze_ms: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            `ms the game is held (default ${DEFAULT_BUDGET.freezeMs}, at most ${MAX_BUDGET.freezeMs})`,
          ),
      })
      .optional()
      .describe(
        'bounds of the program: past one it stops at a statement boundary with EVAL_BUDGET, ' +
          'its writes so far journaled',
      ),
  }),
  output: evalOutputSchema,
  annotations: CHANGES_GAME,
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, journal, caller }) => {
    const b = args.budget;
    const options = b
      ? {
          budget: {
            ...(b.iterations !== undefined ? { iterations: b.iterations } : {}),
            ...(b.invokes !== undefined ? { invokes: b.invokes } : {}),
            ...(b.freeze_ms !== undefined ? { freezeMs: b.freeze_ms } : {}),
          },
        }
      : {};
    try {
      return evalOutcome(await evaluateInSession(session, caller, args.code, options, journal));
    } catch (e) {
      if (!(e instanceof BudgetStop) || e.writes.length === 0) throw e;
      throw new UnityError(e.code, `${e.message}\n${writesText(e.writes)}`, {
        details: { ...e.details, writes: listedWrites(e.writes) },
      });
    }
  },
});

export const evalTools = [evalTool];
