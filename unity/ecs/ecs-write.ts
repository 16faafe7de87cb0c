// Changing ECS state: components, buffers, scratch entities. Every change checks presence first
// (player builds have no safety checks), is refused before anything is sent when the value does
// not fit, and is read back in the game before it is reported done.

import type { Value } from '../../sdb-protocol/index.js';
import { Errors } from '../errors.js';
import type { EcsAccess } from './ecs-access.js';
import {
  ALLOCATOR_HANDLE,
  COMPONENT_TYPE,
  ENTITY,
  entityText,
  type ComponentInfo,
  type EntityRef,
  type WorldRef,
} from './ecs-model.js';
import { EcsErrors } from './ecs-errors.js';
import { readComponent, type Located } from './ecs-read.js';
import { fromJson, sameJson, toJson, toJsonMany, type Json } from './value-codec.js';

export interface Change {
  before: Json;
  after: Json;
}

function writable(info: ComponentInfo): void {
  if (info.kind === 'tag')
    throw Errors.invalidArgument(`${info.fullName} is a tag (zero-size): it has no value to set`);
  if (info.kind !== 'component')
    throw EcsErrors.wrongKind(
      info.fullName,
      info.kind,
      info.kind === 'buffer'
        ? 'ecs_buffer_edit'
        : 'eval (SetSharedComponentManaged / SetComponentData)',
    );
}

/** The value a set would write, from the current one (presence checked): nothing is sent. */
export async function planSet(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  patch: Json,
): Promise<{ current: Value; next: Value; before: Json; after: Json }> {
  writable(info);
  const current = await readComponent(ecs, at, info);
  if (!current) throw Errors.invalidArgument(`${info.fullName} has no value`);
  const next = await fromJson(current, patch, ecs, info.fullName);
  return { current, next, before: await toJson(current, ecs), after: await toJson(next, ecs) };
}

async function getData(ecs: EcsAccess, at: Located, info: ComponentInfo): Promise<Value> {
  if (at.em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  const m = await ecs.generic(at.em.typeId, 'GetComponentData', [ENTITY], info.typeId);
  return ecs.call(m, at.em, [await ecs.entity(at.entity)]);
}

/** SetComponentData<T>, then GetComponentData<T>: done only when the game holds the value. */
export async function writeComponent(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  next: Value,
): Promise<Json> {
  if (at.em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  const m = await ecs.generic(at.em.typeId, 'SetComponentData', [ENTITY, '*'], info.typeId);
  ecs.ctx.markWrite();
  await ecs.call(m, at.em, [await ecs.entity(at.entity), next]);
  const back = await toJson(await getData(ecs, at, info), ecs);
  const wanted = await toJson(next, ecs);
  if (!sameJson(back, wanted))
    throw EcsErrors.readBackMismatch(`${info.fullName} on ${entityText(at.entity)}`, wanted, back);
  return back;
}

export async function setComponent(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  patch: Json,
): Promise<Change> {
  const plan = await planSet(ecs, at, info, patch);
  const after = await writeComponent(ecs, at, info, plan.next);
  return { before: plan.before, after };
}

// ---- buffers ----

export interface BufferRead {
  values: Value[];
  json: Json[];
}

async function bufferOf(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  readOnly: boolean,
): Promise<Value> {
  if (info.kind !== 'buffer')
    throw EcsErrors.wrongKind(
      info.fullName,
      info.kind,
      readOnly ? 'ecs_get_component' : 'ecs_set_component',
    );
  if (!(await ecs.has(at.em, at.entity, info)))
    throw EcsErrors.componentAbsent(entityText(at.entity), `${info.fullName} buffer`);
  if (at.em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  const m = await ecs.generic(at.em.typeId, 'GetBuffer', [ENTITY, 'System.Boolean'], info.typeId);
  // isReadOnly passed explicitly: the agent does not fill C# defaults
  return ecs.call(m, at.em, [await ecs.entity(at.entity), { kind: 'bool', value: readOnly }]);
}

/** The buffer's elements: copied into one managed array (ToNativeArray(Temp) + ToArray), one read. */
export async function readBuffer(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
): Promise<BufferRead> {
  const buffer = await bufferOf(ecs, at, info, true);
  const native = await ecs.callOn(
    buffer,
    'ToNativeArray',
    [ALLOCATOR_HANDLE],
    [await ecs.allocator('Temp')],
  );
  const values = await ecs.arrayValues(await ecs.callOn(native, 'ToArray', [], []));
  return { values, json: await toJsonMany(values, ecs) };
}

export type BufferOp = 'add' | 'insert' | 'set' | 'remove_at' | 'clear';

export interface BufferPlan {
  op: BufferOp;
  index?: number;
  element?: Value;
  before: Json[];
  after: Json[];
}

/** What an edit would do, checked against the current buffer: nothing is sent. */
export async function planBufferEdit(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  op: BufferOp,
  index: number | undefined,
  value: Json | undefined,
): Promise<BufferPlan> {
  const current = await readBuffer(ecs, at, info);
  const n = current.values.length;
  const needIndex = (max: number): number => {
    if (index === undefined || !Number.isInteger(index) || index < 0 || index > max)
      throw Errors.invalidArgument(
        `${op} needs index in 0..${max} (the buffer has ${n} element${n === 1 ? '' : 's'}), got ${index}`,
      );
    return index;
  };
  const needValue = async (template: Value): Promise<Value> => {
    if (value === undefined)
      throw Errors.invalidArgument(`${op} needs value (an element of ${info.fullName})`);
    return fromJson(template, value, ecs, `${info.fullName}`);
  };
  const after = [...current.json];
  switch (op) {
    case 'add': {
      const element = await needValue(await ecs.zero(info.typeId));
      after.push(await toJson(element, ecs));
      return { op, element, before: current.json, after };
    }
    case 'insert': {
      const i = needIndex(n);
      const element = await needValue(await ecs.zero(info.typeId));
      after.splice(i, 0, await toJson(element, ecs));
      return { op, index: i, element, before: current.json, after };
    }
    case 'set': {
      if (n === 0)
        throw Errors.invalidArgument(
          'set needs an element to replace: the buffer is empty (use add)',
        );
      const i = needIndex(n - 1);
      const element = await needValue(current.values[i]!);
      after[i] = await toJson(element, ecs);
      return { op, index: i, element, before: current.json, after };
    }
    case 'remove_at': {
      if (n === 0) throw Errors.invalidArgument('remove_at: the buffer is empty');
      const i = needIndex(n - 1);
      after.splice(i, 1);
      return { op, index: i, before: current.json, after };
    }
    case 'clear':
      return { op, before: current.json, after: [] };
  }
}

/** Applies a plan, then reads the buffer back: done only when it holds what the plan says. */
export async function applyBufferEdit(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  plan: BufferPlan,
): Promise<Json[]> {
  const buffer = await bufferOf(ecs, at, info, false);
  const int = (i: number): Value => ({ kind: 'i4', value: i });
  ecs.ctx.markWrite();
  switch (plan.op) {
    case 'add':
      await ecs.callOn(buffer, 'Add', ['*'], [plan.element!]);
      break;
    case 'insert':
      await ecs.callOn(buffer, 'Insert', ['System.Int32', '*'], [int(plan.index!), plan.element!]);
      break;
    case 'set':
      await ecs.callOn(
        buffer,
        'set_Item',
        ['System.Int32', '*'],
        [int(plan.index!), plan.element!],
      );
      break;
    case 'remove_at':
      await ecs.callOn(buffer, 'RemoveAt', ['System.Int32'], [int(plan.index!)]);
      break;
    case 'clear':
      await ecs.callOn(buffer, 'Clear', [], []);
      break;
  }
  const back = (await readBuffer(ecs, at, info)).json;
  if (!sameJson(back, plan.after))
    throw EcsErrors.readBackMismatch(
      `${plan.op} on the ${info.fullName} buffer of ${entityText(at.entity)}`,
      plan.after,
      back,
    );
  return back;
}

/** Replaces the whole buffer (undo): Clear, then Add each element; read back. */
export async function restoreBuffer(
  ecs: EcsAccess,
  at: Located,
  info: ComponentInfo,
  elements: Json[],
): Promise<Json[]> {
  const values: Value[] = [];
  for (const e of elements)
    values.push(await fromJson(await ecs.zero(info.typeId), e, ecs, info.fullName));
  const buffer = await bufferOf(ecs, at, info, false);
  ecs.ctx.markWrite();
  await ecs.callOn(buffer, 'Clear', [], []);
  for (const v of values) await ecs.callOn(buffer, 'Add', ['*'], [v]);
  const back = (await readBuffer(ecs, at, info)).json;
  if (!sameJson(back, elements))
    throw EcsErrors.readBackMismatch(`restoring the ${info.fullName} buffer`, elements, back);
  return back;
}

// ---- entities ----

export interface NewComponent {
  info: ComponentInfo;
  value?: Json | undefined;
}

/** CreateEntity(ComponentType[]), then each given value set and read back. */
export async function createEntity(
  ecs: EcsAccess,
  world: WorldRef,
  em: Value,
  components: NewComponent[],
): Promise<{ entity: EntityRef; values: Record<string, Json> }> {
  for (const c of components) {
    if (c.info.kind === 'shared' || c.info.kind === 'managed')
      throw EcsErrors.wrongKind(c.info.fullName, c.info.kind, 'eval after creating the entity');
    if (c.value !== undefined && c.info.kind !== 'component')
      throw Errors.invalidArgument(
        `${c.info.fullName} is a ${c.info.kind}: it takes no value here`,
      );
  }
  if (em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  // values are checked before the entity exists: a bad one creates nothing
  const planned: { c: NewComponent; value: Value }[] = [];
  for (const c of components) {
    if (c.value === undefined) continue;
    planned.push({
      c,
      value: await fromJson(await ecs.zero(c.info.typeId), c.value, ecs, c.info.fullName),
    });
  }
  const ctType = await ecs.type(COMPONENT_TYPE);
  const array = await ecs.newArray(
    ctType,
    components.map((c) => c.info.readWrite),
  );
  ecs.ctx.markWrite();
  const create = await ecs.method(em.typeId, 'CreateEntity', ['Unity.Entities.ComponentType[]']);
  const entity = await ecs.entityOf(await ecs.call(create, em, [array]));
  const at: Located = { world, em, entity };
  const values: Record<string, Json> = {};
  for (const { c, value } of planned)
    values[c.info.fullName] = await writeComponent(ecs, at, c.info, value);
  return { entity, values };
}

export async function destroyEntity(ecs: EcsAccess, at: Located): Promise<void> {
  if (at.em.kind !== 'valuetype') throw Errors.invalidArgument('no EntityManager');
  const m = await ecs.method(at.em.typeId, 'DestroyEntity', [ENTITY]);
  ecs.ctx.markWrite();
  await ecs.call(m, at.em, [await ecs.entity(at.entity)]);
  if (await ecs.exists(at.em, at.entity))
    throw EcsErrors.readBackMismatch(
      `destroying ${entityText(at.entity)}`,
      'destroyed',
      'still exists',
    );
}
