// What a call cost in the game, in one place: a tool hands the OperationCost of what it ran to
// its outcome once (`cost`), and callTool writes it both into the text (`cost: …` last line)
// and into the structured result (`cost`, as costSchema describes it).

import { sumCosts, type OperationCost } from '../unity/session/session.js';

/** The structured form (costSchema). */
export interface CostFields {
  wire_commands: number;
  invokes: number;
  freeze_ms: number;
  wall_ms: number;
  /** The wait for a turn at the game, and how many other operations ran meanwhile. */
  queue_ms: number;
  queued_behind: number;
}

/**
 * The cost of a call that began at `started` (performance.now()) and ran these operations in
 * the game (none: it touched nothing there, and only its wall time counts).
 */
export function callCost(
  started: number,
  operations: readonly OperationCost[] = [],
): OperationCost {
  return sumCosts(operations, started);
}

export function costFields(c: OperationCost): CostFields {
  return {
    wire_commands: c.wireCommands,
    invokes: c.invokes,
    freeze_ms: c.freezeMs,
    wall_ms: c.wallMs,
    queue_ms: c.queueMs ?? 0,
    queued_behind: c.queuedBehind ?? 0,
  };
}

export function costText(c: OperationCost): string {
  return (
    `cost: ${c.wireCommands} wire command${c.wireCommands === 1 ? '' : 's'}, ` +
    `${c.invokes} invoke${c.invokes === 1 ? '' : 's'}, game frozen ${c.freezeMs} ms, ` +
    `${c.wallMs} ms wall` +
    (c.queueMs || c.queuedBehind
      ? `, waited ${c.queueMs ?? 0} ms for the game behind ${c.queuedBehind ?? 0} other operation${c.queuedBehind === 1 ? '' : 's'}`
      : '')
  );
}
