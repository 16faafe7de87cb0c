// One operation of the session on the attached game: what it may use (OperationContext), and
// how it runs inside its counted suspend window (or, for reads that need no snapshot, without
// one), with its cost measured and its failures translated once: a drop is CONNECTION_LOST, or
// MAY_HAVE_APPLIED when the operation had begun to write. GameSession opens the window (the
// SUSPEND, retried once on a drop) in its scheduler turn; see docs/solutions/session-promises.md.

import type { InvokeCall, SdbConnection, Value } from '../../sdb-protocol/index.js';
import { Errors, fromSdbError, messageOf } from '../errors.js';
import type { InvokeOptions, InvokeOutcome } from '../invoker.js';
import type { TypeCatalog } from '../catalog/index.js';
import { simpleCost, windowCost, type OperationCost } from './cost.js';
import type { GameConnection } from './game-connection.js';

export interface OperationResult<T> {
  value: T;
  cost: OperationCost;
}

export interface RunOptions {
  /**
   * Run alone: no other window opens until this one ends. Every window now runs alone (the
   * scheduler gives one turn at a time), so this only says what the sequence relies on;
   * operations without a window (reads that need no snapshot) may still run beside it.
   */
  exclusive?: boolean;
  /**
   * The game is already stopped for this operation (a breakpoint's condition, a logpoint's
   * holes, a watch's sample): it goes before every queued operation.
   */
  urgent?: boolean;
  /** The operation changes the game: refused if the game was replaced since it was chosen. */
  writes?: boolean;
  /** Bound on waiting for the turn (default 30 s). */
  lockWaitMs?: number;
  /**
   * false: run without suspending the game, for reads that need no consistent snapshot (status
   * counters, cursors). Invokes and writes need a window and are refused.
   */
  window?: boolean;
  /**
   * With `window: false`: still take a turn. For commands that change the game's suspend count
   * outside a window (a pause's resume): one sent while another operation's invoke runs reaches
   * an agent that has resumed the whole VM for the call and is lost (NOT_SUSPENDED), and the
   * call's end suspends the game again with nobody left to resume it.
   */
  turn?: boolean;
  /**
   * The game is already held by an event set of this connection (a breakpoint's condition, a
   * logpoint's holes, a watch's sample) whose level the caller gives back itself: that level is
   * the window, with no SUSPEND or RESUME of its own (two commands less at every hit). Refused
   * with CONNECTION_LOST when the session is no longer on that connection.
   */
  heldBy?: SdbConnection;
}

/** What an operation may use while its window is open. */
export interface OperationContext {
  /** The attached game: what lives as long as this connection (see GameConnection.part). */
  readonly connection: GameConnection;
  /** connection.conn */
  readonly conn: SdbConnection;
  /** The game's main thread (found on first use, once per connection). */
  mainThread(): Promise<number>;
  /** Types and members of the game, cached per connection (connection.catalog). */
  readonly catalog: TypeCatalog;
  invoke(
    methodId: number,
    thisArg: Value,
    args: readonly Value[],
    options?: InvokeOptions,
  ): Promise<InvokeOutcome>;
  /**
   * Several calls in one command (MainThreadInvoker.invokeMany: one resume and suspend of the
   * game for all); each counts as an invoke.
   */
  invokeMany(calls: readonly InvokeCall[], options?: InvokeOptions): Promise<InvokeOutcome[]>;
  /** Call before sending anything that changes the game (SET_VALUES, an invoke that writes). */
  markWrite(): void;
}

/** What running an operation asks of the session. */
export interface OperationHost {
  /** The game found is not the one chosen: writes are refused. */
  replaced(): { expected: string; found: string } | undefined;
  /** The connection dropped under the operation. */
  noteDrop(a: GameConnection, reason: unknown): void;
  log(message: string): void;
}

/** Whether `e` says the connection is gone. */
export function isDrop(e: unknown): boolean {
  const code = (e as { code?: string } | undefined)?.code;
  return code === 'CONNECTION_CLOSED' || code === 'HANDSHAKE_FAILED' || code === 'CONNECTION_LOST';
}

/**
 * Runs `op` in the window the session has just opened (its SUSPEND sent), and closes it on
 * every path; or, with `heldBy`, in the level an event holds, which its owner gives back.
 */
export async function runInWindow<T>(
  host: OperationHost,
  a: GameConnection,
  label: string,
  op: (ctx: OperationContext) => Promise<T>,
  options: RunOptions,
  started: number,
): Promise<OperationResult<T>> {
  const ownWindow = options.heldBy === undefined;
  const windowOpened = performance.now();
  // windowCost counts the SUSPEND sent and the RESUME to come; a held window has neither
  const commandsBefore = a.conn.stats.commandsSent + (ownWindow ? -1 : 1);
  let invokes = 0;
  let wrote = false;
  const checkWrite = (): void => {
    const replaced = host.replaced();
    if (replaced) throw Errors.gameReplaced(replaced.expected, replaced.found);
    wrote = true;
  };
  try {
    if (options.writes) checkWrite();
    const ctx: OperationContext = {
      connection: a,
      conn: a.conn,
      catalog: a.catalog,
      mainThread: async () => (await a.invoker()).threadId,
      invoke: async (methodId, thisArg, args, o) => {
        const invoker = await a.invoker();
        invokes++;
        wrote = true; // an invoke may change anything
        return invoker.invoke(methodId, thisArg, args, o);
      },
      invokeMany: async (calls, o) => {
        const invoker = await a.invoker();
        invokes += calls.length;
        wrote = true;
        return invoker.invokeMany(calls, o);
      },
      markWrite: checkWrite,
    };
    const value = await op(ctx);
    return {
      value,
      cost: windowCost(a, commandsBefore, invokes, windowOpened, started),
    };
  } catch (e) {
    if (a.conn.isClosed || isDrop(e)) {
      host.noteDrop(a, e);
      throw wrote
        ? Errors.mayHaveApplied(label, a.endpoint, e)
        : Errors.connectionLost(a.endpoint, e);
    }
    throw fromSdbError(e, a.endpoint);
  } finally {
    // The RESUME is on the wire before we return, and the agent runs commands in order, so
    // nothing can overtake it; its reply is not waited for (one round trip less per
    // operation). A failure is logged, as it would be if we waited.
    if (ownWindow && !a.conn.isClosed) {
      a.conn
        .send('VM.RESUME')
        .catch((e: unknown) => host.log(`closing the window of ${label}: ${messageOf(e)}`));
    }
  }
}

/** Runs `op` without suspending the game: it may not invoke or write. */
export async function runWithoutWindow<T>(
  host: OperationHost,
  a: GameConnection,
  label: string,
  op: (ctx: OperationContext) => Promise<T>,
  started: number,
): Promise<OperationResult<T>> {
  const before = a.conn.stats.commandsSent;
  const refuse = (): never => {
    throw Errors.invalidArgument(
      `${label} runs without a suspend window: it cannot invoke or write`,
    );
  };
  try {
    const value = await op({
      connection: a,
      conn: a.conn,
      catalog: a.catalog,
      mainThread: refuse,
      invoke: refuse,
      invokeMany: refuse,
      markWrite: refuse,
    });
    return { value, cost: simpleCost(a, before, started) };
  } catch (e) {
    if (a.conn.isClosed || isDrop(e)) {
      host.noteDrop(a, e);
      throw Errors.connectionLost(a.endpoint, e);
    }
    throw fromSdbError(e, a.endpoint);
  }
}
