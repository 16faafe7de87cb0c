// VM (command set 1): sdb-protocol.md §3.2 and §4.

import type { PacketReader } from '../buffer-reader.js';
import type { PacketWriter } from '../buffer-writer.js';
import { defineCommand, noBody, noReply } from '../command.js';
import { SdbProtocolError, SdbUnsafeRequestError } from '../errors.js';
import { readValue, readValues, writeValue, type Value } from '../values.js';
import type { ProtocolVersion } from '../version.js';
import { InvokeResultFlags } from '../vocabulary.js';

export interface VmVersion {
  description: string;
  major: number;
  minor: number;
}

export interface InvokeParams {
  threadId: number;
  /** InvokeFlags bits. */
  flags: number;
  methodId: number;
  /** The receiver; `{ kind: 'null' }` for static methods (always sent up to 2.64). */
  thisArg: Value;
  args: readonly Value[];
}

export type InvokeResult =
  | { threw: false; result: Value; outThis?: Value; outArgs?: Value[] }
  | { threw: true; exception: Value };

export interface InvokeCall {
  methodId: number;
  thisArg: Value;
  args: readonly Value[];
}

export function readInvokeResult(r: PacketReader, v: ProtocolVersion): InvokeResult {
  const flags = r.u8();
  if (flags === InvokeResultFlags.THREW) return { threw: true, exception: readValue(r, v) };
  const result = readValue(r, v);
  const out: InvokeResult = { threw: false, result };
  if (flags & InvokeResultFlags.OUT_THIS) out.outThis = readValue(r, v);
  if (flags & InvokeResultFlags.OUT_ARGS)
    out.outArgs = readValues(r, v, r.count('out argument count'));
  return out;
}

function writeCall(w: PacketWriter, call: InvokeCall, v: ProtocolVersion): void {
  w.methodId(call.methodId);
  writeValue(w, call.thisArg, v);
  w.i32(call.args.length);
  for (const a of call.args) writeValue(w, a, v);
}

/** Names that make VM.GET_TYPES return an id whose TYPE.GET_INFO segfaults Mono 6.8. */
function guardTypeName(name: string): void {
  if (/[[\]*&,]/.test(name)) {
    throw new SdbUnsafeRequestError(
      `VM.GET_TYPES("${name}") refused: closed generic, array, pointer and assembly-qualified ` +
        `names make Mono 6.8 return ids that crash the game; look up the plain name ` +
        `(e.g. "System.Collections.Generic.List\`1") and take instances from values`,
    );
  }
}

export const vmCommands = {
  'VM.VERSION': defineCommand<void, VmVersion>({
    set: 'VM',
    command: 1,
    encode: noBody,
    decode: (r) => ({ description: r.string(), major: r.i32(), minor: r.i32() }),
  }),
  'VM.ALL_THREADS': defineCommand<void, number[]>({
    set: 'VM',
    command: 2,
    encode: noBody,
    decode: (r) => r.ids('thread', r.count('thread count')),
  }),
  'VM.SUSPEND': defineCommand({ set: 'VM', command: 3, encode: noBody, decode: noReply }),
  'VM.RESUME': defineCommand({ set: 'VM', command: 4, encode: noBody, decode: noReply }),
  'VM.EXIT': defineCommand<{ exitCode: number }>({
    set: 'VM',
    command: 5,
    encode: (w, p) => void w.i32(p.exitCode),
    decode: noReply,
  }),
  'VM.DISPOSE': defineCommand({ set: 'VM', command: 6, encode: noBody, decode: noReply }),
  'VM.INVOKE_METHOD': defineCommand<InvokeParams, InvokeResult>({
    set: 'VM',
    command: 7,
    encode: (w, p, v) => {
      w.threadId(p.threadId).i32(p.flags);
      writeCall(w, p, v);
    },
    decode: readInvokeResult,
  }),
  'VM.SET_PROTOCOL_VERSION': defineCommand<{ major: number; minor: number }>({
    set: 'VM',
    command: 8,
    encode: (w, p) => void w.i32(p.major).i32(p.minor),
    decode: noReply,
  }),
  'VM.ABORT_INVOKE': defineCommand<{ threadId: number; invokeId: number }>({
    set: 'VM',
    command: 9,
    encode: (w, p) => void w.threadId(p.threadId).i32(p.invokeId),
    decode: noReply,
  }),
  'VM.GET_TYPES_FOR_SOURCE_FILE': defineCommand<{ file: string; ignoreCase: boolean }, number[]>({
    set: 'VM',
    command: 11,
    since: 7,
    encode: (w, p) => void w.string(p.file).bool(p.ignoreCase),
    decode: (r) => r.ids('type', r.count('type count')),
  }),
  'VM.GET_TYPES': defineCommand<{ name: string; ignoreCase: boolean }, number[]>({
    set: 'VM',
    command: 12,
    since: 9,
    guard: (p) => guardTypeName(p.name),
    encode: (w, p) => void w.string(p.name).bool(p.ignoreCase),
    decode: (r) => r.ids('type', r.count('type count')),
  }),
  /**
   * Several invokes in one resume of the thread. One reply per call, all with the request's id
   * (Debian 6.8 sends an extra empty reply first, which the connection skips).
   */
  'VM.INVOKE_METHODS': defineCommand<
    { threadId: number; flags: number; calls: readonly InvokeCall[] },
    InvokeResult[]
  >({
    set: 'VM',
    command: 13,
    since: 22,
    replies: (p) => p.calls.length,
    guard: (p) => {
      if (p.calls.length === 0)
        throw new SdbUnsafeRequestError('VM.INVOKE_METHODS needs at least one call');
    },
    encode: (w, p, v) => {
      w.threadId(p.threadId).i32(p.flags).i32(p.calls.length);
      for (const c of p.calls) writeCall(w, c, v);
    },
    // The connection decodes each reply with readInvokeResult; this one is never used.
    decode: () => {
      throw new SdbProtocolError('VM.INVOKE_METHODS replies are decoded one by one');
    },
  }),
  'VM.START_BUFFERING': defineCommand({
    set: 'VM',
    command: 14,
    since: 34,
    encode: noBody,
    decode: noReply,
  }),
  'VM.STOP_BUFFERING': defineCommand({
    set: 'VM',
    command: 15,
    since: 34,
    encode: noBody,
    decode: noReply,
  }),
} as const;
