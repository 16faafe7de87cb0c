// What this client holds of the game, so close() can give it all back: suspend levels (its own
// VM.SUSPENDs plus every ALL-policy event set) and invokes still running on a thread.

import type { CommandName } from './commands/index.js';
import { SuspendPolicy } from './vocabulary.js';

export interface RunningInvoke {
  threadId: number;
  /** Settles when the invoke's reply (or failure) has arrived. */
  settled: Promise<unknown>;
}

export class SuspendLedger {
  /** Suspend levels held. */
  levels = 0;
  /** Invokes in flight, by packet id: close() aborts them before it resumes (close-sequence.ts). */
  readonly invokes = new Map<number, RunningInvoke>();

  /** The VM waited for us at its start (suspend=y) and connect kept it so: a level we hold. */
  noteStartSuspension(): void {
    this.levels++;
  }

  /** After a successful reply. */
  noteReply(name: CommandName): void {
    if (name === 'VM.SUSPEND') this.levels++;
    else if (name === 'VM.RESUME') this.levels = Math.max(0, this.levels - 1);
  }

  /**
   * Called with an event set's policy byte before the set is decoded: an undecodable ALL-policy
   * set still suspended the VM, and close() must resume it.
   */
  noteEventSet(policy: number | undefined): void {
    if (policy === SuspendPolicy.ALL) this.levels++;
  }

  /** Records a written request; invokes are kept until their reply. */
  noteSent(name: CommandName, packetId: number, params: unknown, reply: Promise<unknown>): void {
    if (name !== 'VM.INVOKE_METHOD' && name !== 'VM.INVOKE_METHODS') return;
    const { threadId } = params as { threadId: number };
    const settled = reply.then(
      () => this.invokes.delete(packetId),
      () => this.invokes.delete(packetId),
    );
    this.invokes.set(packetId, { threadId, settled });
  }
}
