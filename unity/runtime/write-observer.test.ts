import { describe, expect, it } from 'vitest';

import { Values, type SdbConnection, type Value } from '../../sdb-protocol/index.js';
import {
  locationKey,
  locationText,
  readAt,
  writeAt,
  type LocationAccess,
  type WriteLocation,
} from './write-observer.js';

/** A connection that makes strings (ids from 500) and an invoker that records its calls. */
function fakeAccess(result: Value = Values.i4(7)) {
  const strings: string[] = [];
  const calls: { methodId: number; thisArg: Value; args: readonly Value[]; virtual?: boolean }[] =
    [];
  const conn = {
    vmStart: { rootDomainId: 1 },
    send: (name: string, p: { text: string }) => {
      if (name !== 'APPDOMAIN.CREATE_STRING') throw new Error(`unexpected ${name}`);
      strings.push(p.text);
      return Promise.resolve(499 + strings.length);
    },
  } as unknown as SdbConnection;
  const access: LocationAccess = {
    conn,
    invoke: (methodId, thisArg, args, options) => {
      calls.push({ methodId, thisArg, args, virtual: options?.virtual });
      return Promise.resolve({ result });
    },
  };
  return { access, strings, calls };
}

type PropertyLocation = Extract<WriteLocation, { kind: 'property' }>;

const indexer = (keyId: number, text: string): PropertyLocation => ({
  kind: 'property',
  objectId: 42,
  typeId: 3,
  getter: { methodId: 10, virtual: true },
  setter: { methodId: 11, virtual: true },
  args: [{ value: Values.string(keyId), text }],
  name: 'Dictionary<string, int>["two"]',
});

describe('property locations', () => {
  it('reads through the getter, making a string argument again from its text', async () => {
    const { access, strings, calls } = fakeAccess(Values.i4(2));
    expect(await readAt(access, indexer(77, 'two'))).toEqual(Values.i4(2));
    expect(strings).toEqual(['two']);
    expect(calls).toEqual([
      { methodId: 10, thisArg: Values.object(42), args: [Values.string(500)], virtual: true },
    ]);
  });

  it('writes through the setter: index arguments, then the value', async () => {
    const { access, calls } = fakeAccess();
    const where: WriteLocation = {
      kind: 'property',
      typeId: 3,
      getter: { methodId: 20, virtual: false },
      setter: { methodId: 21, virtual: false },
      args: [],
      name: 'Game.Locker.Opened',
    };
    await writeAt(access, where, Values.i4(10));
    expect(calls).toEqual([
      { methodId: 21, thisArg: Values.null(), args: [Values.i4(10)], virtual: false },
    ]);
  });

  it('refuses to read a property without a getter', async () => {
    const { access, calls } = fakeAccess();
    const { getter: _, ...where } = indexer(1, 'x');
    await expect(readAt(access, where)).rejects.toThrow(/no getter/);
    expect(calls).toEqual([]);
  });

  it('keys a place by its string arguments’ text, not the string objects', () => {
    expect(locationKey(indexer(77, 'two'))).toBe(locationKey(indexer(78, 'two')));
    expect(locationKey(indexer(77, 'two'))).not.toBe(locationKey(indexer(77, 'three')));
    expect(locationText(indexer(77, 'two'))).toBe('Dictionary<string, int>["two"]');
    expect(locationText({ kind: 'element', arrayId: 9, index: 2 })).toBe('element 2 of array 9');
  });
});
