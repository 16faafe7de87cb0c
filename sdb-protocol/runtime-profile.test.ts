// The runtime profile: chosen from VM.VERSION, and its refusals applied before anything is sent,
// against the scripted agent answering as each runtime (testing/fake-profiles.ts). After every
// case the agent has received nothing its runtime must never receive.

import { afterEach, describe, expect, it } from 'vitest';

import { PacketWriter } from './buffer-writer.js';
import type { SdbConnection } from './connection.js';
import { SdbAgentError, SdbUnsupportedOnRuntimeError } from './errors.js';
import { profileOf, type RuntimeKind } from './runtime-profile.js';
import { FakeAgent } from './testing/fake-agent.js';
import {
  ErrorCode,
  EventKind,
  InvokeFlags,
  StepDepth,
  StepSize,
  SuspendPolicy,
  ValueTag,
} from './vocabulary.js';
import { Values } from './values.js';

let agent: FakeAgent | undefined;
let conn: SdbConnection | undefined;

afterEach(async () => {
  await conn?.close();
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  conn = agent = undefined;
});

async function connectAs(profile: RuntimeKind): Promise<{ a: FakeAgent; c: SdbConnection }> {
  agent = FakeAgent.inMemory({ profile });
  conn = await agent.connect();
  return { a: agent, c: conn };
}

const PROFILES: RuntimeKind[] = ['debian-mono', 'unity-mono', 'il2cpp'];

/** The error `p` rejects with (a fulfilled promise fails the test). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('profileOf', () => {
  it.each([
    ['mono 0.0 (IL2CPP)', 58, 'il2cpp'],
    ['mono 0.0 (IL2CPP)', 46, 'il2cpp'],
    [
      'mono 6.8.0.105 (Debian 6.8.0.105+dfsg-3.3+deb12u1 Sat Jun 21 16:33:59 UTC 2025)',
      54,
      'debian-mono',
    ],
    ['mono 6.13.0 (explicit/12345)', 58, 'unity-mono'],
    ['mono 5.11.0 (Unity)', 45, 'unity-mono'],
  ] as const)('%s, 2.%i → %s', (description, minor, kind) => {
    expect(profileOf({ description, minor }).kind).toBe(kind);
  });
});

describe.each(PROFILES)('against a %s agent', (profile) => {
  it('chooses the profile from the handshake', async () => {
    const { c } = await connectAs(profile);
    expect(c.runtime.kind).toBe(profile);
    expect(c.runtime.limits.length > 0).toBe(profile !== 'debian-mono');
  });

  it('METHOD.GET_BODY, THREAD.SET_IP and the metadata blob reach the agent except on IL2CPP', async () => {
    const { a, c } = await connectAs(profile);
    c.knownIds.record('method', 5);
    c.knownIds.record('thread', 1);
    c.knownIds.record('assembly', 1);
    a.on('METHOD.GET_BODY', () => ({ body: new PacketWriter().i32(1).u8(0x2a).i32(0).body() }));
    const sent = [
      c.send('METHOD.GET_BODY', { methodId: 5 }),
      c.send('THREAD.SET_IP', { threadId: 1, methodId: 5, ilOffset: 0 }),
      c.send('ASSEMBLY.GET_METADATA_BLOB', { assemblyId: 1 }),
    ];
    const outcomes = await Promise.allSettled(sent);
    if (profile === 'il2cpp') {
      for (const o of outcomes) {
        expect(o.status).toBe('rejected');
        const e = (o as PromiseRejectedResult).reason as SdbUnsupportedOnRuntimeError;
        expect(e).toBeInstanceOf(SdbUnsupportedOnRuntimeError);
        expect(e.runtime).toBe('il2cpp');
        expect(e.message).toContain('Instead:');
      }
      expect(a.namesSince()).not.toContain('METHOD.GET_BODY');
      expect(a.namesSince()).not.toContain('THREAD.SET_IP');
      expect(a.namesSince()).not.toContain('ASSEMBLY.GET_METADATA_BLOB');
    } else {
      expect(outcomes[0]!.status).toBe('fulfilled');
      expect(a.count('METHOD.GET_BODY')).toBe(1);
      expect(a.count('THREAD.SET_IP')).toBe(1);
      expect(a.count('ASSEMBLY.GET_METADATA_BLOB')).toBe(1);
    }
  });

  it('an invoke with a Nullable<T> parameter is refused on IL2CPP only, asked once per method', async () => {
    const { a, c } = await connectAs(profile);
    c.knownIds.record('method', 5);
    c.knownIds.record('thread', 1);
    a.model.nullableParamMethods.add(5);
    // Set(int a, int? b): parameter types 11 and 12
    a.on('METHOD.GET_PARAM_INFO', () => ({
      body: new PacketWriter()
        .i32(0)
        .i32(2)
        .i32(0)
        .i32(10)
        .i32(11)
        .i32(12)
        .string('a')
        .string('b')
        .body(),
    }));
    a.on('TYPE.GET_INFO', (p) => {
      const id = p.body.readInt32BE(0);
      const name = id === 12 ? 'System.Nullable`1[[System.Int32, mscorlib]]' : 'System.Int32';
      const w = new PacketWriter().string('System').string(name).string(name);
      w.i32(1).i32(1).i32(0).i32(0).i32(0x02000001).u8(0).i32(0).u8(8).i32(0).i32(0).i32(0);
      return { body: w.body() };
    });
    a.on('VM.INVOKE_METHOD', () => ({
      body: new PacketWriter().u8(1).u8(ValueTag.VOID).body(),
    }));
    const call = (): Promise<unknown> =>
      c.send('VM.INVOKE_METHOD', {
        threadId: 1,
        flags: InvokeFlags.NONE,
        methodId: 5,
        thisArg: Values.null(),
        args: [Values.i4(1), Values.null()],
      });
    if (profile !== 'il2cpp') {
      await call();
      expect(a.count('VM.INVOKE_METHOD')).toBe(1);
      expect(a.count('METHOD.GET_PARAM_INFO')).toBe(0); // nothing extra asked where it is safe
      return;
    }
    for (let i = 0; i < 2; i++) {
      const e = (await rejection(call())) as SdbUnsupportedOnRuntimeError;
      expect(e).toBeInstanceOf(SdbUnsupportedOnRuntimeError);
      expect(e.feature).toBe('nullable-argument');
      expect(e.command).toContain('parameter 2');
    }
    expect(a.count('VM.INVOKE_METHOD')).toBe(0);
    expect(a.count('METHOD.GET_PARAM_INFO')).toBe(1);
  });

  it('MAKE_GENERIC_METHOD refused by the agent: a missing instantiation on IL2CPP, the agent error elsewhere', async () => {
    const { a, c } = await connectAs(profile);
    c.knownIds.record('method', 5);
    c.knownIds.record('type', 7);
    a.on('METHOD.MAKE_GENERIC_METHOD', () => ({ error: ErrorCode.INVALID_ARGUMENT }));
    const e = await rejection(
      c.send('METHOD.MAKE_GENERIC_METHOD', { methodId: 5, typeArgIds: [7] }),
    );
    if (profile === 'il2cpp') {
      expect(e).toBeInstanceOf(SdbUnsupportedOnRuntimeError);
      expect((e as SdbUnsupportedOnRuntimeError).feature).toBe('generic-instantiation');
      expect((e as Error).cause).toBeInstanceOf(SdbAgentError);
    } else {
      expect(e).toBeInstanceOf(SdbAgentError);
    }
  });

  it('a step out of the outermost frame gives request id 0 where the agent makes none (IL2CPP)', async () => {
    const { a, c } = await connectAs(profile);
    c.knownIds.record('thread', 1);
    a.model.frameCounts.set(1, 1);
    a.on('EVENT_REQUEST.SET', () => ({ body: new PacketWriter().i32(77).body() }));
    const id = await c.send('EVENT_REQUEST.SET', {
      eventKind: EventKind.STEP,
      suspendPolicy: SuspendPolicy.ALL,
      modifiers: [
        { kind: 'step', threadId: 1, size: StepSize.LINE, depth: StepDepth.OUT, filter: 0 },
      ],
    });
    expect(id).toBe(profile === 'il2cpp' ? 0 : 77);
  });

  it('VM.RESUME with nothing suspended: success on Unity Mono, NOT_SUSPENDED elsewhere', async () => {
    const { c } = await connectAs(profile);
    const outcome = await Promise.allSettled([c.send('VM.RESUME')]);
    expect(outcome[0].status).toBe(profile === 'unity-mono' ? 'fulfilled' : 'rejected');
    expect(c.suspendCount).toBe(0);
  });

  it("APPDOMAIN.GET_ENTRY_ASSEMBLY is refused before sending on Unity's Mono backend", async () => {
    const { a, c } = await connectAs(profile);
    c.knownIds.record('domain', 1);
    a.on('APPDOMAIN.GET_ENTRY_ASSEMBLY', () => ({ body: new PacketWriter().i32(3).body() }));
    const outcome = await Promise.allSettled([
      c.send('APPDOMAIN.GET_ENTRY_ASSEMBLY', { domainId: 1 }),
    ]);
    if (profile === 'unity-mono') {
      expect((outcome[0] as PromiseRejectedResult).reason).toBeInstanceOf(
        SdbUnsupportedOnRuntimeError,
      );
      expect(a.count('APPDOMAIN.GET_ENTRY_ASSEMBLY')).toBe(0);
    } else {
      expect(outcome[0].status).toBe('fulfilled');
    }
  });
});

describe('the fake agent records what a runtime must never receive', () => {
  it('an IL2CPP agent drops the connection on METHOD.GET_BODY sent past the guards', async () => {
    agent = FakeAgent.inMemory({ profile: 'il2cpp' });
    const t = agent.openTransport();
    // a raw METHOD.GET_BODY packet (set 22, command 7), as a client without the profile would send
    const packet = Buffer.alloc(15);
    packet.writeInt32BE(15, 0);
    packet.writeInt32BE(1, 4);
    packet[9] = 22;
    packet[10] = 7;
    packet.writeInt32BE(5, 11);
    const closed = new Promise<void>((resolve) => t.onClose(() => resolve()));
    t.onData(() => undefined);
    t.write(Buffer.from('DWP-Handshake', 'latin1'));
    t.write(packet);
    await closed;
    expect(agent.violations.map((v) => v.command)).toEqual(['METHOD.GET_BODY']);
    agent.violations.length = 0; // seen: the afterEach check is for the client's tests
  });
});
