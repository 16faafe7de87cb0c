// Enum binary operators (ECMA-334 §12.12.6, §12.13.3, §12.10.6): comparisons, &, |, ^ and
// E ± U / E - E on the underlying type, folded when both operands are constant; and an enum
// value as a primitive of its underlying type.

import type * as A from '../syntax/index.js';
import { applyBinary } from '../semantics/arithmetic.js';
import { constantOf } from '../semantics/constant-folding.js';
import { convert } from '../semantics/conversions.js';
import { EvalCompileError } from '../semantics/errors.js';
import {
  type IntegralKind,
  type PrimitiveKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import {
  resolveBinaryOperator,
  resolveEnumBinaryOperator,
  type BinaryOperator,
  type OperandType,
} from '../semantics/promotion.js';
import type { TypeHandle } from '../runtime.js';
import { VOID, type EvalValue } from '../values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';
import { sem } from './errors.js';

export class EnumOperators {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  async binary(op: BinaryOperator, l: Operand, r: Operand, span: A.Span): Promise<Operand> {
    const info = async (x: Operand): Promise<OperandType> => {
      if (x.type !== 'null' && (await this.f.isEnum(x.type))) {
        return {
          enumName: await this.f.fullName(x.type),
          underlying: (await this.f.enumUnderlying(x.type)) as Exclude<IntegralKind, 'char'>,
        };
      }
      const p = await this.f.primitive(x.type);
      if (!p) return { enumName: `!${await this.f.name(x.type)}`, underlying: 'int' }; // matches no enum
      return x.constant?.kind === 'number'
        ? { kind: p, constant: x.constant.c.value }
        : { kind: p };
    };
    const [li, ri] = [await info(l), await info(r)];
    let res;
    try {
      res = resolveEnumBinaryOperator(op, li, ri);
    } catch (e) {
      if (e instanceof EvalCompileError)
        throw await this.it.binaryOperators.noOperator(op, l.type, r.type, span);
      throw e;
    }
    const enumType = ('enumName' in li ? l.type : r.type) as TypeHandle;
    const u = res.underlying;
    const type =
      res.result === 'bool'
        ? await this.it.wk.keyword('bool')
        : res.result === 'enum'
          ? enumType
          : await this.it.wk.numeric(u);
    const constant = !!l.constant && !!r.constant;
    if (this.it.dry && !constant) return { type, value: VOID };
    const raw = (x: Operand) =>
      x.value.kind === 'enum'
        ? convert(enumRaw(x.value), u, false)
        : convert(toPrimitive(x.value)!, u, false);
    const checkedNow = constant ? this.it.constantContext === 'checked' : this.it.checked;
    const a = raw(l);
    const b = raw(r);
    const sig = sem(() => resolveBinaryOperator(op, { kind: u }, { kind: u }), span);
    const v = sem(
      () =>
        applyBinary(op, sig, convert(a, sig.left, false), convert(b, sig.right, false), {
          checked: checkedNow,
        }),
      span,
    );
    if (res.result === 'bool') {
      const out = fromPrimitive(v);
      return constant
        ? { type, value: out, constant: { kind: 'number', c: constantOf(v) } }
        : { type, value: out };
    }
    const back = sem(() => convert(v, u, checkedNow), span);
    if (constant && checkedNow && back.value !== convert(v, u, false).value)
      throw new CompileError(
        'CS0220',
        'the operation overflows at compile time in checked mode',
        span,
      );
    const value: EvalValue =
      res.result === 'enum'
        ? { kind: 'enum', type: enumType, underlying: u, value: back.value as number | bigint }
        : fromPrimitive(back);
    return constant
      ? { type, value, constant: { kind: 'number', c: constantOf(back) } }
      : { type, value };
  }
}

/** The type an enum's underlying kind promotes to for ~. */
export function promotedOf(u: IntegralKind): PrimitiveKind {
  return u === 'long' || u === 'ulong' || u === 'uint' ? u : 'int';
}

/** An enum value (or a number standing for one) as a primitive of its underlying type. */
export function enumRaw(v: EvalValue): PrimitiveValue {
  if (v.kind === 'enum') {
    return v.underlying === 'long' || v.underlying === 'ulong'
      ? { kind: v.underlying, value: BigInt(v.value) }
      : { kind: v.underlying, value: Number(v.value) };
  }
  const p = toPrimitive(v);
  if (!p) throw new UnsupportedError(`expected an enum value, got ${v.kind}`);
  return p;
}
