// The runtime profile's refusals (runtime-profile.ts), applied to every request before its own
// guard: a command the runtime cannot serve, or would die on, never leaves; and the agent's
// refusals that mean a runtime limit are explained as such.

import type { GuardContext } from './command.js';
import type { CommandName, InvokeCall, ParamsOf } from './commands/index.js';
import type { SdbAgentError } from './errors.js';
import { SdbUnsupportedOnRuntimeError } from './errors.js';
import type { RuntimeLimit } from './runtime-profile.js';
import { ErrorCode } from './vocabulary.js';

/** Throws (or rejects) SdbUnsupportedOnRuntimeError for what the agent's runtime cannot take. */
export function refuseOnRuntime<K extends CommandName>(
  name: K,
  params: ParamsOf<K>,
  ctx: GuardContext,
): void | Promise<void> {
  const profile = ctx.runtime;
  const limit = profile.refused[name];
  if (limit) throw new SdbUnsupportedOnRuntimeError(profile.kind, name, limit);
  if (!profile.refusesNullableArguments) return;
  if (name === 'VM.INVOKE_METHOD') {
    const { methodId } = params as ParamsOf<'VM.INVOKE_METHOD'>;
    return refuseNullableParameters(name, [methodId], ctx);
  }
  if (name === 'VM.INVOKE_METHODS') {
    const { calls } = params as ParamsOf<'VM.INVOKE_METHODS'>;
    return refuseNullableParameters(
      name,
      calls.map((c: InvokeCall) => c.methodId),
      ctx,
    );
  }
}

async function refuseNullableParameters(
  name: string,
  methodIds: readonly number[],
  ctx: GuardContext,
): Promise<void> {
  for (const methodId of new Set(methodIds)) {
    const position = await ctx.nullableParameter(methodId);
    if (position === undefined) continue;
    const limit = nullableLimit(ctx.runtime.limits);
    throw new SdbUnsupportedOnRuntimeError(
      ctx.runtime.kind,
      `${name} (method ${methodId}, parameter ${position + 1})`,
      limit,
      'nullable-argument',
    );
  }
}

function nullableLimit(limits: readonly RuntimeLimit[]): RuntimeLimit {
  return (
    limits.find((l) => l.feature.includes('Nullable<T>')) ?? {
      feature: 'calling a method with a Nullable<T> parameter',
      why: 'the runtime asserts on it',
      instead: 'call another overload',
    }
  );
}

/**
 * An agent refusal that is this runtime's limit, as that limit; anything else unchanged. On
 * IL2CPP, MAKE_GENERIC_METHOD's INVALID_ARGUMENT is an instantiation the build did not compile
 * (mono_verifier_is_method_valid_generic_instantiation wants AOT code: il2cpp-mono-api.cpp
 * 1672-1680); the evaluator checks constraints before it asks.
 */
export function explainOnRuntime(ctx: GuardContext, error: SdbAgentError): Error {
  const profile = ctx.runtime;
  if (
    !profile.jit &&
    error.command === 'METHOD.MAKE_GENERIC_METHOD' &&
    error.errorCode === ErrorCode.INVALID_ARGUMENT
  ) {
    const limit = profile.limits.find((l) => l.feature.startsWith('generic')) ?? {
      feature: 'this generic instantiation',
      why: 'the build has no code for it',
      instead: 'use an instantiation the game uses',
    };
    return new SdbUnsupportedOnRuntimeError(
      profile.kind,
      error.command,
      limit,
      'generic-instantiation',
      { cause: error },
    );
  }
  return error;
}
