// Builds small but well-formed .NET PE images for tests: a Module row, TypeRefs, TypeDefs and
// NestedClass rows, with index widths chosen by the ECMA-335 rules independently of the reader
// (so the two can disagree, and a test notices). Not a general writer: no methods, fields or
// other tables.

export interface SynthTypeRef {
  namespace: string;
  name: string;
  /** 1-based TypeRef row this reference is nested in (a nested type reference). */
  nestedIn?: number;
}

export interface SynthTypeDef {
  namespace: string;
  name: string;
  flags?: number;
  /** 1-based TypeRef row of the base type. */
  extendsRef?: number;
  /** 1-based TypeDef row of the base type (row 1 is the first of `types`, not <Module>). */
  extendsDef?: number;
  /** 1-based index into `types` of the enclosing type. */
  nestedIn?: number;
}

export interface SynthImage {
  types: SynthTypeDef[];
  typeRefs?: SynthTypeRef[];
  /** Raw NestedClass rows [nested, enclosing] (TypeDef rows, <Module> is row 1), replacing
   * those derived from `nestedIn`. */
  nestedRows?: [number, number][];
  mvid?: Uint8Array;
  pe32Plus?: boolean;
  tablesStream?: '#~' | '#-';
  /** Force 4-byte #Strings indexes even for a small heap. */
  wideStrings?: boolean;
}

class Out {
  bytes: number[] = [];
  u8(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >>> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  idx(v: number, wide: boolean): this {
    return wide ? this.u32(v) : this.u16(v);
  }
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i]!);
    return this;
  }
  align(n: number): this {
    while (this.bytes.length % n) this.bytes.push(0);
    return this;
  }
  get length(): number {
    return this.bytes.length;
  }
}

const TEXT_RVA = 0x2000;
const TEXT_RAW = 0x200;

export function buildImage(spec: SynthImage): Uint8Array {
  const metadata = buildMetadata(spec);
  const cli = new Out()
    .u32(72)
    .u16(2)
    .u16(5)
    .u32(TEXT_RVA + 72)
    .u32(metadata.length)
    .u32(1) // ILONLY
    .u32(0);
  while (cli.length < 72) cli.u8(0);
  const section = new Out().raw(cli.bytes).raw(metadata).align(0x200);

  const pe = new Out();
  pe.u16(0x5a4d);
  while (pe.length < 0x3c) pe.u8(0);
  pe.u32(0x80);
  while (pe.length < 0x80) pe.u8(0);
  const optionalSize = spec.pe32Plus ? 240 : 224;
  pe.u32(0x00004550)
    .u16(spec.pe32Plus ? 0x8664 : 0x14c)
    .u16(1)
    .u32(0)
    .u32(0)
    .u32(0);
  pe.u16(optionalSize).u16(0x2102);
  const optStart = pe.length;
  pe.u16(spec.pe32Plus ? 0x20b : 0x10b);
  while (pe.length < optStart + (spec.pe32Plus ? 108 : 92)) pe.u8(0);
  pe.u32(16); // NumberOfRvaAndSizes
  for (let d = 0; d < 16; d++) {
    if (d === 14) pe.u32(TEXT_RVA).u32(72);
    else pe.u32(0).u32(0);
  }
  if (pe.length !== optStart + optionalSize) throw new Error('optional header size mismatch');
  pe.raw([0x2e, 0x74, 0x65, 0x78, 0x74, 0, 0, 0]); // .text
  pe.u32(section.length).u32(TEXT_RVA).u32(section.length).u32(TEXT_RAW);
  pe.u32(0).u32(0).u16(0).u16(0).u32(0x60000020);
  while (pe.length < TEXT_RAW) pe.u8(0);
  pe.raw(section.bytes);
  return Uint8Array.from(pe.bytes);
}

function buildMetadata(spec: SynthImage): number[] {
  const strings = new Out().u8(0);
  const stringIndex = new Map<string, number>();
  const str = (s: string): number => {
    if (!s) return 0;
    let at = stringIndex.get(s);
    if (at === undefined) {
      at = strings.length;
      stringIndex.set(s, at);
      strings.raw(new TextEncoder().encode(s)).u8(0);
    }
    return at;
  };
  const refs = spec.typeRefs ?? [];
  const refNames = refs.map((r) => [str(r.namespace), str(r.name)] as const);
  const defNames = spec.types.map((t) => [str(t.namespace), str(t.name)] as const);
  const moduleName = str('synthetic.dll');
  const moduleType = str('<Module>');
  strings.align(4);
  const wideStrings = spec.wideStrings === true || strings.length >= 0x10000;

  const typeDefRows = spec.types.length + 1;
  const nested =
    spec.nestedRows ??
    spec.types.flatMap((t, i): [number, number][] => (t.nestedIn ? [[i + 2, t.nestedIn + 1]] : []));
  const wideTypeDef = typeDefRows >= 0x10000;
  // TypeDefOrRef has 2 tag bits, ResolutionScope 2
  const wideTypeDefOrRef = Math.max(typeDefRows, refs.length) >= 1 << 14;
  const wideScope = refs.length >= 1 << 14;

  const tables = new Out();
  tables
    .u32(0)
    .u8(2)
    .u8(0)
    .u8(wideStrings ? 1 : 0)
    .u8(1);
  const present = [0x00, 0x02, ...(refs.length ? [0x01] : []), ...(nested.length ? [0x29] : [])];
  let low = 0;
  let high = 0;
  for (const t of present) {
    if (t < 32) low |= 1 << t;
    else high |= 1 << (t - 32);
  }
  tables
    .u32(low >>> 0)
    .u32(high >>> 0)
    .u32(0)
    .u32(0);
  tables.u32(1); // Module
  if (refs.length) tables.u32(refs.length);
  tables.u32(typeDefRows);
  if (nested.length) tables.u32(nested.length);
  // Module
  tables.u16(0).idx(moduleName, wideStrings).u16(1).u16(0).u16(0);
  // TypeRef: ResolutionScope tag 2 = AssemblyRef row 1, tag 3 = TypeRef
  refs.forEach((r, i) => {
    const scope = r.nestedIn ? (r.nestedIn << 2) | 3 : (1 << 2) | 2;
    tables
      .idx(scope, wideScope)
      .idx(refNames[i]![1], wideStrings)
      .idx(refNames[i]![0], wideStrings);
  });
  // TypeDef: <Module> first
  const typeDef = (flags: number, name: number, ns: number, ext: number): void => {
    tables.u32(flags).idx(name, wideStrings).idx(ns, wideStrings);
    tables.idx(ext, wideTypeDefOrRef).u16(1).u16(1);
  };
  typeDef(0, moduleType, 0, 0);
  spec.types.forEach((t, i) => {
    const ext = t.extendsRef
      ? (t.extendsRef << 2) | 1
      : t.extendsDef
        ? ((t.extendsDef + 1) << 2) | 0
        : 0;
    typeDef(t.flags ?? 0x100001, defNames[i]![1], defNames[i]![0], ext);
  });
  for (const [n, e] of nested) tables.idx(n, wideTypeDef).idx(e, wideTypeDef);
  tables.align(4);

  const guid = new Out().raw(spec.mvid ?? new Uint8Array(16).fill(0xab));
  const blob = new Out().u32(0);
  const streams: [string, Out][] = [
    [spec.tablesStream ?? '#~', tables],
    ['#Strings', strings],
    ['#GUID', guid],
    ['#Blob', blob],
  ];

  const version = 'v4.0.30319';
  const root = new Out().u32(0x424a5342).u16(1).u16(1).u32(0).u32(12);
  root.raw(new TextEncoder().encode(version)).u8(0).align(4);
  root.u16(0).u16(streams.length);
  const headerSize = streams.reduce((n, [name]) => n + 8 + ((name.length + 4) & ~3), 0);
  let offset = root.length + headerSize;
  for (const [name, data] of streams) {
    root.u32(offset).u32(data.length).raw(new TextEncoder().encode(name)).u8(0).align(4);
    offset += data.length;
  }
  for (const [, data] of streams) root.raw(data.bytes);
  return root.bytes;
}
