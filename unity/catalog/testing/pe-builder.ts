// Builds small but well-formed .NET PE images for tests: a Module row, TypeRefs, TypeDefs and
// NestedClass rows, methods with their Param, Constant and CustomAttribute rows, MemberRefs and
// TypeSpecs, with index widths chosen by the ECMA-335 rules independently of the reader (so the
// two can disagree, and a test notices). Not a general writer: no fields, properties or other
// tables. The tables themselves are written by table-builder.ts.

import { Out } from './byte-out.js';
import { buildTables } from './table-builder.js';

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
  /** Its methods, in MethodDef row order (rows follow the types' order). */
  methods?: SynthMethod[];
}

/** An attribute constructor: a MemberRef row or a MethodDef row (1-based). */
export type SynthCtor = { memberRef: number } | { methodDef: number };

export interface SynthParam {
  name: string;
  /** 1-based position; 0 is the return value. */
  sequence: number;
  flags?: number;
  /** A Constant row: its element type and raw value bytes. */
  constant?: { type: number; value: ArrayLike<number> };
  /** CustomAttribute rows on this parameter (empty value blobs). */
  attributes?: SynthCtor[];
}

export interface SynthMethod {
  name: string;
  flags?: number;
  implFlags?: number;
  /** The signature blob's bytes (testing/sig-builder.ts writes them). */
  signature: ArrayLike<number>;
  params?: SynthParam[];
  /** Replaces the ParamList value the builder computes (to build malformed lists). */
  paramList?: number;
}

export interface SynthMemberRef {
  /** 1-based TypeRef or TypeDef row (row 1 is <Module>) of the declaring type. */
  parent: { typeRef: number } | { typeDef: number };
  name: string;
  signature: ArrayLike<number>;
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
  /** Force 4-byte #Blob indexes even for a small heap. */
  wideBlobs?: boolean;
  memberRefs?: SynthMemberRef[];
  /** TypeSpec blobs, one per row. */
  typeSpecs?: ArrayLike<number>[];
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
  const { tables, strings, blobs } = buildTables(spec);
  const guid = new Out().raw(spec.mvid ?? new Uint8Array(16).fill(0xab));
  const streams: [string, Out][] = [
    [spec.tablesStream ?? '#~', tables],
    ['#Strings', strings],
    ['#GUID', guid],
    ['#Blob', blobs],
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
