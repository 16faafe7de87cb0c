import { describe, expect, it } from 'vitest';

import {
  displayTypeName,
  escapeTypeNameChars,
  isPlainTypeName,
  splitFullName,
  stripArity,
} from './type-names.js';

const CORLIB = 'mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089';

describe('displayTypeName', () => {
  it.each([
    ['Game.Probe', 'Game.Probe'],
    ['System.Int32[]', 'System.Int32[]'],
    ['System.Int32[,]', 'System.Int32[,]'],
    ['System.Byte*', 'System.Byte*'],
    [
      `System.Collections.Generic.List\`1[[System.Int32, ${CORLIB}]]`,
      'System.Collections.Generic.List`1[System.Int32]',
    ],
    [
      `System.Collections.Generic.Dictionary\`2[[System.String, ${CORLIB}],[System.Int32, ${CORLIB}]]`,
      'System.Collections.Generic.Dictionary`2[System.String,System.Int32]',
    ],
    [
      `System.Nullable\`1[[System.Collections.Generic.List\`1[[Game.Point, Assembly-CSharp, Version=0.0.0.0, Culture=neutral, PublicKeyToken=null]], ${CORLIB}]][]`,
      'System.Nullable`1[System.Collections.Generic.List`1[Game.Point]][]',
    ],
    [`Outer\`1+Inner[[System.Int32, ${CORLIB}]]`, 'Outer`1+Inner[System.Int32]'],
    [
      `System.Collections.Generic.Dictionary\`2[T,[System.Int32, ${CORLIB}]]`,
      'System.Collections.Generic.Dictionary`2[T,System.Int32]',
    ],
    ['A.Weird\\+Name\\[\\]', 'A.Weird\\+Name\\[\\]'],
  ])('%s', (agent, shown) => {
    expect(displayTypeName(agent)).toBe(shown);
  });

  it.each(['', 'List`1[[System.Int32', 'A]', 'A[[B, C]'])('leaves %j unchanged', (bad) => {
    expect(displayTypeName(bad)).toBe(bad);
  });
});

describe('names', () => {
  it('escapes like Mono and tells plain names', () => {
    expect(escapeTypeNameChars('a+b,c&d*e[f]g\\h.i`1')).toBe('a\\+b\\,c\\&d\\*e\\[f\\]g\\\\h.i`1');
    expect(isPlainTypeName('Unity.Entities.World+NoAllocReadOnlyCollection`1')).toBe(true);
    for (const bad of ['', 'List`1[System.Int32]', 'A, B', 'A\\+B', 'T*', 'T&']) {
      expect(isPlainTypeName(bad)).toBe(false);
    }
  });

  it.each([
    ['Game.Probe', { namespace: 'Game', name: 'Probe', enclosing: [] }],
    ['Probe', { namespace: '', name: 'Probe', enclosing: [] }],
    [
      'Unity.Entities.World+NoAllocReadOnlyCollection`1',
      {
        namespace: 'Unity.Entities',
        name: 'NoAllocReadOnlyCollection`1',
        enclosing: ['Unity.Entities.World'],
      },
    ],
    ['A.B+C+D', { namespace: 'A', name: 'D', enclosing: ['A.B', 'A.B+C'] }],
    ['A.Weird\\+Name', { namespace: 'A', name: 'Weird\\+Name', enclosing: [] }],
  ])('splits %s', (full, parts) => {
    expect(splitFullName(full)).toEqual(parts);
  });

  it('strips arity from every component', () => {
    expect(stripArity('System.Collections.Generic.Dictionary`2+Enumerator')).toBe(
      'System.Collections.Generic.Dictionary+Enumerator',
    );
  });
});
