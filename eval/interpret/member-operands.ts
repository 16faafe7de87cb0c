// Fields and properties as operands (ECMA-334 §12.8.7, §15.5, §15.7): a constant (decimal's
// constants too), a static field, a class instance's field or a field of a struct copy as a
// variable, and a property or indexer read through its getter and assignable through its
// setter; C#'s errors for what cannot be assigned.

import type * as A from '../syntax/index.js';
import type { FieldDescriptor, PropertyDescriptor } from '../runtime.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { constantOf } from '../semantics/constant-folding.js';
import { CompileError, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { AccessMode, ConstantValue, Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';
import {
  asValue,
  primitive,
  type DecimalValue,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import {
  DECIMAL_MAX_VALUE,
  DECIMAL_MIN_VALUE,
  DECIMAL_ONE,
  DECIMAL_ZERO,
  makeDecimal,
} from '../semantics/decimal.js';

const DECIMAL_CONSTANTS: Readonly<Record<string, DecimalValue>> = {
  Zero: DECIMAL_ZERO,
  One: DECIMAL_ONE,
  MinusOne: makeDecimal(true, 0, 1n),
  MaxValue: DECIMAL_MAX_VALUE,
  MinValue: DECIMAL_MIN_VALUE,
};

export class MemberOperands {
  constructor(private readonly it: Interpreter) {}

  private get md() {
    return this.it.md;
  }

  /** A field as an operand: a constant, a static, a class instance's or a struct copy's field. */
  async fieldOperand(
    receiver: Operand | undefined,
    field: FieldDescriptor,
    mode: AccessMode,
    span: A.Span,
  ): Promise<Operand> {
    if (field.constant) {
      if (mode === 'write')
        throw new CompileError('CS0131', `the constant '${field.name}' cannot be assigned`, span);
      const constant = constantValueOf(field.constant);
      return constant
        ? { type: field.type, value: field.constant, constant }
        : { type: field.type, value: field.constant };
    }
    if (!receiver) {
      const decimalConstant = await this.decimalConstant(field);
      if (decimalConstant) {
        if (mode === 'write')
          throw new CompileError('CS0131', `the constant '${field.name}' cannot be assigned`, span);
        return decimalConstant;
      }
      const place = { k: 'static', field } as const;
      return {
        type: field.type,
        value: mode === 'read' ? await this.it.variables.read(place) : VOID,
        place,
      };
    }
    const rv = receiver.value;
    const facts = this.it.facts;
    if (facts.knownValueType(receiver.type) ?? (await facts.isValueType(receiver.type))) {
      const index = await this.instanceFieldIndex(field);
      const place = receiver.place
        ? ({ k: 'struct-field', parent: receiver.place, index, field } as const)
        : undefined;
      let value: EvalValue = VOID;
      if (!this.it.dry && mode === 'read') {
        if (rv.kind !== 'struct') throw new Error(`a field of a ${rv.kind} value`);
        value = rv.fields[index] ?? NULL;
      }
      if (mode === 'write' && !place) {
        throw new CompileError(
          'CS1612',
          `cannot modify the value of '${field.name}': its struct is not a variable (store it in a local first)`,
          span,
        );
      }
      return place ? { type: field.type, value, place } : { type: field.type, value };
    }
    if (!this.it.dry && rv.kind === 'null') throw Messages.nullReference();
    const place = { k: 'field', target: rv, field } as const;
    return {
      type: field.type,
      value: mode === 'read' ? await this.it.variables.read(place) : VOID,
      place,
    };
  }

  /**
   * decimal.Zero, One, MinusOne, MaxValue, MinValue: `const decimal` in C#, but stored as
   * static readonly fields with DecimalConstantAttribute, which the compiler reads as constants.
   */
  private async decimalConstant(field: FieldDescriptor): Promise<Operand | undefined> {
    if (!field.isStatic || !field.isReadOnly) return undefined;
    const value = DECIMAL_CONSTANTS[field.name];
    if (!value || (await this.it.facts.fullName(field.declaringType)) !== 'System.Decimal')
      return undefined;
    const p = asValue(primitive('decimal', value));
    return {
      type: field.type,
      value: fromPrimitive(p),
      constant: { kind: 'number', c: constantOf(p) },
    };
  }

  private async instanceFieldIndex(field: FieldDescriptor): Promise<number> {
    const fields = (await this.md.allFields(field.declaringType)).filter((f) => !f.isStatic);
    const i = fields.findIndex((f) => f.name === field.name);
    if (i < 0) throw new Error(`field ${field.name} is not an instance field of its type`);
    return i;
  }

  /** A property or indexer: read through its getter, assignable through its setter. */
  async propertyOperand(
    receiver: Operand | undefined,
    property: PropertyDescriptor,
    args: readonly EvalValue[],
    mode: AccessMode,
    span: A.Span,
  ): Promise<Operand> {
    const target = { property, receiver: receiver?.value, receiverPlace: receiver?.place, args };
    if (mode === 'write') {
      if (!property.setter)
        throw new CompileError(
          'CS0200',
          `property or indexer '${property.name}' cannot be assigned to: it is read only`,
          span,
        );
      // a struct's setter on a copy C# cannot name would change nothing (CS1612)
      if (receiver && !receiver.place && (await this.it.facts.isValueType(receiver.type))) {
        throw new CompileError(
          'CS1612',
          `cannot modify the value of '${property.name}': its struct is not a variable (store it in a local first)`,
          span,
        );
      }
      return { type: property.type, value: VOID, property: target };
    }
    if (!property.getter)
      throw new CompileError(
        'CS0154',
        `the property or indexer '${property.name}' cannot be used in this context because it lacks the get accessor`,
        span,
      );
    const value = await this.it.invoker.callGetter(target);
    return { type: property.type, value, property: target };
  }
}

/** A constant field's value as the language sees it (numbers fold; strings and null too). */
export function constantValueOf(v: EvalValue): ConstantValue | undefined {
  if (v.kind === 'null') return { kind: 'null' };
  if (v.kind === 'string' && v.text !== undefined) return { kind: 'string', value: v.text };
  if (v.kind === 'enum') {
    const big = v.underlying === 'long' || v.underlying === 'ulong';
    return {
      kind: 'number',
      c: constantOf({
        kind: v.underlying,
        value: big ? BigInt(v.value) : Number(v.value),
      } as PrimitiveValue),
    };
  }
  const p = toPrimitive(v);
  return p ? { kind: 'number', c: constantOf(p) } : undefined;
}
