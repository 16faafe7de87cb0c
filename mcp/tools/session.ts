// The session tools: where the game is, attaching and detaching, and holds across calls.

import { z } from 'zod';

import { Errors } from '../../unity/errors.js';
import type { SessionStatus, Target } from '../../unity/session/session.js';
import type { DebugStatus } from '../../unity/debug/debugger.js';
import type { GameApp } from '../app.js';
import { stopOut, stopSchema, stopText } from './debug.js';
import { costSchema, sessionSchema, targetArgs } from '../schemas.js';
import { CONTROLS, READS, costOut, defineTool, untouched } from '../tool.js';

function targetText(t: Target): string {
  return t.kind === 'auto'
    ? 'auto'
    : t.kind === 'player'
      ? `player ${t.selector}`
      : `endpoint ${t.host}:${t.port}`;
}

export function sessionOut(s: SessionStatus): z.input<typeof sessionSchema> {
  return {
    attached: s.attached,
    target: targetText(s.target),
    ...(s.endpoint !== undefined ? { endpoint: s.endpoint } : {}),
    ...(s.player ? { player: `${s.player.label} (${s.player.key})` } : {}),
    ...(s.protocol !== undefined ? { protocol: s.protocol } : {}),
    ...(s.runtime !== undefined ? { runtime: s.runtime } : {}),
    holds: s.holds,
    operations: s.operations,
    connects: s.connects,
    ...(s.replaced ? { replaced: s.replaced } : {}),
    ...(s.lastDrop !== undefined ? { last_drop: s.lastDrop } : {}),
  };
}

function sessionText(s: SessionStatus): string {
  if (!s.attached) return `not attached (target: ${targetText(s.target)})`;
  const holds = s.holds.length
    ? `held by ${s.holds.map((h) => `${h.caller} x${h.count}`).join(', ')}`
    : 'running (no holds)';
  return `attached to ${s.endpoint}${s.player ? ` (${s.player.label})` : ''}, protocol ${s.protocol}, ${holds}`;
}

const playerSchema = z.object({
  key: z.string(),
  label: z.string(),
  project: z.string().optional(),
  endpoint: z.string().describe('debugger host:port'),
  debuggable: z.boolean().describe('the player announces script debugging'),
  age_ms: z.number().int().describe('since its last beacon'),
  stale: z.boolean().describe('not heard recently: paused in a debugger, or gone'),
});

function playersOut(app: GameApp): z.input<typeof playerSchema>[] {
  return (app.registry?.list({ includeStale: true }) ?? []).map((p) => ({
    key: p.key,
    label: p.label,
    ...(p.projectName !== undefined ? { project: p.projectName } : {}),
    endpoint: p.endpoint,
    debuggable: p.debugEnabled,
    age_ms: Math.round(p.ageMs),
    stale: p.stale,
  }));
}

export const status = defineTool({
  name: 'status',
  title: 'Players and session',
  description:
    'The players heard on the network (with age), which one is chosen, the debugger session ' +
    '(endpoint, protocol, runtime, who holds the game suspended), and why discovery cannot ' +
    'listen if it cannot. Never attaches and never touches the game.',
  input: z.object({}),
  output: z.object({
    players: z.array(playerSchema),
    session: sessionSchema,
    discovery: z.object({
      listening: z.array(z.number().int()).describe('UDP ports bound'),
      problems: z.array(z.string()).describe('why a port or the multicast group failed'),
    }),
    debug: z
      .object({
        breakpoints: z.number().int().describe('set by anyone (debug_status lists them)'),
        pause: stopSchema.optional().describe('where the game is stopped at an event, and whose'),
      })
      .optional()
      .describe('present once the debugger tools were used'),
    cost: costSchema,
  }),
  annotations: READS,
  run: async (_args, { app, debug }) => {
    const started = performance.now();
    await app.waitForFirstBeacons();
    const players = playersOut(app);
    const s = app.session.status();
    const d = app.discoveryStatus();
    const problems = (d?.problems ?? []).map(
      (p) => `${p.port !== undefined ? `port ${p.port}: ` : ''}${p.what}: ${p.error}`,
    );
    const dbg = debuggerUsed(debug.status());
    const lines = [
      players.length
        ? `players: ${players
            .map(
              (p) =>
                `${p.label}${p.project ? ` "${p.project}"` : ''} at ${p.endpoint}, heard ${(p.age_ms / 1000).toFixed(1)} s ago${p.stale ? ' (stale)' : ''}${p.debuggable ? '' : ' (no script debugging)'}`,
            )
            .join('; ')}`
        : d
          ? 'players: none heard'
          : 'players: discovery is off',
      `session: ${sessionText(s)}`,
      ...(problems.length ? [`discovery problems: ${problems.join('; ')}`] : []),
      ...(dbg?.pause ? [stopText(dbg.pause)] : []),
      ...(dbg && dbg.breakpoints.length
        ? [`breakpoints: ${dbg.breakpoints.length} (debug_status)`]
        : []),
    ];
    const cost = untouched(started);
    return {
      text: lines.join('\n'),
      structured: {
        players,
        session: sessionOut(s),
        discovery: { listening: (d?.listening ?? []).map((l) => l.port), problems },
        ...(dbg
          ? {
              debug: {
                breakpoints: dbg.breakpoints.length,
                ...(dbg.pause ? { pause: stopOut(dbg.pause) } : {}),
              },
            }
          : {}),
        cost: costOut(cost),
      },
      cost,
    };
  },
});

export const attach = defineTool({
  name: 'attach',
  title: 'Attach to a game',
  description:
    'Attach the debugger now: to the one visible player (no arguments), to a player chosen ' +
    'among several (`player`), or to an endpoint no beacon describes (`host`/`port`, any host: ' +
    'a game under Proton may announce the host address). Later calls use this game. A game ' +
    'started waiting for its debugger (Wait For Managed Debugger) stays held, as your hold: ' +
    'set breakpoints in start-up code, then `resume` lets it run.',
  input: z.object(targetArgs),
  output: z.object({ session: sessionSchema, cost: costSchema }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (args, { app, caller }) => {
    const started = performance.now();
    if (args.player !== undefined && (args.host !== undefined || args.port !== undefined))
      throw Errors.invalidArgument('give either player or host/port, not both');
    if (args.host !== undefined && args.port === undefined)
      throw Errors.invalidArgument('host needs a port (the debugger agent port of the game)');
    const target: Target =
      args.port !== undefined
        ? { kind: 'endpoint', host: args.host ?? '127.0.0.1', port: args.port }
        : args.player !== undefined
          ? { kind: 'player', selector: args.player }
          : { kind: 'auto' };
    const s = await app.session.attach(target, caller);
    const cost = untouched(started);
    return {
      text: sessionText(s),
      structured: { session: sessionOut(s), cost: costOut(cost) },
      cost,
    };
  },
});

export const detach = defineTool({
  name: 'detach',
  title: 'Detach',
  description:
    'Resume the game and free its debugger slot (another debugger may attach). Holds are ' +
    'released. The next call that needs the game attaches again.',
  input: z.object({}),
  output: z.object({ was_attached: z.boolean(), cost: costSchema }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (_args, { app }) => {
    const started = performance.now();
    const was = app.session.status().attached;
    await app.session.detach(); // RESUME for each level we held, then DISPOSE
    const cost = untouched(started);
    return {
      text: was ? 'detached: the game runs and its debugger slot is free' : 'was not attached',
      structured: { was_attached: was, cost: costOut(cost) },
      cost,
    };
  },
});

export const suspend = defineTool({
  name: 'suspend',
  title: 'Hold the game',
  description:
    'Suspend the game and keep it suspended across calls (a counted hold owned by you) until ' +
    '`resume`. Other tools still work while it is held.',
  input: z.object({}),
  output: z.object({ holds: z.number().int().describe('your holds now'), cost: costSchema }),
  annotations: CONTROLS,
  run: async (_args, { app, caller }) => {
    const r = await app.session.hold(caller);
    return {
      text: `game held (your holds: ${r.value.holds})`,
      structured: { holds: r.value.holds, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const resume = defineTool({
  name: 'resume',
  title: 'Release a hold',
  description:
    'Release one of your holds; the game runs again when no hold is left. `force` releases ' +
    "someone else's hold (the oldest) when you hold none.",
  input: z.object({
    force: z.boolean().optional().describe("release another caller's hold if you hold none"),
  }),
  output: z.object({
    holds: z.number().int().describe('your holds now'),
    running: z.boolean().describe('no hold is left: the game runs'),
    cost: costSchema,
  }),
  annotations: CONTROLS,
  run: async (args, { app, caller }) => {
    if (!app.session.status().attached) throw Errors.notAttached();
    const r = await app.session.release(caller, args.force === true);
    const running = app.session.status().holds.length === 0;
    return {
      text: `released (your holds: ${r.value.holds}; game ${running ? 'running' : 'still held'})`,
      structured: { holds: r.value.holds, running, cost: costOut(r.cost) },
      cost: r.cost,
    };
  },
});

export const sessionTools = [status, attach, detach, suspend, resume];

/** The debugger's status once it was used (breakpoints set, a stop made), else undefined. */
function debuggerUsed(d: DebugStatus): DebugStatus | undefined {
  return d.breakpoints.length > 0 || d.pause || d.stops > 0 ? d : undefined;
}
