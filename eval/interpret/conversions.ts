// C#'s conversions between static types (ECMA-334 §11): which exist implicitly, which only
// explicitly, and how each changes a value. Numeric rules come from eval/semantics; reference
// rules ask the runtime; user-defined ones call op_Implicit / op_Explicit in the game.

import {
  convert,
  hasExplicitConversion,
  isImplicitlyConvertible,
} from '../semantics/conversions.js';
import { foldConversion, materialize } from '../semantics/constant-folding.js';
import {
  isIntegralKind,
  type IntegralKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import type { MethodDescriptor, TypeHandle } from '../runtime.js';
import { NULL, type EvalValue } from '../values.js';
import { CompileError, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { ConstantValue, Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';

export type Conversion =
  | { readonly k: 'identity' }
  | { readonly k: 'numeric' }
  | { readonly k: 'null' }
  | { readonly k: 'reference' }
  | { readonly k: 'boxing' }
  | { readonly k: 'unboxing' }
  | { readonly k: 'downcast' }
  | { readonly k: 'enum' }
  | { readonly k: 'wrap'; readonly inner: Conversion; readonly underlying: TypeHandle }
  | { readonly k: 'unwrap'; readonly inner: Conversion }
  | { readonly k: 'lifted'; readonly inner: Conversion; readonly underlying: TypeHandle }
  | {
      readonly k: 'user';
      readonly method: MethodDescriptor;
      readonly before: Conversion;
      readonly after: Conversion;
    };

export class Conversions {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  /** An implicit conversion from the operand to `to` (§11.2), or undefined. */
  async implicit(from: Operand, to: TypeHandle, allowUser = true): Promise<Conversion | undefined> {
    const t = from.type;
    if (t === 'null') {
      if ((await this.f.isReferenceType(to)) || (await this.f.nullableUnderlying(to)))
        return { k: 'null' };
      return undefined;
    }
    if (this.f.same(t, to)) return { k: 'identity' };
    const [pf, pt] = await Promise.all([this.f.primitive(t), this.f.primitive(to)]);
    if (pf && pt) {
      const constant = from.constant?.kind === 'number' ? from.constant.c.value : undefined;
      return isImplicitlyConvertible(constant ? { kind: pf, constant } : { kind: pf }, pt)
        ? { k: 'numeric' }
        : undefined;
    }
    // the literal 0 converts to any enum (§11.2.4)
    if (pf && (await this.f.isEnum(to))) {
      const c = from.constant?.kind === 'number' ? from.constant.c.value : undefined;
      if (
        c &&
        c.kind !== 'bool' &&
        c.kind !== 'decimal' &&
        isIntegralKind(c.kind) &&
        Number(c.value) === 0
      ) {
        return { k: 'enum' };
      }
    }
    const underlying = await this.f.nullableUnderlying(to);
    if (underlying) {
      const source = await this.f.nullableUnderlying(t);
      if (source) {
        const inner = await this.implicit({ type: source, value: NULL }, underlying, false);
        return inner ? { k: 'lifted', inner, underlying } : undefined;
      }
      // S -> T? through S -> T, user-defined conversions included (§10.6.1)
      const inner = await this.implicit(from, underlying, allowUser);
      if (inner) return { k: 'wrap', inner, underlying };
    }
    if (await this.f.assignable(to, t)) {
      return (await this.f.isValueType(t)) && !(await this.f.isValueType(to))
        ? { k: 'boxing' }
        : { k: 'reference' };
    }
    return allowUser ? this.userDefined(from, to, 'op_Implicit') : undefined;
  }

  /** A conversion a cast may apply (§11.3): the implicit ones and the explicit ones. */
  async explicit(from: Operand, to: TypeHandle, allowUser = true): Promise<Conversion | undefined> {
    const imp = await this.implicit(from, to, allowUser);
    if (imp) return imp;
    const t = from.type;
    if (t === 'null') return undefined;
    const [pf, pt] = await Promise.all([this.f.primitive(t), this.f.primitive(to)]);
    const [ef, et] = await Promise.all([this.f.isEnum(t), this.f.isEnum(to)]);
    const kf = pf ?? (ef ? await this.f.enumUnderlying(t) : undefined);
    const kt = pt ?? (et ? await this.f.enumUnderlying(to) : undefined);
    if (kf && kt && kf !== 'bool' && kt !== 'bool' && (ef || et || hasExplicitConversion(kf, kt))) {
      return ef || et ? { k: 'enum' } : { k: 'numeric' };
    }
    const [vf, vt] = await Promise.all([this.f.isValueType(t), this.f.isValueType(to)]);
    if (!vf && vt && (await this.f.assignable(t, to))) return { k: 'unboxing' };
    if (!vf && !vt && (await this.f.assignable(t, to))) return { k: 'downcast' };
    // interfaces: any non-sealed class may implement them at run time
    if (
      !vf &&
      !vt &&
      ((await this.f.describe(to)).kind === 'interface' ||
        (await this.f.describe(t)).kind === 'interface')
    ) {
      return { k: 'downcast' };
    }
    const src = await this.f.nullableUnderlying(t);
    const dst = await this.f.nullableUnderlying(to);
    if (src && !dst) {
      const inner = await this.explicit({ type: src, value: NULL }, to, allowUser);
      if (inner) return { k: 'unwrap', inner };
    }
    if (dst) {
      const inner = await this.explicit(src ? { type: src, value: NULL } : from, dst, allowUser);
      if (inner)
        return src
          ? { k: 'lifted', inner, underlying: dst }
          : { k: 'wrap', inner, underlying: dst };
    }
    return allowUser ? this.userDefined(from, to, 'op_Explicit') : undefined;
  }

  /** User-defined conversion operators declared on the source or the target type (§11.5). */
  private async userDefined(
    from: Operand,
    to: TypeHandle,
    name: 'op_Implicit' | 'op_Explicit',
  ): Promise<Conversion | undefined> {
    if (from.type === 'null') return undefined;
    const found: Conversion[] = [];
    for (const owner of [from.type, to]) {
      if ((await this.f.describe(owner)).kind === 'interface') continue;
      const md = this.it.rt.metadata;
      // an explicit user-defined conversion may use any user operator with standard explicit
      // conversions around it (§10.5.5): (Money)7L is op_Implicit((int)7L)
      const methods =
        name === 'op_Implicit'
          ? (await md.members(owner, 'op_Implicit')).methods
          : [
              ...(await md.members(owner, 'op_Explicit')).methods,
              ...(await md.members(owner, 'op_Implicit')).methods,
            ];
      for (const m of methods) {
        const param = m.parameters[0];
        if (!param || !m.returnType || m.parameters.length !== 1) continue;
        const result: Operand = { type: m.returnType, value: NULL };
        const before =
          name === 'op_Implicit'
            ? await this.implicit(from, param.type, false)
            : await this.standardExplicit(from, param.type);
        if (!before) continue;
        const after =
          name === 'op_Implicit'
            ? await this.implicit(result, to, false)
            : await this.standardExplicit(result, to);
        if (!after) continue;
        found.push({ k: 'user', method: m, before, after });
      }
    }
    // the most specific operator: exact source and target types first
    const exact = found.filter(
      (c) => c.k === 'user' && c.before.k === 'identity' && c.after.k === 'identity',
    );
    return exact[0] ?? found[0];
  }

  /** A standard conversion a cast may apply: implicit or explicit, no user-defined one. */
  private async standardExplicit(from: Operand, to: TypeHandle): Promise<Conversion | undefined> {
    const imp = await this.implicit(from, to, false);
    if (imp) return imp;
    const c = await this.explicit(from, to, false);
    return c && c.k !== 'user' ? c : undefined;
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

  /** Converts implicitly, or refuses as the compiler would (CS0029 / CS0266 / CS0031). */
  async implicitly(from: Operand, to: TypeHandle, what = 'the value'): Promise<Operand> {
    const c = await this.implicit(from, to);
    if (!c) {
      const explicit = await this.explicit(from, to);
      // CS0031 is a numeric constant out of the target's range; a cast C# would accept otherwise
      // is CS0266, also for a constant converted to an enum or a double one (mcs: `Color c = 1`,
      // `int x = 1.5` are CS0266)
      const fromKind = await this.f.primitive(from.type);
      const numeric = !!fromKind && fromKind !== 'double' && !!(await this.f.primitive(to));
      const code =
        from.constant && explicit && numeric
          ? 'CS0031'
          : explicit
            ? 'CS0266'
            : from.type === 'null'
              ? 'CS0037'
              : 'CS0029';
      throw new CompileError(
        code,
        `cannot implicitly convert ${await this.f.name(from.type)} to ${await this.f.name(to)} (${what})${explicit ? ': an explicit conversion exists (a cast)' : ''}`,
      );
    }
    return this.apply(c, from, to, this.it.checked);
  }
}
