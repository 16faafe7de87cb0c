// The "scene" benchmark: the GameObject tools' bulk paths against the naive per-object path, in
// the same run, on a fixture with the additive Level scene of 5,000 GameObjects
// (--level-objects 5000: SceneBuilder.BuildLevel). Through unity/, the layer the tools call.
//
// - hierarchy: every GameObject with its name, instance id, active state, parent and component
//   types (the scene_hierarchy / scene_find snapshot), warm (the first call of a connection also
//   makes and pins the delegates; its cost is reported as `cold_*`). Targets: at most 20 invokes,
//   the game frozen under 50 ms, at least 50x faster than per object.
// - query: scene_query of one field (Enemy.health) over 1,000 objects.
// The naive path does the same reads one object at a time (an invoke per getter, as an agent's
// eval chain would), in windows of 50 objects; it is measured on a sample of objects and scaled
// to the full count (its cost per object is constant), the sample size recorded in the result.
// Each measured operation starts after SETTLE_MS of the game running (outside its timing): the
// snapshot leaves the game megabytes to collect, and its collection would otherwise land in the
// window of whatever is measured next (the query's freeze went from 12 to 43 ms that way).

import { Values } from '../sdb-protocol/index.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameSession } from '../unity/session/session.js';
import { SceneCalls } from '../unity/scene/scene-calls.js';
import { querySceneObjects, takeSnapshot } from '../unity/scene/scene-service.js';
import { got, medians, round, type Line, type Options } from './scenario.js';

const LEVEL_OBJECTS = 5000;
const QUERY_OBJECTS = 1000;
/** The game runs this long (a few frames) before each measured operation. */
const SETTLE_MS = 200;
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, SETTLE_MS));
/** Objects the naive paths are measured on per round (then scaled). */
const NAIVE_SAMPLE = 200;
const NAIVE_WINDOW = 50;

type Figures = Record<string, number>;

async function ours(session: GameSession): Promise<Figures> {
  await settle();
  const h = await takeSnapshot(session, 'bench', 'bench hierarchy', {});
  await settle();
  const q = await querySceneObjects(session, 'bench', {
    component: 'Enemy',
    read: ['health'],
    limit: QUERY_OBJECTS,
  });
  if (q.value.rows.length !== QUERY_OBJECTS)
    throw new Error(`the query returned ${q.value.rows.length} rows, not ${QUERY_OBJECTS}`);
  return {
    objects: h.value.nodes.length,
    invokes: h.cost.invokes,
    wire_commands: h.cost.wireCommands,
    freeze_ms: h.cost.freezeMs,
    wall_ms: h.cost.wallMs,
    query_objects: q.value.rows.length,
    query_invokes: q.cost.invokes,
    query_wire_commands: q.cost.wireCommands,
    query_freeze_ms: q.cost.freezeMs,
    query_wall_ms: q.cost.wallMs,
  };
}

/**
 * Per object: gameObject, parent, GetSiblingIndex on the Transform; activeSelf, GetInstanceID,
 * name, GetComponents(typeof(Component)) on the GameObject, and each component's type (wire).
 */
async function naiveHierarchy(session: GameSession, total: number): Promise<Figures> {
  const started = performance.now();
  let invokes = 0;
  let commands = 0;
  let freeze = 0;
  const find = await session.run('naive find', 'bench', async (ctx) => {
    const c = new SceneCalls(ctx);
    const all = await c.findAll('UnityEngine.Transform');
    const ids = (await c.arrayValues(all)).map((v) => (v.kind === 'object' ? v.objectId : 0));
    await c.release();
    return ids;
  });
  const transforms = find.value.slice(0, NAIVE_SAMPLE);
  invokes += find.cost.invokes;
  commands += find.cost.wireCommands;
  freeze += find.cost.freezeMs;
  for (let i = 0; i < transforms.length; i += NAIVE_WINDOW) {
    const batch = transforms.slice(i, i + NAIVE_WINDOW);
    const r = await session.run('naive hierarchy', 'bench', async (ctx) => {
      const c = new SceneCalls(ctx);
      const T = 'UnityEngine.Transform';
      const GO = 'UnityEngine.GameObject';
      const m = {
        go: await c.method('UnityEngine.Component', 'get_gameObject', []),
        parent: await c.method(T, 'get_parent', []),
        sibling: await c.method(T, 'GetSiblingIndex', []),
        active: await c.method(GO, 'get_activeSelf', []),
        id: await c.method('UnityEngine.Object', 'GetInstanceID', []),
        name: await c.method('UnityEngine.Object', 'get_name', []),
        comps: await c.method(GO, 'GetComponents', ['System.Type']),
      };
      const componentType = Values.object(
        await c.typeObject(await c.type('UnityEngine.Component')),
      );
      for (const t of batch) {
        const tv = Values.object(t);
        const go = await c.call(m.go, tv, []);
        await c.call(m.parent, tv, []);
        await c.call(m.sibling, tv, []);
        await c.call(m.active, go, []);
        await c.call(m.id, go, []);
        await c.text(await c.call(m.name, go, []));
        const comps = await c.arrayValues(await c.call(m.comps, go, [componentType]));
        for (const x of comps)
          if (x.kind === 'object')
            await ctx.conn.send('OBJECT_REF.GET_TYPE', { objectId: x.objectId });
      }
    });
    invokes += r.cost.invokes;
    commands += r.cost.wireCommands;
    freeze += r.cost.freezeMs;
  }
  const scale = total / transforms.length;
  return {
    naive_sampled_objects: transforms.length,
    naive_invokes: round(invokes * scale, 0),
    naive_wire_commands: round(commands * scale, 0),
    naive_freeze_ms: round(freeze * scale, 1),
    naive_wall_ms: round((performance.now() - started) * scale, 1),
  };
}

/** Per object: GetComponent's owner's GetInstanceID and name (invokes) and the field (wire). */
async function naiveQuery(session: GameSession): Promise<Figures> {
  const started = performance.now();
  let invokes = 0;
  let commands = 0;
  let freeze = 0;
  const find = await session.run('naive find', 'bench', async (ctx) => {
    const c = new SceneCalls(ctx);
    const all = await c.findAll('Enemy');
    const ids = (await c.arrayValues(all)).map((v) => (v.kind === 'object' ? v.objectId : 0));
    await c.release();
    return ids;
  });
  const sample = find.value.slice(0, NAIVE_SAMPLE);
  invokes += find.cost.invokes;
  commands += find.cost.wireCommands;
  freeze += find.cost.freezeMs;
  for (let i = 0; i < sample.length; i += NAIVE_WINDOW) {
    const r = await session.run('naive query', 'bench', async (ctx) => {
      const c = new SceneCalls(ctx);
      const go = await c.method('UnityEngine.Component', 'get_gameObject', []);
      const id = await c.method('UnityEngine.Object', 'GetInstanceID', []);
      const name = await c.method('UnityEngine.Object', 'get_name', []);
      const typeId = await c.type('Enemy');
      const health = (await ctx.catalog.findMember(typeId, 'health')) as {
        kind: 'field';
        field: { fieldId: number };
      };
      for (const e of sample.slice(i, i + NAIVE_WINDOW)) {
        const ev = Values.object(e);
        const g = await c.call(go, ev, []);
        await c.call(id, g, []);
        await c.text(await c.call(name, ev, []));
        await ctx.conn.send('OBJECT_REF.GET_VALUES', {
          objectId: e,
          fieldIds: [health.field.fieldId],
        });
      }
    });
    invokes += r.cost.invokes;
    commands += r.cost.wireCommands;
    freeze += r.cost.freezeMs;
  }
  const scale = QUERY_OBJECTS / sample.length;
  return {
    naive_query_invokes: round(invokes * scale, 0),
    naive_query_wire_commands: round(commands * scale, 0),
    naive_query_freeze_ms: round(freeze * scale, 1),
    naive_query_wall_ms: round((performance.now() - started) * scale, 1),
  };
}

export const scene = {
  // the scenario's own fixture: the default one has no Level scene
  async run(_fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const fixture = await startFixture({
      entities: 10,
      args: ['--level-objects', String(LEVEL_OBJECTS)],
    });
    const session = new GameSession({ parkTimeoutMs: 5000 });
    const rounds: Record<string, number[]> = {};
    const cold: Figures = {};
    try {
      await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
      const first = await takeSnapshot(session, 'bench', 'bench hierarchy (cold)', {});
      const firstQuery = await querySceneObjects(session, 'bench', {
        component: 'Enemy',
        read: ['health'],
        limit: QUERY_OBJECTS,
      });
      cold['cold_invokes'] = first.cost.invokes;
      cold['cold_freeze_ms'] = first.cost.freezeMs;
      cold['cold_query_invokes'] = firstQuery.cost.invokes;
      for (let r = 1; r <= o.rounds; r++) {
        process.stderr.write(`scene: round ${r}/${o.rounds}: ours...`);
        const a = await ours(session);
        process.stderr.write(' naive...');
        const objects = a['objects']!;
        await settle();
        const naive = await naiveHierarchy(session, objects);
        await settle();
        const b = { ...naive, ...(await naiveQuery(session)) };
        process.stderr.write('\n');
        for (const [k, v] of Object.entries({ ...a, ...b })) (rounds[k] ??= []).push(v);
        (rounds['speedup'] ??= []).push(b['naive_wall_ms']! / a['wall_ms']!);
        (rounds['query_speedup'] ??= []).push(b['naive_query_wall_ms']! / a['query_wall_ms']!);
      }
    } finally {
      await session.shutdown();
      await fixture.stop();
    }
    const k = (name: string): number[] => got(rounds, name, 'the run');
    const lines: Line[] = [
      {
        name: 'hierarchy_invokes',
        what: `all ${k('objects')[0]} GameObjects: names, ids, active state, parents, component types (warm)`,
        ours: k('invokes'),
        reference: undefined,
        unit: 'invokes',
        target: { kind: 'below', value: 20.5 },
      },
      {
        name: 'hierarchy_freeze_ms',
        ours: k('freeze_ms'),
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: 50 },
      },
      { name: 'hierarchy_wall_ms', ours: k('wall_ms'), reference: undefined, unit: 'ms' },
      {
        name: 'hierarchy_naive_wall_ms',
        what: `per object, measured on ${NAIVE_SAMPLE} and scaled`,
        ours: k('naive_wall_ms'),
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'hierarchy_speedup',
        what: 'naive wall / ours',
        ours: k('speedup'),
        reference: undefined,
        unit: 'x',
        target: { kind: 'atLeast', value: 50 },
      },
      {
        name: 'query_invokes',
        what: `scene_query Enemy.health over ${QUERY_OBJECTS} objects`,
        ours: k('query_invokes'),
        reference: undefined,
        unit: 'invokes',
      },
      { name: 'query_freeze_ms', ours: k('query_freeze_ms'), reference: undefined, unit: 'ms' },
      { name: 'query_wall_ms', ours: k('query_wall_ms'), reference: undefined, unit: 'ms' },
      {
        name: 'query_speedup',
        what: 'naive wall / ours',
        ours: k('query_speedup'),
        reference: undefined,
        unit: 'x',
        target: { kind: 'atLeast', value: 50 },
      },
    ];
    const m = medians(rounds);
    const json = {
      hierarchy: {
        objects: m['objects'],
        invokes: m['invokes'],
        wire_commands: m['wire_commands'],
        freeze_ms: m['freeze_ms'],
        wall_ms: m['wall_ms'],
        naive_wall_ms: m['naive_wall_ms'],
        naive_invokes: m['naive_invokes'],
        naive_wire_commands: m['naive_wire_commands'],
        naive_freeze_ms: m['naive_freeze_ms'],
        naive_sampled_objects: m['naive_sampled_objects'],
        cold_invokes: cold['cold_invokes'],
        cold_freeze_ms: cold['cold_freeze_ms'],
      },
      query: {
        objects: m['query_objects'],
        invokes: m['query_invokes'],
        wire_commands: m['query_wire_commands'],
        freeze_ms: m['query_freeze_ms'],
        wall_ms: m['query_wall_ms'],
        naive_wall_ms: m['naive_query_wall_ms'],
        naive_invokes: m['naive_query_invokes'],
        naive_wire_commands: m['naive_query_wire_commands'],
        naive_freeze_ms: m['naive_query_freeze_ms'],
        naive_sampled_objects: NAIVE_SAMPLE,
        cold_invokes: cold['cold_query_invokes'],
      },
      rounds,
    };
    return { lines, json };
  },
};
