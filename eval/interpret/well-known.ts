// The types C# names with keywords, and the few others the language itself refers to, resolved
// once per runtime.

import type { MetadataProvider, TypeDescriptor, TypeHandle } from '../runtime.js';
import type { NumericKind } from '../values.js';

export const KEYWORD_TYPES = {
  bool: 'System.Boolean',
  char: 'System.Char',
  sbyte: 'System.SByte',
  byte: 'System.Byte',
  short: 'System.Int16',
  ushort: 'System.UInt16',
  int: 'System.Int32',
  uint: 'System.UInt32',
  long: 'System.Int64',
  ulong: 'System.UInt64',
  float: 'System.Single',
  double: 'System.Double',
  decimal: 'System.Decimal',
  string: 'System.String',
  object: 'System.Object',
  void: 'System.Void',
} as const;

export type KeywordType = keyof typeof KEYWORD_TYPES;

const NUMERIC_BY_NAME = new Map<string, NumericKind | 'decimal'>(
  (Object.keys(KEYWORD_TYPES) as KeywordType[])
    .filter((k) => !['bool', 'string', 'object', 'void'].includes(k))
    .map((k) => [KEYWORD_TYPES[k], k as NumericKind | 'decimal']),
);

/** The numeric kind of a type, if it is one of C#'s numeric types (char included). */
export function numericKindOf(d: TypeDescriptor): NumericKind | 'decimal' | undefined {
  return NUMERIC_BY_NAME.get(d.fullName);
}

export class WellKnown {
  private readonly cache = new Map<string, Promise<TypeHandle>>();
  /** What `cache` has resolved, for the per-element paths that need no promise. */
  private readonly resolved = new Map<string, TypeHandle>();

  constructor(private readonly metadata: MetadataProvider) {}

  /** A type the language needs; its absence is a broken runtime, not a user error. */
  named(fullName: string): Promise<TypeHandle> {
    let p = this.cache.get(fullName);
    if (!p) {
      p = this.metadata.findType(fullName).then((t) => {
        if (!t) throw new Error(`the game has no ${fullName}`);
        this.resolved.set(fullName, t);
        return t;
      });
      this.cache.set(fullName, p);
    }
    return p;
  }

  keyword(k: KeywordType): Promise<TypeHandle> {
    return this.named(KEYWORD_TYPES[k]);
  }

  /** A keyword's type once `keyword` has found it, else undefined (then await `keyword`). */
  knownKeyword(k: KeywordType): TypeHandle | undefined {
    return this.resolved.get(KEYWORD_TYPES[k]);
  }

  numeric(kind: NumericKind | 'decimal'): Promise<TypeHandle> {
    return this.named(KEYWORD_TYPES[kind]);
  }
}
