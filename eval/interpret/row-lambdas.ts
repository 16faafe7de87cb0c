// A lambda of one parameter as a function of a row of numbers: what the row pull
// (linq/row-pull.ts) computes a Where or Select over a whole chunk with, instead of calling the
// lambda once per element; and a foreach body of the same expressions assigned to the loop's
// outer locals (`total += c.Hp;`, `if (c.Team == 1) n++;`), run over a chunk of numbers
// (compiled.ts rowLoop), those locals its only effect. Only expressions whose value depends on
// nothing but the element (and, in a body, those locals) are taken: the parameter itself when
// it is a number or bool, the parameter's instance fields of those types (read for the whole
// chunk in one batch, prefetch.ts), constants, and the operators that cannot throw and call
// nothing: comparisons; +, - and * on int (wrapping, so only where the program is unchecked),
// float and double; &&, ||, ! and unary minus. Such code has no other effect and no exception,
// so when and how often it runs cannot be seen, only its values, and those are computed with
// the semantics/ kernels' own rules (int wraps as intBinary does, float rounds to single
// precision after each operation, conversions between the kinds are the exact ones: int to
// double, int or short to float by Math.fround...). Anything else (a call, a property, a
// division that may throw, a long, a decimal, a string) leaves the code to its compiled or
// interpreted run, element by element.

import type * as A from '../syntax/index.js';
import { foldConversion, materialize, type Constant } from '../semantics/constant-folding.js';
import type { PrimitiveKind } from '../semantics/numeric-types.js';
import { FLOATING_COMPARE, isComparison } from '../semantics/operator-kernels.js';
import { resolveBinaryOperator } from '../semantics/promotion.js';
import type { FieldDescriptor, GameAccess, TypeHandle } from '../runtime.js';
import { NULL, num, type ElementColumn, type EvalValue, type NumericKind } from '../values.js';
import type { Interpreter } from './interpreter.js';
import { LocalScope, type Local } from './local-scope.js';
import { FALSE, TRUE, toPrimitive } from './primitives.js';

/**
 * Element `i`'s value: `value` is the elements themselves as numbers (a parameter of a number
 * type), `columns` the parameter's fields the code reads, in the order of `fields`, `state`
 * the outer locals a foreach body reads and writes, in the order of `locals`.
 */
export type RowKernel = (
  columns: readonly Float64Array[],
  value: Float64Array | undefined,
  i: number,
  state: Float64Array,
) => number;

/** A foreach body's effect for element `i`: on `state` only. */
export type RowStatement = (
  columns: readonly Float64Array[],
  value: Float64Array | undefined,
  i: number,
  state: Float64Array,
) => void;

/** What a row kernel or body reads. */
export interface RowInputs {
  /** Fields of the parameter it reads (the parameter is a class instance). */
  readonly fields: readonly FieldDescriptor[];
  /** It reads the parameter itself (a number or bool). */
  readonly readsValue: boolean;
  /** It has int arithmetic, which wraps: not for a checked context. */
  readonly wraps: boolean;
}

export interface RowLambda extends RowInputs {
  /** The kind of its value (a bool is 1 or 0). */
  readonly kind: PrimitiveKind;
  readonly kernel: RowKernel;
}

/** A foreach body as a row statement over the loop's outer locals. */
export interface RowBody extends RowInputs {
  /** The outer locals it reads or writes, by state index, with their kinds. */
  readonly locals: readonly { readonly name: string; readonly kind: PrimitiveKind }[];
  readonly run: RowStatement;
}

/** The kinds a row holds exactly as JS numbers. */
const ROW_KINDS = new Set<PrimitiveKind>([
  'bool',
  'sbyte',
  'byte',
  'short',
  'ushort',
  'int',
  'float',
  'double',
]);
const SMALL_INTS = new Set<PrimitiveKind>(['sbyte', 'byte', 'short', 'ushort', 'int']);
/** The kinds an outer local written by a row body may have (its operators give that kind). */
const STATE_KINDS = new Set<PrimitiveKind>(['bool', 'int', 'float', 'double']);

interface Node {
  readonly kind: PrimitiveKind;
  readonly at: RowKernel;
  /** Its value when it is a constant (the binder's, for a conversion to fold it). */
  readonly constant?: Constant;
}

/**
 * `e`'s body as a row lambda of its one parameter of type `parameter`, bound in a scope under
 * `captured` (where the lambda is), giving `returnType`; undefined when it is not one.
 */
export async function rowLambda(
  it: Interpreter,
  e: { readonly parameters: readonly A.Parameter[]; readonly body: A.Expression },
  captured: LocalScope,
  parameter: TypeHandle,
  returnType: TypeHandle,
): Promise<RowLambda | undefined> {
  if (e.parameters.length !== 1) return undefined;
  const name = e.parameters[0]!.name.name;
  const rows = await RowCompiler.of(it, name, parameter, false);
  if (!rows) return undefined;
  const saved = it.locals;
  it.locals = new LocalScope(captured);
  it.locals.set(name, { type: parameter, value: NULL, assigned: true });
  try {
    const n = await rows.expression(e.body);
    if (!n || !it.facts.same(await it.wk.keyword(n.kind), returnType)) return undefined;
    return { ...rows.inputs(), kind: n.kind, kernel: n.at };
  } finally {
    it.locals = saved;
  }
}

/**
 * A foreach body as a row body of the iteration variable `name` of type `type`, bound in the
 * current scope (the loop's, with the variable declared); undefined when it is not one.
 */
export async function rowForeachBody(
  it: Interpreter,
  name: string,
  type: TypeHandle,
  body: A.Statement,
): Promise<RowBody | undefined> {
  const rows = await RowCompiler.of(it, name, type, true);
  if (!rows) return undefined;
  try {
    const run = await rows.statement(body);
    return run && { ...rows.inputs(), locals: rows.locals, run };
  } finally {
    rows.unmark();
  }
}

/** Compiles expressions (and foreach bodies) of one parameter to row kernels. */
class RowCompiler {
  private readonly fields: FieldDescriptor[] = [];
  private readsValue = false;
  private wraps = false;
  readonly locals: { name: string; kind: PrimitiveKind }[] = [];
  /**
   * Outer locals marked assigned while a body is compiled, in its order: the binder (pass 1)
   * found each read after an assignment that reaches it, as C# requires, so a read compiled
   * after `x = ...` is one (a loop body is compiled before it runs, its locals as they are then).
   */
  private readonly marked: Local[] = [];

  private constructor(
    private readonly it: Interpreter,
    private readonly name: string,
    private readonly byValue: boolean,
    /** Outer locals may be read and written (a foreach body), held in the state. */
    private readonly withLocals: boolean,
  ) {}

  static async of(
    it: Interpreter,
    name: string,
    parameter: TypeHandle,
    withLocals: boolean,
  ): Promise<RowCompiler | undefined> {
    const kind = await it.facts.primitive(parameter);
    const byValue = kind !== undefined && ROW_KINDS.has(kind);
    if (!byValue && !(await it.facts.isReferenceType(parameter))) return undefined;
    return new RowCompiler(it, name, byValue, withLocals);
  }

  /** The locals marked assigned while compiling, as they were. */
  unmark(): void {
    for (const l of this.marked) l.assigned = false;
    this.marked.length = 0;
  }

  inputs(): RowInputs {
    return { fields: this.fields, readsValue: this.readsValue, wraps: this.wraps };
  }

  /** The state index of outer local `name` of kind `kind` (added at its first use). */
  private local(name: string, kind: PrimitiveKind): number {
    const i = this.locals.findIndex((l) => l.name === name);
    return i >= 0 ? i : this.locals.push({ name, kind }) - 1;
  }

  async expression(x: A.Expression): Promise<Node | undefined> {
    const it = this.it;
    const bound = await it.inDry(() => it.resolve(x));
    if (bound.k !== 'value' || bound.op.type === 'null') return undefined;
    const op = bound.op;
    const kind = await it.facts.primitive(op.type);
    if (!kind || !ROW_KINDS.has(kind)) return undefined;
    if (op.constant) {
      if (op.constant.kind !== 'number') return undefined;
      const v = toPrimitive((await it.expr(x)).value);
      if (!v || (typeof v.value !== 'number' && typeof v.value !== 'boolean')) return undefined;
      const n = Number(v.value);
      return { kind, at: () => n, constant: op.constant.c };
    }
    if (x.kind === 'Parenthesized') return this.expression(x.expression);
    if (x.kind === 'Name') {
      if (x.typeArgs.length > 0 || op.place?.k !== 'local') return undefined;
      if (x.name === this.name) {
        if (!this.byValue) return undefined;
        this.readsValue = true;
        return { kind, at: (_c, value, i) => value![i]! };
      }
      if (!this.withLocals || !STATE_KINDS.has(kind)) return undefined;
      const k = this.local(x.name, kind);
      return { kind, at: (_c, _v, _i, state) => state[k]! };
    }
    if (x.kind === 'MemberAccess') {
      if (this.byValue || x.conditional || op.place?.k !== 'field') return undefined;
      let t = x.target;
      while (t.kind === 'Parenthesized') t = t.expression;
      if (t.kind !== 'Name' || t.name !== this.name || t.typeArgs.length > 0) return undefined;
      const k = this.fields.push(op.place.field) - 1;
      return { kind, at: (columns, _v, i) => columns[k]![i]! };
    }
    if (x.kind === 'Unary') return this.unary(x, kind);
    if (x.kind === 'Binary') {
      const l = await this.expression(x.left);
      const r = await this.expression(x.right);
      return l && r ? this.binary(x.operator, l, r, kind) : undefined;
    }
    // anything else: a call, a conversion, a conditional... runs as the code's own
    return undefined;
  }

  private async unary(x: A.Unary, kind: PrimitiveKind): Promise<Node | undefined> {
    const a = await this.expression(x.operand);
    if (!a) return undefined;
    const f = a.at;
    if (x.operator === '!' && kind === 'bool' && a.kind === 'bool')
      return { kind, at: (c, v, i, st) => (f(c, v, i, st) === 0 ? 1 : 0) };
    if (x.operator === '+' && kind === a.kind) return { kind, at: f };
    if (x.operator === '-' && kind === 'int' && SMALL_INTS.has(a.kind)) {
      this.wraps = true;
      return { kind, at: (c, v, i, st) => -f(c, v, i, st) | 0 };
    }
    if (x.operator === '-' && (kind === 'double' || kind === 'float') && kind === a.kind)
      return { kind, at: (c, v, i, st) => -f(c, v, i, st) };
    return undefined;
  }

  /** `l op r` of kind `kind` (as the binder typed it), by the operator C# resolves. */
  private binary(op: A.BinaryOperator, l: Node, r: Node, kind: PrimitiveKind): Node | undefined {
    if (op === '&&' || op === '||') {
      if (l.kind !== 'bool' || r.kind !== 'bool') return undefined;
      const [lf, rf] = [l.at, r.at];
      // no effect on either side: both are computed, the value is the same
      return op === '&&'
        ? { kind, at: (c, v, i, st) => (lf(c, v, i, st) !== 0 && rf(c, v, i, st) !== 0 ? 1 : 0) }
        : { kind, at: (c, v, i, st) => (lf(c, v, i, st) !== 0 || rf(c, v, i, st) !== 0 ? 1 : 0) };
    }
    let sig;
    try {
      sig = resolveBinaryOperator(
        op,
        l.constant ? { kind: l.kind, constant: l.constant.value } : { kind: l.kind },
        r.constant ? { kind: r.kind, constant: r.constant.value } : { kind: r.kind },
      );
    } catch {
      return undefined;
    }
    if (sig.result !== kind || sig.left !== sig.right) return undefined;
    const lf = converted(l, sig.left);
    const rf = converted(r, sig.right);
    if (!lf || !rf) return undefined;
    const operand = sig.left;
    if (isComparison(op)) {
      if (operand === 'bool' && op !== '==' && op !== '!=') return undefined;
      const compare = FLOATING_COMPARE[op];
      return { kind, at: (c, v, i, st) => (compare(lf(c, v, i, st), rf(c, v, i, st)) ? 1 : 0) };
    }
    if (op !== '+' && op !== '-' && op !== '*') return undefined;
    if (operand === 'int') {
      this.wraps = true;
      if (op === '*')
        return { kind, at: (c, v, i, st) => Math.imul(lf(c, v, i, st), rf(c, v, i, st)) };
      return op === '+'
        ? { kind, at: (c, v, i, st) => (lf(c, v, i, st) + rf(c, v, i, st)) | 0 }
        : { kind, at: (c, v, i, st) => (lf(c, v, i, st) - rf(c, v, i, st)) | 0 };
    }
    if (operand === 'double') {
      if (op === '*') return { kind, at: (c, v, i, st) => lf(c, v, i, st) * rf(c, v, i, st) };
      return op === '+'
        ? { kind, at: (c, v, i, st) => lf(c, v, i, st) + rf(c, v, i, st) }
        : { kind, at: (c, v, i, st) => lf(c, v, i, st) - rf(c, v, i, st) };
    }
    if (operand === 'float') {
      // single precision after each operation; the double product or sum of two floats is
      // exact enough that rounding it once gives the float operation's value
      const fr = Math.fround;
      if (op === '*') return { kind, at: (c, v, i, st) => fr(lf(c, v, i, st) * rf(c, v, i, st)) };
      return op === '+'
        ? { kind, at: (c, v, i, st) => fr(lf(c, v, i, st) + rf(c, v, i, st)) }
        : { kind, at: (c, v, i, st) => fr(lf(c, v, i, st) - rf(c, v, i, st)) };
    }
    return undefined;
  }

  /** A foreach body's statement over the outer locals, when it is one. */
  async statement(s: A.Statement): Promise<RowStatement | undefined> {
    if (s.kind === 'EmptyStatement') return () => undefined;
    if (s.kind === 'Block') {
      const parts: RowStatement[] = [];
      for (const x of s.statements) {
        const p = await this.statement(x);
        if (!p) return undefined;
        parts.push(p);
      }
      if (parts.length === 1) return parts[0];
      return (c, v, i, st) => {
        for (const p of parts) p(c, v, i, st);
      };
    }
    if (s.kind === 'If') {
      const cond = await this.expression(s.condition);
      if (cond?.kind !== 'bool') return undefined;
      const then = await this.statement(s.then);
      const otherwise = s.else ? await this.statement(s.else) : () => undefined;
      if (!then || !otherwise) return undefined;
      const test = cond.at;
      return (c, v, i, st) => {
        if (test(c, v, i, st) !== 0) then(c, v, i, st);
        else otherwise(c, v, i, st);
      };
    }
    if (s.kind === 'ExpressionStatement') return this.effect(s.expression);
    return undefined;
  }

  /** An assignment, compound assignment, ++ or -- to an outer local, as a statement. */
  private async effect(x: A.Expression): Promise<RowStatement | undefined> {
    let target: A.Expression;
    let value: (local: Node) => Promise<Node | undefined>;
    if (x.kind === 'Assignment') {
      target = x.target;
      const op = x.operator;
      if (op === '=') value = () => this.expression(x.value);
      else if (op === '+=' || op === '-=' || op === '*=') {
        const bop = op[0] as '+' | '-' | '*';
        value = async (local) => {
          const r = await this.expression(x.value);
          return r && this.binary(bop, local, r, local.kind);
        };
      } else return undefined;
    } else if (
      (x.kind === 'Postfix' || x.kind === 'Unary') &&
      (x.operator === '++' || x.operator === '--')
    ) {
      target = x.operand;
      const bop = x.operator === '++' ? '+' : '-';
      // x++ is x = x + 1 in x's type, the 1 an int constant (C# §12.8.16)
      const one: Node = {
        kind: 'int',
        at: () => 1,
        constant: { value: { kind: 'int', value: 1 } },
      };
      value = (local) => Promise.resolve(this.binary(bop, local, one, local.kind));
    } else return undefined;
    while (target.kind === 'Parenthesized') target = target.expression;
    if (target.kind !== 'Name' || target.name === this.name || target.typeArgs.length > 0)
      return undefined;
    // an outer local (not read here: `x = ...` may be its first assignment)
    const cell = this.it.locals.get(target.name);
    if (!cell || cell.fn || cell.readOnly || cell.type === 'null') return undefined;
    const kind = await this.it.facts.primitive(cell.type);
    if (!kind || !STATE_KINDS.has(kind)) return undefined;
    const k = this.local(target.name, kind);
    const local: Node = { kind, at: (_c, _v, _i, st) => st[k]! };
    const v = await value(local);
    if (!v) return undefined;
    // the value in the local's kind: an implicit conversion the binder accepted, or none
    const f = converted(v, kind);
    if (!f) return undefined;
    if (!cell.assigned) {
      cell.assigned = true;
      this.marked.push(cell);
    }
    return (c, vv, i, st) => {
      st[k] = f(c, vv, i, st);
    };
  }
}

/**
 * A node's value converted to `to` (an implicit numeric conversion that the binder chose for an
 * operator's operand or an assignment): a constant folded as the binder folds it, else only the
 * conversions that are exact on JS numbers, or a rounding to float.
 */
function converted(n: Node, to: PrimitiveKind): RowKernel | undefined {
  if (n.constant) {
    let v;
    try {
      v = materialize(foldConversion(n.constant, to, 'unchecked')).value;
    } catch {
      return undefined;
    }
    if (typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    const c = Number(v);
    return () => c;
  }
  if (n.kind === to) return n.at;
  if ((to === 'int' || to === 'double') && SMALL_INTS.has(n.kind)) return n.at;
  if (to === 'double' && n.kind === 'float') return n.at;
  if (to === 'float' && SMALL_INTS.has(n.kind)) {
    const f = n.at;
    // exact below 2^24; an int beyond that rounds to the nearest float, as C#'s conversion does
    return (c, v, i, st) => Math.fround(f(c, v, i, st));
  }
  return undefined;
}

/**
 * The numbers a row kernel or body reads over a chunk of a bulk source: the elements' fields it
 * reads (one batch each), the elements themselves; undefined when one cannot be had as numbers
 * (a field not batched: a null element, a chunk under the batch's size...).
 */
export async function rowInputs(
  game: GameAccess,
  code: RowInputs,
  elements: ElementColumn,
): Promise<{ columns: Float64Array[]; value: Float64Array | undefined } | undefined> {
  const columns: Float64Array[] = [];
  for (const f of code.fields) {
    const numbers = (await game.chunkColumn?.(elements, f))?.numbers?.();
    if (numbers?.length !== elements.length) return undefined;
    columns.push(numbers);
  }
  let value: Float64Array | undefined;
  if (code.readsValue) {
    value = elements.numbers?.();
    if (!value) return undefined;
  }
  return { columns, value };
}

/** A row kind's value as a number (a bool as 1 or 0; NaN for what is not one: unassigned). */
export function rowNumber(v: EvalValue): number {
  if (v.kind === 'bool') return v.value ? 1 : 0;
  return v.kind === 'number' && typeof v.value === 'number' ? v.value : NaN;
}

/** A row number as a value of `kind`. */
export function rowValue(kind: PrimitiveKind, n: number): EvalValue {
  // a row kind: a bool or a number of 32 bits or fewer, or a double (ROW_KINDS)
  return kind === 'bool' ? (n !== 0 ? TRUE : FALSE) : num(kind as NumericKind, n);
}
