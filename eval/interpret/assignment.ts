// Assignment (ECMA-334 §12.21): simple, compound (x op= y, with the explicit conversion back
// that C# allows for predefined operators) and ??=.

import type * as A from '../syntax/index.js';
import { type BinaryOperator } from '../semantics/promotion.js';
import type { TypeHandle } from '../runtime.js';
import { type EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class Assignments {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  async assignment(e: A.Assignment): Promise<Operand> {
    const target = await this.it.variables.target(e.target);
    const type = target.type as TypeHandle;
    if (e.operator === '=') {
      const v = await this.it.conversions.implicitly(
        await this.it.functions.target(e.value, type),
        type,
        'the assigned value',
      );
      await this.it.variables.store(target, v.value);
      return { type, value: v.value };
    }
    if (e.operator === '??=') {
      if ((await this.f.isValueType(type)) && !(await this.f.nullableUnderlying(type))) {
        throw new CompileError(
          'CS0019',
          `operator '??=' cannot be applied to operands of type '${await this.f.name(type)}'`,
          e.span,
        );
      }
      // the value of x ??= y is of x's underlying type when x is a Nullable (C# 8, §12.21.5)
      const resultType = (await this.f.nullableUnderlying(type)) ?? type;
      const current = await this.it.variables.readTarget(target);
      if (!this.it.dry && current.kind !== 'null') {
        await this.it.inDry(() => this.it.expr(e.value));
        return { type: resultType, value: current };
      }
      const v = await this.it.conversions.implicitly(
        await this.it.expr(e.value),
        resultType,
        'the assigned value',
      );
      await this.it.variables.store(target, v.value);
      return { type: resultType, value: v.value };
    }
    const op = e.operator.slice(0, -1) as BinaryOperator;
    const current: Operand = { type, value: await this.readForCompound(target) };
    const rhs = await this.it.expr(e.value);
    const result = await this.it.binaryOperators.applyBinaryOp(op, current, rhs, e.span);
    const conv = this.it.conversions;
    let stored: Operand;
    if (await conv.implicit(result, type)) {
      stored = await conv.implicitly(result, type);
    } else {
      // §12.21.4: x op= y is x = (T)(x op y) for a predefined operator when y converts to T
      const explicit = await conv.explicit(result, type);
      const predefined =
        !!(await this.f.primitive(result.type)) || (await this.f.isEnum(result.type));
      const rhsFits = !!(await conv.implicit(rhs, type)) || (await this.shiftCount(op, rhs));
      if (explicit && predefined && !rhsFits && rhs.constant) {
        throw new CompileError(
          'CS0031',
          `constant value cannot be converted to a '${await this.f.name(type)}'`,
          e.value.span,
        );
      }
      if (!explicit || !predefined || !rhsFits) {
        throw new CompileError(
          explicit ? 'CS0266' : 'CS0029',
          `cannot implicitly convert type '${await this.f.name(result.type)}' to '${await this.f.name(type)}'`,
          e.span,
        );
      }
      stored = await conv.apply(
        explicit,
        { type: result.type, value: result.value },
        type,
        this.it.checked,
      );
    }
    await this.it.variables.store(target, stored.value);
    return { type, value: stored.value };
  }

  private async readForCompound(target: Operand): Promise<EvalValue> {
    return this.it.variables.readTarget(target);
  }

  /** `x <<= n` / `x >>= n`: the count is an int whatever x is. */
  private async shiftCount(op: BinaryOperator, rhs: Operand): Promise<boolean> {
    if (op !== '<<' && op !== '>>') return false;
    return !!(await this.it.conversions.implicit(rhs, await this.it.wk.keyword('int')));
  }
}
