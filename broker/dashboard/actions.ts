// What a person can do from the dashboard: release a caller's holds, cancel a job, detach a
// game. Each is a tool of its own (never listed to MCP clients) run through the same dispatch
// as every call (mcp/server.ts callTool) as the caller `dashboard`: the scheduler gives it its
// turn like any call's, and the audit log has its line (caller `dashboard`, the tool's name,
// the game, the outcome).

import { z } from 'zod';

import type { GameApp } from '../../mcp/app.js';
import { callCost } from '../../mcp/cost.js';
import { costSchema } from '../../mcp/schemas.js';
import { callTool } from '../../mcp/server.js';
import { CONTROLS, CONTROLS_IDEMPOTENT, defineTool } from '../../mcp/tool.js';
import type { Tool } from '../../mcp/tool.js';
import { Errors } from '../../unity/errors.js';

/** The caller the dashboard's calls are made as (and audited under). */
export const DASHBOARD_CALLER = 'dashboard';

export const dashboardRelease = defineTool({
  name: 'dashboard_release',
  title: "Release a caller's holds (dashboard)",
  description: "Releases every hold `caller` has on the game (the session's release, for it).",
  input: z.object({ caller: z.string().min(1) }),
  output: z.object({ released: z.number().int(), running: z.boolean(), cost: costSchema }),
  annotations: CONTROLS,
  tier: 'smooth',
  run: async (args, { session }) => {
    const started = performance.now();
    const n = session.holdsOf(args.caller).mine;
    if (n === 0)
      throw Errors.holdNotOwned(
        args.caller,
        session.status().holds.map((h) => h.caller),
      );
    const costs = [];
    for (let i = 0; i < n; i++) costs.push((await session.release(args.caller)).cost);
    const running = session.status().holds.length === 0;
    return {
      text: `released ${n} hold(s) of ${args.caller}; game ${running ? 'running' : 'still held'}`,
      structured: { released: n, running },
      cost: callCost(started, costs),
    };
  },
});

export const dashboardCancelJob = defineTool({
  name: 'dashboard_cancel_job',
  title: 'Cancel a job (dashboard)',
  description: "Cancels any caller's running job: it stops at its next safe point.",
  input: z.object({ job: z.string().min(1) }),
  output: z.object({ job: z.string(), owner: z.string(), cost: costSchema }),
  annotations: CONTROLS_IDEMPOTENT,
  tier: 'instant',
  routing: 'none',
  run: (args, { app }) => {
    const started = performance.now();
    const job = app.jobs.get(args.job);
    if (!job)
      throw Errors.jobNotFound(
        args.job,
        app.jobs.all().map((j) => j.id),
      );
    app.jobs.cancel(job, 'cancelled from the dashboard');
    return Promise.resolve({
      text: `job ${job.id} (${job.tool} of ${job.caller}) cancelled`,
      structured: { job: job.id, owner: job.caller },
      cost: callCost(started),
    });
  },
});

export const dashboardDetach = defineTool({
  name: 'dashboard_detach',
  title: 'Detach a game (dashboard)',
  description:
    'Every caller leaves the game (holds released, pauses resumed, breakpoints removed); the ' +
    'game is resumed and sent DISPOSE, its debugger slot free. A caller that calls again attaches again.',
  input: z.object({}),
  output: z.object({ detached: z.array(z.string()), cost: costSchema }),
  annotations: CONTROLS_IDEMPOTENT,
  tier: 'instant',
  run: async (_args, { app, game }) => {
    const started = performance.now();
    if (!game) throw Errors.invalidArgument('no game named');
    const callers = [...game.callers];
    for (const c of callers) await app.detach(c, game);
    // no connected caller left (or none was): the dashboard's own leave frees it
    if (game.session.status().attached) await app.detach(DASHBOARD_CALLER, game);
    return {
      text: `${game.id} detached${callers.length ? ` (callers left it: ${callers.join(', ')})` : ''}`,
      structured: { detached: callers },
      cost: callCost(started),
    };
  },
});

/** The outcome of one action: ok, or the stable code and message of its refusal. */
export type ActionResult =
  | { ok: true; text: string; result: Record<string, unknown> }
  | { ok: false; code: string; message: string };

export async function runAction(
  app: GameApp,
  tool: Tool,
  args: Record<string, unknown>,
): Promise<ActionResult> {
  const r = await callTool(tool, args, { app, caller: DASHBOARD_CALLER });
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  if (r.isError) {
    const code = (r._meta as { code?: unknown } | undefined)?.code;
    return { ok: false, code: typeof code === 'string' ? code : 'INTERNAL', message: text };
  }
  return { ok: true, text, result: r.structuredContent ?? {} };
}
