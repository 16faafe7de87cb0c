// The undo journal: every write made through the ECS tools and every assignment an agent's eval
// makes to the game (fields, statics, array elements, properties and indexers), with the value
// before and the value we wrote (read back). One journal per session, built with it by the app
// and passed to whatever records; newest last, bounded. Undo restores "before" only while the
// game still holds what we wrote; otherwise someone changed it since, and undo refuses unless
// forced.

import type { Value } from '../../sdb-protocol/index.js';
import type { WriteLocation } from '../runtime/write-observer.js';
import { Errors, UnityError } from '../errors.js';

/** A value as JSON, the form journal entries keep (ECS components are recorded this way). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export type JournalTarget =
  | { kind: 'component'; component: string }
  | { kind: 'buffer'; buffer: string }
  /** An entity we created: undo destroys it. */
  | { kind: 'create' }
  /**
   * A field, static, array element or property (indexer) assigned by eval: undo writes the value
   * before back (a property through its setter). An assignment to a property that cannot be read
   * (no getter, or a getter that threw) is not journaled: eval's result says it cannot be undone.
   */
  | { kind: 'eval'; where: WriteLocation; before: Value; after: Value };

export interface JournalEntry {
  id: number;
  /** What the tool call was, for people. */
  label: string;
  /** ECS entries: where the write went (eval entries have neither). */
  world?: string;
  entity?: { index: number; version: number };
  target: JournalTarget;
  before: Json;
  after: Json;
  at: string;
  caller: string;
}

const MAX_ENTRIES = 500;

export class Journal {
  private entries: JournalEntry[] = [];
  private nextId = 1;

  record(e: Omit<JournalEntry, 'id' | 'at'>): JournalEntry {
    const entry: JournalEntry = { ...e, id: this.nextId++, at: new Date().toISOString() };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES)
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    return entry;
  }

  list(): readonly JournalEntry[] {
    return this.entries;
  }

  /**
   * `caller`'s newest `steps` entries (newest first), or the one with this id: undo is the
   * writer's. Another caller's entry by id needs `force` (UNDO_NOT_OWNED otherwise).
   */
  pick(
    sel: { steps?: number | undefined; id?: number | undefined; force?: boolean | undefined },
    caller: string,
  ): JournalEntry[] {
    if (sel.id !== undefined) {
      const e = this.entries.find((x) => x.id === sel.id);
      if (!e)
        throw new UnityError(
          'INVALID_ARGUMENT',
          `no journal entry ${sel.id} (entries: ${this.entries.map((x) => x.id).join(', ') || 'none'})`,
        );
      if (e.caller !== caller && sel.force !== true) throw Errors.undoNotOwned(e.id, e.caller);
      return [e];
    }
    const steps = sel.steps ?? 1;
    if (!Number.isInteger(steps) || steps < 1)
      throw new UnityError('INVALID_ARGUMENT', `steps must be a positive integer, got ${steps}`);
    const mine = this.entries.filter((x) => x.caller === caller);
    if (mine.length === 0) {
      const others = [...new Set(this.entries.map((x) => x.caller))];
      throw new UnityError(
        'INVALID_ARGUMENT',
        `nothing to undo: ${caller} made no write through the ECS tools or eval on this game` +
          (others.length
            ? ` (${others.join(', ')} did: undo one of theirs by id with force: true)`
            : ''),
      );
    }
    return mine.slice(-steps).reverse();
  }

  remove(id: number): void {
    this.entries = this.entries.filter((e) => e.id !== id);
  }
}
