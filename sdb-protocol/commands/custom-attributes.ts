// The custom-attribute list shared by METHOD, TYPE and ASSEMBLY commands (sdb-protocol.md §3.16).

import type { PacketReader } from '../buffer-reader.js';
import { SdbProtocolError } from '../errors.js';
import { readValue, type Value } from '../values.js';
import type { ProtocolVersion } from '../version.js';
import { NamedArgumentKind } from '../vocabulary.js';

export interface CustomAttribute {
  /** The attribute constructor's method id. */
  ctorId: number;
  ctorArgs: Value[];
  named: { kind: 'field' | 'property'; id: number; value: Value }[];
}

export function readCustomAttributes(r: PacketReader, v: ProtocolVersion): CustomAttribute[] {
  const n = r.count('attribute count');
  const out: CustomAttribute[] = [];
  for (let i = 0; i < n; i++) {
    const ctorId = r.methodId();
    const argc = r.count('attribute argument count');
    const ctorArgs: Value[] = [];
    for (let j = 0; j < argc; j++) ctorArgs.push(readValue(r, v));
    const namedCount = r.count('named argument count');
    const named: CustomAttribute['named'] = [];
    for (let j = 0; j < namedCount; j++) {
      const kind = r.u8();
      if (kind !== NamedArgumentKind.FIELD && kind !== NamedArgumentKind.PROPERTY) {
        throw new SdbProtocolError(`unknown named-argument kind 0x${kind.toString(16)}`);
      }
      const isField = kind === NamedArgumentKind.FIELD;
      const id = isField ? r.fieldId() : r.id('property');
      named.push({ kind: isField ? 'field' : 'property', id, value: readValue(r, v) });
    }
    out.push({ ctorId, ctorArgs, named });
  }
  return out;
}
