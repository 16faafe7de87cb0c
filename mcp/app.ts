// What one broker (or one in-process app, in tests) holds, built here once (the composition
// root): discovery, one Game per game it reaches (its session, debugger, journal and log paths:
// game.ts), and the callers. A caller is one MCP connection (or an in-process name): its calls
// go to the game it attached to or named, never to a game another caller chose. Closed on every
// exit path (every game resumed and sent DISPOSE, sockets closed).

import {
  BeaconListener,
  DEFAULT_BEACON_PORTS,
  playerResolver,
  type ListenerStatus,
  type PlayerRegistry,
} from '../unity/discovery/index.js';
import { Errors, messageOf } from '../unity/errors.js';
import type { GameSession, SessionOptions, Target } from '../unity/session/session.js';
import type { Debugger } from '../unity/debug/debugger.js';
import type { Journal } from '../unity/journal/journal.js';
import type { PlayerLogPaths } from '../unity/player-log.js';
import { Game } from './game.js';
import { JobTable } from './jobs.js';
import { Ledger } from './ledger/ledger.js';

export { Game } from './game.js';

export interface GameAppOptions {
  /**
   * Where callers' calls go before they attach or name a player: this endpoint. The app then
   * has a default game (`app.session`, ...), built at once.
   */
  endpoint?: { host: string; port: number };
  /** Or the player this selector chooses (key, label or project name). */
  player?: string;
  /** UDP ports the beacon listener binds (default Unity's four). */
  beaconPorts?: readonly number[];
  /** Join Unity's multicast group (default true; tests send unicast to 127.0.0.1 instead). */
  multicast?: boolean;
  /** The address the beacon ports are bound on (default all; tests bind 127.0.0.1). */
  beaconBindAddress?: string;
  /**
   * Listen for beacons: true, false, or 'lazy' (from the first call that needs discovery: a
   * broker started for an endpoint binds no beacon port until a caller looks for players).
   * Default: yes, unless an endpoint is given.
   */
  discovery?: boolean | 'lazy';
  /** How long after discovery starts choosing a player waits for beacons (default 1200 ms). */
  firstBeaconWaitMs?: number;
  /** Invoke bounds passed to every game's session. */
  parkTimeoutMs?: number;
  invokeTimeoutMs?: number;
  /**
   * How long a game stays attached after its last caller went away without detaching (default
   * 60 s): a caller that comes back does not churn attaches (under Wine each one leaks a
   * descriptor in the game's agent). An explicit detach of the last caller frees it at once.
   */
  lingerMs?: number;
  /** The debugger-slot check and pending connections of every game's session. */
  slot?: SessionOptions['slot'];
  /**
   * Where the request store (requests.jsonl) and the audit log (audit.jsonl) live: the broker
   * passes its home. Without one, request_id outcomes are kept in memory only (status says
   * `durable: false`) and no audit log is written.
   */
  stateDir?: string;
  /** The audit log's size before it rotates (default 10 MB). */
  auditMaxBytes?: number;
  /** Diagnostics: stderr in the server, never stdout. */
  log?: (line: string) => void;
}

/** A caller of the app: who it is, where it points, which game it chose. */
interface Caller {
  readonly id: string;
  /** Its own default target (a front-end's --player/--port). */
  readonly target: Target | undefined;
  /** Opened by a connection (openCaller): its leaving frees what it held. */
  readonly connected: boolean;
  readonly since: number;
  /** The game its calls without `player` go to. */
  selected: Game | undefined;
}

/** One game as `status` and `broker --status` list it. */
export interface GameStatus {
  id: string;
  endpoint: string;
  player?: string;
  attached: boolean;
  /** Callers attached to it (connected ones: front-ends, CLI commands). */
  callers: string[];
  holds: { caller: string; count: number }[];
  operations: { caller: string; label: string }[];
  /** Breakpoints set on it, by owner. */
  breakpoints: { owner: string; count: number }[];
  /** Who the game is stopped for at an event, if it is. */
  paused_for?: string;
  /** No caller is attached: the slot is freed when the linger period ends. */
  lingering?: boolean;
  /** Its queue in one line's worth: the window running now and how many wait (queue_status). */
  queue: { running?: { caller: string; label: string; ms: number }; waiting: number };
}

/** One of a caller's jobs (a long call that answered with a job id), as queue_status lists it. */
export interface CallerJob {
  job: string;
  tool: string;
  status: string;
  /** For how long it has run (ms). */
  ms?: number;
}

export class GameApp {
  readonly listener: BeaconListener | undefined;
  private listening: Promise<void> | undefined;
  private discoveryStartedAt = Date.now();
  private readonly games = new Map<string, Game>();
  private readonly callers = new Map<string, Caller>();
  /** Heavy calls run as jobs of their callers (mcp/jobs.ts); ids unique in this app. */
  readonly jobs = new JobTable();
  private nextGame = 1;
  /** The default game (the endpoint option's), if any. */
  private readonly defaultGame: Game | undefined;
  private readonly defaultTarget: Target;
  private readonly log: (line: string) => void;
  private closing: Promise<void> | undefined;
  /** The request store and the audit log (mcp/ledger). */
  readonly ledger: Ledger;

  private constructor(private readonly opts: GameAppOptions) {
    this.log = opts.log ?? (() => undefined);
    this.ledger = new Ledger({
      ...(opts.stateDir !== undefined ? { stateDir: opts.stateDir } : {}),
      ...(opts.auditMaxBytes !== undefined ? { auditMaxBytes: opts.auditMaxBytes } : {}),
      log: this.log,
    });
    const discovery = opts.discovery ?? opts.endpoint === undefined;
    this.listener =
      discovery === false
        ? undefined
        : new BeaconListener({
            ports: opts.beaconPorts ?? DEFAULT_BEACON_PORTS,
            multicast: opts.multicast ?? true,
            ...(opts.beaconBindAddress !== undefined
              ? { bindAddress: opts.beaconBindAddress }
              : {}),
            log: this.log,
          });
    this.defaultTarget = opts.endpoint
      ? { kind: 'endpoint', ...opts.endpoint }
      : opts.player !== undefined
        ? { kind: 'player', selector: opts.player }
        : { kind: 'auto' };
    if (this.defaultTarget.kind === 'endpoint')
      this.defaultGame = this.gameAt(this.defaultTarget, this.defaultTarget);
  }

  static async start(opts: GameAppOptions = {}): Promise<GameApp> {
    const app = new GameApp(opts);
    if (opts.discovery !== 'lazy') await app.startDiscovery();
    return app;
  }

  get registry(): PlayerRegistry | undefined {
    return this.listener?.registry;
  }

  discoveryStatus(): ListenerStatus | undefined {
    return this.listening ? this.listener?.status() : undefined;
  }

  /** Starts the beacon listener if it is not running (a lazy app's first need of it). */
  startDiscovery(): Promise<void> {
    if (!this.listener) return Promise.resolve();
    this.listening ??= (async () => {
      this.discoveryStartedAt = Date.now();
      await this.listener!.start();
    })();
    return this.listening;
  }

  /**
   * Players announce once a second: right after discovery starts, "no player" may only mean
   * "not heard yet", and one player heard does not mean it is the only one. Until one beacon
   * period has passed, choosing waits for it (a bounded, one-time wait).
   */
  async waitForFirstBeacons(): Promise<void> {
    if (!this.listening) return;
    await this.listening;
    const left = this.discoveryStartedAt + (this.opts.firstBeaconWaitMs ?? 1200) - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }

  // ---- the default game (an app built for one endpoint: tests, the bench) -------------------

  private get only(): Game {
    if (!this.defaultGame)
      throw new Error('this app has no default game: it was not started for an endpoint');
    return this.defaultGame;
  }

  /** The default game's session (an app started with `endpoint`). */
  get session(): GameSession {
    return this.only.session;
  }

  get debug(): Debugger {
    return this.only.debug;
  }

  get journal(): Journal {
    return this.only.journal;
  }

  get playerLog(): PlayerLogPaths {
    return this.only.playerLog;
  }

  // ---- callers ----------------------------------------------------------------------------

  /**
   * Registers a caller (one MCP connection): returns its id, unique among the callers open now
   * (the label, with `#n` added when another open caller has the same one). `target` is where
   * its calls go until it attaches or names a player.
   */
  openCaller(info: { label: string; target?: Target }): string {
    let id = info.label;
    for (let n = 2; this.callers.has(id); n++) id = `${info.label}#${n}`;
    this.callers.set(id, {
      id,
      target: info.target,
      connected: true,
      since: Date.now(),
      selected: undefined,
    });
    if (info.target?.kind !== 'endpoint')
      this.startDiscovery().catch((e: unknown) => this.log(`discovery: ${messageOf(e)}`));
    return id;
  }

  /**
   * The caller's connection closed: its running jobs are cancelled (and waited for, bounded)
   * and their results dropped; its holds are released, its pauses resumed and its breakpoints
   * removed on every game it was attached to; a game left with no caller is freed after the
   * linger period.
   */
  async closeCaller(id: string): Promise<void> {
    const c = this.callers.get(id);
    if (!c) return;
    this.callers.delete(id);
    // its jobs first: a cancelled advance retakes its holds before they are released below
    await this.jobs.callerGone(id);
    await Promise.all(
      [...this.games.values()]
        .filter((g) => g.callers.has(id) || g.session.holdsOf(id).mine > 0)
        .map(async (g) => {
          await this.leave(id, g);
          if (g.callers.size === 0) this.lingerThenFree(g);
        }),
    );
  }

  /** Callers open now (connected ones), oldest first. */
  openCallers(): { caller: string; since: number; game?: string }[] {
    return [...this.callers.values()]
      .filter((c) => c.connected)
      .map((c) => ({
        caller: c.id,
        since: c.since,
        ...(c.selected ? { game: c.selected.id } : {}),
      }));
  }

  private callerState(id: string): Caller {
    let c = this.callers.get(id);
    if (!c) {
      // an in-process caller (tests, the bench): named by its calls, never opened or closed
      c = { id, target: undefined, connected: false, since: Date.now(), selected: undefined };
      this.callers.set(id, c);
    }
    return c;
  }

  // ---- games ------------------------------------------------------------------------------

  /** Every game known now: attached, lingering, or chosen and not attached yet. */
  allGames(): Game[] {
    return [...this.games.values()];
  }

  gamesStatus(): GameStatus[] {
    return this.allGames().map((g) => gameStatus(g));
  }

  /**
   * The game `caller`'s calls go to now without naming one, if that is known without choosing:
   * the one it chose, else the app's default game (an app started for an endpoint).
   */
  selectedGame(caller: string): Game | undefined {
    return this.chosen(caller) ?? this.defaultGame;
  }

  /** The game `caller` chose (attached to, or named first), if it is still known. */
  private chosen(caller: string): Game | undefined {
    const g = this.callers.get(caller)?.selected;
    return g && this.games.get(g.key) === g ? g : undefined;
  }

  /**
   * The game a call of `caller` goes to: the one `player` names (a game id from status, or a
   * player selector, or host:port), else the caller's chosen game, else its target's (the one
   * visible player when it has none: AMBIGUOUS_PLAYER with two). The caller is then attached
   * to it; a caller with no game yet has chosen it.
   */
  async gameFor(caller: string, player?: string): Promise<Game> {
    const c = this.callerState(caller);
    const chosen = this.chosen(caller);
    const game =
      player !== undefined
        ? await this.gameNamed(player)
        : (chosen ?? (await this.gameForTarget(c.target ?? this.defaultTarget)));
    this.join(c, game);
    return game;
  }

  /**
   * Points `caller` at the game `target` names (or its default) and attaches now. Leaving
   * another game it had chosen is a detach from that game. A game other callers are attached
   * to is not reconnected: the caller joins the connection they use.
   */
  async attach(caller: string, target: Target | undefined): Promise<Game> {
    const c = this.callerState(caller);
    const wanted = target ?? c.target ?? this.defaultTarget;
    // a selector may name a game id or a known game as well as a player
    const game =
      wanted.kind === 'player'
        ? await this.gameNamed(wanted.selector)
        : await this.gameForTarget(wanted);
    const previous = this.chosen(caller);
    if (previous && previous !== game) await this.detach(caller, previous);
    const shared = [...game.callers].some((id) => id !== caller);
    c.selected = game;
    this.join(c, game);
    if (shared && game.session.status().attached) return game;
    // an endpoint asked for is where the session points from now on (a game found by its
    // beacon first is then reached there, even when its beacon stops)
    await game.session.attach(wanted.kind === 'endpoint' ? wanted : game.target, caller);
    return game;
  }

  /**
   * `caller` leaves `game`: its holds released, pauses resumed, breakpoints removed. When no
   * connected caller is left, the game is resumed, sent DISPOSE and closed (its slot free).
   * Returns the callers still attached (the game stays attached for them).
   */
  async detach(caller: string, game: Game): Promise<string[]> {
    await this.leave(caller, game);
    const others = [...game.callers];
    if (others.length === 0) await this.free(game);
    return others;
  }

  private async leave(caller: string, game: Game): Promise<void> {
    game.callers.delete(caller);
    const c = this.callers.get(caller);
    if (c?.selected === game) c.selected = undefined;
    await game.session
      .callerGone(caller)
      .catch((e: unknown) =>
        this.log(`${game.id}: releasing what ${caller} held: ${messageOf(e)}`),
      );
  }

  private join(c: Caller, game: Game): void {
    c.selected ??= game;
    if (!c.connected) return;
    game.callers.add(c.id);
    if (game.linger) {
      clearTimeout(game.linger);
      game.linger = undefined;
    }
  }

  private lingerThenFree(game: Game): void {
    if (!game.session.status().attached) {
      void this.free(game);
      return;
    }
    if (game.linger) return;
    const ms = this.opts.lingerMs ?? 60_000;
    this.log(`${game.id}: no caller attached; freeing ${game.endpoint} in ${ms} ms`);
    game.linger = setTimeout(() => {
      game.linger = undefined;
      if (game.callers.size === 0) void this.free(game);
    }, ms);
    game.linger.unref();
  }

  /** Resume, DISPOSE, close; the game is forgotten (the default game is kept, detached). */
  private async free(game: Game): Promise<void> {
    if (game.linger) clearTimeout(game.linger);
    game.linger = undefined;
    for (const c of this.callers.values()) if (c.selected === game) c.selected = undefined;
    if (game !== this.defaultGame && this.games.get(game.key) === game) this.games.delete(game.key);
    await game.session.detach();
  }

  /** The game `selector` names: a game id, a known game's endpoint, a player, or host:port. */
  private async gameNamed(selector: string): Promise<Game> {
    for (const g of this.games.values())
      if (g.id === selector || g.key === selector || g.endpoint === selector) return g;
    const literal = /^(.+):(\d{1,5})$/.exec(selector);
    if (this.listener) {
      try {
        return await this.gameForTarget({ kind: 'player', selector });
      } catch (e) {
        if (!literal) throw e;
      }
    }
    if (literal)
      return this.gameForTarget({ kind: 'endpoint', host: literal[1]!, port: Number(literal[2]) });
    throw Errors.noPlayer(
      `no game is named "${selector}" and discovery is off; name a game id from status or host:port`,
    );
  }

  /** The game a target resolves to now (built if new). */
  private async gameForTarget(target: Target): Promise<Game> {
    if (target.kind === 'endpoint') return this.gameAt(target, target);
    if (!this.registry)
      throw Errors.noPlayer(
        'no endpoint was given and discovery is off: attach with host and port',
      );
    await this.startDiscovery();
    await this.waitForFirstBeacons();
    const p = this.registry.select(target.kind === 'player' ? target.selector : undefined);
    return this.gameAt(p.endpoint, { kind: 'player', selector: p.key });
  }

  private gameAt(at: string | { host: string; port: number }, target: Target): Game {
    const key = typeof at === 'string' ? at : `${at.host}:${at.port}`;
    const known = this.games.get(key);
    if (known) return known;
    const options: SessionOptions = {
      ...(this.listener ? { players: playerResolver(this.listener.registry) } : {}),
      beforeSelect: () => this.waitForFirstBeacons(),
      log: this.log,
      ...(this.opts.parkTimeoutMs !== undefined ? { parkTimeoutMs: this.opts.parkTimeoutMs } : {}),
      ...(this.opts.invokeTimeoutMs !== undefined
        ? { invokeTimeoutMs: this.opts.invokeTimeoutMs }
        : {}),
      ...(this.opts.slot ? { slot: this.opts.slot } : {}),
    };
    const game = new Game(`g${this.nextGame++}`, key, target, options, this.log);
    this.games.set(key, game);
    return game;
  }

  /** Resumes every game, sends each DISPOSE, closes the sockets. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const games = [...this.games.values()];
      if (this.defaultGame && !games.includes(this.defaultGame)) games.push(this.defaultGame);
      for (const g of games) if (g.linger) clearTimeout(g.linger);
      this.jobs.close();
      await Promise.all(games.map((g) => g.session.shutdown()));
      if (this.listening) await this.listener?.stop();
      await this.ledger.close();
    })();
    return this.closing;
  }
}

export function gameStatus(g: Game): GameStatus {
  const s = g.session.status();
  const d = g.debug.status();
  const owners = new Map<string, number>();
  for (const b of d.breakpoints) owners.set(b.owner, (owners.get(b.owner) ?? 0) + 1);
  return {
    id: g.id,
    endpoint: g.endpoint,
    ...(s.player ? { player: `${s.player.label} (${s.player.key})` } : {}),
    attached: s.attached,
    callers: [...g.callers],
    holds: s.holds,
    operations: s.operations,
    breakpoints: [...owners].map(([owner, count]) => ({ owner, count })),
    ...(d.pause ? { paused_for: d.pause.owner } : {}),
    ...(g.linger ? { lingering: true } : {}),
    queue: queueSummary(g),
  };
}

function queueSummary(g: Game): GameStatus['queue'] {
  const q = g.session.queue();
  const r = q.running;
  return {
    ...(r ? { running: { caller: r.caller, label: r.label, ms: r.ms } } : {}),
    waiting: q.waiting.length + q.heavyWaiting.length,
  };
}
