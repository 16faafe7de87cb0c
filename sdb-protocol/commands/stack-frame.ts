// STACK_FRAME (16): sdb-protocol.md §3.8 and §7.7. Frame ids are valid only while the thread stays
// suspended; positions < 0 are parameters (-1 = first), >= 0 locals in GET_LOCALS_INFO order.

import { defineCommand, noReply } from '../command.js';
import { readValue, readValues, writeValue, type Value } from '../values.js';

export interface FrameRef {
  threadId: number;
  frameId: number;
}

const byFrame = (w: { threadId(id: number): { i32(n: number): unknown } }, p: FrameRef): void =>
  void w.threadId(p.threadId).i32(p.frameId);

export const stackFrameCommands = {
  'STACK_FRAME.GET_VALUES': defineCommand<FrameRef & { positions: readonly number[] }, Value[]>({
    set: 'STACK_FRAME',
    command: 1,
    encode: (w, p) => {
      w.threadId(p.threadId).i32(p.frameId).i32(p.positions.length);
      for (const pos of p.positions) w.i32(pos);
    },
    decode: (r, v, p) => readValues(r, v, p.positions.length),
  }),
  /** Null for static methods; a VALUETYPE copy for struct methods. */
  'STACK_FRAME.GET_THIS': defineCommand<FrameRef, Value>({
    set: 'STACK_FRAME',
    command: 2,
    encode: byFrame,
    decode: (r, v) => readValue(r, v),
  }),
  /** Takes effect when the thread resumes. */
  'STACK_FRAME.SET_VALUES': defineCommand<
    FrameRef & { writes: readonly { position: number; value: Value }[] }
  >({
    set: 'STACK_FRAME',
    command: 3,
    encode: (w, p, v) => {
      // interleaved: n × (position, value) — not all positions first
      w.threadId(p.threadId).i32(p.frameId).i32(p.writes.length);
      for (const x of p.writes) {
        w.i32(x.position);
        writeValue(w, x.value, v);
      }
    },
    decode: noReply,
  }),
  'STACK_FRAME.GET_DOMAIN': defineCommand<FrameRef, number>({
    set: 'STACK_FRAME',
    command: 4,
    since: 38, // the reply is empty for older clients
    encode: byFrame,
    decode: (r) => r.id('domain'),
  }),
  /** Only for instance methods of structs: the agent asserts otherwise (callers must check). */
  'STACK_FRAME.SET_THIS': defineCommand<FrameRef & { value: Value }>({
    set: 'STACK_FRAME',
    command: 5,
    since: 44,
    encode: (w, p, v) => {
      w.threadId(p.threadId).i32(p.frameId);
      writeValue(w, p.value, v);
    },
    decode: noReply,
  }),
} as const;
