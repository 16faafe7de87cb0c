// The error catalogue of the unity layer: one stable code per failure an agent or a person can
// act on, each made by a named factory with an actionable message. Wire errors are translated
// here, once (`fromSdbError`); the MCP layer shows `code`, `message`, `suggestions`.

import { EvalError } from '../eval/index.js';
import {
  SdbAgentError,
  SdbConnectionClosedError,
  SdbError,
  SdbHandshakeError,
  SdbNotParkedError,
  SdbProtocolError,
  SdbTimeoutError,
  SdbUnsafeRequestError,
  SdbUnsupportedError,
  SdbUnsupportedOnRuntimeError,
  RuntimeProfiles,
} from '../sdb-protocol/index.js';

export type UnityErrorCode =
  | 'NO_PLAYER'
  | 'AMBIGUOUS_PLAYER'
  | 'NOT_ATTACHED'
  | 'ATTACH_FAILED'
  /** Another debugger holds the game's debugger slot (Mono admits one); nothing was connected. */
  | 'SLOT_BUSY'
  | 'CONNECTION_LOST'
  | 'MAY_HAVE_APPLIED'
  | 'GAME_REPLACED'
  | 'MAIN_THREAD_BUSY'
  | 'TIMEOUT'
  | 'GAME_EXCEPTION'
  | 'TYPE_NOT_FOUND'
  | 'MEMBER_NOT_FOUND'
  | 'AMBIGUOUS_NAME'
  | 'INVALID_ARGUMENT'
  | 'HOLD_NOT_OWNED'
  /** A frame or step tool while the game is neither stopped at an event nor held. */
  | 'NOT_PAUSED'
  | 'BREAKPOINT_NOT_FOUND'
  /** Removing another caller's breakpoint without force. */
  | 'BREAKPOINT_NOT_OWNED'
  /** Resuming or stepping a pause another caller's breakpoint made, without force. */
  | 'PAUSE_NOT_OWNED'
  | 'UNDO_NOT_OWNED'
  /** A job id (j-N) the broker does not know: never started, or its result was read or expired. */
  | 'JOB_NOT_FOUND'
  /** Cancelling or waiting for another caller's job. */
  | 'JOB_NOT_OWNED'
  /** No sequence point at the line or IL offset asked for. */
  | 'NO_LOCATION'
  | 'UNSAFE_REQUEST'
  | 'UNSUPPORTED'
  /** An IL2CPP player cannot do this (no JIT, no IL, an agent assertion); the message says what to do instead. */
  | 'UNSUPPORTED_ON_IL2CPP'
  /** A generic method instantiation the IL2CPP build did not compile (no AOT code for it). */
  | 'GENERIC_INSTANTIATION_MISSING'
  | 'PROTOCOL_ERROR'
  | 'SHUTTING_DOWN'
  /** A name in a program that is neither a local, a builtin nor a type (CS0103). */
  | 'NAME_NOT_FOUND'
  /** The program does not parse / C# would not compile it / the evaluator refuses a construct. */
  | 'PARSE_ERROR'
  | 'EVAL_COMPILE'
  | 'EVAL_UNSUPPORTED'
  /** A program stopped at a statement boundary: it reached its iterations, invokes or freeze bound. */
  | 'EVAL_BUDGET'
  /** ECS: a component the entity lacks, an entity or world that does not exist. */
  | 'COMPONENT_NOT_FOUND'
  | 'ENTITY_NOT_FOUND'
  | 'WORLD_NOT_FOUND'
  /** Scenes: a GameObject no longer there (destroyed) or never there (a path or an instance id). */
  | 'OBJECT_NOT_FOUND'
  /** A destructive ECS change refused without confirm: true (the refusal carries the preview). */
  | 'CONFIRM_REQUIRED'
  /** undo refused: the value changed since our write (force: true overrides). */
  | 'UNDO_CONFLICT'
  /** A request_id already used for another tool or other arguments (mcp/ledger/requests.ts). */
  | 'IDEMPOTENCY_CONFLICT'
  /** The first call with this request_id still runs after the bounded wait of a repeat. */
  | 'REQUEST_IN_PROGRESS'
  /** A per-object operation (scene_query's where) over more objects than it runs for. */
  | 'TOO_MANY_OBJECTS'
  | 'INTERNAL';

export interface UnityErrorOptions {
  /** Close names, for misses. */
  suggestions?: string[];
  /** Structured facts for tools (e.g. the players to choose from, the exception's type). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class UnityError extends Error {
  override name = 'UnityError';
  readonly suggestions: string[] | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: UnityErrorCode,
    message: string,
    options: UnityErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.suggestions = options.suggestions;
    this.details = options.details;
  }
}

export interface PlayerSummary {
  key: string;
  label: string;
  endpoint: string;
}

/** A game exception as the game reported it. */
export interface GameExceptionInfo {
  type: string;
  message: string;
  stackTrace: string;
}

export const Errors = {
  noPlayer: (why: string): UnityError =>
    new UnityError(
      'NO_PLAYER',
      `no game to attach to: ${why}. Start a development build with script debugging on, or attach to an explicit host:port`,
    ),
  ambiguousPlayer: (players: PlayerSummary[]): UnityError =>
    new UnityError(
      'AMBIGUOUS_PLAYER',
      `${players.length} players are visible and none was chosen: ${players
        .map((p) => `${p.label} (${p.key}, ${p.endpoint})`)
        .join(
          '; ',
        )}. Choose one with attach {player: "<key>"} (or attach {host, port}), or name it in one call's player argument`,
      { details: { players } },
    ),
  notAttached: (): UnityError =>
    new UnityError(
      'NOT_ATTACHED',
      'not attached to a game: attach first (or let a call attach lazily)',
    ),
  attachFailed: (endpoint: string, cause: unknown): UnityError =>
    new UnityError(
      'ATTACH_FAILED',
      `cannot attach to the debugger at ${endpoint}: ${messageOf(cause)}`,
      { cause },
    ),
  /**
   * The debugger slot at `endpoint` is taken. `holder`: who holds it (pid and command when
   * visible); `pending`: our own connection waits behind that debugger in the agent's backlog.
   */
  slotBusy: (
    endpoint: string,
    holder: { pid?: number; command?: string; description: string } | undefined,
    pending = false,
  ): UnityError => {
    const who = holder?.description ?? 'another debugger';
    const details: Record<string, unknown> = { endpoint };
    if (holder?.pid !== undefined) details.holder_pid = holder.pid;
    if (holder?.command !== undefined) details.holder = holder.command;
    if (pending) details.pending = true;
    return new UnityError(
      'SLOT_BUSY',
      pending
        ? `the debugger slot of the game at ${endpoint} is taken by another debugger: our connection waits behind it and will be used when that one leaves (no second connection is opened). Detach the other debugger (it frees the slot when it sends DISPOSE), then retry`
        : `the debugger slot of the game at ${endpoint} is held by ${who}; nothing was connected (a connection the agent never answers can end its debugger for good). Detach that debugger (the slot frees when it sends DISPOSE) or wait for it to leave, then retry`,
      { details },
    );
  },
  connectionLost: (endpoint: string, cause: unknown): UnityError =>
    new UnityError(
      'CONNECTION_LOST',
      `the connection to the game at ${endpoint} was lost (${messageOf(cause)}); the next call reattaches`,
      { cause },
    ),
  mayHaveApplied: (what: string, endpoint: string, cause: unknown): UnityError =>
    new UnityError(
      'MAY_HAVE_APPLIED',
      `the connection to ${endpoint} was lost during ${what}, which may already have taken effect in the game; it was not retried. Check the game's state before repeating it (the next call reattaches)`,
      { cause },
    ),
  gameReplaced: (expected: string, found: string): UnityError =>
    new UnityError(
      'GAME_REPLACED',
      `the game at this endpoint is not the one this session was pointed at (was ${expected}, now ${found}); writes are refused. Attach again to accept the new game`,
      { details: { expected, found } },
    ),
  mainThreadBusy: (waitedMs: number): UnityError =>
    new UnityError(
      'MAIN_THREAD_BUSY',
      `main thread did not reach managed code in ${waitedMs} ms (the game is in a long native frame, loading, or wedged); nothing was run. Try again, or give the call a longer bound`,
      { details: { waitedMs } },
    ),
  timeout: (what: string, ms: number, mayHaveRun: boolean): UnityError =>
    new UnityError(
      'TIMEOUT',
      `${what} did not finish within ${ms} ms${mayHaveRun ? '; it was aborted, but the work may still have happened in the game' : ''}`,
      { details: { timeoutMs: ms, mayHaveRun } },
    ),
  gameException: (info: GameExceptionInfo): UnityError =>
    new UnityError('GAME_EXCEPTION', `${info.type}: ${info.message}${aotHint(info)}`, {
      details: { ...info },
    }),
  typeNotFound: (name: string, suggestions: string[]): UnityError =>
    new UnityError(
      'TYPE_NOT_FOUND',
      `no loaded type is named ${JSON.stringify(name)}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
      { suggestions },
    ),
  memberNotFound: (typeName: string, member: string, suggestions: string[]): UnityError =>
    new UnityError(
      'MEMBER_NOT_FOUND',
      `${typeName} has no member ${JSON.stringify(member)}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
      { suggestions },
    ),
  ambiguousName: (name: string, candidates: string[], how: string): UnityError =>
    new UnityError(
      'AMBIGUOUS_NAME',
      `${JSON.stringify(name)} is ambiguous: ${candidates.slice(0, 10).join('; ')}${
        candidates.length > 10 ? `; and ${candidates.length - 10} more` : ''
      }. ${how}`,
      { suggestions: candidates, details: { candidates } },
    ),
  invalidArgument: (message: string): UnityError => new UnityError('INVALID_ARGUMENT', message),
  holdNotOwned: (caller: string, holders: string[]): UnityError =>
    new UnityError(
      'HOLD_NOT_OWNED',
      `${caller} holds no suspension of the game${holders.length ? ` (held by ${holders.join(', ')})` : ''}; resuming someone else's hold needs force: true`,
      { details: { holders } },
    ),
  jobNotFound: (id: string, known: string[]): UnityError =>
    new UnityError(
      'JOB_NOT_FOUND',
      `no job ${JSON.stringify(id)}: a job is kept until its result is read, or 10 minutes after it ended${known.length ? `; your jobs: ${known.join(', ')}` : ''}`,
      { suggestions: known },
    ),
  jobNotOwned: (id: string, owner: string): UnityError =>
    new UnityError(
      'JOB_NOT_OWNED',
      `job ${id} belongs to ${owner}: only its owner may wait for it or cancel it (job_status shows its state)`,
      { details: { owner } },
    ),
  shuttingDown: (): UnityError => new UnityError('SHUTTING_DOWN', 'the server is shutting down'),
  notPaused: (what: string): UnityError =>
    new UnityError(
      'NOT_PAUSED',
      `${what} needs a paused game: wait for a breakpoint (debug_wait) or take a hold (suspend) first`,
    ),
  breakpointNotFound: (id: number, known: number[]): UnityError =>
    new UnityError(
      'BREAKPOINT_NOT_FOUND',
      `no breakpoint ${id}${known.length ? ` (set: ${known.join(', ')})` : ' (none is set)'}; see debug_status`,
      { details: { known } },
    ),
  breakpointNotOwned: (id: number, owner: string): UnityError =>
    new UnityError(
      'BREAKPOINT_NOT_OWNED',
      `breakpoint ${id} belongs to ${owner}; removing it needs force: true`,
      { details: { owner } },
    ),
  undoNotOwned: (id: number, owner: string): UnityError =>
    new UnityError(
      'UNDO_NOT_OWNED',
      `journal entry ${id} is ${owner}'s write; undoing another caller's write needs force: true`,
      { details: { owner } },
    ),
  pauseNotOwned: (caller: string, owner: string): UnityError =>
    new UnityError(
      'PAUSE_NOT_OWNED',
      `the game is paused at ${owner}'s breakpoint, not ${caller}'s; resuming or stepping it needs force: true`,
      { details: { owner } },
    ),
  noLocation: (where: string, lines: number[]): UnityError =>
    new UnityError(
      'NO_LOCATION',
      `no sequence point at ${where}${lines.length ? `; lines with code: ${lines.slice(0, 40).join(', ')}` : ''} (debug_locations lists them)`,
      { details: { lines } },
    ),
  /** IL2CPP answers a step out of a thread's outermost frame by making no request (U:8435-8441). */
  stepOutOfOutermost: (threadId: number, runtime: string): UnityError =>
    new UnityError(
      'UNSUPPORTED_ON_IL2CPP',
      `step out of the outermost frame of thread ${threadId}: the ${runtime} agent makes no step request there (the method returns to the engine, where nothing can stop); the game stays paused here. Instead: step over to the end of the method, or set a breakpoint where it should stop next and resume`,
      { details: { threadId, runtime } },
    ),
  /** The runtime behind the agent cannot do what was asked (sdb-protocol/runtime-profile.ts). */
  unsupportedOnRuntime: (e: SdbUnsupportedOnRuntimeError): UnityError => {
    const label = RuntimeProfiles[e.runtime].label;
    const details = { runtime: e.runtime, command: e.command, instead: e.limit.instead };
    if (e.feature === 'generic-instantiation')
      return new UnityError(
        'GENERIC_INSTANTIATION_MISSING',
        `this generic method instantiation is not in the ${label} build: ${e.limit.why}. Instead: ${e.limit.instead}`,
        { details, cause: e },
      );
    return new UnityError(
      e.runtime === 'il2cpp' ? 'UNSUPPORTED_ON_IL2CPP' : 'UNSUPPORTED',
      `${label} player: ${e.limit.feature} is not possible (${e.limit.why}); nothing was sent. Instead: ${e.limit.instead}`,
      { details, cause: e },
    );
  },
  idempotencyConflict: (
    requestId: string,
    first: { tool: string; at: string; caller: string },
    tool: string,
  ): UnityError =>
    new UnityError(
      'IDEMPOTENCY_CONFLICT',
      `request_id ${JSON.stringify(requestId)} was already used at ${first.at} by ${first.caller} for ${first.tool === tool ? 'this tool with other arguments' : `${first.tool}, not ${tool}`}; nothing was run. A retry must repeat the same tool and arguments; a new call needs a new request_id`,
      { details: { request_id: requestId, first_tool: first.tool, first_at: first.at } },
    ),
  requestInProgress: (requestId: string, waitedMs: number): UnityError =>
    new UnityError(
      'REQUEST_IN_PROGRESS',
      `the first call with request_id ${JSON.stringify(requestId)} is still running after ${waitedMs} ms; nothing was run for this one. Repeat it later with the same request_id to get that call's outcome`,
      { details: { request_id: requestId, waitedMs } },
    ),
};

/**
 * IL2CPP has no JIT: a method (or generic instantiation) the build did not compile throws
 * ExecutionEngineException "... no ahead of time (AOT) code was generated" in the game.
 */
function aotHint(info: GameExceptionInfo): string {
  if (
    info.type !== 'System.ExecutionEngineException' ||
    !/\bAOT\b|ahead of time/i.test(info.message)
  )
    return '';
  return ' (an IL2CPP build runs only code compiled ahead of time: call a method or instantiation the game itself uses, or one without generic arguments)';
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Translates a wire error into the catalogue; anything already translated passes through. */
export function fromSdbError(e: unknown, endpoint: string): UnityError {
  if (e instanceof UnityError) return e;
  if (e instanceof EvalError) {
    const details: Record<string, unknown> = {};
    if (e.csCode) details.csCode = e.csCode;
    if (e.span) details.span = e.span;
    if (e.budget) details.budget = e.budget;
    if (e.syntaxErrors)
      details.errors = e.syntaxErrors.map((x) => ({
        code: x.code,
        message: x.message,
        span: x.span,
      }));
    const options: UnityErrorOptions = { details, cause: e };
    if (e.suggestions?.length) options.suggestions = [...e.suggestions];
    return new UnityError(evalErrorCode(e), e.message, options);
  }
  if (e instanceof SdbNotParkedError) return Errors.mainThreadBusy(e.waitedMs);
  if (e instanceof SdbConnectionClosedError || e instanceof SdbHandshakeError) {
    return Errors.connectionLost(endpoint, e);
  }
  if (e instanceof SdbTimeoutError) return Errors.timeout(e.command, e.timeoutMs, false);
  if (e instanceof SdbUnsafeRequestError)
    return new UnityError('UNSAFE_REQUEST', e.message, { cause: e });
  if (e instanceof SdbUnsupportedError)
    return new UnityError('UNSUPPORTED', e.message, { cause: e });
  if (e instanceof SdbUnsupportedOnRuntimeError) return Errors.unsupportedOnRuntime(e);
  if (e instanceof SdbProtocolError)
    return new UnityError('PROTOCOL_ERROR', e.message, { cause: e });
  if (e instanceof SdbAgentError || e instanceof SdbError) {
    return new UnityError('INTERNAL', e.message, { cause: e });
  }
  return new UnityError('INTERNAL', messageOf(e), { cause: e });
}

/** The catalogue's code for an evaluator refusal: names not found get the codes lookups use. */
function evalErrorCode(e: EvalError): UnityErrorCode {
  if (e.code === 'EVAL_SYNTAX') return 'PARSE_ERROR';
  if (e.code !== 'EVAL_COMPILE') return e.code;
  switch (e.csCode ?? '') {
    case 'CS0117': // 'T' does not contain a definition for 'x'
    case 'CS1061': // instance member missing
      return 'MEMBER_NOT_FOUND';
    case 'CS0246': // type or namespace not found
    case 'CS0234': // not in that namespace
      return 'TYPE_NOT_FOUND';
    case 'CS0103': // the name does not exist in the current context
      return 'NAME_NOT_FOUND';
    default:
      return 'EVAL_COMPILE';
  }
}
