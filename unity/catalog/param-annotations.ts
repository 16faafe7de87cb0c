// What a Param row's neighbours say about it (ECMA-335 Partition II): its default value in the
// Constant table (§22.9, HasConstant parent) and the custom attributes C# turns parameters'
// modifiers into (§22.10): `params` is System.ParamArrayAttribute, `in` carries
// IsReadOnlyAttribute. Each table is indexed by parent once, on first use: the tables are sorted
// by parent in valid images, but a map does not depend on it.

import type { DefaultValue } from './catalog-types.js';
import { decodeConstant } from './constant-blob.js';
import type { MetadataImage } from './metadata-reader.js';
import { Table } from './metadata-schema.js';
import { MetadataFormatError } from './pe-image.js';

const PARAM_ARRAY = 'System.ParamArrayAttribute';
const IS_READ_ONLY = 'System.Runtime.CompilerServices.IsReadOnlyAttribute';
const Mark = { ParamArray: 1, ReadOnly: 2 } as const;

export class ParamAnnotations {
  private constantRows: Map<number, number> | undefined;
  private paramMarks: Map<number, number> | undefined;
  private methodPtrInverse: Map<number, number> | undefined;

  constructor(private readonly image: MetadataImage) {}

  /** The Constant of Param row `paramRow`, if it has one. */
  constantOf(paramRow: number): DefaultValue | undefined {
    const { tables, blobs } = this.image;
    if (!this.constantRows) {
      this.constantRows = new Map();
      for (let i = 1; i <= tables.rows[Table.Constant]!; i++) {
        const parent = tables.row(Table.Constant, i)!.index(1);
        const [table, row] = tables.decode('HasConstant', parent);
        if (table === Table.Param) this.constantRows.set(row, i);
      }
    }
    const constantRow = this.constantRows.get(paramRow);
    if (constantRow === undefined) return undefined;
    const c = tables.row(Table.Constant, constantRow)!;
    // the Type column is the element type byte and a padding byte
    return decodeConstant(c.index(0) & 0xff, blobs.at(c.index(2), `constant of param ${paramRow}`));
  }

  isParamArray(paramRow: number): boolean {
    return ((this.marks().get(paramRow) ?? 0) & Mark.ParamArray) !== 0;
  }

  isReadOnly(paramRow: number): boolean {
    return ((this.marks().get(paramRow) ?? 0) & Mark.ReadOnly) !== 0;
  }

  /** Param rows carrying ParamArrayAttribute or IsReadOnlyAttribute. */
  private marks(): Map<number, number> {
    if (this.paramMarks) return this.paramMarks;
    const { tables } = this.image;
    const marks = new Map<number, number>();
    const byConstructor = new Map<number, number>();
    for (let i = 1; i <= tables.rows[Table.CustomAttribute]!; i++) {
      const r = tables.row(Table.CustomAttribute, i)!;
      const [table, parent] = tables.decode('HasCustomAttribute', r.index(0));
      if (table !== Table.Param) continue;
      const ctor = r.index(1);
      let mark = byConstructor.get(ctor);
      if (mark === undefined) {
        const name = this.attributeTypeName(ctor);
        mark = name === PARAM_ARRAY ? Mark.ParamArray : name === IS_READ_ONLY ? Mark.ReadOnly : 0;
        byConstructor.set(ctor, mark);
      }
      if (mark) marks.set(parent, (marks.get(parent) ?? 0) | mark);
    }
    return (this.paramMarks = marks);
  }

  /** Full name of the type declaring an attribute's constructor (a MethodDef or MemberRef). */
  private attributeTypeName(ctor: number): string | undefined {
    const { tables } = this.image;
    const [table, row] = tables.decode('CustomAttributeType', ctor);
    if (table === Table.MethodDef) {
      return this.image.typeDefs()[this.declaringTypeRow(row) - 1]!.fullName;
    }
    const ref = tables.need(Table.MemberRef, row, 'custom attribute constructor');
    const [parentTable, parentRow] = tables.decode('MemberRefParent', ref.index(0));
    if (parentTable === Table.TypeRef) return this.image.typeRefName(parentRow);
    if (parentTable === Table.TypeDef) {
      const def = this.image.typeDefs()[parentRow - 1];
      if (!def) throw new MetadataFormatError(`MemberRef ${row} names TypeDef row ${parentRow}`);
      return def.fullName;
    }
    return undefined; // a TypeSpec or module-level method: not an attribute we look for
  }

  /** The TypeDef whose method list holds MethodDef `row` (the lists ascend, §22.37). */
  private declaringTypeRow(methodRow: number): number {
    const { tables } = this.image;
    tables.need(Table.MethodDef, methodRow, 'custom attribute constructor');
    let position = methodRow;
    if (tables.rows[Table.MethodPtr]) {
      if (!this.methodPtrInverse) {
        this.methodPtrInverse = new Map();
        for (let i = 1; i <= tables.rows[Table.MethodPtr]!; i++) {
          this.methodPtrInverse.set(tables.row(Table.MethodPtr, i)!.index(0), i);
        }
      }
      position = this.methodPtrInverse.get(methodRow) ?? 0;
    }
    // the last TypeDef whose MethodList starts at or before `position`
    let lo = 1;
    let hi = tables.rows[Table.TypeDef]!;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (tables.row(Table.TypeDef, mid)!.index(5) <= position) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found === 0 || position === 0) {
      throw new MetadataFormatError(`MethodDef ${methodRow} belongs to no TypeDef`);
    }
    return found;
  }
}
