// Calling a method on a receiver as the CLR would: virtually on references, directly on struct
// values whose mutated copy is written back to the variable it came from (not to a readonly
// field), a boxed struct called through an interface updated in its box; property getters and
// setters are such calls.

import type { InvokeResult, MethodDescriptor, PropertyDescriptor } from '../runtime.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand, PropertyTarget } from './operand.js';

export class Invoker {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  private get game() {
    return this.it.rt.game;
  }

  /**
   * Calls a method on a receiver: virtually on references, directly on struct values (whose
   * mutated copy is written back where it came from). A null receiver throws as C# would.
   */
  async invokeOn(
    m: MethodDescriptor,
    receiver: Operand | undefined,
    values: readonly EvalValue[],
    outArgs: boolean,
    /** The call is this property's setter in an assignment. */
    propertySet?: PropertyDescriptor,
  ): Promise<InvokeResult> {
    const rv0 = receiver?.value;
    if (rv0?.kind === 'client' && !m.isStatic)
      return { result: await this.it.clientValues.invokeMember(rv0, m, values) };
    if (values.some((v) => v.kind === 'client'))
      values = await this.it.clientValues.intoGame(values, `calling '${m.name}'`);
    if (m.isStatic || !receiver)
      return this.game.invoke(m, undefined, values, {
        virtual: false,
        outThis: false,
        outArgs,
        ...(propertySet ? { propertySet } : {}),
      });
    const rv = receiver.value;
    // a Nullable<T> is a struct: calling its members on "null" is fine (HasValue, GetValueOrDefault)
    if (rv.kind === 'null' && !(await this.f.nullableUnderlying(m.declaringType)))
      throw Messages.nullReference();
    const valueReceiver = rv.kind !== 'object' && rv.kind !== 'string';
    const declaredOnValueType = await this.f.isValueType(m.declaringType);
    // a readonly field's struct is copied before the call (C# §12.8.7): nothing is written back
    const writeBack =
      valueReceiver &&
      declaredOnValueType &&
      rv.kind === 'struct' &&
      !!receiver.place &&
      !this.it.variables.isReadOnlyPlace(receiver.place);
    // a struct in a box called through an interface: the agent runs the method on a copy,
    // so the changed copy is stored back into the box (the CLR changes the box in place)
    let box = false;
    if (rv.kind === 'object' && (await this.f.describe(m.declaringType)).kind === 'interface') {
      box = await this.f.isValueType(await this.game.typeOf(rv));
    }
    // a setter on an object changes the game; on a struct value or a box's copy it changes a
    // copy, written back (when it is a variable) as the write of a field
    const set = propertySet && rv.kind === 'object' && !box ? { propertySet } : {};
    const r = await this.game.invoke(m, rv, values, {
      virtual: m.isVirtual && !declaredOnValueType,
      outThis: writeBack || box,
      outArgs,
      ...set,
    });
    if (writeBack && r.outThis && !sameStruct(r.outThis, rv))
      await this.it.variables.write(receiver.place, r.outThis);
    if (box && r.outThis?.kind === 'struct') await this.game.rebox(rv, r.outThis);
    return r;
  }

  /** A call with already-converted arguments (user-defined conversions, ToString). */
  async invokeRaw(
    m: MethodDescriptor,
    thisArg: EvalValue | undefined,
    args: readonly EvalValue[],
  ): Promise<EvalValue> {
    const receiver = thisArg ? { type: m.declaringType, value: thisArg } : undefined;
    return (await this.invokeOn(m, receiver, args, false)).result;
  }

  // ---------------------------------------------------------------- properties

  async callGetter(t: PropertyTarget): Promise<EvalValue> {
    if (this.it.dry) return VOID;
    const getter = t.property.getter!;
    const receiver = t.property.isStatic
      ? undefined
      : { type: t.property.declaringType, value: t.receiver ?? NULL };
    return (await this.invokeOn(getter, receiver, t.args, false)).result;
  }

  async callSetter(t: PropertyTarget, value: EvalValue): Promise<void> {
    if (this.it.dry) return;
    const setter = t.property.setter!;
    const receiver = t.property.isStatic
      ? undefined
      : {
          type: t.property.declaringType,
          value: t.receiver ?? NULL,
          ...(t.receiverPlace ? { place: t.receiverPlace } : {}),
        };
    await this.invokeOn(setter, receiver, [...t.args, value], false, t.property);
  }
}

function sameStruct(a: EvalValue, b: EvalValue): boolean {
  return (
    JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ===
    JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
  );
}
