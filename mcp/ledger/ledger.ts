// What the app keeps of the calls it serves: the request store (writes a retry cannot apply
// twice: requests.ts) and the audit log (audit.ts), both under the app's state directory. The
// dispatcher (server.ts callTool) opens one CallTrail per tools/call and ends it with the result
// it returns, so every call is audited whichever way it ends.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { UnityErrorCode } from '../../unity/errors.js';
import type { OperationCost } from '../../unity/session/session.js';
import type { Tool } from '../tool.js';
import { AuditLog, type AuditEntry } from './audit.js';
import { callDigest } from './digest.js';
import { RequestStore, type StoredRequest } from './requests.js';

export interface LedgerOptions {
  /** Where requests.jsonl and audit.jsonl live; none: requests in memory, no audit log. */
  stateDir?: string;
  /** The audit log's size before it is rotated (default 10 MB). */
  auditMaxBytes?: number;
  /** How long a repeat waits for the first call with its request_id (default 60 s). */
  inFlightWaitMs?: number;
  log?: (line: string) => void;
}

/**
 * Codes that prove a `checked-first` tool applied nothing: it failed before reaching the game
 * (arguments, routing, attaching, the slot, the game's identity), before its window ran anything
 * (the main thread never parked; the connection dropped before any invoke or write: a drop after
 * one is MAY_HAVE_APPLIED), or at a check made before any write (binding the whole program, the
 * destructive gate, undo's checks, ownership). Everything else is recorded, MAY_HAVE_APPLIED and
 * GAME_EXCEPTION (a program's earlier statements ran) included.
 */
export const NOTHING_APPLIED: ReadonlySet<UnityErrorCode> = new Set<UnityErrorCode>([
  'INVALID_ARGUMENT',
  'NO_PLAYER',
  'AMBIGUOUS_PLAYER',
  'NOT_ATTACHED',
  'ATTACH_FAILED',
  'SLOT_BUSY',
  'GAME_REPLACED',
  'CONNECTION_LOST',
  'MAIN_THREAD_BUSY',
  'SHUTTING_DOWN',
  'PARSE_ERROR',
  'EVAL_COMPILE',
  'EVAL_UNSUPPORTED',
  'NAME_NOT_FOUND',
  'TYPE_NOT_FOUND',
  'MEMBER_NOT_FOUND',
  'AMBIGUOUS_NAME',
  'CONFIRM_REQUIRED',
  'HOLD_NOT_OWNED',
  'PAUSE_NOT_OWNED',
  'UNDO_NOT_OWNED',
  'UNDO_CONFLICT',
  'NOT_PAUSED',
]);

/** Where the ledger keeps things, as `status` shows it. */
export interface LedgerPlaces {
  /** The request store's file; absent: in memory only. */
  requests?: string;
  /** Whether a recorded outcome survives a restart of the app. */
  durable: boolean;
  audit?: string;
}

export class Ledger {
  readonly requests: RequestStore;
  readonly audit: AuditLog | undefined;

  constructor(opts: LedgerOptions = {}) {
    const log = opts.log ?? (() => undefined);
    this.requests = new RequestStore({
      ...(opts.stateDir !== undefined ? { dir: opts.stateDir } : {}),
      ...(opts.inFlightWaitMs !== undefined ? { inFlightWaitMs: opts.inFlightWaitMs } : {}),
      log,
    });
    this.audit =
      opts.stateDir !== undefined
        ? new AuditLog({
            dir: opts.stateDir,
            ...(opts.auditMaxBytes !== undefined ? { maxBytes: opts.auditMaxBytes } : {}),
            log,
          })
        : undefined;
  }

  places(): LedgerPlaces {
    return {
      ...(this.requests.file !== undefined ? { requests: this.requests.file } : {}),
      durable: this.requests.durable,
      ...(this.audit ? { audit: this.audit.file } : {}),
    };
  }

  /** Starts the trail of one tools/call of `tool` by `caller`. */
  begin(tool: Tool, caller: string): CallTrail {
    return new CallTrail(this, tool, caller);
  }

  /** Writes what is queued, closes the files. */
  async close(): Promise<void> {
    await Promise.all([this.requests.close(), this.audit?.close()]);
  }
}

/** One call on its way through the dispatcher: what the audit line and the store need of it. */
export class CallTrail {
  private readonly started = performance.now();
  private digest: string | undefined;
  private requestId: string | undefined;
  private player: string | undefined;
  private game: { id: string; endpoint: string } | undefined;
  private reachedHandler = false;
  private spent: OperationCost | undefined;
  private replayed = false;

  constructor(
    private readonly ledger: Ledger,
    private readonly tool: Tool,
    private readonly caller: string,
  ) {}

  /** The arguments are accepted: the tool's own (parsed), the `player` and `request_id` given. */
  accepted(args: unknown, player: string | undefined, requestId: string | undefined): void {
    this.player = player;
    this.requestId = requestId;
    this.digest = callDigest(this.tool.name, player, args);
  }

  /** The handler is about to run, on this game: from here a failure may have touched it. */
  reached(game: { id: string; endpoint: string } | undefined): void {
    this.reachedHandler = true;
    if (game) this.game = { id: game.id, endpoint: game.endpoint };
  }

  /** What the handler's work cost the game. */
  cost(c: OperationCost): void {
    this.spent = c;
  }

  /**
   * Runs the call, once per request_id when it has one (the tool takes one: Tool.writes): a
   * repeat gets the first outcome back (`_meta.replayed`, and a line saying so), other arguments
   * under the same id IDEMPOTENCY_CONFLICT, a repeat that waited too long for the first
   * REQUEST_IN_PROGRESS (both thrown: nothing was run).
   */
  async once(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
    const id = this.requestId;
    if (id === undefined || this.digest === undefined || !this.tool.writes) return run();
    const r = await this.ledger.requests.once(
      { id, tool: this.tool.name, digest: this.digest, caller: this.caller },
      async () => {
        const result = await run();
        return {
          result,
          record: this.recordable(result),
          ...(this.game ? { game: this.game } : {}),
        };
      },
    );
    if (r.replayed) return this.replay(r.replayed);
    const recorded = this.recordable(r.result);
    return withMeta(r.result, {
      request_id: id,
      recorded,
      ...(recorded ? { durable: this.ledger.requests.durable && r.notRecorded === undefined } : {}),
      ...(r.notRecorded !== undefined
        ? { not_recorded: `${r.notRecorded} (kept in memory only until the server ends)` }
        : {}),
    });
  }

  /** The call's result is final: its audit line is queued, the result handed back as is. */
  end(result: CallToolResult): CallToolResult {
    const audit = this.ledger.audit;
    if (!audit) return result;
    const code = result.isError ? (result._meta as { code?: unknown } | undefined)?.code : 'ok';
    const c = this.spent;
    const entry: AuditEntry = {
      time: new Date().toISOString(),
      caller: this.caller,
      ...(this.game ? { player: { game: this.game.id, endpoint: this.game.endpoint } } : {}),
      tool: this.tool.name,
      ...(this.digest !== undefined ? { args_sha256: this.digest } : {}),
      ...(this.requestId !== undefined ? { request_id: this.requestId } : {}),
      outcome: typeof code === 'string' ? code : 'INTERNAL',
      ...(this.replayed ? { replayed: true as const } : {}),
      ...(c && !this.replayed
        ? { cost: { wire_commands: c.wireCommands, invokes: c.invokes, freeze_ms: c.freezeMs } }
        : {}),
      duration_ms: Math.round((performance.now() - this.started) * 10) / 10,
    };
    audit.append(entry);
    return result;
  }

  /** Whether this outcome is kept: anything after the handler began, but proofs of nothing. */
  private recordable(result: CallToolResult): boolean {
    if (!this.reachedHandler) return false;
    if (!result.isError) return true;
    const code = (result._meta as { code?: string } | undefined)?.code;
    if (this.tool.writes === 'in-steps') return code !== 'INVALID_ARGUMENT';
    return !NOTHING_APPLIED.has(code as UnityErrorCode);
  }

  private replay(first: StoredRequest): CallToolResult {
    this.replayed = true;
    if (first.game) this.game = first.game;
    const at = new Date(first.at).toISOString();
    const line =
      `replayed: request_id ${JSON.stringify(first.id)} was first run at ${at} by ` +
      `${first.caller}; this is its recorded outcome, and the game was not touched again`;
    const [head, ...rest] = first.result.content;
    const content: CallToolResult['content'] =
      head?.type === 'text'
        ? [{ ...head, text: `${line}\n${head.text}` }, ...rest]
        : [{ type: 'text', text: line }, ...first.result.content];
    return withMeta(
      { ...first.result, content },
      { request_id: first.id, replayed: true, first_at: at, first_caller: first.caller },
    );
  }
}

function withMeta(result: CallToolResult, meta: Record<string, unknown>): CallToolResult {
  return { ...result, _meta: { ...(result._meta ?? {}), ...meta } };
}
