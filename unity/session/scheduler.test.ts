import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Scheduler, type Turn, type TurnRequest } from './scheduler.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const req = (
  caller: string,
  label = `${caller} op`,
  more: Partial<TurnRequest> = {},
): TurnRequest => ({
  caller,
  label,
  tier: 'smooth',
  waitMs: 1000,
  ...more,
});

/** Each granted turn in grant order; each is released by the test. */
function recorder(s: Scheduler) {
  const order: string[] = [];
  const turns = new Map<string, Turn>();
  const ask = (r: TurnRequest): Promise<Turn> =>
    s.acquire(r).then((t) => {
      order.push(r.label);
      turns.set(r.label, t);
      return t;
    });
  /** Releases the turn running now and lets the next one be granted. */
  const next = async (label: string): Promise<void> => {
    turns.get(label)!.release();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { order, turns, ask, next };
}

describe('Scheduler', () => {
  it('tells a waiter where it stands in line as the line moves, and nothing once served', async () => {
    const s = new Scheduler();
    const { ask, next } = recorder(s);
    const told: (number | undefined)[] = [];
    await ask(req('a', 'a1'));
    void ask(req('b', 'b1'));
    void ask(req('a', 'a2'));
    void ask(req('c', 'c1', { onPosition: (p) => told.push(p) }));
    await Promise.resolve();
    // b comes next, then c (a was just served), then a's second
    expect(told).toEqual([2]);
    await next('a1'); // b1 runs: c is next
    expect(told).toEqual([2, 1]);
    await next('b1'); // c1 runs
    expect(told).toEqual([2, 1, undefined]);
    await next('c1');
    await next('a2');
  });

  it('tells a waiter that gives up that it is out of line', async () => {
    const s = new Scheduler();
    const { ask, next } = recorder(s);
    const told: (number | undefined)[] = [];
    await ask(req('a', 'a1'));
    const late = s.acquire(req('b', 'b1', { waitMs: 50, onPosition: (p) => told.push(p) }));
    const refused = expect(late).rejects.toMatchObject({ code: 'TIMEOUT' });
    vi.advanceTimersByTime(60);
    await refused;
    expect(told).toEqual([1, undefined]);
    await next('a1');
  });

  it('grants one turn at a time and serves callers round-robin, FIFO within a caller', async () => {
    const s = new Scheduler();
    const { order, ask, next } = recorder(s);
    await ask(req('a', 'a1'));
    for (const l of ['a2', 'a3', 'a4']) void ask(req('a', l));
    void ask(req('b', 'b1'));
    void ask(req('b', 'b2'));
    void ask(req('c', 'c1'));
    await Promise.resolve();
    expect(order).toEqual(['a1']);
    // a has just been served (a1 runs): b and c come first, then one turn each in a ring
    const expected = ['b1', 'c1', 'a2', 'b2', 'a3', 'a4'];
    expect(s.state().waiting.map((w) => w.label)).toEqual(expected);
    for (const l of ['a1', ...expected]) await next(l);
    expect(order).toEqual(['a1', ...expected]);
    expect(s.state().running).toBeUndefined();
    expect(s.state().served).toBe(7);
  });

  it("puts a caller arriving during another's burst right after the operation in progress", async () => {
    const s = new Scheduler();
    const { ask, next, turns } = recorder(s);
    await ask(req('a', 'a1'));
    for (let i = 2; i <= 40; i++) void ask(req('a', `a${i}`));
    const b = ask(req('b', 'b1'));
    await Promise.resolve();
    await next('a1');
    const t = await b;
    expect(t.ranBefore).toBe(1); // the one in progress only
    expect(turns.has('a2')).toBe(false);
  });

  it('counts the operations that ran while a call waited', async () => {
    const s = new Scheduler();
    const { ask, next } = recorder(s);
    await ask(req('a', 'a1'));
    void ask(req('a', 'a2'));
    void ask(req('c', 'c1'));
    const b = ask(req('b', 'b1'));
    await Promise.resolve();
    await next('a1');
    await next('c1');
    // a1 (running), then one turn of each other caller queued before it (c1); a2 comes after
    expect((await b).ranBefore).toBe(2);
    expect(s.state().waiting.map((w) => w.label)).toEqual(['a2']);
  });

  it('serves urgent operations (the game stopped for them) before every queued one', async () => {
    const s = new Scheduler();
    const { order, ask, next } = recorder(s);
    await ask(req('a', 'a1'));
    void ask(req('b', 'b1'));
    void ask(req('a', 'cond', { urgent: true, tier: 'internal' }));
    await Promise.resolve();
    await next('a1');
    await next('cond');
    expect(order).toEqual(['a1', 'cond', 'b1']);
  });

  it('bounds the wait and names what it waited behind; the rest of the queue moves on', async () => {
    const s = new Scheduler();
    const { order, ask, next } = recorder(s);
    await ask(req('a', 'a long eval'));
    const late = ask(req('b', 'b read', { waitMs: 500 }));
    const after = ask(req('c', 'c read', { waitMs: 5000 }));
    vi.advanceTimersByTime(501);
    await expect(late).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/before b read \(behind a long eval for a, running \d+ ms\)/),
    });
    expect(s.state().waiting.map((w) => w.label)).toEqual(['c read']);
    await next('a long eval');
    await after;
    expect(order).toEqual(['a long eval', 'c read']);
  });

  it('ignores a second release: the turn after it is not ended by it', async () => {
    const s = new Scheduler();
    const t = await s.acquire(req('a', 'first'));
    const second = s.acquire(req('b', 'second'));
    const third = s.acquire(req('c', 'third'));
    t.release();
    await second;
    t.release();
    expect(s.state().running).toMatchObject({ label: 'second' });
    expect(s.state().waiting.map((w) => w.label)).toEqual(['third']);
    (await second).release();
    (await third).release();
    expect(s.state().running).toBeUndefined();
  });

  it('counts turns per tier (an instant one shows up)', async () => {
    const s = new Scheduler();
    (await s.acquire(req('a', 'x', { tier: 'instant' }))).release();
    (await s.acquire(req('a', 'y'))).release();
    expect(s.state().servedByTier).toMatchObject({ instant: 1, smooth: 1, heavy: 0 });
  });
});

describe('Scheduler.heavy', () => {
  it('runs one holder at a time, FIFO, and says what the next one waited', async () => {
    const s = new Scheduler();
    let endFirst: () => void = () => undefined;
    const first = s.heavy(
      'advance',
      'a',
      1000,
      () => new Promise<string>((r) => (endFirst = () => r('a'))),
    );
    const waits: number[] = [];
    const second = s.heavy(
      'advance',
      'b',
      1000,
      (w) => (waits.push(w.ranBefore), Promise.resolve('b')),
    );
    await Promise.resolve();
    expect(s.state().heavy).toMatchObject({ caller: 'a', label: 'advance' });
    expect(s.state().heavyWaiting.map((h) => h.caller)).toEqual(['b']);
    endFirst();
    expect(await first).toBe('a');
    expect(await second).toBe('b');
    expect(waits).toEqual([1]);
    expect(s.state().heavy).toBeUndefined();
  });

  it('bounds the wait with TIMEOUT naming the holder, and releases on a failure', async () => {
    const s = new Scheduler();
    let fail: (e: Error) => void = () => undefined;
    const first = s.heavy('advance', 'a', 1000, () => new Promise<void>((_r, j) => (fail = j)));
    const second = s.heavy('advance', 'b', 500, () => Promise.resolve());
    vi.advanceTimersByTime(501);
    await expect(second).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/advance for a \(running \d+ ms\) to end before advance/),
    });
    fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await expect(s.heavy('advance', 'c', 500, () => Promise.resolve('c'))).resolves.toBe('c');
  });
});
