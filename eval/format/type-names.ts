// Types as C# writes them (`int`, `string[]`, `int?`, `System.Collections.Generic.List<int>`,
// `Outer.Inner`), from the runtime's descriptors or from a reflection name. The oracle's
// Fmt.TypeName applies the same rules.

import type { MetadataProvider, TypeHandle } from '../runtime.js';

export const KEYWORDS: Readonly<Record<string, string>> = {
  'System.Int32': 'int',
  'System.UInt32': 'uint',
  'System.Int64': 'long',
  'System.UInt64': 'ulong',
  'System.Int16': 'short',
  'System.UInt16': 'ushort',
  'System.Byte': 'byte',
  'System.SByte': 'sbyte',
  'System.Char': 'char',
  'System.Boolean': 'bool',
  'System.Single': 'float',
  'System.Double': 'double',
  'System.Decimal': 'decimal',
  'System.String': 'string',
  'System.Object': 'object',
};

/** The C# name of a runtime type. */
export async function csharpName(metadata: MetadataProvider, type: TypeHandle): Promise<string> {
  const d = await metadata.describe(type);
  const keyword = KEYWORDS[d.fullName];
  if (keyword) return keyword;
  if (d.kind === 'array' && d.elementType) {
    return `${await csharpName(metadata, d.elementType)}[${','.repeat(Math.max(0, d.rank - 1))}]`;
  }
  if (d.genericDefinition) {
    const def = await metadata.describe(d.genericDefinition);
    const args = await Promise.all(d.typeArguments.map((a) => csharpName(metadata, a)));
    if (def.fullName === 'System.Nullable`1' && args.length === 1) return `${args[0]}?`;
    return withArguments(def.fullName, args);
  }
  return plain(d.fullName);
}

/**
 * A generic definition's name with its arguments where C# writes them: each nesting level takes
 * as many as its own arity (`List\`1+Enumerator` over `int` is `List<int>.Enumerator`).
 */
export function withArguments(reflectionName: string, args: readonly string[]): string {
  let next = 0;
  const levels = reflectionName.split('+').map((level) => {
    const m = /^(.*)`(\d+)$/.exec(level);
    if (!m) return level;
    const taken = args.slice(next, next + Number(m[2]));
    next += taken.length;
    return `${m[1]}<${taken.join(', ')}>`;
  });
  // arguments no level declared (a malformed name): keep them on the last level, as before
  if (next < args.length) levels[levels.length - 1] += `<${args.slice(next).join(', ')}>`;
  return levels.join('.');
}

/** `Ns.Outer+Inner\`1` → `Ns.Outer.Inner` (arity dropped, nesting with dots). */
function plain(reflectionName: string): string {
  return reflectionName.replace(/`\d+/g, '').replace(/\+/g, '.');
}

/**
 * The C# name of a type known only by its reflection name as `Type.ToString()` gives it:
 * `System.Int32[]`, `System.Collections.Generic.List\`1[System.Int32]`, `Ns.Outer+Inner`.
 */
export function csharpNameOfReflection(name: string): string {
  const p = parse(name, 0);
  return p.text;
}

function parse(s: string, at: number): { text: string; end: number } {
  let i = at;
  while (i < s.length && !'[],'.includes(s[i]!)) i++;
  let base = s.slice(at, i).trim();
  let text = KEYWORDS[base] ?? plain(base);
  while (i < s.length && s[i] === '[') {
    // `[]`, `[,]` rank specifiers, or `[args]` of a generic
    let j = i + 1;
    while (s[j] === ',') j++;
    if (s[j] === ']') {
      text += s.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const args: string[] = [];
    i++;
    for (;;) {
      const a = parse(s, i);
      args.push(a.text);
      i = a.end;
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] === ']') i++;
      break;
    }
    if (base === 'System.Nullable`1' && args.length === 1) text = `${args[0]}?`;
    else text = `${plain(base)}<${args.join(', ')}>`;
    base = '';
  }
  return { text, end: i };
}
