// undo: restores journal entries (components, buffers, created entities, eval assignments),
// newest first, refusing an entry whose target no longer holds what we wrote unless forced.

import { readAt, sameValue, writeAt } from '../eval-bridge/write-observer.js';
import { UnityError } from '../errors.js';
import type { GameSession, OperationResult } from '../session/session.js';
import type { ComponentInfo, EcsAccess } from './ecs-access.js';
import { EcsErrors } from './ecs-errors.js';
import { componentJson, locate, type Located } from './ecs-read.js';
import { read, write } from './ecs-window.js';
import { destroyEntity, readBuffer, restoreBuffer, setComponent } from './ecs-write.js';
import { journalFor, type JournalEntry } from './journal.js';
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
  caller: string,
  sel: {
    steps?: number | undefined;
    id?: number | undefined;
    force?: boolean | undefined;
    dryRun?: boolean | undefined;
  },
): Promise<OperationResult<UndoOutcome[]>> {
  const journal = journalFor(session);
  const entries = journal.pick(sel);
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
          ? `eval|${JSON.stringify(e.target.where)}`
          : `${e.world}|${e.entity?.index}:${e.entity?.version}|${JSON.stringify(e.target)}`;
      if (e.target.kind === 'eval') {
        const now = await readAt(ecs.conn, e.target.where);
        const current = wireText(now);
        const known = pending.get(key);
        const matches = known !== undefined ? known === e.after : sameValue(now, e.target.after);
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
        ecs.ctx.markWrite();
        await writeAt(ecs.conn, e.target.where, e.target.before);
        const back = await readAt(ecs.conn, e.target.where);
        if (!sameValue(back, e.target.before))
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
  return sel.dryRun ? read(session, caller, 'undo', op) : write(session, caller, 'undo', op);
}

function conflict(e: JournalEntry, wrote: Json, found: Json): UnityError {
  return new UnityError(
    'UNDO_CONFLICT',
    `entry ${e.id} (${e.label}) was not undone: the game no longer holds what we wrote (wrote ${clipJson(wrote)}, now ${clipJson(found)}); someone changed it since. Nothing was changed; force: true restores the old value anyway`,
    { details: { id: e.id, wrote, found } },
  );
}

function clipJson(v: Json): string {
  const s = JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

function wireText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}
