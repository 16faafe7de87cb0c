// The last way to list an assembly's types, for agents that cannot send its metadata (Unity's
// 2.45 fork has no GET_METADATA_BLOB) when its file is not on this machine: ask the game. Two
// invokes on the main thread: Assembly.GetTypes(), then String.Join("\n", types), whose
// Type.ToString() gives reflection names; one string read brings them all back.

import { BindingFlags, Values, readString, type SdbConnection } from '../sdb-protocol/index.js';
import type { MainThreadInvoker } from './invoker.js';

interface Methods {
  getTypes: number;
  join: number;
}

async function findMethods(conn: SdbConnection): Promise<Methods> {
  const [assembly] = await conn.send('VM.GET_TYPES', {
    name: 'System.Reflection.Assembly',
    ignoreCase: false,
  });
  const [string] = await conn.send('VM.GET_TYPES', { name: 'System.String', ignoreCase: false });
  if (!assembly || !string)
    throw new Error('System.Reflection.Assembly or System.String not found');
  const [getTypes] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
    typeId: assembly,
    name: 'GetTypes',
    flags: BindingFlags.Instance | BindingFlags.Public | BindingFlags.DeclaredOnly,
  });
  const joins = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
    typeId: string,
    name: 'Join',
    flags: BindingFlags.Static | BindingFlags.Public | BindingFlags.DeclaredOnly,
  });
  for (const id of joins) {
    const p = await conn.send('METHOD.GET_PARAM_INFO', { methodId: id });
    if (p.paramCount !== 2 || p.genericParamCount !== 0) continue;
    const names = await Promise.all(
      p.paramTypeIds.map(async (t) => (await conn.send('TYPE.GET_INFO', { typeId: t })).fullName),
    );
    if (names[0] === 'System.String' && names[1] === 'System.Object[]' && getTypes)
      return { getTypes, join: id };
  }
  throw new Error('Assembly.GetTypes() or String.Join(string, object[]) not found');
}

/**
 * The lister of one connection: reflection full names of an assembly's types, read by invoking
 * in the game (VM suspended). The two methods it calls are found once, on first use; the
 * connection's owner (GameConnection) keeps the lister as long as the connection.
 */
export function typeNamesByInvoke(
  conn: SdbConnection,
): (invoker: MainThreadInvoker, assemblyId: number) => Promise<string[]> {
  let methods: Promise<Methods> | undefined;
  return (invoker, assemblyId) => {
    methods ??= findMethods(conn);
    return listTypeNames(conn, invoker, assemblyId, methods);
  };
}

async function listTypeNames(
  conn: SdbConnection,
  invoker: MainThreadInvoker,
  assemblyId: number,
  methods: Promise<Methods>,
): Promise<string[]> {
  const { getTypes, join } = await methods;
  const assembly = await conn.send('ASSEMBLY.GET_OBJECT', { assemblyId });
  const types = await invoker.invoke(getTypes, Values.object(assembly), [], { virtual: true });
  const separator = await conn.send('APPDOMAIN.CREATE_STRING', {
    domainId: await conn.send('APPDOMAIN.GET_ROOT_DOMAIN'),
    text: '\n',
  });
  const joined = await invoker.invoke(join, Values.null(), [
    Values.string(separator),
    types.result,
  ]);
  if (joined.result.kind !== 'string') return [];
  const { text } = await readString(conn, joined.result.objectId);
  // Type.ToString() writes a generic definition as List`1[T]: keep the definition's name
  return text
    .split('\n')
    .filter(Boolean)
    .map((n) => (/`\d+\[[^\]]*\]$/.test(n) ? n.replace(/\[[^\]]*\]$/, '') : n));
}
