import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RwLock } from './rw-lock.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('RwLock', () => {
  it('shares among shared holders and queues an exclusive one behind them, FIFO', async () => {
    const lock = new RwLock();
    const order: string[] = [];
    const r1 = await lock.acquire(false, 1000, 'a');
    const r2 = await lock.acquire(false, 1000, 'b');
    const ex = lock.acquire(true, 1000, 'x').then((r) => (order.push('x'), r));
    const late = lock.acquire(false, 1000, 'c').then((r) => (order.push('c'), r));
    await Promise.resolve();
    expect(order).toEqual([]);
    r1();
    r2();
    const rx = await ex;
    expect(order).toEqual(['x']);
    rx();
    (await late)();
    expect(order).toEqual(['x', 'c']);
    expect(lock.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('bounds the wait and names what was waiting', async () => {
    const lock = new RwLock();
    await lock.acquire(true, 1000, 'sequence');
    const waiting = lock.acquire(false, 500, 'a read');
    vi.advanceTimersByTime(501);
    await expect(waiting).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/before a read/),
    });
    expect(lock.state.waiting).toBe(0);
  });

  it('ignores a second release', async () => {
    const lock = new RwLock();
    const r = await lock.acquire(false, 100, 'a');
    r();
    r();
    expect(lock.state.shared).toBe(0);
  });
});
