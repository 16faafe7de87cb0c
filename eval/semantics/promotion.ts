// Which predefined operator a C# expression binds to, and so the operand and result types.
// §12.4.7 numeric promotion is defined by overload resolution over the predefined operators
// (§12.9 arithmetic, §12.10 shift, §12.11 relational, §12.12 logical) — resolving it that way,
// rather than with the promotion table alone, also gets constants right: `someUint + 1` is uint
// and `someUlong + 1` is ulong (the int constant converts implicitly, §11.2.10), while
// `someUint + someInt` is long. Failures carry mcs's error code and wording (measured: mcs reports
// CS0019 both for "no operator" and for ambiguity, e.g. long + ulong, ulong + -1).

import {
  type IntegralKind,
  type NumericKind,
  type PrimitiveKind,
  isIntegralKind,
} from './numeric-types.js';
import { hasImplicitConversion, isImplicitlyConvertible, type OperandInfo } from './conversions.js';
import { binaryOperatorError, unaryOperatorError } from './errors.js';

export type { OperandInfo } from './conversions.js';

export type UnaryOperator = '+' | '-' | '~' | '!';
export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export type BitwiseOperator = '&' | '|' | '^';
export type ShiftOperator = '<<' | '>>';
export type ComparisonOperator = '==' | '!=' | '<' | '>' | '<=' | '>=';
export type BinaryOperator =
  ArithmeticOperator | BitwiseOperator | ShiftOperator | ComparisonOperator;

/** A predefined operator: operands are converted to `left`/`right`, the value has `result`. */
export interface BinarySignature {
  readonly left: PrimitiveKind;
  readonly right: PrimitiveKind;
  readonly result: PrimitiveKind;
}

export interface UnarySignature {
  readonly operand: PrimitiveKind;
  readonly result: PrimitiveKind;
}

const ARITHMETIC_KINDS: readonly NumericKind[] = [
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'double',
  'decimal',
];
const INTEGER_KINDS: readonly IntegralKind[] = ['int', 'uint', 'long', 'ulong'];

function same(kinds: readonly PrimitiveKind[], result?: PrimitiveKind): BinarySignature[] {
  return kinds.map((k) => ({ left: k, right: k, result: result ?? k }));
}

function binaryCandidates(op: BinaryOperator): BinarySignature[] {
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return same(ARITHMETIC_KINDS);
    case '&':
    case '|':
    case '^':
      return same([...INTEGER_KINDS, 'bool']); // bool: §12.12.4 Boolean logical operators
    case '<<':
    case '>>':
      return INTEGER_KINDS.map((k) => ({ left: k, right: 'int', result: k }));
    case '==':
    case '!=':
      return same([...ARITHMETIC_KINDS, 'bool'], 'bool');
    case '<':
    case '>':
    case '<=':
    case '>=':
      return same(ARITHMETIC_KINDS, 'bool');
  }
}

function unaryCandidates(op: UnaryOperator): UnarySignature[] {
  const of = (kinds: readonly PrimitiveKind[]) => kinds.map((k) => ({ operand: k, result: k }));
  switch (op) {
    case '+':
      return of(ARITHMETIC_KINDS);
    case '-':
      return of(['int', 'long', 'float', 'double', 'decimal']); // no uint/ulong: §12.8.3
    case '~':
      return of(INTEGER_KINDS);
    case '!':
      return of(['bool']);
  }
}

// §12.6.4.6 better conversion target: signed beats unsigned of the same or larger width.
const SIGNED_BEATS: Readonly<Partial<Record<PrimitiveKind, readonly PrimitiveKind[]>>> = {
  sbyte: ['byte', 'ushort', 'uint', 'ulong'],
  short: ['ushort', 'uint', 'ulong'],
  int: ['uint', 'ulong'],
  long: ['ulong'],
};

function betterTarget(t1: PrimitiveKind, t2: PrimitiveKind): boolean {
  if (hasImplicitConversion(t1, t2) && !hasImplicitConversion(t2, t1)) return true;
  return SIGNED_BEATS[t1]?.includes(t2) ?? false;
}

/** §12.6.4.4 better conversion from expression: 1 if to t1 is better, -1 if worse, else 0. */
function compareConversions(from: PrimitiveKind, t1: PrimitiveKind, t2: PrimitiveKind): number {
  if (t1 === t2) return 0;
  if (from === t1) return 1;
  if (from === t2) return -1;
  if (betterTarget(t1, t2)) return 1;
  if (betterTarget(t2, t1)) return -1;
  return 0;
}

/** §12.6.4.3 better function member over per-argument target lists. */
function pickBest<T>(
  applicable: readonly T[],
  sources: readonly PrimitiveKind[],
  targets: (c: T) => readonly PrimitiveKind[],
): T | undefined {
  const better = (a: T, b: T): boolean => {
    let anyBetter = false;
    const ta = targets(a);
    const tb = targets(b);
    for (let i = 0; i < sources.length; i++) {
      const cmp = compareConversions(sources[i] ?? 'bool', ta[i] ?? 'bool', tb[i] ?? 'bool');
      if (cmp < 0) return false;
      if (cmp > 0) anyBetter = true;
    }
    return anyBetter;
  };
  const best = applicable.filter((c) => applicable.every((o) => o === c || better(c, o)));
  return best.length === 1 ? best[0] : undefined;
}

/** Binds `left op right` to a predefined operator; throws EvalCompileError (CS0019) if none. */
export function resolveBinaryOperator(
  op: BinaryOperator,
  left: OperandInfo,
  right: OperandInfo,
): BinarySignature {
  const applicable = binaryCandidates(op).filter(
    (c) => isImplicitlyConvertible(left, c.left) && isImplicitlyConvertible(right, c.right),
  );
  const best = pickBest(applicable, [left.kind, right.kind], (c) => [c.left, c.right]);
  if (best === undefined) throw binaryOperatorError(op, left.kind, right.kind);
  return best;
}

/** Binds `op operand` to a predefined operator; throws EvalCompileError (CS0023) if none. */
export function resolveUnaryOperator(op: UnaryOperator, operand: OperandInfo): UnarySignature {
  const applicable = unaryCandidates(op).filter((c) => isImplicitlyConvertible(operand, c.operand));
  const best = pickBest(applicable, [operand.kind], (c) => [c.operand]);
  if (best === undefined) throw unaryOperatorError(op, operand.kind);
  return best;
}

/** §12.4.7.2 unary numeric promotion (for +, -, ~): small integral types and char to int. */
export function unaryNumericPromotion(kind: NumericKind): NumericKind {
  return ['sbyte', 'byte', 'short', 'ushort', 'char'].includes(kind) ? 'int' : kind;
}

/**
 * §12.4.7.3 binary numeric promotion of two non-constant operands, or undefined where the spec
 * makes it a binding-time error (decimal with float/double, ulong with a signed type).
 */
export function binaryNumericPromotion(a: NumericKind, b: NumericKind): NumericKind | undefined {
  const has = (k: NumericKind) => a === k || b === k;
  const other = (k: NumericKind) => (a === k ? b : a);
  if (has('decimal')) {
    return ['float', 'double'].includes(other('decimal')) ? undefined : 'decimal';
  }
  if (has('double')) return 'double';
  if (has('float')) return 'float';
  if (has('ulong')) {
    return ['sbyte', 'short', 'int', 'long'].includes(other('ulong')) ? undefined : 'ulong';
  }
  if (has('long')) return 'long';
  if (has('uint')) return ['sbyte', 'short', 'int'].includes(other('uint')) ? 'long' : 'uint';
  return 'int';
}

/** An operand whose type is an enum with the given underlying integral type (§9.3.10). */
export interface EnumOperand {
  readonly enumName: string;
  readonly underlying: Exclude<IntegralKind, 'char'>;
}

export type OperandType = OperandInfo | EnumOperand;

function isEnum(t: OperandType): t is EnumOperand {
  return 'enumName' in t;
}

/**
 * How an enum operator evaluates: convert the enum operand(s) to `underlying`, apply the ordinary
 * operator (which promotes, e.g. byte + byte -> int), then convert the value back to
 * `underlying` with the current checked context — §12.9.5 "(E)((U)x + (U)y)"; measured on Mono
 * 6.8 (enum E : byte, E.A = 200): unchecked(a + 100) == (E)44, checked(a + 100) throws
 * OverflowException, unchecked(E.A - E.B) == (byte)206. `result` says what the value is typed as.
 */
export interface EnumResolution {
  readonly underlying: Exclude<IntegralKind, 'char'>;
  readonly result: 'enum' | 'underlying' | 'bool';
  /** Convert back unchecked whatever the context (measured for ~: checked(~e) never throws). */
  readonly uncheckedResult?: true;
}

function convertibleToEnumSide(t: OperandType, e: EnumOperand): boolean {
  if (isEnum(t)) return t.enumName === e.enumName;
  // §11.2.4: the constant 0 converts to any enum type.
  const c = t.constant;
  return c !== undefined && isIntegralKind(c.kind) && (c.value === 0 || c.value === 0n);
}

/** Binds an operator with an enum operand (§12.9.5, §12.9.6, §12.11.6, §12.12.3). */
export function resolveEnumBinaryOperator(
  op: BinaryOperator,
  left: OperandType,
  right: OperandType,
): EnumResolution {
  const e = isEnum(left) ? left : isEnum(right) ? right : undefined;
  const fail = () =>
    binaryOperatorError(
      op,
      isEnum(left) ? left.enumName : left.kind,
      isEnum(right) ? right.enumName : right.kind,
    );
  if (e === undefined) throw fail();
  const u = e.underlying;
  const bothEnum = convertibleToEnumSide(left, e) && convertibleToEnumSide(right, e);
  const toU = (t: OperandType) => !isEnum(t) && isImplicitlyConvertible(t, u);
  switch (op) {
    case '+': // E + U and U + E give E
      if ((isEnum(left) && toU(right)) || (isEnum(right) && toU(left))) {
        return { underlying: u, result: 'enum' };
      }
      break;
    case '-': // E - E gives U, E - U gives E
      if (isEnum(left) && bothEnum) return { underlying: u, result: 'underlying' };
      if (isEnum(left) && toU(right)) return { underlying: u, result: 'enum' };
      break;
    case '&':
    case '|':
    case '^':
      if (bothEnum) return { underlying: u, result: 'enum' };
      break;
    case '==':
    case '!=':
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (bothEnum) return { underlying: u, result: 'bool' };
      break;
    case '*':
    case '/':
    case '%':
    case '<<':
    case '>>':
      break;
  }
  throw fail();
}

/**
 * `~e` is (E)(~(U)e) (§12.8.5), converted back unchecked even in a checked context (measured:
 * enum E : byte, checked(~(E)20) == (E)235); other unary operators do not apply to enums.
 */
export function resolveEnumUnaryOperator(op: UnaryOperator, operand: EnumOperand): EnumResolution {
  if (op !== '~') throw unaryOperatorError(op, operand.enumName);
  return { underlying: operand.underlying, result: 'enum', uncheckedResult: true };
}
