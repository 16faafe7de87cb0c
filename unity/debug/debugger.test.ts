// The debugger's bookkeeping of suspend levels and ownership, against a scripted connection:
// every event set with policy ALL is either a reported stop or a level given back at once, so
// the game is never left suspended by us.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  EventKind,
  RuntimeProfiles,
  StepDepth,
  SuspendPolicy,
  type EventRequestParams,
  type EventSet,
  type RuntimeKind,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import { RUNTIME_PROFILES } from '../testing/attachable-agent.js';
import { GameConnection } from '../session/game-connection.js';
import type { GameSession, SessionExtension } from '../session/session.js';
import { Debugger } from './debugger.js';

/** The runtime the scripted connection answers as: the suite runs once per profile. */
let profile: RuntimeKind = 'debian-mono';
/** Each scripted connection's requests its runtime must never receive (asserted empty). */
const made: string[][] = [];

afterEach(() => {
  expect(made.flat()).toEqual([]);
  made.length = 0;
});

/** A step out of the thread's only frame: IL2CPP makes no request and answers no id (U:8435-8441). */
function stepOutOfOnlyFrame(p: unknown): boolean {
  const r = p as EventRequestParams;
  return (
    profile === 'il2cpp' &&
    r.eventKind === EventKind.STEP &&
    (r.modifiers ?? []).some((m) => m.kind === 'step' && m.depth === StepDepth.OUT)
  );
}

function fakes(failing: readonly string[] = []) {
  const sent: { name: string; params: unknown }[] = [];
  const violations: string[] = [];
  const logged: string[] = [];
  let listener: ((s: EventSet) => void) | undefined;
  let nextRequest = 100;
  const replies: Record<string, (p: unknown) => unknown> = {
    'METHOD.GET_DEBUG_INFO': () => ({
      codeSize: 20,
      files: [{ path: '/game/T.cs' }],
      points: [
        { ilOffset: 0, line: 10, sourceIndex: 0, column: -1, endLine: -1, endColumn: -1 },
        { ilOffset: 4, line: 11, sourceIndex: 0, column: -1, endLine: -1, endColumn: -1 },
      ],
    }),
    'EVENT_REQUEST.SET': (p) => (stepOutOfOnlyFrame(p) ? 0 : nextRequest++),
    'THREAD.GET_FRAME_INFO': () => [{ frameId: 1, methodId: 5, ilOffset: 4, flags: 0 }],
    'METHOD.GET_NAME': () => 'Tick',
    'METHOD.GET_DECLARING_TYPE': () => 7,
    'TYPE.GET_INFO': () => ({ fullName: 'Game.T', name: 'T', nestedTypeIds: [] }),
    'TYPE.GET_METHODS': () => [5],
    'TYPE.GET_FIELDS': () => [],
  };
  const conn = {
    isClosed: false,
    endpoint: '127.0.0.1:1',
    runtime: RuntimeProfiles[profile],
    onEvent(l: (s: EventSet) => void) {
      listener = l;
      return () => (listener = undefined);
    },
    send(name: string, params?: unknown) {
      sent.push({ name, params });
      // what this runtime must never receive (the wire layer would refuse it; the debugger must not ask)
      if (name in RuntimeProfiles[profile].refused) violations.push(name);
      if (failing.includes(name)) return Promise.reject(new Error(`${name} refused`));
      return Promise.resolve(replies[name]?.(params));
    },
  } as unknown as SdbConnection;
  const connection = new GameConnection(conn, { endpoint: '127.0.0.1:1', identity: 'test' });
  let ext: SessionExtension | undefined;
  const session = {
    extend(x: SessionExtension) {
      ext = x;
      return () => undefined;
    },
    async run<T>(_label: string, _caller: string, op: (ctx: unknown) => Promise<T>) {
      const catalog = {
        resolveType: () => Promise.resolve(7),
        findMember: () =>
          Promise.resolve({
            kind: 'method',
            overloads: [
              { methodId: 5, name: 'Tick', declaringType: { name: 'Game.T' }, parameters: [] },
            ],
          }),
      };
      const value = await op({ connection, conn, catalog });
      return { value, cost: { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: 0 } };
    },
    status: () => ({ holds: [] }),
    invokeRunning: false,
  } as unknown as GameSession & { invokeRunning: boolean };
  const dbg = new Debugger(session, (m) => logged.push(m));
  const hit = (requestId: number, threadId = 99): void =>
    listener!({
      suspendPolicy: SuspendPolicy.ALL,
      events: [{ kind: 'BREAKPOINT', requestId, threadId, methodId: 5, ilOffset: 0 }],
    });
  const resumes = (): number => sent.filter((s) => s.name === 'VM.RESUME').length;
  const hitAll = (requestIds: number[], threadId = 99): void =>
    listener!({
      suspendPolicy: SuspendPolicy.ALL,
      events: requestIds.map((requestId) => ({
        kind: 'BREAKPOINT' as const,
        requestId,
        threadId,
        methodId: 5,
        ilOffset: 0,
      })),
    });
  made.push(violations);
  return { dbg, sent, hit, hitAll, resumes, logged, ext: () => ext!, conn, session, replies };
}

function isStep(p: unknown): boolean {
  return (p as { eventKind: number }).eventKind === EventKind.STEP;
}

describe.each(RUNTIME_PROFILES)('the debugger (%s)', (kind) => {
  beforeEach(() => {
    profile = kind;
  });

  it('reports a hit as a pause owned by the breakpoint owner, and resumes it once', async () => {
    const f = fakes();
    const bp = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick', line: 11 })).value;
    expect(bp.locations).toEqual([
      { method: 'Game.T.Tick', methodId: 5, ilOffset: 4, line: 11, file: '/game/T.cs' },
    ]);
    const waiting = f.dbg.wait(1000);
    f.hit(bp.requests[0]!.requestId);
    const stop = await waiting;
    expect(stop).toMatchObject({ reason: 'breakpoint', owner: 'a', threadId: 99 });
    expect(stop?.location).toMatchObject({ method: 'Game.T.Tick', line: 11 });
    expect(f.resumes()).toBe(0);
    await expect(f.dbg.step('b', 'resume', { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'PAUSE_NOT_OWNED',
    });
    await f.dbg.step('a', 'resume', { timeoutMs: 100 });
    expect(f.resumes()).toBe(1);
    expect(f.dbg.paused).toBeUndefined();
  });

  it('gives back at once the level of an event whose request is gone', async () => {
    const f = fakes();
    await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' });
    f.hit(12345);
    await vi.waitFor(() => expect(f.resumes()).toBe(1));
    expect(f.dbg.paused).toBeUndefined();
  });

  it('a second thread stopping while paused waits in line, keeping its level', async () => {
    const f = fakes();
    const bp = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    f.hit(bp.requests[0]!.requestId, 1);
    await f.dbg.wait(1000);
    f.hit(bp.requests[0]!.requestId, 2);
    await vi.waitFor(() => expect(f.dbg.status().queued).toHaveLength(1));
    expect(f.resumes()).toBe(0);
    expect(f.dbg.paused?.threadId).toBe(1);
    // invokes must now leave thread 2 where it stopped, even for a pause on the main thread
    expect(f.ext().keepThreadsStopped!(1)).toBe(true);
    // a step cannot run (thread 2 keeps the game suspended): the stop in line becomes the pause
    const r = await f.dbg.step('a', 'over', { timeoutMs: 100 });
    expect(r.value).toMatchObject({ threadId: 2, queued: true, seq: 2 });
    expect(f.sent.some((s) => s.name === 'EVENT_REQUEST.SET' && isStep(s.params))).toBe(false);
    expect(f.resumes()).toBe(1);
    expect(f.ext().keepThreadsStopped!(2)).toBe(false); // 2 is the main thread here: it invokes
    await f.dbg.step('a', 'resume', { timeoutMs: 100 });
    expect(f.resumes()).toBe(2);
    expect(f.dbg.paused).toBeUndefined();
  });

  it('a stop during an evaluation that runs every thread is let go undecided', async () => {
    const f = fakes();
    const bp = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    f.session.invokeRunning = true;
    f.hit(bp.requests[0]!.requestId, 2);
    f.session.invokeRunning = false;
    await vi.waitFor(() => expect(f.resumes()).toBe(1));
    expect(f.dbg.paused).toBeUndefined();
    expect(f.dbg.status().breakpoints[0]).toMatchObject({ hits: 0, passed: 1 });
  });

  it('a pause on a thread other than the main one makes invokes single-threaded', async () => {
    const f = fakes();
    const bp = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    expect(f.ext().keepThreadsStopped!(1)).toBe(false);
    f.hit(bp.requests[0]!.requestId, 7);
    await f.dbg.wait(1000);
    expect(f.ext().keepThreadsStopped!(1)).toBe(true);
    expect(f.ext().keepThreadsStopped!(7)).toBe(false);
  });

  it('asks the agent to count hits when there is no condition', async () => {
    const f = fakes();
    await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick', hitCount: 3 });
    const set = f.sent.find((s) => s.name === 'EVENT_REQUEST.SET')!.params as {
      modifiers: { kind: string; count?: number }[];
    };
    expect(set.modifiers).toContainEqual({ kind: 'count', count: 3 });
  });

  it('refuses a line without code, naming the lines with code', async () => {
    const f = fakes();
    await expect(
      f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick', line: 30 }),
    ).rejects.toMatchObject({ code: 'NO_LOCATION', details: { lines: [10, 11] } });
  });

  it('before the connection closes, queues a CLEAR for every request, then forgets them', async () => {
    const f = fakes();
    const a = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    const b = (await f.dbg.breakOnException('b', {})).value;
    f.hit(a.requests[0]!.requestId);
    await f.dbg.wait(1000);
    f.ext().beforeClose!(f.conn);
    const cleared = f.sent
      .filter((s) => s.name === 'EVENT_REQUEST.CLEAR')
      .map((s) => (s.params as { requestId: number }).requestId);
    expect(cleared.sort()).toEqual([a.requests[0]!.requestId, b.requests[0]!.requestId].sort());
    f.ext().connectionEnded!(f.conn);
    expect(f.dbg.status()).toMatchObject({ breakpoints: [] });
    expect(f.dbg.paused).toBeUndefined();
    expect(await f.dbg.wait(10)).toBeUndefined();
  });

  it('a caller that goes away loses its breakpoints, and its pause is resumed', async () => {
    const f = fakes();
    const a = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    await f.dbg.setBreakpoint('b', { type: 'Game.T', method: 'Tick', line: 10 });
    f.hit(a.requests[0]!.requestId);
    await f.dbg.wait(1000);
    await f.ext().callerGone!('a');
    expect(f.resumes()).toBe(1);
    expect(f.dbg.status().breakpoints.map((x) => x.owner)).toEqual(['b']);
  });

  it('decides every event of a set: two breakpoints at one location both count their hit', async () => {
    const f = fakes();
    const a = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    const b = (await f.dbg.setBreakpoint('b', { type: 'Game.T', method: 'Tick' })).value;
    f.hitAll([a.requests[0]!.requestId, b.requests[0]!.requestId]);
    const stop = await f.dbg.wait(1000);
    expect(stop).toMatchObject({ breakpointId: a.id, owner: 'a' });
    expect(f.dbg.status().breakpoints.map((x) => x.hits)).toEqual([1, 1]);
    expect(f.resumes()).toBe(0); // one set, one level: the stop keeps it
  });

  it('an event of a cleared request does not swallow the stop of the next one in its set', async () => {
    const f = fakes();
    const b = (await f.dbg.setBreakpoint('b', { type: 'Game.T', method: 'Tick' })).value;
    f.hitAll([12345, b.requests[0]!.requestId]);
    expect(await f.dbg.wait(1000)).toMatchObject({ breakpointId: b.id });
  });

  it('logs a failure to clear or resume for a caller that went away, and goes on', async () => {
    const f = fakes(['EVENT_REQUEST.CLEAR', 'VM.RESUME']);
    const a = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    f.hit(a.requests[0]!.requestId);
    await f.dbg.wait(1000);
    await f.ext().callerGone!('a');
    expect(f.logged).toEqual([
      expect.stringMatching(/clearing breakpoint 1 of a, who left: EVENT_REQUEST.CLEAR refused/),
      expect.stringMatching(/ending the pause of a, who left: .*VM.RESUME refused/),
    ]);
    expect(f.dbg.paused).toBeUndefined();
    expect(f.dbg.status().breakpoints).toEqual([]);
  });

  it('logs a CLEAR refused while closing', async () => {
    const f = fakes(['EVENT_REQUEST.CLEAR']);
    await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' });
    f.ext().beforeClose!(f.conn);
    await vi.waitFor(() =>
      expect(f.logged).toEqual([expect.stringMatching(/clearing request 100 before closing/)]),
    );
  });

  it('arms IL offset 0 without a sequence point there only where the runtime binds it', async () => {
    const f = fakes();
    f.replies['METHOD.GET_DEBUG_INFO'] = () => ({
      codeSize: 0,
      files: [{ path: '/game/T.cs' }],
      points: [{ ilOffset: 4, line: 11, sourceIndex: 0, column: -1, endLine: -1, endColumn: -1 }],
    });
    const set = f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick', ilOffset: 0 });
    const breakpoints = (): number =>
      f.sent.filter(
        (s) =>
          s.name === 'EVENT_REQUEST.SET' &&
          (s.params as EventRequestParams).eventKind === EventKind.BREAKPOINT,
      ).length;
    if (kind === 'il2cpp') {
      // IL2CPP would accept the request and never stop there (debugger-engine.c:650-676)
      await expect(set).rejects.toMatchObject({ code: 'NO_LOCATION', details: { lines: [11] } });
      expect(breakpoints()).toBe(0);
    } else {
      expect((await set).value.locations).toMatchObject([{ ilOffset: 0 }]);
      expect(breakpoints()).toBe(1);
    }
  });

  it('refuses an IL offset off the sequence points on every runtime', async () => {
    const f = fakes();
    await expect(
      f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick', ilOffset: 2 }),
    ).rejects.toMatchObject({ code: 'NO_LOCATION', details: { lines: [10, 11] } });
  });

  it('a step out of the outermost frame: refused on IL2CPP with the game left paused', async () => {
    const f = fakes();
    const bp = (await f.dbg.setBreakpoint('a', { type: 'Game.T', method: 'Tick' })).value;
    f.hit(bp.requests[0]!.requestId);
    await f.dbg.wait(1000);
    const out = f.dbg.step('a', 'out', { timeoutMs: 50 });
    if (kind === 'il2cpp') {
      await expect(out).rejects.toMatchObject({ code: 'UNSUPPORTED_ON_IL2CPP' });
      expect(f.resumes()).toBe(0);
      expect(f.dbg.paused?.threadId).toBe(99);
      await f.dbg.step('a', 'resume', { timeoutMs: 50 }); // and it can still be resumed
      expect(f.resumes()).toBe(1);
    } else {
      await out;
      expect(f.resumes()).toBe(1);
      expect(f.sent.some((s) => s.name === 'EVENT_REQUEST.SET' && isStep(s.params))).toBe(true);
    }
  });
});
