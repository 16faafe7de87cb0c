// The ECS layer's failures, each with a stable code and a message that says what to do next.

import { UnityError } from '../errors.js';

export const EcsErrors = {
  notEcsGame: (what: string): UnityError =>
    new UnityError(
      'UNSUPPORTED',
      `${what} is not loaded in the game: it does not use Unity.Entities (or its Entities version lacks it)`,
    ),
  worldNotFound: (name: string, worlds: string[]): UnityError =>
    new UnityError(
      'WORLD_NOT_FOUND',
      `no world is named ${JSON.stringify(name)}; worlds: ${worlds.map((w) => JSON.stringify(w)).join(', ') || 'none'}`,
      { suggestions: worlds },
    ),
  noDefaultWorld: (): UnityError =>
    new UnityError(
      'WORLD_NOT_FOUND',
      'the game has no default world (World.DefaultGameObjectInjectionWorld is null): name one with world (see ecs_worlds)',
    ),
  entityNotFound: (entity: string, world: string): UnityError =>
    new UnityError(
      'ENTITY_NOT_FOUND',
      `${entity} does not exist in ${JSON.stringify(world)} (destroyed, or another version lives at that index); find entities with ecs_query`,
    ),
  componentAbsent: (entity: string, component: string): UnityError =>
    new UnityError(
      'COMPONENT_NOT_FOUND',
      `${entity} has no ${component}; nothing was read or changed (see its components with ecs_list_components)`,
    ),
  notAComponent: (name: string, kinds: string): UnityError =>
    new UnityError(
      'INVALID_ARGUMENT',
      `${name} is not an ECS component type (it implements none of ${kinds})`,
    ),
  wrongKind: (name: string, kind: string, use: string): UnityError =>
    new UnityError('INVALID_ARGUMENT', `${name} is a ${kind} component: use ${use}`),
  confirmRequired: (what: string, preview: unknown): UnityError =>
    new UnityError(
      'CONFIRM_REQUIRED',
      `${what}: nothing was changed. Check the preview, then repeat the call with confirm: true (or dry_run: true to only preview). Preview: ${clipped(preview)}`,
      { details: { preview } },
    ),
  readBackMismatch: (what: string, wanted: unknown, found: unknown): UnityError =>
    new UnityError(
      'MAY_HAVE_APPLIED',
      `${what} was sent, but reading it back gave ${JSON.stringify(found)} instead of ${JSON.stringify(wanted)} (a system may overwrite it every frame)`,
      { details: { wanted, found } },
    ),
};

function clipped(v: unknown): string {
  const s = JSON.stringify(v);
  return s.length > 1500 ? `${s.slice(0, 1500)}… (${s.length - 1500} more chars)` : s;
}
