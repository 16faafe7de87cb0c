// Constant values (ECMA-335 Partition II §22.9, the Constant table; blobs in §24.2.4): the Type
// column is an element type, the Value blob holds the value little-endian in exactly that type's
// size, a string as UTF-16 code units, and a null reference as ELEMENT_TYPE_CLASS with a 4-byte
// zero.

import type { DefaultValue } from './catalog-types.js';
import { MetadataFormatError, type Region } from './pe-image.js';
import { ElementType as E } from './signature-blob.js';

type NumberKind = Extract<DefaultValue, { value: number }>['kind'];

/** Element type → [kind, size] of the number-valued constants. */
const NUMBERS: Readonly<Record<number, readonly [NumberKind, number]>> = {
  [E.CHAR]: ['char', 2],
  [E.I1]: ['sbyte', 1],
  [E.U1]: ['byte', 1],
  [E.I2]: ['short', 2],
  [E.U2]: ['ushort', 2],
  [E.I4]: ['int', 4],
  [E.U4]: ['uint', 4],
  [E.R4]: ['float', 4],
  [E.R8]: ['double', 8],
};

/** Decodes a Constant row's value; `type` is the element type byte of its Type column. */
export function decodeConstant(type: number, blob: Region): DefaultValue {
  const size = blob.length;
  const view = new DataView(blob.bytes.buffer, blob.bytes.byteOffset + blob.start, size);
  const exactly = (n: number, what: string): void => {
    if (size !== n) {
      throw new MetadataFormatError(`${what} constant of ${size} bytes, not ${n}`, blob.start);
    }
  };
  switch (type) {
    case E.BOOLEAN:
      exactly(1, 'bool');
      return { kind: 'bool', value: view.getUint8(0) !== 0 };
    case E.I8:
    case E.U8:
      exactly(8, 'long');
      return type === E.I8
        ? { kind: 'long', value: view.getBigInt64(0, true) }
        : { kind: 'ulong', value: view.getBigUint64(0, true) };
    case E.STRING: {
      if (size % 2 !== 0) {
        throw new MetadataFormatError(`string constant of odd length ${size}`, blob.start);
      }
      // Code unit by code unit: a .NET string may hold lone surrogates, which TextDecoder
      // would replace.
      const units: number[] = [];
      let text = '';
      for (let i = 0; i < size; i += 2) {
        units.push(view.getUint16(i, true));
        if (units.length === 4096) text += String.fromCharCode(...units.splice(0));
      }
      return { kind: 'string', value: text + String.fromCharCode(...units) };
    }
    case E.CLASS:
      exactly(4, 'null');
      if (view.getUint32(0, true) !== 0) {
        throw new MetadataFormatError('a class constant other than null', blob.start);
      }
      return { kind: 'null' };
    default: {
      const number = NUMBERS[type];
      if (!number) {
        throw new MetadataFormatError(`constant of element type 0x${type.toString(16)}`);
      }
      const [kind, n] = number;
      exactly(n, kind);
      return { kind, value: readNumber(view, type) };
    }
  }
}

function readNumber(view: DataView, type: number): number {
  switch (type) {
    case E.I1:
      return view.getInt8(0);
    case E.U1:
      return view.getUint8(0);
    case E.I2:
      return view.getInt16(0, true);
    case E.CHAR:
    case E.U2:
      return view.getUint16(0, true);
    case E.I4:
      return view.getInt32(0, true);
    case E.U4:
      return view.getUint32(0, true);
    case E.R4:
      return view.getFloat32(0, true);
    default:
      return view.getFloat64(0, true);
  }
}
