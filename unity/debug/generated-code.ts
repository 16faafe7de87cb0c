// Code C# hides in compiler-generated members: an iterator (a Unity coroutine) or an async
// method is a stub that builds a state machine whose MoveNext holds the body; a lambda is a
// method of the type, of a closure class or of the `<>c` singleton; a local function is a method
// with a mangled name. This file names them as the user wrote them, finds the generated bodies of
// a method the user named (resolve.ts binds breakpoints there), and maps a state machine's or
// closure's fields back to the hoisted locals, parameters and `this` they stand for (frames.ts).
//
// Names, as mcs (Mono's compiler, the fixtures') and Roslyn (Unity's) write them:
//   iterator   mcs `<M>c__Iterator0`   Roslyn `<M>d__3`            (MoveNext)
//   async      mcs `<M>c__async1`      Roslyn `<M>d__4`            (MoveNext; a builder field)
//   lambda     mcs `<M>m__0` on the type, `<M>c__AnonStorey2.<>m__0`
//              Roslyn `<M>b__5_0` on the type, `<>c`, or `<>c__DisplayClass5_0`
//   local fn   Roslyn `<M>g__Name|5_0` (mcs does not compile local functions; the fixture writes
//              Roslyn's lowering out and fixtures/build.ts gives it Roslyn's names)
//   hoisted    mcs `<x>__0`, `$this`, parameters by name; Roslyn `<x>5__1`, `<>4__this`

import type { SdbConnection } from '../../sdb-protocol/index.js';

export type GeneratedKind = 'coroutine' | 'async' | 'lambda' | 'local function';

export interface GeneratedName {
  /** The user's type (C# spelling). */
  type: string;
  /** The method the user wrote (for a local function, `Outer.Name`). */
  method: string;
  kind: GeneratedKind;
}

const STATE_MACHINE = /^(.*)\.<([^<>]+)>(c__Iterator|c__async|d__)\d+$/;
const CLOSURE = /^(.*)\.(?:<([^<>]+)>c__AnonStorey\d+|<>c__DisplayClass[\d_]+|<>c)$/;
const LAMBDA = /^<([^<>]+)>(?:m__\d+|b__[\d_]+)$/;
const LOCAL_FUNCTION = /^<([^<>]+)>g__([^|]+)\|[\d_]+$/;

/**
 * The user's name for a method (`typeName` as csharpTypeName writes it), or undefined for an
 * ordinary one. `isAsync` tells a Roslyn `d__` state machine (iterator or async) apart.
 */
export function generatedName(
  typeName: string,
  name: string,
  isAsync?: boolean,
): GeneratedName | undefined {
  const sm = STATE_MACHINE.exec(typeName);
  if (sm && name === 'MoveNext') {
    const kind =
      sm[3] === 'c__Iterator'
        ? 'coroutine'
        : sm[3] === 'c__async' || isAsync
          ? 'async'
          : 'coroutine';
    return { type: sm[1]!, method: sm[2]!, kind };
  }
  const local = LOCAL_FUNCTION.exec(name);
  if (local) {
    const closure = CLOSURE.exec(typeName);
    return {
      type: closure ? closure[1]! : typeName,
      method: `${local[1]!}.${local[2]!}`,
      kind: 'local function',
    };
  }
  const closure = CLOSURE.exec(typeName);
  const lambda = LAMBDA.exec(name);
  if (lambda) return { type: closure ? closure[1]! : typeName, method: lambda[1]!, kind: 'lambda' };
  // mcs: a closure's own lambdas are `<>m__0`; the method is in the closure's name
  if (closure?.[2] && /^<>m__\d+$/.test(name))
    return { type: closure[1]!, method: closure[2], kind: 'lambda' };
  return undefined;
}

/** `Game.Enemy.Patrol (coroutine)`, or `typeName.name` for an ordinary method. */
export function userMethodName(typeName: string, name: string, isAsync?: boolean): string {
  const g = generatedName(typeName, name, isAsync);
  return g ? `${g.type}.${g.method} (${g.kind})` : `${typeName}.${name}`;
}

/** Whether a type (by its C# name) is an iterator's or async method's state machine. */
export function isStateMachine(typeName: string): boolean {
  return STATE_MACHINE.test(typeName);
}

/** Whether a type (by its C# name) is compiler-generated code's home: a state machine or closure. */
export function isGeneratedHolder(typeName: string): boolean {
  return STATE_MACHINE.test(typeName) || CLOSURE.test(typeName);
}

/**
 * What a state machine's or closure's field stands for in the user's code: a hoisted local or
 * a parameter by its source name, the declaring object (`this`), or nothing (the machine's own
 * state: `$PC`, `<>1__state`, builders, awaiters, caches).
 */
export function hoistedName(field: string): { name: string } | 'this' | undefined {
  if (field === '$this' || field === '<>4__this' || field === '<>f__this') return 'this';
  const local = /^<([A-Za-z_][\w]*)>(?:5)?__\d+$/.exec(field);
  if (local) return { name: local[1]! };
  if (/^[A-Za-z_][\w]*$/.test(field)) return { name: field };
  return undefined;
}

/** A generated body of a user's method: its id and where it lives. */
export interface GeneratedBody {
  methodId: number;
  typeName: string;
  name: string;
  kind: GeneratedKind;
}

/**
 * The generated bodies of method `method` of type `typeId`: state machines' MoveNext, lambdas
 * (on the type, its closures, `<>c`), and its local functions. `localName`: only the local
 * function of that name (the user named a local function, not its outer method).
 */
export async function generatedBodies(
  conn: SdbConnection,
  typeId: number,
  method: string | undefined,
  methodName: (methodId: number) => Promise<{ typeName: string; name: string }>,
  localName?: string,
): Promise<GeneratedBody[]> {
  const info = await conn.send('TYPE.GET_INFO', { typeId });
  const holders = [typeId];
  for (const nested of info.nestedTypeIds) {
    const n = (await conn.send('TYPE.GET_INFO', { typeId: nested })).name;
    if (n.startsWith('<')) holders.push(nested);
  }
  const out: GeneratedBody[] = [];
  for (const holder of holders) {
    const isAsync =
      holder !== typeId
        ? (await conn.send('TYPE.GET_FIELDS', { typeId: holder })).some(
            (f) => f.name === '<>t__builder' || f.name === '$builder',
          )
        : false;
    for (const methodId of await conn.send('TYPE.GET_METHODS', { typeId: holder })) {
      const { typeName, name } = await methodName(methodId);
      const g = generatedName(typeName, name, isAsync);
      if (!g) continue;
      if (localName !== undefined) {
        if (g.kind === 'local function' && g.method.split('.').pop() === localName)
          out.push({ methodId, typeName, name, kind: g.kind });
        continue;
      }
      // a local function's lines are inside its outer method's: they bind through that name too
      const outer = g.kind === 'local function' ? g.method.split('.')[0] : g.method;
      if (outer === method) out.push({ methodId, typeName, name, kind: g.kind });
    }
  }
  return out;
}
