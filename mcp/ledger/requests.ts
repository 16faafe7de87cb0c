// The request store: what a write with a `request_id` answered, so a retry (the reply was lost,
// the front-end died, the broker restarted) gets that answer instead of running again. Kept as
// JSON lines in `requests.jsonl` under the app's state directory: each outcome is appended and
// fsync'd before its reply is sent, loaded at start (a torn last line, a crash's, is skipped),
// dropped after 24 h, and the file rewritten without the dropped lines. Without a state
// directory the store lives in memory only and says so (`durable: false`).
// Why each rule: docs/solutions/retry-safe-writes.md.

import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { Errors, messageOf } from '../../unity/errors.js';

export const REQUESTS_FILE = 'requests.jsonl';
export const REQUEST_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a repeat waits for the first call with its id to finish. */
export const IN_FLIGHT_WAIT_MS = 60_000;

/** One recorded outcome (one line of the file). */
export interface StoredRequest {
  id: string;
  tool: string;
  /** callDigest of the first call: tool, player, arguments. */
  digest: string;
  /** When it was recorded (ms since the epoch). */
  at: number;
  caller: string;
  /** The game it went to, for the audit line of a replay. */
  game?: { id: string; endpoint: string };
  result: CallToolResult;
}

export interface RequestStoreOptions {
  /** The state directory; without one the store is in memory only. */
  dir?: string;
  ttlMs?: number;
  inFlightWaitMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

/** What `once` answers: the outcome, and whether it is a recorded one given back. */
export interface OnceResult {
  result: CallToolResult;
  replayed?: StoredRequest;
  /** It was to be recorded, and writing it to the file failed (kept in memory only): why. */
  notRecorded?: string;
}

/** What a first run hands back: its outcome, whether to record it, and where it went. */
export interface Ran {
  result: CallToolResult;
  record: boolean;
  game?: { id: string; endpoint: string };
}

interface InFlight {
  tool: string;
  digest: string;
  caller: string;
  since: number;
  done: Promise<void>;
}

export class RequestStore {
  readonly file: string | undefined;
  private readonly entries = new Map<string, StoredRequest>();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly ttlMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private handle: Promise<FileHandle> | undefined;
  /** Appends in order, one at a time (each one write + fsync). */
  private chain: Promise<void> = Promise.resolve();
  /** Lines in the file now (live or expired), to know when a rewrite pays. */
  private linesOnDisk = 0;

  constructor(opts: RequestStoreOptions = {}) {
    this.ttlMs = opts.ttlMs ?? REQUEST_TTL_MS;
    this.waitMs = opts.inFlightWaitMs ?? IN_FLIGHT_WAIT_MS;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => undefined);
    this.file = opts.dir !== undefined ? path.join(opts.dir, REQUESTS_FILE) : undefined;
    if (this.file) this.load(this.file);
  }

  /** Whether an outcome survives a restart of the app (it has a file). */
  get durable(): boolean {
    return this.file !== undefined;
  }

  /** Outcomes kept now (unexpired). */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  /**
   * Runs `run` once per `id`: a repeat with the same digest gets the recorded outcome (the game
   * untouched); with another digest IDEMPOTENCY_CONFLICT. A repeat while the first runs waits
   * for it (bounded: REQUEST_IN_PROGRESS), then is answered as if it came after. An outcome
   * `run` marks not to record (it proves nothing was applied) is not kept: the next repeat runs.
   */
  async once(
    req: { id: string; tool: string; digest: string; caller: string },
    run: () => Promise<Ran>,
  ): Promise<OnceResult> {
    const deadline = this.now() + this.waitMs;
    for (;;) {
      const known = this.get(req.id);
      if (known) {
        if (known.digest !== req.digest || known.tool !== req.tool) throw this.conflict(req, known);
        return { result: known.result, replayed: known };
      }
      const running = this.inFlight.get(req.id);
      if (!running) break;
      if (running.digest !== req.digest || running.tool !== req.tool)
        throw this.conflict(req, { ...running, at: running.since });
      const left = deadline - this.now();
      if (left <= 0 || !(await settlesWithin(running.done, left)))
        throw Errors.requestInProgress(req.id, this.waitMs);
    }
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    this.inFlight.set(req.id, { ...req, since: this.now(), done });
    try {
      const ran = await run();
      if (ran.record) {
        const entry: StoredRequest = {
          id: req.id,
          tool: req.tool,
          digest: req.digest,
          at: this.now(),
          caller: req.caller,
          ...(ran.game ? { game: ran.game } : {}),
          result: ran.result,
        };
        // durable before the reply; a write that fails is said in the reply, never hidden
        // (kept in memory, the outcome still answers repeats until this app ends)
        this.entries.set(req.id, entry);
        try {
          await this.append(entry);
        } catch (e) {
          return { result: ran.result, notRecorded: messageOf(e) };
        }
      }
      return { result: ran.result };
    } finally {
      this.inFlight.delete(req.id);
      finished();
    }
  }

  /** The recorded outcome of `id`, if it is kept and unexpired. */
  get(id: string): StoredRequest | undefined {
    const e = this.entries.get(id);
    if (e && this.expired(e)) {
      this.entries.delete(id);
      return undefined;
    }
    return e;
  }

  /** Waits for the appends under way, then closes the file. */
  async close(): Promise<void> {
    await this.chain;
    const h = this.handle;
    this.handle = undefined;
    if (h) await (await h).close();
  }

  private conflict(
    req: { id: string; tool: string },
    first: { tool: string; at: number; caller: string },
  ) {
    return Errors.idempotencyConflict(
      req.id,
      { tool: first.tool, at: new Date(first.at).toISOString(), caller: first.caller },
      req.tool,
    );
  }

  private expired(e: StoredRequest): boolean {
    return this.now() - e.at >= this.ttlMs;
  }

  private sweep(): void {
    for (const [id, e] of this.entries) if (this.expired(e)) this.entries.delete(id);
  }

  /**
   * Reads the file: lines that do not parse (the torn last line of a crash) are skipped, expired
   * ones dropped; when either happened the file is rewritten with only the live ones (a torn
   * line left in place would swallow the next append's line).
   */
  private load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    let bad = 0;
    let dropped = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      const e = parseEntry(line);
      if (!e) bad++;
      else if (this.expired(e)) dropped++;
      else this.entries.set(e.id, e);
    }
    if (bad > 0) this.log(`${file}: skipped ${bad} unreadable line(s) (a write cut short)`);
    this.linesOnDisk = this.entries.size + bad + dropped;
    if (bad > 0 || dropped > 0 || (text.length > 0 && !text.endsWith('\n'))) this.rewrite(file);
  }

  /** The live entries written to a new file, fsync'd, renamed over the old one. */
  private rewrite(file: string): void {
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      for (const e of this.entries.values()) writeSync(fd, `${JSON.stringify(e)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    syncDir(path.dirname(file));
    this.linesOnDisk = this.entries.size;
  }

  private append(entry: StoredRequest): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const line = `${JSON.stringify(entry)}\n`;
    const step = this.chain.then(async () => {
      this.sweep();
      if (this.linesOnDisk > 100 && this.linesOnDisk > 2 * (this.entries.size + 1)) {
        // most lines on disk expired: start the file again from the live entries
        const h = this.handle;
        this.handle = undefined;
        if (h) await (await h).close();
        this.rewrite(file);
      }
      this.handle ??= open(file, 'a', 0o600);
      const h = await this.handle;
      await h.write(line);
      await h.sync();
      this.linesOnDisk++;
    });
    this.chain = step.catch((e: unknown) => {
      this.log(`${file}: recording an outcome failed: ${messageOf(e)}`);
      this.handle = undefined; // opened again by the next append
    });
    return step;
  }
}

function parseEntry(line: string): StoredRequest | undefined {
  try {
    const e = JSON.parse(line) as Partial<StoredRequest>;
    if (
      typeof e.id === 'string' &&
      typeof e.tool === 'string' &&
      typeof e.digest === 'string' &&
      typeof e.at === 'number' &&
      typeof e.caller === 'string' &&
      typeof e.result === 'object' &&
      e.result !== null
    )
      return e as StoredRequest;
  } catch {
    // a torn line
  }
  return undefined;
}

/** A rename is durable once its directory is fsync'd (not possible on Windows: skipped). */
function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether `p` settles within `ms` (the timer never outlives the answer). */
async function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true), t]);
  } finally {
    clearTimeout(timer);
  }
}
