// One GameObject: its components' members with values (object_inspect) and a member written,
// read back and journaled for undo (object_set), over unity/scene/scene-object.ts.

import { z } from 'zod';

import {
  destroyObject,
  inspectObject,
  setActive,
  setMember,
  type ChangePreview,
} from '../../unity/scene/scene-object.js';
import { pathOf, simpleName } from '../../unity/scene/scene-tree.js';
import { costSchema } from '../schemas.js';
import { CHANGES_GAME, READS, defineTool } from '../tool.js';
import { gateArgs } from './ecs-format.js';
import { evalOutcome } from './eval.js';
import { activeText, objectArg, sceneArg, sceneText } from './scene-format.js';

const memberSchema = z.object({
  name: z.string(),
  kind: z.enum(['field', 'property']),
  type: z.string(),
  value: z.string().optional().describe('as eval prints it (clipped)'),
  error: z.string().optional().describe('why there is no value (the getter threw)'),
  serialized: z.boolean().optional().describe('fields: whether Unity serializes it'),
  hidden: z.boolean().optional().describe('listed only with hidden: true'),
});

export const objectInspect = defineTool({
  name: 'object_inspect',
  title: "Inspect a GameObject's components",
  description:
    "A GameObject's components with their serialized fields (public and not [NonSerialized], " +
    'or [SerializeField]) and public properties, values printed as eval prints them (clipped); ' +
    '`component` for one of them, `hidden: true` for private and non-serialized members too. ' +
    'Reading a property runs its getter (an invoke each).',
  input: z.object({
    object: objectArg,
    component: z.string().min(1).optional().describe('one component type (simple or full name)'),
    hidden: z.boolean().optional().describe('also private and non-serialized members'),
    scene: sceneArg,
  }),
  output: z.object({
    id: z.number().int(),
    name: z.string(),
    path: z.string(),
    scene: z.string(),
    active_self: z.boolean(),
    active_in_hierarchy: z.boolean(),
    tag: z.string().optional(),
    layer: z.number().int().optional(),
    components: z.array(
      z.object({ type: z.string(), members: z.array(memberSchema), omitted: z.number().int() }),
    ),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    const r = await inspectObject(session, caller, args);
    const { node, tree, components } = r.value;
    const path = pathOf(tree, node);
    const lines = [
      `${path} [${node.id}]${activeText(node)} in ${node.scene}, tag ${node.tag}, layer ${node.layer}`,
    ];
    for (const c of components) {
      lines.push(`${simpleName(c.type)} (${c.type})`);
      for (const m of c.members)
        lines.push(
          `  ${m.name}: ${m.value ?? `<${m.error}>`}  (${m.type}${m.kind === 'property' ? ', property' : ''}${m.hidden ? ', hidden' : ''})`,
        );
      if (c.omitted) lines.push(`  … ${c.omitted} more members`);
    }
    return {
      text: sceneText(lines.join('\n')),
      structured: {
        id: node.id,
        name: node.name,
        path,
        scene: node.scene,
        active_self: node.activeSelf,
        active_in_hierarchy: node.activeInHierarchy,
        tag: node.tag,
        layer: node.layer,
        components,
      },
      cost: r.cost,
    };
  },
});

export const objectSet = defineTool({
  name: 'object_set',
  title: "Set a component's field or property",
  description:
    'Writes one member (a field or property, or a dotted path like "bounty.count") of a ' +
    'GameObject\'s component to `value`, a C# expression ("42", "new Vector3(1, 2, 3)", ' +
    '"target.health * 2" where `target` is the component), reads it back, and journals the ' +
    'write for `undo` (which refuses when the value changed since).',
  input: z.object({
    object: objectArg,
    component: z.string().min(1).describe('the component type (simple or full name)'),
    member: z.string().min(1).describe('field or property name, or a dotted path'),
    value: z.string().min(1).describe('a C# expression'),
    scene: sceneArg,
  }),
  output: z.object({
    id: z.number().int(),
    path: z.string(),
    component: z.string(),
    member: z.string(),
    type: z.string().optional().describe('static type of the value read back'),
    value: z.string().optional().describe('the value read back after the write'),
    writes: z
      .array(
        z.object({
          where: z.string(),
          journal_id: z.number().int().optional(),
          undoable: z.boolean(),
          why_not: z.string().optional(),
        }),
      )
      .optional(),
    cost: costSchema.extend({ journal_invokes: z.number().int().min(0).optional() }),
  }),
  annotations: CHANGES_GAME,
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, journal, caller }) => {
    const r = await setMember(session, journal, caller, args);
    const v = r.value;
    const e = evalOutcome({ value: v.evaluation, cost: r.cost, writes: v.writes });
    const path = pathOf(v.tree, v.node);
    return {
      text: `${path} [${v.node.id}] ${simpleName(v.component)}.${v.member} = ${e.text}`,
      structured: {
        id: v.node.id,
        path,
        component: v.component,
        member: v.member,
        type: e.structured.type,
        value: e.structured.value,
        writes: e.structured.writes,
        ...(e.structured.cost ? { cost: e.structured.cost } : {}),
      },
      cost: r.cost,
    };
  },
});

const previewSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  scene: z.string(),
  active_self: z.boolean(),
  active_in_hierarchy: z.boolean(),
  components: z.array(z.string()),
  descendants: z.number().int().describe('objects below it'),
  flips: z
    .number()
    .int()
    .optional()
    .describe('object_set_active: objects whose active-in-hierarchy state it changes'),
});

const previewOut = (p: ChangePreview): z.input<typeof previewSchema> => ({
  id: p.id,
  path: p.path,
  scene: p.scene,
  active_self: p.activeSelf,
  active_in_hierarchy: p.activeInHierarchy,
  components: p.components,
  descendants: p.descendants,
  ...(p.flips !== undefined ? { flips: p.flips } : {}),
});

const changeOutput = z.object({
  applied: z.boolean(),
  preview: previewSchema,
  after: z.string().optional().describe('object_set_active: activeSelf read back'),
  cost: costSchema,
});

export const objectSetActive = defineTool({
  name: 'object_set_active',
  title: 'Activate or deactivate a GameObject',
  description:
    "GameObject.SetActive: runs the game's OnEnable/OnDisable for it and everything below it. " +
    'Needs confirm: true; dry_run (or the refusal) previews how many objects it (de)activates. ' +
    'Not journaled: undo it by calling it again with the old state.',
  input: z.object({ object: objectArg, active: z.boolean(), scene: sceneArg, ...gateArgs }),
  output: changeOutput,
  annotations: CHANGES_GAME,
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, caller }) => {
    const r = await setActive(session, caller, args, {
      dryRun: args.dry_run,
      confirm: args.confirm,
    });
    const v = r.value;
    const p = v.preview;
    return {
      text: `${v.applied ? 'set' : 'dry run, would set'} ${p.path} [${p.id}] active ${args.active}: ${p.flips} object(s) change state${v.after !== undefined ? `; activeSelf now ${v.after}` : ''}`,
      structured: { applied: v.applied, preview: previewOut(p), after: v.after },
      cost: r.cost,
    };
  },
});

export const objectDestroy = defineTool({
  name: 'object_destroy',
  title: 'Destroy a GameObject',
  description:
    'Object.Destroy on a GameObject and everything below it (Unity destroys at the end of the ' +
    'frame). Needs confirm: true; dry_run (or the refusal) previews what goes. Cannot be undone.',
  input: z.object({ object: objectArg, scene: sceneArg, ...gateArgs }),
  output: changeOutput,
  annotations: CHANGES_GAME,
  tier: 'smooth',
  writes: 'checked-first',
  run: async (args, { session, caller }) => {
    const r = await destroyObject(session, caller, args, {
      dryRun: args.dry_run,
      confirm: args.confirm,
    });
    const v = r.value;
    const p = v.preview;
    return {
      text: `${v.applied ? 'destroying (at the end of this frame)' : 'dry run, would destroy'} ${p.path} [${p.id}] and ${p.descendants} object(s) below it`,
      structured: { applied: v.applied, preview: previewOut(p) },
      cost: r.cost,
    };
  },
});

export const objectTools = [objectInspect, objectSet, objectSetActive, objectDestroy];
