// Enabled bits of enableable components (IEnableableComponent). Unity keeps them in chunk memory,
// where no debugger read reaches, and has no public call that returns several at once, so each
// is one invoke of the non-generic EntityManager.IsComponentEnabled(Entity, ComponentType) (no
// MAKE_GENERIC_METHOD, the ComponentType already made for the type). Which components are
// enableable is known without an invoke (a TypeIndex flag), so only those cost a call: an entity
// without any costs nothing. Queries never read bits per entity: ecs_query filters on them in the
// game (EntityQueryDesc.Disabled, and All/Any/None's own enabled rules).

import type { Value } from '../../sdb-protocol/index.js';
import type { EcsAccess } from './ecs-access.js';
import { COMPONENT_TYPE, ENTITY, type ComponentInfo, type EntityRef } from './ecs-model.js';

/** Whether `info` (enableable, present on the entity: the caller checked) is enabled now. */
export async function isEnabled(
  ecs: EcsAccess,
  at: { em: Value; entity: EntityRef },
  info: ComponentInfo,
): Promise<boolean> {
  if (at.em.kind !== 'valuetype') return true;
  const m = await ecs.method(at.em.typeId, 'IsComponentEnabled', [ENTITY, COMPONENT_TYPE]);
  const r = await ecs.call(m, at.em, [await ecs.entity(at.entity), info.readWrite]);
  return r.kind === 'bool' && r.value;
}

/** The enabled state of each enableable component in `infos` (by type id), in one window. */
export async function enabledStates(
  ecs: EcsAccess,
  at: { em: Value; entity: EntityRef },
  infos: readonly ComponentInfo[],
): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  // one at a time: the game's main thread runs one invoke at a time anyway
  for (const info of infos) {
    if (info.enableable) out.set(info.typeId, await isEnabled(ecs, at, info));
  }
  return out;
}
