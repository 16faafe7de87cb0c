// ASSEMBLY (21), MODULE (24): sdb-protocol.md §3.10, §3.13.

import { defineCommand } from '../command.js';
import { SdbUnsafeRequestError } from '../errors.js';

const byAssembly = (
  w: { id(kind: 'assembly', id: number): unknown },
  p: { assemblyId: number },
): void => void w.id('assembly', p.assemblyId);

export interface ModuleInfo {
  name: string;
  scopeName: string;
  fullyQualifiedName: string;
  guid: string;
  assemblyId: number;
  /** since 2.48; "" when none */
  sourceLink: string;
}

export const assemblyCommands = {
  'ASSEMBLY.GET_LOCATION': defineCommand<{ assemblyId: number }, string>({
    set: 'ASSEMBLY',
    command: 1,
    encode: byAssembly,
    decode: (r) => r.string(),
  }),
  /** 0 if none. */
  'ASSEMBLY.GET_ENTRY_POINT': defineCommand<{ assemblyId: number }, number>({
    set: 'ASSEMBLY',
    command: 2,
    encode: byAssembly,
    decode: (r) => r.methodId(),
  }),
  'ASSEMBLY.GET_MANIFEST_MODULE': defineCommand<{ assemblyId: number }, number>({
    set: 'ASSEMBLY',
    command: 3,
    encode: byAssembly,
    decode: (r) => r.id('module'),
  }),
  'ASSEMBLY.GET_OBJECT': defineCommand<{ assemblyId: number }, number>({
    set: 'ASSEMBLY',
    command: 4,
    encode: byAssembly,
    decode: (r) => r.objectId(),
  }),
  /** 0 when not found. Names without assembly qualification only. */
  'ASSEMBLY.GET_TYPE': defineCommand<
    { assemblyId: number; name: string; ignoreCase: boolean },
    number
  >({
    set: 'ASSEMBLY',
    command: 5,
    guard: (p) => {
      if (p.name.includes(',')) {
        throw new SdbUnsafeRequestError(
          `ASSEMBLY.GET_TYPE("${p.name}") refused: an assembly-qualified name aborts Mono 6.8`,
        );
      }
    },
    encode: (w, p) => void w.id('assembly', p.assemblyId).string(p.name).bool(p.ignoreCase),
    decode: (r) => r.typeId(),
  }),
  'ASSEMBLY.GET_NAME': defineCommand<{ assemblyId: number }, string>({
    set: 'ASSEMBLY',
    command: 6,
    encode: byAssembly,
    decode: (r) => r.string(),
  }),
  'ASSEMBLY.GET_DOMAIN': defineCommand<{ assemblyId: number }, number>({
    set: 'ASSEMBLY',
    command: 7,
    since: 45,
    encode: byAssembly,
    decode: (r) => r.id('domain'),
  }),
  /** The whole PE image. */
  'ASSEMBLY.GET_METADATA_BLOB': defineCommand<{ assemblyId: number }, Buffer>({
    set: 'ASSEMBLY',
    command: 8,
    since: 47,
    encode: byAssembly,
    decode: (r) => Buffer.from(r.bytes(r.count('blob length'))),
  }),
  'ASSEMBLY.GET_IS_DYNAMIC': defineCommand<{ assemblyId: number }, boolean>({
    set: 'ASSEMBLY',
    command: 9,
    since: 47,
    encode: byAssembly,
    decode: (r) => r.bool(),
  }),
  'ASSEMBLY.GET_PDB_BLOB': defineCommand<{ assemblyId: number }, Buffer>({
    set: 'ASSEMBLY',
    command: 10,
    since: 47,
    encode: byAssembly,
    decode: (r) => Buffer.from(r.bytes(r.count('blob length'))),
  }),
  'ASSEMBLY.GET_TYPE_FROM_TOKEN': defineCommand<{ assemblyId: number; token: number }, number>({
    set: 'ASSEMBLY',
    command: 11,
    since: 47,
    encode: (w, p) => void w.id('assembly', p.assemblyId).i32(p.token),
    decode: (r) => r.typeId(),
  }),
  'ASSEMBLY.GET_METHOD_FROM_TOKEN': defineCommand<{ assemblyId: number; token: number }, number>({
    set: 'ASSEMBLY',
    command: 12,
    since: 47,
    encode: (w, p) => void w.id('assembly', p.assemblyId).i32(p.token),
    decode: (r) => r.methodId(),
  }),
  'ASSEMBLY.HAS_DEBUG_INFO': defineCommand<{ assemblyId: number }, boolean>({
    set: 'ASSEMBLY',
    command: 13,
    since: 51,
    encode: byAssembly,
    decode: (r) => r.bool(),
  }),
} as const;

export const moduleCommands = {
  'MODULE.GET_INFO': defineCommand<{ moduleId: number }, ModuleInfo>({
    set: 'MODULE',
    command: 1,
    encode: (w, p) => void w.id('module', p.moduleId),
    decode: (r, v) => ({
      name: r.string(),
      scopeName: r.string(),
      fullyQualifiedName: r.string(),
      guid: r.string(),
      assemblyId: r.id('assembly'),
      sourceLink: v.atLeast(48) ? r.string() : '',
    }),
  }),
} as const;
