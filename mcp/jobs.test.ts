// The job table on its own (no game): ids, replies after wait_ms, results kept until read or for
// the keep period, cancels reaching the run's signal, a departing caller's jobs. Fake timers: no
// real sleeps.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { answerAsJob, JobTable, JOB_KEEP_MS, type Job } from './jobs.js';

const ok = (text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: { text },
});

/** A run that ends when its signal aborts (result "stopped"), or when `finish` is called. */
function controllable(): {
  run: (job: Job) => Promise<CallToolResult>;
  finish: (text: string) => void;
} {
  let finish: (text: string) => void = () => undefined;
  return {
    run: (job) =>
      new Promise((resolve) => {
        finish = (t) => resolve(ok(t));
        job.abort.signal.addEventListener('abort', () => resolve(ok('stopped')));
      }),
    finish: (t) => finish(t),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('JobTable', () => {
  it('numbers jobs j-1, j-2, ... and lists them per caller', () => {
    const t = new JobTable();
    const a = t.start('advance', 'x', controllable().run);
    const b = t.start('watch', 'y', controllable().run);
    const c = t.start('advance', 'x', controllable().run);
    expect([a.id, b.id, c.id]).toEqual(['j-1', 'j-2', 'j-3']);
    expect(t.of('x').map((j) => j.id)).toEqual(['j-1', 'j-3']);
    t.close();
  });

  it('answers the result when the run ends within wait_ms, and forgets the job', async () => {
    const t = new JobTable();
    const c = controllable();
    const answer = answerAsJob(t, 'advance', 'x', undefined, 1000, c.run);
    c.finish('done');
    expect((await answer).structuredContent).toEqual({ text: 'done' });
    expect(t.all()).toEqual([]);
  });

  it('answers a job reply when the run outlives wait_ms; the result is kept until read', async () => {
    const t = new JobTable();
    const c = controllable();
    const answer = answerAsJob(t, 'advance', 'x', undefined, 200, c.run);
    await vi.advanceTimersByTimeAsync(200);
    const reply = await answer;
    expect(reply.isError).toBeUndefined();
    expect(reply.structuredContent).toMatchObject({
      job: 'j-1',
      status: 'running',
      tool: 'advance',
    });
    c.finish('later');
    const job = t.get('j-1')!;
    await job.ended;
    expect(job.state).toBe('done');
    expect(job.result?.structuredContent).toEqual({ text: 'later' });
    t.read(job);
    expect(t.get('j-1')).toBeUndefined();
  });

  it('forgets an unread result 10 minutes after the job ended', async () => {
    const t = new JobTable();
    const c = controllable();
    void answerAsJob(t, 'advance', 'x', undefined, 0, c.run);
    await vi.advanceTimersByTimeAsync(60_000);
    c.finish('late');
    await t.get('j-1')!.ended;
    await vi.advanceTimersByTimeAsync(JOB_KEEP_MS - 1);
    expect(t.get('j-1')?.state).toBe('done');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.get('j-1')).toBeUndefined();
  });

  it('a cancel aborts the run; the job ends cancelled with what the run returned', async () => {
    const t = new JobTable();
    const job = t.start('advance', 'x', controllable().run);
    t.detach(job);
    t.cancel(job, 'asked');
    await job.ended;
    expect(job.state).toBe('cancelled');
    expect(job.cancelReason).toBe('asked');
    expect(job.result?.structuredContent).toEqual({ text: 'stopped' });
  });

  it("the request's abort (notifications/cancelled) cancels the job", async () => {
    const t = new JobTable();
    const request = new AbortController();
    const answer = answerAsJob(
      t,
      'debug_wait',
      'x',
      { signal: request.signal },
      20_000,
      controllable().run,
    );
    request.abort();
    expect((await answer).structuredContent).toEqual({ text: 'stopped' });
  });

  it("a departing caller's jobs are cancelled, waited for and dropped; others' stay", async () => {
    const t = new JobTable();
    const mine = t.start('advance', 'x', controllable().run);
    const done = t.start('watch', 'x', () => Promise.resolve(ok('finished')));
    const theirs = t.start('advance', 'y', controllable().run);
    t.detach(mine);
    t.detach(done);
    await t.callerGone('x');
    expect(mine.state).toBe('cancelled');
    expect(t.of('x')).toEqual([]);
    expect(t.get(theirs.id)?.running).toBe(true);
    t.close();
  });

  it('progress notifications go out while the request waits, with increasing progress', async () => {
    const t = new JobTable();
    const sent: number[] = [];
    const c = controllable();
    const answer = answerAsJob(
      t,
      'advance',
      'x',
      { sendProgress: (p) => Promise.resolve(void sent.push(p.progress)) },
      10_000,
      (job) => {
        const timer = setInterval(
          () => job.report({ frames: (job.progress.frames ?? 0) + 30 }),
          500,
        );
        return c.run(job).finally(() => clearInterval(timer));
      },
    );
    await vi.advanceTimersByTimeAsync(3000);
    c.finish('done');
    await answer;
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    expect(new Set(sent).size).toBe(sent.length);
  });
});
