// A tool is data: its name, what it is for, the zod schemas of its input and output, honest
// annotations, and a handler. One file per domain exports its tools; tools/index.ts lists them;
// the server, the CLI and docs/tools.md are all made from that list.

import type { z } from 'zod';

import type { Debugger } from '../unity/debug/debugger.js';
import type { Journal } from '../unity/journal/journal.js';
import type { PlayerLogPaths } from '../unity/player-log.js';
import type { GameSession, OperationCost } from '../unity/session/session.js';
import type { GameApp } from './app.js';

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

/** May change game state in ways we cannot restore by ourselves (runs game code, writes). */
export const CHANGES_GAME: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

export interface ToolImage {
  /** base64 */
  data: string;
  mimeType: 'image/png';
}

/** What a handler returns: text for the reader first, the same facts as structured data. */
export interface ToolOutcome<O> {
  text: string;
  structured: O;
  /** What it cost in the game; every tool that touched it reports this. */
  cost?: OperationCost;
  images?: ToolImage[];
}

/** Who calls a tool, in which app: what the server and the CLI know of a call. */
export interface ToolCall {
  app: GameApp;
  /** Who is calling: holds and pauses belong to this caller. */
  caller: string;
}

/** What a handler is given besides its arguments: the app's session and services, built once. */
export interface ToolContext extends ToolCall {
  session: GameSession;
  /** The session's debugger. */
  debug: Debugger;
  /** The session's undo journal: everything a tool writes is recorded here. */
  journal: Journal;
  playerLog: PlayerLogPaths;
}

export function toolContext({ app, caller }: ToolCall): ToolContext {
  return {
    app,
    caller,
    session: app.session,
    debug: app.debug,
    journal: app.journal,
    playerLog: app.playerLog,
  };
}

export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutcome<z.input<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: Tool<I, O>,
): Tool<I, O> {
  return tool;
}

/** Every output schema carries the cost of the call in the game. */
export function formatCost(c: OperationCost): string {
  return (
    `cost: ${c.wireCommands} wire command${c.wireCommands === 1 ? '' : 's'}, ` +
    `${c.invokes} invoke${c.invokes === 1 ? '' : 's'}, game frozen ${c.freezeMs} ms, ` +
    `${c.wallMs} ms wall`
  );
}

export function costOut(c: OperationCost): {
  wire_commands: number;
  invokes: number;
  freeze_ms: number;
  wall_ms: number;
} {
  return {
    wire_commands: c.wireCommands,
    invokes: c.invokes,
    freeze_ms: c.freezeMs,
    wall_ms: c.wallMs,
  };
}

/** Cuts text to `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more chars)`;
}

/** The cost of a call that ran nothing in the game (no window, no invoke): its wall time. */
export function untouched(started: number): OperationCost {
  return {
    wireCommands: 0,
    invokes: 0,
    freezeMs: 0,
    wallMs: Math.round((performance.now() - started) * 100) / 100,
  };
}
