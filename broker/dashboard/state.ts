// What the dashboard shows, in one JSON: the players heard, each game (its session, holds with
// since when, pause, breakpoints, queue per tier), the callers with what they own, the jobs and
// the last audit lines. Built from what `status` and `queue_status` read (GameApp, the queue
// tool's own data), never touching a game: reading it costs no window and no wire command.

import { open, stat } from 'node:fs/promises';

import type { GameApp } from '../../mcp/app.js';
import { auditFile } from '../../mcp/ledger/audit.js';
import { toolContext } from '../../mcp/tool.js';
import { queueStatus } from '../../mcp/tools/queue.js';

/** The audit lines shown (the newest). */
export const AUDIT_LINES = 30;
/** How much of audit.jsonl's end is read for them. */
const AUDIT_TAIL_BYTES = 64 * 1024;

type QueueOut = Awaited<ReturnType<typeof queueStatus.run>>['structured'];

export interface DashboardState {
  /** Server time (ISO 8601): the page counts durations on from it. */
  time: string;
  players: {
    key: string;
    label: string;
    project?: string;
    endpoint: string;
    debuggable: boolean;
    age_ms: number;
    stale: boolean;
  }[];
  discovery: 'off' | 'not started' | 'listening';
  games: {
    id: string;
    endpoint: string;
    player?: string;
    attached: boolean;
    lingering: boolean;
    paused_for?: string;
    callers: string[];
    /** Who holds it, how many holds, held for how long (ms). */
    holds: { caller: string; count: number; held_ms?: number }[];
    breakpoints: { owner: string; count: number }[];
    queue: QueueOut['games'][number] | undefined;
  }[];
  callers: (QueueOut['callers'][number] & {
    holds: { game: string; count: number; held_ms?: number }[];
  })[];
  jobs: {
    job: string;
    tool: string;
    caller: string;
    status: string;
    game?: string;
    ms: number;
    cancelling?: boolean;
  }[];
  audit: Record<string, unknown>[];
}

/** Builds the state; the audit tail is read from `home`'s audit.jsonl (cached by size). */
export class DashboardStateReader {
  private auditKey = '';
  private auditLines: Record<string, unknown>[] = [];

  constructor(
    private readonly app: GameApp,
    private readonly home: string,
  ) {}

  async read(): Promise<DashboardState> {
    const app = this.app;
    const now = Date.now();
    // the queue tool's own data (never touches a game: routing none, instant)
    const q = (await queueStatus.run({}, toolContext({ app, caller: 'dashboard' }, undefined)))
      .structured;
    const games = app.allGames();
    const heldMs = (gameId: string, caller: string): number | undefined => {
      const g = games.find((x) => x.id === gameId);
      const since = g?.session.holdsOf(caller).since;
      return since === undefined ? undefined : Math.max(0, now - since);
    };
    const withHeld = <T extends { caller: string }>(gameId: string, h: T) => {
      const ms = heldMs(gameId, h.caller);
      return { ...h, ...(ms !== undefined ? { held_ms: ms } : {}) };
    };
    const d = app.discoveryStatus();
    return {
      time: new Date(now).toISOString(),
      players: (app.registry?.list({ includeStale: true }) ?? []).map((p) => ({
        key: p.key,
        label: p.label,
        ...(p.projectName !== undefined ? { project: p.projectName } : {}),
        endpoint: p.endpoint,
        debuggable: p.debugEnabled,
        age_ms: Math.round(p.ageMs),
        stale: p.stale,
      })),
      discovery: !app.listener ? 'off' : d ? 'listening' : 'not started',
      games: app.gamesStatus().map((g) => ({
        id: g.id,
        endpoint: g.endpoint,
        ...(g.player !== undefined ? { player: g.player } : {}),
        attached: g.attached,
        lingering: g.lingering === true,
        ...(g.paused_for !== undefined ? { paused_for: g.paused_for } : {}),
        callers: g.callers,
        holds: g.holds.map((h) => withHeld(g.id, h)),
        breakpoints: g.breakpoints,
        queue: q.games.find((x) => x.game === g.id),
      })),
      callers: q.callers.map((c) => ({
        ...c,
        holds: c.holds.map((h) => {
          const ms = heldMs(h.game, c.caller);
          return { ...h, ...(ms !== undefined ? { held_ms: ms } : {}) };
        }),
      })),
      jobs: app.jobs.all().map((j) => ({
        job: j.id,
        tool: j.tool,
        caller: j.caller,
        status: j.state,
        ...(j.game !== undefined ? { game: j.game } : {}),
        ms: Math.round(j.progress.msWaited),
        ...(j.running && j.abort.signal.aborted ? { cancelling: true } : {}),
      })),
      audit: await this.auditTail(),
    };
  }

  /** The newest audit lines, newest first; re-read only when the file changed. */
  private async auditTail(): Promise<Record<string, unknown>[]> {
    const file = auditFile(this.home);
    let size: number;
    let key: string;
    try {
      const s = await stat(file);
      size = s.size;
      key = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    if (key === this.auditKey) return this.auditLines;
    const from = Math.max(0, size - AUDIT_TAIL_BYTES);
    const h = await open(file, 'r');
    let text: string;
    try {
      const buf = Buffer.alloc(size - from);
      const { bytesRead } = await h.read(buf, 0, buf.length, from);
      text = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await h.close();
    }
    const lines = text.split('\n');
    if (from > 0) lines.shift(); // cut mid-line
    const parsed: Record<string, unknown>[] = [];
    for (const l of lines) {
      if (!l.trim()) continue;
      try {
        const v: unknown = JSON.parse(l);
        if (v && typeof v === 'object' && !Array.isArray(v))
          parsed.push(v as Record<string, unknown>);
      } catch {
        // a line being written: the next read has it whole
      }
    }
    this.auditKey = key;
    this.auditLines = parsed.slice(-AUDIT_LINES).reverse();
    return this.auditLines;
  }
}

/** The state without what only ticks (durations, the clock): equal means nothing happened. */
export function stateSignature(s: DashboardState): string {
  return JSON.stringify(s, (k, v: unknown) =>
    k === 'time' || k === 'ms' || k.endsWith('_ms') ? undefined : v,
  );
}
