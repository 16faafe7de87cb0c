// C#'s conversions between static types (ECMA-334 §11): which exist implicitly, which only
// explicitly, and how each changes a value (conversion-application.ts). Numeric rules come
// from eval/semantics; reference rules ask the runtime; user-defined ones call op_Implicit /
// op_Explicit in the game.

import { hasExplicitConversion, isImplicitlyConvertible } from '../semantics/conversions.js';
import { isIntegralKind } from '../semantics/numeric-types.js';
import type { MethodDescriptor, TypeHandle } from '../runtime.js';
import { NULL } from '../values.js';
import { ConversionApplication } from './conversion-application.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

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
  private readonly application: ConversionApplication;

  constructor(private readonly it: Interpreter) {
    this.application = new ConversionApplication(it);
  }

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
  apply(c: Conversion, from: Operand, to: TypeHandle, checked: boolean): Promise<Operand> {
    return this.application.apply(c, from, to, checked);
  }

  /** Converts implicitly, or refuses as the compiler would (CS0029 / CS0266 / CS0031). */
  implicitly(from: Operand, to: TypeHandle, what = 'the value'): Promise<Operand> {
    // identity (a value already of its target type, as each element of a loop): what apply gives
    if (from.type !== 'null' && this.f.same(from.type, to))
      return Promise.resolve(
        from.constant === undefined
          ? { type: to, value: from.value }
          : { type: to, value: from.value, constant: from.constant },
      );
    return this.converted(from, to, what);
  }

  private async converted(from: Operand, to: TypeHandle, what: string): Promise<Operand> {
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
