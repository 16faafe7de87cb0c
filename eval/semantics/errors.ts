// Errors of the numeric semantics, in two families the interpreter must keep apart:
//   - EvalManagedException: what the C# program would throw at run time (a .NET exception
//     type name and the exact message Mono 6.8's corlib uses), to be reported as the game would;
//   - EvalCompileError: what mcs would refuse to compile (its error code and message text).
// Messages were measured on Mono 6.8.0.105 / mcs (Debian 6.8.0.105+dfsg-3.3+deb12u1).

import type { IntegralKind, PrimitiveKind } from './numeric-types.js';

export type ManagedExceptionType =
  'System.OverflowException' | 'System.DivideByZeroException' | 'System.FormatException';

export abstract class EvalManagedException extends Error {
  abstract readonly exceptionType: ManagedExceptionType;
}

/** An arithmetic exception the C# code would raise (OverflowException, DivideByZeroException). */
export class EvalArithmeticError extends EvalManagedException {
  override name = 'EvalArithmeticError';
  constructor(
    readonly exceptionType: 'System.OverflowException' | 'System.DivideByZeroException',
    message: string,
  ) {
    super(message);
  }
}

/** A FormatException from ToString(format): an unknown or misapplied format specifier. */
export class EvalFormatError extends EvalManagedException {
  override name = 'EvalFormatError';
  readonly exceptionType = 'System.FormatException';
}

// Measured: `checked(int.MaxValue + x)`, `checked((byte)d)`, `int.MinValue / -1`.
export const OVERFLOW_MESSAGE = 'Arithmetic operation resulted in an overflow.';
// Measured: `1 / zero`, `1m % 0m`.
export const DIVIDE_BY_ZERO_MESSAGE = 'Attempted to divide by zero.';
// Measured: `(int)someDecimal`, `(decimal)1e30`, `decimal.MaxValue + 1m`.
const RANGE_NAMES: Record<IntegralKind | 'decimal', string> = {
  sbyte: 'a signed byte',
  byte: 'an unsigned byte',
  short: 'an Int16',
  ushort: 'a UInt16',
  int: 'an Int32',
  uint: 'a UInt32',
  long: 'an Int64',
  ulong: 'a UInt64',
  char: 'a character',
  decimal: 'a Decimal',
};

export function overflowError(): EvalArithmeticError {
  return new EvalArithmeticError('System.OverflowException', OVERFLOW_MESSAGE);
}

export function divideByZeroError(): EvalArithmeticError {
  return new EvalArithmeticError('System.DivideByZeroException', DIVIDE_BY_ZERO_MESSAGE);
}

/** The corlib's "Value was either too large or too small for X." (decimal conversions). */
export function rangeOverflowError(kind: IntegralKind | 'decimal'): EvalArithmeticError {
  return new EvalArithmeticError(
    'System.OverflowException',
    `Value was either too large or too small for ${RANGE_NAMES[kind]}.`,
  );
}

export function badFormatError(): EvalFormatError {
  return new EvalFormatError('Format specifier was invalid.');
}

export type CompileErrorCode =
  | 'CS0019' // binary operator not applicable
  | 'CS0020' // division by constant zero
  | 'CS0023' // unary operator not applicable
  | 'CS0030' // no explicit conversion
  | 'CS0031' // constant value cannot be converted (decimal constants, implicit constant conversions)
  | 'CS0220' // constant arithmetic overflows in checked mode
  | 'CS0221'; // constant value cannot be converted (checked constant conversion)

/** What mcs would reject; `message` is mcs's wording (it quotes with `…'). */
export class EvalCompileError extends Error {
  override name = 'EvalCompileError';
  constructor(
    readonly code: CompileErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function binaryOperatorError(op: string, left: string, right: string): EvalCompileError {
  return new EvalCompileError(
    'CS0019',
    `Operator \`${op}' cannot be applied to operands of type \`${left}' and \`${right}'`,
  );
}

export function unaryOperatorError(op: string, operand: string): EvalCompileError {
  return new EvalCompileError(
    'CS0023',
    `The \`${op}' operator cannot be applied to operand of type \`${operand}'`,
  );
}

export function noConversionError(from: PrimitiveKind, to: PrimitiveKind): EvalCompileError {
  return new EvalCompileError('CS0030', `Cannot convert type \`${from}' to \`${to}'`);
}

export function constantOverflowError(): EvalCompileError {
  return new EvalCompileError('CS0220', 'The operation overflows at compile time in checked mode');
}

export function constantDivisionByZeroError(): EvalCompileError {
  return new EvalCompileError('CS0020', 'Division by constant zero');
}

/** CS0221; `literal` is the constant as mcs prints it (e.g. "1E+20", "-1", "NaN"). */
export function constantConversionError(literal: string, to: PrimitiveKind): EvalCompileError {
  return new EvalCompileError(
    'CS0221',
    `Constant value \`${literal}' cannot be converted to a \`${to}' (use \`unchecked' syntax to override)`,
  );
}

/** CS0031; decimal constants print with their M suffix ("100000000000000000000M"). */
export function constantNotConvertibleError(literal: string, to: PrimitiveKind): EvalCompileError {
  return new EvalCompileError(
    'CS0031',
    `Constant value \`${literal}' cannot be converted to a \`${to}'`,
  );
}
