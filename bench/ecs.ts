// The "ecs" benchmark: one component (LocalTransform, which every entity has) read from every
// entity of the fixture's Default World (10,000 by default) the way ecs_query {read} does it,
// against the naive per-entity path in the same run. Per round: the bulk read, warm (one untimed
// read first: type, method and generic lookups are cached per connection, as in a server), with
// its invokes, wire commands, wall time and the game's freeze from the fixture's hitch recorder
// (FixtureEngine.Hitch.MaxLateMs: the longest delay of a frame start past its schedule); then the
// naive per-entity paths: what an agent does without a bulk read, ecs_get_component for each
// entity (measured in the first round only: it takes a while), and the floor of any per-entity
// path, GetComponentData<LocalTransform>(entity) invoked once per entity in one window (no
// presence check, no window per entity): the headline speed-up is against that floor, the tool
// path's is kept for the record. The freeze is reported both as the hitch recorder saw it and as
// the session's window measured it. Figures are per round; targets are reported, never asserted.

import type { FixtureProcess } from '../fixtures/launch.js';
import { EcsAccess } from '../unity/ecs/ecs-access.js';
import { ENTITY } from '../unity/ecs/ecs-model.js';
import { getComponent, queryEntities } from '../unity/ecs/ecs-service.js';
import {
  GameSession,
  type OperationContext,
  type OperationCost,
} from '../unity/session/session.js';
import { hitchMeter } from './hitch.js';
import { got, median, round, type Line, type Options } from './scenario.js';

const COMPONENT = 'Unity.Transforms.LocalTransform';
const MAX_INVOKES = 10;
const MAX_FREEZE_MS = 50;
const MIN_SPEEDUP = 50;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function naive(
  ctx: OperationContext,
  entities: { index: number; version: number }[],
): Promise<void> {
  const ecs = new EcsAccess(ctx);
  const world = await ecs.world();
  const em = await ecs.entityManager(world);
  if (em.kind !== 'valuetype') throw new Error('no EntityManager');
  const info = await ecs.component(COMPONENT);
  const get = await ecs.generic(em.typeId, 'GetComponentData', [ENTITY], info.typeId);
  for (const e of entities) await ecs.call(get, em, [await ecs.entity(e)]);
}

export const ecs = {
  async run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const session = new GameSession({ parkTimeoutMs: 5000, invokeTimeoutMs: 120_000 });
    const samples: Record<string, number[]> = {};
    const add = (k: string, v: number): void => void (samples[k] ??= []).push(v);
    let entities: number;
    let cold: OperationCost;
    try {
      await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
      const measureFreeze = await hitchMeter(session);
      const bulk = () => queryEntities(session, 'bench', { read: [COMPONENT], limit: 10_000 });
      const warm = await bulk(); // lookups cached per connection, as in a long-lived server
      cold = warm.cost;
      entities = warm.value.total;
      const list = warm.value.entities.map((e) => ({ index: e.index, version: e.version }));
      for (let r = 1; r <= o.rounds; r++) {
        process.stderr.write(`ecs: round ${r}/${o.rounds}: bulk...`);
        let result: Awaited<ReturnType<typeof bulk>> | undefined;
        const freeze = await measureFreeze(async () => {
          result = await bulk();
        });
        const wall = result!.cost.wallMs;
        if (result!.value.entities.length !== entities)
          throw new Error('the bulk read lost entities');
        add('invokes', result!.cost.invokes);
        add('wire_commands', result!.cost.wireCommands);
        add('wall_ms', wall);
        add('freeze_ms', freeze);
        add('window_freeze_ms', result!.cost.freezeMs);
        process.stderr.write(' naive...');
        const n = await session.run('ecs naive read', 'bench', (ctx) => naive(ctx, list), {
          exclusive: true,
        });
        add('naive_invoke_only_ms', n.cost.wallMs);
        add('naive_invokes', n.cost.invokes);
        if (r === 1) {
          // the per-entity tool path (ecs_get_component per entity), once: it takes a while
          process.stderr.write(' per-entity tool path...');
          const t = performance.now();
          let invokes = 0;
          for (const e of list)
            invokes += (await getComponent(session, 'bench', e, COMPONENT)).cost.invokes;
          add('naive_wall_ms', performance.now() - t);
          add('naive_tool_invokes', invokes);
        }
        process.stderr.write(' done\n');
        await sleep(500);
      }
    } finally {
      await session.shutdown();
    }
    const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
    const wall = got(samples, 'wall_ms');
    const invokeOnly = got(samples, 'naive_invoke_only_ms');
    const toolPath = got(samples, 'naive_wall_ms'); // one round
    const row = {
      entities,
      component: COMPONENT,
      invokes: m.invokes!,
      wire_commands: m.wire_commands!,
      freeze_ms: round(m.freeze_ms!, 2),
      window_freeze_ms: round(m.window_freeze_ms!, 2),
      wall_ms: round(m.wall_ms!, 2),
      // the headline: against the cheapest per-entity path
      naive_invoke_only_ms: round(m.naive_invoke_only_ms!, 1),
      naive_invoke_only_path:
        'GetComponentData<T> invoked per entity, all in one window (the floor of any per-entity path)',
      naive_invokes: m.naive_invokes!,
      speedup_vs_invoke_only: round(m.naive_invoke_only_ms! / m.wall_ms!, 1),
      // and against what an agent does without a bulk read, one tool call per entity
      naive_wall_ms: round(m.naive_wall_ms!, 1),
      naive_path: 'ecs_get_component per entity (window, Exists, HasComponent, GetComponentData)',
      naive_tool_invokes: m.naive_tool_invokes!,
      speedup_vs_tool_calls: round(m.naive_wall_ms! / m.wall_ms!, 1),
      // the first read on a fresh connection (names resolved and lookups made before the window)
      first_invokes: cold.invokes,
      first_wire_commands: cold.wireCommands,
      first_window_freeze_ms: cold.freezeMs,
      first_wall_ms: cold.wallMs,
      rounds: o.rounds,
      per_round: samples,
    };
    const lines: Line[] = [
      { name: 'entities', ours: row.entities, reference: undefined, unit: 'entities' },
      {
        name: 'invokes',
        ours: got(samples, 'invokes'),
        reference: undefined,
        unit: 'invokes',
        target: { kind: 'below', value: MAX_INVOKES + 0.5 },
      },
      {
        name: 'wire_commands',
        ours: got(samples, 'wire_commands'),
        reference: undefined,
        unit: 'commands',
      },
      {
        name: 'freeze_ms',
        what: "the game's freeze by the fixture's hitch recorder (longest frame-start delay)",
        ours: got(samples, 'freeze_ms'),
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: MAX_FREEZE_MS },
      },
      {
        name: 'window_freeze_ms',
        what: "the game's freeze by the session's suspend window (cost.freezeMs)",
        ours: got(samples, 'window_freeze_ms'),
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: MAX_FREEZE_MS },
      },
      { name: 'wall_ms', ours: wall, reference: undefined, unit: 'ms' },
      { name: 'naive_invoke_only_ms', ours: invokeOnly, reference: undefined, unit: 'ms' },
      { name: 'naive_tool_calls_ms', ours: toolPath, reference: undefined, unit: 'ms' },
      {
        name: 'speedup_vs_invoke_only',
        what: 'per-entity GetComponentData invokes in one window (the cheapest per-entity path) over the bulk read, per round',
        ours: invokeOnly.map((x, i) => x / wall[i]!),
        reference: undefined,
        unit: 'x',
        target: { kind: 'atLeast', value: MIN_SPEEDUP },
      },
      {
        name: 'speedup_vs_tool_calls',
        what: 'ecs_get_component per entity (measured in round 1) over the bulk read of each round; for the record',
        ours: wall.map((x) => toolPath[0]! / x),
        reference: undefined,
        unit: 'x',
      },
    ];
    return { lines, json: [row] };
  },
};
