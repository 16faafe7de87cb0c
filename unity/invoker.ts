// Runs methods in the game on its main thread, one at a time. Unity APIs are only callable there,
// and the agent accepts one pending invoke per thread.
//
// Two waits, each bounded: the main thread must first reach managed code and park (a suspended
// game's main thread is usually in native code: the agent answers NOT_SUSPENDED until it parks),
// then the call itself must finish (on expiry it is aborted, and the error says the work may
// still have happened). An exception thrown in the game comes back as the game's own type,
// message and stack trace.

import type { SdbConnection } from '../sdb-protocol/index.js';
import {
  BindingFlags,
  ErrorCode,
  InvokeFlags,
  Values,
  isAgentError,
  readString,
  ProtocolVersion,
  type InvokeCall,
  type InvokeResult,
  type Value,
} from '../sdb-protocol/index.js';
import { Errors, fromSdbError, type GameExceptionInfo } from './errors.js';

export interface InvokeOptions {
  /** Dispatch virtual methods on the receiver's runtime type. */
  virtual?: boolean;
  /** Also return the receiver after the call (struct methods mutate a copy). */
  returnOutThis?: boolean;
  /** Also return every argument after the call (out/ref parameters). */
  returnOutArgs?: boolean;
  /** Bound of the call once it runs. */
  timeoutMs?: number;
  /** Bound of the wait for the main thread to reach managed code. */
  parkTimeoutMs?: number;
}

export interface InvokeOutcome {
  result: Value;
  outThis?: Value;
  outArgs?: Value[];
}

export interface InvokerOptions {
  endpoint: string;
  parkTimeoutMs: number;
  invokeTimeoutMs: number;
  log?: (message: string) => void;
  /**
   * Whether the next invoke must leave every other thread suspended (SINGLE_THREADED). Without
   * it the agent resumes the whole VM for the call, so a thread stopped at an event we keep
   * would run on. Asked at each call.
   */
  singleThreaded?: (mainThreadId: number) => boolean;
}

function outcomeOf(r: InvokeResult & { threw: false }): InvokeOutcome {
  const outcome: InvokeOutcome = { result: r.result };
  if (r.outThis) outcome.outThis = r.outThis;
  if (r.outArgs) outcome.outArgs = r.outArgs;
  return outcome;
}

/** After an abort, how long the aborted call may take to report back. */
const ABORT_GRACE_MS = 2000;
const MESSAGE_CHARS = 8000;

export class MainThreadInvoker {
  /** Invokes run so far (including the ones made to read an exception). */
  invokes = 0;
  /** Invokes on the wire now that let the other threads run (see allThreadsRunning). */
  private allThreadCalls = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private idle = true;
  private exceptionMethods: Promise<{ message: number; stack: number }> | undefined;

  constructor(
    private readonly conn: SdbConnection,
    readonly threadId: number,
    private readonly opts: InvokerOptions,
  ) {}

  /**
   * True while an invoke that resumed the whole VM is running: a thread that stops at an event
   * meanwhile suspends the VM again, and with it the call (the agent stops every thread), so
   * whoever handles such an event must give its level back for the call to finish.
   */
  get allThreadsRunning(): boolean {
    return this.allThreadCalls > 0;
  }

  /** Runs one method on the main thread; the VM must be suspended by the caller's window. */
  invoke(
    methodId: number,
    thisArg: Value,
    args: readonly Value[],
    options: InvokeOptions = {},
  ): Promise<InvokeOutcome> {
    return this.inTurn(() => this.invokeParked(methodId, thisArg, args, options));
  }

  /** Runs `fn` after the calls before it: one at a time (one pending invoke per thread); no hop when idle. */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.idle ? fn() : this.queue.then(fn);
    this.idle = false;
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queue = settled;
    void settled.then(() => {
      if (this.queue === settled) this.idle = true;
    });
    return run;
  }

  /**
   * Runs several methods on the main thread in one VM.INVOKE_METHODS (protocol 2.22+): the
   * agent resumes the VM once, runs them in order and suspends it once, instead of once per
   * call (the suspend and resume of every thread are most of a cheap invoke's cost). Their
   * arguments are fixed when sent, so a call cannot take an earlier one's result; `options`
   * hold for all of them, and `timeoutMs` bounds the whole batch. The first call that threw is
   * reported as the game's exception (the calls after it ran). An agent before 2.22 (or a
   * runtime that refuses the command) gets the calls one by one.
   */
  invokeMany(calls: readonly InvokeCall[], options: InvokeOptions = {}): Promise<InvokeOutcome[]> {
    if (calls.length === 0) return Promise.resolve([]);
    return this.inTurn(() => this.invokeManyParked(calls, options));
  }

  /** Whether this agent takes VM.INVOKE_METHODS (2.22+, not refused by its runtime). */
  private batches(): boolean {
    return (
      (this.conn.version === ProtocolVersion.UNSET || this.conn.version.atLeast(22)) &&
      this.conn.runtime.refused['VM.INVOKE_METHODS'] === undefined
    );
  }

  private async invokeManyParked(
    calls: readonly InvokeCall[],
    options: InvokeOptions,
  ): Promise<InvokeOutcome[]> {
    if (calls.length === 1 || !this.batches()) {
      const out: InvokeOutcome[] = [];
      for (const c of calls)
        out.push(await this.invokeParked(c.methodId, c.thisArg, c.args, options));
      return out;
    }
    const replies = await this.parked(calls.length, options, (flags, timeoutMs, onSent) =>
      this.conn.send(
        'VM.INVOKE_METHODS',
        { threadId: this.threadId, flags, calls },
        { timeoutMs, onSent },
      ),
    );
    const threw = replies.find((r) => r.threw);
    if (threw?.threw) throw Errors.gameException(await this.describeException(threw.exception));
    return replies.map((r) => (r.threw ? { result: Values.null() } : outcomeOf(r)));
  }

  private async invokeParked(
    methodId: number,
    thisArg: Value,
    args: readonly Value[],
    options: InvokeOptions,
  ): Promise<InvokeOutcome> {
    const raw = await this.invokeRaw(methodId, thisArg, args, options);
    if (raw.threw) throw Errors.gameException(await this.describeException(raw.exception));
    return raw.outcome;
  }

  private async invokeRaw(
    methodId: number,
    thisArg: Value,
    args: readonly Value[],
    options: InvokeOptions,
  ): Promise<{ threw: false; outcome: InvokeOutcome } | { threw: true; exception: Value }> {
    const r = await this.parked(1, options, (flags, timeoutMs, onSent) =>
      this.conn.send(
        'VM.INVOKE_METHOD',
        { threadId: this.threadId, flags, methodId, thisArg, args },
        { timeoutMs, onSent },
      ),
    );
    if (r.threw) return { threw: true, exception: r.exception };
    return { threw: false, outcome: outcomeOf(r) };
  }

  /**
   * Sends an invoke command (`calls` methods) once the main thread is parked, bounded: the
   * flags, the retry while the agent answers NOT_SUSPENDED (within the park bound), the abort
   * when the call outlives its bound.
   */
  private async parked<R>(
    calls: number,
    options: InvokeOptions,
    send: (flags: number, timeoutMs: number, onSent: (id: number) => void) => Promise<R>,
  ): Promise<R> {
    const single = this.opts.singleThreaded?.(this.threadId) === true;
    const flags =
      InvokeFlags.DISABLE_BREAKPOINTS |
      (single ? InvokeFlags.SINGLE_THREADED : 0) |
      (options.virtual ? InvokeFlags.VIRTUAL : 0) |
      (options.returnOutThis ? InvokeFlags.RETURN_OUT_THIS : 0) |
      (options.returnOutArgs ? InvokeFlags.RETURN_OUT_ARGS : 0);
    const parkMs = options.parkTimeoutMs ?? this.opts.parkTimeoutMs;
    const callMs = options.timeoutMs ?? this.opts.invokeTimeoutMs;
    const started = performance.now();
    for (;;) {
      let packetId = -1;
      let expired = false;
      // On expiry the call is aborted; its reply (INVOKE_ABORTED, or a result that raced the
      // abort) then ends the wait below. The wire bound stays above ours as the last resort.
      const timer = setTimeout(() => {
        expired = true;
        this.conn
          .send('VM.ABORT_INVOKE', { threadId: this.threadId, invokeId: packetId })
          .catch((e: unknown) =>
            this.opts.log?.(`abort of invoke ${packetId} failed: ${(e as Error).message}`),
          );
      }, callMs);
      this.invokes += calls;
      if (!single) this.allThreadCalls++;
      try {
        const r = await send(flags, callMs + ABORT_GRACE_MS, (id) => (packetId = id));
        if (expired) throw Errors.timeout('the call in the game', callMs, true);
        return r;
      } catch (e) {
        if (expired) throw Errors.timeout('the call in the game', callMs, true);
        if (!isAgentError(e, ErrorCode.NOT_SUSPENDED)) throw fromSdbError(e, this.opts.endpoint);
        this.invokes -= calls; // the agent refused it: nothing ran
        if (performance.now() - started >= parkMs) throw Errors.mainThreadBusy(parkMs);
        // retry at once: once the thread parks, every moment until the call runs freezes the game
        await new Promise((r) => setImmediate(r));
      } finally {
        clearTimeout(timer);
        if (!single) this.allThreadCalls--;
      }
    }
  }

  /** The exception's runtime type, message and stack trace, read with invokes on this thread. */
  async describeException(exception: Value): Promise<GameExceptionInfo> {
    let type = 'System.Exception';
    if (exception.kind === 'object') {
      try {
        const typeId = await this.conn.send('OBJECT_REF.GET_TYPE', {
          objectId: exception.objectId,
        });
        type = (await this.conn.send('TYPE.GET_INFO', { typeId })).fullName;
      } catch (e) {
        this.opts.log?.(`exception type unreadable: ${(e as Error).message}`);
      }
    }
    const info: GameExceptionInfo = { type, message: '', stackTrace: '' };
    try {
      const m = await (this.exceptionMethods ??= this.findExceptionMethods());
      info.message = await this.readStringResult(m.message, exception);
      info.stackTrace = await this.readStringResult(m.stack, exception);
    } catch (e) {
      this.opts.log?.(`exception details unreadable: ${(e as Error).message}`);
    }
    return info;
  }

  private async readStringResult(methodId: number, target: Value): Promise<string> {
    const r = await this.invokeRaw(methodId, target, [], { virtual: true, timeoutMs: 5000 });
    if (r.threw || r.outcome.result.kind !== 'string') return '';
    const s = await readString(this.conn, r.outcome.result.objectId, { maxChars: MESSAGE_CHARS });
    return s.truncated ? `${s.text}… (${s.length - s.text.length} more chars)` : s.text;
  }

  private async findExceptionMethods(): Promise<{ message: number; stack: number }> {
    const [exceptionType] = await this.conn.send('VM.GET_TYPES', {
      name: 'System.Exception',
      ignoreCase: false,
    });
    if (!exceptionType) throw new Error('System.Exception not found');
    const flags = BindingFlags.Instance | BindingFlags.Public | BindingFlags.DeclaredOnly;
    const [[message], [stack]] = await Promise.all([
      this.conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
        typeId: exceptionType,
        name: 'get_Message',
        flags,
      }),
      this.conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
        typeId: exceptionType,
        name: 'get_StackTrace',
        flags,
      }),
    ]);
    if (!message || !stack) throw new Error('System.Exception has no Message/StackTrace getter');
    return { message, stack };
  }
}

/**
 * The game's main thread. The agent reports VM_START on the thread that started the runtime,
 * which in a Unity player (and in the fixture) is the main thread; where UnityEngine is loaded
 * this is confirmed with its own `Object.CurrentThreadIsMainThread()`, and the other threads
 * are tried if it says no.
 */
export async function findMainThread(
  conn: SdbConnection,
  opts: { parkTimeoutMs: number; endpoint: string; log?: (m: string) => void },
): Promise<number> {
  const threads = await conn.send('VM.ALL_THREADS');
  const start = conn.vmStart?.threadId;
  const candidate = start !== undefined && threads.includes(start) ? start : threads[0];
  if (candidate === undefined) throw Errors.noPlayer('the game reports no managed threads');
  const check = await findMainThreadCheck(conn);
  if (!check) return candidate;
  const ordered = [candidate, ...threads.filter((t) => t !== candidate)];
  for (const threadId of ordered) {
    const invoker = new MainThreadInvoker(conn, threadId, {
      endpoint: opts.endpoint,
      parkTimeoutMs:
        threadId === candidate ? opts.parkTimeoutMs : Math.min(200, opts.parkTimeoutMs),
      invokeTimeoutMs: 2000,
    });
    try {
      const r = await invoker.invoke(check, Values.null(), []);
      if (r.result.kind === 'bool' && r.result.value) return threadId;
    } catch (e) {
      opts.log?.(`main-thread check on thread ${threadId}: ${(e as Error).message}`);
    }
  }
  opts.log?.('no thread confirmed as the main thread; using the VM_START thread');
  return candidate;
}

async function findMainThreadCheck(conn: SdbConnection): Promise<number | undefined> {
  const [unityObject] = await conn.send('VM.GET_TYPES', {
    name: 'UnityEngine.Object',
    ignoreCase: false,
  });
  if (!unityObject) return undefined;
  const [method] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
    typeId: unityObject,
    name: 'CurrentThreadIsMainThread',
    flags:
      BindingFlags.Static |
      BindingFlags.Public |
      BindingFlags.NonPublic |
      BindingFlags.DeclaredOnly,
  });
  return method;
}
