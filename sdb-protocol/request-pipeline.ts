// Requests on their way out and their replies on their way back: the `since` gate, the guards,
// encoding, the registry entry (id, timer), the write, and decoding or failing
// the reply. Many requests are in flight at once; replies are matched by id. Same-tick field
// reads may be merged into one command first (read-coalescer.ts).

import { PacketReader } from './buffer-reader.js';
import { PacketWriter } from './buffer-writer.js';
import { CallbackRegistry } from './callback-registry.js';
import type { CommandDef, GuardContext } from './command.js';
import {
  commands,
  readInvokeResult,
  type CommandName,
  type InvokeResult,
  type ParamsOf,
  type ResultOf,
} from './commands/index.js';
import type { ConnectionStats, SendOptions } from './connection-options.js';
import { SdbAgentError, SdbProtocolError, SdbUnsupportedError } from './errors.js';
import { writeCommandHeader, type ReplyPacket } from './framing.js';
import type { KnownIds } from './known-ids.js';
import { ReadCoalescer, isCoalescable, type ReadParams } from './read-coalescer.js';
import { explainOnRuntime, refuseOnRuntime } from './runtime-guard.js';
import { CommandSet, ErrorCode, HEADER_SIZE } from './vocabulary.js';
import { ProtocolVersion } from './version.js';

/** What the pipeline and the inbound router read of their connection (SdbConnection has it). */
export interface ConnectionState {
  readonly endpoint: string;
  readonly version: ProtocolVersion;
  readonly knownIds: KnownIds;
  readonly stats: ConnectionStats;
  /** Why the connection ended, once it has: requests then fail with it. */
  readonly closeReason: Error | undefined;
}

/** What the pipeline does through its connection. */
export interface PipelineHooks {
  readonly guardContext: GuardContext;
  write(packet: Buffer): void;
  /** Bookkeeping that follows from a successful reply. */
  afterReply(name: CommandName, params: unknown, value: unknown): void;
  /** A request was written; `reply` is its outcome. */
  afterSend(name: CommandName, packetId: number, params: unknown, reply: Promise<unknown>): void;
}

export class RequestPipeline {
  private readonly registry = new CallbackRegistry();
  private readonly coalescer: ReadCoalescer | undefined;

  constructor(
    private readonly state: ConnectionState,
    private readonly hooks: PipelineHooks,
    private readonly requestTimeoutMs: number,
    coalesceReads: boolean,
  ) {
    if (coalesceReads) {
      this.coalescer = new ReadCoalescer({
        send: (name, params, options) => this.send(name, params as ParamsOf<typeof name>, options),
        checkIds: (params) => {
          if ('typeId' in params) state.knownIds.check('type', params.typeId);
          for (const f of params.fieldIds) state.knownIds.check('field', f);
        },
      });
    }
  }

  get pending(): number {
    return this.registry.size;
  }

  /** Reads merged into another read's command so far (see read-coalescer.ts). */
  get mergedReads(): number {
    return this.coalescer?.merged ?? 0;
  }

  /** As send(), but a field read may wait for the rest of its tick and join one command. */
  submit<K extends CommandName>(
    name: K,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    if (this.coalescer && isCoalescable(name, options) && !this.state.closeReason) {
      try {
        return this.coalescer.offer(name, params as unknown as ReadParams, options) as Promise<
          ResultOf<K>
        >;
      } catch (e) {
        return Promise.reject(asError(e));
      }
    }
    return this.send(name, params, options);
  }

  /** Routes a reply to its request; false when none waits for it (timed out earlier?). */
  resolve(reply: ReplyPacket): boolean {
    return this.registry.resolve(reply);
  }

  rejectAll(reason: Error): void {
    this.registry.rejectAll(reason);
  }

  send<K extends CommandName>(
    name: K,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    try {
      this.throwIfClosed();
      // a pending batch of reads leaves before this command: reads never move across others
      this.coalescer?.flush();
      const def = commands[name] as unknown as CommandDef<ParamsOf<K>, ResultOf<K>>;
      const version = this.state.version;
      if (
        def.since !== undefined &&
        version !== ProtocolVersion.UNSET &&
        !version.atLeast(def.since)
      ) {
        throw new SdbUnsupportedError(
          `${name} needs protocol 2.${def.since}; the agent at ${this.state.endpoint} speaks ${version.toString()}`,
        );
      }
      const ctx = this.hooks.guardContext;
      const onRuntime = refuseOnRuntime(name, params, ctx);
      const pending = onRuntime
        ? onRuntime.then(() => def.guard?.(params, ctx))
        : def.guard?.(params, ctx);
      if (pending) return this.dispatchAfter(pending, name, def, params, options);
      return this.dispatch(name, def, params, options);
    } catch (e) {
      return Promise.reject(asError(e));
    }
  }

  /**
   * Writes a bodiless command and expects nothing back: for when the stream can no longer be
   * trusted but the agent still reads it in order (the abort's RESUMEs and DISPOSE).
   */
  writeBare(name: 'VM.RESUME' | 'VM.DISPOSE'): void {
    const def = commands[name];
    const packet = new PacketWriter(undefined, HEADER_SIZE).finish();
    writeCommandHeader(packet, this.registry.nextId(), CommandSet[def.set], def.command);
    this.hooks.write(packet);
  }

  private throwIfClosed(): void {
    const reason = this.state.closeReason;
    if (reason) throw reason;
  }

  /** For guards that ask the agent first (array and string lengths, value types). */
  private async dispatchAfter<K extends CommandName>(
    guard: Promise<void>,
    name: K,
    def: CommandDef<ParamsOf<K>, ResultOf<K>>,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    await guard;
    this.throwIfClosed();
    return this.dispatch(name, def, params, options);
  }

  /** Encodes, registers and writes one request, synchronously; the promise is its reply. */
  private dispatch<K extends CommandName>(
    name: K,
    def: CommandDef<ParamsOf<K>, ResultOf<K>>,
    params: ParamsOf<K>,
    options: SendOptions | undefined,
  ): Promise<ResultOf<K>> {
    const { version, knownIds } = this.state;
    const w = new PacketWriter(knownIds, HEADER_SIZE);
    def.encode(w, params, version);
    const packet = w.finish();
    const id = this.registry.nextId();
    writeCommandHeader(packet, id, CommandSet[def.set], def.command);

    const timeoutMs = options?.timeoutMs ?? this.requestTimeoutMs;
    const result = new Promise<ResultOf<K>>((resolve, reject) => {
      if (def.replies) {
        const collect = this.collectInvokeReplies(
          name,
          def.replies(params),
          version,
          resolve as (r: InvokeResult[]) => void,
          reject,
        );
        this.registry.register(id, name, timeoutMs, collect, reject);
        return;
      }
      this.registry.register(
        id,
        name,
        timeoutMs,
        (reply) => {
          if (reply.errorCode !== ErrorCode.NONE) {
            reject(explainOnRuntime(this.hooks.guardContext, agentError(name, reply)));
            return true;
          }
          let value: ResultOf<K>;
          try {
            value = def.decode(new PacketReader(reply.body, knownIds), version, params);
          } catch (e) {
            reject(
              e instanceof SdbProtocolError
                ? new SdbProtocolError(`${name} reply: ${e.message}`)
                : (e as Error),
            );
            return true;
          }
          this.hooks.afterReply(name, params, value);
          resolve(value);
          return true;
        },
        reject,
      );
    });
    this.hooks.write(packet);
    this.state.stats.commandsSent++;
    this.hooks.afterSend(name, id, params, result);
    options?.onSent?.(id);
    return result;
  }

  /**
   * VM.INVOKE_METHODS: one reply per call with the request's id, plus the agent thread's own
   * acknowledgement (error 0, empty body). The acknowledgement races the invoking thread, so it
   * may come anywhere; a real result always has at least its flags byte. A command refused
   * outright (NOT_SUSPENDED, a dead thread) gets a single error reply.
   */
  private collectInvokeReplies(
    name: string,
    expected: number,
    version: ProtocolVersion,
    resolve: (r: InvokeResult[]) => void,
    reject: (e: Error) => void,
  ): (reply: ReplyPacket) => boolean {
    const results: InvokeResult[] = [];
    let acknowledged = false;
    return (reply) => {
      if (reply.errorCode !== ErrorCode.NONE) {
        // The agent fails the remaining calls with the same error; report the first.
        reject(agentError(`${name} (call ${results.length + 1} of ${expected})`, reply));
        return true;
      }
      if (!acknowledged && reply.body.length === 0) {
        acknowledged = true;
        return false;
      }
      try {
        results.push(readInvokeResult(new PacketReader(reply.body, this.state.knownIds), version));
      } catch (e) {
        reject(new SdbProtocolError(`${name} reply: ${(e as Error).message}`));
        return true;
      }
      if (results.length < expected) return false;
      resolve(results);
      return true;
    };
  }
}

export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function agentError(command: string, reply: ReplyPacket): SdbAgentError {
  // Error bodies are mostly unspecified (INVOKE_ABORTED carries the exception, a failed
  // GET_VALUES partial output). Only an INVALID_ARGUMENT body that is exactly one string is read
  // as the message newer agents add.
  let message: string | undefined;
  if (reply.errorCode === ErrorCode.INVALID_ARGUMENT && reply.body.length >= 4) {
    if (reply.body.readInt32BE(0) === reply.body.length - 4) {
      message = reply.body.toString('utf8', 4) || undefined;
    }
  }
  return new SdbAgentError(command, reply.errorCode, message);
}
