// Where C# writes a generic's arguments: each nesting level takes its own arity's worth.

import { describe, expect, it } from 'vitest';

import { withArguments } from './type-names.js';

describe('generic arguments on nested types', () => {
  it.each<[string, string[], string]>([
    ['System.Collections.Generic.List`1', ['int'], 'System.Collections.Generic.List<int>'],
    [
      'System.Collections.Generic.List`1+Enumerator',
      ['int'],
      'System.Collections.Generic.List<int>.Enumerator',
    ],
    [
      'System.Collections.Generic.Dictionary`2+KeyCollection',
      ['string', 'int'],
      'System.Collections.Generic.Dictionary<string, int>.KeyCollection',
    ],
    ['Game.Outer`1+Inner`2', ['int', 'bool', 'char'], 'Game.Outer<int>.Inner<bool, char>'],
    ['Game.Outer+Inner`1', ['int'], 'Game.Outer.Inner<int>'],
  ])('%s over %j is %s', (name, args, expected) => {
    expect(withArguments(name, args)).toBe(expected);
  });
});
