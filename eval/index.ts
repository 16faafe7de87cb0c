// The C# expression evaluator: parse, bind and run over a Runtime the caller provides.

export { bind, evaluate, prepare, run, EvalError, DEFAULT_USINGS } from './evaluate.js';
export { ProgramCache, readsOnly, shapeKey } from './program-cache.js';
export type { PreparedProgram, ProgramCacheStats } from './program-cache.js';
export type { EvaluateOptions, EvaluateResult, EvalErrorCode } from './evaluate.js';
export type { Builtin, BuiltinFunction } from './interpret/options.js';
export type { EvalScope, ScopeVariable } from './interpret/scope.js';
export { ManagedException } from './interpret/errors.js';
export { DEFAULT_BUDGET, MAX_BUDGET } from './interpret/budget.js';
export type { BudgetBound, BudgetLimits, BudgetOptions } from './interpret/budget.js';
export { formatValue } from './format/format-value.js';
export { csharpName } from './format/type-names.js';
export * from './runtime.js';
export * from './values.js';
export { KEYWORD_TYPES } from './interpret/well-known.js';
export { primitiveKindOfName, valueNumericKindOfName } from './interpret/primitives.js';
