// Which game the session attaches to and who that game is: the target it points at, how a
// target resolves to an endpoint through discovery (and finds the same game again after a
// restart), and the identity that tells a restarted or replaced game from the one chosen.

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { Errors, UnityError } from '../errors.js';

/** A game found by discovery, resolved to an endpoint. */
export interface PlayerEndpoint {
  key: string;
  label: string;
  host: string;
  port: number;
  /** The beacon's per-run id, when the player came from discovery. */
  guid?: number;
  projectName?: string;
}

/** What the session asks of discovery (unity/discovery implements it). */
export interface PlayerResolver {
  /** No selector: the one visible debuggable player; throws NO_PLAYER / AMBIGUOUS_PLAYER. */
  select(selector?: string): PlayerEndpoint;
  /** The same game after a restart (new run id, maybe a new port), if it is visible. */
  reselect?(previous: PlayerEndpoint): PlayerEndpoint | undefined;
}

export type Target =
  | { kind: 'auto' }
  | { kind: 'player'; selector: string }
  | { kind: 'endpoint'; host: string; port: number };

/** Refuses an endpoint target whose port cannot be one. */
export function checkTarget(target: Target): void {
  if (
    target.kind === 'endpoint' &&
    (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535)
  ) {
    throw Errors.invalidArgument(`port must be an integer in 1-65535, got ${target.port}`);
  }
}

/**
 * Where `target` is now: its endpoint, or the player discovery selects (`previous`, the player
 * last attached to, when the selection fails: found again by what identifies it, or tried where
 * it was).
 */
export function resolveTarget(
  target: Target,
  players: PlayerResolver | undefined,
  discoveryProblem: string | undefined,
  previous: PlayerEndpoint | undefined,
): { host: string; port: number; player?: PlayerEndpoint } {
  const t = target;
  if (t.kind === 'endpoint') return { host: t.host, port: t.port };
  if (!players) {
    throw Errors.noPlayer(
      `no endpoint was given and discovery is unavailable${discoveryProblem ? ` (${discoveryProblem})` : ''}`,
    );
  }
  let player: PlayerEndpoint | undefined;
  try {
    player = players.select(t.kind === 'player' ? t.selector : undefined);
  } catch (e) {
    if (!previous) throw e;
    // the chosen game restarted under a new run id: find it again by what identifies it;
    // or it is paused (a suspended game stops announcing): try where it was
    player = players.reselect?.(previous) ?? previous;
  }
  return { host: player.host, port: player.port, player };
}

/**
 * Who the game is: the OS id and object address of the thread that started the runtime (the
 * main thread's OS id is the process id on Linux), and the beacon's run id when known. A game
 * restarted at the same endpoint has a different identity.
 */
export async function gameIdentity(
  conn: SdbConnection,
  player: PlayerEndpoint | undefined,
): Promise<string> {
  const threads = await conn.send('VM.ALL_THREADS');
  const start = conn.vmStart?.threadId;
  const thread = start !== undefined && threads.includes(start) ? start : threads[0];
  if (thread === undefined)
    throw new UnityError('ATTACH_FAILED', 'the game reports no managed threads');
  const [tid, address] = await Promise.all([
    conn.send('THREAD.GET_TID', { threadId: thread }),
    conn.send('THREAD.GET_ID', { threadId: thread }),
  ]);
  const run = player?.guid !== undefined ? ` run ${player.guid}` : '';
  return `tid ${tid} thread@0x${address.toString(16)}${run}`;
}
