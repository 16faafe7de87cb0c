// The ECMA-335 table schema (Partition II §22), as far as the type catalogue needs it: every
// table up to GenericParamConstraint (0x2c) must be sized to find it, and sizing a row needs the
// column kinds, because heap and table indexes are 2 or 4 bytes depending on the image.

export const Table = {
  Module: 0x00,
  TypeRef: 0x01,
  TypeDef: 0x02,
  FieldPtr: 0x03,
  Field: 0x04,
  MethodPtr: 0x05,
  MethodDef: 0x06,
  ParamPtr: 0x07,
  Param: 0x08,
  InterfaceImpl: 0x09,
  MemberRef: 0x0a,
  Constant: 0x0b,
  CustomAttribute: 0x0c,
  FieldMarshal: 0x0d,
  DeclSecurity: 0x0e,
  ClassLayout: 0x0f,
  FieldLayout: 0x10,
  StandAloneSig: 0x11,
  EventMap: 0x12,
  EventPtr: 0x13,
  Event: 0x14,
  PropertyMap: 0x15,
  PropertyPtr: 0x16,
  Property: 0x17,
  MethodSemantics: 0x18,
  MethodImpl: 0x19,
  ModuleRef: 0x1a,
  TypeSpec: 0x1b,
  ImplMap: 0x1c,
  FieldRva: 0x1d,
  EncLog: 0x1e,
  EncMap: 0x1f,
  Assembly: 0x20,
  AssemblyProcessor: 0x21,
  AssemblyOs: 0x22,
  AssemblyRef: 0x23,
  AssemblyRefProcessor: 0x24,
  AssemblyRefOs: 0x25,
  File: 0x26,
  ExportedType: 0x27,
  ManifestResource: 0x28,
  NestedClass: 0x29,
  GenericParam: 0x2a,
  MethodSpec: 0x2b,
  GenericParamConstraint: 0x2c,
} as const;

/** Tables a coded index can point at, in tag order (-1: a tag value no table uses). */
export const CodedIndex = {
  TypeDefOrRef: [Table.TypeDef, Table.TypeRef, Table.TypeSpec],
  HasConstant: [Table.Field, Table.Param, Table.Property],
  HasCustomAttribute: [
    Table.MethodDef,
    Table.Field,
    Table.TypeRef,
    Table.TypeDef,
    Table.Param,
    Table.InterfaceImpl,
    Table.MemberRef,
    Table.Module,
    Table.DeclSecurity,
    Table.Property,
    Table.Event,
    Table.StandAloneSig,
    Table.ModuleRef,
    Table.TypeSpec,
    Table.Assembly,
    Table.AssemblyRef,
    Table.File,
    Table.ExportedType,
    Table.ManifestResource,
    Table.GenericParam,
    Table.GenericParamConstraint,
    Table.MethodSpec,
  ],
  HasFieldMarshal: [Table.Field, Table.Param],
  HasDeclSecurity: [Table.TypeDef, Table.MethodDef, Table.Assembly],
  MemberRefParent: [Table.TypeDef, Table.TypeRef, Table.ModuleRef, Table.MethodDef, Table.TypeSpec],
  HasSemantics: [Table.Event, Table.Property],
  MethodDefOrRef: [Table.MethodDef, Table.MemberRef],
  MemberForwarded: [Table.Field, Table.MethodDef],
  Implementation: [Table.File, Table.AssemblyRef, Table.ExportedType],
  CustomAttributeType: [-1, -1, Table.MethodDef, Table.MemberRef, -1],
  ResolutionScope: [Table.Module, Table.ModuleRef, Table.AssemblyRef, Table.TypeRef],
  TypeOrMethodDef: [Table.TypeDef, Table.MethodDef],
} as const satisfies Record<string, readonly number[]>;

export type CodedIndexName = keyof typeof CodedIndex;

/** One column: a fixed width, a heap index, a simple table index or a coded index. */
export type Column =
  2 | 4 | 'string' | 'guid' | 'blob' | { table: number } | { coded: CodedIndexName };

const T = (table: number): Column => ({ table });
const C = (coded: CodedIndexName): Column => ({ coded });

/** Columns of every table up to GenericParamConstraint. */
export const COLUMNS: readonly (readonly Column[])[] = [
  /* Module */ [2, 'string', 'guid', 'guid', 'guid'],
  /* TypeRef */ [C('ResolutionScope'), 'string', 'string'],
  /* TypeDef */ [4, 'string', 'string', C('TypeDefOrRef'), T(Table.Field), T(Table.MethodDef)],
  /* FieldPtr */ [T(Table.Field)],
  /* Field */ [2, 'string', 'blob'],
  /* MethodPtr */ [T(Table.MethodDef)],
  /* MethodDef */ [4, 2, 2, 'string', 'blob', T(Table.Param)],
  /* ParamPtr */ [T(Table.Param)],
  /* Param */ [2, 2, 'string'],
  /* InterfaceImpl */ [T(Table.TypeDef), C('TypeDefOrRef')],
  /* MemberRef */ [C('MemberRefParent'), 'string', 'blob'],
  /* Constant: type byte + padding byte */ [2, C('HasConstant'), 'blob'],
  /* CustomAttribute */ [C('HasCustomAttribute'), C('CustomAttributeType'), 'blob'],
  /* FieldMarshal */ [C('HasFieldMarshal'), 'blob'],
  /* DeclSecurity */ [2, C('HasDeclSecurity'), 'blob'],
  /* ClassLayout */ [2, 4, T(Table.TypeDef)],
  /* FieldLayout */ [4, T(Table.Field)],
  /* StandAloneSig */ ['blob'],
  /* EventMap */ [T(Table.TypeDef), T(Table.Event)],
  /* EventPtr */ [T(Table.Event)],
  /* Event */ [2, 'string', C('TypeDefOrRef')],
  /* PropertyMap */ [T(Table.TypeDef), T(Table.Property)],
  /* PropertyPtr */ [T(Table.Property)],
  /* Property */ [2, 'string', 'blob'],
  /* MethodSemantics */ [2, T(Table.MethodDef), C('HasSemantics')],
  /* MethodImpl */ [T(Table.TypeDef), C('MethodDefOrRef'), C('MethodDefOrRef')],
  /* ModuleRef */ ['string'],
  /* TypeSpec */ ['blob'],
  /* ImplMap */ [2, C('MemberForwarded'), 'string', T(Table.ModuleRef)],
  /* FieldRVA */ [4, T(Table.Field)],
  /* EncLog */ [4, 4],
  /* EncMap */ [4],
  /* Assembly */ [4, 2, 2, 2, 2, 4, 'blob', 'string', 'string'],
  /* AssemblyProcessor */ [4],
  /* AssemblyOS */ [4, 4, 4],
  /* AssemblyRef */ [2, 2, 2, 2, 4, 'blob', 'string', 'string', 'blob'],
  /* AssemblyRefProcessor */ [4, T(Table.AssemblyRef)],
  /* AssemblyRefOS */ [4, 4, 4, T(Table.AssemblyRef)],
  /* File */ [4, 'string', 'blob'],
  /* ExportedType */ [4, 4, 'string', 'string', C('Implementation')],
  /* ManifestResource */ [4, 4, 'string', C('Implementation')],
  /* NestedClass */ [T(Table.TypeDef), T(Table.TypeDef)],
  /* GenericParam: number, flags, owner, name */ [2, 2, C('TypeOrMethodDef'), 'string'],
  /* MethodSpec */ [C('MethodDefOrRef'), 'blob'],
  /* GenericParamConstraint: owner, constraint */ [T(Table.GenericParam), C('TypeDefOrRef')],
];

/** GenericParamAttributes (§23.1.7): the special constraints of a generic parameter. */
export const GenericParamAttributes = {
  ReferenceTypeConstraint: 0x4,
  NotNullableValueTypeConstraint: 0x8,
  DefaultConstructorConstraint: 0x10,
} as const;

/** HeapSizes bits of the `#~` header: the heap's indexes are 4 bytes wide. */
export const HeapSizes = { strings: 0x01, guid: 0x02, blob: 0x04 } as const;

/** Byte width of each column of a table, given the image's row counts and heap-size bits. */
export function columnWidths(
  table: number,
  rows: readonly number[],
  heapSizes: number,
): readonly number[] {
  const columns = COLUMNS[table];
  if (!columns) throw new Error(`no schema for table 0x${table.toString(16)}`);
  return columns.map((c) => columnWidth(c, rows, heapSizes));
}

function columnWidth(c: Column, rows: readonly number[], heapSizes: number): number {
  if (c === 2 || c === 4) return c;
  if (c === 'string') return heapSizes & HeapSizes.strings ? 4 : 2;
  if (c === 'guid') return heapSizes & HeapSizes.guid ? 4 : 2;
  if (c === 'blob') return heapSizes & HeapSizes.blob ? 4 : 2;
  if ('table' in c) return (rows[c.table] ?? 0) < 0x10000 ? 2 : 4;
  const targets: readonly number[] = CodedIndex[c.coded];
  const tagBits = tagBitsOf(targets.length);
  const most = Math.max(...targets.map((t) => (t < 0 ? 0 : (rows[t] ?? 0))));
  return most < 1 << (16 - tagBits) ? 2 : 4;
}

export function tagBitsOf(choices: number): number {
  let bits = 0;
  while (1 << bits < choices) bits++;
  return bits;
}
