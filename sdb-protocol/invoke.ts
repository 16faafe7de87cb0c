// Invoking on a thread that may still be in native code. After VM.SUSPEND a thread inside
// native code (a sleep, the engine's frame) counts as suspended but cannot run invokes: the agent
// answers NOT_SUSPENDED until the thread re-enters managed code and parks. That is a wait, not a
// fault (sdb-protocol.md §4.4), so it is retried here within a bound.

import type { InvokeParams, InvokeResult } from './commands/vm.js';
import type { SdbConnection } from './connection.js';
import { SdbNotParkedError, SdbUnsafeRequestError, isAgentError } from './errors.js';
import { ErrorCode } from './vocabulary.js';

export interface ParkedInvokeOptions {
  /** How long the thread may take to reach managed code. */
  parkTimeoutMs: number;
  /** Bound of the invoke itself once it runs. */
  timeoutMs?: number;
  onSent?: (packetId: number) => void;
}

export interface ParkedInvokeResult {
  result: InvokeResult;
  /** NOT_SUSPENDED answers before the thread parked. */
  retries: number;
  waitedMs: number;
}

export async function invokeWhenParked(
  conn: SdbConnection,
  params: InvokeParams,
  options: ParkedInvokeOptions,
): Promise<ParkedInvokeResult> {
  if (conn.suspendCount === 0) {
    throw new SdbUnsafeRequestError(
      'invoke refused: the VM is not suspended by this client (suspend first)',
    );
  }
  const started = performance.now();
  let retries = 0;
  for (;;) {
    try {
      const result = await conn.send('VM.INVOKE_METHOD', params, {
        timeoutMs: options.timeoutMs,
        onSent: options.onSent,
      });
      return { result, retries, waitedMs: performance.now() - started };
    } catch (e) {
      if (!isAgentError(e, ErrorCode.NOT_SUSPENDED)) throw e;
      const waited = performance.now() - started;
      if (waited >= options.parkTimeoutMs) {
        throw new SdbNotParkedError(
          `thread ${params.threadId} did not reach managed code in ${options.parkTimeoutMs} ms ` +
            `(it is in native code: a long engine frame, a blocking call, or a wedged main thread); ` +
            `nothing was invoked`,
          params.threadId,
          options.parkTimeoutMs,
        );
      }
      retries++;
      // Retry at once: once the thread parks, every moment until the invoke runs is game freeze.
      await new Promise((r) => setImmediate(r));
    }
  }
}
