// The session tools: where the game is, attaching and detaching, and holds across calls.

import { z } from 'zod';

import { Errors } from '../../unity/errors.js';
import type { SessionStatus, Target } from '../../unity/session/session.js';
import type { DebugStatus } from '../../unity/debug/debugger.js';
import type { GameApp, GameStatus } from '../app.js';
import type { LedgerPlaces } from '../ledger/ledger.js';
import { stopOut, stopSchema, stopText } from './debug-format.js';
import { costSchema, sessionSchema, targetArgs } from '../schemas.js';
import { callCost } from '../cost.js';
import { CONTROLS, CONTROLS_IDEMPOTENT, READS, defineTool } from '../tool.js';

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
    ...(s.pending ? { pending: true } : {}),
    ...(s.replaced ? { replaced: s.replaced } : {}),
    ...(s.lastDrop !== undefined ? { last_drop: s.lastDrop } : {}),
  };
}

function sessionText(s: SessionStatus): string {
  if (!s.attached)
    return s.pending
      ? `not attached: our connection waits behind another debugger (target: ${targetText(s.target)})`
      : `not attached (target: ${targetText(s.target)})`;
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

const gameSchema = z.object({
  id: z.string().describe('name it in `player` to send a call there'),
  endpoint: z.string(),
  player: z.string().optional().describe('the player it was found as, when from discovery'),
  attached: z.boolean(),
  callers: z.array(z.string()).describe('callers attached to it (front-ends, CLI commands)'),
  holds: z.array(z.object({ caller: z.string(), count: z.number().int() })),
  operations: z.array(z.object({ caller: z.string(), label: z.string() })),
  breakpoints: z.array(z.object({ owner: z.string(), count: z.number().int() })),
  paused_for: z.string().optional().describe('the caller whose event stopped the game'),
  lingering: z
    .boolean()
    .optional()
    .describe('no caller is attached: the slot is freed when the linger period ends'),
  queue: z
    .object({
      running: z
        .object({ caller: z.string(), label: z.string(), ms: z.number().int() })
        .optional()
        .describe('the suspend window running now, whose, for how long'),
      waiting: z.number().int().describe('operations waiting for their turn (queue_status)'),
    })
    .describe('who has the game now and how many wait: queue_status says more'),
});

function gameText(g: GameStatus, caller: string): string {
  const who = g.callers.map((c) => (c === caller ? `${c} (you)` : c));
  const holds = g.holds.length
    ? `held by ${g.holds.map((h) => `${h.caller} x${h.count}`).join(', ')}`
    : g.attached
      ? 'running'
      : 'not attached';
  return (
    `${g.id} ${g.endpoint}${g.player ? ` ${g.player}` : ''}: ${holds}` +
    (who.length ? `; attached: ${who.join(', ')}` : '') +
    (g.breakpoints.length
      ? `; breakpoints: ${g.breakpoints.map((b) => `${b.owner} x${b.count}`).join(', ')}`
      : '') +
    (g.paused_for !== undefined ? `; paused for ${g.paused_for}` : '') +
    (g.lingering ? '; no caller attached (slot freed soon)' : '') +
    `; queue: ${queueText(g.queue)}`
  );
}

/** The one-line summary of a game's queue (queue_status has the rest). */
export function queueText(q: GameStatus['queue']): string {
  const r = q.running;
  return (
    (r ? `${r.label} for ${r.caller} (${r.ms} ms)` : 'idle') +
    (q.waiting ? `, ${q.waiting} waiting` : '')
  );
}

export const status = defineTool({
  name: 'status',
  title: 'Players, games and session',
  description:
    'The players heard on the network (with age), every game attached or chosen (who is ' +
    'attached, who holds it, whose breakpoints and pause), your session (the game your calls ' +
    'go to: endpoint, protocol, runtime), and why discovery cannot listen if it cannot. Never ' +
    'attaches and never touches the game.',
  input: z.object({}),
  output: z.object({
    caller: z.string().describe('who you are to the other callers'),
    players: z.array(playerSchema),
    games: z.array(gameSchema).describe('every game attached or chosen, by anyone'),
    session: sessionSchema.describe('the game your calls go to (not attached: none chosen yet)'),
    runtime: z
      .object({
        kind: z.enum(['debian-mono', 'unity-mono', 'il2cpp']),
        label: z.string(),
        cannot: z
          .array(z.object({ feature: z.string(), instead: z.string() }))
          .describe('what this runtime cannot do, and what to do instead'),
      })
      .optional()
      .describe("your game's runtime (Mono or IL2CPP), once attached"),
    game: z.string().optional().describe('its id, once you have one'),
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
      .describe('present once the debugger tools were used on your game'),
    records: z
      .object({
        requests: z
          .string()
          .optional()
          .describe('the file of request_id outcomes (absent: kept in memory only)'),
        durable: z.boolean().describe('a request_id outcome survives a restart of the server'),
        audit: z.string().optional().describe('the audit log, one JSON line per call'),
      })
      .describe('where request_id outcomes and the audit log are kept'),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'instant',
  routing: 'none',
  run: async (_args, { app, caller }) => {
    const started = performance.now();
    await app.waitForFirstBeacons();
    const players = playersOut(app);
    const mine = app.selectedGame(caller);
    const s: SessionStatus = mine?.session.status() ?? {
      target: { kind: 'auto' },
      attached: false,
      connects: 0,
      holds: [],
      operations: [],
    };
    const games = app.gamesStatus();
    const d = app.discoveryStatus();
    const problems = (d?.problems ?? []).map(
      (p) => `${p.port !== undefined ? `port ${p.port}: ` : ''}${p.what}: ${p.error}`,
    );
    const dbg = mine ? debuggerUsed(mine.debug.status()) : undefined;
    const records = app.ledger.places();
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
      `session: ${sessionText(s)}${mine ? ` (${mine.id})` : ''}`,
      ...(s.runtimeProfile ? [runtimeText(s.runtimeProfile)] : []),
      ...(games.length ? [`games: ${games.map((g) => gameText(g, caller)).join(' | ')}`] : []),
      `you: ${caller}`,
      ...(problems.length ? [`discovery problems: ${problems.join('; ')}`] : []),
      ...(dbg?.pause ? [stopText(dbg.pause)] : []),
      ...(dbg && dbg.breakpoints.length
        ? [`breakpoints: ${dbg.breakpoints.length} (debug_status)`]
        : []),
      recordsText(records),
    ];
    const cost = callCost(started);
    return {
      text: lines.join('\n'),
      structured: {
        caller,
        players,
        games,
        session: sessionOut(s),
        ...(s.runtimeProfile ? { runtime: s.runtimeProfile } : {}),
        ...(mine ? { game: mine.id } : {}),
        discovery: { listening: (d?.listening ?? []).map((l) => l.port), problems },
        ...(dbg
          ? {
              debug: {
                breakpoints: dbg.breakpoints.length,
                ...(dbg.pause ? { pause: stopOut(dbg.pause) } : {}),
              },
            }
          : {}),
        records,
      },
      cost,
    };
  },
});

function runtimeText(r: NonNullable<SessionStatus['runtimeProfile']>): string {
  return r.cannot.length
    ? `runtime: ${r.label}; cannot: ${r.cannot.map((c) => `${c.feature} (instead: ${c.instead})`).join('; ')}`
    : `runtime: ${r.label}`;
}

function recordsText(r: LedgerPlaces): string {
  return (
    `records: request_id outcomes ${r.requests !== undefined ? `in ${r.requests}` : 'in memory only (not durable: this server has no state directory)'}; ` +
    `audit log ${r.audit ?? 'off (no state directory)'}`
  );
}

export const attach = defineTool({
  name: 'attach',
  title: 'Attach to a game',
  description:
    'Attach the debugger now: to the one visible player (no arguments), to a player chosen ' +
    'among several (`player`), or to an endpoint no beacon describes (`host`/`port`, any host: ' +
    'a game under Proton may announce the host address). Later calls use this game. A game ' +
    'started waiting for its debugger (Wait For Managed Debugger) stays held, as your hold: ' +
    'set breakpoints in start-up code, then `resume` lets it run. Several callers (agents) ' +
    'attached to one game share its connection; attaching elsewhere detaches you from the ' +
    'game you had.',
  input: z.object(targetArgs),
  output: z.object({
    session: sessionSchema,
    game: z.string().describe('its id (status lists every game; `player` names one)'),
    cost: costSchema,
  }),
  annotations: CONTROLS_IDEMPOTENT,
  tier: 'smooth',
  routing: 'none',
  run: async (args, { app, caller }) => {
    const started = performance.now();
    if (args.player !== undefined && (args.host !== undefined || args.port !== undefined))
      throw Errors.invalidArgument('give either player or host/port, not both');
    if (args.host !== undefined && args.port === undefined)
      throw Errors.invalidArgument('host needs a port (the debugger agent port of the game)');
    const target: Target | undefined =
      args.port !== undefined
        ? { kind: 'endpoint', host: args.host ?? '127.0.0.1', port: args.port }
        : args.player !== undefined
          ? { kind: 'player', selector: args.player }
          : undefined;
    const game = await app.attach(caller, target);
    const s = game.session.status();
    const others = [...game.callers].filter((c) => c !== caller);
    const cost = callCost(started);
    return {
      text: `${sessionText(s)} (${game.id})${others.length ? `; also attached: ${others.join(', ')}` : ''}`,
      structured: { session: sessionOut(s), game: game.id },
      cost,
    };
  },
});

export const detach = defineTool({
  name: 'detach',
  title: 'Detach',
  description:
    'Leave the game: your holds are released, your pauses resumed and your breakpoints ' +
    'removed. When no other caller is attached, the game is resumed and its debugger slot ' +
    'freed (another debugger, an IDE, may attach); otherwise it stays attached for them. The ' +
    'next call that needs a game attaches again.',
  input: z.object({}),
  output: z.object({
    was_attached: z.boolean(),
    freed: z.boolean().describe('the slot is free: no other caller was attached'),
    still_attached: z.array(z.string()).describe('other callers the game stays attached for'),
    cost: costSchema,
  }),
  annotations: CONTROLS_IDEMPOTENT,
  tier: 'instant',
  routing: 'selected',
  run: async (_args, { app, caller, game }) => {
    const started = performance.now();
    if (!game) {
      return {
        text: 'was not attached',
        structured: { was_attached: false, freed: false, still_attached: [] },
        cost: callCost(started),
      };
    }
    const was = game.session.status().attached;
    // RESUME for each level we held, then DISPOSE when we were the last
    const others = await app.detach(caller, game);
    const cost = callCost(started);
    return {
      text: others.length
        ? `left ${game.id}: it stays attached for ${others.join(', ')}`
        : was
          ? 'detached: the game runs and its debugger slot is free'
          : 'was not attached',
      structured: { was_attached: was, freed: others.length === 0, still_attached: others },
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
  tier: 'smooth',
  run: async (_args, { session, caller }) => {
    const r = await session.hold(caller);
    return {
      text: `game held (your holds: ${r.value.holds})`,
      structured: { holds: r.value.holds },
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
  // a RESUME, no window, but a turn (first in line): sent during another operation's invoke it
  // would be lost (unity/session/operation.ts, RunOptions.turn)
  tier: 'smooth',
  run: async (args, { session, caller }) => {
    if (!session.status().attached) throw Errors.notAttached();
    const r = await session.release(caller, args.force === true);
    const running = session.status().holds.length === 0;
    return {
      text: `released (your holds: ${r.value.holds}; game ${running ? 'running' : 'still held'})`,
      structured: { holds: r.value.holds, running },
      cost: r.cost,
    };
  },
});

export const sessionTools = [status, attach, detach, suspend, resume];

/** The debugger's status once it was used (breakpoints set, a stop made), else undefined. */
function debuggerUsed(d: DebugStatus): DebugStatus | undefined {
  return d.breakpoints.length > 0 || d.pause || d.stops > 0 ? d : undefined;
}
