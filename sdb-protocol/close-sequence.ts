// How a connection ends without leaving the game frozen: abort running invokes, RESUME once per
// suspend level held, VM.DISPOSE (Mono's agent accepts no new debugger after an abrupt close),
// then close the transport, all within one bound. When the stream can no longer be trusted the
// same commands are written without waiting for replies.

import type { CommandName, ParamsOf, ResultOf } from './commands/index.js';
import type { SendOptions } from './connection-options.js';
import { isAgentError } from './errors.js';
import type { SuspendLedger } from './suspend-ledger.js';
import type { Transport } from './transport.js';
import { ErrorCode } from './vocabulary.js';

export interface Closing {
  readonly ledger: SuspendLedger;
  readonly transport: Transport;
  /** Resolves once the transport has closed. */
  readonly transportClosed: Promise<void>;
  send<K extends CommandName>(
    name: K,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>>;
  writeBare(name: 'VM.RESUME' | 'VM.DISPOSE'): void;
  log(message: string): void;
}

/** The orderly close of a live connection; resolves once the transport has closed. */
export async function closeInOrder(c: Closing, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const left = (): number => Math.max(1, deadline - Date.now());
  try {
    // An invoke still running when DISPOSE resumes the VM re-suspends it when it returns,
    // leaving the game frozen with nobody attached: abort invokes and let them finish first.
    if (c.ledger.invokes.size > 0) {
      const running = [...c.ledger.invokes.entries()];
      await Promise.allSettled(
        running.map(([invokeId, { threadId }]) =>
          c.send('VM.ABORT_INVOKE', { threadId, invokeId }, { timeoutMs: left() }),
        ),
      );
      await Promise.race([
        Promise.allSettled(running.map(([, r]) => r.settled)),
        new Promise((r) => setTimeout(r, left() / 2).unref()),
      ]);
    }
    while (c.ledger.levels > 0) {
      try {
        await c.send('VM.RESUME', undefined, { timeoutMs: left() });
      } catch (e) {
        if (isAgentError(e, ErrorCode.NOT_SUSPENDED)) break;
        throw e;
      }
    }
    await c.send('VM.DISPOSE', undefined, { timeoutMs: left() });
    // DISPOSE answered: every byte we wrote was read. Mono's agent does not close its end
    // (in deferred mode it just starts accepting the next client), so do not wait for it.
    c.transport.destroy();
  } catch (e) {
    c.log(`sdb close: ${(e as Error).message}`);
    c.transport.end();
    setTimeout(() => c.transport.destroy(), left()).unref();
  }
  await c.transportClosed;
}

/**
 * For when the stream can no longer be trusted: writes RESUMEs and DISPOSE without waiting for
 * replies (the agent still reads them in order), then ends the transport.
 */
export function closeUnheard(c: Closing, timeoutMs: number): void {
  try {
    for (let i = 0; i < c.ledger.levels; i++) c.writeBare('VM.RESUME');
    c.writeBare('VM.DISPOSE');
    c.transport.end();
  } catch {
    // the transport is already gone
  }
  setTimeout(() => c.transport.destroy(), timeoutMs).unref();
}
