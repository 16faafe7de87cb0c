// The evaluator in a stopped frame's scope, as C# sees the method's body: its parameters and
// locals, `this`, and bare names of the members of its declaring type (its bases', the types
// it is nested in), beside everything `eval` offers. Assigning a parameter or local, or a field
// of a struct method's `this`, writes the frame and reads it back (frame-scope.ts); fields of a
// class's `this` and statics are assigned by the evaluator as in `eval`.
//
// Programs are bound once per game and scope shape (FRAME_PROGRAMS) and then only run; one that
// is a bare variable of the frame is read without an interpreter. At a stop whose place is known
// (a breakpoint's hit), a frame whose variables are fixed by its method alone can be evaluated
// in before it is read: the frame and its values are asked for at once, and a program that
// needs none of them (a static) reads the game beside them (earlyFrameEvaluator).

import { FrameFlags, type Value } from '../../sdb-protocol/index.js';
import {
  prepare,
  run,
  ProgramCache,
  type EvalScope,
  type EvaluateOptions,
  type EvaluateResult,
} from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { connectionPart } from '../session/game-connection.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { constructingTypes, evaluateInGame } from '../runtime/evaluate-in-game.js';
import { metadataFor } from '../runtime/game-metadata.js';
import { unityBuiltins } from '../runtime/builtins.js';
import type { WriteObserver } from '../runtime/write-observer.js';
import { Errors, UnityError } from '../errors.js';
import {
  frameSlots,
  isPlainShape,
  readFrames,
  sameShape,
  slotShape,
  slotValues,
  type FrameSlot,
  type RawFrame,
} from './frames.js';
import { frameScope } from './frame-scope.js';
import type { LocationCache } from './locations.js';

/**
 * Programs bound in frames of this game (a logpoint's holes, conditions, watches: the same text
 * at every hit): bound once per scope shape, then only run.
 */
export const FRAME_PROGRAMS = connectionPart('programs bound in frames', () => new ProgramCache());

/** Evaluates one program in the frame; several may be asked at once (see evaluatorIn). */
export type FrameEvaluator = (code: string) => Promise<EvaluateResult>;

export async function evaluateInFrame(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  /** undefined: the top managed frame (under a hold the top one is often native code). */
  frameIndex: number | undefined,
  code: string,
  /** Told of each field, static, element and property write (for the undo journal). */
  onWrite?: WriteObserver,
): Promise<EvaluateResult> {
  return (await frameEvaluator(ctx, cache, threadId, frameIndex, onWrite))(code);
}

/**
 * An evaluator bound to one frame: the frame's slots and scope are read once, then each program
 * runs in it (a logpoint's holes, a watch's expressions: several programs at one stop).
 */
export async function frameEvaluator(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  frameIndex: number | undefined,
  onWrite?: WriteObserver,
): Promise<FrameEvaluator> {
  const frames = await readFrames(ctx.conn, threadId);
  if (frameIndex === undefined)
    frameIndex = Math.max(
      0,
      frames.findIndex((f) => (f.flags & FrameFlags.NATIVE_TRANSITION) === 0),
    );
  const frame = frames[frameIndex];
  if (!frame)
    throw Errors.invalidArgument(
      `frame ${frameIndex} does not exist (the stack has ${frames.length})`,
    );
  if ((frame.flags & FrameFlags.NATIVE_TRANSITION) !== 0)
    throw Errors.invalidArgument(`frame ${frameIndex} is native code: it has no variables`);
  const [slots, { declaringTypeId }] = await Promise.all([
    frameSlots(cache, threadId, frame),
    cache.methodFacts(frame.methodId),
  ]);
  // in a state machine or closure, the user's `this` is the declaring type (its bare members)
  const user = slots.find((s) => s.kind === 'this' && s.hoisted);
  const scope = await frameScope(
    ctx,
    threadId,
    frameIndex,
    frame.methodId,
    user?.typeId ?? declaringTypeId,
    slots,
  );
  return evaluatorIn(ctx, threadId, scope, onWrite);
}

/** Where a thread stopped, as its event and breakpoint say (before its frames are read). */
export interface StopPlace {
  methodId: number;
  ilOffset: number;
  /**
   * The thread's frames, asked for as the event arrived (the frame keeps its id while the
   * thread stays stopped, even across an invoke: its stack address does not change).
   */
  frames?: Promise<RawFrame[]>;
}

/** An evaluator at a top frame not read yet, and whether that frame was the one expected. */
export interface EarlyFrameEvaluator {
  run: FrameEvaluator;
  /**
   * false when the thread's top frame turned out not to hold the variables expected there (not
   * the method, or other variables live): every result of `run` is then void, to be evaluated
   * again in the frame as it is. Never rejects.
   */
  confirmed: Promise<boolean>;
}

/**
 * An evaluator in the top frame of a thread stopped at `at`, made before the frame is read:
 * its variables (names and types) come from the method's metadata, their values from the frame,
 * asked for now and given to the programs as they arrive. Undefined where the variables depend
 * on values (a state machine's or closure's hoisted locals): evaluate in the frame read first.
 */
export async function earlyFrameEvaluator(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  at: StopPlace,
): Promise<EarlyFrameEvaluator | undefined> {
  const shape = await slotShape(cache, at.methodId, at.ilOffset);
  if (!isPlainShape(shape)) return undefined;
  const top = (at.frames ?? readFrames(ctx.conn, threadId)).then((frames) => frames[0]);
  const confirmed = top.then(
    async (f) =>
      f !== undefined &&
      (f.flags & FrameFlags.NATIVE_TRANSITION) === 0 &&
      f.methodId === at.methodId &&
      (f.ilOffset === at.ilOffset ||
        sameShape(shape, await slotShape(cache, f.methodId, f.ilOffset))),
    () => false,
  );
  // the values, asked for when a program first reads one (one GET_VALUES for all)
  let values: Promise<FrameSlot[]> | undefined;
  const valuesOf = (): Promise<FrameSlot[]> =>
    (values ??= Promise.all([top, confirmed]).then(([f, ok]) => {
      if (!ok || !f)
        throw new UnityError(
          'INVALID_ARGUMENT',
          'the stopped frame is not the one its breakpoint names: evaluated again in it',
        );
      return slotValues(ctx.conn, threadId, f.frameId, shape);
    }));
  const slots = shape.slots.map((s, i) => ({
    ...s,
    raw: async (): Promise<Value> => (await valuesOf())[i]!.raw,
  }));
  // An invoke (a property getter) lets the thread run and makes the agent forget the frame ids
  // it gave: the values are read before the first one, as when the frame is read first.
  const before: OperationContext = {
    ...ctx,
    invoke: async (...call) => {
      if (shape.slots.length > 0) await valuesOf().catch(() => undefined);
      return ctx.invoke(...call);
    },
  };
  const scope = await frameScope(before, threadId, 0, at.methodId, shape.declaringTypeId, slots);
  return { run: await evaluatorIn(before, threadId, scope, undefined), confirmed };
}

/**
 * Runs programs in `scope`. Asked for several at once, it binds and runs them one after the
 * other in the order asked (their effects in C#'s order), except that a program that is a bare
 * variable is read as soon as it is known to be one: its read waits for nobody.
 */
async function evaluatorIn(
  ctx: OperationContext,
  threadId: number,
  scope: EvalScope,
  onWrite: WriteObserver | undefined,
): Promise<FrameEvaluator> {
  const metadata = metadataFor(ctx);
  const game = new SessionGameAccess(ctx, metadata, threadId);
  const runtime = { metadata, game };
  const defaults = await unityBuiltins(runtime, undefined);
  const options: EvaluateOptions = {
    builtins: defaults.builtins,
    functions: defaults.functions,
    scope,
    programs: ctx.connection.part(FRAME_PROGRAMS),
  };
  let turn: Promise<unknown> = Promise.resolve();
  return (code) => {
    // binding may name constructed types, which needs the game (as evaluateInGame's does)
    const bound = turn.then(() =>
      constructingTypes(ctx, game, () => prepare(code, runtime, options)),
    );
    const result = bound.then((p) =>
      p.variable !== undefined
        ? run(p, runtime, options)
        : evaluateInGame(ctx, code, options, false, onWrite, threadId),
    );
    // the next program waits for this one's binding, and for its run unless it only reads a variable
    turn = bound.then(
      (p) => (p.variable !== undefined ? undefined : result.catch(() => undefined)),
      () => undefined,
    );
    return result;
  };
}
