// Roslyn's closures in an ordinary frame, which the fixtures' mcs never emits (it keeps captured
// locals in closure objects of its own): a scripted connection stands for the agent. The struct a
// local function receives by reference is covered against the real agent by
// test-integration/observe.test.ts, whose fixture writes Roslyn's lowering out by hand.

import { describe, expect, it } from 'vitest';

import { Values, type SdbConnection, type Value } from '../../sdb-protocol/index.js';
import { frameSlots } from './frames.js';
import { LocationCache } from './locations.js';

/**
 * Method 5 `Game.P.Run(int n)` with one local `CS$<>8__locals0` of class `<>c__DisplayClass3_0`
 * (type 8: `count`, `<>4__this`, and `CS$<>8__locals1`, the enclosing scope's closure, type 9
 * holding `total`) and an own local `i`.
 */
function scripted(): SdbConnection {
  const fields: Record<
    number,
    { fieldId: number; name: string; typeId: number; attributes: number }[]
  > = {
    8: [
      { fieldId: 81, name: 'count', typeId: 1, attributes: 0 },
      { fieldId: 82, name: '<>4__this', typeId: 7, attributes: 0 },
      { fieldId: 83, name: 'CS$<>8__locals1', typeId: 9, attributes: 0 },
      { fieldId: 84, name: 'cache', typeId: 1, attributes: 0x10 },
    ],
    9: [
      { fieldId: 91, name: 'total', typeId: 1, attributes: 0 },
      { fieldId: 92, name: 'count', typeId: 1, attributes: 0 },
    ],
  };
  const objects: Record<number, Record<number, Value>> = {
    100: { 81: Values.i4(3), 82: Values.object(200), 83: Values.object(101) },
    101: { 91: Values.i4(42), 92: Values.i4(99) },
  };
  const replies: Record<string, (p: Record<string, unknown>) => unknown> = {
    'METHOD.GET_PARAM_INFO': () => ({ paramNames: ['n'], paramTypeIds: [1] }),
    'METHOD.GET_LOCALS_INFO': () => ({
      locals: [
        { typeId: 8, name: 'CS$<>8__locals0', liveStart: 0, liveEnd: 100 },
        { typeId: 1, name: 'i', liveStart: 0, liveEnd: 100 },
      ],
    }),
    'METHOD.GET_INFO': () => ({ attributes: 0 }),
    'METHOD.GET_DECLARING_TYPE': () => 7,
    'METHOD.GET_NAME': () => 'Run',
    'TYPE.GET_INFO': () => ({ fullName: 'Game.P', name: 'P', nestedTypeIds: [] }),
    'TYPE.GET_FIELDS': (p) => fields[p['typeId'] as number],
    'STACK_FRAME.GET_VALUES': () => [Values.i4(5), Values.object(100), Values.i4(1)],
    'STACK_FRAME.GET_THIS': () => Values.object(200),
    'OBJECT_REF.GET_VALUES': (p) =>
      (p['fieldIds'] as number[]).map((f) => objects[p['objectId'] as number]![f]!),
  };
  return {
    send: (name: string, params: Record<string, unknown>) =>
      Promise.resolve(replies[name]!(params)),
  } as unknown as SdbConnection;
}

describe('frame slots of Roslyn closures', () => {
  it("a CS$<>8__locals local shows as the captured locals it holds, an enclosing scope's too, innermost first", async () => {
    const slots = await frameSlots(new LocationCache(scripted()), 1, {
      frameId: 1,
      methodId: 5,
      ilOffset: 10,
      flags: 0,
    });
    expect(slots.map((s) => [s.name, s.kind, s.hoisted ?? false])).toEqual([
      ['n', 'param', false],
      ['this', 'this', false],
      ['count', 'local', true],
      ['total', 'local', true],
      ['i', 'local', false],
    ]);
    // the innermost scope's `count` wins over the enclosing scope's
    expect(slots.find((s) => s.name === 'count')!.raw).toEqual(Values.i4(3));
    expect(slots.find((s) => s.name === 'total')!.raw).toEqual(Values.i4(42));
  });
});
