// ?? (ECMA-334 §12.15) and ?: (§12.18): only the operand that decides the value runs; the other
// is bound without running, so what C# refuses is refused whatever the values are.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { VOID } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { constBool } from './literals.js';

export class Conditionals {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  async coalesce(e: A.Coalesce): Promise<Operand> {
    const l = await this.it.expr(e.left);
    if (
      l.type !== 'null' &&
      (await this.f.isValueType(l.type)) &&
      !(await this.f.nullableUnderlying(l.type))
    ) {
      throw new CompileError(
        'CS0019',
        `operator '??' cannot be applied to operands of type '${await this.f.name(l.type)}' and the right side`,
        e.span,
      );
    }
    const leftNull = !this.it.dry && l.value.kind === 'null';
    const r =
      leftNull || this.it.dry
        ? await this.it.expr(e.right)
        : await this.it.inDry(() => this.it.expr(e.right));
    const a0 = await this.f.nullableUnderlying(l.type);
    const conv = this.it.conversions;
    const pick = async (type: TypeHandle, convertLeft: boolean): Promise<Operand> => {
      if (this.it.dry) return { type, value: VOID };
      if (leftNull) return conv.implicitly(r, type);
      if (!convertLeft) return { type, value: l.value };
      return conv.implicitly({ type: a0 ?? l.type, value: l.value }, type);
    };
    if (a0 && (await conv.implicit(r, a0))) return pick(a0, false);
    if (l.type !== 'null' && (await conv.implicit(r, l.type))) return pick(l.type, false);
    if (r.type !== 'null' && (await conv.implicit({ type: a0 ?? l.type, value: VOID }, r.type)))
      return pick(r.type, true);
    throw await this.it.binaryOperators.noOperator('??', l.type, r.type, e.span);
  }

  async conditional(e: A.Conditional): Promise<Operand> {
    const boolType = await this.it.wk.keyword('bool');
    const c = await this.it.conversions.implicitly(
      await this.it.expr(e.condition),
      boolType,
      'the condition',
    );
    const taken = this.it.dry ? undefined : (c.value as { value: boolean }).value;
    const branch = (x: A.Expression, run: boolean) =>
      run ? this.it.expr(x) : this.it.inDry(() => this.it.expr(x));
    const t = await branch(e.whenTrue, taken === true);
    const f = await branch(e.whenFalse, taken === false);
    const type = await this.conditionalType(t, f, e.span);
    const chosen = taken === false ? f : t;
    const out =
      taken === undefined
        ? { type, value: VOID }
        : await this.it.conversions.implicitly(chosen, type);
    const cc = constBool(c.constant);
    if (cc !== undefined && t.constant && f.constant) {
      const k = await this.it.conversions.implicitly(cc ? t : f, type);
      if (k.constant) return { type, value: out.value, constant: k.constant };
    }
    return { type, value: out.value };
  }

  private async conditionalType(t: Operand, f: Operand, span: A.Span): Promise<TypeHandle> {
    const conv = this.it.conversions;
    if (t.type !== 'null' && f.type !== 'null' && this.f.same(t.type, f.type)) return t.type;
    const toF = f.type !== 'null' && !!(await conv.implicit(t, f.type));
    const toT = t.type !== 'null' && !!(await conv.implicit(f, t.type));
    if (toF && !toT) return f.type;
    if (toT && !toF) return t.type;
    throw new CompileError(
      'CS0173',
      `type of conditional expression cannot be determined because there is no implicit conversion between '${await this.f.name(t.type)}' and '${await this.f.name(f.type)}'`,
      span,
    );
  }
}
