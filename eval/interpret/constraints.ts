// Type-parameter constraints of a generic method (ECMA-334 §15.2.5), checked before it is
// instantiated in the game: `class` (CS0452), `struct` (CS0453), a base class or interface
// (CS0311 for a reference type, CS0315 for a value type, CS0313 for a nullable one) and `new()`
// (CS0310), in the order and with the codes the compiler reports.

import type * as A from '../syntax/index.js';
import type { MetadataProvider, MethodDescriptor, TypeHandle } from '../runtime.js';
import { CompileError } from './errors.js';
import type { TypeFacts } from './type-facts.js';

/** The compiler's error for the first type argument that breaks its constraints, or undefined. */
export async function constraintViolation(
  f: TypeFacts,
  md: MetadataProvider,
  method: MethodDescriptor,
  typeArgs: readonly TypeHandle[],
  span: A.Span,
): Promise<CompileError | undefined> {
  const constraints = method.genericConstraints;
  if (!constraints) return undefined;
  for (let i = 0; i < typeArgs.length; i++) {
    const c = constraints[i];
    const t = typeArgs[i]!;
    if (!c) continue;
    const arg = await f.name(t);
    const where = `in the generic method '${await methodName(f, method, constraints)}'`;
    const isValue = await f.isValueType(t);
    const nullable = !!(await f.nullableUnderlying(t));
    if (c.referenceType && isValue) {
      return new CompileError(
        'CS0452',
        `the type '${arg}' must be a reference type in order to use it as type parameter '${c.name}' ${where}`,
        span,
      );
    }
    if (c.valueType && (!isValue || nullable)) {
      return new CompileError(
        'CS0453',
        `the type '${arg}' must be a non-nullable value type in order to use it as type parameter '${c.name}' ${where}`,
        span,
      );
    }
    for (const bound of c.types) {
      if (!nullable && (await f.assignable(bound, t))) continue;
      const [code, why] = nullable
        ? ['CS0313', `the nullable type '${arg}' never satisfies the constraint`]
        : isValue
          ? ['CS0315', `there is no boxing conversion from '${arg}'`]
          : ['CS0311', `there is no implicit reference conversion from '${arg}'`];
      return new CompileError(
        code,
        `the type '${arg}' cannot be used as type parameter '${c.name}' ${where}: ${why} to '${await f.name(bound)}'`,
        span,
      );
    }
    if (c.defaultConstructor && !isValue && !(await hasPublicDefaultConstructor(f, md, t))) {
      return new CompileError(
        'CS0310',
        `the type '${arg}' must have a public parameterless constructor in order to use it as type parameter '${c.name}' ${where}`,
        span,
      );
    }
  }
  return undefined;
}

/**
 * The runtime refused type arguments that pass every constraint it described: one built from
 * type parameters (`where T : IComparable<T>`). Reported as the compiler reports a broken type
 * constraint for the first argument (CS0311 reference type, CS0315 value type, CS0313 nullable).
 */
export async function refusedInstantiation(
  f: TypeFacts,
  method: MethodDescriptor,
  typeArgs: readonly TypeHandle[],
  span: A.Span,
): Promise<CompileError> {
  const t = typeArgs[0]!;
  const code = (await f.nullableUnderlying(t))
    ? 'CS0313'
    : (await f.isValueType(t))
      ? 'CS0315'
      : 'CS0311';
  const names = await Promise.all(typeArgs.map((a) => f.name(a)));
  const params = method.genericConstraints?.map((c) => c.name) ?? [];
  const target = `${await f.name(method.declaringType)}.${method.name}${params.length ? `<${params.join(', ')}>` : ''}`;
  return new CompileError(
    code,
    `the type arguments <${names.join(', ')}> do not satisfy the constraints of the generic method '${target}' (the game refused the instantiation)`,
    span,
  );
}

async function hasPublicDefaultConstructor(
  f: TypeFacts,
  md: MetadataProvider,
  t: TypeHandle,
): Promise<boolean> {
  const d = await f.describe(t);
  if (d.kind !== 'class' || d.isAbstract) return false;
  const ctors = (await md.members(t, '.ctor')).methods;
  return ctors.some((m) => !m.isStatic && m.isPublic && m.parameters.length === 0);
}

async function methodName(
  f: TypeFacts,
  m: MethodDescriptor,
  constraints: NonNullable<MethodDescriptor['genericConstraints']>,
): Promise<string> {
  return `${await f.name(m.declaringType)}.${m.name}<${constraints.map((c) => c.name).join(', ')}>`;
}
