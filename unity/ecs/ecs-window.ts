// Every ECS operation's shape: a pass without a suspend window for name resolution and
// metadata, then the work in one window.

import { UnityError } from '../errors.js';
import {
  sumCosts,
  type GameSession,
  type OperationContext,
  type OperationResult,
} from '../session/session.js';
import { EcsAccess } from './ecs-access.js';

/**
 * Runs `op` in a suspend window, after a pass without one that resolves the component names and
 * fetches the metadata the window will need: an unknown name never holds the game, and a first
 * call holds it little longer than a later one.
 */
async function inWindow<T>(
  session: GameSession,
  caller: string,
  label: string,
  names: readonly string[],
  op: (ecs: EcsAccess) => Promise<T>,
  options: { writes?: boolean; exclusive?: boolean } = {},
): Promise<OperationResult<T>> {
  const started = performance.now();
  const prep = await session.run(
    `${label} (lookups)`,
    caller,
    (ctx) => new EcsAccess(ctx).prepare(names),
    {
      window: false,
    },
  );
  const r = await session.run(
    label,
    caller,
    async (ctx: OperationContext) => {
      const ecs = new EcsAccess(ctx);
      try {
        return await op(ecs);
      } catch (e) {
        // a disposed world's EntityManager throws in the game: fetch them again next time
        if (e instanceof UnityError && e.code === 'GAME_EXCEPTION') ecs.forgetManagers();
        throw e;
      }
    },
    options,
  );
  return { value: r.value, cost: sumCosts([prep.cost, r.cost], started) };
}

export function read<T>(
  session: GameSession,
  caller: string,
  label: string,
  op: (ecs: EcsAccess) => Promise<T>,
  names: readonly string[] = [],
) {
  return inWindow(session, caller, label, names, op);
}

export function write<T>(
  session: GameSession,
  caller: string,
  label: string,
  op: (ecs: EcsAccess) => Promise<T>,
  names: readonly string[] = [],
) {
  return inWindow(session, caller, label, names, op, { writes: true, exclusive: true });
}
