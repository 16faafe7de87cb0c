// What an operation cost: wire commands, invokes, how long it held the game, its wall time, and
// its wait for a turn (queue ms, and how many operations ran before it meanwhile);
// measured from the connection's command counter and performance.now().

import type { GameConnection } from './game-connection.js';

export interface OperationCost {
  wireCommands: number;
  invokes: number;
  /** How long the game was held by this operation's window (ms). */
  freezeMs: number;
  wallMs: number;
  /** How long it waited for its turn at the game (ms; absent: it did not wait). */
  queueMs?: number;
  /** How many other operations held the game while it waited. */
  queuedBehind?: number;
}

export function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/**
 * An operation with a suspend window: the commands since `commandsBefore` (the SUSPEND
 * included) and the RESUME to come; the freeze since the window opened.
 */
export function windowCost(
  a: GameConnection,
  commandsBefore: number,
  invokes: number,
  windowOpened: number,
  started: number,
): OperationCost {
  const now = performance.now();
  return {
    wireCommands: a.conn.stats.commandsSent - commandsBefore + 1, // the RESUME to come
    invokes,
    freezeMs: round(now - windowOpened),
    wallMs: round(now - started),
  };
}

/** Commands sent since `before`, without a window (no invokes, no freeze). */
export function simpleCost(a: GameConnection, before: number, started: number): OperationCost {
  const ms = round(performance.now() - started);
  return { wireCommands: a.conn.stats.commandsSent - before, invokes: 0, freezeMs: 0, wallMs: ms };
}

/** Nothing sent: wall time only. */
export function zeroCost(started: number): OperationCost {
  return { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: round(performance.now() - started) };
}

/**
 * The cost of several operations run one after another for one tool call: commands, invokes and
 * freeze add up; wall time is the caller's own measure from `startedAt` (performance.now()) when
 * given, else the sum.
 */
export function sumCosts(costs: readonly OperationCost[], startedAt?: number): OperationCost {
  const total: OperationCost = { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: 0 };
  for (const c of costs) {
    total.wireCommands += c.wireCommands;
    total.invokes += c.invokes;
    total.freezeMs = round(total.freezeMs + c.freezeMs);
    total.wallMs = round(total.wallMs + c.wallMs);
    if (c.queueMs !== undefined) total.queueMs = round((total.queueMs ?? 0) + c.queueMs);
    if (c.queuedBehind !== undefined)
      total.queuedBehind = (total.queuedBehind ?? 0) + c.queuedBehind;
  }
  if (startedAt !== undefined) total.wallMs = round(performance.now() - startedAt);
  return total;
}
