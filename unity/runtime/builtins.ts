// The names a program can use without declaring them: `_` (the previous program's value on
// this connection), and for games with Entities `world`, `em` and `entity(index[, version])`.
// Each reads the game only when a program uses it.

import {
  ManagedException,
  NULL,
  type Builtin,
  type BuiltinFunction,
  type EvalValue,
  type MethodDescriptor,
  type Runtime,
  type TypeHandle,
} from '../../eval/index.js';

export interface LastValue {
  readonly type: TypeHandle;
  readonly value: EvalValue;
}

/** How many versions `entity(index)` tries (a reused index has a higher one). */
const VERSIONS_TRIED = 16;

const plain = { virtual: false, outThis: false, outArgs: false };

function nullReference(what: string): ManagedException {
  const e = new ManagedException(
    'System.NullReferenceException',
    'Object reference not set to an instance of an object',
  );
  e.hint = what;
  return e;
}

export async function unityBuiltins(
  rt: Runtime,
  last: LastValue | undefined,
): Promise<{ builtins: Map<string, Builtin>; functions: Map<string, BuiltinFunction> }> {
  const builtins = new Map<string, Builtin>();
  const functions = new Map<string, BuiltinFunction>();
  if (last) builtins.set('_', { type: last.type, value: () => Promise.resolve(last.value) });

  const worldType = await rt.metadata.findType('Unity.Entities.World');
  const getter = async (type: TypeHandle, name: string) => {
    const p = (await rt.metadata.members(type, name)).properties[0];
    return p?.getter ? { type: p.type, getter: p.getter } : undefined;
  };
  const world = worldType && (await getter(worldType, 'DefaultGameObjectInjectionWorld'));
  if (!worldType || !world) return { builtins, functions };
  const readWorld = async () => (await rt.game.invoke(world.getter, undefined, [], plain)).result;
  builtins.set('world', { type: world.type, value: readWorld });
  const em = await getter(worldType, 'EntityManager');
  if (!em) return { builtins, functions };
  const readEm = async () => {
    const w = await readWorld();
    if (w.kind === 'null')
      throw nullReference("'world' is null: the game has no default world yet");
    return (await rt.game.invoke(em.getter, w, [], plain)).result;
  };
  builtins.set('em', { type: em.type, value: readEm });

  const entityType = await rt.metadata.findType('Unity.Entities.Entity');
  const intType = await rt.metadata.findType('System.Int32');
  if (!entityType || !intType) return { builtins, functions };
  const fields = (await rt.metadata.allFields(entityType)).filter((f) => !f.isStatic);
  const entity = (index: EvalValue, version: EvalValue): EvalValue => ({
    kind: 'struct',
    type: entityType,
    fields: fields.map((f) => (f.name === 'Index' ? index : f.name === 'Version' ? version : NULL)),
  });
  const exists = (await rt.metadata.members(em.type, 'Exists')).methods.find(
    (m: MethodDescriptor) =>
      m.parameters.length === 1 && m.parameters[0]!.type.key === entityType.key,
  );
  functions.set('entity', {
    returnType: entityType,
    signatures: [[intType], [intType, intType]],
    async call(args) {
      const [index, version] = args;
      if (version) return entity(index!, version);
      // the live entity at this index: the first version EntityManager.Exists accepts
      if (!exists)
        throw new ManagedException(
          'System.NotSupportedException',
          'entity(index) needs EntityManager.Exists: pass the version, entity(index, version)',
        );
      const manager = await readEm();
      for (let v = 1; v <= VERSIONS_TRIED; v++) {
        const candidate = entity(index!, { kind: 'number', type: 'int', value: v });
        const r = await rt.game.invoke(exists, manager, [candidate], plain);
        if (r.result.kind === 'bool' && r.result.value) return candidate;
      }
      const i = index?.kind === 'number' ? String(index.value) : '?';
      throw new ManagedException(
        'System.ArgumentException',
        `no live entity has index ${i} (versions 1 to ${VERSIONS_TRIED} tried); if it was recreated many times, pass its version: entity(${i}, version)`,
      );
    },
  });
  return { builtins, functions };
}
