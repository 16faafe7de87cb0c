// Jobs: every heavy call (Tool.tier 'heavy': advance, stepping, debug_wait, watch, profile)
// runs as a job of its caller from its start. One that ends within its `wait_ms` is answered
// like any call and forgotten at once; one that outlives it is answered
// `{job: "j-17", status: "running", progress}` and keeps running, reached by its id through
// job_status, job_wait and job_cancel (tools/jobs.ts) or as an MCP task (tasks.ts). Its result is
// kept until its owner reads it, or 10 minutes after it ended (a task's: its ttl, at most that).
// A cancel aborts the job's signal, which the game code checks at its next safe point (between
// frame reads, in its waits: unity/advance.ts, the debugger's waits, the watch's sampling).
// A caller that goes away has its jobs cancelled, waited for (so that what they hold is given
// back before the caller's holds are released) and their results dropped.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { messageOf } from '../unity/errors.js';

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

/** What a running call reports of itself: the tool its frames, the scheduler its place in line. */
export interface ProgressReport {
  /** Frames advanced (advance) or sampled (watch, profile) so far. */
  frames?: number;
  /** The frames asked for, when the call counts them. */
  framesTotal?: number;
  /** How long the call expects to run (ms), when known (a wait's bound, seconds asked for). */
  expectedMs?: number;
  /** Where the call waits in line for its game (1: next), while it waits. */
  queuePosition?: number;
}

/** What a tool running as a job is given (ToolContext.signal and .progress). */
export interface JobHooks {
  signal: AbortSignal;
  progress: (r: ProgressReport) => void;
  /** The game the call went to, once routed (status and queue views show it). */
  onGame: (gameId: string) => void;
}

/** The hooks of a call that is no job (refused before it started): never aborted. */
export function noJob(): JobHooks {
  return {
    signal: new AbortController().signal,
    progress: () => undefined,
    onGame: () => undefined,
  };
}

/** A job's progress as results show it. */
export const progressSchema = z
  .object({
    ms_waited: z.number().describe('how long the call has run'),
    frames: z
      .number()
      .int()
      .optional()
      .describe('frames advanced (advance) or sampled (watch, profile) so far'),
    frames_total: z.number().int().optional().describe('the frames asked for'),
    queue_position: z
      .number()
      .int()
      .optional()
      .describe('where the call waits in line for the game (1: next), when it waits'),
  })
  .describe('how far the call has got');

/** The reply of a heavy call that outlived its wait_ms (a variant of every heavy tool's output). */
export const jobReplySchema = z.object({
  job: z.string().describe('the job id: job_status, job_wait and job_cancel take it'),
  status: z.literal('running'),
  tool: z.string(),
  progress: progressSchema,
});

/** How long a job's result is kept after it ended when nobody reads it. */
export const JOB_KEEP_MS = 10 * 60_000;
/** How long a departing caller's jobs are waited for, once cancelled, before it leaves anyway. */
const CALLER_GONE_WAIT_MS = 30_000;

export class Job {
  readonly abort = new AbortController();
  state: JobState = 'running';
  readonly startedAt = Date.now();
  endedAt: number | undefined;
  /** The tool's result (an error result when it failed), once it ended. */
  result: CallToolResult | undefined;
  /** The game it went to, once routed. */
  game: string | undefined;
  /** A reply named it (a job reply, a task): it stays until read or kept out. */
  detached = false;
  /** Created as an MCP task: kept this long after it ended, read or not. */
  taskTtlMs: number | undefined;
  /** Why it was cancelled, if it was. */
  cancelReason: string | undefined;
  private reported: ProgressReport = {};
  lastUpdate = Date.now();
  readonly ended: Promise<void>;
  private markEnded: () => void = () => undefined;

  constructor(
    /** `j-1`, `j-2`, ...: unique in its table (one per broker). */
    readonly id: string,
    readonly tool: string,
    readonly caller: string,
  ) {
    this.ended = new Promise((r) => (this.markEnded = r));
  }

  get running(): boolean {
    return this.state === 'running';
  }

  report(r: ProgressReport): void {
    this.reported = { ...this.reported, ...r };
    this.lastUpdate = Date.now();
  }

  get progress(): ProgressReport & { msWaited: number } {
    return { ...this.reported, msWaited: (this.endedAt ?? Date.now()) - this.startedAt };
  }

  hooks(): JobHooks {
    return {
      signal: this.abort.signal,
      progress: (r) => this.report(r),
      onGame: (id) => (this.game = id),
    };
  }

  /** Called once by the table when the run settles. */
  finish(result: CallToolResult): void {
    this.result = result;
    this.endedAt = Date.now();
    this.lastUpdate = this.endedAt;
    this.state = this.abort.signal.aborted ? 'cancelled' : result.isError ? 'failed' : 'done';
    this.markEnded();
  }
}

export function progressOut(job: Job): z.input<typeof progressSchema> {
  const p = job.progress;
  return {
    ms_waited: p.msWaited,
    ...(p.frames !== undefined ? { frames: p.frames } : {}),
    ...(p.framesTotal !== undefined ? { frames_total: p.framesTotal } : {}),
    ...(p.queuePosition !== undefined ? { queue_position: p.queuePosition } : {}),
  };
}

export function progressText(job: Job): string {
  const p = job.progress;
  const parts = [
    ...(p.frames !== undefined
      ? [`${p.frames}${p.framesTotal !== undefined ? ` of ${p.framesTotal}` : ''} frames`]
      : []),
    `${(p.msWaited / 1000).toFixed(1)} s`,
    ...(p.queuePosition !== undefined ? [`number ${p.queuePosition} in line`] : []),
  ];
  return parts.join(', ');
}

/** The jobs of one broker (GameApp.jobs). */
export class JobTable {
  private readonly jobs = new Map<string, Job>();
  private readonly expiry = new Map<string, NodeJS.Timeout>();
  private next = 1;

  constructor(private readonly keepMs = JOB_KEEP_MS) {}

  /** Starts `run` as a job of `caller` (running until `run` settles; it never rejects here). */
  start(tool: string, caller: string, run: (job: Job) => Promise<CallToolResult>): Job {
    const job = new Job(`j-${this.next++}`, tool, caller);
    this.jobs.set(job.id, job);
    void (async () => {
      let result: CallToolResult;
      try {
        result = await run(job);
      } catch (e) {
        // callTool makes every failure a result; this is the net under it
        result = {
          isError: true,
          content: [{ type: 'text', text: `INTERNAL: ${messageOf(e)}` }],
          _meta: { code: 'INTERNAL' },
        };
      }
      job.finish(result);
      if (job.detached) this.keepUntilExpiry(job);
    })();
    return job;
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** The jobs of `caller`, oldest first. */
  of(caller: string): Job[] {
    return this.all().filter((j) => j.caller === caller);
  }

  all(): Job[] {
    return [...this.jobs.values()];
  }

  /** A reply named the job: it is kept (once it ends) until read or for the keep period. */
  detach(job: Job): void {
    job.detached = true;
    if (!job.running) this.keepUntilExpiry(job);
  }

  /**
   * The owner was given the final result: the job is forgotten (a task stays for its ttl: a
   * client may still ask tasks/get after tasks/result).
   */
  read(job: Job): void {
    if (job.running || job.taskTtlMs !== undefined) return;
    this.forget(job.id);
  }

  /** Aborts the job's signal: the call stops at its next safe point. */
  cancel(job: Job, reason: string): void {
    if (!job.running || job.abort.signal.aborted) return;
    job.cancelReason = reason;
    job.abort.abort(new Error(reason));
  }

  /**
   * `caller` went away: its running jobs are cancelled and waited for (bounded), then all of its
   * jobs are dropped with their results.
   */
  async callerGone(caller: string, waitMs = CALLER_GONE_WAIT_MS): Promise<void> {
    const mine = this.of(caller);
    for (const j of mine) this.cancel(j, `${caller} went away`);
    const running = mine.filter((j) => j.running).map((j) => j.ended);
    if (running.length) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(running),
        new Promise<void>((r) => {
          timer = setTimeout(r, waitMs);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    }
    for (const j of mine) this.forget(j.id);
  }

  /** Cancels every job and forgets them all (the app closing). */
  close(): void {
    for (const j of this.jobs.values()) this.cancel(j, 'the server is shutting down');
    for (const t of this.expiry.values()) clearTimeout(t);
    this.expiry.clear();
    this.jobs.clear();
  }

  private keepUntilExpiry(job: Job): void {
    if (this.expiry.has(job.id) || !this.jobs.has(job.id)) return;
    const t = setTimeout(
      () => this.forget(job.id),
      Math.min(job.taskTtlMs ?? this.keepMs, this.keepMs),
    );
    t.unref();
    this.expiry.set(job.id, t);
  }

  private forget(id: string): void {
    const t = this.expiry.get(id);
    if (t) clearTimeout(t);
    this.expiry.delete(id);
    this.jobs.delete(id);
  }
}

/** What the call's own request offers: its abort signal, a way to send progress. */
export interface CallRequest {
  /** Aborted by notifications/cancelled (or the connection closing): cancels the call's job. */
  signal?: AbortSignal;
  /** Set when the request carries `_meta.progressToken`: sends notifications/progress. */
  sendProgress?: (p: { progress: number; total?: number; message?: string }) => Promise<void>;
}

/** How often progress notifications go out (the issue asks for at least one a second). */
const PROGRESS_EVERY_MS = 500;

/**
 * Sends the job's progress every PROGRESS_EVERY_MS until the returned stop is called: frames
 * when the call counts them (sent when they moved: progress must increase), else the time it
 * has waited. Failures to send (the connection went) are dropped: the job goes on.
 */
export function pumpProgress(job: Job, send: NonNullable<CallRequest['sendProgress']>): () => void {
  let last = -1;
  const tick = (): void => {
    const p = job.progress;
    const byFrames = p.frames !== undefined;
    const progress = byFrames ? p.frames! : p.msWaited;
    if (progress <= last) return;
    last = progress;
    const total = byFrames ? p.framesTotal : p.expectedMs;
    send({
      progress,
      ...(total !== undefined ? { total } : {}),
      message: `${job.tool}: ${progressText(job)}`,
    }).catch(() => undefined);
  };
  tick();
  const timer = setInterval(tick, PROGRESS_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The reply of a heavy call still running when its wait ended: a job reply (jobReplySchema). */
export function jobReply(job: Job): CallToolResult {
  return {
    content: [
      {
        type: 'text',
        text:
          `${job.tool} still runs as job ${job.id} (${progressText(job)}): ` +
          `job_wait {job: "${job.id}"} returns its result, job_status shows how far it got, ` +
          'job_cancel stops it',
      },
    ],
    structuredContent: {
      job: job.id,
      status: 'running',
      tool: job.tool,
      progress: progressOut(job),
    } satisfies z.input<typeof jobReplySchema>,
  };
}

/**
 * Runs a heavy call as a job: its result if it ends within `waitMs` (0: a job reply at once),
 * else a job reply. Progress goes out while the request waits; its abort cancels the job.
 */
export async function answerAsJob(
  jobs: JobTable,
  tool: string,
  caller: string,
  request: CallRequest | undefined,
  waitMs: number,
  run: (job: Job) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const job = jobs.start(tool, caller, run);
  if (waitMs === 0) {
    jobs.detach(job);
    return jobReply(job);
  }
  const stopPump = request?.sendProgress ? pumpProgress(job, request.sendProgress) : undefined;
  const onAbort = (): void => jobs.cancel(job, 'the request was cancelled');
  request?.signal?.addEventListener('abort', onAbort, { once: true });
  if (request?.signal?.aborted) onAbort();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    job.ended.then(() => 'ended' as const),
    new Promise<'waited'>((r) => (timer = setTimeout(() => r('waited'), waitMs))),
  ]);
  clearTimeout(timer);
  stopPump?.();
  request?.signal?.removeEventListener('abort', onAbort);
  if (outcome === 'ended') {
    jobs.read(job);
    return job.result!;
  }
  jobs.detach(job);
  return jobReply(job);
}
