// The part of mscorlib the evaluator relies on, declared in the fake game: System.Object (with
// a virtual ToString), ValueType, Enum, Array, String, Type, Void, the C# primitive types under
// their reflection names, Decimal, Nullable<T>, and System.Collections.IEnumerable.

import { formatPrimitive } from '../format/format-number.js';
import { toPrimitive } from '../interpret/primitives.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, bool, num, str, type EvalValue, type NumericKind } from '../values.js';
import { gameException, jsonBigInt } from './fake-game.js';
import type { FakeRuntime } from './fake-runtime.js';
import type { Call, MethodSpec } from './fake-specs.js';

const INTEGRAL_RANGES: readonly [string, NumericKind, bigint, bigint][] = [
  ['System.SByte', 'sbyte', -128n, 127n],
  ['System.Byte', 'byte', 0n, 255n],
  ['System.Int16', 'short', -32768n, 32767n],
  ['System.UInt16', 'ushort', 0n, 65535n],
  ['System.Int32', 'int', -2147483648n, 2147483647n],
  ['System.UInt32', 'uint', 0n, 4294967295n],
  ['System.Int64', 'long', -9223372036854775808n, 9223372036854775807n],
  ['System.UInt64', 'ulong', 0n, 18446744073709551615n],
  ['System.Char', 'char', 0n, 65535n],
];

export function declareCorlib(fake: FakeRuntime): void {
  const self = (c: Call): EvalValue => c.self ?? NULL;
  const toString = (impl: (c: Call) => string): MethodSpec => ({
    returns: 'string',
    virtual: true,
    impl: (c) => str(impl(c)),
  });

  fake.class('System.Object', {
    methods: {
      ToString: toString((c) => fake.reflectionName(fake.game.typeOfValue(self(c)))),
      Equals: {
        params: ['object obj'],
        returns: 'bool',
        virtual: true,
        impl: (c) => bool(sameValue(fake, self(c), c.args[0]!)),
      },
      GetHashCode: { returns: 'int', virtual: true, impl: () => num('int', 42) },
      GetType: {
        returns: 'System.Type',
        impl: (c) => fake.game.typeObjectNow(fake.game.typeOfValue(self(c))),
      },
    },
  });
  fake.class('System.ValueType', { abstract: true });
  fake.class('System.Enum', {
    base: 'System.ValueType',
    abstract: true,
    methods: { ToString: toString((c) => enumText(fake, self(c))) },
  });
  fake.class('System.Array', {
    abstract: true,
    interfaces: ['System.Collections.IEnumerable'],
    properties: {
      Length: { type: 'int', get: (c) => num('int', fake.elements(self(c)).length) },
    },
  });
  fake.struct('System.Void');
  fake.struct('System.IntPtr');
  fake.struct('System.Boolean', {
    methods: { ToString: toString((c) => formatPrimitive(toPrimitive(self(c))!)) },
  });
  for (const [name, kind, min, max] of INTEGRAL_RANGES) {
    const value = (n: bigint) => num(kind, kind === 'long' || kind === 'ulong' ? n : Number(n));
    fake.struct(name, {
      fields: {
        MaxValue: { type: name, const: value(max) },
        MinValue: { type: name, const: value(min) },
      },
      methods: {
        ToString: toString((c) => formatPrimitive(toPrimitive(self(c))!)),
        ...(kind === 'int' ? int32Parsing(fake) : {}),
      },
    });
  }
  for (const name of ['System.Single', 'System.Double', 'System.Decimal'])
    fake.struct(name, {
      ...(name === 'System.Decimal'
        ? {
            fields: {
              flags: 'int',
              hi: 'int',
              lo: 'int',
              mid: 'int',
              ...Object.fromEntries(
                ['Zero', 'One', 'MinusOne', 'MaxValue', 'MinValue'].map((n) => [
                  n,
                  { type: 'decimal', static: true, readonly: true },
                ]),
              ),
            },
          }
        : {}),
      methods: { ToString: toString((c) => formatPrimitive(toPrimitive(self(c))!)) },
    });

  fake.class('System.String', {
    sealed: true,
    interfaces: ['System.Collections.IEnumerable'],
    fields: { Empty: { type: 'string', static: true, readonly: true } },
    properties: { Length: { type: 'int', get: (c) => num('int', fake.text(self(c)).length) } },
    indexers: [
      {
        name: 'Chars',
        params: ['int index'],
        type: 'char',
        get: (c) => {
          const text = fake.text(self(c));
          const i = Number((c.args[0] as { value: number }).value);
          if (i < 0 || i >= text.length)
            throw gameException(
              'System.IndexOutOfRangeException',
              'Index was outside the bounds of the array.',
            );
          return num('char', text.charCodeAt(i));
        },
      },
    ],
    methods: {
      ToString: toString((c) => fake.text(self(c))),
      ToUpper: { returns: 'string', impl: (c) => str(fake.text(self(c)).toUpperCase()) },
      Substring: {
        params: ['int startIndex'],
        returns: 'string',
        impl: (c) => str(fake.text(self(c)).slice(Number((c.args[0] as { value: number }).value))),
      },
      IsNullOrEmpty: {
        static: true,
        params: ['string value'],
        returns: 'bool',
        impl: (c) => bool(c.args[0]!.kind === 'null' || fake.text(c.args[0]!) === ''),
      },
      Format: {
        static: true,
        params: ['string format', 'params object[] args'],
        returns: 'string',
        impl: (c) => str(stringFormat(fake, fake.text(c.args[0]!), fake.elements(c.args[1]!))),
      },
    },
  });
  fake.class('System.Type', {
    abstract: true,
    properties: {
      Name: { type: 'string', get: (c) => str(fake.metadata.entry(represented(fake, c)).name) },
    },
  });
  fake.class('System.RuntimeType', {
    base: 'System.Type',
    sealed: true,
    methods: { ToString: toString((c) => fake.reflectionName(represented(fake, c))) },
  });
  fake.struct('System.Nullable`1', {
    typeParams: ['T'],
    fields: { hasValue: 'bool', value: 'T' },
    properties: {
      HasValue: { type: 'bool', get: (c) => bool(self(c).kind !== 'null') },
      Value: {
        type: 'T',
        get: (c) => {
          if (self(c).kind === 'null')
            throw gameException(
              'System.InvalidOperationException',
              'Nullable object must have a value.',
            );
          return self(c);
        },
      },
    },
    methods: {
      GetValueOrDefault: {
        returns: 'T',
        impl: (c) => {
          const t = fake.metadata.entry(c.method.declaringType).typeArgs[0]!;
          return self(c).kind === 'null' ? fake.game.defaultOf(t) : self(c);
        },
      },
    },
  });
  fake.interface('System.Collections.IEnumerable');
  fake.interface('System.IDisposable', { methods: { Dispose: {} } });
  fake.setStatic('System.String', 'Empty', str(''));
}

function int32Parsing(fake: FakeRuntime): Record<string, MethodSpec> {
  const parse = (text: string): number | undefined =>
    /^\s*[+-]?\d+\s*$/.test(text) && Math.abs(Number(text)) <= 2 ** 31
      ? Number(text) | 0
      : undefined;
  return {
    Parse: {
      static: true,
      params: ['string s'],
      returns: 'int',
      impl: (c) => {
        const n = parse(fake.text(c.args[0]!));
        if (n === undefined)
          throw gameException(
            'System.FormatException',
            'Input string was not in a correct format.',
          );
        return num('int', n);
      },
    },
    TryParse: {
      static: true,
      params: ['string s', 'out int result'],
      returns: 'bool',
      impl: (c) => {
        const n = c.args[0]!.kind === 'null' ? undefined : parse(fake.text(c.args[0]!));
        c.setArg(1, num('int', n ?? 0));
        return bool(n !== undefined);
      },
    },
  };
}

function represented(fake: FakeRuntime, c: Call): TypeHandle {
  const o = fake.game.object(c.self!);
  if (o.kind !== 'type') throw new Error('fake: not a System.Type');
  return o.represents;
}

function enumText(fake: FakeRuntime, v: EvalValue): string {
  if (v.kind !== 'enum') throw new Error('fake: Enum.ToString of a non-enum');
  const member = fake.metadata
    .built(v.type)
    .fields.find((f) => f.constant?.kind === 'enum' && f.constant.value === v.value);
  return member ? member.name : String(v.value);
}

/** `ToString()` as the game runs it: virtual on the value's runtime type. */
function textInGame(fake: FakeRuntime, v: EvalValue): string {
  if (v.kind === 'null') return '';
  if (v.kind === 'string') return fake.text(v);
  const [toString] = fake.metadata
    .built(fake.type('object'))
    .methods.filter((m) => m.name === 'ToString');
  const r = fake.game.run(toString!, v, [], { virtual: true, outThis: false, outArgs: false });
  return fake.text(r.result);
}

/** String.Format with `{i}` and `{i,alignment}` holes (format strings are not faked). */
function stringFormat(fake: FakeRuntime, format: string, args: readonly EvalValue[]): string {
  return format.replace(
    /\{\{|\}\}|\{(\d+)(?:,(-?\d+))?(:[^}]*)?\}/g,
    (m, i?: string, a?: string, f?: string) => {
      if (m === '{{') return '{';
      if (m === '}}') return '}';
      if (f) throw new Error(`fake: String.Format does not do format strings (${m})`);
      const text = textInGame(fake, args[Number(i)]!);
      const width = Number(a ?? 0);
      return width < 0 ? text.padEnd(-width) : text.padStart(width);
    },
  );
}

/** Object.Equals: identity for objects, text for strings, equal contents for values. */
function sameValue(fake: FakeRuntime, a: EvalValue, b: EvalValue): boolean {
  if (a.kind === 'string' && b.kind === 'string') return fake.text(a) === fake.text(b);
  if (a.kind === 'object' || b.kind === 'object')
    return a.kind === 'object' && b.kind === 'object' && a.ref.id === b.ref.id;
  return JSON.stringify(a, jsonBigInt) === JSON.stringify(b, jsonBigInt);
}
