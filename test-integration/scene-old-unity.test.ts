// The scene tools on players older than Object.FindObjectsByType (2021.3.18 / 2022.2): the
// fixture built as a 2020.3 player (FindObjectsOfType<T>(bool) only) and as a 2019.4 one
// (FindObjectsOfType<T>() finds active objects only; Resources.FindObjectsOfTypeAll<T>() finds
// inactive ones and assets too), each with `--prefabs`: Enemy prefab assets in no scene, which
// no scene tool may list. Every old build must list what the default build lists, say in a note
// how it found the objects, and keep a fixed number of invokes (the same at 300 and 600 objects).

// Tool results are checked as the JSON an agent gets: untyped by design.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument */

import { describe, expect, it } from 'vitest';

import { callTool } from '../mcp/server.js';
import type { Tool } from '../mcp/tool.js';
import { evalTool } from '../mcp/tools/eval.js';
import { sceneTools } from '../mcp/tools/scene.js';
import { useFixtureApp, type FixtureApp } from './support/fixture-app.js';

const PREFABS = 4;
const game = (level: number, defines: string[] = []): FixtureApp =>
  useFixtureApp({
    entities: 0,
    fps: 30,
    defines,
    args: ['--level-objects', String(level), '--prefabs', String(PREFABS)],
  });

const current = game(300);
const u2020 = { 300: game(300, ['UNITY_2020_3']), 600: game(600, ['UNITY_2020_3']) };
const u2019 = { 300: game(300, ['UNITY_2019_4']), 600: game(600, ['UNITY_2019_4']) };
// no Unity is known without Resources.FindObjectsOfTypeAll: the last fallback, checked anyway
const stripped = game(300, ['UNITY_2019_4', 'NO_FIND_OBJECTS_OF_TYPE_ALL']);

const byName = new Map<string, Tool>([...sceneTools, evalTool].map((t) => [t.name, t as Tool]));

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function raw(g: FixtureApp, name: string, args: Record<string, unknown>) {
  return callTool(byName.get(name)!, args, { app: g.app, caller: 'agent' });
}

async function call(g: FixtureApp, name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await raw(g, name, args);
  const text = (r.content[0] as { text: string }).text;
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  return { ...(r.structuredContent as Out), text };
}

async function count(g: FixtureApp, code: string): Promise<number> {
  return Number((await call(g, 'eval', { code })).value);
}

const ALL = { depth: 64, limit: 1000 };
/** What an object is, build-independent: path, activity and components. */
const shape = (n: Out): string =>
  `${n.scene}:${n.path} ${n.active_self}/${n.active_in_hierarchy} ${n.components.join(',')}`;

const versions = [
  {
    name: '2020.3',
    games: u2020,
    api: 'FindObjectsOfType<T>(includeInactive: true)',
    missing: 'FindObjectsByType',
  },
  {
    name: '2019.4',
    games: u2019,
    api: 'Resources.FindObjectsOfTypeAll<T>()',
    missing: 'FindObjectsOfType<Enemy>(true)',
  },
] as const;

describe('the old-Unity fixture builds', () => {
  it('lack the APIs of newer players, and hold prefab assets no scene find returns', async () => {
    const byType =
      'UnityEngine.Object.FindObjectsByType<Enemy>(UnityEngine.FindObjectsSortMode.None)';
    expect((await raw(current, 'eval', { code: `${byType}.Length` })).isError).toBeFalsy();
    expect((await raw(u2020[300], 'eval', { code: `${byType}.Length` })).isError).toBe(true);
    const withBool = 'UnityEngine.Object.FindObjectsOfType<Enemy>(true).Length';
    expect((await raw(u2020[300], 'eval', { code: withBool })).isError).toBeFalsy();
    expect((await raw(u2019[300], 'eval', { code: withBool })).isError).toBe(true);
    // the prefabs: found by Resources.FindObjectsOfTypeAll only
    const all = await count(
      u2019[300],
      'UnityEngine.Resources.FindObjectsOfTypeAll<Enemy>().Length',
    );
    const active = await count(u2019[300], 'UnityEngine.Object.FindObjectsOfType<Enemy>().Length');
    const inScenes = await count(u2020[300], withBool);
    expect(all).toBe(inScenes + PREFABS);
    expect(active).toBeLessThan(inScenes); // the level has inactive enemies
  });
});

for (const v of versions) {
  describe(`a Unity ${v.name} player (no ${v.missing})`, () => {
    const g = v.games[300];

    it('scene_hierarchy lists the objects the current build lists, inactive ones too, with a note', async () => {
      const want = await call(current, 'scene_hierarchy', ALL);
      const got = await call(g, 'scene_hierarchy', ALL);
      expect(want.notes).toBeUndefined();
      expect(want.text).not.toContain('note:');
      expect(got.objects).toBe(want.objects);
      expect(got.nodes.map(shape)).toEqual(want.nodes.map(shape));
      expect(got.nodes.some((n: Out) => !n.active_in_hierarchy)).toBe(true);
      expect(got.nodes.some((n: Out) => n.name.startsWith('Enemy Prefab'))).toBe(false);
      // the game's own count: its active GameObjects are the listed ones active in the hierarchy
      const active = await count(
        g,
        'UnityEngine.Object.FindObjectsOfType<UnityEngine.GameObject>().Length',
      );
      expect(got.nodes.filter((n: Out) => n.active_in_hierarchy)).toHaveLength(active);
      expect(got.notes).toHaveLength(1);
      expect(got.notes[0]).toContain(v.api);
      expect(got.text).toContain(`note: ${got.notes[0]}`);
    });

    it('scene_find finds inactive objects and never a prefab asset, with a note', async () => {
      const want = await call(current, 'scene_find', { component: 'Enemy', limit: 1000 });
      const got = await call(g, 'scene_find', { component: 'Enemy', limit: 1000 });
      expect(got.total).toBe(want.total);
      expect(got.objects.map(shape)).toEqual(want.objects.map(shape));
      expect(got.objects.some((n: Out) => !n.active_self)).toBe(true);
      const inScenes = await count(
        u2020[300],
        'UnityEngine.Object.FindObjectsOfType<Enemy>(true).Length',
      );
      expect(got.total).toBe(inScenes);
      expect(got.notes[0]).toContain(v.api);
      expect(got.text).toContain('note: ');
    });

    it('scene_query reads the components of the scenes only, with a note', async () => {
      const args = { component: 'Enemy', read: ['health', 'title'], limit: 1000 };
      const want = await call(current, 'scene_query', args);
      const got = await call(g, 'scene_query', args);
      const row = (r: Out): string => `${r.name} ${r.values.health} ${r.values.title}`;
      expect(got.total).toBe(want.total);
      expect(got.rows.map(row).sort()).toEqual(want.rows.map(row).sort());
      expect(got.rows.some((r: Out) => String(r.values.title).startsWith('prefab'))).toBe(false);
      expect(want.notes).toBeUndefined();
      expect(got.notes[0]).toContain(v.api);
      expect(got.text).toContain(`note: ${got.notes[0]}`);
    });

    it('spends the same invokes at 300 and at 600 objects', async () => {
      const warm = async (at: FixtureApp, name: string, args: Record<string, unknown>) => {
        await call(at, name, args); // the first call also makes the delegates
        return (await call(at, name, args)).cost.invokes as number;
      };
      for (const [name, args] of [
        ['scene_hierarchy', {}],
        ['scene_find', { name: 'Enemy (3)' }],
        ['scene_query', { component: 'Enemy', read: ['health'] }],
      ] as const) {
        const small = await warm(v.games[300], name, args);
        const big = await warm(v.games[600], name, args);
        expect(big, name).toBe(small);
        expect(small, name).toBeLessThanOrEqual(40);
      }
    });
  });
}

describe('a player with FindObjectsOfType<T>() alone (active objects only)', () => {
  it('lists the active objects, and the note says inactive ones are missing', async () => {
    const want = await call(current, 'scene_hierarchy', ALL);
    const got = await call(stripped, 'scene_hierarchy', ALL);
    const active = want.nodes.filter((n: Out) => n.active_in_hierarchy);
    expect(active.length).toBeLessThan(want.nodes.length);
    expect(got.nodes.map(shape)).toEqual(active.map(shape));
    expect(got.notes[0]).toContain('INACTIVE OBJECTS ARE MISSING');
    expect(got.text).toContain(`note: ${got.notes[0]}`);
    const q = await call(stripped, 'scene_query', { component: 'Enemy', read: ['health'] });
    expect(q.total).toBe(
      await count(stripped, 'UnityEngine.Object.FindObjectsOfType<Enemy>().Length'),
    );
    expect(q.notes[0]).toContain('INACTIVE OBJECTS ARE MISSING');
  });

  it('an object tool asked for an inactive object says why it is not found', async () => {
    const want = await call(current, 'scene_hierarchy', ALL);
    const inactive = want.nodes.find((n: Out) => n.scene === 'Level' && !n.active_self);
    expect((await call(current, 'object_inspect', { object: inactive.path })).text).toContain(
      inactive.name,
    );
    const r = await raw(stripped, 'object_inspect', { object: inactive.path });
    expect(r.isError).toBe(true);
    const text = (r.content[0] as { text: string }).text;
    expect(text).toContain('OBJECT_NOT_FOUND');
    expect(text).toContain('INACTIVE OBJECTS ARE MISSING');
  });
});
