// THREAD (11): sdb-protocol.md §3.5.

import { defineCommand, noReply } from '../command.js';
import { SdbUnsafeRequestError } from '../errors.js';

export interface FrameInfo {
  frameId: number;
  methodId: number;
  /** -1 when unknown. */
  ilOffset: number;
  /** FrameFlags bits; DEBUGGER_INVOKE is unreliable on the top frame (trap 10.6). */
  flags: number;
}

const byThread = (w: { threadId(id: number): unknown }, p: { threadId: number }): void =>
  void w.threadId(p.threadId);

export const threadCommands = {
  /** All frames (the agent accepts no other range). Only while the VM is suspended. */
  'THREAD.GET_FRAME_INFO': defineCommand<{ threadId: number }, FrameInfo[]>({
    set: 'THREAD',
    command: 1,
    guard: (_p, ctx) => {
      if (ctx.suspendCount === 0) {
        throw new SdbUnsafeRequestError(
          "THREAD.GET_FRAME_INFO refused while the VM runs: Mono's agent busy-waits forever " +
            'for a suspension and then answers nothing; suspend first',
        );
      }
    },
    encode: (w, p) => void w.threadId(p.threadId).i32(0).i32(-1),
    decode: (r) =>
      r.list('frame', 13, (x) => ({
        frameId: x.i32(),
        methodId: x.methodId(),
        ilOffset: x.i32(),
        flags: x.u8(),
      })),
  }),
  'THREAD.GET_NAME': defineCommand<{ threadId: number }, string>({
    set: 'THREAD',
    command: 2,
    encode: byThread,
    decode: (r) => r.string(),
  }),
  /** System.Threading.ThreadState bits. */
  'THREAD.GET_STATE': defineCommand<{ threadId: number }, number>({
    set: 'THREAD',
    command: 3,
    encode: byThread,
    decode: (r) => r.i32(),
  }),
  'THREAD.GET_INFO': defineCommand<{ threadId: number }, { isThreadPool: boolean }>({
    set: 'THREAD',
    command: 4,
    encode: byThread,
    decode: (r) => ({ isThreadPool: r.bool() }),
  }),
  /** The runtime thread object's address: stable and unique, not the managed id. */
  'THREAD.GET_ID': defineCommand<{ threadId: number }, bigint>({
    set: 'THREAD',
    command: 5,
    encode: byThread,
    decode: (r) => r.u64(),
  }),
  /** The OS thread id. */
  'THREAD.GET_TID': defineCommand<{ threadId: number }, bigint>({
    set: 'THREAD',
    command: 6,
    encode: byThread,
    decode: (r) => r.u64(),
  }),
  'THREAD.SET_IP': defineCommand<{ threadId: number; methodId: number; ilOffset: number }>({
    set: 'THREAD',
    command: 7,
    since: 29,
    encode: (w, p) => void w.threadId(p.threadId).methodId(p.methodId).i64(p.ilOffset),
    decode: noReply,
  }),
  'THREAD.ELAPSED_TIME': defineCommand<{ threadId: number }, number>({
    set: 'THREAD',
    command: 8,
    since: 50,
    encode: byThread,
    decode: (r) => r.i64n('elapsed time'),
  }),
} as const;
