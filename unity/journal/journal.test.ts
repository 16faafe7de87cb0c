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
    expect(j.pick({}, 'agent').map((e) => e.id)).toEqual([ids[2]]);
    expect(j.pick({ steps: 2 }, 'agent').map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(j.pick({ id: ids[0] }, 'agent')[0]!.before).toEqual({ Value: 1 });
    j.remove(ids[2]!);
    expect(j.pick({}, 'agent').map((e) => e.id)).toEqual([ids[1]]);
  });

  it('says what is wrong with a selection', () => {
    const j = new Journal();
    expect(() => j.pick({}, 'agent')).toThrow(/nothing to undo/);
    j.record(entry(1));
    expect(() => j.pick({ id: 99 }, 'agent')).toThrow(UnityError);
    expect(() => j.pick({ steps: 0 }, 'agent')).toThrow(/positive integer/);
  });

  it("undoes only the caller's own writes; another's by id needs force", () => {
    const j = new Journal();
    const a = j.record(entry(1)).id;
    const b = j.record({ ...entry(2), caller: 'other' }).id;
    expect(j.pick({ steps: 5 }, 'agent').map((e) => e.id)).toEqual([a]);
    expect(j.pick({}, 'other').map((e) => e.id)).toEqual([b]);
    const refused = (() => {
      try {
        j.pick({ id: b }, 'agent');
      } catch (e) {
        return e as UnityError;
      }
      throw new Error('expected a refusal');
    })();
    expect(refused.code).toBe('UNDO_NOT_OWNED');
    expect(refused.message).toContain('other');
    expect(j.pick({ id: b, force: true }, 'agent').map((e) => e.id)).toEqual([b]);
    expect(() => j.pick({}, 'third')).toThrow(/agent, other did/);
  });

  it('is bounded, dropping the oldest entries', () => {
    const j = new Journal();
    for (let n = 0; n < 600; n++) j.record(entry(n));
    expect(j.list()).toHaveLength(500);
    expect(j.list()[0]!.entity?.index).toBe(100);
  });
});
