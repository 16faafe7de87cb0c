// `is` (ECMA-334 §12.12.12, with C#'s null and constant patterns) and `as` (§12.12.13): tests of
// a value's run-time type against a static type.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, VOID, bool, type EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class TypeTests {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  async is(e: A.Is): Promise<Operand> {
    const boolType = await this.it.wk.keyword('bool');
    const x = await this.it.expr(e.operand);
    if (e.pattern.kind === 'NullPattern') {
      if (
        x.type !== 'null' &&
        (await this.f.isValueType(x.type)) &&
        !(await this.f.nullableUnderlying(x.type))
      ) {
        throw new CompileError(
          'CS0037',
          `cannot convert null to '${await this.f.name(x.type)}' because it is a non-nullable value type`,
          e.span,
        );
      }
      return { type: boolType, value: this.it.dry ? VOID : bool(x.value.kind === 'null') };
    }
    if (e.pattern.kind === 'ConstantPattern') {
      const k = await this.it.expr(e.pattern.value);
      return { type: boolType, value: await this.constantPattern(x, k, e.pattern.span) };
    }
    const target = await this.patternType(e.pattern.type);
    if (target.k === 'constant')
      return { type: boolType, value: await this.constantPattern(x, target.op, e.pattern.span) };
    const t = target.type;
    if (x.type === 'null') return { type: boolType, value: bool(false) };
    if (this.it.dry) return { type: boolType, value: VOID };
    return { type: boolType, value: bool(await this.instanceOf(x, t)) };
  }

  /** The type of an `is` pattern, or a constant when it names one (`x is Color.Red`). */
  private async patternType(
    node: A.TypeNode,
  ): Promise<{ k: 'type'; type: TypeHandle } | { k: 'constant'; op: Operand }> {
    try {
      return { k: 'type', type: await this.it.types.type(node) };
    } catch (err) {
      if (
        !(err instanceof CompileError) ||
        node.kind !== 'NamedType' ||
        node.parts.length < 2 ||
        node.alias
      )
        throw err;
      let expr: A.Expression = {
        kind: 'Name',
        name: node.parts[0]!.name.name,
        typeArgs: node.parts[0]!.typeArgs,
        alias: null,
        span: node.parts[0]!.span,
      };
      for (const part of node.parts.slice(1)) {
        expr = {
          kind: 'MemberAccess',
          target: expr,
          name: part.name,
          typeArgs: part.typeArgs,
          conditional: false,
          span: { ...node.span, end: part.span.end },
        };
      }
      const op = await this.it.expr(expr);
      if (!op.constant)
        throw new CompileError('CS0150', 'a constant value is expected in a pattern', node.span);
      return { k: 'constant', op };
    }
  }

  /**
   * `x is K` for a constant K (C# 7 §8.2.2 constant pattern): K converts implicitly to x's type
   * (else the conversion's error, as C# reports it), and the pattern matches when
   * object.Equals(K, x): a value of K's own run-time type (an `object` holding a boxed long does
   * not match 42) and an equal value, where NaN equals NaN.
   */
  async constantPattern(x: Operand, k: Operand, span: A.Span): Promise<EvalValue> {
    if (!k.constant)
      throw new CompileError('CS0150', 'a constant value is expected in a pattern', span);
    const conv = this.it.conversions;
    const input = x.type === 'null' ? await this.it.wk.keyword('object') : x.type;
    // a user-defined conversion's result is no constant
    if ((await conv.implicit(k, input))?.k === 'user')
      throw new CompileError('CS0150', 'a constant value is expected in a pattern', span);
    const converted = await conv.implicitly(k, input, 'the pattern');
    if (this.it.dry) return VOID;
    if (k.constant.kind === 'null' || x.value.kind === 'null')
      return bool(k.constant.kind === 'null' && x.value.kind === 'null');
    const underlying = (await this.f.nullableUnderlying(input)) ?? input;
    if (await this.f.isValueType(underlying))
      return bool(await this.equalValues(underlying, x.value, converted.value, span));
    // a reference-typed input (object, an interface, string): the value must be of K's type
    const kType = k.type as TypeHandle;
    const runtime = await this.it.rt.game.typeOf(x.value);
    if (!this.f.same(runtime, kType)) return bool(false);
    return bool(await this.equalValues(kType, x.value, k.value, span));
  }

  /** Two values of one type compared as its Equals(object) does (NaN equals NaN). */
  private async equalValues(
    type: TypeHandle,
    a: EvalValue,
    b: EvalValue,
    span: A.Span,
  ): Promise<boolean> {
    if (
      a.kind === 'number' &&
      b.kind === 'number' &&
      Number.isNaN(a.value) &&
      Number.isNaN(b.value)
    )
      return true;
    const eq = await this.it.binaryOperators.applyBinaryOp(
      '==',
      { type, value: a },
      { type, value: b },
      span,
    );
    return eq.value.kind === 'bool' && eq.value.value;
  }

  /** Whether a value's run-time type converts to `t` by identity, reference, boxing or unboxing. */
  async instanceOf(x: Operand, t: TypeHandle): Promise<boolean> {
    const v = x.value;
    if (v.kind === 'null' || v.kind === 'void') return false;
    const target = (await this.f.nullableUnderlying(t)) ?? t;
    const runtime = await this.it.rt.game.typeOf(v);
    return this.f.assignable(target, runtime);
  }

  async as(e: A.As): Promise<Operand> {
    const x = await this.it.expr(e.operand);
    const t = await this.it.types.type(e.type);
    if ((await this.f.isValueType(t)) && !(await this.f.nullableUnderlying(t))) {
      throw new CompileError(
        'CS0077',
        `the as operator must be used with a reference type or nullable type ('${await this.f.name(t)}' is a non-nullable value type)`,
        e.span,
      );
    }
    const c = await this.it.conversions.explicit(x, t);
    if (!c || c.k === 'user' || c.k === 'numeric' || c.k === 'enum') {
      throw new CompileError(
        'CS0039',
        `cannot convert type '${await this.f.name(x.type)}' to '${await this.f.name(t)}' via a reference, boxing, unboxing or null type conversion`,
        e.span,
      );
    }
    if (this.it.dry) return { type: t, value: VOID };
    return { type: t, value: (await this.instanceOf(x, t)) ? x.value : NULL };
  }
}
