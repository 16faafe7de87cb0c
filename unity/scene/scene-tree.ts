// The scene snapshot as a tree, and what the tools do with it without the game: paths, the
// filters (name glob, component, tag, layer, active), `root` by path or instance id, paging
// of the hierarchy (depth and node limits, an offset to continue), finding objects, and close
// names for misses. Pure: unit-tested with made-up objects.

import { closestNames } from '../catalog/index.js';
import { Errors, UnityError } from '../errors.js';

/** One GameObject as the bulk read gives it (object ids are the agent's). */
export interface RawObject {
  /** The GameObject's object id. */
  objectId: number;
  transformId: number;
  /** GetInstanceID() of the GameObject. */
  id: number;
  name: string;
  activeSelf: boolean;
  /** The parent Transform's object id; 0 for a root. */
  parentTransformId: number;
  sibling: number;
  /** Component types' full names, the Transform first. */
  components: string[];
  /** The components' object ids, in the order of `components`. */
  componentIds?: number[];
  tag?: string;
  layer?: number;
}

export interface SceneInfo {
  name: string;
  /** Index in SceneManager.GetSceneAt; -1 for DontDestroyOnLoad's scene. */
  index: number;
  path?: string;
  buildIndex?: number;
  active?: boolean;
}

export interface TreeNode extends RawObject {
  index: number;
  /** Index of the parent node; -1 for a root. */
  parent: number;
  children: number[];
  depth: number;
  scene: string;
  activeInHierarchy: boolean;
}

export interface SceneTree {
  nodes: TreeNode[];
  scenes: { info: SceneInfo; roots: number[] }[];
  byId: Map<number, TreeNode>;
  /** What the reply must say of how the objects were found (an old Unity: scene-calls FindApi). */
  notes?: string[];
}

export const DONT_DESTROY_ON_LOAD = 'DontDestroyOnLoad';

export function buildTree(
  objects: readonly RawObject[],
  scenes: readonly (SceneInfo & { roots: number[] })[],
): SceneTree {
  // written out, not `{ ...o }`: a spread per object was most of the tree's cost at 5,000
  const nodes: TreeNode[] = objects.map((o, index) => {
    const n: TreeNode = {
      objectId: o.objectId,
      transformId: o.transformId,
      id: o.id,
      name: o.name,
      activeSelf: o.activeSelf,
      parentTransformId: o.parentTransformId,
      sibling: o.sibling,
      components: o.components,
      index,
      parent: -1,
      children: [],
      depth: 0,
      scene: '',
      activeInHierarchy: o.activeSelf,
    };
    if (o.componentIds !== undefined) n.componentIds = o.componentIds;
    if (o.tag !== undefined) n.tag = o.tag;
    if (o.layer !== undefined) n.layer = o.layer;
    return n;
  });
  const byTransform = new Map(nodes.map((n) => [n.transformId, n]));
  const byObject = new Map(nodes.map((n) => [n.objectId, n]));
  for (const n of nodes) {
    const p = n.parentTransformId ? byTransform.get(n.parentTransformId) : undefined;
    if (p) {
      n.parent = p.index;
      p.children.push(n.index);
    }
  }
  for (const n of nodes) n.children.sort((a, b) => nodes[a]!.sibling - nodes[b]!.sibling || a - b);
  const out: SceneTree['scenes'] = [];
  const placed = new Set<number>();
  for (const s of scenes) {
    const roots: number[] = [];
    for (const id of s.roots) {
      const n = byObject.get(id);
      if (n && n.parent < 0 && !placed.has(n.index)) {
        roots.push(n.index);
        placed.add(n.index);
      }
    }
    const { roots: _, ...info } = s;
    out.push({ info, roots });
  }
  const rest = nodes.filter((n) => n.parent < 0 && !placed.has(n.index)).map((n) => n.index);
  if (rest.length) out.push({ info: { name: DONT_DESTROY_ON_LOAD, index: -1 }, roots: rest });
  for (const s of out) {
    const stack = [...s.roots].reverse().map((i) => ({ i, depth: 0, active: true }));
    while (stack.length) {
      const { i, depth, active } = stack.pop()!;
      const n = nodes[i]!;
      n.depth = depth;
      n.scene = s.info.name;
      n.activeInHierarchy = active && n.activeSelf;
      for (let k = n.children.length - 1; k >= 0; k--)
        stack.push({ i: n.children[k]!, depth: depth + 1, active: n.activeInHierarchy });
    }
  }
  return { nodes, scenes: out, byId: new Map(nodes.map((n) => [n.id, n])) };
}

export function pathOf(tree: SceneTree, n: TreeNode): string {
  const parts: string[] = [];
  for (let c: TreeNode | undefined = n; c; c = c.parent >= 0 ? tree.nodes[c.parent] : undefined)
    parts.push(c.name);
  return parts.reverse().join('/');
}

/** A glob over a whole name: `*` any run, `?` one character; case-sensitive, as Unity's names. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

export const simpleName = (type: string): string =>
  type.slice(Math.max(type.lastIndexOf('.'), type.lastIndexOf('+')) + 1);

export interface Filter {
  name?: string | undefined;
  component?: string | undefined;
  tag?: string | undefined;
  layer?: number | undefined;
  /** true: active in the hierarchy; false: not. */
  active?: boolean | undefined;
}

export const hasFilter = (f: Filter): boolean =>
  f.name !== undefined ||
  f.component !== undefined ||
  f.tag !== undefined ||
  f.layer !== undefined ||
  f.active !== undefined;

/** The filter as a predicate; a component no object has is an error with close type names. */
export function matcher(tree: SceneTree, f: Filter): (n: TreeNode) => boolean {
  const name = f.name !== undefined ? globToRegExp(f.name) : undefined;
  if (f.component !== undefined) {
    const want = f.component;
    const types = new Set(tree.nodes.flatMap((n) => n.components));
    if (![...types].some((t) => t === want || simpleName(t) === want)) {
      const suggestions = closestNames(
        want,
        [...types].map((t) => ({ label: simpleName(t), keys: [t, simpleName(t)] })),
      );
      throw new UnityError(
        'TYPE_NOT_FOUND',
        `no GameObject in the loaded scenes has a ${JSON.stringify(want)} component${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
        { suggestions },
      );
    }
  }
  return (n) =>
    (!name || name.test(n.name)) &&
    (f.component === undefined ||
      n.components.some((t) => t === f.component || simpleName(t) === f.component)) &&
    (f.tag === undefined || n.tag === f.tag) &&
    (f.layer === undefined || n.layer === f.layer) &&
    (f.active === undefined || n.activeInHierarchy === f.active);
}

function sceneRoots(tree: SceneTree, scene: string | undefined): SceneTree['scenes'] {
  if (scene === undefined) return tree.scenes;
  const s = tree.scenes.filter((x) => x.info.name === scene || x.info.path === scene);
  if (s.length) return s;
  const names = tree.scenes.map((x) => x.info.name);
  const suggestions = closestNames(
    scene,
    names.map((label) => ({ label, keys: [label] })),
  );
  throw new UnityError(
    'NAME_NOT_FOUND',
    `no loaded scene is named ${JSON.stringify(scene)} (loaded: ${names.join(', ')})${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
    { suggestions },
  );
}

/** An object by instance id or by path ("Canvas/Panel/Button"), within `scene` if given. */
export function resolveObject(tree: SceneTree, at: number | string, scene?: string): TreeNode {
  // an old Unity may not have found every object (inactive ones): the error says so
  const note = tree.notes?.length ? ` (${tree.notes.join('; ')})` : '';
  if (typeof at === 'number' || /^-?\d+$/.test(at)) {
    const id = Number(at);
    const n = tree.byId.get(id);
    if (!n)
      throw new UnityError(
        'OBJECT_NOT_FOUND',
        `no GameObject has instance id ${id} (destroyed, or not a GameObject's id); scene_find lists ids${note}`,
      );
    return n;
  }
  const parts = at.replace(/^\/+|\/+$/g, '').split('/');
  let level: TreeNode[] = sceneRoots(tree, scene).flatMap((s) =>
    s.roots.map((i) => tree.nodes[i]!),
  );
  for (let k = 0; k < parts.length; k++) {
    const found = level.filter((n) => n.name === parts[k]);
    if (found.length === 0) {
      const suggestions = closestNames(
        parts[k]!,
        level.map((n) => ({ label: n.name, keys: [n.name] })),
      );
      const where = k === 0 ? 'at the root' : `under ${parts.slice(0, k).join('/')}`;
      const there = [...new Set(level.map((n) => n.name))];
      const hint = suggestions.length
        ? `; did you mean ${suggestions.map((s) => JSON.stringify(s)).join(', ')}?`
        : there.length
          ? ` (there: ${there
              .slice(0, 10)
              .map((s) => JSON.stringify(s))
              .join(', ')}${there.length > 10 ? `, and ${there.length - 10} more` : ''})`
          : ' (nothing there)';
      throw new UnityError(
        'OBJECT_NOT_FOUND',
        `no GameObject ${JSON.stringify(parts[k])} ${where}${hint}${note}`,
        {
          suggestions,
        },
      );
    }
    if (k === parts.length - 1) {
      if (found.length > 1)
        throw Errors.ambiguousName(
          at,
          found.map((n) => `${pathOf(tree, n)} [${n.id}]${n.scene ? ` in ${n.scene}` : ''}`),
          'Name one by its instance id.',
        );
      return found[0]!;
    }
    level = found.flatMap((n) => n.children.map((i) => tree.nodes[i]!));
  }
  throw new Error('unreachable');
}

export interface HierarchyArgs extends Filter {
  scene?: string | undefined;
  root?: number | string | undefined;
  depth?: number | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface HierarchyLine {
  node: TreeNode;
  /** Depth below the listing's start. */
  level: number;
  /** Children not listed because of `depth`. */
  hiddenChildren: number;
  /** With a filter: false for an ancestor shown only for context. */
  match: boolean;
}

export interface HierarchyPage {
  lines: HierarchyLine[];
  /** Lines the whole listing has (before offset and limit). */
  total: number;
  offset: number;
  /** The offset of the next page, if there is more. */
  next?: number;
  /** With a filter: how many objects match. */
  matches?: number;
  scenes: string[];
}

export const DEFAULT_DEPTH = 3;
export const DEFAULT_NODES = 200;

/**
 * The tree as lines in hierarchy order from the scenes' roots (or `root`), down to `depth`
 * levels below the start; with a filter, the matching objects and their ancestors (depth then
 * unlimited unless given). Paged by offset and limit.
 */
export function hierarchy(tree: SceneTree, args: HierarchyArgs): HierarchyPage {
  const filtered = hasFilter(args);
  const maxDepth = args.depth ?? (filtered ? Number.POSITIVE_INFINITY : DEFAULT_DEPTH);
  const limit = args.limit ?? DEFAULT_NODES;
  const offset = args.offset ?? 0;
  const starts: TreeNode[] =
    args.root !== undefined
      ? [resolveObject(tree, args.root, args.scene)]
      : sceneRoots(tree, args.scene).flatMap((s) => s.roots.map((i) => tree.nodes[i]!));
  const matches = filtered ? matcher(tree, args) : undefined;
  const all: HierarchyLine[] = [];
  let matchCount = 0;
  const walk = (n: TreeNode, level: number): boolean => {
    const at = all.length;
    const isMatch = matches ? matches(n) : true;
    if (isMatch && matches) matchCount++;
    all.push({ node: n, level, hiddenChildren: 0, match: isMatch });
    let below = false;
    if (level < maxDepth) {
      for (const c of n.children) below = walk(tree.nodes[c]!, level + 1) || below;
    } else all[at]!.hiddenChildren = n.children.length;
    if (matches && !isMatch && !below) all.length = at; // nothing to show here
    return isMatch || below;
  };
  for (const s of starts) walk(s, 0);
  const lines = all.slice(offset, offset + limit);
  const page: HierarchyPage = {
    lines,
    total: all.length,
    offset,
    scenes: [...new Set(lines.map((l) => l.node.scene))],
  };
  if (offset + lines.length < all.length) page.next = offset + lines.length;
  if (matches) page.matches = matchCount;
  return page;
}

export interface FindArgs {
  name?: string | undefined;
  path?: string | undefined;
  component?: string | undefined;
  tag?: string | undefined;
  scene?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** Objects matching every criterion given, in hierarchy order; a path names one object. */
export function find(
  tree: SceneTree,
  args: FindArgs,
): { found: TreeNode[]; total: number; offset: number } {
  const offset = args.offset ?? 0;
  const limit = args.limit ?? 50;
  if (args.path !== undefined) {
    const n = resolveObject(tree, args.path, args.scene);
    return { found: offset === 0 ? [n] : [], total: 1, offset };
  }
  const m = matcher(tree, { name: args.name, component: args.component, tag: args.tag });
  const order: TreeNode[] = [];
  for (const s of sceneRoots(tree, args.scene)) {
    const stack = [...s.roots].reverse();
    while (stack.length) {
      const n = tree.nodes[stack.pop()!]!;
      if (m(n)) order.push(n);
      for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]!);
    }
  }
  if (order.length === 0 && args.name !== undefined && !/[*?]/.test(args.name)) {
    const suggestions = closestNames(
      args.name,
      [...new Set(tree.nodes.map((n) => n.name))].map((label) => ({ label, keys: [label] })),
    );
    if (suggestions.length)
      throw new UnityError(
        'OBJECT_NOT_FOUND',
        `no GameObject is named ${JSON.stringify(args.name)}; did you mean ${suggestions.map((s) => JSON.stringify(s)).join(', ')}?`,
        { suggestions },
      );
  }
  return { found: order.slice(offset, offset + limit), total: order.length, offset };
}
