// The audit log: one JSON line per tools/call, in `audit.jsonl` under the app's state directory
// (0600): when, who, which game, which tool, a digest of the arguments (never the arguments),
// the request_id, the outcome code, what it cost the game, how long it took. Appended behind the
// reply (a bounded buffer written in batches; no fsync on the reply's path) and rotated by size:
// audit.jsonl → audit.1.jsonl → ... → audit.3.jsonl, the oldest dropped.

import { chmod, open, rename, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

import { messageOf } from '../../unity/errors.js';

export const AUDIT_FILE = 'audit.jsonl';
export const AUDIT_MAX_BYTES = 10 * 1024 * 1024;
export const AUDIT_KEEP = 3;
/** Lines waiting to be written beyond this are dropped, oldest first (and the drop logged). */
export const AUDIT_BUFFER_LINES = 10_000;

/** One line of the log. */
export interface AuditEntry {
  time: string;
  caller: string;
  /** The game the call went to, when it reached one. */
  player?: { game: string; endpoint: string };
  tool: string;
  /** sha256 of the canonical JSON of tool, player and arguments (mcp/ledger/digest.ts). */
  args_sha256?: string;
  request_id?: string;
  /** `ok`, or the error code of the result. */
  outcome: string;
  /** The outcome is a recorded one given back: the game was not touched. */
  replayed?: true;
  cost?: { wire_commands: number; invokes: number; freeze_ms: number };
  duration_ms: number;
}

export interface AuditLogOptions {
  dir: string;
  maxBytes?: number;
  keep?: number;
  bufferLines?: number;
  log?: (line: string) => void;
}

/** The rotated file `n` (0: the live one). */
export function auditFile(dir: string, n = 0): string {
  return path.join(dir, n === 0 ? AUDIT_FILE : `audit.${n}.jsonl`);
}

export class AuditLog {
  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly bufferLines: number;
  private readonly log: (line: string) => void;
  private pending: string[] = [];
  private dropped = 0;
  private writing: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private size: number | undefined;

  constructor(private readonly opts: AuditLogOptions) {
    this.file = auditFile(opts.dir);
    this.maxBytes = opts.maxBytes ?? AUDIT_MAX_BYTES;
    this.keep = opts.keep ?? AUDIT_KEEP;
    this.bufferLines = opts.bufferLines ?? AUDIT_BUFFER_LINES;
    this.log = opts.log ?? (() => undefined);
  }

  /** Queues one line; written soon, in order, never waited for by the caller. */
  append(entry: AuditEntry): void {
    this.pending.push(`${JSON.stringify(entry)}\n`);
    if (this.pending.length > this.bufferLines) {
      const over = this.pending.length - this.bufferLines;
      this.pending.splice(0, over);
      this.dropped += over;
    }
    this.writing ??= this.drain();
  }

  /** Resolves once every line queued so far is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.writing ??= this.drain();
    await this.flush();
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }

  private async drain(): Promise<void> {
    // one tick later, so the calls of one burst leave in one write
    await new Promise((r) => setImmediate(r));
    try {
      while (this.pending.length > 0) {
        const lines = this.pending;
        this.pending = [];
        if (this.dropped > 0) {
          this.log(`audit log: ${this.dropped} line(s) dropped (the disk did not keep up)`);
          lines.unshift(
            `${JSON.stringify({ time: new Date().toISOString(), dropped: this.dropped })}\n`,
          );
          this.dropped = 0;
        }
        await this.write(lines.join(''));
      }
    } catch (e) {
      // those lines are lost (said here); the next append opens the file again
      this.log(`audit log ${this.file}: ${messageOf(e)}`);
      const h = this.handle;
      this.handle = undefined;
      this.size = undefined;
      await h?.close().catch(() => undefined);
    } finally {
      this.writing = undefined;
    }
  }

  private async write(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text);
    const size = this.size ?? (await sizeOf(this.file));
    if (size > 0 && size + bytes > this.maxBytes) await this.rotate();
    if (!this.handle) {
      this.handle = await open(this.file, 'a', 0o600);
      await chmod(this.file, 0o600); // a file left by someone with a looser umask
      this.size = await sizeOf(this.file);
    }
    await this.handle.write(text);
    this.size = (this.size ?? 0) + bytes;
  }

  /** audit.(n-1) → audit.n for n = keep..1; the live file becomes audit.1. */
  private async rotate(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
    for (let n = this.keep; n >= 1; n--) {
      await rename(auditFile(this.opts.dir, n - 1), auditFile(this.opts.dir, n)).catch(
        (e: unknown) => {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        },
      );
    }
    this.size = 0;
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
}
