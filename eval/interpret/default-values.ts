// The default value of a type (ECMA-334 §9.3, default(T), a struct's zeroed fields): zero for
// primitives and enums, null for references and nullables, a struct with each field defaulted.

import type { TypeHandle } from '../runtime.js';
import { NULL, type EvalValue } from '../values.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class Defaults {
  constructor(private readonly it: Interpreter) {}

  /** default(T): zero for primitives and enums, null for references, a zeroed struct. */
  async defaultValue(type: TypeHandle): Promise<Operand> {
    const p = await this.it.facts.primitive(type);
    if (p) return this.it.literals.constantOperand(type, this.it.literals.zero(p));
    if (await this.it.facts.isEnum(type)) {
      const u = await this.it.facts.enumUnderlying(type);
      return {
        type,
        value: { kind: 'enum', type, underlying: u, value: u === 'long' || u === 'ulong' ? 0n : 0 },
      };
    }
    if (
      (await this.it.facts.nullableUnderlying(type)) ||
      !(await this.it.facts.isValueType(type))
    ) {
      return (await this.it.facts.isString(type))
        ? { type, value: NULL, constant: { kind: 'null' } }
        : { type, value: NULL };
    }
    return { type, value: await this.zeroStruct(type) };
  }

  async zeroStruct(type: TypeHandle): Promise<EvalValue> {
    const fields = (await this.it.md.allFields(type)).filter((f) => !f.isStatic);
    const values: EvalValue[] = [];
    for (const f of fields) values.push((await this.defaultValue(f.type)).value);
    return { kind: 'struct', type, fields: values };
  }
}
