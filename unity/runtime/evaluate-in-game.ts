// Running a program in one operation of the session: the evaluator over this connection's
// metadata (cached across evaluations) and the operation's reads, writes and main-thread
// invokes. `_` is the last value a remembered program gave on this connection.

import { Values } from '../../sdb-protocol/index.js';
import {
  ProgramCache,
  evaluate,
  type EvaluateOptions,
  type EvaluateResult,
  type TypeHandle,
} from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { connectionPart } from '../session/game-connection.js';
import { SessionGameAccess } from './game-access.js';
import { metadataFor, type GameMetadata } from './game-metadata.js';
import { unityBuiltins, type LastValue } from './builtins.js';
import type { WriteObserver } from './write-observer.js';

/**
 * Programs bound on one attached game, by scope shape (eval/program-cache.ts): an agent's
 * repeated eval, a scene query's filter, a tool's own program are parsed and bound once, not
 * again inside every window. A refusal is never kept.
 */
export const EVAL_PROGRAMS = connectionPart('programs bound for eval', () => new ProgramCache());

/** `_`: the last value a remembered program gave on one attached game. */
const LAST_VALUE = connectionPart('last value (_)', (): { value?: LastValue } => ({}));

/** The value `_` names on this operation's connection, if a program left one. */
export function lastValueOf(ctx: OperationContext): LastValue | undefined {
  return ctx.connection.part(LAST_VALUE).value;
}

export async function evaluateInGame(
  ctx: OperationContext,
  source: string,
  options: EvaluateOptions = {},
  /** false: a program the tools run for themselves leaves the agent's `_` alone. */
  remember = true,
  /** Told of each field, static, array element and property the program assigns (before and after). */
  onWrite?: WriteObserver,
  /** The thread whose thread-static fields the program reads (a frame's); the main thread if absent. */
  thread?: number,
): Promise<EvaluateResult> {
  const metadata = metadataFor(ctx);
  const game = new SessionGameAccess(ctx, metadata, thread);
  game.onWrite = onWrite;
  const runtime = { metadata, game };
  return constructingTypes(ctx, game, async () => {
    // the caller's builtins and functions, when it gives both, are all there is to look up
    const defaults =
      options.builtins && options.functions
        ? { builtins: options.builtins, functions: options.functions }
        : await unityBuiltins(runtime, lastValueOf(ctx));
    const result = await evaluate(source, runtime, {
      programs: ctx.connection.part(EVAL_PROGRAMS),
      ...options,
      builtins: options.builtins ?? defaults.builtins,
      functions: options.functions ?? defaults.functions,
    });
    // `_` is the last value, for the next program on this connection
    if (remember && result.kind === 'value' && result.staticType) {
      ctx.connection.part(LAST_VALUE).value = { type: result.staticType, value: result.value };
    }
    return result;
  });
}

/**
 * Runs `fn` (a program's binding or run) with the connection's metadata able to name closed
 * generic and array types it has not built yet, through invokes of `game`; the route it had
 * before is restored after.
 */
export async function constructingTypes<T>(
  ctx: OperationContext,
  game: SessionGameAccess,
  fn: () => Promise<T>,
): Promise<T> {
  const metadata = metadataFor(ctx);
  const before = metadata.invokeRoute;
  metadata.invokeRoute = (kind, base, args, rank) =>
    constructedTypeId(ctx, game, metadata, kind, base, args, rank);
  try {
    return await fn();
  } finally {
    metadata.invokeRoute = before;
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
  const typeObject = (t: TypeHandle) => metadata.typeObjectId(t);
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
