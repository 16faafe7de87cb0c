// One GameObject's components: object_inspect lists their serialized fields (public and not
// [NonSerialized], or [SerializeField]) and public properties with values formatted as `eval`
// prints them (hidden members on request), object_set writes one member with an eval program
// over the component (`target`), so the write is read back and journaled for undo as eval's
// assignments are. The object is found in a snapshot first (a path or an instance id; an object
// destroyed since is OBJECT_NOT_FOUND).

import { Values } from '../../sdb-protocol/index.js';
import { formatValue, type EvalValue, type FieldDescriptor } from '../../eval/index.js';
import { closestNames } from '../catalog/index.js';
import { UnityError } from '../errors.js';
import { evaluateInSession, type EvalWrite } from '../eval-bridge/evaluate-in-session.js';
import type { Journal } from '../journal/journal.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { fromWire, handleOf, typeIdOf } from '../runtime/convert.js';
import { sumCosts, type GameSession, type OperationResult } from '../session/session.js';
import type { EvaluateResult } from '../../eval/index.js';
import type { SceneCalls } from './scene-calls.js';
import { sceneRead, takeSnapshot } from './scene-service.js';
import { EcsErrors } from '../ecs/ecs-errors.js';
import { pathOf, resolveObject, simpleName, type SceneTree, type TreeNode } from './scene-tree.js';

/** The engine's bases: their members are the engine's plumbing, not the component's state. */
const ENGINE_BASES = new Set([
  'System.Object',
  'UnityEngine.Object',
  'UnityEngine.Component',
  'UnityEngine.Behaviour',
  'UnityEngine.MonoBehaviour',
]);
const FIELD_ACCESS_MASK = 0x7;
const FIELD_PUBLIC = 0x6;
const FIELD_STATIC = 0x10;
const FIELD_LITERAL = 0x40;
const FIELD_NOT_SERIALIZED = 0x80;
export const VALUE_CHARS = 300;
const MAX_MEMBERS = 100;

export interface InspectedMember {
  name: string;
  kind: 'field' | 'property';
  type: string;
  /** As eval prints it (clipped). */
  value?: string;
  /** Why no value (a getter that threw). */
  error?: string;
  /** Fields: whether Unity serializes it. */
  serialized?: boolean;
  /** Shown only with hidden: true. */
  hidden?: boolean;
}

export interface InspectedComponent {
  type: string;
  members: InspectedMember[];
  /** Members left out by the bound. */
  omitted: number;
}

export interface InspectResult {
  node: TreeNode;
  tree: SceneTree;
  components: InspectedComponent[];
}

/** The component of `node` named `name` (full or simple), with close names on a miss. */
export function pickComponent(node: TreeNode, name: string): { type: string; objectId: number } {
  const i = node.components.findIndex((t) => t === name || simpleName(t) === name);
  if (i < 0) {
    const suggestions = closestNames(
      name,
      node.components.map((t) => ({ label: simpleName(t), keys: [t, simpleName(t)] })),
    );
    throw new UnityError(
      'COMPONENT_NOT_FOUND',
      `${node.name} [${node.id}] has no ${JSON.stringify(name)} component (it has ${node.components.map(simpleName).join(', ')})${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
      { suggestions },
    );
  }
  return { type: node.components[i]!, objectId: node.componentIds![i]! };
}

async function inspectComponent(
  c: SceneCalls,
  game: SessionGameAccess,
  typeName: string,
  objectId: number,
  hidden: boolean,
): Promise<InspectedComponent> {
  const md = c.md;
  const runtime = { metadata: md, game };
  const top = await c.type(typeName);
  const target: EvalValue = await fromWire(Values.object(objectId), md);
  const serializeField = await md.findType('UnityEngine.SerializeField');
  const members: InspectedMember[] = [];
  const seen = new Set<string>();
  const show = async (
    v: () => Promise<EvalValue>,
  ): Promise<Pick<InspectedMember, 'value' | 'error'>> => {
    try {
      const text = await formatValue(runtime, await v());
      return { value: text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  };
  for (let t: number = top; t;) {
    const info = await c.conn.send('TYPE.GET_INFO', { typeId: t });
    const full = info.fullName;
    if (ENGINE_BASES.has(full)) break;
    const fields = await c.conn.send('TYPE.GET_FIELDS', { typeId: t });
    const descriptors = await md.allFields(handleOf(t));
    for (const f of fields) {
      if (f.attributes & (FIELD_STATIC | FIELD_LITERAL) || seen.has(f.name)) continue;
      const isPublic = (f.attributes & FIELD_ACCESS_MASK) === FIELD_PUBLIC;
      const marked =
        !isPublic &&
        serializeField !== undefined &&
        (
          await c.conn.send('TYPE.GET_FIELD_CATTRS', {
            typeId: t,
            fieldId: f.fieldId,
            attributeTypeId: typeIdOf(serializeField),
          })
        ).length > 0;
      const serialized = (isPublic && !(f.attributes & FIELD_NOT_SERIALIZED)) || marked;
      if (!serialized && !hidden) continue;
      const d = descriptors.find((x: FieldDescriptor) => x.name === f.name && !x.isStatic);
      if (!d) continue;
      seen.add(f.name);
      members.push({
        name: f.name,
        kind: 'field',
        type: (await md.describe(d.type)).fullName,
        serialized,
        ...(serialized ? {} : { hidden: true }),
        ...(await show(() => game.readField(target, d))),
      });
    }
    for (const p of await c.conn.send('TYPE.GET_PROPERTIES', { typeId: t })) {
      if (!p.getterId || seen.has(p.name)) continue;
      const getter = await md.method(p.getterId);
      if (getter.isStatic || getter.parameters.length > 0) continue;
      if (!getter.isPublic && !hidden) continue;
      seen.add(p.name);
      members.push({
        name: p.name,
        kind: 'property',
        type: getter.returnType ? (await md.describe(getter.returnType)).fullName : 'void',
        ...(getter.isPublic ? {} : { hidden: true }),
        ...(await show(
          async () =>
            (
              await game.invoke(getter, target, [], {
                virtual: true,
                outThis: false,
                outArgs: false,
              })
            ).result,
        )),
      });
    }
    t = info.baseTypeId;
  }
  return {
    type: typeName,
    members: members.slice(0, MAX_MEMBERS),
    omitted: Math.max(0, members.length - MAX_MEMBERS),
  };
}

export async function inspectObject(
  session: GameSession,
  caller: string,
  args: {
    object: number | string;
    component?: string | undefined;
    hidden?: boolean | undefined;
    scene?: string | undefined;
  },
): Promise<OperationResult<InspectResult>> {
  const started = performance.now();
  const snap = await takeSnapshot(session, caller, 'object_inspect (find)', {
    tags: true,
    layers: true,
  });
  const tree = snap.value;
  const node = resolveObject(tree, args.object, args.scene);
  const picked =
    args.component !== undefined
      ? [pickComponent(node, args.component)]
      : node.components.map((type, i) => ({ type, objectId: node.componentIds![i]! }));
  const r = await sceneRead(session, caller, 'object_inspect', async (c) => {
    await checkAlive(c, node, picked[0]!.objectId);
    const game = new SessionGameAccess(c.ctx, c.md);
    const out: InspectedComponent[] = [];
    for (const p of picked)
      out.push(await inspectComponent(c, game, p.type, p.objectId, args.hidden === true));
    return out;
  });
  return {
    value: { node, tree, components: r.value },
    cost: sumCosts([snap.cost, r.cost], started),
  };
}

/** A component whose native object is gone (m_CachedPtr 0): destroyed since the snapshot. */
async function checkAlive(c: SceneCalls, node: TreeNode, objectId: number): Promise<void> {
  const objectType = await c.type('UnityEngine.Object');
  const f = (await c.md.allFields(handleOf(objectType))).find((x) => x.name === 'm_CachedPtr');
  if (!f) return;
  const [v] = await c.conn.send('OBJECT_REF.GET_VALUES', {
    objectId,
    fieldIds: [f.handle as number],
  });
  const ptr = v && 'value' in v ? v.value : 1;
  if (ptr === 0 || ptr === 0n)
    throw new UnityError(
      'OBJECT_NOT_FOUND',
      `${node.name} [${node.id}] was destroyed (its native object is gone)`,
    );
}

export interface SetResult {
  node: TreeNode;
  tree: SceneTree;
  component: string;
  member: string;
  evaluation: EvaluateResult;
  writes: EvalWrite[];
}

const MEMBER_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Writes `member` (a field or property path) of one component to `value` (a C# expression) and
 * reads it back, through an eval program over the component (`target`): journaled for undo.
 */
export async function setMember(
  session: GameSession,
  journal: Journal,
  caller: string,
  args: {
    object: number | string;
    component: string;
    member: string;
    value: string;
    scene?: string | undefined;
  },
): Promise<OperationResult<SetResult>> {
  const started = performance.now();
  if (!MEMBER_PATH.test(args.member))
    throw new UnityError(
      'INVALID_ARGUMENT',
      `member must be a field or property name or a dotted path ("health", "bounty.count"), got ${JSON.stringify(args.member)}`,
    );
  const snap = await takeSnapshot(session, caller, 'object_set (find)', {});
  const tree = snap.value;
  const node = resolveObject(tree, args.object, args.scene);
  const comp = pickComponent(node, args.component);
  // the first member checked up front: a miss suggests close names, and nothing runs
  const check = await sceneRead(session, caller, 'object_set (member)', async (c) => {
    const typeId = await c.type(comp.type);
    await c.ctx.catalog.findMember(typeId, args.member.split('.')[0]!);
    await checkAlive(c, node, comp.objectId);
    return typeId;
  });
  const typeId = check.value;
  const source = `target.${args.member} = ${args.value};\ntarget.${args.member}`;
  const builtins = new Map([
    [
      'target',
      {
        type: handleOf(typeId),
        value: () => Promise.resolve<EvalValue>({ kind: 'object', ref: { id: comp.objectId } }),
      },
    ],
  ]);
  const r = await evaluateInSession(
    session,
    caller,
    source,
    { builtins, functions: new Map() },
    journal,
  );
  return {
    value: {
      node,
      tree,
      component: comp.type,
      member: args.member,
      evaluation: r.value,
      writes: r.writes,
    },
    cost: sumCosts([snap.cost, check.cost, r.cost], started),
  };
}

export interface Gate {
  dryRun?: boolean | undefined;
  confirm?: boolean | undefined;
}

export interface ChangePreview {
  id: number;
  path: string;
  scene: string;
  activeSelf: boolean;
  activeInHierarchy: boolean;
  components: string[];
  /** Objects below it (destroyed with it, or activated / deactivated with it). */
  descendants: number;
  /** Objects whose activeInHierarchy the change flips (object_set_active). */
  flips?: number;
}

export interface ChangeResult {
  applied: boolean;
  preview: ChangePreview;
  /** After applying: the program's result (activeSelf read back; void for destroy). */
  after?: string;
}

function descendants(tree: SceneTree, n: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const stack = [...n.children];
  while (stack.length) {
    const c = tree.nodes[stack.pop()!]!;
    out.push(c);
    stack.push(...c.children);
  }
  return out;
}

/** Finds the object, previews, and applies `program` over it (`target`) only when confirmed. */
async function gatedChange(
  session: GameSession,
  caller: string,
  label: string,
  args: { object: number | string; scene?: string | undefined },
  gate: Gate,
  preview: (tree: SceneTree, n: TreeNode) => ChangePreview,
  program: string,
): Promise<OperationResult<ChangeResult>> {
  const started = performance.now();
  const snap = await takeSnapshot(session, caller, `${label} (find)`, {});
  const node = resolveObject(snap.value, args.object, args.scene);
  const p = preview(snap.value, node);
  if (gate.dryRun) return { value: { applied: false, preview: p }, cost: snap.cost };
  if (!gate.confirm) throw EcsErrors.confirmRequired(`${label} ${p.path} [${p.id}]`, p);
  const alive = await sceneRead(session, caller, `${label} (check)`, async (c) => {
    await checkAlive(c, node, node.objectId);
    return c.type('UnityEngine.GameObject');
  });
  const builtins = new Map([
    [
      'target',
      {
        type: handleOf(alive.value),
        value: () => Promise.resolve<EvalValue>({ kind: 'object', ref: { id: node.objectId } }),
      },
    ],
  ]);
  const r = await evaluateInSession(session, caller, program, { builtins, functions: new Map() });
  const v = r.value;
  if (v.kind === 'exception')
    throw new UnityError('GAME_EXCEPTION', `${v.type}: ${v.message}`, {
      details: { type: v.type, message: v.message },
    });
  return {
    value: { applied: true, preview: p, ...(v.kind === 'value' ? { after: v.text } : {}) },
    cost: sumCosts([snap.cost, alive.cost, r.cost], started),
  };
}

const previewOf = (tree: SceneTree, n: TreeNode): ChangePreview => ({
  id: n.id,
  path: pathOf(tree, n),
  scene: n.scene,
  activeSelf: n.activeSelf,
  activeInHierarchy: n.activeInHierarchy,
  components: n.components,
  descendants: descendants(tree, n).length,
});

/** GameObject.SetActive behind the gate; the preview counts the objects it (de)activates. */
export function setActive(
  session: GameSession,
  caller: string,
  args: { object: number | string; active: boolean; scene?: string | undefined },
  gate: Gate,
): Promise<OperationResult<ChangeResult>> {
  return gatedChange(
    session,
    caller,
    'object_set_active',
    args,
    gate,
    (tree, n) => {
      const p = previewOf(tree, n);
      const parentActive = n.parent < 0 || tree.nodes[n.parent]!.activeInHierarchy;
      // what activeInHierarchy becomes for the object and each descendant
      let flips = 0;
      const walk = (m: TreeNode, above: boolean, self: boolean): void => {
        const now = above && self;
        if (now !== m.activeInHierarchy) flips++;
        for (const c of m.children) walk(tree.nodes[c]!, now, tree.nodes[c]!.activeSelf);
      };
      walk(n, parentActive, args.active);
      return { ...p, flips };
    },
    `target.SetActive(${args.active ? 'true' : 'false'});\ntarget.activeSelf`,
  );
}

/** Object.Destroy behind the gate (Unity destroys it, and everything below it, at frame end). */
export function destroyObject(
  session: GameSession,
  caller: string,
  args: { object: number | string; scene?: string | undefined },
  gate: Gate,
): Promise<OperationResult<ChangeResult>> {
  return gatedChange(
    session,
    caller,
    'object_destroy',
    args,
    gate,
    previewOf,
    'UnityEngine.Object.Destroy(target)',
  );
}
