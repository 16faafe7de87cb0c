// Names for signature types (ECMA-335 II.23.2.12), resolving TypeDef, TypeRef and TypeSpec
// tokens through the image: for tests, messages, and telling Nullable<T> from other structs.

import type { MetadataImage } from './metadata-reader.js';
import { Table } from './metadata-schema.js';
import { MetadataFormatError } from './pe-image.js';
import { decodeTypeSpec, ElementType, PRIMITIVE_NAMES, type SigType } from './signature-blob.js';

/** Deeper than any real signature; TypeSpecs naming TypeSpecs must not recurse without end. */
const MAX_DEPTH = 64;

export class SignatureNames {
  constructor(private readonly image: MetadataImage) {}

  /** A readable name (`System.Int32&`, ``System.Collections.Generic.List`1[!!0]``, `!0[,]`). */
  typeName(t: SigType, depth = 0): string {
    if (depth > MAX_DEPTH) throw new MetadataFormatError('type names nested too deeply');
    const inner = (x: SigType): string => this.typeName(x, depth + 1);
    switch (t.kind) {
      case 'primitive':
        return PRIMITIVE_NAMES[t.element] ?? `0x${t.element.toString(16)}`;
      case 'class':
      case 'valuetype':
        return this.tokenName(t.token, depth);
      case 'var':
        return `!${t.index}`;
      case 'mvar':
        return `!!${t.index}`;
      case 'szarray':
        return `${inner(t.element)}[]`;
      case 'array':
        return `${inner(t.element)}[${t.rank === 1 ? '*' : ','.repeat(t.rank - 1)}]`;
      case 'ptr':
        return `${inner(t.element)}*`;
      case 'byref':
        return `${inner(t.element)}&`;
      case 'genericinst':
        return `${inner(t.generic)}[${t.args.map(inner).join(',')}]`;
      case 'fnptr':
        return 'method*';
    }
  }

  /** Whether null is a value of this type: a reference type, a pointer, or Nullable<T>. */
  admitsNull(t: SigType): boolean {
    switch (t.kind) {
      case 'primitive':
        return t.element === ElementType.STRING || t.element === ElementType.OBJECT;
      case 'valuetype':
      case 'var':
      case 'mvar':
        return false;
      case 'genericinst':
        return t.generic.kind === 'class' || this.typeName(t.generic) === 'System.Nullable`1';
      case 'byref':
        return this.admitsNull(t.element);
      case 'class':
      case 'szarray':
      case 'array':
      case 'ptr':
      case 'fnptr':
        return true;
    }
  }

  private tokenName(token: number, depth: number): string {
    const row = token & 0xffffff;
    switch (token >>> 24) {
      case Table.TypeDef: {
        const def = this.image.typeDefs()[row - 1];
        if (!def) throw new MetadataFormatError(`signature names TypeDef row ${row}`);
        return def.fullName;
      }
      case Table.TypeRef:
        return this.image.typeRefName(row);
      default: {
        const spec = this.image.tables.need(Table.TypeSpec, row, 'signature');
        const blob = this.image.blobs.at(spec.index(0), `TypeSpec ${row}`);
        return this.typeName(decodeTypeSpec(blob, `TypeSpec ${row}`), depth + 1);
      }
    }
  }
}
