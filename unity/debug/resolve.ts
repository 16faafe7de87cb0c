// Where a breakpoint goes: a method's line or IL offset, or a source line through the methods the
// game has compiled; and, when the code is not in the game yet, what a pending breakpoint waits
// for (unity/debug/event-decisions.ts binds it when that code loads).

import { Errors, UnityError } from '../errors.js';
import type { OperationContext } from '../session/session.js';
import type { Breakpoint, BreakpointSpec, CodeLocation } from './debug-types.js';
import { generatedBodies, userMethodName, type GeneratedBody } from './generated-code.js';
import {
  codeLines,
  isSourceLine,
  findMethods,
  offsetForLine,
  pointAt,
  type LocationCache,
  type MethodRef,
  type SourcePoint,
} from './locations.js';

export async function resolveBreakpoint(
  ctx: Pick<OperationContext, 'conn' | 'catalog'>,
  cache: LocationCache,
  spec: BreakpointSpec,
): Promise<CodeLocation[]> {
  if (spec.file !== undefined) return resolveFile(ctx, cache, spec.file, spec.line);
  if (spec.type === undefined || spec.method === undefined)
    throw Errors.invalidArgument('give type and method, or file and line');
  if (spec.line !== undefined && spec.ilOffset !== undefined)
    throw Errors.invalidArgument('give line or il_offset, not both');
  const { stubs, bodies } = await methodsAndBodies(ctx, cache, spec);
  const stateMachines = bodies.filter((b) => b.kind === 'coroutine' || b.kind === 'async');
  // where to look: a line inside generated code binds there (the stub does not run the body);
  // no line on a coroutine or async method: the state machine's first line, not the stub's
  let targets: { methodId: number; name: string }[];
  if (spec.ilOffset !== undefined) targets = stubs.length > 0 ? stubs : bodies;
  else if (spec.line !== undefined) {
    const inBodies: { methodId: number; name: string }[] = [];
    for (const b of bodies)
      if (offsetForLine(await cache.points(b.methodId), spec.line) !== undefined) inBodies.push(b);
    targets = inBodies.length > 0 ? inBodies : stubs;
  } else targets = stateMachines.length > 0 ? stateMachines : stubs.length > 0 ? stubs : bodies; // a local function named
  const out: CodeLocation[] = [];
  for (const m of targets) {
    const points = await cache.points(m.methodId);
    let il: number | undefined;
    if (spec.ilOffset !== undefined) {
      // IL 0 is every method's entry on Mono, with or without line information; IL2CPP binds
      // only at an exact sequence point and says nothing when none matches
      // (runtime-profile.ts: silentOffSequencePoints), so there only sequence points are armed
      const entry = spec.ilOffset === 0 && !ctx.conn.runtime.silentOffSequencePoints;
      il = entry || points.some((p) => p.ilOffset === spec.ilOffset) ? spec.ilOffset : undefined;
    } else if (spec.line !== undefined) {
      il = offsetForLine(points, spec.line);
    } else {
      // the method's first line of code
      il = points.find((p) => isSourceLine(p.line))?.ilOffset;
    }
    if (il === undefined) continue;
    const at = pointAt(points, il);
    out.push({
      method: m.name,
      methodId: m.methodId,
      ilOffset: il,
      ...(at?.line !== undefined ? { line: at.line } : {}),
      ...(at?.file ? { file: at.file } : {}),
    });
  }
  if (out.length === 0) {
    const lines = codeLines(
      (await Promise.all([...stubs, ...bodies].map((m) => cache.points(m.methodId)))).flat(),
    );
    const where =
      spec.ilOffset !== undefined
        ? `IL offset ${spec.ilOffset}`
        : spec.line !== undefined
          ? `line ${spec.line}`
          : 'any line';
    throw Errors.noLocation(`${where} of ${spec.type}.${spec.method}`, lines);
  }
  return out;
}

/**
 * The methods a spec names (`stubs`: the overloads as declared) and the code the compiler
 * generated for their bodies (state machines, lambdas, local functions: generated-code.ts). A
 * name that is no member may be a local function's.
 */
async function methodsAndBodies(
  ctx: Pick<OperationContext, 'conn' | 'catalog'>,
  cache: LocationCache,
  spec: BreakpointSpec,
): Promise<{
  stubs: { methodId: number; name: string }[];
  bodies: (GeneratedBody & { name: string })[];
}> {
  const named = (b: GeneratedBody): GeneratedBody & { name: string } => ({
    ...b,
    name: userMethodName(b.typeName, b.name, b.kind === 'async'),
  });
  let methods: MethodRef[];
  try {
    methods = await findMethods(ctx.catalog, spec.type!, spec.method!, spec.signature);
  } catch (e) {
    if (!(e instanceof UnityError) || e.code !== 'MEMBER_NOT_FOUND') throw e;
    const typeId = await ctx.catalog.resolveType(spec.type!);
    const locals = await generatedBodies(
      ctx.conn,
      typeId,
      undefined,
      (id) => cache.methodName(id),
      spec.method,
    );
    if (locals.length === 0) throw e;
    return { stubs: [], bodies: locals.map(named) };
  }
  const stubs = methods.map((m) => ({ methodId: m.methodId, name: `${m.typeName}.${m.name}` }));
  const bodies: (GeneratedBody & { name: string })[] = [];
  const seen = new Set<string>();
  for (const m of methods) {
    const { declaringTypeId } = await cache.methodFacts(m.methodId);
    const key = `${declaringTypeId}:${m.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const b of await generatedBodies(ctx.conn, declaringTypeId, m.name, (id) =>
      cache.methodName(id),
    ))
      bodies.push(named(b));
  }
  return { stubs, bodies };
}

/** A source line: the loaded methods whose sequence points put code on it. */
async function resolveFile(
  ctx: Pick<OperationContext, 'conn' | 'catalog'>,
  cache: LocationCache,
  file: string,
  line: number | undefined,
): Promise<CodeLocation[]> {
  if (line === undefined) throw Errors.invalidArgument('a breakpoint by file needs a line');
  const base = file.split(/[\\/]/).pop()!;
  const types = await ctx.conn.send('VM.GET_TYPES_FOR_SOURCE_FILE', {
    file: base,
    ignoreCase: true,
  });
  if (types.length === 0) throw new FileNotLoaded(file, line);
  const out: CodeLocation[] = [];
  const sameFile = (p: SourcePoint): boolean =>
    p.file !== undefined &&
    (p.file.toLowerCase() === file.toLowerCase() ||
      p.file.split(/[\\/]/).pop()!.toLowerCase() === base.toLowerCase());
  for (const typeId of types) {
    for (const methodId of await ctx.conn.send('TYPE.GET_METHODS', { typeId })) {
      const points = (await cache.points(methodId).catch(() => [])).filter(sameFile);
      const il = offsetForLine(points, line);
      if (il === undefined) continue;
      const at = pointAt(points, il);
      out.push({
        method: await cache.displayName(methodId),
        methodId,
        ilOffset: il,
        line,
        ...(at?.file ? { file: at.file } : {}),
      });
    }
  }
  if (out.length === 0) {
    throw Errors.noLocation(
      `${file}:${line} (only methods the game has already compiled are searched)`,
      [],
    );
  }
  return out;
}

/** No type of the file has compiled code in the game yet. */
export class FileNotLoaded extends UnityError {
  constructor(
    readonly file: string,
    readonly line: number,
  ) {
    super(
      'NO_LOCATION',
      `no code of ${file} is in the game yet (only methods the game has compiled are searched); line ${line}`,
    );
  }
}

/** A breakpoint that can wait for its code to load, when resolving failed only for that. */
export function pendingFor(spec: BreakpointSpec, e: unknown): Breakpoint['pending'] | undefined {
  if (!(e instanceof UnityError)) return undefined;
  if (e instanceof FileNotLoaded)
    return { waitingFor: `a type of ${e.file} with code on line ${e.line} to load` };
  if (spec.file === undefined && spec.type !== undefined && e.code === 'TYPE_NOT_FOUND') {
    const dotted = spec.type.includes('.');
    return {
      waitingFor: `type ${spec.type} to load${dotted ? '' : ' (matched as a full name: give Namespace.Type for a type in a namespace)'}`,
      ...(e.suggestions?.length ? { suggestions: e.suggestions } : {}),
    };
  }
  return undefined;
}

/**
 * The names a TYPE_LOAD request for `type` must list. Mono compares them with
 * mono_type_full_name of the loaded type (debug-helpers.c: nesting with `/`, as IL writes it),
 * and the query may spell nesting as C# (`Outer.Inner`) or reflection (`Outer+Inner`) does, so
 * every split of a dotted name between namespace and nesting is listed (`A.B.C`, `A.B/C`,
 * `A/B/C`).
 */
export function loadNames(type: string): string[] {
  const name = type.trim().replace(/\+/g, '/');
  if (name.includes('/')) return [name];
  const parts = name.split('.');
  const out: string[] = [];
  // k: how many leading parts are the namespace (all but the last, down to none)
  for (let k = parts.length - 1; k >= 0; k--) {
    const nested = parts.slice(k).join('/');
    out.push(k > 0 ? `${parts.slice(0, k).join('.')}.${nested}` : nested);
  }
  return out;
}
