// What one server (or one CLI command) holds, built here once (the composition root): the one
// debugger session, discovery feeding it, and the session-wide services the tools share (the
// undo journal, the debugger, the player-log path memory), handed to tools through their
// context (tool.ts). Closed on every exit path (resume, DISPOSE, sockets closed).

import {
  BeaconListener,
  DEFAULT_BEACON_PORTS,
  playerResolver,
  type ListenerStatus,
  type PlayerRegistry,
} from '../unity/discovery/index.js';
import { GameSession, type Target } from '../unity/session/session.js';
import { Debugger } from '../unity/debug/debugger.js';
import { Journal } from '../unity/journal/journal.js';
import { PlayerLogPaths } from '../unity/player-log.js';

export interface GameAppOptions {
  /** Point at this endpoint instead of discovering players. */
  endpoint?: { host: string; port: number };
  /** Or at the player this selector chooses (key, label or project name). */
  player?: string;
  /** UDP ports the beacon listener binds (default Unity's four). */
  beaconPorts?: readonly number[];
  /** Join Unity's multicast group (default true; tests send unicast to 127.0.0.1 instead). */
  multicast?: boolean;
  /** Listen for beacons at all (default: yes, unless an endpoint is given). */
  discovery?: boolean;
  /** How long after start choosing a player waits for beacons (default 1200 ms: a beacon period). */
  firstBeaconWaitMs?: number;
  /** Invoke bounds passed to the session. */
  parkTimeoutMs?: number;
  invokeTimeoutMs?: number;
  /** Diagnostics: stderr in the server, never stdout. */
  log?: (line: string) => void;
}

export class GameApp {
  readonly session: GameSession;
  readonly listener: BeaconListener | undefined;
  /** Every write made through the tools (ECS and eval), for undo. */
  readonly journal = new Journal();
  /** Breakpoints, stepping and pauses: registered on the session when the app is built. */
  readonly debug: Debugger;
  /** Where the attached game's Player.log is. */
  readonly playerLog = new PlayerLogPaths();
  private readonly startedAt = Date.now();
  private readonly callerIds = new Set<string>();
  private closing: Promise<void> | undefined;

  private constructor(private readonly opts: GameAppOptions) {
    const log = opts.log ?? (() => undefined);
    this.listener =
      (opts.discovery ?? opts.endpoint === undefined) === false
        ? undefined
        : new BeaconListener({
            ports: opts.beaconPorts ?? DEFAULT_BEACON_PORTS,
            multicast: opts.multicast ?? true,
            log,
          });
    const target: Target = opts.endpoint
      ? { kind: 'endpoint', ...opts.endpoint }
      : opts.player !== undefined
        ? { kind: 'player', selector: opts.player }
        : { kind: 'auto' };
    this.session = new GameSession({
      target,
      ...(this.listener ? { players: playerResolver(this.listener.registry) } : {}),
      beforeSelect: () => this.waitForFirstBeacons(),
      log,
      ...(opts.parkTimeoutMs !== undefined ? { parkTimeoutMs: opts.parkTimeoutMs } : {}),
      ...(opts.invokeTimeoutMs !== undefined ? { invokeTimeoutMs: opts.invokeTimeoutMs } : {}),
    });
    this.debug = new Debugger(this.session, log);
  }

  static async start(opts: GameAppOptions = {}): Promise<GameApp> {
    const app = new GameApp(opts);
    await app.listener?.start();
    return app;
  }

  get registry(): PlayerRegistry | undefined {
    return this.listener?.registry;
  }

  discoveryStatus(): ListenerStatus | undefined {
    return this.listener?.status();
  }

  /**
   * Players announce once a second: right after start, "no player" may only mean "not heard
   * yet", and one player heard does not mean it is the only one. Until one beacon period has
   * passed since start, choosing waits for it (a bounded, one-time wait).
   */
  async waitForFirstBeacons(): Promise<void> {
    if (!this.registry) return;
    const left = this.startedAt + (this.opts.firstBeaconWaitMs ?? 1200) - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }

  /**
   * Registers a caller (one MCP connection): returns its id, unique among the callers open now
   * (the label, with `#n` added when another open caller has the same one).
   */
  openCaller(info: { label: string; target?: Target }): string {
    let id = info.label;
    for (let n = 2; this.callerIds.has(id); n++) id = `${info.label}#${n}`;
    this.callerIds.add(id);
    return id;
  }

  /** The caller's connection closed: its holds, pauses and breakpoints go with it. */
  async closeCaller(id: string): Promise<void> {
    if (!this.callerIds.delete(id)) return;
    await this.session.callerGone(id);
  }

  /** Resumes the game, sends DISPOSE, closes the sockets. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.session.shutdown();
      await this.listener?.stop();
    })();
    return this.closing;
  }
}
