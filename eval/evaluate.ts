// The evaluator's entry point: C# text in, a value (or the exception the program threw) out.
// Two passes: the whole program is first bound without running (every compile error C# would
// report is found before anything in the game is touched, so a refused program changes
// nothing), then run. `prepare` and `run` are the two passes apart: a program prepared once
// (kept in a ProgramCache) runs again in a scope of the same shape without the first.

import { csharpName } from './format/type-names.js';
import { formatValue } from './format/format-value.js';
import { CompileError, ManagedException, UnsupportedError } from './interpret/errors.js';
import { Interpreter } from './interpret/interpreter.js';
import type { Operand } from './interpret/operand.js';
import {
  Budget,
  BudgetExceeded,
  type BudgetBound,
  type BudgetOptions,
} from './interpret/budget.js';
import type { Builtin, BuiltinFunction, InterpreterOptions } from './interpret/options.js';
import type { EvalScope } from './interpret/scope.js';
import type { RowStats } from './interpret/linq/row-pull.js';
import {
  GameExceptionError,
  type MetadataProvider,
  type Runtime,
  type TypeHandle,
} from './runtime.js';
import { EvalCompileError, EvalManagedException } from './semantics/errors.js';
import { shapeKey, type PreparedProgram, type ProgramCache } from './program-cache.js';
import {
  describeLocation,
  parse,
  type ParseError,
  type Program,
  type Span,
} from './syntax/index.js';
import type { EvalValue } from './values.js';

/** The namespaces a Unity script has in scope by default (and the ECS ones agents use). */
export const DEFAULT_USINGS: readonly string[] = [
  'System',
  'System.Collections.Generic',
  'System.Linq',
  'UnityEngine',
  'Unity.Entities',
  'Unity.Mathematics',
  'Unity.Collections',
  'Unity.Transforms',
];

export interface EvaluateOptions {
  readonly usings?: readonly string[];
  /** Resolve a type's simple name in any namespace when unique (default true). */
  readonly anyNamespace?: boolean;
  readonly builtins?: ReadonlyMap<string, Builtin>;
  readonly functions?: ReadonlyMap<string, BuiltinFunction>;
  /** Evaluate inside a method: its parameters, locals, `this` and enclosing type. */
  readonly scope?: EvalScope;
  /** The bounds the program runs within (defaults: DEFAULT_BUDGET) and window release. */
  readonly budget?: BudgetOptions;
  /**
   * Where bound programs are kept across runs (per game: type keys are the game's): a program
   * found there for the same scope shape is neither parsed nor bound again.
   */
  readonly programs?: ProgramCache;
  /** Run loops and lambdas in the interpreter only (tests comparing it with compiled runs). */
  readonly interpretOnly?: boolean;
  /** Counted into: what the row pull did (tests asking which way a query ran). */
  readonly rowStats?: RowStats;
}

export type EvaluateResult =
  | {
      readonly kind: 'value';
      /** The static type, as C# writes it. */
      readonly type: string;
      /** The static type itself (undefined for the `null` literal's). */
      readonly staticType: TypeHandle | undefined;
      readonly value: EvalValue;
      /** The value for a reader (bounded; see docs/eval-contract.md). */
      readonly text: string;
    }
  | { readonly kind: 'void' }
  /** The program threw (in the game or in its own arithmetic): the evaluation itself worked. */
  | {
      readonly kind: 'exception';
      readonly type: string;
      readonly message: string;
      readonly stackTrace: string;
      /** What was null, for a NullReferenceException of the program's own (`'a.b' is null`). */
      readonly hint?: string;
    };

export type EvalErrorCode = 'EVAL_SYNTAX' | 'EVAL_COMPILE' | 'EVAL_UNSUPPORTED' | 'EVAL_BUDGET';

/** The program cannot run: C# would not compile it, or it uses what this evaluator refuses. */
export class EvalError extends Error {
  override name = 'EvalError';
  constructor(
    readonly code: EvalErrorCode,
    message: string,
    /** The C# compiler's code for a compile error (CS0103...). */
    readonly csCode?: string,
    readonly span?: Span,
    readonly syntaxErrors?: readonly ParseError[],
    /** Close names, when a name was not found. */
    readonly suggestions?: readonly string[],
    /** For EVAL_BUDGET: the bound reached and its limit. */
    readonly budget?: { readonly bound: BudgetBound; readonly limit: number },
  ) {
    super(message);
  }
}

/**
 * Binds a program without running it: every compile error C# would report, no game access
 * beyond metadata. `evaluate` does this itself first; a caller may also run it earlier, outside
 * any suspend window, so that the game is not held while types and members are looked up.
 */
export async function bind(
  source: string,
  runtime: Runtime,
  options: EvaluateOptions = {},
): Promise<void> {
  await prepare(source, runtime, options);
}

function settingsOf(options: EvaluateOptions): InterpreterOptions {
  return {
    usings: options.usings ?? DEFAULT_USINGS,
    anyNamespace: options.anyNamespace ?? true,
    ...(options.builtins ? { builtins: options.builtins } : {}),
    ...(options.functions ? { functions: options.functions } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.interpretOnly ? { interpretOnly: true } : {}),
  };
}

/**
 * Parses and binds a program (pass 1: everything bound, nothing run), or finds it bound in
 * `options.programs` for the same scope shape. Throws EvalError for what cannot run; refusals
 * are never kept.
 */
export async function prepare(
  source: string,
  runtime: Runtime,
  options: EvaluateOptions = {},
): Promise<PreparedProgram> {
  const settings = settingsOf(options);
  const cache = options.programs;
  const key = shapeKey(source, settings);
  const kept = cache?.get(key);
  if (kept) {
    cache!.stats.hits++;
    return kept;
  }
  const program = parsed(source);
  const notes = new WeakMap<object, unknown>();
  const binder = new Interpreter(runtime, settings, { notes });
  await guard(async () => {
    binder.dry++;
    await binder.run(program);
  });
  const variable = scopeVariableNamed(program, settings);
  const prepared: PreparedProgram = {
    source,
    program,
    notes,
    key,
    ...(variable !== undefined ? { variable } : {}),
  };
  if (cache) {
    cache.stats.misses++;
    cache.set(prepared);
  }
  return prepared;
}

/**
 * The scope variable a program is made of, when it is nothing else: one bare name (no alias, no
 * type arguments) that the scope declares. A name finds the method's variables first (the
 * program has no locals of its own), so its value is the variable's, of the variable's type.
 */
function scopeVariableNamed(program: Program, settings: InterpreterOptions): string | undefined {
  const [only, ...more] = program.statements;
  if (more.length > 0 || only?.kind !== 'ExpressionStatement') return undefined;
  const e = only.expression;
  if (e.kind !== 'Name' || e.alias || e.typeArgs.length > 0) return undefined;
  return settings.scope?.variables.has(e.name) ? e.name : undefined;
}

function parsed(source: string): Program {
  const { program, errors } = parse(source);
  if (errors.length > 0) {
    const shown = errors.slice(0, 5).map((e) => e.message);
    // what C# reports as a compile error of its own code is one here too (`var x;`: CS0818)
    const csCode = errors.every((e) => e.csCode) ? errors[0]!.csCode : undefined;
    throw new EvalError(
      csCode ? 'EVAL_COMPILE' : 'EVAL_SYNTAX',
      shown.join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : ''),
      csCode,
      errors[0]!.span,
      errors,
    );
  }
  if (program.statements.length === 0)
    throw new EvalError('EVAL_SYNTAX', 'nothing to evaluate: write an expression');
  return program;
}

export async function evaluate(
  source: string,
  runtime: Runtime,
  options: EvaluateOptions = {},
): Promise<EvaluateResult> {
  return execute(await prepare(source, runtime, options), runtime, options);
}

/**
 * Runs a prepared program (pass 2), within the budget. `options` must give the scope shape it
 * was prepared for (its key is checked): the variables' values are this run's own.
 */
export async function run(
  prepared: PreparedProgram,
  runtime: Runtime,
  options: EvaluateOptions = {},
): Promise<EvaluateResult> {
  if (shapeKey(prepared.source, settingsOf(options)) !== prepared.key)
    throw new EvalError(
      'EVAL_UNSUPPORTED',
      'the program was prepared for another scope (other names or types in scope): prepare it again',
    );
  return execute(prepared, runtime, options);
}

async function execute(
  prepared: PreparedProgram,
  runtime: Runtime,
  options: EvaluateOptions,
): Promise<EvaluateResult> {
  const settings = settingsOf(options);
  const release = runtime.game.release?.bind(runtime.game);
  if (options.budget?.releaseBetweenStatements && !release)
    throw new EvalError(
      'EVAL_UNSUPPORTED',
      'this game cannot be released between statements: run the program in one window',
    );
  let budget: Budget;
  try {
    budget = new Budget(options.budget, release);
  } catch (e) {
    if (e instanceof RangeError) throw new EvalError('EVAL_UNSUPPORTED', e.message);
    throw e;
  }
  try {
    // a program that is one scope variable: its value, without an interpreter to build
    const { last, metadata } =
      prepared.variable !== undefined
        ? { last: await readVariable(settings, prepared.variable), metadata: runtime.metadata }
        : await interpret(prepared, runtime, settings, budget, options.rowStats);
    if (!last) return { kind: 'void' };
    const type = last.type === 'null' ? '<null>' : await csharpName(metadata, last.type);
    return {
      kind: 'value',
      type,
      staticType: last.type === 'null' ? undefined : last.type,
      value: last.value,
      text: await formatValue({ metadata, game: runtime.game }, last.value),
    };
  } catch (e) {
    if (e instanceof ManagedException)
      return {
        kind: 'exception',
        type: e.type,
        message: e.managedMessage,
        stackTrace: e.stackTrace,
        ...(e.hint ? { hint: e.hint } : {}),
      };
    if (e instanceof GameExceptionError)
      return { kind: 'exception', type: e.type, message: e.gameMessage, stackTrace: e.stackTrace };
    // refused while running as bound: never kept as bound again
    if (e instanceof EvalError && e.code !== 'EVAL_BUDGET') options.programs?.delete(prepared.key);
    throw e;
  }
}

/**
 * Pass 2 by the interpreter: the program's last value (undefined for void), and the metadata
 * that names it (the interpreter's also knows the types it made itself: anonymous types).
 */
async function interpret(
  { program, notes }: PreparedProgram,
  runtime: Runtime,
  settings: InterpreterOptions,
  budget: Budget,
  rowStats: RowStats | undefined,
): Promise<{ last: Operand | undefined; metadata: MetadataProvider }> {
  const interpreter = new Interpreter(runtime, settings, {
    notes,
    budget,
    ...(rowStats ? { rowStats } : {}),
  });
  const last = await guard(() => interpreter.run(program));
  const voidType = await interpreter.wk.keyword('void');
  const isVoid = last.type !== 'null' && last.type.key === voidType.key;
  return { last: isVoid ? undefined : last, metadata: interpreter.md };
}

async function readVariable(settings: InterpreterOptions, name: string): Promise<Operand> {
  const v = settings.scope?.variables.get(name);
  if (!v) throw new Error(`the scope has no variable '${name}' although its key says so`);
  return { type: v.type, value: await v.read() };
}

/** Turns the interpreter's refusals into EvalErrors with the place to fix. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CompileError) {
      throw new EvalError(
        'EVAL_COMPILE',
        `${e.csCode}: ${e.message}${e.span ? ` ${describeLocation(e.span)}` : ''}`,
        e.csCode,
        e.span,
        undefined,
        e.suggestions,
      );
    }
    if (e instanceof UnsupportedError) {
      throw new EvalError(
        'EVAL_UNSUPPORTED',
        `${e.message}${e.span ? ` ${describeLocation(e.span)}` : ''}`,
        undefined,
        e.span,
      );
    }
    if (e instanceof BudgetExceeded)
      throw new EvalError(
        'EVAL_BUDGET',
        `${e.message}${e.span ? ` ${describeLocation(e.span)}` : ''}`,
        undefined,
        e.span,
        undefined,
        undefined,
        { bound: e.bound, limit: e.limit },
      );
    if (e instanceof EvalCompileError)
      throw new EvalError('EVAL_COMPILE', `${e.code}: ${e.message}`, e.code);
    if (e instanceof EvalManagedException) throw new ManagedException(e.exceptionType, e.message);
    throw e;
  }
}
