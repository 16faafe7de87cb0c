import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { boundedEditDistance, closestNames, suggestionBound } from './edit-distance.js';

/** Plain optimal-string-alignment distance, no bound: the reference for the bounded one. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

describe('boundedEditDistance', () => {
  it.each([
    ['Game.Prbe', 'Game.Probe', 3, 1], // deletion
    ['Game.Porbe', 'Game.Probe', 3, 1], // transposition counts once
    ['Game.Probe', 'Game.Probe', 0, 0],
    ['kitten', 'sitting', 3, 3],
    ['kitten', 'sitting', 2, 3], // over the bound: bound + 1
    ['', 'abc', 5, 3],
    ['abc', '', 1, 2],
    ['Probe', 'Game.DerivedProbe', 4, 5], // length difference alone exceeds the bound
  ])('%s ↔ %s (max %i) = %i', (a, b, max, expected) => {
    expect(boundedEditDistance(a, b, max)).toBe(expected);
  });

  it('equals min(true distance, max + 1) and is symmetric', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', '+'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.nat(6), (a, b, max) => {
        const expected = Math.min(osa(a, b), max + 1);
        expect(boundedEditDistance(a, b, max)).toBe(expected);
        expect(boundedEditDistance(b, a, max)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('closestNames', () => {
  const names = (list: string[]): { label: string; keys: string[] }[] =>
    list.map((n) => ({ label: n, keys: [n] }));

  it('ranks by distance, ignores case, keeps input order on ties and limits', () => {
    const candidates = names([
      'Game.Probes',
      'Game.Probe',
      'game.prob',
      'Other.Thing',
      'Game.Prob',
    ]);
    // Game.Probe is 1 away; the other three are 2 away and keep their order
    expect(closestNames('Game.Prbe', candidates)).toEqual([
      'Game.Probe',
      'Game.Probes',
      'game.prob',
      'Game.Prob',
    ]);
    expect(closestNames('Game.Prbe', candidates, { limit: 2 })).toEqual([
      'Game.Probe',
      'Game.Probes',
    ]);
  });

  it('bounds the distance relative to the query length', () => {
    expect(suggestionBound('Xy')).toBe(1);
    expect(suggestionBound('Game.Prbe')).toBe(2);
    expect(suggestionBound('a'.repeat(40))).toBe(4);
    expect(closestNames('Ab', names(['Cd', 'Ax']))).toEqual(['Ax']);
    expect(closestNames('Zzzzzzz', names(['Game.Probe']))).toEqual([]);
  });

  it('compares every key of a candidate and returns its label', () => {
    const c = [{ label: 'Game.Probe', keys: ['Game.Probe', 'Probe'] }];
    expect(closestNames('Prbe', c)).toEqual(['Game.Probe']);
  });
});
