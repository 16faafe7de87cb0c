// MCP tasks (the SDK's experimental tasks, spec 2025-11-25) over the same jobs (jobs.ts): a
// client that sends tools/call with `task` for a heavy tool (listed with execution.taskSupport
// "optional") gets a CreateTaskResult at once; tasks/get, tasks/result, tasks/list and
// tasks/cancel read and cancel the job behind it. A task id is its job id (job_status takes it
// too). Tasks are their caller's: another caller's is "not found", as the spec asks of tasks
// bound to another session. Clients that send no `task` get the tool-level job replies instead.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type CreateTaskResult,
  type Task,
  type TaskMetadata,
} from '@modelcontextprotocol/sdk/types.js';

import { JOB_KEEP_MS, pumpProgress, type CallRequest, type Job, type JobTable } from './jobs.js';

/** The server's tasks capability: tool calls as tasks, listed and cancelled. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** How often a client should poll tasks/get. */
const POLL_MS = 500;
/** How long tasks/result and tasks/cancel wait for a job to end before answering. */
const RESULT_WAIT_MS = 600_000;
const CANCEL_WAIT_MS = 10_000;

const STATUS = {
  running: 'working',
  done: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
} as const satisfies Record<Job['state'], Task['status']>;

export function taskOf(job: Job): Task {
  return {
    taskId: job.id,
    status: STATUS[job.state],
    ttl: job.taskTtlMs ?? JOB_KEEP_MS,
    createdAt: new Date(job.startedAt).toISOString(),
    lastUpdatedAt: new Date(job.lastUpdate).toISOString(),
    pollInterval: POLL_MS,
    ...(job.state === 'cancelled' && job.cancelReason
      ? { statusMessage: `cancelled: ${job.cancelReason}` }
      : job.state === 'failed'
        ? { statusMessage: failure(job) }
        : {}),
  };
}

function failure(job: Job): string {
  const text = job.result?.content.find((c) => c.type === 'text');
  return text && 'text' in text ? text.text.split('\n')[0]! : 'failed';
}

/**
 * `job` (just started for a tools/call with `task`) as a task: kept for the ttl asked (at most
 * the jobs' keep period) after it ends, read or not; progress goes out until it ends when the
 * request carried a token (the token stays valid for a task's life).
 */
export function createTask(
  jobs: JobTable,
  job: Job,
  task: TaskMetadata,
  request: CallRequest | undefined,
): CreateTaskResult {
  job.taskTtlMs = Math.min(task.ttl ?? JOB_KEEP_MS, JOB_KEEP_MS);
  jobs.detach(job);
  if (request?.sendProgress) {
    const stop = pumpProgress(job, request.sendProgress);
    void job.ended.then(stop);
  }
  return { task: taskOf(job) };
}

/** Waits for `job` to end, at most `ms` or until `signal`; true when it ended. */
async function ended(job: Job, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (!job.running) return true;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    job.ended,
    new Promise<void>((r) => {
      timer = setTimeout(r, ms);
      onAbort = () => r();
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal?.removeEventListener('abort', onAbort);
  return !job.running;
}

/** tasks/get, tasks/result, tasks/list and tasks/cancel over the caller's jobs. */
export function registerTaskHandlers(server: Server, jobs: JobTable, caller: () => string): void {
  const own = (taskId: string): Job => {
    const job = jobs.get(taskId);
    if (!job || job.caller !== caller())
      throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return job;
  };
  server.setRequestHandler(GetTaskRequestSchema, (request) => taskOf(own(request.params.taskId)));
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const job = own(request.params.taskId);
    if (!(await ended(job, RESULT_WAIT_MS, extra.signal)))
      throw new McpError(
        ErrorCode.InternalError,
        `task ${job.id} is still running after ${RESULT_WAIT_MS} ms: ask tasks/result again`,
      );
    jobs.read(job);
    const result = job.result!;
    return {
      ...result,
      _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: job.id } },
    };
  });
  server.setRequestHandler(ListTasksRequestSchema, () => ({
    tasks: jobs.of(caller()).map(taskOf),
  }));
  server.setRequestHandler(CancelTaskRequestSchema, async (request, extra) => {
    const job = own(request.params.taskId);
    if (!job.running)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot cancel task in terminal status: ${STATUS[job.state]}`,
      );
    jobs.cancel(job, `${caller()} cancelled it (tasks/cancel)`);
    // the job stops at its next safe point: its state is then final
    await ended(job, CANCEL_WAIT_MS, extra.signal);
    return taskOf(job);
  });
}
