// The `#~` stream and heaps of a test image (ECMA-335 II.24.2): Module, TypeRef, TypeDef,
// MethodDef, Param, MemberRef, Constant, CustomAttribute, TypeSpec and NestedClass rows. Index
// widths follow the II.24.2.6 rules, computed here independently of the reader's schema.

import { compressed, Out } from './byte-out.js';
import type { SynthCtor, SynthImage, SynthParam } from './pe-builder.js';

const T = {
  Module: 0x00,
  TypeRef: 0x01,
  TypeDef: 0x02,
  MethodDef: 0x06,
  Param: 0x08,
  MemberRef: 0x0a,
  Constant: 0x0b,
  CustomAttribute: 0x0c,
  TypeSpec: 0x1b,
  NestedClass: 0x29,
} as const;

/** A coded index is wide when its largest target table needs more than 16 - tag bits. */
const wideCoded = (tagBits: number, ...rows: number[]): boolean =>
  Math.max(...rows) >= 1 << (16 - tagBits);

export function buildTables(spec: SynthImage): { tables: Out; strings: Out; blobs: Out } {
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
  const blobs = new Out().u8(0);
  const blob = (bytes: ArrayLike<number>): number => {
    if (bytes.length === 0) return 0;
    const at = blobs.length;
    blobs.raw(compressed(bytes.length)).raw(bytes);
    return at;
  };

  const refs = spec.typeRefs ?? [];
  const memberRefs = spec.memberRefs ?? [];
  const typeSpecs = spec.typeSpecs ?? [];
  const methods = spec.types.flatMap((t) => t.methods ?? []);
  const params: SynthParam[] = methods.flatMap((m) => m.params ?? []);
  const paramRows = new Map(params.map((p, i) => [p, i + 1]));
  const constants = params.filter((p) => p.constant);
  const attributes = params.flatMap((p) =>
    (p.attributes ?? []).map((ctor): [SynthParam, SynthCtor] => [p, ctor]),
  );

  // every string and blob first: their heaps' sizes decide the index widths
  const refNames = refs.map((r) => [str(r.namespace), str(r.name)] as const);
  const defNames = spec.types.map((t) => [str(t.namespace), str(t.name)] as const);
  const moduleName = str('synthetic.dll');
  const moduleType = str('<Module>');
  const methodCols = methods.map((m) => [str(m.name), blob(m.signature)] as const);
  const paramNames = params.map((p) => str(p.name));
  const memberRefCols = memberRefs.map((r) => [str(r.name), blob(r.signature)] as const);
  const specBlobs = typeSpecs.map((b) => blob(b));
  const constantBlobs = constants.map((p) => blob(p.constant!.value));
  strings.align(4);
  blobs.align(4);
  const wideStrings = spec.wideStrings === true || strings.length >= 0x10000;
  const wideBlobs = spec.wideBlobs === true || blobs.length >= 0x10000;

  const typeDefRows = spec.types.length + 1;
  const nested =
    spec.nestedRows ??
    spec.types.flatMap((t, i): [number, number][] => (t.nestedIn ? [[i + 2, t.nestedIn + 1]] : []));
  const wide = {
    typeDef: typeDefRows >= 0x10000,
    methodDef: methods.length >= 0x10000,
    param: params.length >= 0x10000,
    typeDefOrRef: wideCoded(2, typeDefRows, refs.length, typeSpecs.length),
    scope: wideCoded(2, 1, refs.length),
    hasConstant: wideCoded(2, params.length),
    hasAttribute: wideCoded(
      5,
      methods.length,
      refs.length,
      typeDefRows,
      params.length,
      memberRefs.length,
      typeSpecs.length,
    ),
    attributeType: wideCoded(3, methods.length, memberRefs.length),
    memberRefParent: wideCoded(3, typeDefRows, refs.length, methods.length, typeSpecs.length),
  };

  const counts: [number, number][] = [
    [T.Module, 1],
    [T.TypeRef, refs.length],
    [T.TypeDef, typeDefRows],
    [T.MethodDef, methods.length],
    [T.Param, params.length],
    [T.MemberRef, memberRefs.length],
    [T.Constant, constants.length],
    [T.CustomAttribute, attributes.length],
    [T.TypeSpec, typeSpecs.length],
    [T.NestedClass, nested.length],
  ];
  const present = counts.filter(([t, n]) => n > 0 || t === T.Module || t === T.TypeDef);
  let low = 0;
  let high = 0;
  for (const [t] of present) {
    if (t < 32) low |= 1 << t;
    else high |= 1 << (t - 32);
  }
  const heapSizes = (wideStrings ? 1 : 0) | (wideBlobs ? 4 : 0);
  const tables = new Out().u32(0).u8(2).u8(0).u8(heapSizes).u8(1);
  tables
    .u32(low >>> 0)
    .u32(high >>> 0)
    .u32(0)
    .u32(0);
  for (const [, n] of present) tables.u32(n);

  const s = (v: number): Out => tables.idx(v, wideStrings);
  const b = (v: number): Out => tables.idx(v, wideBlobs);
  // Module
  tables.u16(0);
  s(moduleName).u16(1).u16(0).u16(0);
  // TypeRef: ResolutionScope tag 2 = AssemblyRef row 1, tag 3 = TypeRef
  refs.forEach((r, i) => {
    tables.idx(r.nestedIn ? (r.nestedIn << 2) | 3 : (1 << 2) | 2, wide.scope);
    s(refNames[i]![1]);
    s(refNames[i]![0]);
  });
  // TypeDef: <Module> first; MethodList is the first of the type's run of MethodDef rows
  let methodRow = 1;
  const typeDef = (flags: number, name: number, ns: number, ext: number, count: number): void => {
    tables.u32(flags);
    s(name);
    s(ns);
    tables.idx(ext, wide.typeDefOrRef).u16(1).idx(methodRow, wide.methodDef);
    methodRow += count;
  };
  typeDef(0, moduleType, 0, 0, 0);
  spec.types.forEach((t, i) => {
    const ext = t.extendsRef
      ? (t.extendsRef << 2) | 1
      : t.extendsDef
        ? ((t.extendsDef + 1) << 2) | 0
        : 0;
    const [ns, name] = defNames[i]!;
    typeDef(t.flags ?? 0x100001, name, ns, ext, t.methods?.length ?? 0);
  });
  // MethodDef: RVA, ImplFlags, Flags, Name, Signature, ParamList
  let paramRow = 1;
  methods.forEach((m, i) => {
    tables
      .u32(0)
      .u16(m.implFlags ?? 0)
      .u16(m.flags ?? 0x96); // public static hidebysig
    s(methodCols[i]![0]);
    b(methodCols[i]![1]);
    tables.idx(m.paramList ?? paramRow, wide.param);
    paramRow += m.params?.length ?? 0;
  });
  // Param: Flags, Sequence, Name
  params.forEach((p, i) => {
    tables.u16(p.flags ?? 0).u16(p.sequence);
    s(paramNames[i]!);
  });
  // MemberRef: Class (MemberRefParent: TypeDef 0, TypeRef 1), Name, Signature
  memberRefs.forEach((r, i) => {
    const parent = 'typeRef' in r.parent ? (r.parent.typeRef << 3) | 1 : r.parent.typeDef << 3;
    tables.idx(parent, wide.memberRefParent);
    s(memberRefCols[i]![0]);
    b(memberRefCols[i]![1]);
  });
  // Constant: Type + padding byte, Parent (HasConstant: Param is tag 1), Value
  constants.forEach((p, i) => {
    tables.u8(p.constant!.type).u8(0);
    tables.idx((paramRows.get(p)! << 2) | 1, wide.hasConstant);
    b(constantBlobs[i]!);
  });
  // CustomAttribute: Parent (HasCustomAttribute: Param is tag 4), Type (MethodDef 2, MemberRef 3)
  for (const [p, ctor] of attributes) {
    tables.idx((paramRows.get(p)! << 5) | 4, wide.hasAttribute);
    const type = 'memberRef' in ctor ? (ctor.memberRef << 3) | 3 : (ctor.methodDef << 3) | 2;
    tables.idx(type, wide.attributeType);
    b(0);
  }
  for (const at of specBlobs) b(at);
  for (const [n, e] of nested) tables.idx(n, wide.typeDef).idx(e, wide.typeDef);
  tables.align(4);
  return { tables, strings, blobs };
}
