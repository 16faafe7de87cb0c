// Binary operators (ECMA-334 §12.10–§12.14) with C#'s binding order: string concatenation and
// equality, predefined numeric operators (folded when constant), enum operators, user-defined
// operators, reference equality, predefined operators reached through a user-defined
// conversion, and lifted operators on Nullable<T>; && and || short-circuit.

import type * as A from '../syntax/index.js';
import { applyBinary } from '../semantics/arithmetic.js';
import {
  foldBinary,
  foldConversion,
  materialize,
  type Constant,
} from '../semantics/constant-folding.js';
import { convert } from '../semantics/conversions.js';
import { EvalCompileError } from '../semantics/errors.js';
import {
  asValue,
  primitive,
  type PrimitiveKind,
  type PrimitiveValue,
} from '../semantics/numeric-types.js';
import { resolveBinaryOperator, type BinaryOperator } from '../semantics/promotion.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, VOID, bool } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { fromPrimitive, toPrimitive } from './primitives.js';
import type { SType } from './type-facts.js';
import { sem } from './errors.js';
import { constBool } from './literals.js';
import { EnumOperators } from './enum-operators.js';
import { StringOperators } from './string-operators.js';
import { ReferenceEquality } from './reference-equality.js';

const BINARY_METHODS: Readonly<Record<BinaryOperator, string>> = {
  '+': 'op_Addition',
  '-': 'op_Subtraction',
  '*': 'op_Multiply',
  '/': 'op_Division',
  '%': 'op_Modulus',
  '&': 'op_BitwiseAnd',
  '|': 'op_BitwiseOr',
  '^': 'op_ExclusiveOr',
  '<<': 'op_LeftShift',
  '>>': 'op_RightShift',
  '==': 'op_Equality',
  '!=': 'op_Inequality',
  '<': 'op_LessThan',
  '>': 'op_GreaterThan',
  '<=': 'op_LessThanOrEqual',
  '>=': 'op_GreaterThanOrEqual',
};

const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '>', '<=', '>=']);

export class BinaryOperators {
  private readonly enums: EnumOperators;
  private readonly strings: StringOperators;
  private readonly references: ReferenceEquality;

  constructor(private readonly it: Interpreter) {
    this.enums = new EnumOperators(it);
    this.strings = new StringOperators(it);
    this.references = new ReferenceEquality(it);
  }

  private get f() {
    return this.it.facts;
  }

  async binary(e: A.Binary): Promise<Operand> {
    if (e.operator === '&&' || e.operator === '||') return this.logical(e);
    const l = await this.it.expr(e.left);
    const r = await this.it.expr(e.right);
    return this.applyBinaryOp(e.operator, l, r, e.span);
  }

  /** `&&` / `||` (§12.14): the right side runs only when it decides the value. */
  private async logical(e: A.Binary): Promise<Operand> {
    const boolType = await this.it.wk.keyword('bool');
    const need = async (x: Operand): Promise<Operand> => {
      if (
        x.type === 'null' ||
        (!this.f.same(x.type, boolType) && !(await this.it.conversions.implicit(x, boolType)))
      ) {
        throw new CompileError(
          'CS0019',
          `operator '${e.operator}' cannot be applied to operands of type '${await this.f.name(x.type)}'`,
          e.span,
        );
      }
      return this.it.conversions.implicitly(x, boolType);
    };
    const l = await need(await this.it.expr(e.left));
    const decided = !this.it.dry && (l.value as { value: boolean }).value === (e.operator === '||');
    const r = decided
      ? await this.it.inDry(async () => need(await this.it.expr(e.right)))
      : await need(await this.it.expr(e.right));
    const lc = constBool(l.constant);
    const rc = constBool(r.constant);
    if (lc !== undefined && rc !== undefined) {
      return this.it.literals.constantOperand(
        boolType,
        asValue(primitive('bool', e.operator === '&&' ? lc && rc : lc || rc)),
      );
    }
    if (this.it.dry) return { type: boolType, value: VOID };
    return { type: boolType, value: decided ? l.value : r.value };
  }

  async applyBinaryOp(op: BinaryOperator, l: Operand, r: Operand, span: A.Span): Promise<Operand> {
    // two primitives (neither a string) whose kinds are known: what the checks below decide
    const lk = this.f.knownPrimitive(l.type);
    const rk = lk ? this.f.knownPrimitive(r.type) : undefined;
    if (lk && rk) return this.numeric(op, l, r, lk, rk, span);
    const [ls, rs] = await Promise.all([this.f.isString(l.type), this.f.isString(r.type)]);
    if (op === '+' && (ls || rs)) return this.strings.concat(l, r, span);
    const [lp, rp] = await Promise.all([this.f.primitive(l.type), this.f.primitive(r.type)]);
    if (lp && rp) return this.numeric(op, l, r, lp, rp, span);
    if (l.type === 'null' && r.type === 'null') {
      if (op === '==' || op === '!=')
        return this.it.literals.constantOperand(
          await this.it.wk.keyword('bool'),
          asValue(primitive('bool', op === '==')),
        );
      throw new CompileError(
        'CS0034',
        `operator '${op}' is ambiguous on operands of type '<null>' and '<null>'`,
        span,
      );
    }
    if ((op === '==' || op === '!=') && (ls || l.type === 'null') && (rs || r.type === 'null'))
      return this.strings.equality(op, l, r);
    const [le, re] = await Promise.all([this.f.isEnum(l.type), this.f.isEnum(r.type)]);
    if (le || re) return this.enums.binary(op, l, r, span);
    const user = (await this.userCandidate(l.type, r.type))
      ? await this.it.calls.userOperator(BINARY_METHODS[op], [l, r], span)
      : undefined;
    if (user) return user;
    // two references compare by identity before any user-defined conversion is considered
    if ((op === '==' || op === '!=') && (await this.references.comparable(l.type, r.type)))
      return this.references.equality(op, l, r);
    const converted = await this.throughUserConversion(op, l, r, span);
    if (converted) return converted;
    const [ln, rn] = await Promise.all([
      this.f.nullableUnderlying(l.type),
      this.f.nullableUnderlying(r.type),
    ]);
    if (
      ln ||
      rn ||
      (l.type === 'null' && (await this.f.isValueType(r.type))) ||
      (r.type === 'null' && (await this.f.isValueType(l.type)))
    ) {
      return this.lifted(op, l, r, ln, rn, span);
    }
    if ((op === '==' || op === '!=') && (await this.references.comparable(l.type, r.type)))
      return this.references.equality(op, l, r);
    throw await this.noOperator(op, l.type, r.type, span);
  }

  /**
   * A predefined numeric operator reached through an operand's user-defined implicit conversion
   * (`meters + 1.5` with `implicit operator double(Meters)`): overload resolution over the
   * predefined operators considers user-defined conversions too (§12.4.5).
   */
  private async throughUserConversion(
    op: BinaryOperator,
    l: Operand,
    r: Operand,
    span: A.Span,
  ): Promise<Operand | undefined> {
    const options = async (x: Operand): Promise<PrimitiveKind[]> => {
      if (x.type === 'null') return [];
      const p = await this.f.primitive(x.type);
      if (p) return [p];
      const kinds: PrimitiveKind[] = [];
      for (const m of (await this.it.md.members(x.type, 'op_Implicit')).methods) {
        const k = m.returnType && (await this.f.primitive(m.returnType));
        if (k && m.parameters.length === 1 && this.f.same(m.parameters[0]!.type, x.type))
          kinds.push(k);
      }
      return kinds;
    };
    const [lo, ro] = [await options(l), await options(r)];
    if (
      (lo.length === 1 &&
        ro.length === 1 &&
        lo[0] === (await this.f.primitive(l.type)) &&
        ro[0] === (await this.f.primitive(r.type))) ||
      !lo.length ||
      !ro.length
    ) {
      return undefined;
    }
    const fits: [PrimitiveKind, PrimitiveKind][] = [];
    for (const a of lo) {
      for (const b of ro) {
        try {
          resolveBinaryOperator(op, { kind: a }, { kind: b });
          fits.push([a, b]);
        } catch (e) {
          if (!(e instanceof EvalCompileError)) throw e;
        }
      }
    }
    if (fits.length !== 1) return undefined;
    const [a, b] = fits[0]!;
    const lc = await this.it.conversions.implicitly(l, await this.it.literals.typeOfKind(a));
    const rc = await this.it.conversions.implicitly(r, await this.it.literals.typeOfKind(b));
    return this.applyBinaryOp(op, lc, rc, span);
  }

  async noOperator(op: string, l: SType, r: SType, span: A.Span): Promise<CompileError> {
    return new CompileError(
      'CS0019',
      `operator '${op}' cannot be applied to operands of type '${await this.f.name(l)}' and '${await this.f.name(r)}'`,
      span,
    );
  }

  /** Whether user-defined operators may apply: an operand of a type that is not predefined. */
  private async userCandidate(l: SType, r: SType): Promise<boolean> {
    const plain = async (t: SType) =>
      t === 'null' ||
      !!(await this.f.primitive(t)) ||
      (await this.f.isString(t)) ||
      (await this.f.isObject(t));
    return !((await plain(l)) && (await plain(r)));
  }

  private readonly signatures = new Map<string, ReturnType<typeof resolveBinaryOperator>>();
  /** A result kind's type (per evaluation, as the signatures). */
  private readonly resultTypes = new Map<PrimitiveKind, TypeHandle>();

  private async numeric(
    op: BinaryOperator,
    l: Operand,
    r: Operand,
    lk: PrimitiveKind,
    rk: PrimitiveKind,
    span: A.Span,
  ): Promise<Operand> {
    const lc = l.constant?.kind === 'number' ? l.constant.c : undefined;
    const rc = r.constant?.kind === 'number' ? r.constant.c : undefined;
    if (lc && rc) {
      const c = sem(() => foldBinary(op, lc, rc, this.it.constantContext), span);
      return this.it.literals.folded(await this.it.literals.typeOfKind(c.value.kind), c);
    }
    // without constants the operator depends on the kinds alone: resolved once per evaluation
    const key = lc || rc ? undefined : `${op} ${lk} ${rk}`;
    let sig = key ? this.signatures.get(key) : undefined;
    if (!sig) {
      sig = sem(
        () =>
          resolveBinaryOperator(
            op,
            lc ? { kind: lk, constant: lc.value } : { kind: lk },
            rc ? { kind: rk, constant: rc.value } : { kind: rk },
          ),
        span,
      );
      if (key) this.signatures.set(key, sig);
    }
    let type = this.resultTypes.get(sig.result);
    if (!type)
      this.resultTypes.set(sig.result, (type = await this.it.literals.typeOfKind(sig.result)));
    if (this.it.dry) return { type, value: VOID };
    const lv = this.operandAs(l, sig.left);
    const rv = this.operandAs(r, sig.right);
    return {
      type,
      value: fromPrimitive(sem(() => applyBinary(op, sig, lv, rv, { checked: this.it.checked }))),
    };
  }

  /** An operand converted implicitly to a kind (a constant converts as the compiler folds it). */
  private operandAs(x: Operand, kind: PrimitiveKind): PrimitiveValue {
    if (x.constant?.kind === 'number')
      return materialize(
        sem(() => foldConversion((x.constant as { c: Constant }).c, kind, 'unchecked')),
      );
    return convert(toPrimitive(x.value)!, kind, false);
  }

  /** Lifted operators (§12.4.8): on Nullable<T> operands; null in, null out (comparisons: false). */
  private async lifted(
    op: BinaryOperator,
    l: Operand,
    r: Operand,
    ln: TypeHandle | undefined,
    rn: TypeHandle | undefined,
    span: A.Span,
  ): Promise<Operand> {
    const lt = ln ?? (l.type === 'null' ? (rn ?? (r.type as TypeHandle)) : l.type);
    const rt = rn ?? (r.type === 'null' ? (ln ?? (l.type as TypeHandle)) : r.type);
    const probe = await this.it.inDry(() =>
      this.applyBinaryOp(op, { type: lt, value: VOID }, { type: rt, value: VOID }, span),
    );
    const comparison = COMPARISONS.has(op);
    const type = comparison
      ? (probe.type as TypeHandle)
      : await this.it.types.nullableOf(probe.type as TypeHandle);
    if (this.it.dry) return { type, value: VOID };
    const lnull = l.value.kind === 'null';
    const rnull = r.value.kind === 'null';
    if (lnull || rnull) {
      if (op === '==') return { type, value: bool(lnull && rnull) };
      if (op === '!=') return { type, value: bool(lnull !== rnull) };
      if (comparison) return { type, value: bool(false) };
      return { type, value: NULL };
    }
    const v = await this.applyBinaryOp(
      op,
      { type: lt, value: l.value },
      { type: rt, value: r.value },
      span,
    );
    return { type, value: v.value };
  }
}
