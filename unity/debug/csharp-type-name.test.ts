import { describe, expect, it } from 'vitest';

import { csharpTypeName } from './csharp-type-name.js';

const Q = ', mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089';

describe('csharpTypeName', () => {
  it.each<[string, string]>([
    ['Game.Probe', 'Game.Probe'],
    ['Game.Outer+Inner', 'Game.Outer.Inner'],
    [`Game.BreakBox\`1[[System.Int32${Q}]]`, 'Game.BreakBox<int>'],
    [
      `System.Collections.Generic.Dictionary\`2[[System.String${Q}],[Game.Probe, Assembly-CSharp]]`,
      'System.Collections.Generic.Dictionary<string, Game.Probe>',
    ],
    [
      `System.Collections.Generic.List\`1+Enumerator[[System.Int32${Q}]]`,
      'System.Collections.Generic.List<int>.Enumerator',
    ],
    [
      `Game.Outer\`1+Inner\`1[[System.Int32${Q}],[System.String${Q}]]`,
      'Game.Outer<int>.Inner<string>',
    ],
    [`System.Nullable\`1[[System.Int32${Q}]]`, 'int?'],
    [`Game.BreakBox\`1[[System.Int32[]${Q}]]`, 'Game.BreakBox<int[]>'],
    ['Game.BreakBox`1', 'Game.BreakBox<>'], // an open definition, as typeof writes it
    [
      'System.Collections.Generic.Dictionary`2+Enumerator',
      'System.Collections.Generic.Dictionary<,>.Enumerator',
    ],
    ['System.Int32', 'int'],
    ['A.Weird\\+Name', 'A.Weird+Name'],
  ])('%s → %s', (full, expected) => {
    expect(csharpTypeName(full)).toBe(expected);
  });

  it('leaves a name it cannot read as it is', () => {
    expect(csharpTypeName('Game.Box`1[[')).toBe('Game.Box`1[[');
  });
});
