// object_inspect, object_set (+ undo), object_set_active and object_destroy against the fixture's
// Level scene (SceneBuilder.BuildLevel; Enemy fields seeded from the enemy's place: health =
// 10 * e + r, kind = e % 3, spawn = (z, r, e), bounty = {gem, e}, ally = the previous enemy).
// Every write is checked in the game with eval.

// Tool results are checked as the JSON an agent gets: untyped by design.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument */

import { describe, expect, it } from 'vitest';

import { callTool } from '../mcp/server.js';
import type { Tool } from '../mcp/tool.js';
import { evalTool } from '../mcp/tools/eval.js';
import { sceneTools } from '../mcp/tools/scene.js';
import { undoTool } from '../mcp/tools/undo-tool.js';
import { useFixtureApp } from './support/fixture-app.js';

const game = useFixtureApp({ entities: 10, args: ['--level-objects', '600'] });
const byName = new Map<string, Tool>(
  [...sceneTools, evalTool, undoTool].map((t) => [t.name, t as Tool]),
);

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Failure = Error & { code: string };

async function call(name: string, args: Record<string, unknown>, caller = 'agent'): Promise<Out> {
  const r = await callTool(byName.get(name)!, args, { app: game.app, caller });
  if (r.isError)
    throw Object.assign(
      new Error((r.content[0] as { text: string }).text),
      r._meta as { code: string },
    );
  return r.structuredContent as Out;
}

async function fails(name: string, args: Record<string, unknown>): Promise<Failure> {
  try {
    await call(name, args);
  } catch (e) {
    return e as Failure;
  }
  throw new Error(`${name} did not fail`);
}

const ENEMY = 'Zone 0/Room (1)/Enemies/Enemy (2)';
const inGame = (expr: string): Promise<string> =>
  call('eval', {
    code: `UnityEngine.GameObject.Find("${ENEMY}").GetComponent<Enemy>().${expr}`,
  }).then((r) => r.value as string);

describe('object_inspect', () => {
  it('shows every serialized field kind, properties, and hidden members on request', async () => {
    const r = await call('object_inspect', { object: ENEMY, component: 'Enemy' });
    const m = Object.fromEntries(
      (r.components[0].members as Out[]).map((x) => [x.name, x]),
    ) as Record<string, Out>;
    expect(m.health!.value).toBe('21');
    expect(m.speed!.value).toBe('3.5');
    expect(m.boss!.value).toBe('False');
    expect(m.title!.value).toBe('"enemy 0.1.2"');
    expect(m.kind!.value).toBe('Boss');
    expect(m.spawn!.value).toBe('(0.00, 1.00, 2.00)');
    expect(m.tint!.type).toBe('UnityEngine.Color');
    expect(m.drops!.value).toBe('int[3] { 1, 2, 3 }');
    expect(m.loot!.value).toContain('"coin"');
    expect(m.bounty!.value).toBe('Loot { item = "gem", count = 2 }');
    expect(m.target!.value).toContain('Zone 0');
    expect(m.ally!.value).toContain('Enemy (1)');
    expect(m.secret).toMatchObject({ value: '42', serialized: true }); // [SerializeField] private
    expect(m.Level).toMatchObject({ kind: 'property', value: '2' });
    expect(m.scratch).toBeUndefined(); // [NonSerialized]
    expect(m.cooldown).toBeUndefined(); // private
    const all = await call('object_inspect', { object: ENEMY, component: 'Enemy', hidden: true });
    const hidden = (all.components[0].members as Out[]).filter((x) => x.hidden);
    expect(hidden.map((x) => x.name).sort()).toEqual(['cooldown', 'scratch']);
    // each value is what the game holds
    expect(m.health!.value).toBe(await inGame('health'));
  });

  it('lists the Transform first, and says which components an object has on a miss', async () => {
    const r = await call('object_inspect', { object: 'Player' });
    expect(r.components[0].type).toBe('UnityEngine.Transform');
    expect(r.components[0].members.find((x: Out) => x.name === 'position').value).toBe(
      '(0.00, -4.00, 0.00)',
    );
    const e = await fails('object_inspect', { object: ENEMY, component: 'Enemmy' });
    expect(e.code).toBe('COMPONENT_NOT_FOUND');
    expect(e.message).toContain('did you mean Enemy');
  });
});

describe('object_set and undo', () => {
  it('writes, reads back, journals; undo restores; undo refuses a value changed since', async () => {
    const before = await inGame('health');
    const r = await call('object_set', {
      object: ENEMY,
      component: 'Enemy',
      member: 'health',
      value: '77',
    });
    expect(r.value).toBe('77');
    expect(await inGame('health')).toBe('77');
    const id = r.writes[0].journal_id as number;
    expect(typeof id).toBe('number');
    await call('undo', { id });
    expect(await inGame('health')).toBe(before);

    const s = await call('object_set', {
      object: ENEMY,
      component: 'Enemy',
      member: 'bounty.count',
      value: 'target.bounty.count + 40',
    });
    expect(s.value).toBe('42');
    // someone else changes it: the agent's undo refuses
    await call(
      'eval',
      { code: `UnityEngine.GameObject.Find("${ENEMY}").GetComponent<Enemy>().bounty.count = 5` },
      'other',
    );
    const e = await fails('undo', { id: s.writes[0].journal_id });
    expect(e.code).toBe('UNDO_CONFLICT');
    expect(await inGame('bounty.count')).toBe('5');
  });

  it('writes a Transform property and suggests close member names', async () => {
    const r = await call('object_set', {
      object: ENEMY,
      component: 'Transform',
      member: 'localPosition',
      value: 'new Vector3(1, 2, 3)',
    });
    expect(r.value).toBe('(1.00, 2.00, 3.00)');
    await call('undo', { id: r.writes[0].journal_id });
    const back = await call('eval', {
      code: `UnityEngine.GameObject.Find("${ENEMY}").transform.localPosition`,
    });
    expect(back.value).toBe('(0.00, 0.00, 0.00)');
    const e = await fails('object_set', {
      object: ENEMY,
      component: 'Enemy',
      member: 'helth',
      value: '1',
    });
    expect(e.code).toBe('MEMBER_NOT_FOUND');
    expect(e.message).toContain('health');
  });
});

describe('the destructive gate', () => {
  it('object_set_active previews, refuses without confirm, applies with it', async () => {
    const room = 'Zone 0/Room (2)';
    const dry = await call('object_set_active', { object: room, active: false, dry_run: true });
    expect(dry.applied).toBe(false);
    expect(dry.preview.descendants).toBe(27);
    expect(dry.preview.flips).toBe(28); // the room and everything below it, all active now
    const refused = await fails('object_set_active', { object: room, active: false });
    expect(refused.code).toBe('CONFIRM_REQUIRED');
    const found = await call('eval', { code: `UnityEngine.GameObject.Find("${room}") != null` });
    expect(found.value).toBe('True'); // still active: nothing was changed
    const r = await call('object_set_active', { object: room, active: false, confirm: true });
    expect(r.after).toBe('False');
    const h = await call('scene_hierarchy', { root: room, depth: 0 });
    expect(h.nodes[0].active_self).toBe(false);
    await call('object_set_active', { object: room, active: true, confirm: true });
  });

  it('object_destroy previews, then destroys at the end of the frame', async () => {
    const crate = 'Zone 0/Room (3)/Props/Crate (2)';
    const dry = await call('object_destroy', { object: crate, dry_run: true });
    expect(dry.preview.components).toEqual(['UnityEngine.Transform', 'Crate']);
    expect((await fails('object_destroy', { object: crate })).code).toBe('CONFIRM_REQUIRED');
    const id = dry.preview.id as number;
    await call('object_destroy', { object: crate, confirm: true });
    // the next frames run (no hold): the object is gone, and its id says so
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      const r = await call('scene_find', { name: 'Crate (2)', limit: 1000 });
      gone = !r.objects.some((o: Out) => o.id === id);
    }
    expect(gone).toBe(true);
    expect((await fails('object_inspect', { object: id })).code).toBe('OBJECT_NOT_FOUND');
  });
});

describe('scene_query', () => {
  it("runs a getter of the game's own code once per object, whatever else shares its command", async () => {
    await call('eval', { code: 'Enemy.tallyReads = 0' });
    const r = await call('scene_query', {
      component: 'Enemy',
      read: ['Tally', 'Level', 'health', 'transform.localPosition'],
      limit: 1000,
    });
    expect(r.rows.length).toBeGreaterThan(100);
    expect(r.rows.every((x: Out) => x.values.Tally === x.values.health)).toBe(true);
    const reads = await call('eval', { code: 'Enemy.tallyReads' });
    expect(Number(reads.value)).toBe(r.total);
  });

  it('reads fields and property paths of every object with the component, as the game holds them', async () => {
    const r = await call('scene_query', {
      component: 'Enemy',
      read: [
        'health',
        'speed',
        'boss',
        'kind',
        'title',
        'bounty.count',
        'transform.localPosition',
        'Level',
      ],
      limit: 1000,
    });
    const count = await call('eval', {
      code: 'UnityEngine.Object.FindObjectsByType<Enemy>(UnityEngine.FindObjectsInactive.Include, UnityEngine.FindObjectsSortMode.None).Length',
    });
    expect(r.total).toBe(Number(count.value));
    expect(r.rows).toHaveLength(r.total);
    const row = r.rows.find((x: Out) => x.name === 'Enemy (7)' && x.values.title === 'enemy 0.3.7');
    // Enemy fields from SceneBuilder.BuildLevel: z 0, r 3, e 7
    expect(row.values).toEqual({
      health: 73,
      speed: 3.5,
      boss: false,
      kind: 'Archer',
      title: 'enemy 0.3.7',
      'bounty.count': 7,
      'transform.localPosition': { x: 0, y: 0, z: 0 },
      Level: 7,
    });
    // the bulk values are the per-object ones
    const one = await call('eval', {
      code: `((Enemy)UnityEngine.Object.FindObjectsByType<Enemy>(UnityEngine.FindObjectsInactive.Include, UnityEngine.FindObjectsSortMode.None)[5]).health`,
    });
    expect(r.rows[5].values.health).toBe(Number(one.value));
    // warm (the first call also made the delegates): a fixed count, not one per object
    const args = { component: 'Enemy', read: ['health', 'kind', 'transform.localPosition'] };
    const all = await call('scene_query', { ...args, limit: 1000 });
    const few = await call('scene_query', { ...args, limit: 3 });
    expect(all.cost.invokes).toBe(few.cost.invokes);
    expect(all.cost.invokes).toBeLessThanOrEqual(10);
  });

  it('where keeps exactly the objects a direct eval says match, and pages over them', async () => {
    const where = 'health < 50 && gameObject.activeSelf && kind != EnemyKind.Grunt';
    const r = await call('scene_query', {
      component: 'Enemy',
      read: ['health', 'kind'],
      where,
      limit: 1000,
    });
    // every Enemy's members read in bulk (ConvertAll of getters, no evaluator): the predicate
    // over them, here
    const every = await call('scene_query', {
      component: 'Enemy',
      read: ['health', 'kind', 'gameObject.activeSelf'],
      limit: 1000,
    });
    const expected = (every.rows as Out[])
      .filter(
        (x) =>
          x.values.health < 50 &&
          x.values['gameObject.activeSelf'] === true &&
          x.values.kind !== 'Grunt',
      )
      .map((x) => x.id as number);
    // and the game's own answer for objects on either side
    const says = (path: string) =>
      call('eval', {
        code: `var e = UnityEngine.GameObject.Find("${path}").GetComponent<Enemy>(); e.health < 50 && e.gameObject.activeSelf && e.kind != EnemyKind.Grunt`,
      }).then((x) => x.value as string);
    const idOf = (path: string) =>
      call('eval', { code: `UnityEngine.GameObject.Find("${path}").GetInstanceID()` }).then((x) =>
        Number(x.value),
      );
    expect(await says(ENEMY)).toBe('True');
    expect(r.rows.map((x: Out) => x.id)).toContain(await idOf(ENEMY));
    const grunt = 'Zone 0/Room (1)/Enemies/Enemy (0)'; // health 1, a Grunt
    expect(await says(grunt)).toBe('False');
    expect(r.rows.map((x: Out) => x.id)).not.toContain(await idOf(grunt));
    expect(expected.length).toBeGreaterThan(5);
    expect(r.total).toBe(expected.length);
    expect(r.scanned).toBeGreaterThan(r.total);
    expect(r.rows.map((x: Out) => x.id).sort()).toEqual([...expected].sort());
    for (const row of r.rows) {
      expect(row.values.health).toBeLessThan(50);
      expect(row.values.kind).not.toBe('Grunt');
    }
    // Enemy (3) of odd rooms is inactive: health 30 + r, kind Archer; never kept
    expect(r.rows.some((x: Out) => x.name === 'Enemy (3)' && x.values.health % 2 === 1)).toBe(
      false,
    );
    const page = await call('scene_query', {
      component: 'Enemy',
      read: ['health'],
      where,
      limit: 2,
      offset: 1,
    });
    expect(page.total).toBe(r.total);
    expect(page.rows.map((x: Out) => [x.id, x.values.health])).toEqual(
      r.rows.slice(1, 3).map((x: Out) => [x.id, x.values.health]),
    );
  });

  it('refuses a broken where before anything runs in the game', async () => {
    const syntax = await fails('scene_query', {
      component: 'Enemy',
      read: ['health'],
      where: 'health <',
    });
    expect(syntax.code).toBe('PARSE_ERROR');
    const notBool = await fails('scene_query', {
      component: 'Enemy',
      read: ['health'],
      where: 'health + 1',
    });
    expect(notBool.code).toBe('EVAL_COMPILE');
    const missing = await fails('scene_query', {
      component: 'Enemy',
      read: ['health'],
      where: 'helth < 5',
    });
    expect(missing.code).toBe('NAME_NOT_FOUND');
    // a write in a predicate that does not compile is not made: health stays as the game seeded it
    const before = await inGame('health');
    const write = await fails('scene_query', {
      component: 'Enemy',
      read: ['health'],
      where: '(health = 1) + "x"',
    });
    expect(write.code).toBe('EVAL_COMPILE');
    expect(await inGame('health')).toBe(before);
  });

  it('pages, and suggests close names for a type or member', async () => {
    const a = await call('scene_query', { component: 'Crate', read: ['contents'], limit: 5 });
    const b = await call('scene_query', {
      component: 'Crate',
      read: ['contents'],
      limit: 5,
      offset: 5,
    });
    expect(a.next).toBe(5);
    expect(b.rows[0].values.contents).toBe(0); // crates 0-4 per room
    expect(a.rows.map((x: Out) => x.values.contents)).toEqual([0, 1, 2, 3, 4]);
    expect(
      (await fails('scene_query', { component: 'Crat', read: ['contents'] })).message,
    ).toContain('Crate');
    expect(
      (await fails('scene_query', { component: 'Crate', read: ['content'] })).message,
    ).toContain('contents');
  });
});
