// The write observation of SessionGameAccess: with an observer, every write to the game is told
// with the value before and after: fields, statics and elements read on the wire; a property set
// through its getter (two more invokes). Objects the evaluation made are not observed.

import type { Value } from '../../sdb-protocol/index.js';
import type { PropertyDescriptor } from '../../eval/runtime.js';
import type { EvalValue } from '../../eval/values.js';
import { csharpName } from '../../eval/index.js';
import type { InvokeOutcome } from '../invoker.js';
import { UnityError } from '../errors.js';
import { typeIdOf } from './convert.js';
import { GameValues } from './game-values.js';
import {
  readAt,
  readProperty,
  type IndexArg,
  type WriteLocation,
  type WriteObserver,
} from './write-observer.js';

/** A string index argument longer than this keeps only its object (see IndexArg). */
const MAX_INDEX_TEXT = 4096;

export abstract class ObservedWrites extends GameValues {
  /** Told of every field, static, element and property write, with the value before and after. */
  onWrite: WriteObserver | undefined;

  /** Runs a write, telling the observer (when there is one) the value before and after. */
  protected async observed(where: WriteLocation, write: () => Promise<void>): Promise<void> {
    const observer = this.onWrite;
    const target =
      where.kind === 'field' ? where.objectId : where.kind === 'element' ? where.arrayId : 0;
    if (!observer || this.made.has(target)) return write();
    const before = await readAt(this.ctx, where);
    await write();
    observer({ where, before, after: await readAt(this.ctx, where), invokes: 0 });
  }

  /**
   * A property set, told to the observer with the value before and after read through the
   * getter (an invoke each, in this window). A property without a getter, or whose getter
   * throws, is set all the same and told as a write that cannot be undone.
   */
  protected async observedSet(
    property: PropertyDescriptor,
    thisArg: Value,
    args: readonly Value[],
    evalArgs: readonly EvalValue[],
    set: () => Promise<InvokeOutcome>,
  ): Promise<InvokeOutcome> {
    const observer = this.onWrite;
    const objectId = thisArg.kind === 'object' ? thisArg.objectId : undefined;
    if (!observer || (objectId !== undefined && this.made.has(objectId))) return set();
    const indexArgs = args.slice(0, -1);
    const where = await this.propertyLocation(property, objectId, indexArgs, evalArgs);
    if (!where.getter) {
      const r = await set();
      observer({
        where,
        notUndoable: 'it has no getter: its value before cannot be read',
        invokes: 0,
      });
      return r;
    }
    let before: Value;
    try {
      before = await readProperty(this.ctx, where, indexArgs);
    } catch (e) {
      // the getter threw (a dictionary's missing key): set all the same, as C# would
      const thrown = gameException(e);
      const r = await set();
      observer({ where, notUndoable: `reading it before threw ${thrown}`, invokes: 1 });
      return r;
    }
    const r = await set();
    try {
      const after = await readProperty(this.ctx, where, indexArgs);
      observer({ where, before, after, invokes: 2 });
    } catch (e) {
      observer({ where, notUndoable: `reading it after threw ${gameException(e)}`, invokes: 2 });
    }
    return r;
  }

  private async propertyLocation(
    p: PropertyDescriptor,
    objectId: number | undefined,
    indexArgs: readonly Value[],
    evalArgs: readonly EvalValue[],
  ): Promise<Extract<WriteLocation, { kind: 'property' }>> {
    const args: IndexArg[] = [];
    const shown: string[] = [];
    for (let i = 0; i < indexArgs.length; i++) {
      const value = indexArgs[i]!;
      const ev = evalArgs[i];
      if (value.kind === 'string' && ev?.kind === 'string') {
        const s = await this.stringText(ev, MAX_INDEX_TEXT);
        const whole = s.length <= MAX_INDEX_TEXT;
        args.push(whole ? { value, text: s.text } : { value });
        shown.push(JSON.stringify(s.text.slice(0, 40)));
      } else {
        args.push({ value });
        shown.push(ev?.kind === 'number' ? String(ev.value) : value.kind);
      }
    }
    const type = await csharpName(this.metadata, p.declaringType);
    const setter = p.setter!;
    return {
      kind: 'property',
      ...(objectId !== undefined ? { objectId } : {}),
      typeId: typeIdOf(p.declaringType),
      ...(p.getter
        ? {
            getter: {
              methodId: p.getter.handle as number,
              virtual: objectId !== undefined && p.getter.isVirtual,
            },
          }
        : {}),
      setter: {
        methodId: setter.handle as number,
        virtual: objectId !== undefined && setter.isVirtual,
      },
      args,
      name: p.parameters.length > 0 ? `${type}[${shown.join(', ')}]` : `${type}.${p.name}`,
    };
  }
}

/** A game exception's type and message; anything else is thrown on. */
function gameException(e: unknown): string {
  if (!(e instanceof UnityError && e.code === 'GAME_EXCEPTION')) throw e;
  const d = e.details as { type: string; message: string };
  return `${d.type} (${d.message})`;
}
