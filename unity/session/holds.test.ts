import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { HoldTable } from './holds.js';

describe('HoldTable.heldSince', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('is the time of the first hold still held, kept across more holds, gone with the last', () => {
    const t = new HoldTable();
    expect(t.heldSince('a')).toBeUndefined();
    t.add('a');
    const first = Date.now();
    vi.advanceTimersByTime(5000);
    t.add('a');
    t.add('b');
    expect(t.heldSince('a')).toBe(first);
    expect(t.heldSince('b')).toBe(first + 5000);
    t.remove('a');
    expect(t.heldSince('a')).toBe(first);
    t.remove('a');
    expect(t.heldSince('a')).toBeUndefined();
    vi.advanceTimersByTime(1000);
    t.add('a');
    expect(t.heldSince('a')).toBe(first + 6000);
    t.clear();
    expect(t.heldSince('b')).toBeUndefined();
  });
});
