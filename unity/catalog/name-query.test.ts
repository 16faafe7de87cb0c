import { describe, expect, it } from 'vitest';

import { isBoundarySuffix, nameKeys, parseTypeQuery, type MatchKind } from './name-query.js';
import { splitFullName } from './type-names.js';

const keys = (full: string): ReturnType<typeof nameKeys> =>
  nameKeys(full, splitFullName(full).name);
const match = (query: string, full: string): MatchKind | undefined =>
  parseTypeQuery(query).match(keys(full));

describe('plain names', () => {
  it.each<[string, string, MatchKind | undefined]>([
    ['Game.Probe', 'Game.Probe', 'exact'],
    ['Probe', 'Game.Probe', 'name'],
    ['Probe', 'Game.DerivedProbe', undefined],
    ['Probe', 'Game.Outer+Probe', 'name'],
    ['Generic.List`1', 'System.Collections.Generic.List`1', 'name'],
    ['NoAllocReadOnlyCollection', 'Unity.Entities.World+NoAllocReadOnlyCollection`1', 'name'],
    ['NoAllocReadOnlyCollection`1', 'Unity.Entities.World+NoAllocReadOnlyCollection`1', 'name'],
    ['World+NoAllocReadOnlyCollection', 'Unity.Entities.World+NoAllocReadOnlyCollection`1', 'name'],
    ['Dictionary+Enumerator', 'System.Collections.Generic.Dictionary`2+Enumerator', 'name'],
    ['List`2', 'System.Collections.Generic.List`1', undefined],
    ['game.probe', 'Game.Probe', 'exact-ignore-case'],
    ['probe', 'Game.Probe', 'name-ignore-case'],
    ['Name', 'A.Weird\\+Name', undefined], // an escaped + is not a nesting boundary
    // a nested type by its C# name (`.`), its reflection name (`+`) and its IL name (`/`)
    ['Game.Outer.Inner', 'Game.Outer+Inner', 'exact'],
    ['Game.Outer/Inner', 'Game.Outer+Inner', 'exact'],
    ['Outer.Inner', 'Game.Outer+Inner', 'name'],
    ['Outer/Inner', 'Game.Outer+Inner', 'name'],
    ['outer.inner', 'Game.Outer+Inner', 'name-ignore-case'],
    ['game.outer.inner', 'Game.Outer+Inner', 'exact-ignore-case'],
    ['Dictionary.Enumerator', 'System.Collections.Generic.Dictionary`2+Enumerator', 'name'],
    ['uter.Inner', 'Game.Outer+Inner', undefined],
    ['Outer+Inner.Deep', 'Game.Outer+Inner+Deep', undefined], // one spelling per query
    ['Weird.Name', 'A.Weird\\+Name', undefined], // an escaped + is not nesting either
  ])('%s vs %s → %s', (query, full, expected) => {
    expect(match(query, full)).toBe(expected);
  });

  it('takes an assembly qualification', () => {
    const q = parseTypeQuery(' Game.Probe , Assembly-CSharp ');
    expect(q).toMatchObject({ kind: 'name', text: 'Game.Probe', assembly: 'Assembly-CSharp' });
  });

  it('boundary suffixes', () => {
    expect(isBoundarySuffix('Game.Probe', 'Probe')).toBe(true);
    expect(isBoundarySuffix('Game.Probe', 'robe')).toBe(false);
    expect(isBoundarySuffix('Probe', 'Game.Probe')).toBe(false);
  });
});

describe('patterns', () => {
  it.each<[string, string, boolean]>([
    ['Game.*', 'Game.Probe', true],
    ['Game.*', 'Game.Probe+Nested', true],
    ['Game.*', 'Other.Game', false],
    ['game.p?obe', 'Game.Probe', true], // globs ignore case
    ['Prob*', 'Game.Probe', true], // no dot: the simple name counts too
    ['G*.Prob', 'Game.Probe', false],
    ['*Collection`1', 'Unity.Entities.World+NoAllocReadOnlyCollection`1', true],
    ['/^Game\\.P/', 'Game.Probe', true],
    ['/^game\\.p/', 'Game.Probe', false],
    ['/^game\\.p/i', 'Game.Probe', true],
    ['/Probe$/g', 'Game.Probe', true],
  ])('%s vs %s → %s', (query, full, expected) => {
    expect(match(query, full) === 'pattern').toBe(expected);
    // stateful flags stripped: the same answer twice
    expect(match(query, full) === 'pattern').toBe(expected);
  });

  it('reports a bad regex or an empty query as INVALID_ARGUMENT', () => {
    expect(() => parseTypeQuery('/(/')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => parseTypeQuery('  ')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => parseTypeQuery(', Asm')).toThrow(/no type name/);
  });
});
