// Reading and evaluating in a paused game. "Paused" is any suspension: a stop at a breakpoint,
// step or exception (the stopped thread is the default), or a hold taken with `suspend` (the
// main thread is the default). Frame reads and writes are wire commands and work on any
// stopped thread; invokes always run on the main thread.

import type { EvaluateResult } from '../../eval/index.js';
import type { GameSession, OperationResult } from '../session/session.js';
import { Errors, messageOf } from '../errors.js';
import { journaledWrites, type EvalWrite } from '../journal/eval-writes.js';
import type { Journal } from '../journal/journal.js';
import type { Debugger, Stop } from './debugger.js';
import { evaluateInFrame } from './frame-eval.js';
import { readStack, type FrameView } from './frames.js';

export interface PauseState {
  stop?: Stop;
  threadId: number;
  /** Frames on the thread in all (those shown are the first `frames`). */
  totalFrames: number;
  frames: FrameView[];
  /** With allThreads: every other thread's stack (frames only, no variables). */
  others?: {
    threadId: number;
    name: string;
    totalFrames: number;
    frames: FrameView[];
    /** Its stack could not be read (why): not the same as a thread with no frames. */
    unreadable?: string;
  }[];
}

function requirePaused(session: GameSession, dbg: Debugger, what: string): void {
  if (!dbg.paused && session.status().holds.length === 0) throw Errors.notPaused(what);
}

export async function pauseState(
  session: GameSession,
  dbg: Debugger,
  caller: string,
  options: { threadId?: number; frames: number; variableFrames: number; allThreads?: boolean },
): Promise<OperationResult<PauseState>> {
  requirePaused(session, dbg, 'debug_pause_state');
  return session.run('debug_pause_state', caller, async (ctx) => {
    const stop = dbg.paused;
    const threadId = options.threadId ?? stop?.threadId ?? (await ctx.mainThread());
    const cache = dbg.locations(ctx);
    const { frames, total } = await readStack(
      ctx,
      cache,
      threadId,
      options.frames,
      options.variableFrames,
    );
    const state: PauseState = {
      ...(stop ? { stop } : {}),
      threadId,
      totalFrames: total,
      frames,
    };
    if (options.allThreads) {
      const threads = (await ctx.conn.send('VM.ALL_THREADS')).filter((t) => t !== threadId);
      state.others = await Promise.all(
        threads.map(async (t) => {
          const [name, stack] = await Promise.all([
            ctx.conn.send('THREAD.GET_NAME', { threadId: t }),
            readStack(ctx, cache, t, options.frames, 0).catch((e: unknown) => ({
              frames: [],
              total: 0,
              unreadable: messageOf(e),
            })),
          ]);
          return {
            threadId: t,
            name,
            totalFrames: stack.total,
            frames: stack.frames,
            ...('unreadable' in stack ? { unreadable: stack.unreadable } : {}),
          };
        }),
      );
    }
    return state;
  });
}

export async function evaluateInPause(
  session: GameSession,
  dbg: Debugger,
  journal: Journal,
  caller: string,
  code: string,
  options: { frame?: number; threadId?: number },
): Promise<OperationResult<EvaluateResult> & { writes: EvalWrite[] }> {
  requirePaused(session, dbg, 'debug_evaluate');
  // writes to fields, statics, elements and properties are journaled for undo, as eval's are
  // (a frame's locals are not: they live only as long as the frame)
  const { observer, writes } = journaledWrites(journal, caller, code);
  const r = await session.run('debug_evaluate', caller, async (ctx) => {
    const threadId = options.threadId ?? dbg.paused?.threadId ?? (await ctx.mainThread());
    return evaluateInFrame(ctx, dbg.locations(ctx), threadId, options.frame, code, observer);
  });
  return { ...r, writes };
}
