// queue_status: who shares the games and what each one waits for, without touching any game:
// the callers connected with what they own (holds, pauses, breakpoints, jobs), and per game
// the window running now, the heavy work running alone (an advance), and what waits, by tier
// and by caller (unity/session/scheduler.ts).

import { z } from 'zod';

import type { QueuedOperation, QueueState } from '../../unity/session/session.js';
import type { CallerJob, Game, GameApp } from '../app.js';
import { callCost } from '../cost.js';
import { costSchema } from '../schemas.js';
import { READS, defineTool } from '../tool.js';

const operationSchema = z.object({
  caller: z.string(),
  label: z.string(),
  tier: z.string().describe('instant, smooth, heavy, or internal (no tool call: a breakpoint hit)'),
  ms: z.number().int().describe('running, or waiting, for this long'),
});

const waitingSchema = z.object({
  tier: z.string(),
  caller: z.string(),
  count: z.number().int(),
  oldest_ms: z.number().int().describe('how long the oldest of them has waited'),
});

const callerSchema = z.object({
  caller: z.string(),
  connected_ms: z.number().int().describe('since the caller connected'),
  game: z.string().optional().describe('the game its calls go to'),
  holds: z.array(z.object({ game: z.string(), count: z.number().int() })),
  pauses: z.array(z.string()).describe('games stopped at an event of this caller'),
  breakpoints: z.array(z.object({ game: z.string(), count: z.number().int() })),
  jobs: z.array(
    z.object({
      job: z.string(),
      tool: z.string(),
      status: z.string(),
      ms: z.number().optional(),
    }),
  ),
});

const gameQueueSchema = z.object({
  game: z.string(),
  endpoint: z.string(),
  running: operationSchema.optional().describe('the suspend window open now (one at a time)'),
  heavy: operationSchema.optional().describe('the heavy work running alone on it (an advance)'),
  waiting: z.array(waitingSchema).describe('operations waiting for a turn, by tier and caller'),
  heavy_waiting: z.array(operationSchema).describe('heavy work waiting for the one running'),
  served: z.number().int().describe('turns given so far'),
});

function waitingOut(ops: readonly QueuedOperation[]): z.input<typeof waitingSchema>[] {
  const groups = new Map<string, z.input<typeof waitingSchema>>();
  for (const o of ops) {
    const key = `${o.tier}\u0000${o.caller}`;
    const g = groups.get(key);
    if (g) {
      g.count++;
      g.oldest_ms = Math.max(g.oldest_ms, o.ms);
    } else groups.set(key, { tier: o.tier, caller: o.caller, count: 1, oldest_ms: o.ms });
  }
  return [...groups.values()];
}

function gameQueueOut(g: Game, q: QueueState): z.input<typeof gameQueueSchema> {
  return {
    game: g.id,
    endpoint: g.endpoint,
    ...(q.running ? { running: q.running } : {}),
    ...(q.heavy ? { heavy: q.heavy } : {}),
    waiting: waitingOut(q.waiting),
    heavy_waiting: q.heavyWaiting,
    served: q.served,
  };
}

function callersOut(app: GameApp, games: readonly Game[]): z.input<typeof callerSchema>[] {
  const now = Date.now();
  return app.openCallers().map((c) => {
    const holds: { game: string; count: number }[] = [];
    const pauses: string[] = [];
    const breakpoints: { game: string; count: number }[] = [];
    for (const g of games) {
      const mine = g.session.holdsOf(c.caller).mine;
      if (mine > 0) holds.push({ game: g.id, count: mine });
      const d = g.debug.status();
      if (d.pause?.owner === c.caller) pauses.push(g.id);
      const n = d.breakpoints.filter((b) => b.owner === c.caller).length;
      if (n > 0) breakpoints.push({ game: g.id, count: n });
    }
    const jobs: CallerJob[] = app.jobs.of(c.caller).map((j) => ({
      job: j.id,
      tool: j.tool,
      status: j.state,
      ms: j.progress.msWaited,
    }));
    return {
      caller: c.caller,
      connected_ms: Math.max(0, now - c.since),
      ...(c.game !== undefined ? { game: c.game } : {}),
      holds,
      pauses,
      breakpoints,
      jobs,
    };
  });
}

const opText = (o: QueuedOperation): string => `${o.label} for ${o.caller} (${o.ms} ms)`;

export const queueStatus = defineTool({
  name: 'queue_status',
  title: 'Who waits for the game',
  description:
    'How the callers (agents) share the games: each connected caller with its holds, pauses, ' +
    'breakpoints and jobs; per game the suspend window running now (whose, for how long; ' +
    'windows run one at a time, callers served in turn), the heavy work running alone (one ' +
    '`advance` per game), and what waits, by tier and caller. Never attaches, never touches ' +
    'the game: use it when a call waited (its cost says `queue_ms`) to see behind whom.',
  input: z.object({}),
  output: z.object({
    caller: z.string().describe('you'),
    callers: z.array(callerSchema).describe('callers connected now'),
    games: z.array(gameQueueSchema),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'instant',
  routing: 'none',
  run: (_args, { app, caller }) => {
    const started = performance.now();
    const games = app.allGames();
    const queues = games.map((g) => gameQueueOut(g, g.session.queue()));
    const callers = callersOut(app, games);
    const lines = [
      ...callers.map(
        (c) =>
          `${c.caller}${c.caller === caller ? ' (you)' : ''}${c.game !== undefined ? ` on ${c.game}` : ''}` +
          (c.holds.length
            ? `; holds ${c.holds.map((h) => `${h.game} x${h.count}`).join(', ')}`
            : '') +
          (c.pauses.length ? `; paused ${c.pauses.join(', ')}` : '') +
          (c.breakpoints.length
            ? `; breakpoints ${c.breakpoints.map((b) => `${b.game} x${b.count}`).join(', ')}`
            : '') +
          (c.jobs.length ? `; jobs ${c.jobs.map((j) => `${j.job} ${j.status}`).join(', ')}` : ''),
      ),
      ...queues.map(
        (q) =>
          `${q.game} ${q.endpoint}: ${q.running ? `running ${opText(q.running as QueuedOperation)}` : 'idle'}` +
          (q.heavy ? `; heavy: ${opText(q.heavy as QueuedOperation)}` : '') +
          (q.waiting.length
            ? `; waiting: ${q.waiting.map((w) => `${w.tier} ${w.caller} x${w.count} (oldest ${w.oldest_ms} ms)`).join(', ')}`
            : '') +
          (q.heavy_waiting.length
            ? `; heavy waiting: ${q.heavy_waiting.map((h) => opText(h as QueuedOperation)).join(', ')}`
            : ''),
      ),
    ];
    if (games.length === 0) lines.push('no game attached or chosen');
    return Promise.resolve({
      text: lines.join('\n'),
      structured: { caller, callers, games: queues },
      cost: callCost(started),
    });
  },
});

export const queueTools = [queueStatus];
