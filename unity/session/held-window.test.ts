// An operation in the level an event holds (`heldBy`: a logpoint's holes, a condition, a watch's
// sample) sends no SUSPEND or RESUME of its own, and refuses to run on any other connection.

import { afterEach, describe, expect, it } from 'vitest';

import type { SdbConnection } from '../../sdb-protocol/index.js';
import type { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import { attachableAgent } from '../testing/attachable-agent.js';
import { GameSession } from './session.js';

let agent: FakeAgent | undefined;
let session: GameSession | undefined;

afterEach(async () => {
  await session?.shutdown();
  await agent?.stop();
  session = agent = undefined;
});

async function attached(): Promise<{ s: GameSession; conn: SdbConnection; a: FakeAgent }> {
  const a = (agent = attachableAgent());
  const s = (session = new GameSession({ connect: (options) => a.connect(options) }));
  await s.attach({ kind: 'endpoint', host: '127.0.0.1', port: a.port });
  const conn = (await s.run('conn', 'test', (ctx) => Promise.resolve(ctx.conn), { window: false }))
    .value;
  return { s, conn, a };
}

describe('an operation held by an event', () => {
  it("runs in the event's level: no SUSPEND or RESUME of its own, its commands counted", async () => {
    const { s, conn, a } = await attached();
    const from = a.received.length;
    const r = await s.run(
      'logpoint',
      'test',
      async (ctx) => {
        await ctx.conn.send('VM.VERSION');
        return 'read';
      },
      { urgent: true, heldBy: conn },
    );
    expect(r.value).toBe('read');
    expect(a.namesSince(from)).toEqual(['VM.VERSION']);
    expect(r.cost.wireCommands).toBe(1);
    // an ordinary window, for comparison: its own SUSPEND and RESUME
    const own = a.received.length;
    await s.run('read', 'test', async (ctx) => ctx.conn.send('VM.VERSION'));
    await expect.poll(() => a.namesSince(own)).toEqual(['VM.SUSPEND', 'VM.VERSION', 'VM.RESUME']);
  });

  it("is refused with CONNECTION_LOST when the session is no longer on the event's connection", async () => {
    const { s, conn, a } = await attached();
    const from = a.received.length;
    await conn.close();
    let ran = false;
    await expect(
      s.run(
        'logpoint',
        'test',
        () => {
          ran = true;
          return Promise.resolve();
        },
        { urgent: true, heldBy: conn },
      ),
    ).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
    expect(ran).toBe(false);
    expect(a.namesSince(from).filter((n) => n === 'VM.SUSPEND')).toEqual([]);
  });
});
