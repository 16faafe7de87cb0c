// An optional observer of the game writes an evaluation makes (field, static and array element
// assignments, and assignments through a property or indexer setter), with the value before and
// after each, so that they can be journaled and undone. Fields and elements are read and written
// with wire commands; a property is read through its getter and written through its setter, both
// main-thread invokes, so reading and writing a location takes the operation's invoker too.

import { Values, type SdbConnection, type Value } from '../../sdb-protocol/index.js';
import type { OperationContext } from '../session/session.js';

/** A property's accessor as it was called: virtually on a reference receiver when virtual. */
export interface Accessor {
  methodId: number;
  virtual: boolean;
}

/** An indexer argument; a string keeps its text (the game may collect the string we made). */
export interface IndexArg {
  value: Value;
  text?: string;
}

export type WriteLocation =
  | { kind: 'static'; typeId: number; fieldId: number; name: string }
  | { kind: 'field'; objectId: number; fieldId: number; name: string }
  | { kind: 'element'; arrayId: number; index: number }
  | {
      kind: 'property';
      /** The receiver; absent for a static property. */
      objectId?: number;
      /** The declaring type. */
      typeId: number;
      /** Absent for a set-only property: its value cannot be read, so the write cannot be undone. */
      getter?: Accessor;
      setter: Accessor;
      /** Indexer arguments (empty for a plain property). */
      args: IndexArg[];
      /** `Game.Item.Price`, `List<int>[1]`. */
      name: string;
    };

/** A write with its value before and after, or one that cannot be undone, and why. */
export type GameWrite =
  | { where: WriteLocation; before: Value; after: Value; invokes: number }
  | { where: WriteLocation; notUndoable: string; invokes: number };

export type WriteObserver = (write: GameWrite) => void;

/** What reading and writing a location needs: wire commands, and invokes for properties. */
export type LocationAccess = Pick<OperationContext, 'conn' | 'invoke'>;

export async function readAt(at: LocationAccess, where: WriteLocation): Promise<Value> {
  const conn = at.conn;
  switch (where.kind) {
    case 'static':
      return (
        await conn.send('TYPE.GET_VALUES', { typeId: where.typeId, fieldIds: [where.fieldId] })
      )[0]!;
    case 'field':
      return (
        await conn.send('OBJECT_REF.GET_VALUES', {
          objectId: where.objectId,
          fieldIds: [where.fieldId],
        })
      )[0]!;
    case 'element':
      return (
        await conn.send('ARRAY_REF.GET_VALUES', {
          arrayId: where.arrayId,
          index: where.index,
          count: 1,
        })
      )[0]!;
    case 'property':
      return readProperty(at, where, await indexValues(conn, where.args));
  }
}

export async function writeAt(
  at: LocationAccess,
  where: WriteLocation,
  value: Value,
): Promise<void> {
  const conn = at.conn;
  switch (where.kind) {
    case 'static':
      await conn.send('TYPE.SET_VALUES', {
        typeId: where.typeId,
        writes: [{ fieldId: where.fieldId, value }],
      });
      return;
    case 'field':
      await conn.send('OBJECT_REF.SET_VALUES', {
        objectId: where.objectId,
        writes: [{ fieldId: where.fieldId, value }],
      });
      return;
    case 'element':
      await conn.send('ARRAY_REF.SET_VALUES', {
        arrayId: where.arrayId,
        index: where.index,
        values: [value],
      });
      return;
    case 'property': {
      const args = await indexValues(conn, where.args);
      await at.invoke(where.setter.methodId, receiverOf(where), [...args, value], {
        virtual: where.setter.virtual,
      });
      return;
    }
  }
}

type PropertyLocation = Extract<WriteLocation, { kind: 'property' }>;

/** The property's value through its getter (one invoke), with these index arguments. */
export async function readProperty(
  at: LocationAccess,
  where: PropertyLocation,
  args: readonly Value[],
): Promise<Value> {
  if (!where.getter) throw new Error(`${where.name} has no getter`);
  const r = await at.invoke(where.getter.methodId, receiverOf(where), args, {
    virtual: where.getter.virtual,
  });
  return r.result;
}

function receiverOf(where: PropertyLocation): Value {
  return where.objectId === undefined ? Values.null() : Values.object(where.objectId);
}

/** Index arguments for a call now: a string argument is made again from its text. */
async function indexValues(conn: SdbConnection, args: readonly IndexArg[]): Promise<Value[]> {
  const out: Value[] = [];
  for (const a of args) {
    if (a.text === undefined) {
      out.push(a.value);
      continue;
    }
    const domainId = conn.vmStart?.rootDomainId ?? (await conn.send('APPDOMAIN.GET_ROOT_DOMAIN'));
    const objectId = await conn.send('APPDOMAIN.CREATE_STRING', { domainId, text: a.text });
    out.push(Values.string(objectId));
  }
  return out;
}

/**
 * One key per place in the game: two writes to the same place have the same key (a string index
 * argument by its text, as the string objects of two evaluations differ).
 */
export function locationKey(where: WriteLocation): string {
  if (where.kind !== 'property') return JSON.stringify(where);
  const args = where.args.map((a) => (a.text !== undefined ? { text: a.text } : a.value));
  return JSON.stringify([where.objectId ?? null, where.setter.methodId, args], bigints);
}

/** A location for people: `SInt`, `element 2 of array 123`, `Game.Item.Price`. */
export function locationText(where: WriteLocation): string {
  return where.kind === 'element' ? `element ${where.index} of array ${where.arrayId}` : where.name;
}

/** Wire values compared as data (bigints included). */
export function sameValue(a: Value, b: Value): boolean {
  return JSON.stringify(a, bigints) === JSON.stringify(b, bigints);
}

/** A wire value as JSON text for people (bigints as their digits). */
export function wireText(v: Value): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

function bigints(_k: string, x: unknown): unknown {
  return typeof x === 'bigint' ? `${x}n` : x;
}
