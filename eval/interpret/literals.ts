// Literals and compile-time constants (ECMA-334 §12.8.2, §12.23): a literal's type and value,
// a constant operand as the compiler folds it, and the zero of each primitive kind.

import type * as A from '../syntax/index.js';
import { constantOf, materialize, type Constant } from '../semantics/constant-folding.js';
import {
  asValue,
  primitive,
  type PrimitiveKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import type { TypeHandle } from '../runtime.js';
import { NULL } from '../values.js';
import { decimalFromLiteral } from './decimal-literal.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { ConstantValue, Operand } from './operand.js';
import { fromPrimitive } from './primitives.js';

export class Literals {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  async literal(e: A.Literal): Promise<Operand> {
    switch (e.type) {
      case 'int':
      case 'uint':
        return this.constantOperand(
          await this.it.wk.keyword(e.type),
          asValue(primitive(e.type, Number(e.value))),
        );
      case 'long':
      case 'ulong':
        return this.constantOperand(
          await this.it.wk.keyword(e.type),
          asValue(primitive(e.type, e.value)),
        );
      case 'float':
      case 'double': {
        if (!Number.isFinite(e.value)) {
          throw new CompileError(
            'CS0594',
            `floating-point constant is outside the range of type '${e.type}'`,
            e.span,
          );
        }
        return this.constantOperand(
          await this.it.wk.keyword(e.type),
          asValue(primitive(e.type, e.value)),
        );
      }
      case 'decimal': {
        const d = decimalFromLiteral(e.digits);
        if (!d)
          throw new CompileError(
            'CS0594',
            "floating-point constant is outside the range of type 'decimal'",
            e.span,
          );
        return this.constantOperand(
          await this.it.wk.keyword('decimal'),
          asValue(primitive('decimal', d)),
        );
      }
      case 'char':
        return this.constantOperand(
          await this.it.wk.keyword('char'),
          asValue(primitive('char', e.value)),
        );
      case 'bool':
        return this.constantOperand(
          await this.it.wk.keyword('bool'),
          asValue(primitive('bool', e.value)),
        );
      case 'string':
        return {
          type: await this.it.wk.keyword('string'),
          value: { kind: 'string', text: e.value },
          constant: { kind: 'string', value: e.value },
        };
      case 'null':
        return { type: 'null', value: NULL, constant: { kind: 'null' } };
    }
  }

  constantOperand(type: TypeHandle, p: PrimitiveValue): Operand {
    return this.folded(type, constantOf(p));
  }

  folded(type: TypeHandle, c: Constant): Operand {
    return { type, value: fromPrimitive(materialize(c)), constant: { kind: 'number', c } };
  }

  zero(kind: PrimitiveKind): PrimitiveValue {
    if (kind === 'bool') return asValue(primitive('bool', false));
    if (kind === 'long' || kind === 'ulong') return asValue(primitive(kind, 0n));
    if (kind === 'decimal')
      return asValue(primitive('decimal', { negative: false, scale: 0, mantissa: 0n }));
    return asValue(primitive(kind, 0));
  }

  async typeOfKind(kind: PrimitiveKind): Promise<TypeHandle> {
    return kind === 'bool' ? this.it.wk.keyword('bool') : this.it.wk.numeric(kind);
  }
}

/** A bool constant's value, or undefined when the operand is not a bool constant. */
export function constBool(c: ConstantValue | undefined): boolean | undefined {
  return c?.kind === 'number' && c.c.value.kind === 'bool' ? c.c.value.value : undefined;
}
