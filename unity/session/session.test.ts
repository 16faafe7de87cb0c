import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PacketWriter } from '../../sdb-protocol/buffer-writer.js';
import type { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import { RUNTIME_PROFILES, attachableAgent } from '../testing/attachable-agent.js';
import {
  ErrorCode,
  FieldAttributes,
  ValueTag,
  Values,
  type RuntimeKind,
} from '../../sdb-protocol/index.js';
import { refusal } from '../testing/errors.js';
import { Errors } from '../errors.js';
import { GameSession, type PlayerResolver } from './session.js';

let agent: FakeAgent | undefined;
let session: GameSession | undefined;
/** The runtime the agent answers as: the suite runs once per profile. */
let profile: RuntimeKind = 'debian-mono';

afterEach(async () => {
  await session?.shutdown();
  // nothing reached the agent that its runtime must never receive
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  session = agent = undefined;
});

/** A fake agent that answers what attaching asks (threads, identity) and static reads. */
function gameAgent(): FakeAgent {
  const a = attachableAgent(profile);
  a.on('VM.GET_TYPES', () => ({ body: new PacketWriter().i32(1).i32(7).body() })); // type 7
  a.on('TYPE.GET_FIELDS', () => ({
    body: new PacketWriter()
      .i32(1)
      .i32(9)
      .string('SInt')
      .i32(7)
      .i32(FieldAttributes.Static | FieldAttributes.Public)
      .body(),
  }));
  a.on('TYPE.GET_VALUES', () => ({ body: new PacketWriter().u8(ValueTag.I4).i32(5).body() }));
  return a;
}

/** A session that reaches the agent in memory, as it would reach a game over TCP. */
function sessionOn(a: FakeAgent): GameSession {
  return new GameSession({ connect: (options) => a.connect(options) });
}

async function readSInt(s: GameSession): Promise<unknown> {
  return (
    await s.run('read', 'test', async (ctx) => {
      const [t] = await ctx.conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
      const [f] = await ctx.conn.send('TYPE.GET_FIELDS', { typeId: t! });
      return (await ctx.conn.send('TYPE.GET_VALUES', { typeId: t!, fieldIds: [f!.fieldId] }))[0];
    })
  ).value;
}

describe.each(RUNTIME_PROFILES)('GameSession against a scripted %s agent', (kind) => {
  beforeEach(() => {
    profile = kind;
  });

  it('retries once, on a fresh connection, when the connection drops as the window opens', async () => {
    agent = gameAgent();
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    let drops = 1;
    agent.on('VM.SUSPEND', (_req, a) => {
      if (drops-- > 0) {
        a.dropConnection();
        return 'none';
      }
      a.suspendCount++;
      return {};
    });
    expect(await readSInt(session)).toEqual({ kind: 'i4', value: 5 });
    expect(session.connects).toBe(2);
  });

  it('does not retry twice', async () => {
    agent = gameAgent();
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    agent.on('VM.SUSPEND', (_req, a) => {
      a.dropConnection();
      return 'none';
    });
    await expect(readSInt(session)).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
    expect(session.connects).toBe(2);
  });

  it('reports a drop in the middle of a read as CONNECTION_LOST and of a write as MAY_HAVE_APPLIED, without retrying', async () => {
    agent = gameAgent();
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    agent.on('TYPE.GET_VALUES', (_req, a) => {
      a.dropConnection();
      return 'none';
    });
    await expect(readSInt(session)).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
    expect(session.connects).toBe(1);
    agent.on('TYPE.SET_VALUES', (_req, a) => {
      a.dropConnection();
      return 'none';
    });
    await expect(
      session.run('write', 'test', async (ctx) => {
        ctx.markWrite();
        const [t] = await ctx.conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
        const [f] = await ctx.conn.send('TYPE.GET_FIELDS', { typeId: t! });
        await ctx.conn.send('TYPE.SET_VALUES', {
          typeId: t!,
          writes: [{ fieldId: f!.fieldId, value: { kind: 'i4', value: 1 } }],
        });
      }),
    ).rejects.toMatchObject({ code: 'MAY_HAVE_APPLIED' });
    expect(session.connects).toBe(2); // the write's own attach; it was not retried after the drop
  });

  it('keeps a game that waits for its debugger held, as a hold of the attaching caller', async () => {
    agent = gameAgent();
    agent.suspendCount = 1; // suspend=y: waiting at VM_START, only the core library loaded
    agent.on('APPDOMAIN.GET_ASSEMBLIES', () => ({ body: new PacketWriter().i32(1).i32(1).body() }));
    session = sessionOn(agent);
    const s = await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port }, 'a');
    expect(s.holds).toEqual([{ caller: 'a', count: 1 }]);
    expect(agent.suspendCount).toBe(1);
    await expect(session.release('b')).rejects.toMatchObject({ code: 'HOLD_NOT_OWNED' });
    await session.release('a');
    expect(session.status().holds).toEqual([]);
    expect(agent.suspendCount).toBe(0);
  });

  it('refuses to guess between several players, and names them', async () => {
    const players: PlayerResolver = {
      select: () => {
        throw Errors.ambiguousPlayer([
          { key: '1@127.0.0.1', label: 'LinuxPlayer(a)', endpoint: '127.0.0.1:56001' },
          { key: '2@127.0.0.1', label: 'LinuxPlayer(b)', endpoint: '127.0.0.1:56002' },
        ]);
      },
    };
    session = new GameSession({ players });
    await expect(session.run('read', 'test', () => Promise.resolve(1))).rejects.toMatchObject({
      code: 'AMBIGUOUS_PLAYER',
      message: expect.stringMatching(/LinuxPlayer\(a\).*LinuxPlayer\(b\)/),
    });
    expect(session.connects).toBe(0);
  });

  it('says why there is nothing to attach to when discovery is unavailable', async () => {
    session = new GameSession({ discoveryProblem: 'port 54997 is in use' });
    await expect(session.run('read', 'test', () => Promise.resolve(1))).rejects.toMatchObject({
      code: 'NO_PLAYER',
      message: expect.stringMatching(/discovery is unavailable \(port 54997 is in use\)/),
    });
  });

  it('refuses a bad explicit port before connecting', async () => {
    session = new GameSession();
    await expect(
      session.attach({ kind: 'endpoint', host: '127.0.0.1', port: 70000 }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('gives windows one turn at a time, runs window-less reads and nested operations at once, and frees the turn when an operation fails', async () => {
    agent = gameAgent();
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    const s = session;
    let fail: (e: Error) => void = () => undefined;
    let began: () => void = () => undefined;
    const running = new Promise<void>((r) => (began = r));
    const first = s.run('a long one', 'a', () => {
      began();
      return new Promise<void>((_r, j) => (fail = j));
    });
    const second = s.run('b read', 'b', async () => {
      // started inside b's turn: runs in it instead of waiting behind b itself
      const inner = await s.run('b inner', 'b', () => Promise.resolve('inner'));
      return inner.value;
    });
    await running;
    expect(s.queue()).toMatchObject({
      running: { caller: 'a', label: 'a long one' },
      waiting: [{ caller: 'b', label: 'b read' }],
    });
    // no window: behind no one, while a's window runs and b waits
    const bare = await s.run('counters', 'c', () => Promise.resolve(7), { window: false });
    expect(bare.value).toBe(7);
    expect(bare.cost.queuedBehind).toBeUndefined();
    fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    const r = await second;
    expect(r.value).toBe('inner');
    expect(r.cost).toMatchObject({ queuedBehind: 1 });
    expect(r.cost.queueMs).toBeGreaterThan(0);
    expect(s.queue().running).toBeUndefined();
    // a round trip without a window: the RESUMEs sent before it are done
    await s.run(
      'types',
      'c',
      (ctx) => ctx.conn.send('VM.GET_TYPES', { name: 'X', ignoreCase: false }),
      {
        window: false,
      },
    );
    expect(agent.suspendCount).toBe(0); // every window closed
  });
});

describe.each(RUNTIME_PROFILES)('attaching to a %s agent', (kind) => {
  it('knows the runtime, shows what it cannot do, and has IL2CPP replay its loaded classes', async () => {
    profile = kind;
    agent = gameAgent();
    agent.model.loadedClasses.push(7, 8);
    session = sessionOn(agent);
    const s = await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    expect(s.runtimeProfile?.kind).toBe(kind);
    expect((s.runtimeProfile?.cannot.length ?? 0) > 0).toBe(kind !== 'debian-mono');
    const loaded = (
      await session.run('read', 'test', (ctx) => Promise.resolve(ctx.connection.loadedClasses))
    ).value;
    if (kind === 'il2cpp') {
      expect(loaded).toEqual([7, 8]);
      expect(s.runtimeProfile?.cannot.map((c) => c.feature).join('; ')).toMatch(/Nullable<T>/);
      // asked once, with policy NONE, and cleared at once
      expect(agent.count('EVENT_REQUEST.SET')).toBe(1);
      expect(agent.count('EVENT_REQUEST.CLEAR')).toBe(1);
    } else {
      expect(loaded).toBeUndefined();
      expect(agent.count('EVENT_REQUEST.SET')).toBe(0);
    }
    expect(await readSInt(session)).toEqual({ kind: 'i4', value: 5 });
  });
});

describe.each(RUNTIME_PROFILES)('invokes on a %s agent', (kind) => {
  /** Game.Probe (type 7) has Make<T> and Set(int?) (method 5, parameter type 12), Tick (method 6). */
  function invokableAgent(): FakeAgent {
    profile = kind;
    const a = gameAgent();
    a.on('TYPE.GET_METHODS', () => ({
      body: new PacketWriter().i32(3).i32(4).i32(5).i32(6).body(),
    }));
    a.on('METHOD.MAKE_GENERIC_METHOD', () => ({ error: ErrorCode.INVALID_ARGUMENT }));
    a.on('METHOD.GET_PARAM_INFO', (p) => {
      const method = p.body.readInt32BE(0);
      const w = new PacketWriter().i32(0);
      return {
        body: (method === 5
          ? w.i32(1).i32(0).i32(7).i32(12).string('v')
          : w.i32(0).i32(0).i32(7)
        ).body(),
      };
    });
    a.on('TYPE.GET_INFO', (p) => {
      const name =
        p.body.readInt32BE(0) === 12 ? 'System.Nullable`1[[System.Int32, mscorlib]]' : 'Game.Probe';
      const w = new PacketWriter().string('').string(name).string(name);
      w.i32(1).i32(1).i32(0).i32(0).i32(0x02000001).u8(0).i32(0).u8(8).i32(0).i32(0).i32(0);
      return { body: w.body() };
    });
    a.on('VM.INVOKE_METHOD', () => ({ body: new PacketWriter().u8(1).u8(ValueTag.VOID).body() }));
    a.model.nullableParamMethods.add(5);
    return a;
  }

  async function methods(s: GameSession): Promise<number[]> {
    return (
      await s.run('find', 'test', async (ctx) => {
        const [t] = await ctx.conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
        await ctx.conn.send('VM.ALL_THREADS');
        return ctx.conn.send('TYPE.GET_METHODS', { typeId: t! });
      })
    ).value;
  }

  const invoke = (s: GameSession, methodId: number) =>
    s.run('call', 'test', (ctx) =>
      ctx.conn.send('VM.INVOKE_METHOD', {
        threadId: 1,
        flags: 0,
        methodId,
        thisArg: Values.null(),
        args: methodId === 5 ? [Values.null()] : [],
      }),
    );

  it('a generic instantiation the build lacks is GENERIC_INSTANTIATION_MISSING on IL2CPP', async () => {
    agent = invokableAgent();
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    const [make] = await methods(session);
    const e = await refusal(
      session.run('make', 'test', (ctx) =>
        ctx.conn.send('METHOD.MAKE_GENERIC_METHOD', { methodId: make!, typeArgIds: [7] }),
      ),
    );
    if (kind === 'il2cpp') {
      expect(e.code).toBe('GENERIC_INSTANTIATION_MISSING');
      expect(e.message).toMatch(/not in the IL2CPP build/);
      expect(e.details).toMatchObject({ runtime: 'il2cpp' });
    } else {
      expect(e.code).not.toBe('GENERIC_INSTANTIATION_MISSING');
    }
  });

  it('a Nullable<T> parameter is UNSUPPORTED_ON_IL2CPP there, with nothing sent; a plain invoke runs', async () => {
    agent = invokableAgent();
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    await methods(session);
    expect((await invoke(session, 6)).value).toMatchObject({ threw: false });
    const nullable = invoke(session, 5);
    if (kind === 'il2cpp') {
      const e = await refusal(nullable);
      expect(e.code).toBe('UNSUPPORTED_ON_IL2CPP');
      expect(e.message).toMatch(/Nullable<T>.*Instead:/);
      expect(agent.count('VM.INVOKE_METHOD')).toBe(1);
    } else {
      await nullable;
      expect(agent.count('VM.INVOKE_METHOD')).toBe(2);
    }
  });

  it('a method without AOT code throws in the game on IL2CPP', async () => {
    agent = invokableAgent();
    agent.model.noAotMethods.add(6);
    agent.model.executionEngineException = 0x5000;
    session = sessionOn(agent);
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: agent.port });
    await methods(session);
    const r = (await invoke(session, 6)).value;
    expect(r.threw).toBe(kind === 'il2cpp');
  });
});

describe('a game exception for code IL2CPP did not compile', () => {
  it('says what to call instead', () => {
    const e = Errors.gameException({
      type: 'System.ExecutionEngineException',
      message:
        "Attempting to call method 'Game.Probe::Make<System.Int64>' for which no ahead of time (AOT) code was generated.",
      stackTrace: '',
    });
    expect(e.code).toBe('GAME_EXCEPTION');
    expect(e.message).toMatch(/compiled ahead of time/);
    expect(
      Errors.gameException({ type: 'System.Exception', message: 'x', stackTrace: '' }).message,
    ).toBe('System.Exception: x');
  });
});
