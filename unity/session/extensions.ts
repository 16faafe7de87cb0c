// What is layered on the session and leaves state in the game beyond a window (unity/debug's
// breakpoints, steps and event pauses), and the session's calls into it, each guarded so that
// one extension's failure is logged and never stops the session's own clean-up.

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { messageOf } from '../errors.js';

/**
 * Something layered on the session that leaves state in the game beyond a window: breakpoints,
 * step requests, and pauses the game entered by itself at an event (unity/debug). The session
 * calls these hooks so that detach, shutdown, drops and departing callers undo that state too.
 * Event pauses need no hook for the resume: the connection counts an ALL-policy event set as a
 * suspend level it holds, and close() resumes every level it holds.
 */
export interface SessionExtension {
  /**
   * Detach/shutdown is about to close `conn`: queue (never await: detach waits on nothing) the
   * commands that remove the extension's requests. They leave before close()'s RESUMEs and
   * DISPOSE, and the agent runs commands in order.
   */
  beforeClose?(conn: SdbConnection): void;
  /** `conn` is gone (closed, dropped, replaced): forget what lived on it. */
  connectionEnded?(conn: SdbConnection): void;
  /** A caller went away: release what it owned (its pause, its breakpoints). */
  callerGone?(caller: string): Promise<void>;
  /**
   * True when invokes must leave the other threads suspended: a thread other than the main one
   * is stopped at an event the extension keeps, and must not run on during the call.
   */
  keepThreadsStopped?(mainThreadId: number): boolean;
}

/** The extensions registered on one session. */
export class Extensions {
  private readonly all = new Set<SessionExtension>();

  constructor(private readonly log: (message: string) => void) {}

  /** Registers an extension; returns the unregister function. */
  add(extension: SessionExtension): () => void {
    this.all.add(extension);
    return () => this.all.delete(extension);
  }

  beforeClose(conn: SdbConnection): void {
    for (const x of this.all) {
      try {
        x.beforeClose?.(conn);
      } catch (e) {
        this.log(`session: extension clean-up: ${messageOf(e)}`);
      }
    }
  }

  connectionEnded(conn: SdbConnection): void {
    for (const x of this.all) {
      try {
        x.connectionEnded?.(conn);
      } catch (e) {
        this.log(`session: extension: ${messageOf(e)}`);
      }
    }
  }

  async callerGone(caller: string): Promise<void> {
    for (const x of this.all)
      await x.callerGone?.(caller).catch((e: unknown) => this.log(messageOf(e)));
  }

  keepThreadsStopped(mainThreadId: number): boolean {
    return [...this.all].some((x) => x.keepThreadsStopped?.(mainThreadId));
  }
}
