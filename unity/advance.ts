// Let the game run for a number of frames (by its own frame counter) or seconds, then take the
// caller's holds back: the "step a paused game" of a player build, where Unity's Editor pause
// does not exist. Optional programs run just before and just after.
//
// Frames are counted by reading Time.frameCount (one main-thread invoke per read, each in its
// own short window, with the game left to run 8 ms between two) as the game runs; a read parks
// the main thread at its next managed call, so reads fall about one per frame and the count may
// overshoot by a frame: the result says how many frames really passed. A breakpoint, step or
// exception stop while the game runs ends the advance early (the game is paused there; the stop
// is returned). The holds are retaken on every path, errors included.

import type { Debugger, Stop } from './debug/debugger.js';
import { Errors, UnityError } from './errors.js';
import { evaluateInSession } from './eval-bridge/evaluate-in-session.js';
import type { Journal } from './journal/journal.js';
import { evaluateToolProgram } from './tool-programs.js';
import {
  sumCosts,
  type GameSession,
  type HeavyWait,
  type OperationCost,
  type OperationResult,
} from './session/session.js';

export interface AdvanceRequest {
  caller: string;
  frames?: number;
  seconds?: number;
  /** C# programs evaluated before the game runs and after it is held again. */
  before?: string;
  after?: string;
  /** Bound on the whole wait (default: 10 s + 100 ms per frame, or seconds + 10 s). */
  timeoutMs?: number;
  /**
   * Ends the run early (a cancelled job), checked between frame reads: the holds are taken
   * back and the result says how many frames passed (`cancelled`); `after` still runs.
   */
  signal?: AbortSignal;
  /** Told the frames advanced so far at each frame read (a job's progress). */
  onProgress?: (framesAdvanced: number) => void;
  /** Bound on waiting for other callers' holds to end (default OTHERS_HOLD_WAIT_MS). */
  othersHoldWaitMs?: number;
}

export interface AdvanceResult {
  framesRequested?: number;
  secondsRequested?: number;
  frameBefore: number;
  frameAfter: number;
  /** frameAfter - frameBefore. */
  framesAdvanced: number;
  elapsedMs: number;
  /** The caller's holds, released for the run and taken back. */
  holdsRetaken: number;
  before?: string;
  after?: string;
  /** The game stopped at a breakpoint, step or exception on the way: the advance ended there. */
  stop?: Stop;
  /** The signal ended it before the frames or seconds asked for had passed. */
  cancelled?: boolean;
  /** How long it waited for other callers' holds to end before the game could run (ms). */
  waitedForHoldsMs?: number;
}

/** How often a run by seconds looks for a stop or a cancel. */
const STOP_POLL_MS = 50;
/** How often a run by seconds reads the frame count for its progress (when it reports one). */
const PROGRESS_READ_MS = 250;
/** A run by frames lets the game run this long between two reads (half a 60 fps frame). */
const FRAME_READ_GAP_MS = 8;

/**
 * How long an advance waits for other callers' holds to end (the game cannot run under them)
 * before it is refused with HOLD_NOT_OWNED naming them; how often it looks.
 */
export const OTHERS_HOLD_WAIT_MS = 10_000;
const OTHERS_HOLD_POLL_MS = 10;

export const MAX_ADVANCE_FRAMES = 10_000;
export const MAX_ADVANCE_SECONDS = 60;

/** How long a second advance on one game waits for the one running (then TIMEOUT naming it). */
export const ADVANCE_WAIT_MS = 30_000;

/**
 * `debug` is the session's debugger (a stop on the way ends the run); `journal` records the
 * writes of the `before` and `after` programs. One advance runs at a time per game: another
 * one (anyone's) waits for it, FIFO, at most ADVANCE_WAIT_MS; meanwhile every caller's other
 * calls take turns with its frame reads.
 */
export async function advance(
  session: GameSession,
  deps: { debug: Debugger; journal: Journal },
  req: AdvanceRequest,
): Promise<OperationResult<AdvanceResult>> {
  const started = performance.now();
  checkRequest(req);
  return session.heavy(
    'advance',
    req.caller,
    async (waited) => {
      const r = await advanceAlone(session, deps, req);
      if (waited.ranBefore === 0) return r;
      // the wait for the advance before it is this call's wait for the game too
      const slot = { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: 0, ...toQueue(waited) };
      return { value: r.value, cost: sumCosts([r.cost, slot], started) };
    },
    ADVANCE_WAIT_MS,
  );
}

function toQueue(w: HeavyWait): { queueMs: number; queuedBehind: number } {
  return { queueMs: w.waitedMs, queuedBehind: w.ranBefore };
}

function checkRequest(req: AdvanceRequest): void {
  const { frames, seconds } = req;
  if ((frames === undefined) === (seconds === undefined))
    throw Errors.invalidArgument('give exactly one of frames or seconds');
  if (
    frames !== undefined &&
    (!Number.isInteger(frames) || frames < 1 || frames > MAX_ADVANCE_FRAMES)
  )
    throw Errors.invalidArgument(
      `frames must be an integer in 1-${MAX_ADVANCE_FRAMES}, got ${frames}`,
    );
  if (seconds !== undefined && !(seconds > 0 && seconds <= MAX_ADVANCE_SECONDS))
    throw Errors.invalidArgument(`seconds must be in (0, ${MAX_ADVANCE_SECONDS}], got ${seconds}`);
}

async function advanceAlone(
  session: GameSession,
  { debug, journal }: { debug: Debugger; journal: Journal },
  req: AdvanceRequest,
): Promise<OperationResult<AdvanceResult>> {
  const started = performance.now();
  const { frames, seconds } = req;
  const costs: OperationCost[] = [];
  // `before` and `after` are the agent's programs, as eval's (journaled, `_` set); the frame
  // counter is ours, and leaves `_` alone
  const run = async (source: string): Promise<string> => {
    const r = await evaluateInSession(session, req.caller, source, {}, journal);
    costs.push(r.cost);
    const v = r.value;
    if (v.kind === 'exception')
      throw Errors.gameException({ type: v.type, message: v.message, stackTrace: v.stackTrace });
    return v.kind === 'void' ? 'done (no value)' : v.text;
  };
  const frameCount = async (): Promise<number> => {
    const r = await evaluateToolProgram(
      session,
      req.caller,
      'advance (frame count)',
      'UnityEngine.Time.frameCount',
    );
    costs.push(r.cost);
    if (r.value.kind !== 'value' || r.value.value.kind !== 'number')
      throw new UnityError('INTERNAL', 'Time.frameCount did not read as a number');
    return Number(r.value.value.value);
  };

  // Another caller's hold keeps the game still: wait for it to end (a short hold for a read is
  // the common case among several agents), bounded, then refuse naming the holders.
  const holdWaitStarted = performance.now();
  for (;;) {
    const { others } = session.holdsOf(req.caller);
    if (others.length === 0) break;
    const waited = performance.now() - holdWaitStarted;
    if (waited >= (req.othersHoldWaitMs ?? OTHERS_HOLD_WAIT_MS) || req.signal?.aborted === true)
      throw new UnityError(
        'HOLD_NOT_OWNED',
        `advance cannot run while ${others.join(', ')} ${others.length === 1 ? 'holds' : 'hold'} the game (waited ${Math.round(waited)} ms for ${others.length === 1 ? 'that hold' : 'those holds'} to end); ask ${others.length === 1 ? 'its owner' : 'their owners'} to resume, or resume {force: true} if abandoned`,
        { details: { holders: others, waitedMs: Math.round(waited) } },
      );
    await new Promise((r) => setTimeout(r, OTHERS_HOLD_POLL_MS));
  }
  const waitedForHoldsMs = Math.round((performance.now() - holdWaitStarted) * 100) / 100;
  const before = req.before !== undefined ? await run(req.before) : undefined;
  const { mine, others } = session.holdsOf(req.caller);
  if (others.length > 0) throw Errors.holdNotOwned(req.caller, others);

  const frameBefore = await frameCount();
  const runStarted = performance.now();
  let frameAfter = frameBefore;
  let released = 0;
  // a stop made after this point ends the run (one in place before it does not)
  const stopsBefore = debug.status().stops;
  let stop: Stop | undefined;
  const stopped = (): boolean => {
    const p = debug.paused;
    if (p && p.seq > stopsBefore) stop = p;
    return stop !== undefined;
  };
  const cancelled = (): boolean => req.signal?.aborted === true;
  const read = async (): Promise<number> => {
    const n = await frameCount();
    req.onProgress?.(n - frameBefore);
    return n;
  };
  try {
    for (; released < mine; released++) {
      const r = await session.release(req.caller);
      costs.push(r.cost);
    }
    const bound =
      req.timeoutMs ?? (frames !== undefined ? 10_000 + frames * 100 : seconds! * 1000 + 10_000);
    if (seconds !== undefined) {
      const end = runStarted + seconds * 1000;
      let nextRead = runStarted + PROGRESS_READ_MS;
      while (!stopped() && !cancelled() && performance.now() < end) {
        await new Promise((r) =>
          setTimeout(r, Math.min(STOP_POLL_MS, Math.max(0, end - performance.now()))),
        );
        // a job's progress: the frames so far, read now and then (a read parks the main thread)
        if (req.onProgress && performance.now() >= nextRead && performance.now() < end) {
          frameAfter = await read();
          nextRead = performance.now() + PROGRESS_READ_MS;
        }
      }
      frameAfter = await frameCount();
    } else {
      const target = frameBefore + frames!;
      while (frameAfter < target && !stopped() && !cancelled()) {
        if (performance.now() - runStarted > bound)
          throw Errors.timeout(
            `advancing ${frames} frames (${frameAfter - frameBefore} passed: the main thread may be stuck in native code or the game paused)`,
            bound,
            true,
          );
        frameAfter = await read();
        // the game runs free between reads: a hit while a read parks the main thread comes
        // during an evaluation and is let go, so back-to-back reads could let every hit go
        if (frameAfter < target) await new Promise((r) => setTimeout(r, FRAME_READ_GAP_MS));
      }
    }
  } finally {
    // the caller's holds come back whatever happened
    for (let i = 0; i < released; i++) {
      const r = await session.hold(req.caller);
      costs.push(r.cost);
    }
  }
  const elapsedMs = Math.round((performance.now() - runStarted) * 100) / 100;
  const endedEarly =
    stop === undefined &&
    cancelled() &&
    (seconds !== undefined ? elapsedMs < seconds * 1000 : frameAfter < frameBefore + frames!);
  // held again: where it stopped is stable now (a frame may have passed since the last read)
  if (released > 0) frameAfter = await frameCount();
  const after = req.after !== undefined ? await run(req.after) : undefined;
  const result: AdvanceResult = {
    ...(frames !== undefined ? { framesRequested: frames } : {}),
    ...(seconds !== undefined ? { secondsRequested: seconds } : {}),
    frameBefore,
    frameAfter,
    framesAdvanced: frameAfter - frameBefore,
    elapsedMs,
    holdsRetaken: released,
    ...(waitedForHoldsMs >= 1 ? { waitedForHoldsMs } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(stop ? { stop } : {}),
    ...(endedEarly ? { cancelled: true } : {}),
  };
  req.onProgress?.(result.framesAdvanced);
  return { value: result, cost: sumCosts(costs, started) };
}
