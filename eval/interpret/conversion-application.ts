// What a conversion (see conversions.ts) does (ECMA-334 §11): to a constant, folded as the
// compiler folds it (out of range is an error where checked); to a value at run time — numbers
// and enums converted, structs boxed, unboxing and downcasts checked against the runtime type
// (InvalidCastException), nullables wrapped, unwrapped and lifted, user-defined operators
// called in the game. Nothing is touched in type-only mode.

import { convert } from '../semantics/conversions.js';
import { foldConversion, materialize } from '../semantics/constant-folding.js';
import {
  isIntegralKind,
  type IntegralKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, type EvalValue } from '../values.js';
import type { Conversion } from './conversions.js';
import { Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { ConstantValue, Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';

export class ConversionApplication {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  /** Applies a conversion to a value (nothing in the game is touched in type-only mode). */
  async apply(c: Conversion, from: Operand, to: TypeHandle, checked: boolean): Promise<Operand> {
    const constant = await this.constant(c, from, to);
    // a folded constant is its own value: (double)(16777216f + 1f) keeps the compiler's double
    if (constant?.kind === 'number' && c.k === 'numeric' && !this.it.dry)
      return { type: to, value: fromPrimitive(materialize(constant.c)), constant };
    const value = this.it.dry ? from.value : await this.value(c, from, to, checked);
    return constant === undefined ? { type: to, value } : { type: to, value, constant };
  }

  private async constant(
    c: Conversion,
    from: Operand,
    to: TypeHandle,
  ): Promise<ConstantValue | undefined> {
    const fc = from.constant;
    if (!fc) return undefined;
    if (c.k === 'identity') return fc;
    if (c.k === 'null') return (await this.f.isString(to)) ? { kind: 'null' } : undefined;
    if ((c.k === 'numeric' || c.k === 'enum') && fc.kind === 'number') {
      const pt =
        (await this.f.primitive(to)) ??
        ((await this.f.isEnum(to)) ? await this.f.enumUnderlying(to) : undefined);
      if (!pt) return undefined;
      // §11.2.11 / §12.20: a constant conversion out of range is a compile error when checked
      return { kind: 'number', c: foldConversion(fc.c, pt, this.it.constantContext) };
    }
    return undefined;
  }

  private async value(
    c: Conversion,
    from: Operand,
    to: TypeHandle,
    checked: boolean,
  ): Promise<EvalValue> {
    const v = from.value;
    switch (c.k) {
      case 'identity':
      case 'reference':
        return v;
      case 'null':
        return NULL;
      case 'numeric': {
        const p = toPrimitive(v);
        const pt = await this.f.primitive(to);
        if (!p || !pt) throw new Error('numeric conversion of a non-number');
        return fromPrimitive(convert(p, pt, checked));
      }
      case 'enum':
        return this.enumValue(v, to, checked);
      case 'boxing':
        // a struct gets a real box (calls through an interface mutate the box, as in C#);
        // primitives, enums and decimals stay values: immutable, boxed when they reach the game
        return v.kind === 'struct' ? this.it.rt.game.box(v, v.type) : v;
      case 'unboxing':
        return this.unbox(v, to);
      case 'downcast': {
        if (v.kind === 'null') return v;
        const runtime = await this.it.rt.game.typeOf(v);
        if (!(await this.f.assignable(to, runtime))) throw Messages.invalidCast();
        return v;
      }
      case 'wrap':
        return this.value(c.inner, from, c.underlying, checked);
      case 'unwrap':
        if (v.kind === 'null') throw Messages.noValue();
        return this.value(
          c.inner,
          { type: (await this.f.nullableUnderlying(from.type))!, value: v },
          to,
          checked,
        );
      case 'lifted':
        if (v.kind === 'null') return NULL;
        return this.value(
          c.inner,
          { type: (await this.f.nullableUnderlying(from.type))!, value: v },
          c.underlying,
          checked,
        );
      case 'user': {
        const arg = await this.value(c.before, from, c.method.parameters[0]!.type, checked);
        const r = await this.it.invoker.invokeRaw(c.method, undefined, [arg]);
        return this.value(c.after, { type: c.method.returnType!, value: r }, to, checked);
      }
    }
  }

  private async enumValue(v: EvalValue, to: TypeHandle, checked: boolean): Promise<EvalValue> {
    const raw: PrimitiveValue | undefined =
      v.kind === 'enum'
        ? v.underlying === 'long' || v.underlying === 'ulong'
          ? { kind: v.underlying, value: BigInt(v.value) }
          : { kind: v.underlying, value: Number(v.value) }
        : toPrimitive(v);
    if (!raw) throw new Error('enum conversion of a non-number');
    if (await this.f.isEnum(to)) {
      const u = await this.f.enumUnderlying(to);
      const p = convert(raw, u, checked);
      return { kind: 'enum', type: to, underlying: u, value: p.value as number | bigint };
    }
    const pt = await this.f.primitive(to);
    if (!pt) throw new Error('enum conversion to a non-number');
    return fromPrimitive(convert(raw, pt, checked));
  }

  /** A boxed value arrives inline: unboxing checks its exact type (§11.3.6). */
  private async unbox(v: EvalValue, to: TypeHandle): Promise<EvalValue> {
    if (v.kind === 'null') {
      if (await this.f.nullableUnderlying(to)) return NULL;
      throw Messages.nullReference();
    }
    const target = (await this.f.nullableUnderlying(to)) ?? to;
    const actual = await this.it.rt.game.typeOf(v);
    if (this.f.same(actual, target)) {
      // a box made here holds a struct: unboxing copies it out
      return v.kind === 'object' && (await this.f.describe(target)).kind === 'struct'
        ? this.it.rt.game.unbox(v, target)
        : v;
    }
    // the CLR unboxes an enum as its underlying type and the reverse (ECMA-335 III.4.32)
    const [ka, kt] = [await this.underlyingKind(actual), await this.underlyingKind(target)];
    if (!ka || ka !== kt) throw Messages.invalidCast();
    if (await this.f.isEnum(target)) {
      const p = toPrimitive(v);
      return p
        ? { kind: 'enum', type: target, underlying: ka, value: p.value as number | bigint }
        : v;
    }
    return v.kind === 'enum' ? { kind: 'number', type: ka, value: v.value } : v;
  }

  /** The integral kind of an enum or an integral primitive type. */
  private async underlyingKind(t: TypeHandle): Promise<IntegralKind | undefined> {
    if (await this.f.isEnum(t)) return this.f.enumUnderlying(t);
    const p = await this.f.primitive(t);
    return p && p !== 'bool' && isIntegralKind(p) ? p : undefined;
  }
}
