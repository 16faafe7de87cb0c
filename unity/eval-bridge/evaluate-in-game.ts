// Evaluating C# in the game, inside one operation of the session: the evaluator over this
// connection's metadata (cached across evaluations) and the operation's reads, writes and
// main-thread invokes.

import { Values, type SdbConnection } from '../../sdb-protocol/index.js';
import {
  bind,
  EvalError,
  evaluate,
  type EvaluateOptions,
  type EvaluateResult,
  type GameAccess,
  type TypeHandle,
} from '../../eval/index.js';
import type { GameSession, OperationContext, OperationResult } from '../session/session.js';
import { typeIdOf } from '../runtime/convert.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { metadataFor, type GameMetadata } from '../runtime/game-metadata.js';
import { unityBuiltins, type LastValue } from './builtins.js';
import { UnityError } from '../errors.js';
import { journalFor } from '../journal/journal.js';
import {
  locationText,
  wireText,
  type GameWrite,
  type WriteObserver,
} from '../runtime/write-observer.js';

const lastValues = new WeakMap<SdbConnection, LastValue>();
/** Programs that bound on a connection (their lookups are memoized there), and each session's connection. */
const boundPrograms = new WeakMap<SdbConnection, Set<string>>();
const connectionOf = new WeakMap<GameSession, SdbConnection>();
const MAX_REMEMBERED_PROGRAMS = 512;

function programKey(source: string, options: EvaluateOptions): string {
  return JSON.stringify([source, options.usings ?? null, options.anyNamespace ?? null]);
}

/**
 * Evaluates a program for a caller of the session, holding the game as briefly as possible:
 * the program is bound first in an operation that does not suspend the game (type and member
 * lookups, the slow part of a first evaluation, are metadata reads), so that a program C#
 * would refuse never holds the game at all; then it runs in a suspend window with every lookup
 * memoized. A program whose binding needs the game itself (naming a closed generic type is an
 * invoke) is bound inside the window instead. The cost reported adds both operations.
 */
export async function evaluateInSession(
  session: GameSession,
  caller: string,
  source: string,
  options: EvaluateOptions = {},
): Promise<OperationResult<EvaluateResult> & { writes: EvalWrite[] }> {
  const { observer, writes } = journaledWrites(session, caller, source);
  const r = await runBound(session, caller, source, options, 'eval', (ctx) =>
    evaluateInGame(ctx, source, options, true, observer),
  );
  return { ...r, writes };
}

/**
 * An observer that records a program's writes in the session's undo journal, and the list it
 * fills (each write, journaled or not): for `eval`, and for `debug_evaluate` in a frame.
 */
export function journaledWrites(
  session: GameSession,
  caller: string,
  source: string,
): { observer: WriteObserver; writes: EvalWrite[] } {
  const writes: EvalWrite[] = [];
  return { observer: journalWrites(session, caller, source, writes), writes };
}

/** A write an agent's program made to the game, and whether (and as what) it was journaled. */
export interface EvalWrite {
  /** What was assigned: `SInt`, `Game.Item.Price`, `element 2 of array 123`. */
  where: string;
  /** The journal entry, for `undo {id}`; absent when the write cannot be undone. */
  journalId?: number;
  /** Why the write cannot be undone (it is then not journaled). */
  notUndoable?: string;
  /** Invokes spent reading the value before and after (a property's getter: 2). */
  invokes: number;
}

/**
 * The binding discipline of `evaluateInSession` for a caller that runs the program itself inside
 * the window (to read what it returned before the game runs again): `source` is bound outside
 * any window unless bound before on this connection, then `inWindow` runs in one window.
 */
export async function runBound<R>(
  session: GameSession,
  caller: string,
  source: string,
  options: EvaluateOptions,
  label: string,
  inWindow: (ctx: OperationContext) => Promise<R>,
): Promise<OperationResult<R>> {
  const key = programKey(source, options);
  const conn = connectionOf.get(session);
  // bound before on this connection: its lookups are memoized, binding in the window is cheap
  if (conn && boundPrograms.get(conn)?.has(key)) return session.run(label, caller, inWindow);
  let bound: OperationResult<boolean> | undefined;
  try {
    bound = await session.run(
      `${label} (bind)`,
      caller,
      (ctx) => bindInGame(session, ctx, source, options),
      { window: false },
    );
  } catch (e) {
    if (e instanceof UnityError && e.cause instanceof EvalError) throw e; // the program is refused
    bound = undefined; // bound again, in the window, where invokes are allowed
  }
  const r = await session.run(label, caller, inWindow);
  if (!bound) return r;
  return {
    value: r.value,
    cost: {
      ...r.cost,
      wireCommands: r.cost.wireCommands + bound.cost.wireCommands,
      wallMs: Math.round((r.cost.wallMs + bound.cost.wallMs) * 100) / 100,
    },
  };
}

/** Binds without a window: metadata only; game access is refused if anything asks for it. */
async function bindInGame(
  session: GameSession,
  ctx: OperationContext,
  source: string,
  options: EvaluateOptions,
): Promise<boolean> {
  const metadata = metadataFor(ctx);
  connectionOf.set(session, ctx.conn);
  const refuse = (): never => {
    throw new Error('binding touched the game');
  };
  const game = new Proxy({} as GameAccess, { get: () => refuse });
  const runtime = { metadata, game };
  const defaults = await unityBuiltins(runtime, lastValues.get(ctx.conn));
  await bind(source, runtime, {
    ...options,
    builtins: options.builtins ?? defaults.builtins,
    functions: options.functions ?? defaults.functions,
  });
  let programs = boundPrograms.get(ctx.conn);
  if (!programs || programs.size >= MAX_REMEMBERED_PROGRAMS) {
    programs = new Set();
    boundPrograms.set(ctx.conn, programs);
  }
  programs.add(programKey(source, options));
  return true;
}

export async function evaluateInGame(
  ctx: OperationContext,
  source: string,
  options: EvaluateOptions = {},
  /** false: a program the tools run for themselves leaves the agent's `_` alone. */
  remember = true,
  /** Told of each field, static, array element and property the program assigns (before and after). */
  onWrite?: WriteObserver,
): Promise<EvaluateResult> {
  const metadata = metadataFor(ctx);
  const game = new SessionGameAccess(ctx, metadata);
  game.onWrite = onWrite;
  metadata.invokeRoute = (kind, base, args, rank) =>
    constructedTypeId(ctx, game, metadata, kind, base, args, rank);
  const runtime = { metadata, game };
  const defaults = await unityBuiltins(runtime, lastValues.get(ctx.conn));
  try {
    const result = await evaluate(source, runtime, {
      ...options,
      builtins: options.builtins ?? defaults.builtins,
      functions: options.functions ?? defaults.functions,
    });
    // `_` is the last value, for the next program on this connection
    if (remember && result.kind === 'value' && result.staticType) {
      lastValues.set(ctx.conn, { type: result.staticType, value: result.value });
    }
    return result;
  } finally {
    metadata.invokeRoute = undefined;
  }
}

/**
 * The type id of a closed generic or array type the agent cannot look up by name (VM.GET_TYPES
 * refuses constructed names): built with Type.MakeGenericType in the game, then named by the
 * element type of an empty array of it (works for interfaces and abstract types too).
 */
async function constructedTypeId(
  ctx: OperationContext,
  game: SessionGameAccess,
  metadata: GameMetadata,
  kind: 'generic' | 'array',
  base: TypeHandle,
  args: readonly TypeHandle[],
  rank: number,
): Promise<number> {
  const conn = ctx.conn;
  const typeObject = (t: TypeHandle) => conn.send('TYPE.GET_OBJECT', { typeId: typeIdOf(t) });
  const typeOfObject = async (v: { kind: string; ref?: { id: number } }) =>
    conn.send('OBJECT_REF.GET_TYPE', { objectId: v.ref!.id });
  if (kind === 'array') {
    const array = await game.createArray(await typeObject(base), new Array<number>(rank).fill(0));
    return typeOfObject(array);
  }
  const systemType = await metadata.findType('System.Type');
  if (!systemType) throw new Error('System.Type is not loaded');
  const argArray = (await game.createArray(await typeObject(systemType), [args.length])) as {
    ref: { id: number };
  };
  const argObjects = await Promise.all(args.map(typeObject));
  await conn.send('ARRAY_REF.SET_VALUES', {
    arrayId: argArray.ref.id,
    index: 0,
    values: argObjects.map((id) => Values.object(id)),
  });
  const make = (await metadata.members(systemType, 'MakeGenericType')).methods[0];
  if (!make) throw new Error('System.Type.MakeGenericType not found');
  const r = await ctx.invoke(
    make.handle as number,
    Values.object(await typeObject(base)),
    [Values.object(argArray.ref.id)],
    { virtual: true },
  );
  if (r.result.kind !== 'object') throw new Error('MakeGenericType returned no type');
  const holder = await game.createArray(r.result.objectId, [0]);
  const arrayTypeId = await typeOfObject(holder);
  const info = await conn.send('TYPE.GET_INFO', { typeId: arrayTypeId });
  if (!info.elementTypeId) throw new Error('an array of the constructed type has no element type');
  return info.elementTypeId;
}

/**
 * Records an agent's eval assignments in the session's undo journal (see unity/ecs/journal.ts),
 * and each write, journaled or not, in `writes`.
 */
function journalWrites(
  session: GameSession,
  caller: string,
  source: string,
  writes: EvalWrite[],
): WriteObserver {
  const program = source.length > 80 ? `${source.slice(0, 80)}…` : source;
  return (w: GameWrite) => {
    const where = locationText(w.where);
    if ('notUndoable' in w) {
      writes.push({ where, notUndoable: w.notUndoable, invokes: w.invokes });
      return;
    }
    const entry = journalFor(session).record({
      label: `eval assigned ${where}: ${program}`,
      target: { kind: 'eval', where: w.where, before: w.before, after: w.after },
      before: wireText(w.before),
      after: wireText(w.after),
      caller,
    });
    writes.push({ where, journalId: entry.id, invokes: w.invokes });
  };
}
