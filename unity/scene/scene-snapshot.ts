// Every GameObject of the loaded scenes at one moment, read in bulk: a fixed number of invokes
// whatever the object count (none per object). In the window: FindObjectsByType<Component>
// (inactive included), the Transforms among them (Array.FindAll, then Array.Copy into a
// Transform[]: no second find), ConvertAll over the transforms (parent, GetSiblingIndex, name),
// over the components (gameObject, GetType) and over those owners (activeSelf, GetInstanceID,
// and tag / layer when a filter needs them: every GameObject owns a Transform, so the owners
// list every object, found by its Transform's entry), one string.Join of the names (plain
// strings), and per loaded scene its name and GetRootGameObjects. The arrays are copies (a
// snapshot), read with one ARRAY_REF.GET_VALUES each after the window; the components' Type
// objects are a few distinct ones, each named over the wire (OBJECT_REF.GET_TYPE of one
// component having it). After the find the calls leave by level, several per VM.INVOKE_METHODS
// (SceneCalls.together: 5 commands for the 19 invokes). Why each step:
// docs/solutions/scene-bulk-reads.md.

import type { Value } from '../../sdb-protocol/index.js';
import { UnityError } from '../errors.js';
import { findNote, type Getter, type Held, type SceneCalls } from './scene-calls.js';
import { buildTree, type RawObject, type SceneInfo, type SceneTree } from './scene-tree.js';

const T = 'UnityEngine.Transform';
const GO = 'UnityEngine.GameObject';
const C = 'UnityEngine.Component';
const O = 'UnityEngine.Object';

/** Separates the joined ToString()s: a character no object name is expected to hold. */
export const SEPARATOR = '\u001e';

export const GETTERS = {
  gameObject: { input: T, declaring: C, method: 'get_gameObject', output: GO },
  parent: { input: T, declaring: T, method: 'get_parent', output: T },
  sibling: { input: T, declaring: T, method: 'GetSiblingIndex', output: 'System.Int32' },
  active: { input: GO, declaring: GO, method: 'get_activeSelf', output: 'System.Boolean' },
  id: { input: GO, declaring: O, method: 'GetInstanceID', output: 'System.Int32' },
  tag: { input: GO, declaring: GO, method: 'get_tag', output: 'System.String' },
  layer: { input: GO, declaring: GO, method: 'get_layer', output: 'System.Int32' },
  componentObject: { input: C, declaring: C, method: 'get_gameObject', output: GO },
  // a Transform's name is its GameObject's (Object.name): one ConvertAll over the transforms
  name: { input: T, declaring: O, method: 'get_name', output: 'System.String' },
  // each component's System.Type (Mono keeps one per type): its name is read over the wire after
  type: { input: C, declaring: 'System.Object', method: 'GetType', output: 'System.Type' },
} satisfies Record<string, Getter>;

export interface SnapshotOptions {
  tags?: boolean;
  layers?: boolean;
}

/** "name (Type.FullName)" → [name, type]: the type is after the last " (" (type names have none). */
export function splitToString(s: string): [string, string] {
  const at = s.lastIndexOf(' (');
  if (at < 0 || !s.endsWith(')')) return [s, ''];
  return [s.slice(0, at), s.slice(at + 2, -1)];
}

const ids = (vs: readonly Value[]): number[] =>
  vs.map((v) => (v.kind === 'object' || v.kind === 'string' ? v.objectId : 0));
const nums = (vs: readonly Value[]): number[] =>
  vs.map((v) => ('value' in v && typeof v.value === 'number' ? v.value : 0));
const bools = (vs: readonly Value[]): boolean[] => vs.map((v) => v.kind === 'bool' && v.value);

/** A loaded scene; `rootsArray` (the GetRootGameObjects copy, kept) while its roots are unread. */
export type LoadedScene = SceneInfo & { roots: number[]; rootsArray?: Value; nameString?: Value };

/**
 * The loaded scenes (SceneManager), each with its name and root GameObjects' object ids; with
 * `deferRoots`, the names and the roots' arrays are kept for `readRoots` after the window
 * instead (a write in the window, not a round trip).
 */
export async function loadedScenes(
  c: SceneCalls,
  details = false,
  deferRoots = false,
): Promise<LoadedScene[]> {
  const SM = 'UnityEngine.SceneManagement.SceneManager';
  const S = 'UnityEngine.SceneManagement.Scene';
  const count = await c.call(await c.method(SM, 'get_sceneCount', []), { kind: 'null' }, []);
  const n = count.kind === 'i4' ? count.value : 0;
  const at = await c.method(SM, 'GetSceneAt', ['System.Int32']);
  let activeHandle: number | undefined;
  if (details) {
    const active = await c.call(await c.method(SM, 'GetActiveScene', []), { kind: 'null' }, []);
    activeHandle = sceneHandle(active);
  }
  const GET_NAME = await c.method(S, 'get_name', []);
  const GET_ROOTS = await c.method(S, 'GetRootGameObjects', []);
  // the scenes side by side (in a `together`, one command per step for all of them)
  const out = await c.together(
    ...Array.from({ length: n }, (_, i) => async (): Promise<LoadedScene> => {
      const scene = await c.call(at, { kind: 'null' }, [{ kind: 'i4', value: i }]);
      const info: LoadedScene = { name: '', index: i, roots: [] };
      const [nameString, rootsArray] = await c.callAll([
        { m: GET_NAME, thisArg: scene, args: [] },
        { m: GET_ROOTS, thisArg: scene, args: [] },
      ]);
      if (deferRoots) {
        info.nameString = await c.keep(nameString!);
        info.rootsArray = await c.keep(rootsArray!);
      } else {
        info.name = await c.text(nameString!);
        info.roots = ids(await c.arrayValues(rootsArray!));
      }
      if (details) {
        info.path = await c.text(await c.call(await c.method(S, 'get_path', []), scene, []));
        const b = await c.call(await c.method(S, 'get_buildIndex', []), scene, []);
        info.buildIndex = b.kind === 'i4' ? b.value : -1;
        info.active = sceneHandle(scene) === activeHandle;
      }
      return info;
    }),
  );
  return out;
}

/** What `loadedScenes(…, deferRoots)` kept, read (wire commands only: no window needed). */
async function readRoots(c: SceneCalls, scenes: readonly LoadedScene[]): Promise<LoadedScene[]> {
  return Promise.all(
    scenes.map(async ({ rootsArray, nameString, ...s }) => ({
      ...s,
      ...(nameString ? { name: await c.text(nameString) } : {}),
      ...(rootsArray ? { roots: ids(await c.arrayValues(rootsArray)) } : {}),
    })),
  );
}

function sceneHandle(v: Value): number | undefined {
  if (v.kind !== 'valuetype') return undefined;
  const f = v.fields[0];
  return f && f.kind === 'i4' ? f.value : undefined;
}

/** The copies a snapshot reads, made in the window and kept alive until read. */
export interface SnapshotCopy {
  transforms: Value;
  parents: Value;
  siblings: Value;
  active: Value;
  instanceIds: Value;
  tags: Value | undefined;
  layers: Value | undefined;
  components: Value;
  owners: Value;
  names: Value;
  types: Value;
  scenes: LoadedScene[];
  /** How the objects were found, when the reply must say so (an old Unity). */
  note: string | undefined;
  held: Held;
}

/** In the window: the invokes (a fixed number, none per object), their results kept alive. */
export async function copySnapshot(
  c: SceneCalls,
  opts: SnapshotOptions = {},
): Promise<SnapshotCopy> {
  await c.prepareDelegates([
    GETTERS.parent,
    GETTERS.sibling,
    GETTERS.active,
    GETTERS.id,
    GETTERS.componentObject,
    GETTERS.name,
    GETTERS.type,
    ...(opts.tags ? [GETTERS.tag] : []),
    ...(opts.layers ? [GETTERS.layer] : []),
  ]);
  try {
    // one find: the Transforms are among the components (a second find walks every object
    // again), picked out by Array.FindAll and copied into a Transform[]
    const components = await c.findAll(C);
    // the rest in four levels of calls, each one VM.INVOKE_METHODS (see SceneCalls.together)
    const [t, o, types, scenes] = await c.together(
      async () => {
        const picked = await c.filterByType(components, C, T);
        const n = await c.arrayLength(picked);
        const transforms = await c.typedArray(T, n);
        // the copy first: the getters after it in the same command read the Transform[]
        const [, parents, siblings, names] = await c.callAll([
          await c.copyCall(picked, transforms, n),
          await c.convertAllCall(transforms, GETTERS.parent),
          await c.convertAllCall(transforms, GETTERS.sibling),
          await c.convertAllCall(transforms, GETTERS.name),
        ]);
        await Promise.all([c.keep(parents!), c.keep(siblings!), c.keep(names!)]);
        // the names joined as plain strings: no string.Join of every ToString()
        return {
          transforms,
          parents: parents!,
          siblings: siblings!,
          names: await c.join(names!, SEPARATOR),
        };
      },
      async () => {
        // every GameObject owns a Transform, so the components' owners list them all (no
        // ConvertAll of the transforms' gameObject): their facts are read per component entry
        const owners = await c.convertAll(components, GETTERS.componentObject);
        const [active, instanceIds, tags, layers] = await c.together(
          () => c.convertAll(owners, GETTERS.active),
          () => c.convertAll(owners, GETTERS.id),
          async () =>
            opts.tags ? c.join(await c.convertAll(owners, GETTERS.tag), SEPARATOR) : undefined,
          async () => (opts.layers ? c.convertAll(owners, GETTERS.layer) : undefined),
        );
        return { owners, active, instanceIds, tags, layers };
      },
      // the components' Type objects (a few distinct ones, named over the wire after the window)
      () => c.convertAll(components, GETTERS.type),
      () => loadedScenes(c, false, true),
    );
    await c.settle();
    return {
      ...t,
      ...o,
      components,
      types,
      scenes,
      note: findNote(c.usedFind),
      held: c.takeHeld(),
    };
  } catch (e) {
    await c.release();
    throw e;
  }
}

/** After the window (the copies are a snapshot): one GET_VALUES per array, then the slots freed. */
export async function readSnapshot(c: SceneCalls, copy: SnapshotCopy): Promise<SceneTree> {
  try {
    const [
      tIds,
      parentIds,
      sib,
      act,
      iid,
      cIds,
      ownerIds,
      joined,
      typeObjects,
      tags,
      layers,
      scenes,
    ] = await Promise.all([
      c.arrayValues(copy.transforms).then(ids),
      c.arrayValues(copy.parents).then(ids),
      c.arrayValues(copy.siblings).then(nums),
      c.arrayValues(copy.active).then(bools),
      c.arrayValues(copy.instanceIds).then(nums),
      c.arrayValues(copy.components).then(ids),
      c.arrayValues(copy.owners).then(ids),
      c.text(copy.names),
      c.arrayValues(copy.types).then(ids),
      copy.tags ? c.text(copy.tags) : Promise.resolve(undefined),
      copy.layers ? c.arrayValues(copy.layers).then(nums) : Promise.resolve(undefined),
      readRoots(c, copy.scenes),
    ]);
    const names = tIds.length ? joined.split(SEPARATOR) : [];
    if (names.length !== tIds.length)
      throw new UnityError(
        'INTERNAL',
        `the objects' names did not split into ${tIds.length} (an object name holds U+001E?)`,
      );
    const types = await c.typeNames(cIds, typeObjects);
    const tagList = tags?.split(SEPARATOR);
    const tree = assemble(
      tIds,
      parentIds,
      sib,
      act,
      iid,
      cIds,
      ownerIds,
      names,
      types,
      tagList,
      layers,
      scenes,
    );
    if (copy.note !== undefined) tree.notes = [copy.note];
    return tree;
  } finally {
    await c.release(copy.held);
  }
}

function assemble(
  tIds: number[],
  parentIds: number[],
  sib: number[],
  act: boolean[],
  iid: number[],
  cIds: number[],
  ownerIds: number[],
  names: string[],
  types: string[],
  tagList: string[] | undefined,
  layerList: number[] | undefined,
  scenes: (SceneInfo & { roots: number[] })[],
): SceneTree {
  // components by owner GameObject (object id), its Transform first
  const byOwner = new Map<number, { types: string[]; ids: number[] }>();
  // per transform (object id): its entry among the components (owner, active, id, tag, layer)
  const entryOf = new Map<number, number>();
  cIds.forEach((cid, j) => {
    const type = types[j]!;
    const owner = ownerIds[j]!;
    entryOf.set(cid, j);
    let list = byOwner.get(owner);
    if (!list) byOwner.set(owner, (list = { types: [], ids: [] }));
    if (type === T || type === 'UnityEngine.RectTransform') {
      list.types.unshift(type);
      list.ids.unshift(cid);
    } else {
      list.types.push(type);
      list.ids.push(cid);
    }
  });
  const objects: RawObject[] = tIds.map((tid, i) => {
    const j = entryOf.get(tid);
    if (j === undefined)
      throw new UnityError(
        'INTERNAL',
        `a Transform (object ${tid}) is missing from the Components found in the same window`,
      );
    const go = ownerIds[j]!;
    const o: RawObject = {
      objectId: go,
      transformId: tid,
      id: iid[j]!,
      name: names[i]!,
      activeSelf: act[j]!,
      parentTransformId: parentIds[i]!,
      sibling: sib[i]!,
      components: byOwner.get(go)?.types ?? [],
      componentIds: byOwner.get(go)?.ids ?? [],
    };
    if (tagList) o.tag = tagList[j] ?? '';
    if (layerList) o.layer = layerList[j]!;
    return o;
  });
  return buildTree(objects, scenes);
}
