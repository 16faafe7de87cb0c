// The ECS operations as the tools call them: each one suspend window of the session, the
// destructive gate (dry_run previews, confirm applies, a refusal carries the preview), and the
// undo journal for every write (undo itself: ecs-undo.ts).

import { sumCosts, type GameSession, type OperationResult } from '../session/session.js';
import { UnityError } from '../errors.js';
import { EcsAccess } from './ecs-access.js';
import { entityText, type ComponentInfo, type EntityRef } from './ecs-model.js';
import { EcsErrors } from './ecs-errors.js';
import { isEnabled } from './ecs-enabled.js';
import { copyQuery, query, readCopy, type QueryArgs, type QueryResult } from './ecs-query.js';
import {
  componentJson,
  listComponents,
  listWorlds,
  locate,
  type EntityAddress,
  type ListedComponent,
  type Located,
  type WorldSummary,
} from './ecs-read.js';
import {
  applyBufferEdit,
  createEntity,
  destroyEntity,
  planBufferEdit,
  planSet,
  readBuffer,
  writeComponent,
  type BufferOp,
} from './ecs-write.js';
import { read, write } from './ecs-window.js';
import type { Journal } from '../journal/journal.js';
import { patchAt, type Json } from './value-codec.js';

/** Entities one set may touch (each is a few invokes). */
export const MAX_SET_ENTITIES = 100;

export interface Gate {
  dryRun?: boolean | undefined;
  confirm?: boolean | undefined;
}

export function worlds(
  session: GameSession,
  caller: string,
): Promise<OperationResult<WorldSummary[]>> {
  return read(session, caller, 'ecs_worlds', listWorlds);
}

/**
 * The game is held only while the query runs and its data is copied into managed arrays; the
 * copies are read and decoded after it runs on (they are a snapshot of one moment). Should a
 * copy be gone by then (collected, or the game restarted), the query runs again and is read
 * inside its window.
 */
export async function queryEntities(
  session: GameSession,
  caller: string,
  args: QueryArgs,
): Promise<OperationResult<QueryResult>> {
  const started = performance.now();
  const names = [
    ...(args.all ?? []),
    ...(args.any ?? []),
    ...(args.none ?? []),
    ...(args.disabled ?? []),
    ...(args.read ?? []),
  ];
  const copy = await read(session, caller, 'ecs_query', (ecs) => copyQuery(ecs, args), names);
  try {
    const r = await session.run(
      'ecs_query (read copies)',
      caller,
      (ctx) => readCopy(new EcsAccess(ctx), copy.value),
      {
        window: false,
      },
    );
    return { value: r.value, cost: sumCosts([copy.cost, r.cost], started) };
  } catch (e) {
    if (!(e instanceof UnityError) || !['INTERNAL', 'PROTOCOL_ERROR'].includes(e.code)) throw e;
    const again = await read(session, caller, 'ecs_query', (ecs) => query(ecs, args), names);
    return { value: again.value, cost: sumCosts([copy.cost, again.cost], started) };
  }
}

export interface EntityComponents {
  world: string;
  entity: EntityRef;
  name: string;
  components: ListedComponent[];
}

export function entityComponents(
  session: GameSession,
  caller: string,
  at: EntityAddress,
  opts: { values?: boolean | undefined; follow?: boolean | undefined },
): Promise<OperationResult<EntityComponents>> {
  return read(session, caller, 'ecs_list_components', async (ecs) => {
    const l = await locate(ecs, at);
    const name = await ecs.text(
      await ecs.callOn(l.em, 'GetName', ['Unity.Entities.Entity'], [await ecs.entity(l.entity)]),
    );
    return {
      world: l.world.name,
      entity: l.entity,
      name,
      components: await listComponents(ecs, l, opts),
    };
  });
}

export interface ComponentRead {
  world: string;
  entity: EntityRef;
  component: string;
  value: Json;
  /** Enableable components only: whether it is enabled on the entity now. */
  enabled?: boolean;
}

export function getComponent(
  session: GameSession,
  caller: string,
  at: EntityAddress,
  component: string,
): Promise<OperationResult<ComponentRead>> {
  return read(
    session,
    caller,
    'ecs_get_component',
    async (ecs) => {
      const info = await ecs.component(component);
      const l = await locate(ecs, at);
      const r: ComponentRead = {
        world: l.world.name,
        entity: l.entity,
        component: info.fullName,
        value: await componentJson(ecs, l, info),
      };
      // after componentJson checked the entity has it
      if (info.enableable) r.enabled = await isEnabled(ecs, l, info);
      return r;
    },
    [component],
  );
}

export interface SetArgs {
  world?: string | undefined;
  entities: { index: number; version?: number | undefined }[];
  component: string;
  field?: string | undefined;
  value: Json;
}

export interface SetChange {
  entity: EntityRef;
  before: Json;
  after: Json;
  journal_id?: number;
}

export interface SetResult {
  world: string;
  component: string;
  applied: boolean;
  changes: SetChange[];
}

/** Sets a component (or one field of it) on one or more entities; more than one needs confirm. */
export function setComponents(
  session: GameSession,
  journal: Journal,
  caller: string,
  args: SetArgs,
  gate: Gate,
): Promise<OperationResult<SetResult>> {
  if (args.entities.length === 0)
    throw new UnityError('INVALID_ARGUMENT', 'give an entity (or entities)');
  if (args.entities.length > MAX_SET_ENTITIES)
    throw new UnityError(
      'INVALID_ARGUMENT',
      `at most ${MAX_SET_ENTITIES} entities per set, got ${args.entities.length}`,
    );
  const patch = args.field !== undefined ? patchAt(args.field, args.value) : args.value;
  const op = async (ecs: EcsAccess): Promise<SetResult> => {
    const info = await ecs.component(args.component);
    // every entity located, checked and planned before anything is sent: nothing half-applied
    const plans: { l: Located; plan: Awaited<ReturnType<typeof planSet>> }[] = [];
    for (const e of args.entities) {
      const l = await locate(ecs, { world: args.world, index: e.index, version: e.version });
      plans.push({ l, plan: await planSet(ecs, l, info, patch) });
    }
    const world = plans[0]!.l.world.name;
    const preview = plans.map(({ l, plan }) => ({
      entity: l.entity,
      before: plan.before,
      after: plan.after,
    }));
    if (gate.dryRun) return { world, component: info.fullName, applied: false, changes: preview };
    if (plans.length > 1 && !gate.confirm)
      throw EcsErrors.confirmRequired(
        `setting ${info.fullName} on ${plans.length} entities`,
        preview,
      );
    const changes: SetChange[] = [];
    for (const { l, plan } of plans) {
      const after = await writeComponent(ecs, l, info, plan.next);
      const entry = journal.record({
        label: `set ${info.fullName}${args.field ? `.${args.field}` : ''} on ${entityText(l.entity)}`,
        world: l.world.name,
        entity: l.entity,
        target: { kind: 'component', component: info.fullName },
        before: plan.before,
        after,
        caller,
      });
      changes.push({ entity: l.entity, before: plan.before, after, journal_id: entry.id });
    }
    return { world, component: info.fullName, applied: true, changes };
  };
  return gate.dryRun
    ? read(session, caller, 'ecs_set_component', op, [args.component])
    : write(session, caller, 'ecs_set_component', op, [args.component]);
}

export function getBuffer(
  session: GameSession,
  caller: string,
  at: EntityAddress,
  buffer: string,
): Promise<
  OperationResult<{
    world: string;
    entity: EntityRef;
    buffer: string;
    length: number;
    elements: Json[];
  }>
> {
  return read(
    session,
    caller,
    'ecs_get_buffer',
    async (ecs) => {
      const info = await ecs.component(buffer);
      const l = await locate(ecs, at);
      const r = await readBuffer(ecs, l, info);
      return {
        world: l.world.name,
        entity: l.entity,
        buffer: info.fullName,
        length: r.json.length,
        elements: r.json,
      };
    },
    [buffer],
  );
}

export interface BufferEditResult {
  world: string;
  entity: EntityRef;
  buffer: string;
  applied: boolean;
  before: Json[];
  after: Json[];
  journal_id?: number;
}

export function editBuffer(
  session: GameSession,
  journal: Journal,
  caller: string,
  at: EntityAddress,
  args: { buffer: string; op: BufferOp; index?: number | undefined; value?: Json | undefined },
  gate: Gate,
): Promise<OperationResult<BufferEditResult>> {
  const op = async (ecs: EcsAccess): Promise<BufferEditResult> => {
    const info = await ecs.component(args.buffer);
    const l = await locate(ecs, at);
    const plan = await planBufferEdit(ecs, l, info, args.op, args.index, args.value);
    const base = {
      world: l.world.name,
      entity: l.entity,
      buffer: info.fullName,
      before: plan.before,
    };
    if (gate.dryRun) return { ...base, applied: false, after: plan.after };
    if (args.op === 'clear' && !gate.confirm)
      throw EcsErrors.confirmRequired(
        `clearing the ${info.fullName} buffer of ${entityText(l.entity)} (${plan.before.length} elements)`,
        {
          ...base,
          after: plan.after,
        },
      );
    const after = await applyBufferEdit(ecs, l, info, plan);
    const entry = journal.record({
      label: `${args.op} on the ${info.fullName} buffer of ${entityText(l.entity)}`,
      world: l.world.name,
      entity: l.entity,
      target: { kind: 'buffer', buffer: info.fullName },
      before: plan.before,
      after,
      caller,
    });
    return { ...base, applied: true, after, journal_id: entry.id };
  };
  return gate.dryRun
    ? read(session, caller, 'ecs_buffer_edit', op, [args.buffer])
    : write(session, caller, 'ecs_buffer_edit', op, [args.buffer]);
}

export function createScratchEntity(
  session: GameSession,
  journal: Journal,
  caller: string,
  args: { world?: string | undefined; components: { name: string; value?: Json | undefined }[] },
): Promise<
  OperationResult<{
    world: string;
    entity: EntityRef;
    components: string[];
    values: Record<string, Json>;
    journal_id: number;
  }>
> {
  return write(
    session,
    caller,
    'ecs_create_entity',
    async (ecs) => {
      const comps: { info: ComponentInfo; value?: Json | undefined }[] = [];
      for (const c of args.components)
        comps.push({ info: await ecs.component(c.name), value: c.value });
      const world = await ecs.world(args.world);
      const em = await ecs.entityManager(world);
      const r = await createEntity(ecs, world, em, comps);
      const entry = journal.record({
        label: `create ${entityText(r.entity)}`,
        world: world.name,
        entity: r.entity,
        target: { kind: 'create' },
        before: null,
        after: comps.map((c) => c.info.fullName),
        caller,
      });
      return {
        world: world.name,
        entity: r.entity,
        components: comps.map((c) => c.info.fullName),
        values: r.values,
        journal_id: entry.id,
      };
    },
    args.components.map((c) => c.name),
  );
}

export function destroyEntities(
  session: GameSession,
  caller: string,
  at: EntityAddress,
  gate: Gate,
): Promise<
  OperationResult<{ world: string; entity: EntityRef; applied: boolean; preview: EntityComponents }>
> {
  const op = async (ecs: EcsAccess) => {
    const l = await locate(ecs, at);
    const name = await ecs.text(
      await ecs.callOn(l.em, 'GetName', ['Unity.Entities.Entity'], [await ecs.entity(l.entity)]),
    );
    const preview: EntityComponents = {
      world: l.world.name,
      entity: l.entity,
      name,
      components: await listComponents(ecs, l, { values: true }),
    };
    if (gate.dryRun) return { world: l.world.name, entity: l.entity, applied: false, preview };
    if (!gate.confirm)
      throw EcsErrors.confirmRequired(
        `destroying ${entityText(l.entity)}${name ? ` ("${name}")` : ''} cannot be undone`,
        preview,
      );
    await destroyEntity(ecs, l);
    return { world: l.world.name, entity: l.entity, applied: true, preview };
  };
  return gate.dryRun
    ? read(session, caller, 'ecs_destroy_entity', op)
    : write(session, caller, 'ecs_destroy_entity', op);
}
