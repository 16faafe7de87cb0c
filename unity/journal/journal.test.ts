import { describe, expect, it } from 'vitest';

import { UnityError } from '../errors.js';
import { Journal } from './journal.js';

const entry = (n: number) => ({
  label: `set ${n}`,
  world: 'W',
  entity: { index: n, version: 1 },
  target: { kind: 'component' as const, component: 'Health' },
  before: { Value: n },
  after: { Value: n + 100 },
  caller: 'agent',
});

describe('Journal', () => {
  it('picks the newest steps first, or one entry by id', () => {
    const j = new Journal();
    const ids = [1, 2, 3].map((n) => j.record(entry(n)).id);
    expect(j.pick({}).map((e) => e.id)).toEqual([ids[2]]);
    expect(j.pick({ steps: 2 }).map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(j.pick({ id: ids[0] })[0]!.before).toEqual({ Value: 1 });
    j.remove(ids[2]!);
    expect(j.pick({}).map((e) => e.id)).toEqual([ids[1]]);
  });

  it('says what is wrong with a selection', () => {
    const j = new Journal();
    expect(() => j.pick({})).toThrow(/nothing to undo/);
    j.record(entry(1));
    expect(() => j.pick({ id: 99 })).toThrow(UnityError);
    expect(() => j.pick({ steps: 0 })).toThrow(/positive integer/);
  });

  it('is bounded, dropping the oldest entries', () => {
    const j = new Journal();
    for (let n = 0; n < 600; n++) j.record(entry(n));
    expect(j.list()).toHaveLength(500);
    expect(j.list()[0]!.entity?.index).toBe(100);
  });
});
