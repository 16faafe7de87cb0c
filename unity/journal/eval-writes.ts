// Journaling the writes of an agent's program (`eval`, `debug_evaluate`): each field, static,
// element or property it assigned becomes an undoable entry of the session's journal.

import {
  locationText,
  wireText,
  type GameWrite,
  type WriteObserver,
} from '../runtime/write-observer.js';
import type { Journal } from './journal.js';

/**
 * An observer that records a program's writes in the session's undo journal, and the list it
 * fills (each write, journaled or not): for `eval`, and for `debug_evaluate` in a frame. Without
 * a journal (a program a tool runs for itself) every write is listed as not undoable.
 */
export function journaledWrites(
  journal: Journal | undefined,
  caller: string,
  source: string,
): { observer: WriteObserver; writes: EvalWrite[] } {
  const writes: EvalWrite[] = [];
  return { observer: journalWrites(journal, caller, source, writes), writes };
}

const NOT_JOURNALED = 'a program a tool runs for itself is not journaled for undo';

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
 * Records an agent's eval assignments in the session's undo journal (see journal.ts),
 * and each write, journaled or not, in `writes`.
 */
function journalWrites(
  journal: Journal | undefined,
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
    if (!journal) {
      writes.push({ where, notUndoable: NOT_JOURNALED, invokes: w.invokes });
      return;
    }
    const entry = journal.record({
      label: `eval assigned ${where}: ${program}`,
      target: { kind: 'eval', where: w.where, before: w.before, after: w.after },
      before: wireText(w.before),
      after: wireText(w.after),
      caller,
    });
    writes.push({ where, journalId: entry.id, invokes: w.invokes });
  };
}
