// The scene tools against the fixture's scenes, through callTool as an agent calls them:
// SampleScene (SceneBuilder.Build) and the additive "Level" of 5,000 GameObjects
// (SceneBuilder.BuildLevel: Zone z / Room (r) / Enemies / Enemy (e) / Weapon and Room (r) /
// Props / Crate (c); Enemy (3) of odd rooms inactive; enemies tagged "Enemy" on layer 8, crates
// on layer 9). Checked against what the game itself says (eval), never against numbers alone.

// Tool results are checked as the JSON an agent gets: untyped by design.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument */

import { describe, expect, it } from 'vitest';

import { callTool } from '../mcp/server.js';
import type { Tool } from '../mcp/tool.js';
import { evalTool } from '../mcp/tools/eval.js';
import { sceneTools } from '../mcp/tools/scene.js';
import { SCENE_TEXT_CHARS } from '../mcp/tools/scene-format.js';
import { MAX_WHERE_OBJECTS } from '../unity/scene/scene-query.js';
import { useFixtureApp } from './support/fixture-app.js';

const LEVEL = 5000;
const game = useFixtureApp({ entities: 10, args: ['--level-objects', String(LEVEL)] });

const byName = new Map<string, Tool>([...sceneTools, evalTool].map((t) => [t.name, t as Tool]));

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Failure = Error & { code: string; suggestions?: string[] };

async function raw(name: string, args: Record<string, unknown>) {
  return callTool(byName.get(name)!, args, { app: game.app, caller: 'agent' });
}

async function call(name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await raw(name, args);
  if (r.isError) {
    const text = (r.content[0] as { text: string }).text;
    throw Object.assign(new Error(text), r._meta as { code: string });
  }
  return { ...(r.structuredContent as Out), text: (r.content[0] as { text: string }).text };
}

async function fails(name: string, args: Record<string, unknown>): Promise<Failure> {
  try {
    await call(name, args);
  } catch (e) {
    return e as Failure;
  }
  throw new Error(`${name} did not fail`);
}

async function evalValue(code: string): Promise<string> {
  return (await call('eval', { code })).value as string;
}

describe('scene_list', () => {
  it('lists the loaded scenes as SceneManager does, the active one marked', async () => {
    const r = await call('scene_list', {});
    expect(r.scenes.map((s: Out) => [s.name, s.path, s.build_index, s.active])).toEqual([
      ['SampleScene', 'Assets/Scenes/SampleScene.unity', 0, true],
      ['Level', 'Assets/Scenes/Level.unity', 1, false],
    ]);
    const roots = await evalValue(
      'UnityEngine.SceneManagement.SceneManager.GetSceneAt(1).GetRootGameObjects().Length',
    );
    expect(r.scenes[1].root_count).toBe(Number(roots));
  });
});

describe('scene_hierarchy', () => {
  it('reads the whole 5,000-object scene in a fixed number of invokes, bounded by default', async () => {
    const r = await call('scene_hierarchy', {});
    const count = Number(
      await evalValue(
        'UnityEngine.Object.FindObjectsByType<UnityEngine.GameObject>(UnityEngine.FindObjectsInactive.Include, UnityEngine.FindObjectsSortMode.None).Length',
      ),
    );
    expect(r.objects).toBe(count);
    expect(count).toBeGreaterThan(LEVEL);
    expect(r.nodes).toHaveLength(200);
    expect(r.next).toBe(200);
    expect(r.cost.invokes).toBeLessThanOrEqual(50); // the first call also makes the delegates
    const again = await call('scene_hierarchy', {});
    expect(again.cost.invokes).toBeLessThanOrEqual(20);
    expect(r.text.length).toBeLessThanOrEqual(SCENE_TEXT_CHARS + 200 /* the cost line */);
    // depth 3 by default: Weapon (level 4 below a zone) is never listed, its enemy says so
    expect(r.nodes.every((n: Out) => n.level <= 3)).toBe(true);
    const enemy = r.nodes.find((n: Out) => n.path === 'Zone 0/Room (0)/Enemies/Enemy (0)');
    expect(enemy.hidden_children).toBe(1);
    expect(r.text).toContain(`Enemy (0) [${enemy.id}] : Enemy (+1 children)`);
  });

  it('pages: consecutive offsets cover the listing once, in order', async () => {
    const a = await call('scene_hierarchy', { root: 'Zone 0', depth: 5, limit: 100 });
    const b = await call('scene_hierarchy', {
      root: 'Zone 0',
      depth: 5,
      limit: 100,
      offset: a.next,
    });
    const all = await call('scene_hierarchy', { root: 'Zone 0', depth: 5, limit: 200 });
    expect([...a.nodes, ...b.nodes].map((n: Out) => n.id)).toEqual(all.nodes.map((n: Out) => n.id));
    expect(a.total).toBe(all.total);
  });

  it('depth 0 lists the start only, with its children counted', async () => {
    const r = await call('scene_hierarchy', { root: 'Zone 0/Room (2)', depth: 0 });
    expect(r.nodes).toHaveLength(1);
    const children = await evalValue(
      'UnityEngine.GameObject.Find("Zone 0/Room (2)").transform.childCount',
    );
    expect(r.nodes[0].hidden_children).toBe(Number(children));
  });

  it('walks children in sibling order and names paths with duplicate names', async () => {
    const r = await call('scene_hierarchy', { root: 'Zone 1/Room (3)/Enemies', depth: 1 });
    const names = r.nodes.slice(1).map((n: Out) => n.name);
    const inGame = await evalValue(
      'var t = UnityEngine.GameObject.Find("Zone 1/Room (3)/Enemies").transform; t.childCount + "|" + t.GetChild(0).name + "|" + t.GetChild(3).name + "|" + t.GetChild(9).name',
    );
    expect([names.length, names[0], names[3], names[9]].join('|')).toBe(JSON.parse(inGame));
    expect(r.nodes[4].path).toBe('Zone 1/Room (3)/Enemies/Enemy (3)');
  });

  it('marks inactive objects and children of inactive parents', async () => {
    const r = await call('scene_hierarchy', {
      root: 'Zone 0/Room (1)/Enemies/Enemy (3)',
      depth: 1,
    });
    expect(r.nodes[0]).toMatchObject({ active_self: false, active_in_hierarchy: false });
    expect(r.nodes[1]).toMatchObject({
      name: 'Weapon',
      active_self: true,
      active_in_hierarchy: false,
    });
    expect(r.text).toContain('Enemy (3) [');
    expect(r.text).toContain('(inactive)');
    expect(r.text).toContain('(inactive parent)');
    const self = await evalValue(
      'UnityEngine.GameObject.Find("Zone 0/Room (1)/Enemies") .transform.Find("Enemy (3)").gameObject.activeSelf',
    );
    expect(self).toBe('False');
  });

  it('filters by name glob, component, tag, layer and active state', async () => {
    const byName = await call('scene_hierarchy', {
      scene: 'Level',
      name: 'Crate (4)',
      limit: 1000,
    });
    const crates4 = byName.nodes.filter((n: Out) => n.match);
    expect(crates4.length).toBe(byName.matches);
    expect(crates4.every((n: Out) => n.name === 'Crate (4)')).toBe(true);
    expect(byName.nodes.filter((n: Out) => !n.match).every((n: Out) => n.children > 0)).toBe(true);

    const glob = await call('scene_find', { name: 'Room (?)', scene: 'Level', limit: 1000 });
    expect(glob.objects.every((o: Out) => /^Room \(\d\)$/.test(o.name))).toBe(true);

    const crates = await call('scene_hierarchy', { component: 'Crate', limit: 1 });
    const crateCount = await evalValue(
      'UnityEngine.Object.FindObjectsByType<Crate>(UnityEngine.FindObjectsInactive.Include, UnityEngine.FindObjectsSortMode.None).Length',
    );
    expect(crates.matches).toBe(Number(crateCount));

    const tagged = await call('scene_hierarchy', { tag: 'Enemy', active: true, limit: 1 });
    const activeEnemies = await evalValue(
      'UnityEngine.GameObject.FindGameObjectsWithTag("Enemy").Length',
    );
    expect(tagged.matches).toBe(Number(activeEnemies));

    const layer9 = await call('scene_hierarchy', { layer: 9, limit: 1 });
    expect(layer9.matches).toBe(Number(crateCount));

    const inactive = await call('scene_hierarchy', { scene: 'Level', active: false, limit: 1000 });
    const matched = inactive.nodes.filter((n: Out) => n.match);
    expect(matched.every((n: Out) => n.active_in_hierarchy === false)).toBe(true);
    expect(matched.some((n: Out) => n.name === 'Weapon')).toBe(true);
  });

  it('says what a misspelt component, scene or path could be', async () => {
    const c = await fails('scene_hierarchy', { component: 'Enemmy' });
    expect(c.code).toBe('TYPE_NOT_FOUND');
    expect(c.message).toContain('Enemy');
    const s = await fails('scene_hierarchy', { scene: 'Levle' });
    expect(s.message).toContain('Level');
    const p = await fails('scene_hierarchy', { root: 'Zone 0/Room (1)/Enemis' });
    expect(p.code).toBe('OBJECT_NOT_FOUND');
    expect(p.message).toContain('"Enemies"');
  });

  it('a GameObject destroyed between two calls is a clear error, not a crash', async () => {
    const r = await call('scene_find', { path: 'Zone 2/Room (5)/Props/Crate (1)' });
    const id = r.objects[0].id;
    await call('eval', {
      code: 'UnityEngine.Object.DestroyImmediate(UnityEngine.GameObject.Find("Zone 2/Room (5)/Props/Crate (1)"))',
    });
    const e = await fails('scene_hierarchy', { root: id });
    expect(e.code).toBe('OBJECT_NOT_FOUND');
    expect(e.message).toContain(String(id));
    const after = await call('scene_find', { path: 'Zone 2/Room (5)/Props/Crate (0)' });
    expect(after.objects).toHaveLength(1);
  });

  it('no reply goes over the text bound, even at the largest limit', async () => {
    const r = await call('scene_hierarchy', { depth: 64, limit: 1000 });
    expect(r.nodes).toHaveLength(1000);
    expect(r.text.length).toBeLessThanOrEqual(SCENE_TEXT_CHARS + 200 /* the cost line */);
    const f = await call('scene_find', { name: '*', limit: 1000 });
    expect(f.text.length).toBeLessThanOrEqual(SCENE_TEXT_CHARS + 200 /* the cost line */);
    expect(f.total).toBe(r.objects);
  });
});

describe('scene_find', () => {
  it('finds by path, name, component and tag, with paths', async () => {
    const byPath = await call('scene_find', { path: 'Zone 0/Room (4)/Enemies/Enemy (3)' });
    expect(byPath.objects[0]).toMatchObject({ name: 'Enemy (3)', scene: 'Level' });
    expect(byPath.objects[0].components).toEqual(['UnityEngine.Transform', 'Enemy']);
    const id = await evalValue(
      'UnityEngine.GameObject.Find("Zone 0/Room (4)/Enemies/Enemy (3)").GetInstanceID()',
    );
    expect(byPath.objects[0].id).toBe(Number(id));

    const dup = await call('scene_find', { name: 'Enemy (3)', limit: 1000 });
    // SampleScene's Enemies/Enemy (3) and one per room of the Level
    expect(dup.objects[0].path).toBe('Enemies/Enemy (3)');
    expect(new Set(dup.objects.map((o: Out) => o.path as string)).size).toBe(dup.total);

    const cams = await call('scene_find', { component: 'UnityEngine.Camera' });
    expect(cams.objects.map((o: Out) => o.path)).toEqual(['Main Camera']);
    const players = await call('scene_find', { tag: 'Player' });
    expect(players.objects.map((o: Out) => o.path)).toEqual(['Player']);
  });

  it('suggests close names for a name that matches nothing', async () => {
    const e = await fails('scene_find', { name: 'Spiner' });
    expect(e.code).toBe('OBJECT_NOT_FOUND');
    expect(e.message).toContain('"Spinner"');
  });

  it('an ambiguous path lists the candidates with their ids', async () => {
    await call('eval', {
      code: 'var g = new UnityEngine.GameObject("Twin"); var h = new UnityEngine.GameObject("Twin"); g.GetInstanceID()',
    });
    const e = await fails('scene_find', { path: 'Twin' });
    expect(e.code).toBe('AMBIGUOUS_NAME');
    expect(e.message).toMatch(/Twin \[-?\d+\].*Twin \[-?\d+\]/);
  });
});

describe('scene_query where', () => {
  it('is refused over more objects than it runs for, saying how many', async () => {
    const count = Number(
      await evalValue(
        'UnityEngine.Object.FindObjectsByType<Enemy>(UnityEngine.FindObjectsInactive.Include, UnityEngine.FindObjectsSortMode.None).Length',
      ),
    );
    expect(count).toBeGreaterThan(MAX_WHERE_OBJECTS);
    const e = await fails('scene_query', {
      component: 'Enemy',
      read: ['health'],
      where: 'health < 50',
    });
    expect(e.code).toBe('TOO_MANY_OBJECTS');
    expect(e.message).toContain(String(count));
    // without where the same query answers, bounded by limit
    const r = await call('scene_query', { component: 'Enemy', read: ['health'], limit: 3 });
    expect(r.total).toBe(count);
  });
});
