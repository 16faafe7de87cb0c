// `undo`: the writes made through our tools in this session, newest first or by journal id,
// each checked against the game before any is restored.

import { z } from 'zod';

import { undo } from '../../unity/ecs/ecs-undo.js';
import { costSchema } from '../schemas.js';
import { CONTROLS, clip, defineTool } from '../tool.js';
import { json, TEXT_CHARS } from './ecs-format.js';

export const undoTool = defineTool({
  name: 'undo',
  title: 'Undo writes',
  description:
    'Undo your writes made through our tools on this game (component sets, buffer edits, ' +
    'created entities, and eval assignments to fields, statics, array elements, properties and ' +
    "indexers): the newest `steps` (default 1) or the entry `id` (from a write's journal_id). " +
    'Refused when the game no longer holds what we wrote (someone changed it since), unless ' +
    "force: true (which also undoes another caller's entry by id). Entries are checked before " +
    'any is restored. A property is read and restored ' +
    'through its getter and setter (invokes on the main thread).',
  input: z.object({
    steps: z.number().int().min(1).max(100).optional(),
    id: z.number().int().min(1).optional(),
    force: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  }),
  output: z.object({
    entries: z.array(
      z.object({
        id: z.number().int(),
        label: z.string(),
        undone: z.boolean(),
        current: json,
        restored: json.optional(),
      }),
    ),
    cost: costSchema,
  }),
  annotations: CONTROLS, // undo restores it
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, journal, caller }) => {
    const r = await undo(session, journal, caller, {
      steps: args.steps,
      id: args.id,
      force: args.force,
      dryRun: args.dry_run,
    });
    return {
      text: clip(
        r.value.map((e) => `${e.undone ? 'undone' : 'would undo'} #${e.id} ${e.label}`).join('\n'),
        TEXT_CHARS,
      ),
      structured: { entries: r.value },
      cost: r.cost,
    };
  },
});
