// Jobs for long calls against the real fixture, through the MCP server in process and the SDK's
// own client (which validates every structured result against the listed output schema): a
// heavy call that outlives wait_ms is a job (job_status, job_wait, job_cancel), progress
// notifications go out while a call waits, a caller that goes away has its jobs cancelled, and
// a client that asks for MCP tasks gets the same jobs as tasks.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { createServer } from '../mcp/server.js';

let fixture: FixtureProcess;
let app: GameApp;
const clients: Client[] = [];

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  app = await GameApp.start({ discovery: false, lingerMs: 60_000 });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await app?.close();
  await fixture?.stop();
});

interface Agent {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  code(name: string, args?: Record<string, unknown>): Promise<string>;
  frame(): Promise<number>;
}

/** One MCP client on its own connection to the app (one caller), pointed at the fixture. */
async function agent(name: string): Promise<Agent> {
  const server = createServer(app, '0.0.0-test', {
    kind: 'mcp',
    target: { kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(a);
  clients.push(client);
  await client.listTools(); // the client validates results against these schemas from now on
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  const ok = async <T>(tool: string, args: Record<string, unknown> = {}): Promise<T> => {
    const r = await call(tool, args);
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(r.isError ?? false, `${tool} failed: ${text}`).toBe(false);
    return r.structuredContent as T;
  };
  return {
    client,
    call,
    ok,
    code: async (tool, args = {}) => {
      const r = await call(tool, args);
      expect(r.isError, `${tool} should fail`).toBe(true);
      return String((r._meta as { code?: string }).code);
    },
    frame: async () =>
      Number((await ok<{ value: string }>('eval', { code: 'UnityEngine.Time.frameCount' })).value),
  };
}

interface JobOut {
  job: string;
  status: string;
  progress: { ms_waited: number; frames?: number; frames_total?: number };
  result?: Record<string, unknown>;
  cancelling?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls job_status until `pred` holds (bounded). */
async function statusUntil(
  a: Agent,
  job: string,
  pred: (s: JobOut) => boolean,
  what: string,
): Promise<JobOut> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const s = await a.ok<JobOut>('job_status', { job });
    if (pred(s)) return s;
    if (Date.now() > deadline) throw new Error(`job ${job}: ${what} did not happen within 15 s`);
    await sleep(100);
  }
}

describe('jobs', () => {
  it('a long advance returns a job; job_status shows its frames moving; job_wait returns the result once', async () => {
    const a = await agent('agent-a');
    await a.ok('suspend');
    const reply = await a.ok<JobOut & { tool: string }>('advance', { seconds: 3, wait_ms: 200 });
    expect(reply).toMatchObject({ status: 'running', tool: 'advance' });
    expect(reply.job).toMatch(/^j-\d+$/);

    const first = await statusUntil(a, reply.job, (s) => (s.progress.frames ?? 0) > 0, 'frames');
    const later = await statusUntil(
      a,
      reply.job,
      (s) => (s.progress.frames ?? 0) > first.progress.frames!,
      'more frames',
    );
    expect(later.status).toBe('running');
    expect(later.result).toBeUndefined();

    const done = await a.ok<JobOut>('job_wait', { job: reply.job, timeout_ms: 30_000 });
    expect(done.status).toBe('done');
    expect(done.result).toMatchObject({ held: true });
    expect(done.result!.frames_advanced as number).toBeGreaterThanOrEqual(later.progress.frames!);
    // read: the job is forgotten
    expect(await a.code('job_status', { job: reply.job })).toBe('JOB_NOT_FOUND');
    // held again: the game does not move
    const held = await a.frame();
    expect(await a.frame()).toBe(held);
    await a.ok('resume');
  });

  it('job_cancel stops an advance at its next frame read, with the holds taken back', async () => {
    const a = await agent('agent-a');
    await a.ok('suspend');
    const reply = await a.ok<JobOut>('advance', { seconds: 50, wait_ms: 100 });
    await statusUntil(a, reply.job, (s) => (s.progress.frames ?? 0) > 5, 'frames');
    const c = await a.ok<JobOut>('job_cancel', { job: reply.job });
    expect(c.status).toBe('cancelled');
    expect(c.result).toMatchObject({ cancelled: true, held: true });
    // far fewer frames than 50 s at 60 fps
    expect(c.result!.frames_advanced as number).toBeLessThan(50 * 60);
    expect(c.result!.frames_advanced as number).toBeGreaterThan(5);
    const st = await a.ok<{ games: { holds: { caller: string; count: number }[] }[] }>('status');
    expect(st.games[0]!.holds).toEqual([{ caller: 'mcp:agent-a', count: 1 }]);
    const held = await a.frame();
    expect(await a.frame()).toBe(held);
    await a.ok('resume');
  });

  it("another caller's job: its state is visible, its result, wait and cancel are not", async () => {
    const a = await agent('agent-a');
    const b = await agent('agent-b');
    const reply = await b.ok<JobOut>('debug_wait', { timeout_ms: 5000, wait_ms: 0 });
    expect(reply.status).toBe('running');
    expect(await a.code('job_cancel', { job: reply.job })).toBe('JOB_NOT_OWNED');
    expect(await a.code('job_wait', { job: reply.job })).toBe('JOB_NOT_OWNED');
    const seen = await a.ok<JobOut & { owner: string }>('job_status', { job: reply.job });
    expect(seen).toMatchObject({ owner: 'mcp:agent-b', status: 'running' });
    expect(await a.code('job_status', { job: 'j-999999' })).toBe('JOB_NOT_FOUND');
    const c = await b.ok<JobOut>('job_cancel', { job: reply.job });
    expect(c).toMatchObject({ status: 'cancelled', result: { stopped: false, cancelled: true } });
  });

  it('job_cancel stops a watch between samples and removes its breakpoint', async () => {
    const a = await agent('agent-a');
    const reply = await a.ok<JobOut>('watch', {
      code: ['UnityEngine.Time.frameCount'],
      frames: 2000,
      wait_ms: 100,
    });
    await statusUntil(a, reply.job, (s) => (s.progress.frames ?? 0) > 3, 'samples');
    const c = await a.ok<JobOut>('job_cancel', { job: reply.job });
    expect(c.status).toBe('cancelled');
    expect(c.result).toMatchObject({ cancelled: true, timed_out: false });
    const samples = c.result!.samples as number;
    expect(samples).toBeGreaterThan(3);
    expect(samples).toBeLessThan(2000);
    expect((await a.ok<{ breakpoints: unknown[] }>('debug_status')).breakpoints).toEqual([]);
  });

  it('progress notifications arrive about once a second while a call waits', async () => {
    const a = await agent('agent-a');
    const seen: Progress[] = [];
    const seconds = 3;
    const r = await a.client.callTool(
      { name: 'advance', arguments: { seconds } },
      CallToolResultSchema,
      { onprogress: (p) => seen.push(p), timeout: 60_000 },
    );
    expect(r.isError ?? false).toBe(false);
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor(seconds) - 1);
    const values = seen.map((p) => p.progress);
    expect([...values].sort((x, y) => x - y)).toEqual(values);
    expect(seen.at(-1)!.message).toMatch(/^advance: \d+ frames/);
  });

  it('a caller that goes away: its running job is cancelled and dropped, its hold released', async () => {
    const a = await agent('agent-a');
    const b = await agent('agent-b');
    await b.ok('suspend');
    const reply = await b.ok<JobOut>('advance', { seconds: 50, wait_ms: 200 });
    const job = app.jobs.get(reply.job)!;
    expect(job.running).toBe(true);
    await b.client.close();
    await job.ended;
    expect(job.state).toBe('cancelled');
    expect(job.result?.structuredContent).toMatchObject({ cancelled: true });
    // closeCaller drops the job and then releases b's hold: the game runs for a
    const deadline = Date.now() + 15_000;
    while (app.jobs.get(reply.job) || app.gamesStatus()[0]!.holds.length > 0) {
      if (Date.now() > deadline) throw new Error("b's job or hold outlived it by 15 s");
      await sleep(50);
    }
    const f = await a.frame();
    const until = Date.now() + 10_000;
    while ((await a.frame()) === f) {
      if (Date.now() > until) throw new Error('the game did not run within 10 s');
      await sleep(50);
    }
  });
});

describe('MCP tasks', () => {
  it('lists heavy tools as optional tasks; a task runs to its result through tasks/get and tasks/result', async () => {
    const a = await agent('agent-a');
    const { tools } = await a.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('advance')?.execution?.taskSupport).toBe('optional');
    expect(byName.get('eval')?.execution).toBeUndefined();

    await a.ok('suspend');
    const kinds: string[] = [];
    let result: CallToolResult | undefined;
    for await (const m of a.client.experimental.tasks.callToolStream(
      { name: 'advance', arguments: { frames: 30 } },
      CallToolResultSchema,
    )) {
      kinds.push(m.type);
      if (m.type === 'result') result = m.result;
      if (m.type === 'error') throw m.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(result?.structuredContent).toMatchObject({ held: true });
    expect(
      (result!.structuredContent as { frames_advanced: number }).frames_advanced,
    ).toBeGreaterThanOrEqual(30);
    await a.ok('resume');
  });

  it('tasks/cancel stops the task at its next safe point; tasks/result then holds what it did', async () => {
    const a = await agent('agent-a');
    await a.ok('suspend');
    const stream = a.client.experimental.tasks.callToolStream(
      { name: 'advance', arguments: { seconds: 50 } },
      CallToolResultSchema,
    );
    const first = await stream.next();
    expect(first.value).toMatchObject({ type: 'taskCreated' });
    const taskId = (first.value as { task: { taskId: string } }).task.taskId;
    await stream.return(undefined);
    await statusUntil(a, taskId, (s) => (s.progress.frames ?? 0) > 5, 'frames');
    const listed = await a.client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
    const cancelled = await a.client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    const r = await a.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(r.structuredContent).toMatchObject({ cancelled: true, held: true });
    // another caller does not see it
    const b = await agent('agent-b');
    await expect(b.client.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    await a.ok('resume');
  });
});
