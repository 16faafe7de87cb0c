// The Unity.Entities type names ECS access looks up, and the shapes it hands out: worlds,
// entities and component types.

import type { Value } from '../../sdb-protocol/index.js';

export const ENTITY = 'Unity.Entities.Entity';
export const WORLD = 'Unity.Entities.World';
export const COMPONENT_TYPE = 'Unity.Entities.ComponentType';
export const TYPE_MANAGER = 'Unity.Entities.TypeManager';
export const ALLOCATOR_HANDLE = 'Unity.Collections.AllocatorManager+AllocatorHandle';

export type ComponentKind = 'component' | 'tag' | 'buffer' | 'shared' | 'managed';

export interface ComponentInfo {
  typeId: number;
  /** From the runtime type (GetManagedType().FullName): player builds strip debug names. */
  fullName: string;
  kind: ComponentKind;
  enableable: boolean;
  typeIndex: number;
  /** ComponentType.ReadWrite(type), as the game made it. */
  readWrite: Value;
}

export interface WorldRef {
  objectId: number;
  name: string;
}

export interface EntityRef {
  index: number;
  version: number;
}

export const entityText = (e: EntityRef): string => `Entity(${e.index}:${e.version})`;
