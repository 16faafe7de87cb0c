import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CallbackRegistry } from './callback-registry.js';
import { SdbConnectionClosedError } from './errors.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function track(
  reg: CallbackRegistry,
  id: number,
  label: string,
  timeoutMs: number,
): { error?: Error } {
  const out: { error?: Error } = {};
  reg.register(
    id,
    label,
    timeoutMs,
    () => true,
    (e) => (out.error = e),
  );
  return out;
}

describe('CallbackRegistry timeouts', () => {
  it('fails each request at its own deadline, whatever the order they were sent in', () => {
    const reg = new CallbackRegistry();
    const slow = track(reg, 1, 'A.SLOW', 500);
    const fast = track(reg, 2, 'A.FAST', 100);
    const none = track(reg, 3, 'A.NONE', 0);
    vi.advanceTimersByTime(99);
    expect(fast.error).toBeUndefined();
    vi.advanceTimersByTime(2);
    expect(fast.error).toMatchObject({
      code: 'TIMEOUT',
      message: 'A.FAST got no reply within 100 ms',
    });
    expect(slow.error).toBeUndefined();
    vi.advanceTimersByTime(400);
    expect(slow.error?.message).toBe('A.SLOW got no reply within 500 ms');
    vi.advanceTimersByTime(1_000_000);
    expect(none.error).toBeUndefined();
    expect(reg.size).toBe(1);
  });

  it('does not fail a request that was answered before its deadline', () => {
    const reg = new CallbackRegistry();
    const a = track(reg, 1, 'A.X', 100);
    const b = track(reg, 2, 'A.Y', 300);
    expect(reg.resolve({ kind: 'reply', id: 1, errorCode: 0, body: Buffer.alloc(0) })).toBe(true);
    vi.advanceTimersByTime(200);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    vi.advanceTimersByTime(101);
    expect(b.error?.message).toBe('A.Y got no reply within 300 ms');
  });

  it('counts replies for ids nobody waits for', () => {
    const reg = new CallbackRegistry();
    track(reg, 1, 'A.X', 10);
    vi.advanceTimersByTime(11);
    expect(reg.resolve({ kind: 'reply', id: 1, errorCode: 0, body: Buffer.alloc(0) })).toBe(false);
    expect(reg.stray).toBe(1);
  });

  // (each caller gets a copy of its own from SdbConnection.send: connection.test.ts)
  it('rejects everything at once with one cause', () => {
    const reg = new CallbackRegistry();
    const a = track(reg, 1, 'A.X', 100);
    const b = track(reg, 2, 'A.Y', 100);
    reg.rejectAll(new SdbConnectionClosedError('gone'));
    expect(a.error?.message).toBe('gone');
    expect(b.error).toBeInstanceOf(SdbConnectionClosedError);
    vi.advanceTimersByTime(1000);
    expect(reg.size).toBe(0);
  });
});
