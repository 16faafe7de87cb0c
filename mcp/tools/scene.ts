// The GameObject and scene tools: the loaded scenes, the hierarchy as indented lines (paged,
// depth-bounded, filtered) and finding objects, all over one bulk snapshot of the scenes (a
// fixed number of invokes whatever the object count: unity/scene/scene-snapshot.ts).

import { z } from 'zod';

import { MAX_QUERY_OBJECTS, MAX_WHERE_OBJECTS } from '../../unity/scene/scene-query.js';
import {
  listScenes,
  querySceneObjects,
  sceneFind as findObjects,
  sceneHierarchy as readHierarchy,
} from '../../unity/scene/scene-service.js';
import { DEFAULT_DEPTH, DEFAULT_NODES, pathOf } from '../../unity/scene/scene-tree.js';
import { Errors } from '../../unity/errors.js';
import { costSchema } from '../schemas.js';
import { json } from './ecs-format.js';
import { objectTools } from './scene-object-tools.js';
import { READS, defineTool } from '../tool.js';
import {
  filterArgs,
  MAX_NODES,
  nodeOut,
  nodeSchema,
  notesSchema,
  notesText,
  objectArg,
  objectLine,
  sceneArg,
  sceneText,
} from './scene-format.js';

export const sceneList = defineTool({
  name: 'scene_list',
  title: 'List loaded scenes',
  description:
    'The loaded scenes (SceneManager): name, path, build index, how many root GameObjects, and ' +
    'which one is active. DontDestroyOnLoad objects are listed by scene_hierarchy under their ' +
    'own scene.',
  input: z.object({}),
  output: z.object({
    scenes: z.array(
      z.object({
        name: z.string(),
        index: z.number().int().describe('SceneManager.GetSceneAt index'),
        path: z.string().optional(),
        build_index: z.number().int().optional(),
        root_count: z.number().int(),
        active: z.boolean(),
      }),
    ),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (_args, { session, caller }) => {
    const r = await listScenes(session, caller);
    const scenes = r.value.map((s) => ({
      name: s.name,
      index: s.index,
      path: s.path,
      build_index: s.buildIndex,
      root_count: s.rootCount,
      active: s.active === true,
    }));
    return {
      text:
        scenes
          .map(
            (s) =>
              `${s.active ? '* ' : '  '}${s.name} (${s.path}, build index ${s.build_index}): ${s.root_count} root objects`,
          )
          .join('\n') || 'no scenes loaded',
      structured: { scenes },
      cost: r.cost,
    };
  },
});

export const sceneHierarchy = defineTool({
  name: 'scene_hierarchy',
  title: 'Show the GameObject hierarchy',
  description:
    'The GameObjects of the loaded scenes as an indented tree, one line each: ' +
    '`name [instance id] (inactive) : Component, Component…` (the Transform is not listed). ' +
    `Bounded: ${DEFAULT_NODES} lines and ${DEFAULT_DEPTH} levels below the start by default; ` +
    'the reply says how many lines there are and the `offset` of the next page. `root` starts ' +
    'at one object (path or instance id). Filters (name glob, component, tag, layer, active) ' +
    'list the matching objects with their ancestors, at any depth unless `depth` is given. The ' +
    'whole scene is read in bulk: a fixed number of invokes, not one per object.',
  input: z.object({
    scene: sceneArg,
    root: objectArg.optional(),
    depth: z
      .number()
      .int()
      .min(0)
      .max(64)
      .optional()
      .describe(`levels below the start (default ${DEFAULT_DEPTH}; 0: the start only)`),
    ...filterArgs,
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_NODES)
      .optional()
      .describe(`lines returned (default ${DEFAULT_NODES})`),
    offset: z.number().int().min(0).optional().describe('lines to skip (the `next` of a page)'),
  }),
  output: z.object({
    total: z.number().int().describe('lines the whole listing has'),
    offset: z.number().int(),
    next: z.number().int().optional().describe('offset of the next page, if there is more'),
    matches: z.number().int().optional().describe('with a filter: objects matching'),
    objects: z.number().int().describe('GameObjects in the loaded scenes'),
    notes: notesSchema,
    nodes: z.array(
      nodeSchema.extend({
        level: z.number().int().describe('depth below the start'),
        hidden_children: z.number().int().describe('children not listed because of depth'),
        match: z.boolean().optional().describe('with a filter: false for a context ancestor'),
      }),
    ),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await readHierarchy(session, caller, args);
    const v = r.value;
    const filtered = v.matches !== undefined;
    const lines: string[] = [];
    let scene: string | undefined;
    for (const l of v.lines) {
      if (l.node.scene !== scene && args.root === undefined) {
        scene = l.node.scene;
        lines.push(`Scene ${scene}:`);
      }
      const more = l.hiddenChildren ? ` (+${l.hiddenChildren} children)` : '';
      const ctx = filtered && !l.match ? ' ·' : '';
      lines.push(
        `${'  '.repeat(l.level + (args.root === undefined ? 1 : 0))}${objectLine(l.node)}${more}${ctx}`,
      );
    }
    const end = v.offset + v.lines.length;
    const head =
      `${v.total} lines (${v.tree.nodes.length} GameObjects in the loaded scenes` +
      `${filtered ? `, ${v.matches} matching; "·" marks ancestors shown for context` : ''}); ` +
      (v.lines.length ? `showing ${v.offset + 1}-${end}` : 'none shown') +
      (v.next !== undefined ? `; more: offset ${v.next}` : '');
    return {
      text: sceneText([head, ...notesText(v.tree.notes), ...lines].join('\n')),
      structured: {
        total: v.total,
        offset: v.offset,
        next: v.next,
        matches: v.matches,
        objects: v.tree.nodes.length,
        notes: v.tree.notes,
        nodes: v.lines.map((l) => ({
          ...nodeOut(v.tree, l.node),
          level: l.level,
          hidden_children: l.hiddenChildren,
          ...(filtered ? { match: l.match } : {}),
        })),
      },
      cost: r.cost,
    };
  },
});

export const sceneFind = defineTool({
  name: 'scene_find',
  title: 'Find GameObjects',
  description:
    'GameObjects by `name` (a glob), `path` (from a scene root: "Canvas/Panel/Button"; names one ' +
    'object), `component` type or `tag` (criteria combine), inactive ones included, in ' +
    'hierarchy order, with their paths and instance ids. A name that matches nothing suggests ' +
    'close names.',
  input: z.object({
    name: filterArgs.name,
    path: z.string().min(1).optional().describe('a path from a scene root'),
    component: filterArgs.component,
    tag: filterArgs.tag,
    scene: sceneArg,
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_NODES)
      .optional()
      .describe('objects returned (default 50)'),
    offset: z.number().int().min(0).optional(),
  }),
  output: z.object({
    total: z.number().int(),
    offset: z.number().int(),
    objects: z.array(nodeSchema),
    notes: notesSchema,
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    if (
      args.name === undefined &&
      args.path === undefined &&
      args.component === undefined &&
      args.tag === undefined
    )
      throw Errors.invalidArgument('scene_find needs name, path, component or tag');
    const r = await findObjects(session, caller, args);
    const v = r.value;
    const rows = v.found.map(
      (n) =>
        `${pathOf(v.tree, n)} [${n.id}]${objectLine(n).slice(n.name.length + String(n.id).length + 3)}  (${n.scene})`,
    );
    const more =
      v.offset + v.found.length < v.total ? `; more: offset ${v.offset + v.found.length}` : '';
    return {
      text: sceneText([`${v.total} found${more}`, ...notesText(v.tree.notes), ...rows].join('\n')),
      structured: {
        total: v.total,
        offset: v.offset,
        objects: v.found.map((n) => nodeOut(v.tree, n)),
        notes: v.tree.notes,
      },
      cost: r.cost,
    };
  },
});

export const sceneQuery = defineTool({
  name: 'scene_query',
  title: 'Query components across the scenes',
  description:
    'Every loaded object carrying a component (inactive ones too), with the values of the ' +
    'members in `read` (fields and properties, dotted paths: "health", "transform.position", ' +
    '"bounty.count"), read in bulk, never an invoke per object: a property step is one invoke ' +
    'for all objects, a number, bool or enum field at the end of a path two, other fields wire ' +
    "reads. Rows carry the GameObject's instance id and name. Values are JSON (structs as " +
    'objects, enums by name, references as {$object: id}). `where` keeps the objects a C# ' +
    'bool expression holds for, the component as `this` ("health < 50 && gameObject.activeSelf"): ' +
    'checked before anything runs (a broken one is PARSE_ERROR or EVAL_COMPILE), then evaluated ' +
    `once per object in the same window (a field is a wire read, a property one invoke per object), ` +
    `so it is refused (TOO_MANY_OBJECTS) over more than ${MAX_WHERE_OBJECTS} objects.`,
  input: z.object({
    component: z.string().min(1).describe('component type, simple or full name ("Enemy")'),
    read: z
      .array(
        z
          .string()
          .min(1)
          .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/),
      )
      .min(1)
      .max(8)
      .describe('member paths to read on each component'),
    where: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe('C# bool expression over the component as `this`; only objects it holds for'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_QUERY_OBJECTS)
      .optional()
      .describe('rows returned (default 100)'),
    offset: z.number().int().min(0).optional(),
  }),
  output: z.object({
    component: z.string(),
    total: z
      .number()
      .int()
      .describe('objects carrying the component (that `where` holds for, when given)'),
    scanned: z
      .number()
      .int()
      .optional()
      .describe('with `where`: objects carrying the component, each evaluated'),
    offset: z.number().int(),
    next: z.number().int().optional(),
    rows: z.array(
      z.object({ id: z.number().int(), name: z.string(), values: z.record(z.string(), json) }),
    ),
    notes: notesSchema,
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await querySceneObjects(session, caller, args);
    const v = r.value;
    const end = v.offset + v.rows.length;
    const next = end < v.total ? end : undefined;
    const head =
      `${v.total} ${v.component} components` +
      (v.scanned !== undefined ? ` matching where (of ${v.scanned})` : '') +
      '; ' +
      (v.rows.length ? `showing ${v.offset + 1}-${end}` : 'none shown') +
      (next !== undefined ? `; more: offset ${next}` : '');
    const rows = v.rows.map((row) => `${row.name} [${row.id}] ${JSON.stringify(row.values)}`);
    return {
      text: sceneText([head, ...notesText(v.notes), ...rows].join('\n')),
      structured: { ...v, next },
      cost: r.cost,
    };
  },
});

export const sceneTools = [sceneList, sceneHierarchy, sceneFind, sceneQuery, ...objectTools];
