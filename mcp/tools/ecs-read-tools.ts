// ECS reads: worlds, queries with bulk component reads (a few invokes for the whole query),
// an entity's components, one component, a dynamic buffer; presence is checked before a read.

import { z } from 'zod';

import {
  entityComponents,
  getBuffer,
  getComponent,
  queryEntities,
  worlds,
} from '../../unity/ecs/ecs-service.js';
import { MAX_QUERY_LIMIT } from '../../unity/ecs/ecs-query.js';
import { costSchema, fallbackSchema } from '../schemas.js';
import { READS, clip, defineTool } from '../tool.js';
import {
  componentName,
  enabledText,
  ent,
  entityArg,
  entityOut,
  json,
  parseEntity,
  show,
  TEXT_CHARS,
  world,
} from './ecs-format.js';

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
  tier: 'smooth',
  run: async (_args, { session, caller }) => {
    const r = await worlds(session, caller);
    return {
      text:
        r.value
          .map((w) => `${w.is_default ? '* ' : '  '}${w.name}: ${w.entities} entities`)
          .join('\n') || 'no worlds',
      structured: { worlds: r.value },
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
    fallback: fallbackSchema,
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await queryEntities(session, caller, args);
    const v = r.value;
    const rows = v.entities.map(
      (e) => `${ent(e)}${e.components ? ` ${JSON.stringify(e.components)}` : ''}`,
    );
    const head = `${v.total} entities in ${v.world}; showing ${v.entities.length} from ${v.offset}${v.truncated ? ' (more: raise offset)' : ''}`;
    const note = v.fallback !== undefined ? [`fallback: ${v.fallback}`] : [];
    return {
      text: [clip([head, ...rows].join('\n'), TEXT_CHARS), ...note].join('\n'),
      structured: v,
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
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await entityComponents(
      session,
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
      structured: v,
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
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await getComponent(
      session,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      args.component,
    );
    return {
      text: `${r.value.component} of ${ent(r.value.entity)}${r.value.enabled === undefined ? '' : r.value.enabled ? ' (enabled)' : ' (disabled)'} = ${show(r.value.value)}`,
      structured: r.value,
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
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await getBuffer(
      session,
      caller,
      { world: args.world, ...parseEntity(args.entity) },
      args.buffer,
    );
    return {
      text: clip(
        `${r.value.buffer} of ${ent(r.value.entity)}: ${r.value.length} elements ${JSON.stringify(r.value.elements)}`,
        TEXT_CHARS,
      ),
      structured: r.value,
      cost: r.cost,
    };
  },
});
