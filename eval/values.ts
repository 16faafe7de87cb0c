// The evaluator's values. Primitives are held locally (the game sends them by value anyway);
// everything with identity in the game (objects, arrays, strings that came from it) keeps an
// opaque reference the runtime understands. Structs are copies, as in C#: where a struct came
// from is kept so that writing one of its fields can be written back.

import type { TypeHandle } from './runtime.js';

export type IntegralKind =
  'sbyte' | 'byte' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong' | 'char';
export type NumericKind = IntegralKind | 'float' | 'double';

/** An opaque reference to an object in the game (its object id, for the debugger runtime). */
export interface ObjectRef {
  readonly id: number;
}

/** System.Decimal's four ints, as the runtime stores them: flags (sign, scale), hi, lo, mid. */
export interface DecimalBits {
  readonly flags: number;
  readonly hi: number;
  readonly lo: number;
  readonly mid: number;
}

export type EvalValue =
  | { readonly kind: 'null' }
  | { readonly kind: 'void' }
  | { readonly kind: 'bool'; readonly value: boolean }
  /** Integers up to 32 bits, char (UTF-16 unit) and double: number; float: a Math.fround-exact number; long/ulong: bigint. */
  | { readonly kind: 'number'; readonly type: NumericKind; readonly value: number | bigint }
  | { readonly kind: 'decimal'; readonly bits: DecimalBits }
  /** `text` is known when the string was made or already read; `ref` when it lives in the game. */
  | { readonly kind: 'string'; readonly text?: string; readonly ref?: ObjectRef }
  /**
   * A reference-type instance (class instance, array, System.Type...). Its runtime type is
   * fetched only when something needs it (a field chain does not).
   */
  | { readonly kind: 'object'; readonly ref: ObjectRef; readonly type?: TypeHandle }
  /** A struct value: its instance fields in declaration order. */
  | { readonly kind: 'struct'; readonly type: TypeHandle; readonly fields: readonly EvalValue[] }
  | {
      readonly kind: 'enum';
      readonly type: TypeHandle;
      readonly underlying: IntegralKind;
      readonly value: number | bigint;
    }
  /** A pointer-sized value (IntPtr payload). */
  | { readonly kind: 'pointer'; readonly address: bigint }
  /**
   * A value that lives in the evaluator, never in the game: a delegate made from a lambda or a
   * local function, a LINQ sequence, a grouping. `type` is its C# static type (Func<int, int>,
   * IEnumerable<T>); `payload` is the evaluator's own object (eval/interpret/client-values.ts).
   */
  | { readonly kind: 'client'; readonly type: TypeHandle; readonly payload: ClientObject };

/** What the formatter may ask of a client-side value (the interpreter's objects extend it). */
export interface ClientObject {
  readonly clientKind: 'delegate' | 'sequence' | 'anonymous' | 'enumerator';
  /** A sequence's elements: one enumeration (it may run the query's lambdas). */
  elements?(): AsyncIterable<EvalValue>;
  /** An anonymous object's members, in declaration order. */
  readonly members?: readonly (readonly [string, EvalValue])[];
  /** What its ToString() gives, when the evaluator defines it (anonymous objects). */
  text?(): Promise<string>;
}

export const NULL: EvalValue = { kind: 'null' };
export const VOID: EvalValue = { kind: 'void' };

export function bool(value: boolean): EvalValue {
  return { kind: 'bool', value };
}

export function num(type: NumericKind, value: number | bigint): EvalValue {
  return { kind: 'number', type, value };
}

export function str(text: string): EvalValue {
  return { kind: 'string', text };
}

/**
 * Elements read in bulk (GameAccess.readElements), each made a value only when it is asked for:
 * a runtime keeps 10,000 references as 10,000 numbers, not 20,000 objects that the garbage
 * collector copies over and over while a loop runs through them.
 */
export interface ElementColumn {
  readonly length: number;
  /** Element `i` (not always the same object at each call: elements have no identity of their own). */
  at(i: number): EvalValue;
  /** Element `i`'s object id when it is a class instance or array (kind 'object'), else undefined. */
  objectId(i: number): number | undefined;
  /**
   * Every element as a JS number (a bool as 1 or 0), when every one is a bool or a number held
   * exactly as one (not a long or ulong); undefined when one is anything else (a null, an
   * object). What the row paths (row-lambdas.ts) compute over.
   */
  numbers?(): Float64Array | undefined;
}

/** Values already made, as a column. */
export function columnOf(values: readonly EvalValue[]): ElementColumn {
  return {
    length: values.length,
    at: (i) => values[i]!,
    objectId: (i) => {
      const v = values[i]!;
      return v.kind === 'object' ? v.ref.id : undefined;
    },
    numbers: () => numbersOf(values),
  };
}

function numbersOf(values: readonly EvalValue[]): Float64Array | undefined {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v.kind === 'bool') out[i] = v.value ? 1 : 0;
    else if (v.kind === 'number' && typeof v.value === 'number') out[i] = v.value;
    else return undefined;
  }
  return out;
}
