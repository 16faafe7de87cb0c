// What the scene tools share: the object argument, the filter arguments, the line a GameObject
// is shown as (`name [instance id] (inactive) : Component, Component…`), and the bounds that
// keep a reply small whatever the scene's size.

import { z } from 'zod';

import { pathOf, simpleName, type SceneTree, type TreeNode } from '../../unity/scene/scene-tree.js';
import { clip } from '../tool.js';

/** The most text a scene reply carries (the structured part is bounded by its node limit). */
export const SCENE_TEXT_CHARS = 16_000;
export const MAX_NODES = 1000;

export const objectArg = z
  .union([z.number().int(), z.string().min(1)])
  .describe(
    'a GameObject: its instance id (as listed: [-1234]) or its path from a scene root ("Canvas/Panel/Button")',
  );

export const sceneArg = z
  .string()
  .min(1)
  .optional()
  .describe('a loaded scene by name or path (default: every loaded scene)');

export const filterArgs = {
  name: z.string().min(1).optional().describe('object name, a glob: "Enemy*", "Room (?)"'),
  component: z
    .string()
    .min(1)
    .optional()
    .describe('objects with a component of this type (simple or full name: "Camera", "Enemy")'),
  tag: z.string().min(1).optional().describe('objects with this tag'),
  layer: z.number().int().min(0).max(31).optional().describe('objects on this layer'),
  active: z
    .boolean()
    .optional()
    .describe('true: only objects active in the hierarchy; false: only inactive ones'),
};

/** Component types worth showing: all but the Transform every object has. */
export const shownComponents = (n: TreeNode): string[] =>
  n.components.filter((c) => c !== 'UnityEngine.Transform').map(simpleName);

export function activeText(n: TreeNode): string {
  if (!n.activeSelf) return ' (inactive)';
  return n.activeInHierarchy ? '' : ' (inactive parent)';
}

export function objectLine(n: TreeNode): string {
  const comps = shownComponents(n);
  return `${n.name} [${n.id}]${activeText(n)}${comps.length ? ` : ${comps.join(', ')}` : ''}`;
}

export const nodeSchema = z.object({
  id: z.number().int().describe('GetInstanceID() of the GameObject'),
  name: z.string(),
  path: z.string().describe('names from the scene root, "/"-separated'),
  scene: z.string(),
  active_self: z.boolean(),
  active_in_hierarchy: z.boolean(),
  components: z.array(z.string()).describe('component types, full names, the Transform first'),
  children: z.number().int(),
  tag: z.string().optional(),
  layer: z.number().int().optional(),
});

export type NodeOut = z.input<typeof nodeSchema>;

export function nodeOut(tree: SceneTree, n: TreeNode): NodeOut {
  const o: NodeOut = {
    id: n.id,
    name: n.name,
    path: pathOf(tree, n),
    scene: n.scene,
    active_self: n.activeSelf,
    active_in_hierarchy: n.activeInHierarchy,
    components: n.components,
    children: n.children.length,
  };
  if (n.tag !== undefined) o.tag = n.tag;
  if (n.layer !== undefined) o.layer = n.layer;
  return o;
}

export const notesSchema = z
  .array(z.string())
  .optional()
  .describe(
    'how the objects were found, when not by Object.FindObjectsByType (an older Unity): e.g. that inactive objects are missing',
  );

/** The notes as lines of the text reply ("note: ..."). */
export const notesText = (notes: readonly string[] | undefined): string[] =>
  (notes ?? []).map((n) => `note: ${n}`);

export const sceneText = (text: string): string => clip(text, SCENE_TEXT_CHARS);
