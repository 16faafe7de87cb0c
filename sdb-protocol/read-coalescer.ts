// Field reads of one type (statics) or one object issued in the same tick travel as one
// command (after the tick's first read, which leaves at once). Mono's agent handles commands strictly one at a time and each costs it tens of
// microseconds whatever its size, while one more field in a GET_VALUES costs it well under one:
// a burst of reads is bounded by the agent's per-command cost, not by the wire.
//
// Only consecutive reads merge: any other command flushes the pending batch first, so a read is
// never moved across a write. One read refused inside a merged command (a thread-static field,
// say) does not fail the others: the batch is then re-sent read by read.

import type { SendOptions } from './connection-options.js';
import { isAgentError, SdbAgentError } from './errors.js';
import type { Value } from './values.js';
import { ErrorCode } from './vocabulary.js';

export type CoalescableName = 'TYPE.GET_VALUES' | 'OBJECT_REF.GET_VALUES';
export type ReadParams =
  | { typeId: number; fieldIds: readonly number[] }
  | { objectId: number; fieldIds: readonly number[] };

export interface ReadSender {
  send(
    name: CoalescableName,
    params: ReadParams,
    options: SendOptions | undefined,
  ): Promise<Value[]>;
  /** Throws (like the encoder would) when a field/type id was never handed out. */
  checkIds(params: ReadParams): void;
}

interface Part {
  params: ReadParams;
  timeoutMs: number | undefined;
  resolve: (values: Value[]) => void;
  reject: (error: unknown) => void;
}

interface Batch {
  name: CoalescableName;
  key: number;
  fields: number;
  parts: Part[];
}

/** Beyond this many fields a batch is sent and a new one started. */
const MAX_FIELDS = 1024;

export function isCoalescable(
  name: string,
  options: SendOptions | undefined,
): name is CoalescableName {
  return (
    (name === 'TYPE.GET_VALUES' || name === 'OBJECT_REF.GET_VALUES') &&
    options?.onSent === undefined
  );
}

export class ReadCoalescer {
  private batch: Batch | undefined;
  private scheduled = false;
  private readThisTick = false;
  /** Commands saved by merging (reads that did not need their own packet). */
  merged = 0;

  constructor(private readonly sender: ReadSender) {}

  offer(
    name: CoalescableName,
    params: ReadParams,
    options: SendOptions | undefined,
  ): Promise<Value[]> {
    this.sender.checkIds(params);
    if (!this.batch && !this.readThisTick) {
      // the first read of a tick goes at once: a lone read never waits for company
      this.readThisTick = true;
      process.nextTick(() => (this.readThisTick = false));
      return this.sender.send(name, params, options);
    }
    const key = 'typeId' in params ? params.typeId : params.objectId;
    const b = this.batch;
    if (b && (b.name !== name || b.key !== key || b.fields + params.fieldIds.length > MAX_FIELDS))
      this.flush();
    const batch = (this.batch ??= { name, key, fields: 0, parts: [] });
    batch.fields += params.fieldIds.length;
    const result = new Promise<Value[]>((resolve, reject) => {
      batch.parts.push({ params, timeoutMs: options?.timeoutMs, resolve, reject });
    });
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(() => {
        this.scheduled = false;
        this.flush();
      });
    }
    return result;
  }

  /** Sends the pending batch, if any. Called before any other command is written. */
  flush(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    if (batch.parts.length === 1) {
      const [only] = batch.parts;
      this.sender
        .send(batch.name, only!.params, { timeoutMs: only!.timeoutMs })
        .then(only!.resolve, only!.reject);
      return;
    }
    this.merged += batch.parts.length - 1;
    const fieldIds = batch.parts.flatMap((p) => p.params.fieldIds);
    const merged: ReadParams =
      batch.name === 'TYPE.GET_VALUES'
        ? { typeId: batch.key, fieldIds }
        : { objectId: batch.key, fieldIds };
    const timeouts = batch.parts
      .map((p) => p.timeoutMs)
      .filter((t): t is number => t !== undefined);
    const timeoutMs = timeouts.length ? Math.min(...timeouts) : undefined;
    this.sender.send(batch.name, merged, { timeoutMs }).then(
      (values) => {
        let at = 0;
        for (const p of batch.parts) {
          p.resolve(values.slice(at, at + p.params.fieldIds.length));
          at += p.params.fieldIds.length;
        }
      },
      (error: unknown) => {
        if (!(error instanceof SdbAgentError) || isAgentError(error, ErrorCode.INVALID_OBJECT)) {
          // the connection, the bound or the object failed: every read would fail the same way
          for (const p of batch.parts) p.reject(error);
          return;
        }
        // one field spoiled the command: give each read its own outcome
        for (const p of batch.parts) {
          this.sender
            .send(batch.name, p.params, { timeoutMs: p.timeoutMs })
            .then(p.resolve, p.reject);
        }
      },
    );
  }
}
