// What an attached game owns lives and dies with its connection: after the connection ends, a
// new one starts with fresh evaluator metadata and no `_`.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PacketReader } from '../../sdb-protocol/buffer-reader.js';
import { PacketWriter } from '../../sdb-protocol/buffer-writer.js';
import type { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import type { RuntimeKind } from '../../sdb-protocol/index.js';
import { RUNTIME_PROFILES, attachableAgent } from '../testing/attachable-agent.js';
import { GameSession } from '../session/session.js';
import { evaluateInGame, lastValueOf } from './evaluate-in-game.js';
import { GAME_METADATA, metadataFor } from './game-metadata.js';

let agent: FakeAgent | undefined;
let session: GameSession | undefined;
/** The runtime the agent answers as: the suite runs once per profile. */
let profile: RuntimeKind = 'debian-mono';

afterEach(async () => {
  await session?.shutdown();
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  session = agent = undefined;
});

/** Answers attaching (one thread, its identity) and type lookups: only System types exist. */
function gameAgent(): FakeAgent {
  const a = attachableAgent(profile);
  const names: string[] = [];
  a.on('VM.GET_TYPES', (req) => {
    const name = new PacketReader(req.body).string();
    if (!name.startsWith('System.')) return { body: new PacketWriter().i32(0).body() };
    if (!names.includes(name)) names.push(name);
    return {
      body: new PacketWriter()
        .i32(1)
        .typeId(names.indexOf(name) + 1)
        .body(),
    };
  });
  a.on('TYPE.GET_INFO', (req) => {
    const full = names[new PacketReader(req.body).i32() - 1] ?? '?';
    const name = full.slice('System.'.length);
    const w = new PacketWriter().string('System').string(name).string(full);
    w.i32(1).i32(1).i32(0).i32(0).i32(0x02000001).u8(0).i32(0x101).u8(0).i32(0);
    return { body: w.i32(0).i32(0).body() };
  });
  return a;
}

/** Evaluates `source` and reports what the connection holds afterwards. */
function evalOn(s: GameSession, source: string) {
  return s.run('eval', 'test', async (ctx) => {
    const md = metadataFor(ctx);
    const lastBefore = lastValueOf(ctx);
    const r = await evaluateInGame(ctx, source);
    const connection = ctx.connection;
    return { r, md, mdAfter: metadataFor(ctx), lastBefore, last: lastValueOf(ctx), connection };
  });
}

describe.each(RUNTIME_PROFILES)('the parts of an attached game (%s)', (kind) => {
  beforeEach(() => {
    profile = kind;
  });

  it('live as long as its connection: one metadata, `_` kept between programs', async () => {
    agent = gameAgent();
    session = new GameSession({ connect: (options) => agent!.connect(options) });
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    const a = (await evalOn(session, '6 * 7')).value;
    expect(a.md).toBe(a.mdAfter);
    expect(a.last?.value).toMatchObject({ kind: 'number', value: 42 });
    const b = (await evalOn(session, '_ + 1')).value;
    expect(b.md).toBe(a.md);
    expect(b.r).toMatchObject({ kind: 'value', text: '43' });
  });

  it('are dropped when the connection drops: fresh metadata and no `_` on the next one', async () => {
    agent = gameAgent();
    session = new GameSession({ connect: (options) => agent!.connect(options) });
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    const first = (await evalOn(session, '6 * 7')).value;
    agent.dropConnection();
    await expect.poll(() => session!.status().attached).toBe(false);
    expect(first.connection.ended).toBe(true);
    expect(first.connection.peek(GAME_METADATA)).toBeUndefined();

    const next = (await evalOn(session, '1')).value;
    expect(session.connects).toBe(2);
    expect(next.connection).not.toBe(first.connection);
    expect(next.md).not.toBe(first.md);
    expect(next.lastBefore).toBeUndefined();
  });

  it('are dropped on detach, and a new attach starts without them', async () => {
    agent = gameAgent();
    session = new GameSession({ connect: (options) => agent!.connect(options) });
    const target = { kind: 'endpoint', host: '127.0.0.1', port: agent.port } as const;
    await session.attach(target);
    const first = (await evalOn(session, '6 * 7')).value;
    await session.detach();
    expect(first.connection.ended).toBe(true);
    await session.attach(target);
    const next = (await evalOn(session, '1')).value;
    expect(next.md).not.toBe(first.md);
    expect(next.lastBefore).toBeUndefined();
    expect((await evalOn(session, '_ * 2')).value.r).toMatchObject({ text: '2' }); // not 84
  });
});
