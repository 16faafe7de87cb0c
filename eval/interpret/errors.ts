// What evaluation can end with besides a value. A CompileError is what the C# compiler would
// refuse (with its CS code, so the differential tests can match the oracle's refusals); a
// ManagedException is what the program threw (in the game, or in our own arithmetic); an
// Unsupported error names a construct this evaluator does not handle rather than guess.

import { EvalCompileError, EvalManagedException } from '../semantics/errors.js';
import type { Span } from '../syntax/index.js';
import type { EvalValue } from '../values.js';

export class CompileError extends Error {
  override name = 'CompileError';
  constructor(
    /** The C# compiler's code for the same refusal, e.g. CS0019. */
    readonly csCode: string,
    message: string,
    readonly span?: Span,
    /** Close names, for a name that was not found. */
    readonly suggestions?: readonly string[],
  ) {
    super(message);
  }
}

export class UnsupportedError extends Error {
  override name = 'UnsupportedError';
  constructor(
    message: string,
    readonly span?: Span,
  ) {
    super(message);
  }
}

/** An exception the evaluated program threw, as .NET would name it. */
export class ManagedException extends Error {
  override name = 'ManagedException';
  /** For the reader: which part of the program was null, say (not part of .NET's message). */
  hint: string | undefined;
  /** The exception object in the game, for one the program threw itself. */
  object: EvalValue | undefined;
  constructor(
    readonly type: string,
    readonly managedMessage: string,
    readonly stackTrace = '',
  ) {
    super(`${type}: ${managedMessage}`);
  }
}

export const Messages = {
  nullReference: (): ManagedException =>
    new ManagedException(
      'System.NullReferenceException',
      'Object reference not set to an instance of an object',
    ),
  invalidCast: (): ManagedException =>
    new ManagedException('System.InvalidCastException', 'Specified cast is not valid.'),
  noValue: (): ManagedException =>
    new ManagedException('System.InvalidOperationException', 'Nullable object must have a value.'),
  indexOutOfRange: (): ManagedException =>
    new ManagedException(
      'System.IndexOutOfRangeException',
      'Index was outside the bounds of the array.',
    ),
};

/** Runs numeric semantics, turning its errors into the interpreter's. */
export function sem<T>(fn: () => T, span?: Span): T {
  try {
    return fn();
  } catch (e) {
    throw semError(e, span);
  }
}

/** What sem throws for an error of semantics/ (for callers that catch it themselves). */
export function semError(e: unknown, span?: Span): unknown {
  if (e instanceof EvalCompileError) return new CompileError(e.code, e.message, span);
  if (e instanceof EvalManagedException) return new ManagedException(e.exceptionType, e.message);
  return e;
}
