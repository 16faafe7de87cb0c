// The wire client against the real Mono agent: threads, types, methods, invokes on the parked
// main thread, events, and leaving the game able to take the next debugger.

import { describe, expect, it } from 'vitest';

import {
  ErrorCode,
  EventKind,
  InvokeFlags,
  SdbConnection,
  SuspendPolicy,
  Values,
  invokeWhenParked,
  isAgentError,
  type Value,
} from '../sdb-protocol/index.js';
import { startFixture } from '../fixtures/launch.js';
import { useAttachedFixture } from './support/attached-fixture.js';
import { expectReturned, nullThis } from './support/mirror.js';

const g = useAttachedFixture();

const P = 'Game.Probe';

/** The fixture's frame counter, a plain static field (no invoke needed). */
async function frames(): Promise<bigint> {
  const v = await g.m.static('FixtureEngine.Hitch', 'Frames');
  if (v.kind !== 'i8') throw new Error(`Hitch.Frames is ${JSON.stringify(v)}`);
  return v.value;
}

/** Suspends, runs `fn` with the parked main thread, and always resumes. */
async function withSuspended<T>(fn: (main: number) => Promise<T>): Promise<T> {
  const main = await g.m.mainThread();
  await g.conn.send('VM.SUSPEND');
  try {
    return await fn(main);
  } finally {
    await g.conn.send('VM.RESUME');
  }
}

async function invoke(
  main: number,
  methodId: number,
  thisArg: Value,
  args: Value[],
  flags: number = InvokeFlags.DISABLE_BREAKPOINTS,
) {
  return (
    await invokeWhenParked(
      g.conn,
      { threadId: main, flags, methodId, thisArg, args },
      { parkTimeoutMs: 2000 },
    )
  ).result;
}

describe('connection facts', () => {
  it('negotiates 2.54 with Debian Mono 6.8 and records VM_START', () => {
    expect(g.conn.agent.description).toMatch(/^mono 6\.8/);
    expect(g.conn.version.toString()).toBe('2.54');
    expect(g.conn.vmStart?.rootDomainId).toBeGreaterThan(0);
  });

  it('lists the assemblies of the root domain by name', async () => {
    const domain = await g.conn.send('APPDOMAIN.GET_ROOT_DOMAIN');
    const assemblies = await g.conn.send('APPDOMAIN.GET_ASSEMBLIES', { domainId: domain });
    const names = await Promise.all(
      assemblies.map((a) => g.conn.send('ASSEMBLY.GET_NAME', { assemblyId: a })),
    );
    for (const expected of [
      'mscorlib',
      'Assembly-CSharp',
      'UnityEngine.CoreModule',
      'Unity.Entities',
      'Unity.Mathematics',
    ]) {
      expect(
        names.some((n) => n.startsWith(`${expected},`)),
        expected,
      ).toBe(true);
    }
  });
});

describe('threads', () => {
  it("lists threads with names and finds the main thread (unnamed like Unity's, running the frame loop)", async () => {
    const threads = await g.conn.send('VM.ALL_THREADS');
    const names = await Promise.all(
      threads.map((t) => g.conn.send('THREAD.GET_NAME', { threadId: t })),
    );
    expect(names).toContain('Job.Worker 0');
    const main = await g.m.mainThread();
    await withSuspended(async () => {
      const fs = await g.conn.send('THREAD.GET_FRAME_INFO', { threadId: main });
      const methodNames = await Promise.all(
        fs.map((f) => g.conn.send('METHOD.GET_NAME', { methodId: f.methodId })),
      );
      expect(methodNames.at(-1)).toBe('Main');
    });
    expect(await g.conn.send('THREAD.GET_TID', { threadId: main })).toBeGreaterThan(0n);
  });

  it('finds the main thread by name when the player names it', async () => {
    const named = await startFixture({ entities: 10, args: ['--name-main-thread', 'Main Thread'] });
    const c = await SdbConnection.connect({ port: named.sdbPort });
    try {
      const threads = await c.send('VM.ALL_THREADS');
      const names = await Promise.all(
        threads.map((t) => c.send('THREAD.GET_NAME', { threadId: t })),
      );
      expect(names.filter((n) => n === 'Main Thread')).toHaveLength(1);
    } finally {
      await c.close();
      await named.stop();
    }
  });
});

describe('types and members', () => {
  it('finds types by full name, nested name and per assembly; a miss is empty', async () => {
    expect(await g.m.typeName(await g.m.type(P))).toBe(P);
    expect(
      await g.conn.send('VM.GET_TYPES', { name: 'Game.NoSuchType', ignoreCase: false }),
    ).toEqual([]);
    expect(
      await g.conn.send('VM.GET_TYPES', { name: 'game.probe', ignoreCase: true }),
    ).toHaveLength(1);
    const nested = await g.conn.send('VM.GET_TYPES', {
      name: 'Unity.Entities.World+NoAllocReadOnlyCollection`1',
      ignoreCase: false,
    });
    expect(nested).toHaveLength(1);
    const info = await g.conn.send('TYPE.GET_INFO', { typeId: await g.m.type(P) });
    expect(
      await g.conn.send('ASSEMBLY.GET_TYPE', {
        assemblyId: info.assemblyId,
        name: P,
        ignoreCase: false,
      }),
    ).toBe(await g.m.type(P));
    expect(
      await g.conn.send('ASSEMBLY.GET_TYPE', {
        assemblyId: info.assemblyId,
        name: 'Nope',
        ignoreCase: false,
      }),
    ).toBe(0);
  });

  it('describes a generic instance through a field type', async () => {
    const f = await g.m.field(P, 'SList');
    const info = await g.conn.send('TYPE.GET_INFO', { typeId: f.typeId });
    expect(info.fullName).toMatch(/^System\.Collections\.Generic\.List`1\[\[System\.Int32/);
    expect(info.typeArgIds).toHaveLength(1);
    expect(await g.m.typeName(info.typeArgIds[0]!)).toBe('System.Int32');
  });

  it('lists overloads with their parameter names and types', async () => {
    const ids = await g.m.methods(P, 'Over');
    expect(ids).toHaveLength(5);
    const sigs = await Promise.all(
      ids.map(async (id) => {
        const p = await g.conn.send('METHOD.GET_PARAM_INFO', { methodId: id });
        return `${p.paramNames[0]}:${await g.m.typeName(p.paramTypeIds[0]!)}->${await g.m.typeName(p.returnTypeId)}`;
      }),
    );
    expect(sigs.sort()).toEqual(
      [
        'o:System.Object',
        's:System.String',
        'x:System.Double',
        'x:System.Int32',
        'x:System.Int64',
      ].map((s) => `${s}->System.String`),
    );
  });

  it('reads properties, method info, line tables and locals of game code', async () => {
    const props = await g.conn.send('TYPE.GET_PROPERTIES', { typeId: await g.m.type(P) });
    expect(props.map((p) => p.name)).toEqual(
      expect.arrayContaining(['SProp', 'SAutoProp', 'Prop', 'AutoProp']),
    );
    const echo = await g.m.method(P, 'Echo');
    expect(await g.conn.send('METHOD.GET_INFO', { methodId: echo })).toMatchObject({
      isGenericDefinition: true,
    });
    const tick = await g.m.method('Game.Ticker', 'Tick');
    const dbg = await g.conn.send('METHOD.GET_DEBUG_INFO', { methodId: tick });
    expect(dbg.files[0]?.path).toMatch(/Ticker\.cs$/);
    expect(dbg.points.length).toBeGreaterThan(3);
    const locals = await g.conn.send('METHOD.GET_LOCALS_INFO', { methodId: tick });
    expect(locals.locals.length).toBeGreaterThan(0);
    expect((await g.conn.send('METHOD.GET_PARAM_INFO', { methodId: tick })).paramNames).toEqual([
      'frame',
    ]);
  });
});

describe('invokes on the parked main thread', () => {
  it('waits for the main thread to leave native code, within a bound', async () => {
    await withSuspended(async (main) => {
      const add = await g.m.method(P, 'Add');
      const r = await invokeWhenParked(
        g.conn,
        {
          threadId: main,
          flags: InvokeFlags.DISABLE_BREAKPOINTS,
          methodId: add,
          thisArg: nullThis,
          args: [Values.i4(2), Values.i4(3)],
        },
        { parkTimeoutMs: 2000 },
      );
      expect(expectReturned(r.result)).toEqual(Values.i4(5));
      expect(r.waitedMs).toBeLessThanOrEqual(2000); // reported, and within the bound asked for
    });
  });

  it('reports a clear error when the main thread stays in native code past the bound, and nothing ran', async () => {
    const before = await g.m.static(P, 'SCounter');
    await g.m.setStatic('Game.Control', 'WedgeMs', Values.i4(1500));
    await new Promise((r) => setTimeout(r, 100)); // let the main thread enter its long native wait
    await withSuspended(async (main) => {
      const inc = await g.m.method(P, 'IncrementCounter');
      await expect(
        invokeWhenParked(
          g.conn,
          { threadId: main, flags: 1, methodId: inc, thisArg: nullThis, args: [] },
          { parkTimeoutMs: 300 },
        ),
      ).rejects.toMatchObject({
        code: 'NOT_PARKED',
        message: expect.stringMatching(/did not reach managed code in 300 ms/),
      });
    });
    expect(await g.m.static(P, 'SCounter')).toEqual(before);
  });

  it('invokes static, instance, property getter, virtual and struct methods', async () => {
    await withSuspended(async (main) => {
      const inst = await g.m.static(P, 'Instance');
      expect(
        expectReturned(
          await invoke(main, await g.m.method(P, 'InstanceAdd'), inst, [Values.i4(8)]),
        ),
      ).toEqual(Values.i4(50));
      expect(expectReturned(await invoke(main, await g.m.method(P, 'get_Prop'), inst, []))).toEqual(
        Values.i4(84),
      );
      expect(
        expectReturned(await invoke(main, await g.m.method(P, 'get_SProp'), nullThis, [])),
      ).toEqual(Values.i4(-123456788));
      const derived = await g.m.static(P, 'SDerived');
      const describe_ = await g.m.method(P, 'Describe');
      const virt = expectReturned(
        await invoke(
          main,
          describe_,
          derived,
          [],
          InvokeFlags.DISABLE_BREAKPOINTS | InvokeFlags.VIRTUAL,
        ),
      );
      expect(await g.m.string(virt)).toBe('DerivedProbe');
      const point = await g.m.static(P, 'SPoint');
      expect(
        expectReturned(await invoke(main, await g.m.method('Game.Point', 'Sum'), point, [])),
      ).toEqual(Values.i4(7));
    });
  });

  it('returns the mutated receiver of a struct method with RETURN_OUT_THIS, and writes nothing back', async () => {
    await withSuspended(async (main) => {
      const point = await g.m.static(P, 'SPoint');
      const r = await invoke(
        main,
        await g.m.method('Game.Point', 'Translate'),
        point,
        [Values.i4(10), Values.i4(20)],
        InvokeFlags.DISABLE_BREAKPOINTS | InvokeFlags.RETURN_OUT_THIS,
      );
      expect(r).toMatchObject({
        threw: false,
        result: { kind: 'void' },
        outThis: { fields: [Values.i4(13), Values.i4(24)] },
      });
      expect(await g.m.static(P, 'SPoint')).toEqual(point);
    });
  });

  it('invokes generic methods through MAKE_GENERIC_METHOD', async () => {
    await withSuspended(async (main) => {
      const int32 = (
        await g.conn.send('VM.GET_TYPES', { name: 'System.Int32', ignoreCase: false })
      )[0]!;
      const str = (
        await g.conn.send('VM.GET_TYPES', { name: 'System.String', ignoreCase: false })
      )[0]!;
      const echoInt = await g.conn.send('METHOD.MAKE_GENERIC_METHOD', {
        methodId: await g.m.method(P, 'Echo'),
        typeArgIds: [int32],
      });
      expect(expectReturned(await invoke(main, echoInt, nullThis, [Values.i4(99)]))).toEqual(
        Values.i4(99),
      );
      const typeName = await g.conn.send('METHOD.MAKE_GENERIC_METHOD', {
        methodId: await g.m.method(P, 'TypeName'),
        typeArgIds: [str],
      });
      expect(await g.m.string(expectReturned(await invoke(main, typeName, nullThis, [])))).toBe(
        'System.String',
      );
    });
  });

  it('returns out arguments with RETURN_OUT_ARGS', async () => {
    await withSuspended(async (main) => {
      const domain = g.conn.vmStart!.rootDomainId;
      const text = await g.conn.send('APPDOMAIN.CREATE_STRING', { domainId: domain, text: '1234' });
      const r = await invoke(
        main,
        await g.m.method(P, 'TryParse'),
        nullThis,
        [Values.string(text), Values.i4(0)],
        InvokeFlags.DISABLE_BREAKPOINTS | InvokeFlags.RETURN_OUT_ARGS,
      );
      expect(r).toMatchObject({
        threw: false,
        result: Values.bool(true),
        outArgs: [{ kind: 'string' }, Values.i4(1234)],
      });
    });
  });

  it('brings an exception thrown in the game back with its type and message', async () => {
    await withSuspended(async (main) => {
      const r = await invoke(main, await g.m.method(P, 'Throw'), nullThis, []);
      expect(r.threw).toBe(true);
      const exc = (r as { exception: Value }).exception;
      expect(await g.m.runtimeTypeName(exc)).toBe('System.InvalidOperationException');
      const msg = expectReturned(
        await invoke(main, await g.m.method('System.Exception', 'get_Message'), exc, []),
      );
      expect(await g.m.string(msg)).toBe('boom from fixture');
    });
  });

  it('runs several calls in one INVOKE_METHODS', async () => {
    await withSuspended(async (main) => {
      await invoke(main, await g.m.method(P, 'Add'), nullThis, [Values.i4(0), Values.i4(0)]); // park first
      const add = await g.m.method(P, 'Add');
      const results = await g.conn.send('VM.INVOKE_METHODS', {
        threadId: main,
        flags: InvokeFlags.DISABLE_BREAKPOINTS,
        calls: [1, 2, 3].map((i) => ({
          methodId: add,
          thisArg: nullThis,
          args: [Values.i4(i), Values.i4(i * 10)],
        })),
      });
      expect(results.map(expectReturned)).toEqual([11, 22, 33].map(Values.i4));
    });
  });

  it('aborts an invoke that outlives its bound, and the game runs on', async () => {
    await withSuspended(async (main) => {
      const slow = await g.m.method(P, 'SlowManaged');
      let packetId = 0;
      const running = invokeWhenParked(
        g.conn,
        {
          threadId: main,
          flags: InvokeFlags.DISABLE_BREAKPOINTS,
          methodId: slow,
          thisArg: nullThis,
          args: [Values.i4(10_000)],
        },
        { parkTimeoutMs: 2000, timeoutMs: 30_000, onSent: (id) => (packetId = id) },
      );
      await new Promise((r) => setTimeout(r, 300));
      await g.conn.send('VM.ABORT_INVOKE', { threadId: main, invokeId: packetId });
      const started = Date.now();
      await expect(running).rejects.toSatisfy((e: unknown) =>
        isAgentError(e, ErrorCode.INVOKE_ABORTED),
      );
      expect(Date.now() - started).toBeLessThan(5000);
    });
    const a = await frames();
    await new Promise((r) => setTimeout(r, 200));
    expect(await frames()).toBeGreaterThan(a);
  });
});

describe('events', () => {
  it('stops the main thread at a breakpoint in a per-frame method, with its argument readable', async () => {
    const tick = await g.m.method('Game.Ticker', 'Tick');
    const dbg = await g.conn.send('METHOD.GET_DEBUG_INFO', { methodId: tick });
    const requestId = await g.conn.send('EVENT_REQUEST.SET', {
      eventKind: EventKind.BREAKPOINT,
      suspendPolicy: SuspendPolicy.ALL,
      modifiers: [{ kind: 'location_only', methodId: tick, ilOffset: dbg.points[0]!.ilOffset }],
    });
    const set = await g.conn.waitForEvent(
      (s) => s.events.some((e) => e.kind === 'BREAKPOINT'),
      5000,
    );
    const ev = set.events[0]!;
    try {
      expect(set.suspendPolicy).toBe(SuspendPolicy.ALL);
      expect(g.conn.suspendCount).toBe(1);
      const fs = await g.conn.send('THREAD.GET_FRAME_INFO', { threadId: ev.threadId });
      expect(fs[0]!.methodId).toBe(tick);
      const [frameArg] = await g.conn.send('STACK_FRAME.GET_VALUES', {
        threadId: ev.threadId,
        frameId: fs[0]!.frameId,
        positions: [-1],
      });
      expect(frameArg).toMatchObject({ kind: 'i4' });
      expect((frameArg as { value: number }).value).toBeGreaterThan(0);
    } finally {
      await g.conn.send('EVENT_REQUEST.CLEAR', { eventKind: EventKind.BREAKPOINT, requestId });
      await g.conn.send('VM.RESUME');
    }
    expect(g.conn.suspendCount).toBe(0);
  });

  it('replays loaded assemblies on request in deferred mode', async () => {
    const seen: number[] = [];
    const off = g.conn.onEvent((s) =>
      s.events.forEach((e) => e.kind === 'ASSEMBLY_LOAD' && seen.push(e.assemblyId)),
    );
    const requestId = await g.conn.send('EVENT_REQUEST.SET', {
      eventKind: EventKind.ASSEMBLY_LOAD,
      suspendPolicy: SuspendPolicy.NONE,
    });
    await new Promise((r) => setTimeout(r, 300));
    off();
    await g.conn.send('EVENT_REQUEST.CLEAR', { eventKind: EventKind.ASSEMBLY_LOAD, requestId });
    expect(seen.length).toBeGreaterThan(5);
  });
});

describe('leaving', () => {
  it('resumes what it holds, disposes, and the game takes a second debugger and keeps running', async () => {
    await g.conn.send('VM.SUSPEND');
    await g.conn.send('VM.SUSPEND');
    await g.reconnect(); // close() resumes both levels and disposes; then a second debugger
    const a = await frames();
    await new Promise((r) => setTimeout(r, 200));
    expect(await frames()).toBeGreaterThan(a);
    expect(await g.m.static(P, 'SInt')).toEqual(Values.i4(-123456789));
  });
});
