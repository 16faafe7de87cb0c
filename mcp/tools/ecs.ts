// ECS tools: worlds, queries with bulk component reads, components and buffers read and written
// with presence checks and read-back, scratch entities, and undo of every write made here.
// Destructive changes (several entities, clearing a buffer, destroying an entity) need
// confirm: true; dry_run: true only previews.

import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import {
  createScratchEntity,
  destroyEntities,
  editBuffer,
  entityComponents,
  getBuffer,
  getComponent,
  MAX_SET_ENTITIES,
  queryEntities,
  setComponents,
  worlds,
} from '../../unity/ecs/ecs-service.js';
import { undo } from '../../unity/ecs/ecs-undo.js';
import { MAX_QUERY_LIMIT } from '../../unity/ecs/ecs-query.js';
import type { Json } from '../../unity/ecs/value-codec.js';
import { costSchema } from '../schemas.js';
import { clip, costOut, defineTool, type ToolAnnotations } from '../tool.js';

const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false, // undo restores it
  idempotentHint: false,
  openWorldHint: false,
};
const DESTROYS: ToolAnnotations = { ...WRITES, destructiveHint: true };

const TEXT_CHARS = 6000;

const json: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(json),
    z.record(z.string(), json),
  ]),
);

const world = z
  .string()
  .min(1)
  .optional()
  .describe('world name (default: the default world; see ecs_worlds)');

const entityArg = z
  .union([z.number().int().min(0), z.string().regex(/^(Entity\()?\d+(:\d+)?\)?$/)])
  .describe('an entity: its index (the live version is found), or "index:version"');

function parseEntity(e: number | string): { index: number; version?: number } {
  if (typeof e === 'number') return { index: e };
  const m = /(\d+)(?::(\d+))?/.exec(e);
  if (!m)
    throw new UnityError(
      'INVALID_ARGUMENT',
      `not an entity: ${e} (use "index" or "index:version")`,
    );
  return m[2] !== undefined
    ? { index: Number(m[1]), version: Number(m[2]) }
    : { index: Number(m[1]) };
}

const entityOut = z.object({ index: z.number().int(), version: z.number().int() });
const componentName = z
  .string()
  .min(1)
  .describe('component type: full or simple name ("Health", "Unity.Transforms.LocalTransform")');
const gateArgs = {
  dry_run: z.boolean().optional().describe('only preview what would change (with current values)'),
  confirm: z
    .boolean()
    .optional()
    .describe('apply a destructive change (the refusal shows its preview)'),
};

const show = (v: unknown): string => clip(JSON.stringify(v), TEXT_CHARS);
const enabledText = (on: boolean | undefined): string =>
  on === undefined ? '' : on ? ', enabled' : ', disabled';
const ent = (e: { index: number; version: number }): string => `Entity(${e.index}:${e.version})`;

export const ecsWorlds = defineTool({
  name: 'ecs_worlds',
  title: 'List ECS worlds',
  description:
    'The ECS worlds of the game (World.All) with their entity counts; marks the default world.',
  input: z.object({}),
  output: z.object({
    worlds: z.array(
      z.object({
        name: z.string(),
        index: z.number().int(),
        entities: z.number().int(),
        is_default: z.boolean(),
      }),
    ),
    cost: costSchema,
  }),
  annotations: READS,
  run: async (_args, { app, caller }) => {
    const r = await worlds(app.session, caller);
    return {
      text:
        r.value
          .map((w) => `${w.is_default ? '* ' : '  '}${w.name}: ${w.entities} entities`)
          .join('\n') || 'no worlds',
      structured: { worlds: r.value, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const ecsQuery = defineTool({
  name: 'ecs_query',
  title: 'Query entities',
  description:
    'Entities that have every `all` component, at least one `any`, and no `none`; with `read`, ' +
    'the values of those components for every returned entity, read in bulk (a few invokes for ' +
    'the whole query, not one per entity). Components in `read` are required too. Enableable ' +
    'components (IEnableableComponent) match as in a Unity query: `all`, `any` and `read` see ' +
    'them only where enabled, `none` also matches entities that have them disabled, and ' +
    '`disabled` selects entities that have them disabled (`read` them there too). Paged by ' +
    '`offset`/`limit`.',
  input: z.object({
    world,
    all: z.array(componentName).max(16).optional(),
    any: z.array(componentName).max(16).optional(),
    none: z.array(componentName).max(16).optional(),
    disabled: z
      .array(componentName)
      .max(16)
      .optional()
      .describe('enableable components the entities have, disabled'),
    read: z.array(componentName).max(8).optional().describe('components whose values to return'),
    limit: z
      .number()
      .int()
      .min(0)
      .max(MAX_QUERY_LIMIT)
      .optional()
      .describe('entities returned (default 100)'),
    offset: z.number().int().min(0).optional(),
  }),
  output: z.object({
    world: z.string(),
    total: z.number().int().describe('entities matching, before offset/limit'),
    offset: z.number().int(),
    truncated: z.boolean(),
    read: z.array(z.string()),
    entities: z.array(
      z.object({
        index: z.number().int(),
        version: z.number().int(),
        components: z.record(z.string(), json).optional(),
      }),
    ),
    cost: costSchema,
  }),
  annotations: READS,
  run: async (args, { app, caller }) => {
    const r = await queryEntities(app.session, caller, args);
    const v = r.value;
    const rows = v.entities.map(
      (e) => `${ent(e)}${e.components ? ` ${JSON.stringify(e.components)}` : ''}`,
    );
    const head = `${v.total} entities in ${v.world}; showing ${v.entities.length} from ${v.offset}${v.truncated ? ' (more: raise offset)' : ''}`;
    return {
      text: clip([head, ...rows].join('\n'), TEXT_CHARS),
      structured: { ...v, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const ecsListComponents = defineTool({
  name: 'ecs_list_components',
  title: "List an entity's components",
  description:
    'The component types of an entity (names from the runtime type; kind: component, tag, buffer, ' +
    'shared, managed; enableable: implements IEnableableComponent, and then `enabled`: whether ' +
    'it is enabled on this entity now; other components have no `enabled`), optionally with ' +
    'values; `follow` resolves Entity fields to the entity they point at (whether it exists, and ' +
    'its components).',
  input: z.object({
    entity: entityArg,
    world,
    values: z
      .boolean()
      .optional()
      .describe('include component values (not buffers: use ecs_get_buffer)'),
    follow: z.boolean().optional().describe('with values: follow Entity fields'),
  }),
  output: z.object({
    world: z.string(),
    entity: entityOut,
    name: z.string(),
    components: z.array(
      z.object({
        name: z.string(),
        kind: z.string(),
        enableable: z.boolean(),
        enabled: z.boolean().optional().describe('enableable components only: enabled now'),
        value: json.optional(),
        references: z
          .record(
            z.string(),
            z.object({
              index: z.number().int(),
              version: z.number().int(),
              exists: z.boolean(),
              components: z.array(z.string()).optional(),
            }),
          )
          .optional(),
      }),
    ),
    cost: costSchema,
  }),
  annotations: READS,
  run: async (args, { app, caller }) => {
    const r = await entityComponents(
      app.session,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      {
        values: args.values ?? args.follow,
        follow: args.follow,
      },
    );
    const v = r.value;
    const lines = v.components.map(
      (c) =>
        `  ${c.name} (${c.kind}${enabledText(c.enabled)})${c.value !== undefined ? ` = ${JSON.stringify(c.value)}` : ''}`,
    );
    return {
      text: clip(
        [`${ent(v.entity)}${v.name ? ` "${v.name}"` : ''} in ${v.world}:`, ...lines].join('\n'),
        TEXT_CHARS,
      ),
      structured: { ...v, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const ecsGetComponent = defineTool({
  name: 'ecs_get_component',
  title: 'Read a component',
  description:
    'One component of one entity, after checking the entity has it (an absent component is an ' +
    'error, never zeroes); for an enableable component also `enabled` (a disabled one keeps its ' +
    'value).',
  input: z.object({ entity: entityArg, component: componentName, world }),
  output: z.object({
    world: z.string(),
    entity: entityOut,
    component: z.string(),
    value: json,
    enabled: z.boolean().optional().describe('enableable components only: enabled now'),
    cost: costSchema,
  }),
  annotations: READS,
  run: async (args, { app, caller }) => {
    const r = await getComponent(
      app.session,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      args.component,
    );
    return {
      text: `${r.value.component} of ${ent(r.value.entity)}${r.value.enabled === undefined ? '' : r.value.enabled ? ' (enabled)' : ' (disabled)'} = ${show(r.value.value)}`,
      structured: { ...r.value, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

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
  annotations: WRITES,
  run: async (args, { app, journal, caller }) => {
    const list = args.entities ?? (args.entity !== undefined ? [args.entity] : []);
    const r = await setComponents(
      app.session,
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
      structured: { ...v, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const ecsGetBuffer = defineTool({
  name: 'ecs_get_buffer',
  title: 'Read a dynamic buffer',
  description:
    "An entity's dynamic buffer (IBufferElementData) elements, after checking it has the buffer.",
  input: z.object({ entity: entityArg, buffer: componentName, world }),
  output: z.object({
    world: z.string(),
    entity: entityOut,
    buffer: z.string(),
    length: z.number().int(),
    elements: z.array(json),
    cost: costSchema,
  }),
  annotations: READS,
  run: async (args, { app, caller }) => {
    const r = await getBuffer(
      app.session,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      args.buffer,
    );
    return {
      text: clip(
        `${r.value.buffer} of ${ent(r.value.entity)}: ${r.value.length} elements ${JSON.stringify(r.value.elements)}`,
        TEXT_CHARS,
      ),
      structured: { ...r.value, cost: costOut(r.cost) },
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
  annotations: WRITES,
  run: async (args, { app, journal, caller }) => {
    const r = await editBuffer(
      app.session,
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
      structured: { ...v, cost: costOut(r.cost) },
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
  annotations: WRITES,
  run: async (args, { app, journal, caller }) => {
    const r = await createScratchEntity(app.session, journal, caller, args);
    const v = r.value;
    return {
      text: `created ${ent(v.entity)} in ${v.world} with ${v.components.join(', ')}`,
      structured: { ...v, cost: costOut(r.cost) },
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
  annotations: DESTROYS,
  run: async (args, { app, caller }) => {
    const r = await destroyEntities(
      app.session,
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
        cost: costOut(r.cost),
      },
      cost: r.cost,
    };
  },
});

export const undoTool = defineTool({
  name: 'undo',
  title: 'Undo writes',
  description:
    'Undo writes made through our tools in this session (component sets, buffer edits, ' +
    'created entities, and eval assignments to fields, statics, array elements, properties and ' +
    "indexers): the newest `steps` (default 1) or the entry `id` (from a write's journal_id). " +
    'Refused when the game no longer holds what we wrote (someone changed it since), unless ' +
    'force: true. Entries are checked before any is restored. A property is read and restored ' +
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
  annotations: WRITES,
  run: async (args, { app, journal, caller }) => {
    const r = await undo(app.session, journal, caller, {
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
      structured: { entries: r.value, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const ecsTools = [
  ecsWorlds,
  ecsQuery,
  ecsListComponents,
  ecsGetComponent,
  ecsSetComponent,
  ecsGetBuffer,
  ecsBufferEdit,
  ecsCreateEntity,
  ecsDestroyEntity,
  undoTool,
];
