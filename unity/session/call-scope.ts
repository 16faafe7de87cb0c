// The tool call an operation belongs to, carried by AsyncLocalStorage: the dispatcher
// (mcp/server.ts callTool) enters it with the tool's name and tier, so the scheduler knows which
// tier waits (queue_status) and an `instant` tool that opens a window shows up (counted per
// tier, logged). It also carries the scheduler turn an operation runs in, so an operation started
// from inside another one of the same game runs in that turn instead of waiting behind itself.

import { AsyncLocalStorage } from 'node:async_hooks';

import type { QueueTier } from './scheduler.js';

export interface CallScope {
  tool?: string;
  tier?: Exclude<QueueTier, 'internal'>;
  /** The scheduler turn the current operation runs in. */
  turn?: { scheduler: object; id: number };
  /** Told where the call's operations wait in line (a job's progress: queue position). */
  onQueued?: (position: number | undefined) => void;
}

const storage = new AsyncLocalStorage<CallScope>();

/** Runs `fn` as part of the call of `tool` (its tier decides how its operations are listed). */
export function inToolCall<T>(
  tool: string,
  tier: Exclude<QueueTier, 'internal'>,
  fn: () => Promise<T>,
  onQueued?: CallScope['onQueued'],
): Promise<T> {
  return storage.run({ tool, tier, ...(onQueued ? { onQueued } : {}) }, fn);
}

export function currentScope(): CallScope | undefined {
  return storage.getStore();
}

/** Runs `fn` inside `turn` (operations it starts on the same scheduler are nested). */
export function inTurn<T>(turn: CallScope['turn'], fn: () => Promise<T>): Promise<T> {
  return storage.run({ ...storage.getStore(), turn }, fn);
}

/**
 * Runs `fn` outside every call: for what outlives the call that started it (a connection's
 * socket, whose event handlers would otherwise run in the first call's scope).
 */
export function outsideCalls<T>(fn: () => T): T {
  return storage.exit(fn);
}
