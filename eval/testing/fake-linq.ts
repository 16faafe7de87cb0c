// The generic interfaces and delegates LINQ and lambdas are typed with, declared in the fake
// game as mscorlib and System.Core declare them: IEnumerable<T>, IOrderedEnumerable<T>,
// IGrouping<TKey, TElement>, Func<...>, Action<...>, Predicate<T>, Comparison<T>.

import type { FakeRuntime } from './fake-runtime.js';

const PARAMS = ['T1', 'T2', 'T3', 'T4'];

export function declareLinqTypes(fake: FakeRuntime): void {
  fake.interface('System.Collections.Generic.IEnumerator`1', {
    typeParams: ['T'],
    interfaces: ['System.IDisposable'],
    properties: { Current: { type: 'T', readOnly: true } },
    methods: { MoveNext: { returns: 'bool', abstract: true } },
  });
  fake.interface('System.Collections.Generic.IEnumerable`1', {
    typeParams: ['T'],
    interfaces: ['System.Collections.IEnumerable'],
    methods: {
      GetEnumerator: {
        returns: 'System.Collections.Generic.IEnumerator<T>',
        abstract: true,
      },
    },
  });
  fake.interface('System.Linq.IOrderedEnumerable`1', {
    typeParams: ['T'],
    interfaces: ['System.Collections.Generic.IEnumerable<T>'],
  });
  fake.interface('System.Linq.IGrouping`2', {
    typeParams: ['TKey', 'TElement'],
    interfaces: ['System.Collections.Generic.IEnumerable<TElement>'],
    properties: { Key: { type: 'TKey', readOnly: true } },
  });
  fake.delegate('System.Action', { methods: { Invoke: { virtual: true } } });
  for (let n = 1; n <= PARAMS.length; n++) {
    const ps = PARAMS.slice(0, n);
    fake.delegate(`System.Action\`${n}`, {
      typeParams: ps,
      methods: { Invoke: { virtual: true, params: ps.map((p, i) => `${p} a${i}`) } },
    });
  }
  for (let n = 0; n <= PARAMS.length; n++) {
    const ps = PARAMS.slice(0, n);
    fake.delegate(`System.Func\`${n + 1}`, {
      typeParams: [...ps, 'TResult'],
      methods: {
        Invoke: { virtual: true, params: ps.map((p, i) => `${p} a${i}`), returns: 'TResult' },
      },
    });
  }
  fake.delegate('System.Predicate`1', {
    typeParams: ['T'],
    methods: { Invoke: { virtual: true, params: ['T obj'], returns: 'bool' } },
  });
  fake.delegate('System.Comparison`1', {
    typeParams: ['T'],
    methods: { Invoke: { virtual: true, params: ['T x', 'T y'], returns: 'int' } },
  });
}
