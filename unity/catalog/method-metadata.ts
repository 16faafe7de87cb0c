// The methods of an assembly image, as far as calling them needs (ECMA-335 Partition II): the
// MethodDef row (§22.26), its signature blob (§23.2.1) and its Param rows (§22.33), with the
// defaults and attributes param-annotations.ts finds for them; and from those, what a caller
// needs: ref / out / in, optional parameters and defaults, `params`, generic arity.

import type { DefaultValue, MethodSignature, RefKind } from './catalog-types.js';
import { GenericParams } from './generic-params.js';
import type { MetadataImage } from './metadata-reader.js';
import { Table } from './metadata-schema.js';
import { listRows } from './metadata-tables.js';
import { ParamAnnotations } from './param-annotations.js';
import { MetadataFormatError } from './pe-image.js';
import { decodeMethodSig, unmodified, type MethodSig, type SigType } from './signature-blob.js';
import { SignatureNames } from './signature-names.js';

/** ParamAttributes (§23.1.13). */
export const ParamAttributes = { In: 0x1, Out: 0x2, Optional: 0x10, HasDefault: 0x1000 } as const;

export interface ParamDefinition {
  /** '' when the method has no Param row for this position (mcs writes none for lambdas). */
  name: string;
  /** ParamAttributes of its Param row, 0 when there is none. */
  flags: number;
  /** As the signature spells it, custom modifiers and BYREF included. */
  type: SigType;
  /** The Constant of a parameter flagged HasDefault (a flag without a Constant row: none). */
  defaultValue: DefaultValue | undefined;
  /** System.ParamArrayAttribute: C# `params`. */
  isParamArray: boolean;
  /** IsReadOnlyAttribute: how C# marks an `in` parameter (besides the In flag). */
  isReadOnly: boolean;
}

export interface MethodDefinition {
  token: number;
  name: string;
  /** MethodAttributes. */
  flags: number;
  implFlags: number;
  rva: number;
  signature: MethodSig;
  /** One per signature parameter, in order. */
  params: ParamDefinition[];
}

/** The MethodDefs of one image, by token. */
export class MethodDefinitions {
  readonly names: SignatureNames;
  private readonly annotations: ParamAnnotations;

  private readonly generics: GenericParams;

  constructor(private readonly image: MetadataImage) {
    this.names = new SignatureNames(image);
    this.annotations = new ParamAnnotations(image);
    this.generics = new GenericParams(image, this.names);
  }

  /** The MethodDef of a 0x06 token, with its signature and parameters decoded. */
  method(token: number): MethodDefinition {
    const { tables, strings, blobs } = this.image;
    const hex = `0x${(token >>> 0).toString(16)}`;
    if (token >>> 24 !== Table.MethodDef) {
      throw new MetadataFormatError(`${hex} is not a MethodDef token`);
    }
    const row = token & 0xffffff;
    const r = tables.need(Table.MethodDef, row, `method token ${hex}`);
    const name = strings.at(r.index(3));
    const what = `signature of ${name} (${hex})`;
    const signature = decodeMethodSig(blobs.at(r.index(4), what), what);
    const params: ParamDefinition[] = signature.params.map((type) => ({
      name: '',
      flags: 0,
      type,
      defaultValue: undefined,
      isParamArray: false,
      isReadOnly: false,
    }));
    const list = {
      owner: Table.MethodDef,
      row,
      column: 5,
      pointer: Table.ParamPtr,
      target: Table.Param,
    };
    for (const paramRow of listRows(tables, list, `params of ${hex}`)) {
      const p = tables.need(Table.Param, paramRow, `params of ${hex}`);
      const sequence = p.index(1);
      // Sequence 0 is the return value; like Mono, ignore rows past the signature's parameters.
      const target = params[sequence - 1];
      if (sequence === 0 || !target) continue;
      target.flags = p.index(0);
      target.name = strings.at(p.index(2));
      if (target.flags & ParamAttributes.HasDefault) {
        target.defaultValue = this.annotations.constantOf(paramRow);
      }
      target.isParamArray = this.annotations.isParamArray(paramRow);
      target.isReadOnly = this.annotations.isReadOnly(paramRow);
    }
    return {
      token,
      name,
      flags: r.index(2),
      implFlags: r.index(1),
      rva: r.index(0),
      signature,
      params,
    };
  }

  /**
   * What a caller needs of a method's parameters. A default is reported only for an optional
   * parameter; a null default on a parameter that cannot be null (mcs writes
   * `CancellationToken ct = default` and `T t = default(T)` as a null constant) is reported as
   * optional without a default, which means default(T).
   */
  signature(token: number): MethodSignature {
    const def = this.method(token);
    const generics = def.signature.genericArity ? this.generics.ofMethod(token & 0xffffff) : [];
    return {
      genericArity: def.signature.genericArity,
      ...(generics.length ? { genericParameters: generics } : {}),
      parameters: def.params.map((p) => {
        const optional = (p.flags & ParamAttributes.Optional) !== 0;
        let defaultValue = optional ? p.defaultValue : undefined;
        if (defaultValue?.kind === 'null' && !this.names.admitsNull(p.type)) {
          defaultValue = undefined;
        }
        return {
          name: p.name,
          refKind: refKindOf(p),
          optional,
          ...(defaultValue ? { defaultValue } : {}),
          isParams: p.isParamArray,
        };
      }),
    };
  }

  /** MethodDef tokens of a TypeDef, in row order. */
  methodsOf(typeToken: number): number[] {
    const hex = `0x${(typeToken >>> 0).toString(16)}`;
    if (typeToken >>> 24 !== Table.TypeDef) {
      throw new MetadataFormatError(`${hex} is not a TypeDef token`);
    }
    const list = {
      owner: Table.TypeDef,
      row: typeToken & 0xffffff,
      column: 5,
      pointer: Table.MethodPtr,
      target: Table.MethodDef,
    };
    return listRows(this.image.tables, list, `methods of ${hex}`).map((r) => 0x06000000 | r);
  }
}

/** `out`: Out without In; `in`: In without Out, or IsReadOnlyAttribute; else `ref`. */
function refKindOf(p: ParamDefinition): RefKind {
  if (unmodified(p.type).kind !== 'byref') return 'none';
  const inFlag = (p.flags & ParamAttributes.In) !== 0;
  const outFlag = (p.flags & ParamAttributes.Out) !== 0;
  if (outFlag && !inFlag) return 'out';
  if ((inFlag && !outFlag) || p.isReadOnly) return 'in';
  return 'ref';
}
