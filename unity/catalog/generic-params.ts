// The generic parameters of a method in an assembly image (ECMA-335 Partition II §22.20
// GenericParam, §22.21 GenericParamConstraint): each parameter's name, its special constraints
// (`class`, `struct`, `new()`, from GenericParamAttributes) and the types it is constrained to,
// named as signatures name them (a TypeSpec constraint such as IComparable<T> keeps its
// signature form, which no type lookup resolves).

import type { GenericParameterSignature } from './catalog-types.js';
import type { MetadataImage } from './metadata-reader.js';
import { GenericParamAttributes, Table } from './metadata-schema.js';
import { MetadataFormatError } from './pe-image.js';
import type { SignatureNames } from './signature-names.js';

export class GenericParams {
  /** GenericParam rows by owner MethodDef row, built once per image. */
  private byMethod: Map<number, number[]> | undefined;
  /** GenericParamConstraint rows by GenericParam row. */
  private constraintRows: Map<number, number[]> | undefined;

  constructor(
    private readonly image: MetadataImage,
    private readonly names: SignatureNames,
  ) {}

  /** The generic parameters of MethodDef row `row`, in order (empty for non-generic ones). */
  ofMethod(row: number): GenericParameterSignature[] {
    const { tables, strings } = this.image;
    this.index();
    const rows = this.byMethod!.get(row) ?? [];
    const out: GenericParameterSignature[] = [];
    for (const r of rows) {
      const p = tables.need(Table.GenericParam, r, 'generic parameter');
      const number = p.index(0);
      const flags = p.index(1);
      const constraints = (this.constraintRows!.get(r) ?? []).map((c) => {
        const coded = tables.need(Table.GenericParamConstraint, c, 'constraint').index(1);
        const [table, target] = tables.decode('TypeDefOrRef', coded);
        return this.names.typeName({ kind: 'class', token: ((table << 24) | target) >>> 0 });
      });
      out[number] = {
        name: strings.at(p.index(3)),
        referenceType: (flags & GenericParamAttributes.ReferenceTypeConstraint) !== 0,
        valueType: (flags & GenericParamAttributes.NotNullableValueTypeConstraint) !== 0,
        defaultConstructor: (flags & GenericParamAttributes.DefaultConstructorConstraint) !== 0,
        constraints,
      };
    }
    for (let i = 0; i < out.length; i++) {
      if (!out[i]) throw new MetadataFormatError(`method row ${row} has no generic parameter ${i}`);
    }
    return out;
  }

  private index(): void {
    if (this.byMethod) return;
    const { tables } = this.image;
    const byMethod = new Map<number, number[]>();
    for (let r = 1; r <= tables.rows[Table.GenericParam]!; r++) {
      const [table, owner] = tables.decode(
        'TypeOrMethodDef',
        tables.row(Table.GenericParam, r)!.index(2),
      );
      if (table !== Table.MethodDef) continue;
      let list = byMethod.get(owner);
      if (!list) byMethod.set(owner, (list = []));
      list.push(r);
    }
    const constraintRows = new Map<number, number[]>();
    for (let r = 1; r <= tables.rows[Table.GenericParamConstraint]!; r++) {
      const owner = tables.row(Table.GenericParamConstraint, r)!.index(0);
      let list = constraintRows.get(owner);
      if (!list) constraintRows.set(owner, (list = []));
      list.push(r);
    }
    this.byMethod = byMethod;
    this.constraintRows = constraintRows;
  }
}
