// APPDOMAIN (20): sdb-protocol.md §3.9.

import { defineCommand } from '../command.js';
import { SdbUnsafeRequestError } from '../errors.js';
import { writeValue, type Value } from '../values.js';

const byDomain = (w: { id(kind: 'domain', id: number): unknown }, p: { domainId: number }): void =>
  void w.id('domain', p.domainId);

export const appDomainCommands = {
  'APPDOMAIN.GET_ROOT_DOMAIN': defineCommand<void, number>({
    set: 'APPDOMAIN',
    command: 1,
    encode: () => undefined,
    decode: (r) => r.id('domain'),
  }),
  'APPDOMAIN.GET_FRIENDLY_NAME': defineCommand<{ domainId: number }, string>({
    set: 'APPDOMAIN',
    command: 2,
    encode: byDomain,
    decode: (r) => r.string(),
  }),
  'APPDOMAIN.GET_ASSEMBLIES': defineCommand<{ domainId: number }, number[]>({
    set: 'APPDOMAIN',
    command: 3,
    encode: byDomain,
    decode: (r) => r.ids('assembly', r.count('assembly count')),
  }),
  /** 0 if none. */
  'APPDOMAIN.GET_ENTRY_ASSEMBLY': defineCommand<{ domainId: number }, number>({
    set: 'APPDOMAIN',
    command: 4,
    encode: byDomain,
    decode: (r) => r.id('assembly'),
  }),
  'APPDOMAIN.CREATE_STRING': defineCommand<{ domainId: number; text: string }, number>({
    set: 'APPDOMAIN',
    command: 5,
    encode: (w, p) => void w.id('domain', p.domainId).string(p.text),
    decode: (r) => r.objectId(),
  }),
  'APPDOMAIN.GET_CORLIB': defineCommand<{ domainId: number }, number>({
    set: 'APPDOMAIN',
    command: 6,
    encode: byDomain,
    decode: (r) => r.id('assembly'),
  }),
  'APPDOMAIN.CREATE_BOXED_VALUE': defineCommand<
    { domainId: number; typeId: number; value: Value },
    number
  >({
    set: 'APPDOMAIN',
    command: 7,
    // Boxing "as" a reference or interface type crashes Mono 6.8.
    guard: async (p, ctx) => {
      if (!(await ctx.isValueType(p.typeId))) {
        throw new SdbUnsafeRequestError(
          `CREATE_BOXED_VALUE refused: type ${p.typeId} is not a value type`,
        );
      }
    },
    encode: (w, p, v) => {
      w.id('domain', p.domainId).typeId(p.typeId);
      writeValue(w, p.value, v);
    },
    decode: (r) => r.objectId(),
  }),
  'APPDOMAIN.CREATE_BYTE_ARRAY': defineCommand<{ domainId: number; bytes: Uint8Array }, number>({
    set: 'APPDOMAIN',
    command: 8,
    since: 52,
    encode: (w, p) => void w.id('domain', p.domainId).i32(p.bytes.length).bytes(p.bytes),
    decode: (r) => r.objectId(),
  }),
} as const;
