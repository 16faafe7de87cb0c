// An optional observer of the game writes an evaluation makes (field, static and array element
// assignments), with the value before and after each, so that they can be journaled and undone.
// Property setters are calls, not writes: they are not observed.

import type { SdbConnection, Value } from '../../sdb-protocol/index.js';

export type WriteLocation =
  | { kind: 'static'; typeId: number; fieldId: number; name: string }
  | { kind: 'field'; objectId: number; fieldId: number; name: string }
  | { kind: 'element'; arrayId: number; index: number };

export interface GameWrite {
  where: WriteLocation;
  before: Value;
  after: Value;
}

export type WriteObserver = (write: GameWrite) => void;

export async function readAt(conn: SdbConnection, where: WriteLocation): Promise<Value> {
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
  }
}

export async function writeAt(
  conn: SdbConnection,
  where: WriteLocation,
  value: Value,
): Promise<void> {
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
  }
}

/** Wire values compared as data (bigints included). */
export function sameValue(a: Value, b: Value): boolean {
  const text = (v: Value): string =>
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
  return text(a) === text(b);
}
