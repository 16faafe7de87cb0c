// undo: restores journal entries (components, buffers, created entities, eval assignments),
// newest first, refusing an entry whose target no longer holds what we wrote unless forced.
// An eval entry is read and written where the program wrote it: a field, static or element on
// the wire, a property through its getter and setter (invokes on the main thread, in this window).

import { locationKey, readAt, sameValue, wireText, writeAt } from '../runtime/write-observer.js';
import { UnityError } from '../errors.js';
import type { GameSession, OperationResult } from '../session/session.js';
import { EcsAccess } from './ecs-access.js';
import type { ComponentInfo } from './ecs-model.js';
import { EcsErrors } from './ecs-errors.js';
import { componentJson, locate, type Located } from './ecs-read.js';
import { read, write } from './ecs-window.js';
import { destroyEntity, readBuffer, restoreBuffer, setComponent } from './ecs-write.js';
import type { Journal, JournalEntry } from '../journal/journal.js';
import { sameJson, type Json } from './value-codec.js';

export interface UndoOutcome {
  id: number;
  label: string;
  undone: boolean;
  current: Json;
  restored?: Json;
}

/** Restores journal entries (newest first); refuses an entry whose value changed since, unless forced. */
export function undo(
  session: GameSession,
  journal: Journal,
  caller: string,
  sel: {
    steps?: number | undefined;
    id?: number | undefined;
    force?: boolean | undefined;
    dryRun?: boolean | undefined;
  },
): Promise<OperationResult<UndoOutcome[]>> {
  const entries = journal.pick(sel, caller);
  const op = async (ecs: EcsAccess): Promise<UndoOutcome[]> => {
    // every entry checked before any is restored: a conflict changes nothing
    const checked: {
      e: JournalEntry;
      l: Located | undefined;
      current: Json;
      info?: ComponentInfo;
    }[] = [];
    // an older entry on a target a newer one restores is checked against that restored value
    const pending = new Map<string, Json>();
    for (const e of entries) {
      const key =
        e.target.kind === 'eval'
          ? `eval|${locationKey(e.target.where)}`
          : `${e.world}|${e.entity?.index}:${e.entity?.version}|${JSON.stringify(e.target)}`;
      if (e.target.kind === 'eval') {
        const t = e.target;
        const now = await located(e, () => readAt(ecs.ctx, t.where));
        const current = wireText(now);
        const known = pending.get(key);
        const matches = known !== undefined ? known === e.after : sameValue(now, t.after);
        if (!matches && !sel.force) throw conflict(e, e.after, current);
        pending.set(key, e.before);
        checked.push({ e, l: undefined, current });
        continue;
      }
      const entity = e.entity!;
      const addr = { world: e.world, index: entity.index, version: entity.version };
      if (e.target.kind === 'create') {
        const world = await ecs.world(e.world);
        const em = await ecs.entityManager(world);
        const exists = await ecs.exists(em, entity);
        const current: Json = exists ? 'exists' : 'destroyed';
        if (!exists && !sel.force) throw conflict(e, 'exists', current);
        checked.push({ e, l: exists ? { world, em, entity } : undefined, current });
        continue;
      }
      const l = await locate(ecs, addr);
      const info = await ecs.component(
        e.target.kind === 'component' ? e.target.component : e.target.buffer,
      );
      const current = pending.has(key)
        ? pending.get(key)!
        : e.target.kind === 'component'
          ? await componentJson(ecs, l, info)
          : (await readBuffer(ecs, l, info)).json;
      if (!sameJson(current, e.after) && !sel.force) throw conflict(e, e.after, current);
      pending.set(key, e.before);
      checked.push({ e, l, current, info });
    }
    const out: UndoOutcome[] = [];
    for (const { e, l, current, info } of checked) {
      if (sel.dryRun) {
        out.push({ id: e.id, label: e.label, undone: false, current, restored: e.before });
        continue;
      }
      let restored: Json;
      if (e.target.kind === 'eval') {
        const t = e.target;
        ecs.ctx.markWrite();
        await located(e, () => writeAt(ecs.ctx, t.where, t.before));
        const back = await located(e, () => readAt(ecs.ctx, t.where));
        if (!sameValue(back, t.before))
          throw EcsErrors.readBackMismatch(`restoring ${e.label}`, e.before, wireText(back));
        restored = wireText(back);
      } else if (e.target.kind === 'create') {
        if (l) await destroyEntity(ecs, l);
        restored = 'destroyed';
      } else if (e.target.kind === 'component') {
        restored = (await setComponent(ecs, l!, info!, e.before)).after;
      } else {
        restored = await restoreBuffer(ecs, l!, info!, e.before as Json[]);
      }
      journal.remove(e.id);
      out.push({ id: e.id, label: e.label, undone: true, current, restored });
    }
    return out;
  };
  if (entries.some((e) => e.target.kind !== 'eval'))
    return sel.dryRun ? read(session, caller, 'undo', op) : write(session, caller, 'undo', op);
  // eval entries only: no ECS lookups first (a game without Entities has eval writes to undo)
  return session.run(
    'undo',
    caller,
    (ctx) => op(new EcsAccess(ctx)),
    sel.dryRun ? {} : { writes: true, exclusive: true },
  );
}

function conflict(e: JournalEntry, wrote: Json, found: Json): UnityError {
  return new UnityError(
    'UNDO_CONFLICT',
    `entry ${e.id} (${e.label}) was not undone: the game no longer holds what we wrote (wrote ${clipJson(wrote)}, now ${clipJson(found)}); someone changed it since. Nothing was changed; force: true restores the old value anyway`,
    { details: { id: e.id, wrote, found } },
  );
}

/**
 * An eval entry's read or write; a property's getter or setter that throws is reported with the
 * entry (a destroyed object's property, say), not as a bare game exception.
 */
async function located<T>(e: JournalEntry, io: () => Promise<T>): Promise<T> {
  try {
    return await io();
  } catch (x) {
    if (!(x instanceof UnityError && x.code === 'GAME_EXCEPTION')) throw x;
    throw new UnityError('GAME_EXCEPTION', `entry ${e.id} (${e.label}): ${x.message}`, {
      details: x.details,
      cause: x,
    });
  }
}

function clipJson(v: Json): string {
  const s = JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
