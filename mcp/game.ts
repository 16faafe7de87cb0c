// One game the app (the broker, or one in-process app) is attached to, or will attach to: its
// debugger session and the services kept per game (the debugger, the undo journal, the
// player-log path memory), and the callers attached to it. A game is reached at one endpoint;
// the app keys its games by that endpoint, so two callers naming one game share this object.

import { Debugger } from '../unity/debug/debugger.js';
import { Journal } from '../unity/journal/journal.js';
import { PlayerLogPaths } from '../unity/player-log.js';
import { GameSession, type SessionOptions, type Target } from '../unity/session/session.js';

export class Game {
  readonly session: GameSession;
  /** Breakpoints, stepping and pauses: registered on the session when the game is built. */
  readonly debug: Debugger;
  /** Every write made through the tools (ECS and eval) on this game, for undo. */
  readonly journal = new Journal();
  /** Where this game's Player.log is. */
  readonly playerLog = new PlayerLogPaths();
  /**
   * The callers attached to this game that have a connection of their own (an MCP front-end, a
   * CLI command): while one is here the game stays attached; when the last one leaves, the slot
   * is freed (at once on `detach`, after the linger period when it just went away).
   */
  readonly callers = new Set<string>();
  /** Set while no caller is attached and the connection waits out the linger period. */
  linger: NodeJS.Timeout | undefined;

  constructor(
    /** `g1`, `g2`, ...: how status names it, and one way to name it in `player`. */
    readonly id: string,
    /** `host:port` of its debugger agent when it was first reached. */
    readonly key: string,
    readonly target: Target,
    options: SessionOptions,
    log: (line: string) => void,
  ) {
    this.session = new GameSession({ ...options, target });
    this.debug = new Debugger(this.session, log);
  }

  /** The endpoint it is attached at now (it may have moved after a restart), else its key. */
  get endpoint(): string {
    return this.session.status().endpoint ?? this.key;
  }
}
