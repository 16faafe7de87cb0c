// Writes signature and constant blobs for tests (ECMA-335 II.23.2, II.22.9), so test images
// read as the C# they stand for.

import { ElementType as E } from '../signature-blob.js';
import { compressed } from './byte-out.js';

export { compressed };

/** A TypeDefOrRefOrSpecEncoded token (II.23.2.8). */
export function typeToken(table: 'def' | 'ref' | 'spec', row: number): number[] {
  return compressed((row << 2) | { def: 0, ref: 1, spec: 2 }[table]);
}

export const sig = {
  int: [E.I4],
  string: [E.STRING],
  object: [E.OBJECT],
  void: [E.VOID],
  byRef: (t: number[]): number[] => [E.BYREF, ...t],
  szArray: (t: number[]): number[] => [E.SZARRAY, ...t],
  mvar: (i: number): number[] => [E.MVAR, ...compressed(i)],
  var: (i: number): number[] => [E.VAR, ...compressed(i)],
  class: (table: 'def' | 'ref' | 'spec', row: number): number[] => [
    E.CLASS,
    ...typeToken(table, row),
  ],
  valueType: (table: 'def' | 'ref' | 'spec', row: number): number[] => [
    E.VALUETYPE,
    ...typeToken(table, row),
  ],
  genericInst: (head: number[], args: number[][]): number[] => [
    E.GENERICINST,
    ...head,
    ...compressed(args.length),
    ...args.flat(),
  ],
  modreq: (row: number, t: number[]): number[] => [E.CMOD_REQD, ...typeToken('ref', row), ...t],
  modopt: (row: number, t: number[]): number[] => [E.CMOD_OPT, ...typeToken('ref', row), ...t],
};

/** A MethodDefSig (II.23.2.1). */
export function methodSig(opts: {
  params: number[][];
  ret?: number[];
  genericArity?: number;
  hasThis?: boolean;
  varArg?: boolean;
}): number[] {
  const arity = opts.genericArity ?? 0;
  const conv = (opts.hasThis ? 0x20 : 0) | (arity ? 0x10 : 0) | (opts.varArg ? 0x5 : 0);
  return [
    conv,
    ...(arity ? compressed(arity) : []),
    ...compressed(opts.params.length),
    ...(opts.ret ?? sig.void),
    ...opts.params.flat(),
  ];
}

/** Little-endian bytes of a constant's value. */
export function constantBytes(
  type: number,
  value: boolean | number | bigint | string | null,
): number[] {
  const dv = (n: number, write: (d: DataView) => void): number[] => {
    const d = new DataView(new ArrayBuffer(n));
    write(d);
    return [...new Uint8Array(d.buffer)];
  };
  switch (type) {
    case E.BOOLEAN:
      return [value ? 1 : 0];
    case E.CHAR:
    case E.U2:
      return dv(2, (d) => d.setUint16(0, Number(value), true));
    case E.I1:
      return dv(1, (d) => d.setInt8(0, Number(value)));
    case E.U1:
      return dv(1, (d) => d.setUint8(0, Number(value)));
    case E.I2:
      return dv(2, (d) => d.setInt16(0, Number(value), true));
    case E.I4:
      return dv(4, (d) => d.setInt32(0, Number(value), true));
    case E.U4:
      return dv(4, (d) => d.setUint32(0, Number(value), true));
    case E.I8:
      return dv(8, (d) => d.setBigInt64(0, BigInt(value as bigint), true));
    case E.U8:
      return dv(8, (d) => d.setBigUint64(0, BigInt(value as bigint), true));
    case E.R4:
      return dv(4, (d) => d.setFloat32(0, Number(value), true));
    case E.R8:
      return dv(8, (d) => d.setFloat64(0, Number(value), true));
    case E.STRING: {
      const s = String(value);
      return dv(s.length * 2, (d) => {
        for (let i = 0; i < s.length; i++) d.setUint16(i * 2, s.charCodeAt(i), true);
      });
    }
    case E.CLASS:
      return [0, 0, 0, 0];
    default:
      throw new Error(`no constant of element type 0x${type.toString(16)}`);
  }
}
