// A stopped frame as the evaluator's scope (eval's EvalScope): its parameters and locals, its
// `this` and the method's declaring type. Reads come from the values read when the evaluation
// began, then from what each write read back. Writes go to the frame: STACK_FRAME.SET_VALUES for
// a parameter or local (for a by-ref parameter the agent writes through the reference, so the
// caller's variable changes), SET_THIS for the `this` of a struct method (a reference to the
// caller's struct). Each is read back before it counts as done.

import type { Value } from '../../sdb-protocol/index.js';
import type { EvalScope, EvalValue, ScopeVariable } from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { fromWire, handleOf, toWire } from '../runtime/convert.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { metadataFor } from '../runtime/game-metadata.js';
import { UnityError } from '../errors.js';
import { readFrames, type FrameSlot } from './frames.js';

/** A slot whose value may still be on its way (read when the program first uses it). */
export type ScopeSlot = Omit<FrameSlot, 'raw'> & { raw: Value | (() => Promise<Value>) };

export async function frameScope(
  ctx: OperationContext,
  threadId: number,
  frameIndex: number,
  /** The method of the frame evaluated in. */
  methodId: number,
  declaringTypeId: number,
  slots: readonly ScopeSlot[],
): Promise<EvalScope> {
  const metadata = metadataFor(ctx);
  const game = new SessionGameAccess(ctx, metadata);
  const enclosingType = handleOf(declaringTypeId);
  /**
   * The frame's id now: an invoke (on this thread) makes the agent forget the frames it had
   * computed, so a write after one finds the frame again (the same one: same method, same
   * depth; its id is kept when it survived).
   */
  const frameIdNow = async (): Promise<number> => {
    const now = (await readFrames(ctx.conn, threadId))[frameIndex];
    if (!now || now.methodId !== methodId)
      throw new UnityError(
        'INVALID_ARGUMENT',
        `frame ${frameIndex} is no longer the frame evaluated in: the thread's stack changed`,
      );
    return now.frameId;
  };
  const rawOf = (slot: ScopeSlot): Promise<Value> =>
    typeof slot.raw === 'function' ? slot.raw() : Promise.resolve(slot.raw);
  const variable = (
    slot: ScopeSlot,
    store: ((frameId: number, value: Value) => Promise<Value>) | undefined,
  ): ScopeVariable => {
    let current: Promise<EvalValue> | undefined;
    const v: ScopeVariable = {
      type: handleOf(slot.typeId),
      read: () => (current ??= rawOf(slot).then((raw) => fromWire(raw, metadata))),
    };
    if (!store) return v;
    return {
      ...v,
      write: async (value) => {
        const wire = await toWire(value, game);
        ctx.markWrite();
        const back = await store(await frameIdNow(), wire);
        if (!sameWire(wire, back))
          throw new UnityError(
            'PROTOCOL_ERROR',
            `the frame did not take the write to '${slot.name}': it reads back ${JSON.stringify(back, big)} after ${JSON.stringify(wire, big)} was written`,
          );
        current = fromWire(back, metadata);
        await current;
      },
    };
  };

  const variables = new Map<string, ScopeVariable>();
  let self: ScopeVariable | undefined;
  for (const slot of slots) {
    // a state machine's or closure's field (generated-code.ts): read-only, it has no stack slot
    if (slot.hoisted) {
      if (slot.kind === 'this') self = variable(slot, undefined);
      else variables.set(slot.name, variable(slot, undefined));
      continue;
    }
    if (slot.kind !== 'this') {
      variables.set(
        slot.name,
        variable(slot, async (frameId, value) => {
          await ctx.conn.send('STACK_FRAME.SET_VALUES', {
            threadId,
            frameId,
            writes: [{ position: slot.position, value }],
          });
          const [back] = await ctx.conn.send('STACK_FRAME.GET_VALUES', {
            threadId,
            frameId,
            positions: [slot.position],
          });
          if (!back)
            throw new UnityError('PROTOCOL_ERROR', 'the frame returned no value on read-back');
          return back;
        }),
      );
      continue;
    }
    // SET_THIS is for struct methods only: the agent asserts (and the game dies) otherwise.
    // A class's `this` is read-only, as in C#; its fields are written through the object.
    const struct =
      (typeof slot.raw === 'function' || slot.raw.kind === 'valuetype') &&
      (await metadata.describe(enclosingType)).kind === 'struct';
    self = variable(
      slot,
      struct
        ? async (frameId, value) => {
            // a value read late is checked before the write it decides
            if ((await rawOf(slot)).kind !== 'valuetype')
              throw new UnityError('INVALID_ARGUMENT', "this frame's `this` is not a struct");
            await ctx.conn.send('STACK_FRAME.SET_THIS', { threadId, frameId, value });
            return ctx.conn.send('STACK_FRAME.GET_THIS', { threadId, frameId });
          }
        : undefined,
    );
  }
  return { variables, enclosingType, ...(self ? { self } : {}) };
}

const big = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? `${v}n` : v);

/**
 * What was written is what reads back: objects by id (the tag we send is OBJECT, the agent's
 * is the runtime one), structs field by field (an enum's isEnum flag is ours to send as 0).
 */
export function sameWire(a: Value, b: Value): boolean {
  if (a.kind === 'valuetype')
    return (
      b.kind === 'valuetype' &&
      a.typeId === b.typeId &&
      a.fields.length === b.fields.length &&
      a.fields.every((f, i) => sameWire(f, b.fields[i]!))
    );
  if (a.kind === 'object' || a.kind === 'string')
    return b.kind === a.kind && a.objectId === b.objectId;
  if (a.kind === 'r4')
    return b.kind === 'r4' && Object.is(Math.fround(a.value), Math.fround(b.value));
  if (a.kind === 'ptr') return b.kind === 'ptr' && a.address === b.address;
  return JSON.stringify(a, big) === JSON.stringify(b, big);
}
