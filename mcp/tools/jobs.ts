// job_status, job_wait, job_cancel: the heavy calls that outlived their wait_ms and were
// answered with a job id (mcp/jobs.ts). A job is its caller's: only the owner waits for it,
// cancels it or is given its result (which is then forgotten: results are kept until read, or
// 10 minutes after the job ended). job_status of another caller's job shows its state and
// progress, never its result, as status shows everyone's holds.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { Errors, UnityError, type UnityErrorCode } from '../../unity/errors.js';
import { callCost } from '../cost.js';
import { progressOut, progressSchema, progressText, type Job } from '../jobs.js';
import { costSchema } from '../schemas.js';
import {
  CONTROLS_IDEMPOTENT,
  READS,
  defineTool,
  type ToolContext,
  type ToolImage,
} from '../tool.js';

const jobArgument = z.string().min(1).describe('a job id from a heavy call\'s reply ("j-17")');

const jobOutput = z.object({
  job: z.string(),
  tool: z.string(),
  status: z.enum(['running', 'done', 'failed', 'cancelled']),
  owner: z.string().describe('the caller whose call it is'),
  game: z.string().optional().describe('the game it went to (a game id from status)'),
  progress: progressSchema,
  started: z.string().describe('ISO 8601'),
  ended: z.string().optional().describe('ISO 8601'),
  cancelling: z.boolean().optional().describe('cancelled: it stops at its next safe point'),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "the tool's result (as that tool's structured result), given once to the owner: the job is then forgotten",
    ),
  error: z
    .object({ code: z.string(), message: z.string() })
    .optional()
    .describe('why it failed (given once, as result is)'),
  cost: costSchema,
});

type JobOut = Omit<z.input<typeof jobOutput>, 'cost'>;

function ownJobs(ctx: ToolContext): string[] {
  return ctx.app.jobs.of(ctx.caller).map((j) => j.id);
}

function find(ctx: ToolContext, id: string): Job {
  const job = ctx.app.jobs.get(id);
  if (!job) throw Errors.jobNotFound(id, ownJobs(ctx));
  return job;
}

function owned(ctx: ToolContext, id: string): Job {
  const job = find(ctx, id);
  if (job.caller !== ctx.caller) throw Errors.jobNotOwned(id, job.caller);
  return job;
}

function failureOf(r: CallToolResult): { code: string; message: string } {
  const text = r.content.find((c) => c.type === 'text');
  const message = text && 'text' in text ? text.text : '';
  const code = typeof r._meta?.code === 'string' ? r._meta.code : 'INTERNAL';
  return { code, message: message.replace(`${code}: `, '') };
}

/** The job as its tools show it; `deliver`: the owner is given the result (which reads it). */
function jobOut(job: Job, deliver: boolean): JobOut {
  const r = deliver ? job.result : undefined;
  return {
    job: job.id,
    tool: job.tool,
    status: job.state,
    owner: job.caller,
    ...(job.game !== undefined ? { game: job.game } : {}),
    progress: progressOut(job),
    started: new Date(job.startedAt).toISOString(),
    ...(job.endedAt !== undefined ? { ended: new Date(job.endedAt).toISOString() } : {}),
    ...(job.running && job.abort.signal.aborted ? { cancelling: true } : {}),
    ...(r && !r.isError && r.structuredContent ? { result: r.structuredContent } : {}),
    ...(r?.isError ? { error: failureOf(r) } : {}),
  };
}

function stateText(job: Job): string {
  return `job ${job.id} (${job.tool}, ${job.caller}): ${job.state}${job.running && job.abort.signal.aborted ? ', cancelling' : ''}; ${progressText(job)}`;
}

/** The tool's own text and images, after a line about the job. */
function delivered(job: Job): { text: string; images: ToolImage[] } {
  const content = job.result?.content ?? [];
  const text = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  const images = content.flatMap((c) =>
    c.type === 'image' ? [{ data: c.data, mimeType: 'image/png' as const }] : [],
  );
  return { text: `${stateText(job)}\n${text}`, images };
}

/** Waits for `job` to end, at most `ms` or until `signal`. */
async function ended(job: Job, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!job.running) return;
  let timer: NodeJS.Timeout | undefined;
  const stop = new AbortController();
  await Promise.race([
    job.ended,
    new Promise<void>((r) => {
      timer = setTimeout(r, ms);
      signal?.addEventListener('abort', () => r(), { once: true, signal: stop.signal });
    }),
  ]);
  clearTimeout(timer);
  stop.abort();
}

/** The answer for the owner: the result once ended (then the job is read), else its state. */
function answer(ctx: ToolContext, job: Job, started: number) {
  const mine = job.caller === ctx.caller;
  const final = mine && !job.running;
  const out = jobOut(job, final);
  const shown = final ? delivered(job) : { text: stateText(job), images: [] };
  if (final) ctx.app.jobs.read(job);
  return {
    text: shown.text,
    structured: out,
    cost: callCost(started),
    ...(shown.images.length ? { images: shown.images } : {}),
  };
}

export const jobStatus = defineTool({
  name: 'job_status',
  title: 'Job status',
  description:
    'The state of a job (a heavy call that outlived its `wait_ms`): running, done, failed or ' +
    'cancelled, its progress (frames, time, place in line). Answers at once. Once it ended, ' +
    "its owner is given the tool's result here (`result`, or `error`), once: the job is then " +
    "forgotten. Another caller's job shows its state, never its result.",
  input: z.object({ job: jobArgument }),
  output: jobOutput,
  annotations: READS,
  routing: 'none',
  tier: 'instant',
  run: (args, ctx) => Promise.resolve(answer(ctx, find(ctx, args.job), performance.now())),
});

export const jobWait = defineTool({
  name: 'job_wait',
  title: 'Wait for a job',
  description:
    "Wait (at most `timeout_ms`) for your job to end and return the tool's result: its text " +
    'and images, its structured result in `result` (the job is then forgotten). A job that ' +
    "failed returns the tool's error, with its code. Still running when the time runs out: " +
    'its state and progress, and the job goes on.',
  input: z.object({
    job: jobArgument,
    timeout_ms: z.number().int().min(0).max(600_000).default(20_000),
  }),
  output: jobOutput,
  annotations: READS,
  routing: 'none',
  tier: 'instant',
  run: async (args, ctx) => {
    const started = performance.now();
    const job = owned(ctx, args.job);
    await ended(job, args.timeout_ms, ctx.request?.signal);
    if (job.state === 'failed' && job.result) {
      // the tool's own failure, as the call would have returned it
      ctx.app.jobs.read(job);
      throw jobFailure(job, job.result);
    }
    return answer(ctx, job, started);
  },
});

/** A failed job's error, re-raised with the tool's code and message (and the job named). */
function jobFailure(job: Job, r: CallToolResult): Error {
  const f = failureOf(r);
  const meta = (r._meta ?? {}) as { suggestions?: string[]; details?: Record<string, unknown> };
  // the code is the tool's own, one of the catalogue's
  return new UnityError(
    f.code as UnityErrorCode,
    `job ${job.id} (${job.tool}) failed: ${f.message}`,
    {
      ...(meta.suggestions ? { suggestions: meta.suggestions } : {}),
      details: { ...meta.details, job: job.id },
    },
  );
}

export const jobCancel = defineTool({
  name: 'job_cancel',
  title: 'Cancel a job',
  description:
    'Stop your job at its next safe point (an advance between frame reads, with your holds ' +
    'taken back; a wait or step at once; a watch between samples) and return what it did: ' +
    "the tool's result so far (an advance's frames_advanced, a watch's samples; the job is " +
    'then forgotten), or `cancelling` if it has not stopped within a few seconds (job_wait ' +
    'then returns it). A job that already ended is returned as it ended.',
  input: z.object({ job: jobArgument }),
  output: jobOutput,
  annotations: CONTROLS_IDEMPOTENT,
  routing: 'none',
  tier: 'instant',
  run: async (args, ctx) => {
    const started = performance.now();
    const job = owned(ctx, args.job);
    ctx.app.jobs.cancel(job, `${ctx.caller} cancelled it (job_cancel)`);
    await ended(job, CANCEL_WAIT_MS, ctx.request?.signal);
    return answer(ctx, job, started);
  },
});

/** How long job_cancel waits for the job to reach its safe point before answering. */
const CANCEL_WAIT_MS = 10_000;

export const jobTools = [jobStatus, jobWait, jobCancel];
