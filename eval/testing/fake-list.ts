// List<T> as Mono lays it out (`_items`, `_size`, `_version`), for tests of what reads lists in
// bulk (foreach, LINQ): Add and Clear change the version as the real one does, and
// `new List<T>(IEnumerable<T>)` copies an array (what ToList makes).

import type { EvalValue } from '../values.js';
import { int, type FakeRuntime } from './fake-runtime.js';

export function declareFakeList(fake: FakeRuntime): void {
  const bump = (self: EvalValue): void => {
    const v = fake.get(self, '_version') as { value: number };
    fake.set(self, '_version', int(v.value + 1));
  };
  fake.class('System.Collections.Generic.List`1', {
    typeParams: ['T'],
    interfaces: ['System.Collections.Generic.IEnumerable<T>'],
    fields: {
      _items: { type: 'T[]', private: true },
      _size: { type: 'int', private: true },
      _version: { type: 'int', private: true },
    },
    properties: {
      Count: { type: 'int', get: (c) => c.fake.get(c.self!, '_size') },
    },
    ctors: [
      {
        params: ['System.Collections.Generic.IEnumerable<T> items'],
        impl: (c) => {
          const items = c.args[0]!;
          c.fake.set(c.self!, '_items', items);
          c.fake.set(c.self!, '_size', int(c.fake.elements(items).length));
        },
      },
    ],
    methods: {
      Add: {
        params: ['T x'],
        impl: (c) => {
          const items = c.fake.get(c.self!, '_items');
          const old = items.kind === 'null' ? [] : c.fake.elements(items);
          const size = (c.fake.get(c.self!, '_size') as { value: number }).value;
          const type = c.fake.metadata.entry(c.fake.game.typeOfValue(c.self!)).typeArgs[0]!;
          const next = c.fake.array(type, [...old.slice(0, size), c.args[0]!]);
          c.fake.set(c.self!, '_items', next);
          c.fake.set(c.self!, '_size', int(size + 1));
          bump(c.self!);
        },
      },
      Clear: {
        impl: (c) => {
          c.fake.set(c.self!, '_size', int(0));
          bump(c.self!);
        },
      },
    },
  });
}

/** A List<T> of these values in the fake heap. */
export function fakeList(
  fake: FakeRuntime,
  element: string,
  values: readonly EvalValue[],
): EvalValue {
  const list = fake.new(`System.Collections.Generic.List<${element}>`);
  fake.set(list, '_items', values.length ? fake.array(element, values) : fake.array(element, []));
  fake.set(list, '_size', int(values.length));
  fake.set(list, '_version', int(0));
  return list;
}
