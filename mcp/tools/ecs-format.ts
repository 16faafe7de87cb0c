// What the ECS tools share: argument schemas (world, entity, component, the destructive gate),
// the JSON a component value is, and the text forms of entities and values.

import { z } from 'zod';

import { UnityError } from '../../unity/errors.js';
import type { Json } from '../../unity/ecs/value-codec.js';
import { clip } from '../tool.js';

export const TEXT_CHARS = 6000;

export const json: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(json),
    z.record(z.string(), json),
  ]),
);

export const world = z
  .string()
  .min(1)
  .optional()
  .describe('world name (default: the default world; see ecs_worlds)');

export const entityArg = z
  .union([z.number().int().min(0), z.string().regex(/^(Entity\()?\d+(:\d+)?\)?$/)])
  .describe('an entity: its index (the live version is found), or "index:version"');

export function parseEntity(e: number | string): { index: number; version?: number } {
  if (typeof e === 'number') return { index: e };
  const m = /(\d+)(?::(\d+))?/.exec(e);
  if (!m)
    throw new UnityError(
      'INVALID_ARGUMENT',
      `not an entity: ${e} (use "index" or "index:version")`,
    );
  return m[2] !== undefined
    ? { index: Number(m[1]), version: Number(m[2]) }
    : { index: Number(m[1]) };
}

export const entityOut = z.object({ index: z.number().int(), version: z.number().int() });
export const componentName = z
  .string()
  .min(1)
  .describe('component type: full or simple name ("Health", "Unity.Transforms.LocalTransform")');
export const gateArgs = {
  dry_run: z.boolean().optional().describe('only preview what would change (with current values)'),
  confirm: z
    .boolean()
    .optional()
    .describe('apply a destructive change (the refusal shows its preview)'),
};

export const show = (v: unknown): string => clip(JSON.stringify(v), TEXT_CHARS);
export const enabledText = (on: boolean | undefined): string =>
  on === undefined ? '' : on ? ', enabled' : ', disabled';
export const ent = (e: { index: number; version: number }): string =>
  `Entity(${e.index}:${e.version})`;
