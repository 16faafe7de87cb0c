// What evaluating an expression yields: its static type (C# semantics are decided on static
// types), its value, whether it is a compile-time constant, and whether it denotes a variable
// (something that can be assigned, and into which a mutated struct copy is written back).

import type { Constant } from '../semantics/constant-folding.js';
import type {
  FieldDescriptor,
  MethodDescriptor,
  PropertyDescriptor,
  TypeHandle,
} from '../runtime.js';
import type { EvalValue } from '../values.js';
import type { ScopeVariable } from './scope.js';
import type { SType } from './type-facts.js';

/** A compile-time constant: numbers as the compiler folds them (floats keep mcs's wide double). */
export type ConstantValue =
  | { readonly kind: 'number'; readonly c: Constant }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'null' };

export type Place =
  | { readonly k: 'local'; readonly name: string }
  | { readonly k: 'static'; readonly field: FieldDescriptor }
  /** A field of a class instance. */
  | { readonly k: 'field'; readonly target: EvalValue; readonly field: FieldDescriptor }
  /** Field `index` of the struct stored at `parent`. */
  | {
      readonly k: 'struct-field';
      readonly parent: Place;
      readonly index: number;
      readonly field: FieldDescriptor;
    }
  | { readonly k: 'element'; readonly array: EvalValue; readonly index: number }
  /** A variable of the scope the program runs in (a frame's parameter, local or `this`). */
  | { readonly k: 'scope'; readonly name: string; readonly variable: ScopeVariable };

/** A property or indexer that can be assigned (through its setter): not a variable. */
export interface PropertyTarget {
  readonly property: PropertyDescriptor;
  readonly receiver: EvalValue | undefined;
  readonly receiverPlace: Place | undefined;
  readonly args: readonly EvalValue[];
}

/** Whether an access only needs the member's location (the target of `=`), not its value. */
export type AccessMode = 'read' | 'write';

export interface Operand {
  readonly type: SType;
  readonly value: EvalValue;
  readonly constant?: ConstantValue;
  readonly place?: Place;
  readonly property?: PropertyTarget;
}

export type Resolved =
  | { readonly k: 'value'; readonly op: Operand }
  | { readonly k: 'type'; readonly type: TypeHandle }
  | { readonly k: 'namespace'; readonly name: string }
  | {
      readonly k: 'methods';
      readonly name: string;
      readonly methods: readonly MethodDescriptor[];
      /** The instance the methods are called on; undefined for a type's (static) methods. */
      readonly receiver: Operand | undefined;
      /**
       * The receiver is the scope's `this`, implied by a simple name (§12.8.4): a static method
       * of the group is called without it, not refused (CS0176).
       */
      readonly implicitThis?: boolean;
      readonly typeArgs: readonly TypeHandle[];
    };
