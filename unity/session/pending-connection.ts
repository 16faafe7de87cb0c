// Our connection to a game whose agent has not greeted it: it waits in the agent's listen backlog
// behind another debugger. It is never closed unanswered (Mono's agent would end its debugger
// thread for good, docs/solutions/debugger-slot.md): when the agent accepts it, it becomes the
// session's attachment if still wanted, or is closed cleanly (resume + DISPOSE) if not.

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { Errors, messageOf } from '../errors.js';
import type { GameConnection } from './game-connection.js';

export interface PendingHost {
  /** Makes the session's attachment of the accepted connection (the identity check included). */
  adopt(conn: SdbConnection): Promise<GameConnection>;
  /** Ends an adopted attachment that stopped being wanted while it was adopted. */
  drop(a: GameConnection): Promise<void>;
  /** The session is shut down. */
  closed(): boolean;
  log(message: string): void;
}

const TIMED_OUT = Symbol('timed out');

export class PendingConnection {
  /** Adopted when the agent accepts it; false once detach, shutdown or a new target gave it up. */
  wanted = true;
  /** The agent answered (and the connection was adopted or closed), or the wait failed. */
  settled = false;
  /** The attachment made of it, or undefined when it was not wanted any more; rejects on failure. */
  readonly outcome: Promise<GameConnection | undefined>;

  constructor(
    readonly endpoint: string,
    late: Promise<SdbConnection>,
    private readonly host: PendingHost,
  ) {
    host.log(
      `session: ${endpoint} is busy: our connection waits in its backlog until the debugger holding it leaves`,
    );
    this.outcome = late
      .then(
        async (conn) => {
          if (!this.stillWanted()) return this.closeUnwanted(conn);
          const a = await host.adopt(conn);
          if (this.stillWanted()) {
            host.log(`session: ${endpoint} accepted our pending connection: attached`);
            return a;
          }
          await host.drop(a); // given up while it was being adopted
          return undefined;
        },
        (e: unknown) => {
          host.log(`session: our pending connection to ${endpoint} failed: ${messageOf(e)}`);
          throw Errors.attachFailed(endpoint, e);
        },
      )
      .finally(() => (this.settled = true));
    this.outcome.catch(() => undefined); // a caller may not be waiting when it fails
  }

  /** Waits for the agent to accept, at most `ms`: TIMED_OUT when it has not. */
  async wait(ms: number): Promise<GameConnection | undefined | typeof TIMED_OUT> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), ms);
    });
    try {
      return await Promise.race([this.outcome, bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * No longer wanted: waits at most `ms` for the agent to accept (the connection is then closed
   * cleanly). Resolves false when it still waits: it will be closed cleanly whenever the agent
   * accepts it, as long as this process runs.
   */
  async giveUp(ms: number): Promise<boolean> {
    this.wanted = false;
    if (!this.settled) await this.wait(ms).catch(() => undefined);
    if (!this.settled) {
      this.host.log(
        `session: our connection to ${this.endpoint} still waits behind another debugger; it is ` +
          `closed cleanly (resume + DISPOSE) when the agent accepts it, unless this process has ` +
          `ended by then (the agent then finds it closed and accepts no debugger until the game restarts)`,
      );
    }
    return this.settled;
  }

  static timedOut(value: unknown): value is typeof TIMED_OUT {
    return value === TIMED_OUT;
  }

  private stillWanted(): boolean {
    return this.wanted && !this.host.closed();
  }

  private async closeUnwanted(conn: SdbConnection): Promise<undefined> {
    this.host.log(
      `session: ${this.endpoint} accepted our pending connection after it was given up: closed cleanly`,
    );
    await conn.close();
    return undefined;
  }
}
