// The ECS tools against the fixture's seeded world, through callTool as an agent calls them:
// queries by all/any/none, bulk values equal per-entity values, writes read back in the game,
// buffers, scratch entities, the destructive gate, undo, and clear errors that change nothing.
// Fixture data (WorldBuilder.cs), per entity i: Velocity unless i % 5 == 4; EnemyTag + Health
// when i % 5 == 4; Waypoint x8 when i % 10 == 3; Unit when i % 20 == 0; Stunned (enableable,
// a seeded third of them disabled) when i % 8 == 1.

// Tool results are checked as the JSON an agent gets: untyped by design.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return */

import { describe, expect, it } from 'vitest';

import { callTool } from '../mcp/server.js';
import { UnityError } from '../unity/errors.js';
import type { Tool } from '../mcp/tool.js';
import { ecsTools } from '../mcp/tools/ecs.js';
import { evalTool } from '../mcp/tools/eval.js';
import { useFixtureApp } from './support/fixture-app.js';

const ENTITIES = 400;

const game = useFixtureApp({ entities: ENTITIES });

const byName = new Map<string, Tool>([...ecsTools, evalTool].map((t) => [t.name, t as Tool]));

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(name: string, args: Record<string, unknown>, caller = 'agent'): Promise<Out> {
  const r = await callTool(byName.get(name)!, args, { app: game.app, caller });
  if (r.isError) {
    const text = (r.content[0] as { text: string }).text;
    const meta = r._meta as {
      code: string;
      details?: Record<string, unknown>;
      suggestions?: string[];
    };
    throw Object.assign(new Error(text), meta);
  }
  return r.structuredContent as Out;
}

type Failure = Error & { code: string; details?: Record<string, any>; suggestions?: string[] }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function fails(name: string, args: Record<string, unknown>): Promise<Failure> {
  try {
    await call(name, args);
  } catch (e) {
    return e as Failure;
  }
  throw new Error(`${name} did not fail`);
}

async function evalText(code: string): Promise<string> {
  return (await call('eval', { code })).value as string;
}

const ids = (q: Out): string[] =>
  (q.entities as Out[]).map((e) => `${e.index}:${e.version}`).sort();

/** Entities ("index:version") that have every component of `all`, the first `n` (skipping `skip`). */
async function some(all: string[], n = 1, skip = 0): Promise<string[]> {
  const q = await call('ecs_query', { all, limit: n, offset: skip });
  return (q.entities as Out[]).map((e) => `${e.index}:${e.version}`);
}

/** The evaluator's spelling of an entity. */
const inGame = (e: string): string => `entity(${e.replace(':', ', ')})`;

async function queryAll(args: Record<string, unknown>): Promise<Out> {
  return call('ecs_query', { limit: 10_000, ...args });
}

describe('ecs_worlds', () => {
  it('walks World.All with entity counts and marks the default world', async () => {
    const r = await call('ecs_worlds', {});
    const names = (r.worlds as Out[]).map((w) => w.name);
    expect(names).toEqual(['Default World', 'Fixture Secondary World']);
    const [main, second] = r.worlds as Out[];
    expect(main!.is_default).toBe(true);
    expect(second!.is_default).toBe(false);
    // the seeded entities plus the WorldTime singleton
    expect(main!.entities).toBe(ENTITIES + 1);
    expect(second!.entities).toBe(11);
  });
});

describe('ecs_query', () => {
  it('selects by all, any and none', async () => {
    const health = await queryAll({ all: ['Health'] });
    expect(health.total).toBe(ENTITIES / 5);
    expect(ids(await queryAll({ all: ['EnemyTag'] }))).toEqual(ids(health));
    // none: the entities with a transform but no Velocity are exactly the Health ones
    const noVelocity = await queryAll({ all: ['LocalTransform'], none: ['Velocity'] });
    expect(ids(noVelocity)).toEqual(ids(health));
    // any: Health and Unit never share an entity, so any is their union
    const unit = await queryAll({ all: ['Unit'] });
    expect(unit.total).toBe(ENTITIES / 20);
    const either = await queryAll({ any: ['Health', 'Unit'] });
    expect(ids(either)).toEqual([...ids(health), ...ids(unit)].sort());
    // any with all and none together
    const mixed = await queryAll({
      all: ['Velocity'],
      any: ['Unit', 'Waypoint'],
      none: ['EnemyTag'],
    });
    const waypoints = await queryAll({ all: ['Waypoint'] });
    expect(ids(mixed)).toEqual([...ids(unit), ...ids(waypoints)].sort());
    expect(mixed.total).toBe(ENTITIES / 20 + ENTITIES / 10);
  });

  it('pages with offset and limit', async () => {
    const all = await queryAll({ all: ['Velocity'] });
    const page = await call('ecs_query', { all: ['Velocity'], offset: 10, limit: 5 });
    expect(page.total).toBe(all.total);
    expect(page.truncated).toBe(true);
    expect(page.entities).toEqual((all.entities as Out[]).slice(10, 15));
  });

  it('bulk values equal per-entity values for every entity', async () => {
    await game.app.session.hold('agent'); // one frame for both reads: MoveSystem moves entities each frame
    try {
      const bulk = await queryAll({ all: ['Velocity'], read: ['LocalTransform', 'Velocity'] });
      expect(bulk.total).toBe((ENTITIES * 4) / 5);
      expect(bulk.cost.invokes).toBeLessThanOrEqual(12);
      for (const e of bulk.entities as Out[]) {
        for (const c of ['Unity.Transforms.LocalTransform', 'Velocity']) {
          const one = await call('ecs_get_component', {
            entity: `${e.index}:${e.version}`,
            component: c,
          });
          expect(one.value, `${c} of ${e.index}`).toEqual(e.components[c]);
        }
      }
      const units = await queryAll({ read: ['Unit'] });
      expect(units.total).toBe(ENTITIES / 20);
      for (const e of units.entities as Out[]) {
        const one = await call('ecs_get_component', {
          entity: `${e.index}:${e.version}`,
          component: 'Unit',
        });
        expect(one.value).toEqual(e.components.Unit);
        expect(['Infantry', 'Archer', 'Cavalry']).toContain(one.value.Kind);
      }
    } finally {
      await game.app.session.release('agent');
    }
  });

  it('reads in bulk on the fast path: no fallback, invokes set by the components read, not the entities', async () => {
    const invokes = async (args: Record<string, unknown>): Promise<number> => {
      await queryAll(args); // types and generic methods resolved: the second run is the steady one
      const r = await queryAll(args);
      expect(r).not.toHaveProperty('fallback');
      return r.cost.invokes as number;
    };
    const velocity = await invokes({ all: ['Velocity'], read: ['Velocity'] });
    // each component read is one ToComponentDataArray and one ToArray for the whole query
    expect(await invokes({ all: ['Velocity'], read: ['LocalTransform', 'Velocity'] })).toBe(
      velocity + 2,
    );
    // 20 entities or 320: the same invokes
    expect(await invokes({ all: ['Unit'], read: ['Velocity'] })).toBe(velocity);
  });

  it('says so when the copies cannot be read after the window, and reads them in one instead', async () => {
    const session = game.app.session;
    const run = session.run.bind(session);
    const logged: string[] = [];
    const log = session.log;
    const writable = session as { run: typeof session.run; log: (m: string) => void };
    // the copies were collected as the game ran on: their read fails
    writable.run = (label, caller, op, opts) =>
      label === 'ecs_query (read copies)'
        ? Promise.reject(new UnityError('INTERNAL', 'injected: the copy is gone'))
        : run(label, caller, op, opts);
    writable.log = (m) => logged.push(m);
    try {
      const r = await callTool(
        byName.get('ecs_query')!,
        { all: ['Unit'], read: ['Unit'] },
        { app: game.app, caller: 'agent' },
      );
      const out = r.structuredContent as Out;
      expect(out.total).toBe(ENTITIES / 20);
      expect((out.entities as Out[]).every((e) => e.components.Unit !== undefined)).toBe(true);
      expect(out.fallback).toMatch(/INTERNAL: injected: the copy is gone/);
      expect((r.content[0] as { text: string }).text).toContain(`fallback: ${out.fallback}`);
      expect(logged).toEqual([`ecs_query: ${out.fallback}`]);
    } finally {
      writable.run = run;
      writable.log = log;
    }
  });

  it('refuses buffers in read, and a type in both all and none', async () => {
    expect((await fails('ecs_query', { read: ['Waypoint'] })).code).toBe('INVALID_ARGUMENT');
    expect((await fails('ecs_query', { all: ['Health'], none: ['Health'] })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });
});

describe('components', () => {
  it("lists an entity's components by runtime name, with values and followed Entity fields", async () => {
    const [withUnit] = await some(['Unit'], 1, 1); // the first Unit's Target is Entity.Null
    const r = await call('ecs_list_components', { entity: withUnit, follow: true });
    const names = (r.components as Out[]).map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Unity.Transforms.LocalTransform',
        'Unity.Transforms.LocalToWorld',
        'Velocity',
        'Team',
        'Unit',
      ]),
    );
    expect((r.components as Out[]).find((c) => c.name === 'Team')!.kind).toBe('shared');
    const unit = (r.components as Out[]).find((c) => c.name === 'Unit')!;
    expect(unit.value.Target.Index).toBeGreaterThan(0);
    expect(unit.references.Target).toMatchObject({ index: unit.value.Target.Index, exists: true });
    expect(unit.references.Target.components).toContain('Velocity');
    const [enemy] = await some(['EnemyTag']);
    const tagged = await call('ecs_list_components', { entity: enemy });
    expect((tagged.components as Out[]).find((c) => c.name === 'EnemyTag')!.kind).toBe('tag');
    expect((tagged.components as Out[]).find((c) => c.name === 'Health')!.kind).toBe('component');
  });

  it('sets a nested struct field and an enum, reads them back in the game', async () => {
    const [e] = await some(['Unit'], 1, 2);
    const before = await call('ecs_get_component', { entity: e, component: 'Unit' });
    const r = await call('ecs_set_component', {
      entity: e,
      component: 'Unit',
      field: 'Stats.Level',
      value: 77,
    });
    expect(r.applied).toBe(true);
    expect(r.changes[0].before).toEqual(before.value);
    expect(r.changes[0].after.Stats.Level).toBe(77);
    expect(r.changes[0].after.Stats.Speed).toBe(before.value.Stats.Speed);
    const v = `${r.changes[0].entity.index}, ${r.changes[0].entity.version}`;
    expect(r.changes[0].entity).toEqual({
      index: Number(e!.split(':')[0]),
      version: Number(e!.split(':')[1]),
    });
    expect(await evalText(`em.GetComponentData<Unit>(entity(${v})).Stats.Level`)).toBe('77');
    await call('ecs_set_component', {
      entity: e,
      component: 'Unit',
      value: { Kind: 'Cavalry', Selected: false },
    });
    expect(await evalText(`em.GetComponentData<Unit>(entity(${v})).Kind`)).toBe('Cavalry');
    expect(await evalText(`em.GetComponentData<Unit>(entity(${v})).Stats.Level`)).toBe('77');
  });

  it('an absent component and an unknown name are clear errors that change nothing', async () => {
    const [mover] = await some(['Velocity']);
    const [enemy] = await some(['Health']);
    const absent = await fails('ecs_get_component', { entity: mover, component: 'Health' });
    expect(absent.code).toBe('COMPONENT_NOT_FOUND');
    const write = await fails('ecs_set_component', {
      entity: mover,
      component: 'Health',
      value: { Value: 5 },
    });
    expect(write.code).toBe('COMPONENT_NOT_FOUND');
    expect(await evalText(`em.HasComponent<Health>(${inGame(mover!)})`)).toBe('False');
    const unknown = await fails('ecs_get_component', { entity: enemy, component: 'Helth' });
    expect(unknown.code).toBe('TYPE_NOT_FOUND');
    expect(unknown.suggestions).toContain('Health');
    const notComponent = await fails('ecs_get_component', {
      entity: enemy,
      component: 'Unity.Mathematics.float3',
    });
    expect(notComponent.code).toBe('INVALID_ARGUMENT');
    const before = (await call('ecs_get_component', { entity: enemy, component: 'Health' })).value;
    const badValue = await fails('ecs_set_component', {
      entity: enemy,
      component: 'Health',
      value: { Value: 'lots' },
    });
    expect(badValue.code).toBe('INVALID_ARGUMENT');
    const badField = await fails('ecs_set_component', {
      entity: enemy,
      component: 'Health',
      field: 'Valu',
      value: 1,
    });
    expect(badField.code).toBe('MEMBER_NOT_FOUND');
    expect((await call('ecs_get_component', { entity: enemy, component: 'Health' })).value).toEqual(
      before,
    );
    const index = enemy!.split(':')[0];
    expect(
      (await fails('ecs_get_component', { entity: `${index}:99`, component: 'Health' })).code,
    ).toBe('ENTITY_NOT_FOUND');
    expect((await fails('ecs_query', { world: 'Nope' })).code).toBe('WORLD_NOT_FOUND');
  });
});

describe('buffers', () => {
  it('add, insert, set and remove_at, each read back', async () => {
    const [w] = await some(['Waypoint']);
    const [mover] = await some(['Velocity'], 1, 1);
    const start = await call('ecs_get_buffer', { entity: w, buffer: 'Waypoint' });
    expect(start.length).toBe(8);
    const p = (x: number) => ({ Position: { x, y: 0, z: 0 } });
    const add = await call('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'add',
      value: p(100),
    });
    expect(add.after).toHaveLength(9);
    expect(add.after[8].Position.x).toBe(100);
    const ins = await call('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'insert',
      index: 0,
      value: p(-1),
    });
    expect(ins.after[0].Position.x).toBe(-1);
    expect(ins.after.slice(1)).toEqual(add.after);
    const set = await call('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'set',
      index: 2,
      value: { Position: { y: 9.5 } },
    });
    expect(set.after[2].Position).toEqual({ ...ins.after[2].Position, y: 9.5 });
    const rem = await call('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'remove_at',
      index: 0,
    });
    expect(rem.after).toHaveLength(9);
    expect(rem.after[0]).toEqual(set.after[1]);
    const now = await call('ecs_get_buffer', { entity: w, buffer: 'Waypoint' });
    expect(now.elements).toEqual(rem.after);
    expect(await evalText(`em.GetBuffer<Waypoint>(${inGame(w!)}, true).Length`)).toBe('9');
    const out = await fails('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'remove_at',
      index: 9,
    });
    expect(out.code).toBe('INVALID_ARGUMENT');
    const absent = await fails('ecs_buffer_edit', {
      entity: mover,
      buffer: 'Waypoint',
      op: 'add',
      value: p(1),
    });
    expect(absent.code).toBe('COMPONENT_NOT_FOUND');
    expect(await evalText(`em.HasBuffer<Waypoint>(${inGame(mover!)})`)).toBe('False');
  });
});

describe('the destructive gate', () => {
  it('a write to several entities refuses with a preview, previews on dry_run, applies with confirm', async () => {
    const targets = await some(['Health'], 2, 1);
    const before = await Promise.all(
      targets.map((e) => call('ecs_get_component', { entity: e, component: 'Health' })),
    );
    const refused = await fails('ecs_set_component', {
      entities: targets,
      component: 'Health',
      value: { Value: 1234 },
    });
    expect(refused.code).toBe('CONFIRM_REQUIRED');
    expect(refused.details!.preview).toHaveLength(2);
    expect(refused.details!.preview[0].before).toEqual(before[0]!.value);
    expect(refused.details!.preview[0].after).toEqual({ Value: 1234 });
    const dry = await call('ecs_set_component', {
      entities: targets,
      component: 'Health',
      value: { Value: 1234 },
      dry_run: true,
    });
    expect(dry.applied).toBe(false);
    for (const [i, e] of targets.entries())
      expect((await call('ecs_get_component', { entity: e, component: 'Health' })).value).toEqual(
        before[i]!.value,
      );
    const done = await call('ecs_set_component', {
      entities: targets,
      component: 'Health',
      value: { Value: 1234 },
      confirm: true,
    });
    expect(done.applied).toBe(true);
    for (const e of targets)
      expect(await evalText(`em.GetComponentData<Health>(${inGame(e)}).Value`)).toBe('1234');
  });

  it('clearing a buffer needs confirm', async () => {
    const [w] = await some(['Waypoint'], 1, 1);
    const refused = await fails('ecs_buffer_edit', { entity: w, buffer: 'Waypoint', op: 'clear' });
    expect(refused.code).toBe('CONFIRM_REQUIRED');
    expect(refused.details!.preview.before).toHaveLength(8);
    expect((await call('ecs_get_buffer', { entity: w, buffer: 'Waypoint' })).length).toBe(8);
    const done = await call('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'clear',
      confirm: true,
    });
    expect(done.after).toEqual([]);
    expect(await evalText(`em.GetBuffer<Waypoint>(${inGame(w!)}, true).Length`)).toBe('0');
  });

  it('creates a scratch entity, and destroys it only with confirm', async () => {
    const made = await call('ecs_create_entity', {
      components: [
        { name: 'Health', value: { Value: 42 } },
        { name: 'EnemyTag' },
        { name: 'Unit', value: { Kind: 'Archer' } },
      ],
    });
    const e = `${made.entity.index}:${made.entity.version}`;
    expect(made.values.Health).toEqual({ Value: 42 });
    expect(
      await evalText(
        `em.GetComponentData<Health>(entity(${made.entity.index}, ${made.entity.version})).Value`,
      ),
    ).toBe('42');
    const listed = await call('ecs_list_components', { entity: e });
    expect((listed.components as Out[]).map((c) => c.name).sort()).toEqual([
      'EnemyTag',
      'Health',
      'Unit',
    ]);
    const refused = await fails('ecs_destroy_entity', { entity: e });
    expect(refused.code).toBe('CONFIRM_REQUIRED');
    expect(refused.details!.preview.components.map((c: Out) => c.name)).toContain('Health');
    const dry = await call('ecs_destroy_entity', { entity: e, dry_run: true });
    expect(dry.applied).toBe(false);
    expect((await call('ecs_get_component', { entity: e, component: 'Health' })).value).toEqual({
      Value: 42,
    });
    const done = await call('ecs_destroy_entity', { entity: e, confirm: true });
    expect(done.applied).toBe(true);
    expect((await fails('ecs_get_component', { entity: e, component: 'Health' })).code).toBe(
      'ENTITY_NOT_FOUND',
    );
    // a bad value creates nothing
    const count = (await call('ecs_worlds', {})).worlds[0].entities;
    const bad = await fails('ecs_create_entity', {
      components: [{ name: 'Health', value: { Value: 'x' } }],
    });
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect((await call('ecs_worlds', {})).worlds[0].entities).toBe(count);
  });
});

describe('undo', () => {
  it('restores a component value', async () => {
    const [e] = await some(['Health'], 1, 5);
    const before = (await call('ecs_get_component', { entity: e, component: 'Health' })).value;
    const set = await call('ecs_set_component', {
      entity: e,
      component: 'Health',
      value: { Value: 999 },
    });
    const r = await call('undo', { id: set.changes[0].journal_id });
    expect(r.entries[0].undone).toBe(true);
    expect((await call('ecs_get_component', { entity: e, component: 'Health' })).value).toEqual(
      before,
    );
    expect(await evalText(`em.GetComponentData<Health>(${inGame(e!)}).Value`)).toBe(
      String(before.Value),
    );
  });

  it('refuses when the value changed since, unless forced', async () => {
    const [e] = await some(['Health'], 1, 6);
    const before = (await call('ecs_get_component', { entity: e, component: 'Health' })).value;
    await call('ecs_set_component', { entity: e, component: 'Health', value: { Value: 500 } });
    // someone else changes it
    await evalText(
      `var x = ${inGame(e!)}; var h = em.GetComponentData<Health>(x); h.Value = 501; em.SetComponentData(x, h); h.Value`,
    );
    const refused = await fails('undo', {});
    expect(refused.code).toBe('UNDO_CONFLICT');
    expect(await evalText(`em.GetComponentData<Health>(${inGame(e!)}).Value`)).toBe('501');
    const forced = await call('undo', { force: true });
    expect(forced.entries[0].undone).toBe(true);
    expect((await call('ecs_get_component', { entity: e, component: 'Health' })).value).toEqual(
      before,
    );
  });

  it('undoes buffer edits and entity creation, newest first', async () => {
    const [w] = await some(['Waypoint'], 1, 2);
    const start = (await call('ecs_get_buffer', { entity: w, buffer: 'Waypoint' })).elements;
    await call('ecs_buffer_edit', { entity: w, buffer: 'Waypoint', op: 'remove_at', index: 3 });
    await call('ecs_buffer_edit', {
      entity: w,
      buffer: 'Waypoint',
      op: 'set',
      index: 0,
      value: { Position: { x: 5 } },
    });
    const made = await call('ecs_create_entity', {
      components: [{ name: 'Health', value: { Value: 7 } }],
    });
    const r = await call('undo', { steps: 3 });
    expect((r.entries as Out[]).map((e) => e.undone)).toEqual([true, true, true]);
    expect((await call('ecs_get_buffer', { entity: w, buffer: 'Waypoint' })).elements).toEqual(
      start,
    );
    const gone = await fails('ecs_get_component', {
      entity: `${made.entity.index}:${made.entity.version}`,
      component: 'Health',
    });
    expect(gone.code).toBe('ENTITY_NOT_FOUND');
  });

  it('undoes a field assigned by eval, and refuses when it changed since', async () => {
    const before = await evalText('Game.Probe.SInt');
    await evalText('Game.Probe.SInt = 77');
    const r = await call('undo', {});
    expect(r.entries[0].label).toContain('SInt');
    expect(await evalText('Game.Probe.SInt')).toBe(before);
    await evalText('Game.Probe.SInt = 78');
    await call('ecs_set_component', {
      entity: (await some(['Health'], 1, 7))[0],
      component: 'Health',
      value: { Value: 3 },
    });
    await evalText('Game.Probe.SInt = 79'); // journaled too: undo it, leaving 78 to be changed behind our back
    await call('undo', {});
    await call('undo', {}); // the Health set
    // someone else changes SInt (a debugger write that is not ours)
    await game.app.session.run('poke', 'someone else', async (ctx) => {
      const [type] = await ctx.conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
      const fields = await ctx.conn.send('TYPE.GET_FIELDS', { typeId: type! });
      const field = fields.find((f) => f.name === 'SInt')!;
      ctx.markWrite();
      await ctx.conn.send('TYPE.SET_VALUES', {
        typeId: type!,
        writes: [{ fieldId: field.fieldId, value: { kind: 'i4', value: 80 } }],
      });
    });
    const refused = await fails('undo', {});
    expect(refused.code).toBe('UNDO_CONFLICT');
    expect(await evalText('Game.Probe.SInt')).toBe('80');
    await call('undo', { force: true });
    expect(await evalText('Game.Probe.SInt')).toBe(before);
  });
});

describe('enableable components', () => {
  const STUNNED = ENTITIES / 8;
  const stunnedOf = (r: Out): Out => (r.components as Out[]).find((c) => c.name === 'Stunned')!;
  const enabledInGame = (e: string): Promise<string> =>
    evalText(`em.IsComponentEnabled<Stunned>(${inGame(e)})`);

  it('lists the enabled state of each enableable component, and the read changes nothing', async () => {
    // the game's own queries split the Stunned entities by their enabled bit
    const on = await queryAll({ all: ['Stunned'] });
    const off = await queryAll({ disabled: ['Stunned'] });
    expect(on.total).toBeGreaterThan(0);
    expect(off.total).toBeGreaterThan(0);
    expect(on.total + off.total).toBe(STUNNED);
    expect(ids(on).filter((e) => ids(off).includes(e))).toEqual([]);
    const [enabled] = ids(on);
    const [disabled] = ids(off);
    expect(await enabledInGame(enabled!)).toBe('True');
    expect(await enabledInGame(disabled!)).toBe('False');

    const a = await call('ecs_list_components', { entity: enabled, values: true });
    const b = await call('ecs_list_components', { entity: disabled, values: true });
    expect(stunnedOf(a)).toMatchObject({ kind: 'component', enableable: true, enabled: true });
    expect(stunnedOf(b)).toMatchObject({ kind: 'component', enableable: true, enabled: false });
    // a disabled component keeps its value
    expect(stunnedOf(b).value.Seconds).toBeGreaterThanOrEqual(0.5);
    // components that cannot be disabled carry no enabled state
    for (const c of [...(a.components as Out[]), ...(b.components as Out[])])
      if (c.name !== 'Stunned') expect(c).not.toHaveProperty('enabled');

    const one = await call('ecs_get_component', { entity: disabled, component: 'Stunned' });
    expect(one.enabled).toBe(false);
    expect(one.value).toEqual(stunnedOf(b).value);
    const velocity = await call('ecs_get_component', { entity: enabled, component: 'Velocity' });
    expect(velocity).not.toHaveProperty('enabled');

    expect(await enabledInGame(enabled!)).toBe('True');
    expect(await enabledInGame(disabled!)).toBe('False');
    expect((await queryAll({ disabled: ['Stunned'] })).total).toBe(off.total);
  });

  it('sees a flip made in the game, and queries follow it', async () => {
    const [e] = ids(await queryAll({ all: ['Stunned'] }));
    const before = (await call('ecs_get_component', { entity: e, component: 'Stunned' })).value;
    await evalText(`em.SetComponentEnabled<Stunned>(${inGame(e!)}, false); 0`);
    try {
      expect(stunnedOf(await call('ecs_list_components', { entity: e })).enabled).toBe(false);
      expect(ids(await queryAll({ all: ['Stunned'] }))).not.toContain(e);
      expect(ids(await queryAll({ disabled: ['Stunned'] }))).toContain(e);
      // none: lacks it, or has it disabled
      expect(ids(await queryAll({ all: ['LocalTransform'], none: ['Stunned'] }))).toContain(e);
      // values of disabled components are read in bulk with disabled + read
      const rows = await queryAll({ disabled: ['Stunned'], read: ['Stunned'] });
      const row = (rows.entities as Out[]).find((r) => `${r.index}:${r.version}` === e)!;
      expect(row.components.Stunned).toEqual(before);
    } finally {
      await evalText(`em.SetComponentEnabled<Stunned>(${inGame(e!)}, true); 0`);
    }
    expect(stunnedOf(await call('ecs_list_components', { entity: e })).enabled).toBe(true);
    expect(ids(await queryAll({ all: ['Stunned'] }))).toContain(e);
  });

  it('refuses disabled for a type that cannot be disabled, and the game refuses bits of absent ones', async () => {
    expect((await fails('ecs_query', { disabled: ['Health'] })).code).toBe('INVALID_ARGUMENT');
    expect((await fails('ecs_query', { all: ['Stunned'], disabled: ['Stunned'] })).code).toBe(
      'INVALID_ARGUMENT',
    );
    const stunned = [
      ...ids(await queryAll({ all: ['Stunned'] })),
      ...ids(await queryAll({ disabled: ['Stunned'] })),
    ];
    const plain = ids(await queryAll({ all: ['Velocity'] })).find((e) => !stunned.includes(e));
    const absent = await fails('eval', {
      code: `em.IsComponentEnabled<Stunned>(${inGame(plain!)})`,
    });
    expect(absent.message).toContain('fixture: ');
  });
});
