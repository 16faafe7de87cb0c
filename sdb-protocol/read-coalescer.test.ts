import { afterEach, describe, expect, it } from 'vitest';

import { PacketWriter } from './buffer-writer.js';
import type { SdbConnection } from './connection.js';
import { FakeAgent, commandNameOf } from './testing/fake-agent.js';
import { ErrorCode, ValueTag } from './vocabulary.js';
import { Values } from './values.js';

let agent: FakeAgent | undefined;
let conn: SdbConnection | undefined;

afterEach(async () => {
  await conn?.close();
  await agent?.stop();
  conn = agent = undefined;
});

/** An agent whose GET_VALUES answer field id f with I4 f*10, refusing field 13. */
async function setup(coalesceReads = true): Promise<{ a: FakeAgent; c: SdbConnection }> {
  const a = (agent = FakeAgent.inMemory());
  const answer = (offset: number) => (req: { body: Buffer }) => {
    const n = req.body.readInt32BE(offset);
    const ids = Array.from({ length: n }, (_, i) => req.body.readInt32BE(offset + 4 + i * 4));
    if (ids.includes(13)) return { error: ErrorCode.INVALID_FIELDID };
    const w = new PacketWriter();
    for (const f of ids) w.u8(ValueTag.I4).i32(f * 10);
    return { body: w.body() };
  };
  a.on('TYPE.GET_VALUES', answer(4));
  a.on('OBJECT_REF.GET_VALUES', answer(4));
  a.on('TYPE.SET_VALUES', () => ({}));
  const c = (conn = await a.connect({ coalesceReads }));
  for (const id of [1, 2]) c.knownIds.record('type', id);
  for (const id of [5, 6, 7, 13]) c.knownIds.record('field', id);
  return { a, c };
}

/** The field reads and writes the agent received, in order, with their bodies. */
const reads = (a: FakeAgent): string[] =>
  a.received
    .map((p) => ({ name: commandNameOf(p), body: p.body.toString('hex') }))
    .filter((p) => /^(TYPE|OBJECT_REF)\.(GET|SET)_VALUES$/.test(p.name))
    .map((p) => `${p.name}:${p.body}`);

describe('read coalescing', () => {
  it('sends the first read of a tick at once, and merges the rest of that tick into one command', async () => {
    const { a, c } = await setup();
    const results = await Promise.all([
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [7] }),
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [5] }),
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [6, 7] }),
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [5] }),
    ]);
    expect(results).toEqual([
      [Values.i4(70)],
      [Values.i4(50)],
      [Values.i4(60), Values.i4(70)],
      [Values.i4(50)],
    ]);
    expect(reads(a)).toEqual([
      'TYPE.GET_VALUES:' + '00000001' + '00000001' + '00000007',
      'TYPE.GET_VALUES:' +
        '00000001' +
        '00000004' +
        '00000005' +
        '00000006' +
        '00000007' +
        '00000005',
    ]);
    expect(c.mergedReads).toBe(2);
  });

  it('never delays a lone read', async () => {
    const { a, c } = await setup();
    for (const f of [5, 6, 7]) await c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [f] });
    expect(reads(a)).toHaveLength(3);
    expect(c.mergedReads).toBe(0);
  });

  it('never moves a read across another command, and keeps types apart', async () => {
    const { a, c } = await setup();
    await Promise.all([
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [5] }),
      c.send('TYPE.SET_VALUES', { typeId: 1, writes: [{ fieldId: 5, value: Values.i4(1) }] }),
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [6] }),
      c.send('TYPE.GET_VALUES', { typeId: 2, fieldIds: [7] }),
    ]);
    expect(reads(a).map((r) => r.slice(0, r.indexOf(':') + 9))).toEqual([
      'TYPE.GET_VALUES:00000001',
      'TYPE.SET_VALUES:00000001',
      'TYPE.GET_VALUES:00000001',
      'TYPE.GET_VALUES:00000002',
    ]);
  });

  it('gives each read its own outcome when one field spoils the merged command', async () => {
    const { a, c } = await setup();
    const [ok, bad, ok2] = await Promise.allSettled([
      c.send('OBJECT_REF.GET_VALUES', { objectId: 9, fieldIds: [5] }),
      c.send('OBJECT_REF.GET_VALUES', { objectId: 9, fieldIds: [13] }),
      c.send('OBJECT_REF.GET_VALUES', { objectId: 9, fieldIds: [6] }),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: [Values.i4(50)] });
    expect(bad).toMatchObject({
      status: 'rejected',
      reason: { errorCode: ErrorCode.INVALID_FIELDID },
    });
    expect(ok2).toEqual({ status: 'fulfilled', value: [Values.i4(60)] });
    expect(reads(a)).toHaveLength(4); // the merged one, then one per read
  });

  it('fails every read at once when the object itself is gone', async () => {
    const { a, c } = await setup();
    a.on('OBJECT_REF.GET_VALUES', () => ({ error: ErrorCode.INVALID_OBJECT }));
    const results = await Promise.allSettled([
      c.send('OBJECT_REF.GET_VALUES', { objectId: 9, fieldIds: [5] }),
      c.send('OBJECT_REF.GET_VALUES', { objectId: 9, fieldIds: [6] }),
      c.send('OBJECT_REF.GET_VALUES', { objectId: 9, fieldIds: [7] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(reads(a)).toHaveLength(2); // the first read alone, then the merged one: no re-sends
  });

  it('refuses an unknown field id for its own caller only', async () => {
    const { c } = await setup();
    const [bad, ok] = await Promise.allSettled([
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [99] }),
      c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [5] }),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'UNSAFE_REQUEST' } });
    expect(ok).toEqual({ status: 'fulfilled', value: [Values.i4(50)] });
  });

  it('can be turned off', async () => {
    const { a, c } = await setup(false);
    await Promise.all([5, 6].map((f) => c.send('TYPE.GET_VALUES', { typeId: 1, fieldIds: [f] })));
    expect(reads(a)).toHaveLength(2);
  });
});
