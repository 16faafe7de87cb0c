// ECS writes, each read back in the game and journaled for undo: components (one entity, or
// several with confirm: true), dynamic buffer edits, scratch entities, and destroying an entity
// (confirm: true; it cannot be undone). dry_run: true only previews.

import { z } from 'zod';

import {
  createScratchEntity,
  destroyEntities,
  editBuffer,
  MAX_SET_ENTITIES,
  setComponents,
} from '../../unity/ecs/ecs-service.js';
import { costSchema } from '../schemas.js';
import { CHANGES_GAME, CONTROLS, clip, defineTool } from '../tool.js';
import {
  componentName,
  ent,
  entityArg,
  entityOut,
  gateArgs,
  json,
  parseEntity,
  TEXT_CHARS,
  world,
} from './ecs-format.js';

export const ecsSetComponent = defineTool({
  name: 'ecs_set_component',
  title: 'Write a component',
  description:
    'Set a component on an entity: `value` is an object of the fields to change (others keep ' +
    'their values), or give `field` (a dotted path such as "Stats.Level") and the `value` for it. ' +
    'Enums by name. The value is read back in the game and returned with the value before; undo ' +
    `restores it. Several \`entities\` (up to ${MAX_SET_ENTITIES}) need confirm: true.`,
  input: z
    .object({
      entity: entityArg.optional(),
      entities: z.array(entityArg).min(1).max(MAX_SET_ENTITIES).optional(),
      component: componentName,
      field: z
        .string()
        .min(1)
        .optional()
        .describe("dotted field path; value is then that field's value"),
      value: json.describe("the new value (an object of fields, or the field's value)"),
      world,
      ...gateArgs,
    })
    .refine((a) => (a.entity === undefined) !== (a.entities === undefined), {
      message: 'give exactly one of entity or entities',
      path: ['entity'],
    }),
  output: z.object({
    world: z.string(),
    component: z.string(),
    applied: z.boolean(),
    changes: z.array(
      z.object({
        entity: entityOut,
        before: json,
        after: json,
        journal_id: z.number().int().optional(),
      }),
    ),
    cost: costSchema,
  }),
  annotations: CONTROLS, // undo restores it
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, journal, caller }) => {
    const list = args.entities ?? (args.entity !== undefined ? [args.entity] : []);
    const r = await setComponents(
      session,
      journal,
      caller,
      {
        world: args.world,
        entities: list.map(parseEntity),
        component: args.component,
        field: args.field,
        value: args.value,
      },
      { dryRun: args.dry_run, confirm: args.confirm },
    );
    const v = r.value;
    const lines = v.changes.map(
      (c) => `${ent(c.entity)}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`,
    );
    return {
      text: clip(
        [
          `${v.applied ? 'set (read back)' : 'dry run, nothing changed'}: ${v.component}`,
          ...lines,
        ].join('\n'),
        TEXT_CHARS,
      ),
      structured: v,
      cost: r.cost,
    };
  },
});

export const ecsBufferEdit = defineTool({
  name: 'ecs_buffer_edit',
  title: 'Edit a dynamic buffer',
  description:
    "Change an entity's dynamic buffer: add (append `value`), insert (`value` at `index`), set " +
    '(replace the element at `index`; `value` may name only the fields to change), remove_at ' +
    '(`index`), clear (needs confirm: true). Indices are checked first; the buffer is read back ' +
    'and returned before and after; undo restores it.',
  input: z.object({
    entity: entityArg,
    buffer: componentName,
    op: z.enum(['add', 'insert', 'set', 'remove_at', 'clear']),
    index: z.number().int().min(0).optional(),
    value: json.optional(),
    world,
    ...gateArgs,
  }),
  output: z.object({
    world: z.string(),
    entity: entityOut,
    buffer: z.string(),
    applied: z.boolean(),
    before: z.array(json),
    after: z.array(json),
    journal_id: z.number().int().optional(),
    cost: costSchema,
  }),
  annotations: CONTROLS, // undo restores it
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, journal, caller }) => {
    const r = await editBuffer(
      session,
      journal,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      { buffer: args.buffer, op: args.op, index: args.index, value: args.value },
      { dryRun: args.dry_run, confirm: args.confirm },
    );
    const v = r.value;
    return {
      text: clip(
        `${v.applied ? `${args.op} done (read back)` : 'dry run, nothing changed'}: ${v.buffer} of ${ent(v.entity)} ${v.before.length} → ${v.after.length} elements\nafter: ${JSON.stringify(v.after)}`,
        TEXT_CHARS,
      ),
      structured: v,
      cost: r.cost,
    };
  },
});

export const ecsCreateEntity = defineTool({
  name: 'ecs_create_entity',
  title: 'Create a scratch entity',
  description:
    'Create an entity with the given components (values optional: unset fields are zero); ' +
    'values are read back. undo destroys it.',
  input: z.object({
    components: z
      .array(z.object({ name: componentName, value: json.optional() }))
      .min(1)
      .max(16),
    world,
  }),
  output: z.object({
    world: z.string(),
    entity: entityOut,
    components: z.array(z.string()),
    values: z.record(z.string(), json),
    journal_id: z.number().int(),
    cost: costSchema,
  }),
  annotations: CONTROLS, // undo restores it
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, journal, caller }) => {
    const r = await createScratchEntity(session, journal, caller, args);
    const v = r.value;
    return {
      text: `created ${ent(v.entity)} in ${v.world} with ${v.components.join(', ')}`,
      structured: v,
      cost: r.cost,
    };
  },
});

export const ecsDestroyEntity = defineTool({
  name: 'ecs_destroy_entity',
  title: 'Destroy an entity',
  description:
    'Destroy an entity. Needs confirm: true; dry_run (or the refusal) shows its components and ' +
    'values first. Cannot be undone.',
  input: z.object({ entity: entityArg, world, ...gateArgs }),
  output: z.object({
    world: z.string(),
    entity: entityOut,
    applied: z.boolean(),
    preview: z.object({
      name: z.string(),
      components: z.array(
        z.object({
          name: z.string(),
          kind: z.string(),
          enabled: z.boolean().optional(),
          value: json.optional(),
        }),
      ),
    }),
    cost: costSchema,
  }),
  annotations: CHANGES_GAME,
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, caller }) => {
    const r = await destroyEntities(
      session,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      { dryRun: args.dry_run, confirm: args.confirm },
    );
    const v = r.value;
    return {
      text: `${v.applied ? 'destroyed' : 'dry run, would destroy'} ${ent(v.entity)} (${v.preview.components.map((c) => c.name).join(', ')})`,
      structured: {
        world: v.world,
        entity: v.entity,
        applied: v.applied,
        preview: {
          name: v.preview.name,
          components: v.preview.components.map((c) => ({
            name: c.name,
            kind: c.kind,
            ...(c.enabled !== undefined ? { enabled: c.enabled } : {}),
            ...(c.value !== undefined ? { value: c.value } : {}),
          })),
        },
      },
      cost: r.cost,
    };
  },
});
