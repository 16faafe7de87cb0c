// The player's log: its path read from the game once per attached game (Application.
// consoleLogPath, a main-thread property, so one invoke), found on this machine (as given, or
// inside a Wine/Proton prefix: wine-paths.ts), then read from a cursor: only new bytes, whole
// entries, filtered by level and pattern, the newest `limit` kept. How entries and their levels
// are read from the text: player-log-parse.ts; cursors and bounded reads: player-log-file.ts.

import { readString } from '../sdb-protocol/index.js';
import { evaluateInGame, evaluateInSession } from './eval-bridge/evaluate-in-session.js';
import { Errors, UnityError } from './errors.js';
import {
  decodeCursor,
  encodeCursor,
  readLogChunk,
  type LogChunk,
  type LogCursor,
} from './player-log-file.js';
import { parseBlocks, type LogEntry, type LogLevel } from './player-log-parse.js';
import {
  sumCosts,
  type GameSession,
  type OperationCost,
  type OperationResult,
} from './session/session.js';
import { locateGameFile, type WineLookupOptions } from './wine-paths.js';

export type { LogEntry, LogLevel } from './player-log-parse.js';

export const LOG_LEVELS: readonly LogLevel[] = ['error', 'assert', 'warning', 'log', 'exception'];
export const DEFAULT_LOG_LIMIT = 100;
export const MAX_LOG_LIMIT = 1000;
/** The most one call reads; when more is new, the oldest of it is skipped (`omittedBytes`). */
export const MAX_LOG_READ_BYTES = 4 * 1024 * 1024;

export interface LogQuery {
  caller: string;
  /** Opaque cursor from a previous result: only entries written after it. */
  since?: string;
  /** This level and more severe: exception = error = assert > warning > log. */
  level?: LogLevel;
  /** JavaScript regular expression, case-insensitive, matched against message and stack. */
  pattern?: string;
  /** Entries to return, 0-1000 (default 100): the newest ones when more match. */
  limit?: number;
}

export interface LogResult {
  /** The file read, as found on this machine. */
  path: string;
  /** The path as the game reports it. */
  gamePath: string;
  entries: LogEntry[];
  /** Pass as `since` next time. */
  cursor: string;
  /** Matching entries left out by `limit` (the oldest). */
  skipped: number;
  /** The file was truncated or replaced since the cursor (the game restarted): read from its start. */
  restarted: boolean;
  /** Bytes read from the file by this call. */
  bytes: number;
  /**
   * Bytes after the cursor not returned yet: an entry still being written, or engine lines that
   * no blank line has ended yet (they come with the next entry).
   */
  pendingBytes: number;
  /** New bytes not read because more than MAX_LOG_READ_BYTES were new: their entries are missing. */
  omittedBytes: number;
  fileSize: number;
}

export interface PlayerLogOptions {
  wine?: WineLookupOptions;
  maxReadBytes?: number;
  /** How the path is asked of the game (tests replace it). */
  readGamePath?: (session: GameSession, caller: string) => Promise<OperationResult<string>>;
}

const SEVERITY: Readonly<Record<LogLevel, number>> = {
  log: 1,
  warning: 2,
  error: 3,
  assert: 3,
  exception: 3,
};

interface KnownPath {
  key: string;
  gamePath: string;
  localPath?: string;
}

/**
 * The path memory of one session's player log: the path of the game attached now (attachment =
 * endpoint + connection count), asked of the game again after a new attach. Built once, with the
 * session, by the app.
 */
export class PlayerLogPaths {
  private known: KnownPath | undefined;

  /** The path remembered for the game `session` is attached to now. */
  cached(session: GameSession): KnownPath | undefined {
    const key = attachmentKey(session);
    return this.known && key !== undefined && this.known.key === key ? this.known : undefined;
  }

  remember(known: KnownPath): void {
    if (known.key) this.known = known;
  }
}

/**
 * New entries of the game's Player.log since a cursor. A call whose path `paths` knows for the
 * game attached now costs no wire command; the first costs one main-thread invoke.
 */
export async function readPlayerLog(
  session: GameSession,
  paths: PlayerLogPaths,
  q: LogQuery,
  options: PlayerLogOptions = {},
): Promise<OperationResult<LogResult>> {
  const started = performance.now();
  const query = checkQuery(q);
  const costs: OperationCost[] = [];
  let known = paths.cached(session);
  if (!known) {
    const r = await (options.readGamePath ?? readGamePath)(session, q.caller);
    costs.push(r.cost);
    known = { key: attachmentKey(session) ?? '', gamePath: r.value };
    paths.remember(known);
  }
  const maxBytes = options.maxReadBytes ?? MAX_LOG_READ_BYTES;
  let chunk: LogChunk;
  let path = known.localPath;
  try {
    path ??= (await locateGameFile(known.gamePath, options.wine)).path;
    chunk = await readLogChunk(path, query.since, maxBytes);
  } catch (e) {
    if (known.localPath === undefined || !isMissing(e)) throw unreadable(e, path);
    // the file found last time is gone (a new prefix, a moved game): look again, once
    path = (await locateGameFile(known.gamePath, options.wine)).path;
    chunk = await readLogChunk(path, query.since, maxBytes).catch((e2: unknown) => {
      throw unreadable(e2, path);
    });
  }
  known.localPath = path;

  const matching = parseBlocks(chunk.blocks).filter((e) => matches(e, query));
  const entries = query.limit === 0 ? [] : matching.slice(-query.limit);
  return {
    value: {
      path,
      gamePath: known.gamePath,
      entries,
      cursor: encodeCursor(chunk.cursor),
      skipped: matching.length - entries.length,
      restarted: chunk.restarted,
      bytes: chunk.bytes,
      pendingBytes: chunk.fileSize - chunk.cursor.offset,
      omittedBytes: chunk.omittedBytes,
      fileSize: chunk.fileSize,
    },
    cost: sumCosts(costs, started),
  };
}

interface CheckedQuery {
  since: LogCursor | undefined;
  level: LogLevel | undefined;
  pattern: RegExp | undefined;
  limit: number;
}

function checkQuery(q: LogQuery): CheckedQuery {
  const limit = q.limit ?? DEFAULT_LOG_LIMIT;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LOG_LIMIT) {
    throw Errors.invalidArgument(`limit must be an integer in 0-${MAX_LOG_LIMIT}, got ${limit}`);
  }
  if (q.level !== undefined && !LOG_LEVELS.includes(q.level)) {
    throw Errors.invalidArgument(
      `level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(q.level)}`,
    );
  }
  let pattern: RegExp | undefined;
  if (q.pattern !== undefined) {
    try {
      pattern = new RegExp(q.pattern, 'i');
    } catch (e) {
      throw Errors.invalidArgument(
        `pattern is not a valid JavaScript regular expression: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  return {
    since: q.since === undefined ? undefined : decodeCursor(q.since),
    level: q.level,
    pattern,
    limit,
  };
}

function matches(e: LogEntry, q: CheckedQuery): boolean {
  // an entry of unknown level passes no level filter: nothing says it is severe enough
  if (q.level && (e.level === 'unknown' || SEVERITY[e.level] < SEVERITY[q.level])) return false;
  if (q.pattern && !q.pattern.test(e.message) && !(e.stackTrace && q.pattern.test(e.stackTrace)))
    return false;
  return true;
}

function attachmentKey(session: GameSession): string | undefined {
  const s = session.status();
  return s.attached && s.endpoint !== undefined ? `${s.endpoint}#${s.connects}` : undefined;
}

const PATH_PROGRAM = 'Application.consoleLogPath';

/**
 * Application.consoleLogPath, whole: the evaluator's value of a game string holds a reference,
 * read here. The game builds the string per call (in Unity), so the reference may be collected
 * once the game runs again; then it is evaluated and read again inside one window.
 */
export async function readGamePath(
  session: GameSession,
  caller: string,
): Promise<OperationResult<string>> {
  const started = performance.now();
  const r = await evaluateInSession(session, caller, PATH_PROGRAM);
  const ref = stringRef(r.value);
  if (typeof ref === 'string') return { value: checkPath(ref), cost: r.cost };
  try {
    const s = await session.run('logs (path)', caller, (ctx) => readString(ctx.conn, ref.id), {
      window: false,
    });
    return { value: checkPath(s.value.text), cost: sumCosts([r.cost, s.cost], started) };
  } catch (e) {
    if (!(e instanceof UnityError) || e.code !== 'INTERNAL') throw e;
  }
  const again = await session.run('logs (path)', caller, async (ctx) => {
    const v = stringRef(await evaluateInGame(ctx, PATH_PROGRAM));
    return typeof v === 'string' ? v : (await readString(ctx.conn, v.id)).text;
  });
  return { value: checkPath(again.value), cost: sumCosts([r.cost, again.cost], started) };
}

function stringRef(r: Awaited<ReturnType<typeof evaluateInGame>>): string | { id: number } {
  if (r.kind === 'exception') {
    throw Errors.gameException({ type: r.type, message: r.message, stackTrace: r.stackTrace });
  }
  if (r.kind === 'value' && r.value.kind === 'string') {
    if (r.value.text !== undefined) return r.value.text;
    if (r.value.ref) return r.value.ref;
  }
  if (r.kind === 'value' && r.value.kind === 'null') return '';
  throw new UnityError('INTERNAL', `${PATH_PROGRAM} gave no string (${r.kind})`);
}

function checkPath(p: string): string {
  if (p === '') {
    throw new UnityError(
      'UNSUPPORTED',
      'the game writes no log file: Application.consoleLogPath is empty (the player was started with -nolog, or the platform has no log file)',
    );
  }
  return p;
}

function isMissing(e: unknown): boolean {
  return (
    (e instanceof UnityError && e.code === 'UNSUPPORTED') ||
    (e instanceof Error && (e as NodeJS.ErrnoException).code === 'ENOENT')
  );
}

function unreadable(e: unknown, path: string | undefined): UnityError {
  if (e instanceof UnityError) return e;
  const why = e instanceof Error ? e.message : String(e);
  return new UnityError('UNSUPPORTED', `cannot read the player log ${path ?? ''}: ${why}`, {
    cause: e,
    details: { path },
  });
}
