// The scene operations as the tools call them: each is one suspend window of the session that
// takes the bulk snapshot (scene-snapshot.ts) or the scene list, then works on it without the
// game (scene-tree.ts). A cached object the game collected between calls (INVALID_OBJECT) is
// fetched again and the operation retried once.

import {
  sumCosts,
  type GameSession,
  type OperationContext,
  type OperationResult,
} from '../session/session.js';
import { isCollected, SceneCalls } from './scene-calls.js';
import { sceneQuery, type SceneQueryArgs, type SceneQueryResult } from './scene-query.js';
import {
  copySnapshot,
  loadedScenes,
  readSnapshot,
  type SnapshotOptions,
} from './scene-snapshot.js';
import {
  find,
  hierarchy,
  type FindArgs,
  type HierarchyArgs,
  type HierarchyPage,
  type SceneInfo,
  type SceneTree,
  type TreeNode,
} from './scene-tree.js';

async function withCalls<T>(ctx: OperationContext, op: (c: SceneCalls) => Promise<T>): Promise<T> {
  const c = new SceneCalls(ctx);
  try {
    return await op(c);
  } catch (e) {
    if (!isCollected(e)) throw e;
    c.forgetObjects();
    return op(c);
  }
}

export function sceneRead<T>(
  session: GameSession,
  caller: string,
  label: string,
  op: (c: SceneCalls) => Promise<T>,
): Promise<OperationResult<T>> {
  return session.run(label, caller, (ctx) => withCalls(ctx, op));
}

export interface ListedScene extends SceneInfo {
  rootCount: number;
}

export function listScenes(
  session: GameSession,
  caller: string,
): Promise<OperationResult<ListedScene[]>> {
  return sceneRead(session, caller, 'scene_list', async (c) =>
    (await loadedScenes(c, true)).map(({ roots, ...s }) => ({ ...s, rootCount: roots.length })),
  );
}

/**
 * The snapshot the filters need (tags and layers are read only when filtered on): the invokes
 * in one window, the copies they made read after it (kept alive by pinned slots meanwhile).
 */
export async function takeSnapshot(
  session: GameSession,
  caller: string,
  label: string,
  opts: SnapshotOptions,
): Promise<OperationResult<SceneTree>> {
  const started = performance.now();
  const copy = await sceneRead(session, caller, label, (c) => copySnapshot(c, opts));
  const read = await session.run(
    `${label} (read copies)`,
    caller,
    (ctx) => readSnapshot(new SceneCalls(ctx), copy.value),
    { window: false },
  );
  return { value: read.value, cost: sumCosts([copy.cost, read.cost], started) };
}

export async function sceneHierarchy(
  session: GameSession,
  caller: string,
  args: HierarchyArgs,
): Promise<OperationResult<HierarchyPage & { tree: SceneTree }>> {
  const r = await takeSnapshot(session, caller, 'scene_hierarchy', {
    tags: args.tag !== undefined,
    layers: args.layer !== undefined,
  });
  return { value: { ...hierarchy(r.value, args), tree: r.value }, cost: r.cost };
}

export async function sceneFind(
  session: GameSession,
  caller: string,
  args: FindArgs,
): Promise<OperationResult<{ found: TreeNode[]; total: number; offset: number; tree: SceneTree }>> {
  const r = await takeSnapshot(session, caller, 'scene_find', { tags: args.tag !== undefined });
  return { value: { ...find(r.value, args), tree: r.value }, cost: r.cost };
}

/**
 * scene_query: one window for the invokes and reads (values of one moment). Its slots are
 * emptied in the window too: after it they would wait behind the agent's RESUME (measured ~20 ms
 * more wall time under load for ~1 ms less freeze).
 */
export function querySceneObjects(
  session: GameSession,
  caller: string,
  args: SceneQueryArgs,
): Promise<OperationResult<SceneQueryResult>> {
  return sceneRead(session, caller, 'scene_query', async (c) => {
    try {
      return await sceneQuery(c, args);
    } finally {
      await c.release();
    }
  });
}
