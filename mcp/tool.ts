// A tool is data: its name, what it is for, the zod schemas of its input and output, honest
// annotations, and a handler. One file per domain exports its tools; tools/index.ts lists them;
// the server, the CLI and docs/tools.md are all made from that list.

import type { z } from 'zod';

import type { Debugger } from '../unity/debug/debugger.js';
import type { Journal } from '../unity/journal/journal.js';
import type { PlayerLogPaths } from '../unity/player-log.js';
import type { GameSession, OperationCost } from '../unity/session/session.js';
import type { CostFields } from './cost.js';
import type { GameApp } from './app.js';
import type { Game } from './game.js';
import type { CallRequest, JobHooks, ProgressReport } from './jobs.js';

export interface ToolAnnotations {
  /** Changes nothing in the game (it may still take the debugger slot). */
  readOnlyHint: boolean;
  /** May change or remove game state that we cannot restore by ourselves. */
  destructiveHint: boolean;
  /** Calling it twice with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** Reaches outside this machine's game and files (never, for us: false). */
  openWorldHint: boolean;
}

/** Reads the game (or only this server's state), changes nothing. */
export const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Changes the game or the session in a way that can be undone or repeated harmlessly. */
export const CONTROLS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Sets the session or the debugger to a state a repeat leaves as it is (attach, detach, remove). */
export const CONTROLS_IDEMPOTENT: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** May change game state in ways we cannot restore by ourselves (runs game code, writes). */
export const CHANGES_GAME: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** Every tool's annotations are one of these (a test holds them to it). */
export const ANNOTATION_PRESETS: readonly ToolAnnotations[] = [
  READS,
  CONTROLS,
  CONTROLS_IDEMPOTENT,
  CHANGES_GAME,
];

export interface ToolImage {
  /** base64 */
  data: string;
  mimeType: 'image/png';
}

/** The fields a result's `cost` has besides costSchema's (eval's journal_invokes). */
type CostExtras<O> = O extends { cost: infer C } ? Omit<C, keyof CostFields> : never;

/** What a handler returns: text for the reader first, the same facts as structured data. */
export interface ToolOutcome<O> {
  text: string;
  /** The facts; their `cost` is written from `cost` by callTool (and `cost` extras kept). */
  structured: Omit<O, 'cost'> & { cost?: CostExtras<O> };
  /** What the call cost in the game (mcp/cost.ts): shown in the text and in `structured`. */
  cost: OperationCost;
  images?: ToolImage[];
}

/** Who calls a tool, in which app: what the server and the CLI know of a call. */
export interface ToolCall {
  app: GameApp;
  /** Who is calling: holds and pauses belong to this caller. */
  caller: string;
  /** The MCP request the call came in (its abort signal, its progress token), if any. */
  request?: CallRequest;
  /** Set when the call runs as a job (heavy tools: mcp/jobs.ts). */
  job?: JobHooks;
}

/**
 * What a handler is given besides its arguments: the game the call goes to (see
 * Tool.routing) and that game's session and services, built once per game.
 */
export interface ToolContext extends ToolCall {
  /** The game the call goes to (routing `game`); undefined for `none`, maybe for `selected`. */
  game: Game | undefined;
  session: GameSession;
  /** The game's debugger. */
  debug: Debugger;
  /** The game's undo journal: everything a tool writes is recorded here. */
  journal: Journal;
  playerLog: PlayerLogPaths;
  /**
   * A heavy call's job (mcp/jobs.ts): aborted by job_cancel, a cancelled request or its caller
   * going away. The tool stops at its next safe point and returns what it did.
   */
  signal: AbortSignal | undefined;
  /** Reports how far a heavy call has got (its job's progress); a no-op for other calls. */
  progress: (r: ProgressReport) => void;
}

export function toolContext(call: ToolCall, game: Game | undefined): ToolContext {
  const job = call.job;
  if (game) job?.onGame(game.id);
  const need = (): Game => {
    if (!game) throw new Error('a tool that routes no game used its game');
    return game;
  };
  return {
    ...call,
    game,
    signal: job?.signal,
    progress: job?.progress ?? (() => undefined),
    get session() {
      return need().session;
    },
    get debug() {
      return need().debug;
    },
    get journal() {
      return need().journal;
    },
    get playerLog() {
      return need().playerLog;
    },
  };
}

/**
 * Which game a call goes to. `game` (most tools): the one its `player` argument names, else the
 * caller's, else the one visible player (chosen then). `selected`: the named or the caller's
 * game if it has one, never choosing (detach). `none`: no game (status; attach finds its own).
 */
export type Routing = 'game' | 'selected' | 'none';

/**
 * How a call shares its game with other callers' calls. `instant`: no suspend window and no
 * invoke (status, find_types, debug_status): it never waits behind anyone's work. `smooth`: one
 * bounded suspend window (eval, ECS reads and writes, frame reads, screenshot). `heavy`: runs the
 * game or holds it across time (advance, stepping, debug_wait, watch).
 */
export type Tier = 'instant' | 'smooth' | 'heavy';

export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** Default `game`; tools with `game` or `selected` take an optional `player` argument. */
  routing?: Routing;
  tier: Tier;
  /**
   * The tool changes the game and a retry must not apply it twice: the dispatcher takes a
   * `request_id` for it (mcp/ledger), records the outcome and gives it back to a repeat.
   * `checked-first`: every refusal it makes comes before it writes (binding a whole program,
   * the destructive gate, undo's checks), so the codes of NOTHING_APPLIED prove nothing was
   * applied and are not recorded. `in-steps`: it runs several steps (advance: a program,
   * frames, a program), so only a refusal of its arguments proves that. Tools whose effect
   * belongs to the caller and ends with it (holds, breakpoints, pauses) take no request_id.
   */
  writes?: 'checked-first' | 'in-steps';
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutcome<z.input<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: Tool<I, O>,
): Tool<I, O> {
  return tool;
}

/** Cuts text to `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more chars)`;
}
