// Where code is: methods found by type and name, their sequence points (IL offset → file, line),
// and the reverse (a line → the IL offsets a breakpoint can take). Line tables come from
// METHOD.GET_DEBUG_INFO and are cached per connection and method (they never change).

import type {
  DebugInfo,
  FieldInfo,
  LocalsInfo,
  MethodInfo,
  ParamInfo,
  SdbConnection,
} from '../../sdb-protocol/index.js';
import type { TypeCatalog } from '../catalog/index.js';
import { Errors } from '../errors.js';
import { connectionPart } from '../session/game-connection.js';
import { csharpTypeName } from './csharp-type-name.js';
import { isGeneratedHolder, userMethodName } from './generated-code.js';

export interface SourcePoint {
  ilOffset: number;
  line: number;
  file?: string;
}

export interface MethodRef {
  methodId: number;
  /** The declaring type as C# writes it (`Game.Box<int>`, `Game.Outer.Inner`). */
  typeName: string;
  name: string;
  /** `(int, string)`: the parameter types, to tell overloads apart. */
  signature: string;
}

/** The sequence points of a method, in IL order, with their file. */
export function sourcePoints(info: DebugInfo): SourcePoint[] {
  return info.points
    .map((p) => {
      const file = p.sourceIndex >= 0 ? info.files[p.sourceIndex]?.path : undefined;
      return { ilOffset: p.ilOffset, line: p.line, ...(file ? { file } : {}) };
    })
    .sort((a, b) => a.ilOffset - b.ilOffset);
}

/** A line a person can read: hidden points (0xfeefee, mcs's compiler-made code) and 0 are not. */
export function isSourceLine(line: number): boolean {
  return line > 0 && line < 0xfeefee;
}

/**
 * The source point an IL offset belongs to: the last sequence point at or before it. Hidden
 * points do not count.
 */
export function pointAt(points: readonly SourcePoint[], ilOffset: number): SourcePoint | undefined {
  let best: SourcePoint | undefined;
  for (const p of points) {
    if (!isSourceLine(p.line)) continue;
    if (p.ilOffset <= ilOffset) best = p;
    else break;
  }
  return best;
}

/** The first sequence point of `line` (the one a debugger stops at for a line breakpoint). */
export function offsetForLine(points: readonly SourcePoint[], line: number): number | undefined {
  const at = points.filter((p) => p.line === line).map((p) => p.ilOffset);
  return at.length ? Math.min(...at) : undefined;
}

/** The lines that carry code, ascending. */
export function codeLines(points: readonly SourcePoint[]): number[] {
  return [...new Set(points.map((p) => p.line).filter(isSourceLine))].sort((a, b) => a - b);
}

/** What a frame needs to know of its method to read its variables. */
export interface MethodFacts {
  params: ParamInfo;
  locals: LocalsInfo;
  info: MethodInfo;
  declaringTypeId: number;
}

/** The location cache of one attached game (GameConnection.part). */
export const LOCATION_CACHE = connectionPart(
  'debugger locations',
  (c): LocationCache => new LocationCache(c.conn),
);

/** Per connection: line tables, method names and variable layouts, read once (they never change). */
export class LocationCache {
  private readonly infos = new Map<number, Promise<SourcePoint[]>>();
  private readonly names = new Map<number, Promise<{ typeName: string; name: string }>>();
  private readonly facts = new Map<number, Promise<MethodFacts>>();
  private readonly displays = new Map<number, Promise<string>>();
  private readonly typeFields = new Map<number, Promise<FieldInfo[]>>();

  /** A type's fields (declared there), read once. */
  fields(typeId: number): Promise<FieldInfo[]> {
    let p = this.typeFields.get(typeId);
    if (!p) {
      p = this.conn.send('TYPE.GET_FIELDS', { typeId });
      p.catch(() => this.typeFields.delete(typeId));
      this.typeFields.set(typeId, p);
    }
    return p;
  }

  constructor(readonly conn: SdbConnection) {}

  methodFacts(methodId: number): Promise<MethodFacts> {
    let p = this.facts.get(methodId);
    if (!p) {
      p = (async () => {
        const [params, locals, info, declaringTypeId] = await Promise.all([
          this.conn.send('METHOD.GET_PARAM_INFO', { methodId }),
          this.conn.send('METHOD.GET_LOCALS_INFO', { methodId }),
          this.conn.send('METHOD.GET_INFO', { methodId }),
          this.conn.send('METHOD.GET_DECLARING_TYPE', { methodId }),
        ]);
        return { params, locals, info, declaringTypeId };
      })();
      p.catch(() => this.facts.delete(methodId));
      this.facts.set(methodId, p);
    }
    return p;
  }

  points(methodId: number): Promise<SourcePoint[]> {
    let p = this.infos.get(methodId);
    if (!p) {
      p = this.conn.send('METHOD.GET_DEBUG_INFO', { methodId }).then(sourcePoints);
      p.catch(() => this.infos.delete(methodId));
      this.infos.set(methodId, p);
    }
    return p;
  }

  /**
   * A method as the user wrote it: `Game.Box<int>.Put`, or for compiler-generated code the
   * user's method with what it is (`Game.Enemy.Patrol (coroutine)`: generated-code.ts).
   */
  displayName(methodId: number): Promise<string> {
    let p = this.displays.get(methodId);
    if (!p) {
      p = (async () => {
        const { typeName, name } = await this.methodName(methodId);
        if (!isGeneratedHolder(typeName) && !name.startsWith('<')) return `${typeName}.${name}`;
        let isAsync = false;
        if (name === 'MoveNext') {
          const typeId = await this.conn.send('METHOD.GET_DECLARING_TYPE', { methodId });
          isAsync = (await this.fields(typeId)).some(
            (f) => f.name === '<>t__builder' || f.name === '$builder',
          );
        }
        return userMethodName(typeName, name, isAsync);
      })();
      p.catch(() => this.displays.delete(methodId));
      this.displays.set(methodId, p);
    }
    return p;
  }

  /** A method's name and its declaring type's, as C# writes them (`Game.Box<int>`, `Put`). */
  methodName(methodId: number): Promise<{ typeName: string; name: string }> {
    let p = this.names.get(methodId);
    if (!p) {
      p = (async () => {
        const [name, typeId] = await Promise.all([
          this.conn.send('METHOD.GET_NAME', { methodId }),
          this.conn.send('METHOD.GET_DECLARING_TYPE', { methodId }),
        ]);
        const info = await this.conn.send('TYPE.GET_INFO', { typeId });
        return { typeName: csharpTypeName(info.fullName), name };
      })();
      p.catch(() => this.names.delete(methodId));
      this.names.set(methodId, p);
    }
    return p;
  }
}

/**
 * The methods named `method` on `type` (declared there or inherited), narrowed by `signature`
 * (`(int)`, `int`, or `()`: the parameter types as C# writes them, compared loosely) when given.
 * Several overloads without a signature: all of them (a breakpoint on each).
 */
export async function findMethods(
  catalog: TypeCatalog,
  type: string,
  method: string,
  signature?: string,
): Promise<MethodRef[]> {
  const typeId = await catalog.resolveType(type);
  const found = await catalog.findMember(typeId, method);
  if (found.kind !== 'method') {
    throw Errors.invalidArgument(`${type}.${method} is a ${found.kind}, not a method`);
  }
  const refs = found.overloads.map((m) => ({
    methodId: m.methodId,
    typeName: csharpTypeName(m.declaringType.name),
    name: m.name,
    signature: `(${m.parameters.map((p) => p.type.name).join(', ')})`,
  }));
  if (signature === undefined) return refs;
  const want = normalizeSignature(signature);
  const hits = refs.filter((r) => normalizeSignature(r.signature) === want);
  if (hits.length === 0) {
    throw Errors.invalidArgument(
      `${type}.${method} has no overload ${signature}; overloads: ${refs.map((r) => r.signature).join(' ')}`,
    );
  }
  return hits;
}

const ALIASES: Record<string, string> = {
  int32: 'int',
  int64: 'long',
  int16: 'short',
  uint32: 'uint',
  uint64: 'ulong',
  uint16: 'ushort',
  single: 'float',
  boolean: 'bool',
  system_string: 'string',
  system_object: 'object',
};

/** `(System.Int32, string)` and `int,String` compare equal. */
export function normalizeSignature(s: string): string {
  return s
    .replace(/^\s*\(|\)\s*$/g, '')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p.length > 0)
    .map((p) => {
      const simple = p.replace(/^system\./, '');
      return ALIASES[simple] ?? ALIASES[p.replace('.', '_')] ?? simple;
    })
    .join(',');
}
