// The evaluator in a stopped frame's scope: its parameters, locals and `this` are names the
// program can read (as builtins), beside everything `eval` offers. `name = expr` on a parameter
// or local writes the frame (STACK_FRAME.SET_VALUES) and reads it back; fields of `this` and
// statics are assigned by the evaluator as in `eval`.

import { csharpName, type EvaluateResult } from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { fromWire, handleOf, toWire } from '../runtime/convert.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { evaluateInGame } from '../runtime/evaluate-in-game.js';
import { metadataFor } from '../runtime/game-metadata.js';
import { unityBuiltins } from '../runtime/builtins.js';
import type { WriteObserver } from '../runtime/write-observer.js';
import { formatValue } from '../../eval/index.js';
import { Errors, UnityError } from '../errors.js';
import { frameBuiltins, frameSlots, readFrames, type FrameSlot } from './frames.js';
import type { LocationCache } from './locations.js';

const ASSIGNMENT = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([\s\S]+?)\s*;?\s*$/;

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
  const frames = await readFrames(ctx.conn, threadId);
  if (frameIndex === undefined)
    frameIndex = Math.max(
      0,
      frames.findIndex((f) => (f.flags & 2) === 0),
    );
  const frame = frames[frameIndex];
  if (!frame)
    throw Errors.invalidArgument(
      `frame ${frameIndex} does not exist (the stack has ${frames.length})`,
    );
  if ((frame.flags & 2) !== 0)
    throw Errors.invalidArgument(`frame ${frameIndex} is native code: it has no variables`);
  const slots = await frameSlots(cache, threadId, frame);
  const metadata = metadataFor(ctx);
  const game = new SessionGameAccess(ctx, metadata);
  const defaults = await unityBuiltins({ metadata, game }, undefined);
  const builtins = new Map([...defaults.builtins, ...frameBuiltins(ctx, slots)]);
  const options = { builtins, functions: defaults.functions };

  const m = ASSIGNMENT.exec(code);
  const target = m ? slots.find((s) => s.name === m[1] && s.kind !== 'this') : undefined;
  if (m && target) return assignSlot(ctx, threadId, frame.frameId, target, m[2]!, options, onWrite);
  return evaluateInGame(ctx, reachThis(code), options, false, onWrite, threadId);
}

async function assignSlot(
  ctx: OperationContext,
  threadId: number,
  frameId: number,
  slot: FrameSlot,
  rhs: string,
  options: Parameters<typeof evaluateInGame>[2],
  onWrite: WriteObserver | undefined,
): Promise<EvaluateResult> {
  const metadata = metadataFor(ctx);
  const game = new SessionGameAccess(ctx, metadata);
  const type = handleOf(slot.typeId);
  const typeName = await csharpName(metadata, type);
  // C#'s implicit conversion to the variable's type, as `T x = expr;` would do it
  const r = await evaluateInGame(
    ctx,
    `${typeName} __assigned = ${reachThis(rhs)}; __assigned`,
    options,
    false,
    onWrite,
    threadId,
  );
  if (r.kind !== 'value') return r;
  const wire = await toWire(r.value, game);
  ctx.markWrite();
  await ctx.conn.send('STACK_FRAME.SET_VALUES', {
    threadId,
    frameId,
    writes: [{ position: slot.position, value: wire }],
  });
  // read back: what the frame holds now, not what we meant to write
  const [back] = await ctx.conn.send('STACK_FRAME.GET_VALUES', {
    threadId,
    frameId,
    positions: [slot.position],
  });
  if (!back) throw new UnityError('PROTOCOL_ERROR', 'the frame returned no value on read-back');
  const value = await fromWire(back, metadata);
  return {
    kind: 'value',
    type: typeName,
    staticType: type,
    value,
    text: await formatValue({ metadata, game }, value),
  };
}

/**
 * Our evaluator has no `this` of its own: the frame's receiver is the builtin named `this`,
 * reached with C#'s verbatim identifier `@this`. Rewrites the keyword outside string and char
 * literals.
 */
export function reachThis(code: string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      const verbatim = code[i - 1] === '@';
      let j = i + 1;
      while (j < code.length && code[j] !== c) {
        if (code[j] === '\\' && !verbatim) j++;
        j++;
      }
      out += code.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (
      code.startsWith('this', i) &&
      !/[A-Za-z0-9_@]/.test(code[i - 1] ?? '') &&
      !/[A-Za-z0-9_]/.test(code[i + 4] ?? '')
    ) {
      out += '@this';
      i += 4;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
