// Method and type signatures (ECMA-335 Partition II §23.2): the method signature blob of a
// MethodDef (§23.2.1), the type grammar it uses (§23.2.12), custom modifiers (§23.2.7), array
// shapes (§23.2.13) and TypeSpec blobs (§23.2.14). Decoding is strict: every read stays in its
// blob, every loop consumes at least one byte per turn, and nesting is bounded, so a hostile
// blob fails with MetadataFormatError instead of reading garbage, looping or overflowing the stack.

import { readCompressed } from './metadata-tables.js';
import { MetadataFormatError, type Region } from './pe-image.js';

/** ELEMENT_TYPE_* (§23.1.16). */
export const ElementType = {
  VOID: 0x01,
  BOOLEAN: 0x02,
  CHAR: 0x03,
  I1: 0x04,
  U1: 0x05,
  I2: 0x06,
  U2: 0x07,
  I4: 0x08,
  U4: 0x09,
  I8: 0x0a,
  U8: 0x0b,
  R4: 0x0c,
  R8: 0x0d,
  STRING: 0x0e,
  PTR: 0x0f,
  BYREF: 0x10,
  VALUETYPE: 0x11,
  CLASS: 0x12,
  VAR: 0x13,
  ARRAY: 0x14,
  GENERICINST: 0x15,
  TYPEDBYREF: 0x16,
  I: 0x18,
  U: 0x19,
  FNPTR: 0x1b,
  OBJECT: 0x1c,
  SZARRAY: 0x1d,
  MVAR: 0x1e,
  CMOD_REQD: 0x1f,
  CMOD_OPT: 0x20,
  SENTINEL: 0x41,
  PINNED: 0x45,
} as const;

/** The primitive element types and their reflection names. */
export const PRIMITIVE_NAMES: Readonly<Record<number, string>> = {
  [ElementType.VOID]: 'System.Void',
  [ElementType.BOOLEAN]: 'System.Boolean',
  [ElementType.CHAR]: 'System.Char',
  [ElementType.I1]: 'System.SByte',
  [ElementType.U1]: 'System.Byte',
  [ElementType.I2]: 'System.Int16',
  [ElementType.U2]: 'System.UInt16',
  [ElementType.I4]: 'System.Int32',
  [ElementType.U4]: 'System.UInt32',
  [ElementType.I8]: 'System.Int64',
  [ElementType.U8]: 'System.UInt64',
  [ElementType.R4]: 'System.Single',
  [ElementType.R8]: 'System.Double',
  [ElementType.STRING]: 'System.String',
  [ElementType.TYPEDBYREF]: 'System.TypedReference',
  [ElementType.I]: 'System.IntPtr',
  [ElementType.U]: 'System.UIntPtr',
  [ElementType.OBJECT]: 'System.Object',
};

/** Calling convention bits of a method signature's first byte (§23.2.1, §23.2.3). */
export const CallingConvention = {
  KindMask: 0x0f,
  Default: 0x0,
  VarArg: 0x5,
  Generic: 0x10,
  HasThis: 0x20,
  ExplicitThis: 0x40,
} as const;

/** A custom modifier (§23.2.7): modreq when required, else modopt; the type is a token. */
export interface CustomModifier {
  required: boolean;
  token: number;
}

/** A type as a signature spells it; tokens are TypeDef, TypeRef or TypeSpec tokens. */
export type SigType = (
  | { kind: 'primitive'; element: number }
  | { kind: 'class' | 'valuetype'; token: number }
  | { kind: 'var' | 'mvar'; index: number }
  | { kind: 'szarray' | 'ptr' | 'byref'; element: SigType }
  | { kind: 'array'; element: SigType; rank: number; sizes: number[]; lowerBounds: number[] }
  | { kind: 'genericinst'; generic: SigType; args: SigType[] }
  | { kind: 'fnptr'; signature: MethodSig }
) & { modifiers?: CustomModifier[] };

export interface MethodSig {
  /** The first byte: kind in the low 4 bits, GENERIC, HASTHIS, EXPLICITTHIS. */
  callingConvention: number;
  /** Number of method type parameters (0 unless GENERIC). */
  genericArity: number;
  returnType: SigType;
  params: SigType[];
  /** Index of the first vararg parameter (after SENTINEL), in call-site signatures only. */
  varargStart: number | undefined;
}

/** Deeper type nesting than any compiler emits; bounds recursion on hostile blobs. */
const MAX_DEPTH = 64;
/** Generic arguments and method type parameters are u16 in the CLI (II.22.20). */
const MAX_GENERIC_COUNT = 0xffff;

/** A cursor over one blob. */
export class SigCursor {
  private at: number;

  constructor(
    readonly blob: Region,
    readonly what: string,
  ) {
    this.at = blob.start;
  }

  get done(): boolean {
    return this.at >= this.blob.end;
  }

  get offset(): number {
    return this.at;
  }

  u8(): number {
    return this.blob.u8(this.at++, this.what);
  }

  peek(): number {
    return this.blob.u8(this.at, this.what);
  }

  /** An unsigned compressed integer (§23.2). */
  compressed(): number {
    const [value, used] = readCompressed(this.blob, this.at, this.what);
    this.at += used;
    return value;
  }

  /** A signed compressed integer (§23.2): the sign bit rotated into bit 0. */
  compressedSigned(): number {
    const [raw, used] = readCompressed(this.blob, this.at, this.what);
    this.at += used;
    const magnitude = raw >>> 1;
    if ((raw & 1) === 0) return magnitude;
    return magnitude - 2 ** (used === 1 ? 6 : used === 2 ? 13 : 28);
  }

  /** A TypeDefOrRefOrSpecEncoded token (§23.2.8): 2 tag bits, then the row. */
  typeToken(): number {
    const v = this.compressed();
    const row = v >>> 2;
    const table = [0x02, 0x01, 0x1b][v & 3];
    if (table === undefined || row === 0 || row > 0xffffff) {
      throw this.error(`bad TypeDefOrRefOrSpecEncoded 0x${v.toString(16)}`);
    }
    return table * 0x1000000 + row;
  }

  error(message: string): MetadataFormatError {
    return new MetadataFormatError(`${this.what}: ${message}`, this.at);
  }
}

/** Decodes a MethodDef signature blob (§23.2.1); the whole blob must be consumed. */
export function decodeMethodSig(blob: Region, what = 'method signature'): MethodSig {
  const c = new SigCursor(blob, what);
  const sig = readMethodSig(c, 0);
  if (!c.done) throw c.error('bytes after the last parameter');
  return sig;
}

/** Decodes a TypeSpec blob (§23.2.14): one type. */
export function decodeTypeSpec(blob: Region, what = 'TypeSpec'): SigType {
  const c = new SigCursor(blob, what);
  const t = readType(c, 0, false);
  if (!c.done) throw c.error('bytes after the type');
  return t;
}

function readMethodSig(c: SigCursor, depth: number): MethodSig {
  const callingConvention = c.u8();
  const kind = callingConvention & CallingConvention.KindMask;
  // Kinds 0-5 are method conventions; 6 FIELD, 7 LOCAL_SIG, 8 PROPERTY and above are not.
  if (kind > CallingConvention.VarArg || (callingConvention & 0x80) !== 0) {
    throw c.error(
      `not a method signature (calling convention 0x${callingConvention.toString(16)})`,
    );
  }
  let genericArity = 0;
  if (callingConvention & CallingConvention.Generic) {
    genericArity = c.compressed();
    if (genericArity === 0 || genericArity > MAX_GENERIC_COUNT) {
      throw c.error(`bad generic parameter count ${genericArity}`);
    }
  }
  const paramCount = c.compressed();
  const returnType = readType(c, depth, true);
  const params: SigType[] = [];
  let varargStart: number | undefined;
  // Each parameter takes at least one byte: a count larger than the blob fails on reading.
  while (params.length < paramCount) {
    if (c.peek() === ElementType.SENTINEL) {
      if (varargStart !== undefined) throw c.error('second vararg sentinel');
      c.u8();
      varargStart = params.length;
      continue;
    }
    params.push(readType(c, depth, false));
  }
  return { callingConvention, genericArity, returnType, params, varargStart };
}

/**
 * One type, with any custom modifiers before it (§23.2.7 allows them before a parameter, a
 * return type, a pointer's or array's element; like the CLR we accept them before any type).
 * VOID is accepted only where `voidOk` (a return type or a pointer's element).
 */
function readType(c: SigCursor, depth: number, voidOk: boolean): SigType {
  if (depth > MAX_DEPTH) throw c.error('types nested too deeply');
  let modifiers: CustomModifier[] | undefined;
  for (;;) {
    const b = c.peek();
    if (b !== ElementType.CMOD_REQD && b !== ElementType.CMOD_OPT) break;
    c.u8();
    (modifiers ??= []).push({ required: b === ElementType.CMOD_REQD, token: c.typeToken() });
  }
  const t = readBareType(c, depth, voidOk);
  return modifiers ? { ...t, modifiers } : t;
}

function readBareType(c: SigCursor, depth: number, voidOk: boolean): SigType {
  const at = c.offset;
  const e = c.u8();
  const E = ElementType;
  if (e === E.VOID) {
    if (!voidOk) throw new MetadataFormatError(`${c.what}: VOID where a value type is needed`, at);
    return { kind: 'primitive', element: e };
  }
  if (PRIMITIVE_NAMES[e] !== undefined) return { kind: 'primitive', element: e };
  switch (e) {
    case E.CLASS:
      return { kind: 'class', token: c.typeToken() };
    case E.VALUETYPE:
      return { kind: 'valuetype', token: c.typeToken() };
    case E.VAR:
    case E.MVAR: {
      const index = c.compressed();
      if (index >= MAX_GENERIC_COUNT) throw c.error(`generic parameter index ${index}`);
      return { kind: e === E.VAR ? 'var' : 'mvar', index };
    }
    case E.SZARRAY:
      return { kind: 'szarray', element: readType(c, depth + 1, false) };
    case E.PTR:
      return { kind: 'ptr', element: readType(c, depth + 1, true) };
    case E.BYREF:
      return { kind: 'byref', element: readType(c, depth + 1, false) };
    case E.ARRAY:
      return readArray(c, depth);
    case E.GENERICINST: {
      const head = c.u8();
      if (head !== E.CLASS && head !== E.VALUETYPE) {
        throw c.error(`GENERICINST of element type 0x${head.toString(16)}`);
      }
      const generic: SigType = {
        kind: head === E.CLASS ? 'class' : 'valuetype',
        token: c.typeToken(),
      };
      const count = c.compressed();
      if (count === 0 || count > MAX_GENERIC_COUNT) throw c.error(`${count} generic arguments`);
      const args: SigType[] = [];
      for (let i = 0; i < count; i++) args.push(readType(c, depth + 1, false));
      return { kind: 'genericinst', generic, args };
    }
    case E.FNPTR:
      return { kind: 'fnptr', signature: readMethodSig(c, depth + 1) };
    default:
      throw new MetadataFormatError(`${c.what}: unexpected element type 0x${e.toString(16)}`, at);
  }
}

/** ARRAY Type ArrayShape (§23.2.13): rank, sizes, lower bounds. */
function readArray(c: SigCursor, depth: number): SigType {
  const element = readType(c, depth + 1, false);
  const rank = c.compressed();
  if (rank === 0 || rank > 32) throw c.error(`array rank ${rank}`); // the CLI caps rank at 32
  const sizeCount = c.compressed();
  if (sizeCount > rank) throw c.error(`${sizeCount} sizes for rank ${rank}`);
  const sizes: number[] = [];
  for (let i = 0; i < sizeCount; i++) sizes.push(c.compressed());
  const boundCount = c.compressed();
  if (boundCount > rank) throw c.error(`${boundCount} lower bounds for rank ${rank}`);
  const lowerBounds: number[] = [];
  for (let i = 0; i < boundCount; i++) lowerBounds.push(c.compressedSigned());
  return { kind: 'array', element, rank, sizes, lowerBounds };
}

/** The type without its custom modifiers. */
export function unmodified(t: SigType): SigType {
  if (!t.modifiers) return t;
  const { modifiers: _, ...bare } = t;
  return bare;
}
