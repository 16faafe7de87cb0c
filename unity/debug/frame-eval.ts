// The evaluator in a stopped frame's scope, as C# sees the method's body: its parameters and
// locals, `this`, and bare names of the members of its declaring type (its bases', the types
// it is nested in), beside everything `eval` offers. Assigning a parameter or local, or a field
// of a struct method's `this`, writes the frame and reads it back (frame-scope.ts); fields of a
// class's `this` and statics are assigned by the evaluator as in `eval`.

import { FrameFlags } from '../../sdb-protocol/index.js';
import type { EvaluateResult } from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { evaluateInGame } from '../runtime/evaluate-in-game.js';
import { metadataFor } from '../runtime/game-metadata.js';
import { unityBuiltins } from '../runtime/builtins.js';
import type { WriteObserver } from '../runtime/write-observer.js';
import { Errors } from '../errors.js';
import { frameSlots, readFrames } from './frames.js';
import { frameScope } from './frame-scope.js';
import type { LocationCache } from './locations.js';

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
): Promise<(code: string) => Promise<EvaluateResult>> {
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
    frame,
    user?.typeId ?? declaringTypeId,
    slots,
  );
  const metadata = metadataFor(ctx);
  const defaults = await unityBuiltins(
    { metadata, game: new SessionGameAccess(ctx, metadata) },
    undefined,
  );
  return (code) =>
    evaluateInGame(
      ctx,
      code,
      { builtins: defaults.builtins, functions: defaults.functions, scope },
      false,
      onWrite,
      threadId,
    );
}
