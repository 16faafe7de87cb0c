// A lambda of one parameter as a function of a row of numbers: what the row pull
// (linq/row-pull.ts) computes a Where or Select over a whole chunk with, instead of calling the
// lambda once per element. Only bodies whose value depends on nothing but the element are
// taken: the parameter itself when it is a number or bool, the parameter's instance fields of
// those types (read for the whole chunk in one batch, prefetch.ts), constants, and the
// operators that cannot throw and call nothing: comparisons; +, - and * on int (wrapping, so
// only where the program is unchecked), float and double; &&, ||, ! and unary minus. Such a
// body has no effect and no exception, so when and how often it runs cannot be seen, only its
// values, and those are computed with the semantics/ kernels' own rules (int wraps as
// intBinary does, float rounds to single precision after each operation, conversions between
// the kinds are the exact ones: int to double, int or short to float by Math.fround...).
// Anything else (a call, a property, a division that may throw, a long, a decimal, a string)
// leaves the lambda to its compiled or interpreted calls.

import type * as A from '../syntax/index.js';
import { foldConversion, materialize, type Constant } from '../semantics/constant-folding.js';
import type { PrimitiveKind } from '../semantics/numeric-types.js';
import { FLOATING_COMPARE, isComparison } from '../semantics/operator-kernels.js';
import { resolveBinaryOperator } from '../semantics/promotion.js';
import type { FieldDescriptor, TypeHandle } from '../runtime.js';
import { NULL } from '../values.js';
import type { Interpreter } from './interpreter.js';
import { LocalScope } from './local-scope.js';
import { toPrimitive } from './primitives.js';

/**
 * Element `i`'s value: `value` is the elements themselves as numbers (a parameter of a number
 * type), `columns` the parameter's fields the lambda reads, in the order of RowLambda.fields.
 */
export type RowKernel = (
  columns: readonly Float64Array[],
  value: Float64Array | undefined,
  i: number,
) => number;

export interface RowLambda {
  /** The kind of its value (a bool is 1 or 0). */
  readonly kind: PrimitiveKind;
  /** Fields of the parameter it reads (the parameter is a class instance). */
  readonly fields: readonly FieldDescriptor[];
  /** It reads the parameter itself (a number or bool). */
  readonly readsValue: boolean;
  /** It has int arithmetic, which wraps: not for a checked context. */
  readonly wraps: boolean;
  readonly kernel: RowKernel;
}

/** The kinds a row holds exactly as JS numbers, and what they are read as. */
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
  const paramKind = await it.facts.primitive(parameter);
  const byValue = paramKind !== undefined && ROW_KINDS.has(paramKind);
  if (!byValue && !(await it.facts.isReferenceType(parameter))) return undefined;
  const fields: FieldDescriptor[] = [];
  let readsValue = false;
  let wraps = false;

  const node = async (x: A.Expression): Promise<Node | undefined> => {
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
    if (x.kind === 'Parenthesized') return node(x.expression);
    if (x.kind === 'Name') {
      if (!byValue || x.name !== name || x.typeArgs.length > 0) return undefined;
      if (op.place?.k !== 'local') return undefined;
      readsValue = true;
      return { kind, at: (_c, value, i) => value![i]! };
    }
    if (x.kind === 'MemberAccess') {
      if (byValue || x.conditional || op.place?.k !== 'field') return undefined;
      let t = x.target;
      while (t.kind === 'Parenthesized') t = t.expression;
      if (t.kind !== 'Name' || t.name !== name || t.typeArgs.length > 0) return undefined;
      const k = fields.push(op.place.field) - 1;
      return { kind, at: (columns, _v, i) => columns[k]![i]! };
    }
    if (x.kind === 'Unary') return unary(x, kind);
    if (x.kind === 'Binary') return binary(x, kind);
    // anything else: a call, a conversion, a conditional... runs as the lambda's own calls
    return undefined;
  };

  const unary = async (x: A.Unary, kind: PrimitiveKind): Promise<Node | undefined> => {
    const a = await node(x.operand);
    if (!a) return undefined;
    const f = a.at;
    if (x.operator === '!' && kind === 'bool' && a.kind === 'bool')
      return { kind, at: (c, v, i) => (f(c, v, i) === 0 ? 1 : 0) };
    if (x.operator === '+' && kind === a.kind) return { kind, at: f };
    if (x.operator === '-' && kind === 'int' && SMALL_INTS.has(a.kind)) {
      wraps = true;
      return { kind, at: (c, v, i) => -f(c, v, i) | 0 };
    }
    if (x.operator === '-' && (kind === 'double' || kind === 'float') && kind === a.kind)
      return { kind, at: (c, v, i) => -f(c, v, i) };
    return undefined;
  };

  const binary = async (x: A.Binary, kind: PrimitiveKind): Promise<Node | undefined> => {
    const l = await node(x.left);
    const r = await node(x.right);
    if (!l || !r) return undefined;
    if (x.operator === '&&' || x.operator === '||') {
      if (l.kind !== 'bool' || r.kind !== 'bool') return undefined;
      const [lf, rf] = [l.at, r.at];
      // no effect on either side: both are computed, the value is the same
      return x.operator === '&&'
        ? { kind, at: (c, v, i) => (lf(c, v, i) !== 0 && rf(c, v, i) !== 0 ? 1 : 0) }
        : { kind, at: (c, v, i) => (lf(c, v, i) !== 0 || rf(c, v, i) !== 0 ? 1 : 0) };
    }
    const op = x.operator;
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
    if (sig.result !== kind) return undefined;
    const lf = converted(l, sig.left);
    const rf = converted(r, sig.right);
    if (!lf || !rf) return undefined;
    const operand = sig.left;
    if (operand !== sig.right) return undefined;
    if (isComparison(op)) {
      if (operand === 'bool' && op !== '==' && op !== '!=') return undefined;
      const compare = FLOATING_COMPARE[op];
      return { kind, at: (c, v, i) => (compare(lf(c, v, i), rf(c, v, i)) ? 1 : 0) };
    }
    if (op !== '+' && op !== '-' && op !== '*') return undefined;
    if (operand === 'int') {
      wraps = true;
      if (op === '*') return { kind, at: (c, v, i) => Math.imul(lf(c, v, i), rf(c, v, i)) };
      return op === '+'
        ? { kind, at: (c, v, i) => (lf(c, v, i) + rf(c, v, i)) | 0 }
        : { kind, at: (c, v, i) => (lf(c, v, i) - rf(c, v, i)) | 0 };
    }
    if (operand === 'double') {
      if (op === '*') return { kind, at: (c, v, i) => lf(c, v, i) * rf(c, v, i) };
      return op === '+'
        ? { kind, at: (c, v, i) => lf(c, v, i) + rf(c, v, i) }
        : { kind, at: (c, v, i) => lf(c, v, i) - rf(c, v, i) };
    }
    if (operand === 'float') {
      // single precision after each operation; the double product or sum of two floats is
      // exact enough that rounding it once gives the float operation's value
      const fr = Math.fround;
      if (op === '*') return { kind, at: (c, v, i) => fr(lf(c, v, i) * rf(c, v, i)) };
      return op === '+'
        ? { kind, at: (c, v, i) => fr(lf(c, v, i) + rf(c, v, i)) }
        : { kind, at: (c, v, i) => fr(lf(c, v, i) - rf(c, v, i)) };
    }
    return undefined;
  };

  const body = e.body;
  const saved = it.locals;
  it.locals = new LocalScope(captured);
  it.locals.set(name, { type: parameter, value: NULL, assigned: true });
  try {
    const n = await node(body);
    if (!n || !it.facts.same(await it.wk.keyword(n.kind), returnType)) return undefined;
    return { kind: n.kind, fields, readsValue, wraps, kernel: n.at };
  } finally {
    it.locals = saved;
  }
}

/**
 * A node's value converted to `to` (an implicit numeric conversion that the binder chose for an
 * operator's operand): a constant folded as the binder folds it, else only the conversions that
 * are exact on JS numbers, or a rounding to float.
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
  if (to === 'int' || to === 'double')
    return SMALL_INTS.has(n.kind) ? n.at : n.kind === 'float' && to === 'double' ? n.at : undefined;
  if (to === 'float' && SMALL_INTS.has(n.kind)) {
    const f = n.at;
    // exact below 2^24; an int beyond that rounds to the nearest float, as C#'s conversion does
    return (c, v, i) => Math.fround(f(c, v, i));
  }
  return undefined;
}
