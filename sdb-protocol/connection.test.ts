import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

import { PacketWriter } from './buffer-writer.js';
import { commands, type CommandName } from './commands/index.js';
import type { ConnectOptions } from './connection-options.js';
import { SdbConnection } from './connection.js';
import { encodeReplyPacket } from './framing.js';
import { FakeAgent, type FakeAgentOptions, type FakeTransportKind } from './testing/fake-agent.js';
import {
  ErrorCode,
  EventKind,
  HEADER_SIZE,
  InvokeFlags,
  REPLY_FLAG,
  SuspendPolicy,
  ValueTag,
} from './vocabulary.js';
import { Values } from './values.js';

let agent: FakeAgent | undefined;
let conn: SdbConnection | undefined;

afterEach(async () => {
  await conn?.close();
  await agent?.stop();
  conn = undefined;
  agent = undefined;
});

/** The transports every connection behaviour below is checked over. */
const transports: FakeTransportKind[] = ['socket', 'memory'];

async function startAgent(
  kind: FakeTransportKind,
  options: FakeAgentOptions = {},
): Promise<FakeAgent> {
  agent = await FakeAgent.create(kind, options);
  return agent;
}

/** Connects to the current agent, or to a fresh one over `kind`. */
async function connect(
  kind: FakeTransportKind = 'memory',
  opts: Partial<ConnectOptions> = {},
): Promise<SdbConnection> {
  agent ??= await FakeAgent.create(kind);
  conn = await agent.connect(opts);
  return conn;
}

/** An INVOKE reply body: the call returned normally with an I4 (or VOID). */
const returned = (n?: number): Buffer =>
  n === undefined
    ? new PacketWriter().u8(1).u8(ValueTag.VOID).body()
    : new PacketWriter().u8(1).u8(ValueTag.I4).i32(n).body();

const threadStartSet = (policy: number): Buffer =>
  new PacketWriter().u8(policy).i32(1).u8(EventKind.THREAD_START).i32(3).i32(42).body();

describe('SdbConnection.connect over TCP', () => {
  it('reports a refused connection clearly', async () => {
    const probe = await FakeAgent.start();
    const port = probe.port;
    await probe.stop();
    await expect(SdbConnection.connect({ port })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringMatching(/cannot connect to the debugger agent at 127\.0\.0\.1:\d+/),
    });
  });
});

describe.each(transports)('over %s', (kind) => {
  describe('opening', () => {
    it('handshakes, declares min(agent, 56), records VM_START and resumes a suspend=y start', async () => {
      const c = await connect(kind);
      expect(c.agent).toEqual({ description: 'fake mono', major: 2, minor: 54 });
      expect(c.version.toString()).toBe('2.54');
      const set = agent!.find('VM.SET_PROTOCOL_VERSION')!;
      expect([set.body.readInt32BE(0), set.body.readInt32BE(4)]).toEqual([2, 54]);
      expect(c.vmStart).toEqual({ threadId: 1, rootDomainId: 1 });
      expect(agent!.count('VM.RESUME')).toBe(1); // the RESUME after VM_START
      expect(c.suspendCount).toBe(0);
    });

    it('with keepStartSuspended, keeps a suspend=y start held as its own level, and resumes it on close', async () => {
      await startAgent(kind);
      agent!.suspendCount = 1; // suspend=y: the VM waits at VM_START
      agent!.on('APPDOMAIN.GET_ASSEMBLIES', () => ({
        body: new PacketWriter().i32(1).i32(1).body(), // the core library alone
      }));
      const c = await connect(kind, { keepStartSuspended: true });
      expect(c.startSuspended).toBe(true);
      expect(agent!.count('VM.RESUME')).toBe(0);
      expect(c.suspendCount).toBe(1);
      await c.close();
      expect(agent!.count('VM.RESUME')).toBe(1);
      expect(agent!.suspendCount).toBe(0);
    });

    it('with keepStartSuspended, still resumes a running game (its program loaded)', async () => {
      const c = await connect(kind, { keepStartSuspended: true });
      expect(c.startSuspended).toBe(false);
      expect(agent!.count('VM.RESUME')).toBe(1);
      expect(c.suspendCount).toBe(0);
    });

    it('declares 56 to a newer agent', async () => {
      await startAgent(kind, { minor: 58 });
      const c = await connect(kind);
      expect(c.version.toString()).toBe('2.56');
    });

    it('bounds the wait for a handshake that never comes', async () => {
      const a = await startAgent(kind, { handshake: false });
      const started = Date.now();
      await expect(a.connect({ handshakeTimeoutMs: 200 })).rejects.toMatchObject({
        code: 'HANDSHAKE_FAILED',
        message: expect.stringMatching(/sent no handshake within 200 ms/),
      });
      expect(Date.now() - started).toBeLessThan(10_000); // a hang check, not a speed check
    });

    it('keeps a connection the agent does not greet in time pending, and completes it when the agent answers late', async () => {
      const a = await startAgent(kind, { handshake: false });
      agent!.suspendCount = 1; // a suspend=y start, kept as with any connect
      agent!.on('APPDOMAIN.GET_ASSEMBLIES', () => ({
        body: new PacketWriter().i32(1).i32(1).body(),
      }));
      let late: Promise<SdbConnection> | undefined;
      await expect(
        a.connect({
          handshakeTimeoutMs: 100,
          keepStartSuspended: true,
          whenLate: (p) => {
            late = p;
          },
        }),
      ).rejects.toMatchObject({
        code: 'HANDSHAKE_FAILED',
        message: expect.stringMatching(/kept pending/),
      });
      expect(late).toBeDefined();
      // the transport stays open (a close would reach the agent within a few turns), unspoken to
      await new Promise((r) => setTimeout(r, 50));
      expect(a.peerClosed).toBe(false);
      expect(a.received).toEqual([]);
      a.greetLate();
      conn = await late!;
      expect(conn.version.toString()).toBe('2.54');
      expect(conn.startSuspended).toBe(true); // the same options as the connect
      expect(a.namesSince()).toEqual([
        'VM.VERSION',
        'VM.SET_PROTOCOL_VERSION',
        'APPDOMAIN.GET_ASSEMBLIES',
      ]);
      await conn.close();
      expect(a.namesSince(3)).toEqual(['VM.RESUME', 'VM.DISPOSE']);
      await a.whenPeerClosed();
    });

    it('rejects the late connection when the agent closes it before greeting it', async () => {
      const a = await startAgent(kind, { handshake: false });
      let late: Promise<SdbConnection> | undefined;
      await expect(
        a.connect({ handshakeTimeoutMs: 100, whenLate: (p) => void (late = p) }),
      ).rejects.toMatchObject({ code: 'HANDSHAKE_FAILED' });
      a.dropConnection();
      await expect(late).rejects.toMatchObject({
        code: 'HANDSHAKE_FAILED',
        message: expect.stringMatching(/closed the connection during the handshake/),
      });
    });

    it('without whenLate, closes the silent connection as before', async () => {
      const a = await startAgent(kind, { handshake: false });
      await expect(a.connect({ handshakeTimeoutMs: 100 })).rejects.toMatchObject({
        message: expect.stringMatching(/an earlier client left without VM.DISPOSE/),
      });
      await a.whenPeerClosed();
    });

    it('refuses a peer that is not a Mono agent', async () => {
      const a = await startAgent(kind, { handshake: 'HTTP/1.1 400 ' });
      await expect(a.connect()).rejects.toThrow(/is not a Mono debugger agent/);
    });

    it('bounds the wait for VM_START', async () => {
      const a = await startAgent(kind, { vmStart: false });
      await expect(a.connect({ handshakeTimeoutMs: 200 })).rejects.toMatchObject({
        code: 'HANDSHAKE_FAILED',
        message: expect.stringMatching(/sent no VM_START within 200 ms/),
      });
      expect(a.count('VM.DISPOSE')).toBe(1); // a failed start still leaves the agent usable
    });
  });

  describe('requests', () => {
    it('keeps many requests in flight and routes out-of-order replies by id', async () => {
      const a = await startAgent(kind);
      const held: { id: number; name: string }[] = [];
      a.on('THREAD.GET_NAME', (req, fake) => {
        held.push({ id: req.id, name: `t${req.body.readInt32BE(0)}` });
        if (held.length === 100) {
          for (const h of held.reverse())
            fake.reply(h.id, { body: new PacketWriter().string(h.name).body() });
        }
        return 'none';
      });
      const c = await connect(kind);
      for (let i = 0; i < 100; i++) c.knownIds.record('thread', i + 1);
      const names = await Promise.all(
        Array.from({ length: 100 }, (_, i) => c.send('THREAD.GET_NAME', { threadId: i + 1 })),
      );
      expect(names).toEqual(Array.from({ length: 100 }, (_, i) => `t${i + 1}`));
    });

    it('times out one request, naming the command and the bound, and keeps the connection', async () => {
      const a = await startAgent(kind);
      a.on('THREAD.GET_NAME', () => 'none');
      a.on('THREAD.GET_STATE', () => ({ body: new PacketWriter().i32(32).body() }));
      const c = await connect(kind);
      await expect(
        c.send('THREAD.GET_NAME', { threadId: 1 }, { timeoutMs: 50 }),
      ).rejects.toMatchObject({
        code: 'TIMEOUT',
        message: 'THREAD.GET_NAME got no reply within 50 ms',
      });
      await expect(c.send('THREAD.GET_STATE', { threadId: 1 })).resolves.toBe(32);
    });

    it('turns agent error codes into typed errors', async () => {
      const c = await connect(kind);
      agent!.on('OBJECT_REF.GET_TYPE', () => ({ error: ErrorCode.INVALID_OBJECT }));
      await expect(c.send('OBJECT_REF.GET_TYPE', { objectId: 99 })).rejects.toMatchObject({
        code: 'AGENT_ERROR',
        errorCode: ErrorCode.INVALID_OBJECT,
        errorName: 'INVALID_OBJECT',
        message: 'OBJECT_REF.GET_TYPE failed: INVALID_OBJECT (20)',
      });
    });

    it('gives a failed request the stack of the callers that awaited it', async () => {
      const c = await connect(kind);
      agent!.on('OBJECT_REF.GET_TYPE', () => ({ error: ErrorCode.INVALID_OBJECT }));
      async function typeOfGone(): Promise<unknown> {
        return await c.send('OBJECT_REF.GET_TYPE', { objectId: 99 });
      }
      let err: Error | undefined;
      try {
        await typeOfGone();
      } catch (e) {
        err = e as Error;
      }
      expect(err?.message).toMatch(/INVALID_OBJECT/);
      expect(err?.stack).toMatch(/^SdbAgentError: .*INVALID_OBJECT/);
      expect(err?.stack).toMatch(/at (async )?typeOfGone \(.*connection\.test\.ts/);
    });

    it('gives each request its own error when one failure ends many', async () => {
      const c = await connect(kind);
      agent!.on('THREAD.GET_NAME', () => ({ error: ErrorCode.INVALID_OBJECT }));
      const [a, b] = await Promise.all(
        [1, 2].map((threadId) =>
          c.send('THREAD.GET_NAME', { threadId }).catch((e: unknown) => e as Error),
        ),
      );
      expect(a).toBeInstanceOf(Error);
      expect(b).toBeInstanceOf(Error);
      expect(a).not.toBe(b);
    });

    it('rejects a malformed reply with a protocol error and stays usable', async () => {
      const c = await connect(kind);
      agent!.on('THREAD.GET_NAME', () => ({ body: Buffer.from([0, 0, 0, 99, 65]) }));
      agent!.on('THREAD.GET_STATE', () => ({ body: new PacketWriter().i32(4).body() }));
      await expect(c.send('THREAD.GET_NAME', { threadId: 1 })).rejects.toMatchObject({
        code: 'PROTOCOL_ERROR',
      });
      await expect(c.send('THREAD.GET_STATE', { threadId: 1 })).resolves.toBe(4);
    });

    it('rejects every pending request at once when the connection drops', async () => {
      const a = await startAgent(kind);
      a.on('THREAD.GET_NAME', () => 'none');
      const c = await connect(kind);
      const pending = Array.from({ length: 5 }, () => c.send('THREAD.GET_NAME', { threadId: 1 }));
      await a.next('THREAD.GET_NAME');
      a.dropConnection();
      const results = await Promise.allSettled(pending);
      for (const r of results) {
        expect(r.status).toBe('rejected');
        expect((r as PromiseRejectedResult).reason).toMatchObject({
          code: 'CONNECTION_CLOSED',
          message: expect.stringMatching(/closed the connection/),
        });
      }
      await expect(c.send('VM.VERSION')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });

    it('refuses commands newer than the negotiated version', async () => {
      await startAgent(kind, { minor: 45 });
      const c = await connect(kind);
      await expect(c.send('THREAD.ELAPSED_TIME', { threadId: 1 })).rejects.toMatchObject({
        code: 'UNSUPPORTED',
        message: expect.stringMatching(/needs protocol 2\.50.*speaks 2\.45/),
      });
    });
  });

  describe('events', () => {
    it('delivers event sets to subscribers, after the replies of the same chunk', async () => {
      const a = await startAgent(kind);
      a.on('THREAD.GET_STATE', (req, fake) => {
        // the event and the reply leave in one write
        const event = fake.eventPacket(threadStartSet(SuspendPolicy.NONE));
        const reply = encodeReplyPacket(req.id, ErrorCode.NONE, new PacketWriter().i32(7).body());
        fake.sendRaw(Buffer.concat([event, reply]));
        return 'none';
      });
      const c = await connect(kind);
      const order: string[] = [];
      c.onEvent(() => {
        throw new Error('a broken listener must not break the connection');
      });
      c.onEvent((set) => order.push(`event ${set.events[0]!.kind}`));
      const state = c
        .send('THREAD.GET_STATE', { threadId: 1 })
        .then((s) => order.push(`reply ${s}`));
      await state;
      await c.waitForEvent(() => true, 1000).catch(() => undefined);
      await new Promise((r) => setImmediate(r));
      expect(order).toEqual(['reply 7', 'event THREAD_START']);
    });

    it('counts suspensions from ALL-policy event sets and resumes each on close, then disposes', async () => {
      const c = await connect(kind);
      await c.send('VM.SUSPEND');
      agent!.suspendCount++; // the agent raises its count before sending an ALL set
      agent!.sendEvent(threadStartSet(SuspendPolicy.ALL));
      await c.waitForEvent((s) => s.suspendPolicy === SuspendPolicy.ALL, 1000);
      expect(c.suspendCount).toBe(2);
      const before = agent!.received.length;
      await c.close();
      expect(agent!.namesSince(before)).toEqual(['VM.RESUME', 'VM.RESUME', 'VM.DISPOSE']);
      expect(agent!.suspendCount).toBe(0);
    });

    it('tells close listeners that this client closed it, not the agent', async () => {
      const c = await connect(kind);
      const reasons: string[] = [];
      c.onClose((reason) => reasons.push(reason.message));
      await c.close();
      expect(reasons).toEqual([expect.stringMatching(/was closed by this client/)]);
      expect(c.closeReason?.message).toMatch(/was closed by this client/);
    });

    it('still sends RESUME and DISPOSE when the stream turns out corrupt', async () => {
      const c = await connect(kind);
      await c.send('VM.SUSPEND');
      agent!.on('THREAD.GET_NAME', () => 'none');
      const pending = c.send('THREAD.GET_NAME', { threadId: 1 });
      await agent!.next('THREAD.GET_NAME');
      const dispose = agent!.next('VM.DISPOSE');
      // a reply header whose length (3) is shorter than a header
      const corrupt = Buffer.alloc(HEADER_SIZE);
      corrupt.writeInt32BE(3, 0);
      corrupt[8] = REPLY_FLAG;
      agent!.sendRaw(corrupt);
      await expect(pending).rejects.toMatchObject({
        code: 'CONNECTION_CLOSED',
        message: expect.stringMatching(/dropped/),
      });
      await dispose;
      expect(agent!.count('VM.RESUME')).toBe(2); // the start-up RESUME and ours
    });
  });

  describe('invokes at close', () => {
    it('aborts an invoke still running before it disposes, so the game is not left frozen', async () => {
      const c = await connect(kind);
      c.knownIds.record('method', 5);
      let invokeId = 0;
      agent!.on('VM.INVOKE_METHOD', (req) => {
        invokeId = req.id;
        return 'none';
      });
      agent!.on('VM.ABORT_INVOKE', (req, a) => {
        expect(req.body.readInt32BE(4)).toBe(invokeId);
        a.reply(invokeId, {
          error: ErrorCode.INVOKE_ABORTED,
          body: new PacketWriter().u8(0).u8(ValueTag.CLASS).i32(4).body(),
        });
        return {};
      });
      const running = c.send('VM.INVOKE_METHOD', {
        threadId: 1,
        flags: InvokeFlags.NONE,
        methodId: 5,
        thisArg: Values.null(),
        args: [],
      });
      await agent!.next('VM.INVOKE_METHOD');
      const order: string[] = [];
      const closing = c.close().then(() => order.push('closed'));
      await expect(running).rejects.toMatchObject({
        errorCode: ErrorCode.INVOKE_ABORTED,
        message: 'VM.INVOKE_METHOD failed: INVOKE_ABORTED (107)',
      });
      await closing;
      const sent = agent!.namesSince();
      expect(sent.indexOf('VM.ABORT_INVOKE')).toBeGreaterThan(sent.indexOf('VM.INVOKE_METHOD'));
      expect(sent.indexOf('VM.ABORT_INVOKE')).toBeLessThan(sent.indexOf('VM.DISPOSE'));
      expect(order).toEqual(['closed']);
    });
  });

  describe('VM.INVOKE_METHODS', () => {
    it('skips the early empty reply and collects one result per call', async () => {
      const c = await connect(kind);
      agent!.on('VM.INVOKE_METHODS', (req) => {
        const n = req.body.readInt32BE(8);
        const replies = [{}];
        for (let i = 0; i < n; i++) replies.push({ body: returned(i * 10) });
        return replies;
      });
      const calls = [0, 1, 2].map(() => ({ methodId: 0, thisArg: Values.null(), args: [] }));
      c.knownIds.record('method', 5);
      const results = await c.send('VM.INVOKE_METHODS', {
        threadId: 1,
        flags: InvokeFlags.DISABLE_BREAKPOINTS,
        calls: calls.map((x) => ({ ...x, methodId: 5 })),
      });
      expect(results).toEqual([0, 10, 20].map((n) => ({ threw: false, result: Values.i4(n) })));
    });

    it('accepts the acknowledgement anywhere among the replies (it races the invoking thread)', async () => {
      const c = await connect(kind);
      agent!.on('VM.INVOKE_METHODS', () => [{ body: returned(1) }, {}, { body: returned(2) }]);
      c.knownIds.record('method', 5);
      const results = await c.send('VM.INVOKE_METHODS', {
        threadId: 1,
        flags: InvokeFlags.NONE,
        calls: [1, 2].map(() => ({ methodId: 5, thisArg: Values.null(), args: [] })),
      });
      expect(results).toEqual([1, 2].map((n) => ({ threw: false, result: Values.i4(n) })));
    });

    it('reports the first failing call', async () => {
      const c = await connect(kind);
      agent!.on('VM.INVOKE_METHODS', () => [
        {},
        { body: returned() },
        { error: ErrorCode.NOT_SUSPENDED },
        { error: ErrorCode.NOT_SUSPENDED },
      ]);
      c.knownIds.record('method', 5);
      await expect(
        c.send('VM.INVOKE_METHODS', {
          threadId: 1,
          flags: InvokeFlags.NONE,
          calls: [1, 2, 3].map(() => ({ methodId: 5, thisArg: Values.null(), args: [] })),
        }),
      ).rejects.toThrow('VM.INVOKE_METHODS (call 2 of 3) failed: NOT_SUSPENDED (101)');
    });
  });
});

describe('guards against requests that crash or wedge the game', () => {
  it('refuses GET_FRAME_INFO while nothing is suspended, without sending it', async () => {
    const c = await connect();
    await expect(c.send('THREAD.GET_FRAME_INFO', { threadId: 1 })).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    expect(agent!.count('THREAD.GET_FRAME_INFO')).toBe(0);
  });

  it('checks array ranges against the length, fetched once per array', async () => {
    const c = await connect();
    agent!.on('ARRAY_REF.GET_LENGTH', () => ({
      body: new PacketWriter().i32(1).i32(3).i32(0).body(),
    }));
    agent!.on('ARRAY_REF.GET_VALUES', (req) => {
      const n = req.body.readInt32BE(8);
      const w = new PacketWriter();
      for (let i = 0; i < n; i++) w.u8(ValueTag.I4).i32(i);
      return { body: w.body() };
    });
    await expect(
      c.send('ARRAY_REF.GET_VALUES', { arrayId: 5, index: 1, count: 3 }),
    ).rejects.toThrow(/outside the array's 3 element/);
    await expect(
      c.send('ARRAY_REF.GET_VALUES', { arrayId: 5, index: 0, count: 3 }),
    ).resolves.toHaveLength(3);
    expect(agent!.count('ARRAY_REF.GET_LENGTH')).toBe(1);
    expect(agent!.count('ARRAY_REF.GET_VALUES')).toBe(1);
  });

  it('refuses ids the agent never handed out, and id 0', async () => {
    const c = await connect();
    await expect(c.send('TYPE.GET_INFO', { typeId: 1234 })).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    await expect(c.send('METHOD.GET_NAME', { methodId: 0 })).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    // a non-thread object where a thread is expected crashes the agent
    await expect(c.send('THREAD.GET_NAME', { threadId: 77 })).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    expect(
      agent!.count('TYPE.GET_INFO') +
        agent!.count('METHOD.GET_NAME') +
        agent!.count('THREAD.GET_NAME'),
    ).toBe(0);
  });

  it('refuses negative string ranges and ranges past the end', async () => {
    const c = await connect();
    agent!.on('STRING_REF.GET_LENGTH', () => ({ body: new PacketWriter().i64(5).body() }));
    await expect(
      c.send('STRING_REF.GET_CHARS', { objectId: 3, index: -2, count: 1 }),
    ).rejects.toMatchObject({
      code: 'UNSAFE_REQUEST',
    });
    await expect(
      c.send('STRING_REF.GET_CHARS', { objectId: 3, index: 4, count: 2 }),
    ).rejects.toThrow(/outside the string's 5 char/);
    expect(agent!.count('STRING_REF.GET_CHARS')).toBe(0);
  });

  it('refuses to box a value as a reference type', async () => {
    const c = await connect();
    c.knownIds.record('type', 9);
    const info = new PacketWriter().string('Game').string('Node').string('Game.Node');
    info.i32(0).i32(0).i32(0).i32(0).i32(0).u8(0).i32(0).u8(0).i32(0).i32(0).i32(0);
    agent!.on('TYPE.GET_INFO', () => ({ body: info.body() }));
    await expect(
      c.send('APPDOMAIN.CREATE_BOXED_VALUE', { domainId: 1, typeId: 9, value: Values.i4(1) }),
    ).rejects.toThrow(/not a value type/);
    expect(agent!.count('APPDOMAIN.CREATE_BOXED_VALUE')).toBe(0);
  });

  it('writes SET_VALUES as interleaved (id, value) pairs', async () => {
    const c = await connect();
    c.knownIds.record('type', 2);
    c.knownIds.record('field', 5);
    c.knownIds.record('field', 6);
    agent!.on('TYPE.SET_VALUES', () => ({}));
    await c.send('TYPE.SET_VALUES', {
      typeId: 2,
      writes: [
        { fieldId: 5, value: Values.i4(7) },
        { fieldId: 6, value: Values.bool(true) },
      ],
    });
    const req = agent!.find('TYPE.SET_VALUES')!;
    expect(req.body.toString('hex')).toBe(
      '00000002' + '00000002' + '00000005' + '0800000007' + '00000006' + '0200000001',
    );
  });

  it('refuses generic-instance names in VM.GET_TYPES', async () => {
    const c = await connect();
    await expect(
      c.send('VM.GET_TYPES', {
        name: 'System.Collections.Generic.List`1[System.Int32]',
        ignoreCase: false,
      }),
    ).rejects.toThrow(/crash the game/);
  });

  it('refuses EVENT_THREAD policy and breakpoints without a location', async () => {
    const c = await connect();
    await expect(
      c.send('EVENT_REQUEST.SET', {
        eventKind: EventKind.THREAD_START,
        suspendPolicy: SuspendPolicy.EVENT_THREAD as 0,
      }),
    ).rejects.toThrow(/EVENT_THREAD/);
    await expect(
      c.send('EVENT_REQUEST.SET', {
        eventKind: EventKind.BREAKPOINT,
        suspendPolicy: SuspendPolicy.ALL,
      }),
    ).rejects.toThrow(/without a location_only/);
  });
});

describe('decoders against random replies (property)', () => {
  it('every command either decodes or fails with a typed error, and the connection survives', async () => {
    agent = FakeAgent.inMemory();
    let body: Uint8Array = new Uint8Array();
    // lifecycle commands keep the connection up; INVOKE_METHODS waits for one reply per call
    // (tested above)
    const lifecycle = [
      'VM.INVOKE_METHODS',
      'VM.VERSION',
      'VM.SET_PROTOCOL_VERSION',
      'VM.DISPOSE',
      'VM.SUSPEND',
      'VM.RESUME',
      'VM.EXIT',
    ];
    const names = (Object.keys(commands) as CommandName[]).filter((n) => !lifecycle.includes(n));
    for (const n of names) agent.on(n, () => ({ body }));
    const c = await connect();
    for (const k of [
      'type',
      'method',
      'field',
      'property',
      'assembly',
      'module',
      'domain',
    ] as const) {
      c.knownIds.record(k, 1);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.uint8Array({ maxLength: 64 }),
        async (name, bytes) => {
          body = bytes;
          try {
            await (c.send as (n: string, p: unknown, o: unknown) => Promise<unknown>)(
              name,
              sampleParams,
              {
                timeoutMs: 2000,
              },
            );
          } catch (e) {
            expect(['PROTOCOL_ERROR', 'UNSAFE_REQUEST']).toContain((e as { code?: string }).code);
          }
        },
      ),
      { numRuns: 1500 },
    );
    await expect(c.send('VM.VERSION')).resolves.toMatchObject({ major: 2 });
    expect(c.isClosed).toBe(false);
  });
});

/** One object with every parameter any command reads, all referring to id 1. */
const sampleParams = {
  objectId: 1,
  threadId: 1,
  frameId: 1,
  typeId: 1,
  methodId: 1,
  fieldId: 1,
  arrayId: 1,
  domainId: 1,
  assemblyId: 1,
  moduleId: 1,
  propertyId: 1,
  otherTypeId: 1,
  pointerTypeId: 1,
  attributeTypeId: 0,
  requestId: 1,
  invokeId: 1,
  exitCode: 0,
  major: 2,
  minor: 54,
  fieldIds: [1, 1],
  positions: [0, -1],
  index: 0,
  count: 1,
  interfaceIds: [1],
  typeArgIds: [1],
  values: [Values.i4(1)],
  writes: [],
  name: 'A.B',
  file: 'a.cs',
  ignoreCase: false,
  flags: InvokeFlags.NONE,
  thisArg: Values.null(),
  args: [Values.i4(1)],
  calls: [{ methodId: 1, thisArg: Values.null(), args: [] }],
  eventKind: EventKind.THREAD_START,
  suspendPolicy: SuspendPolicy.NONE,
  modifiers: [],
  value: Values.i4(1),
  text: 'x',
  bytes: new Uint8Array([1, 2]),
  token: 0x06000001,
  address: 0n,
  ilOffset: 0,
};
