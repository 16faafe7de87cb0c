// Screenshots of the game, by one of two methods (unity-surface.md §3):
// - capture-file: ScreenCapture.CaptureScreenshot(path) is queued in the game, which writes the
//   PNG after its next frame has rendered; we poll for the file. Full fidelity (UI included), but
//   the game must be running and share our file system, so: loopback and not held.
// - render-texture: Camera.main is rendered into a temporary RenderTexture, read back into a
//   Texture2D, encoded with ImageConversion.EncodeToPNG and sent back as base64, in one program
//   of main-thread invokes. Works on a held game (which renders nothing) and on a remote one;
//   misses overlay UI and whatever Camera.main does not draw.
// The PNG is then shrunk here (area average) to fit max_size and re-encoded.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { EvalError, type EvaluateOptions, type EvaluateResult } from '../eval/index.js';
import { readString } from '../sdb-protocol/index.js';
import { Errors, UnityError, messageOf } from './errors.js';
import { evaluateInGame, evaluateInSession, runBound } from './eval-bridge/evaluate-in-session.js';
import { decodePng, encodePng, fitWithin, PngError, scaleArea } from './png/index.js';
import {
  sumCosts,
  type GameSession,
  type OperationCost,
  type OperationResult,
} from './session/session.js';

export type ScreenshotMethod = 'capture-file' | 'render-texture';

export interface ScreenshotOptions {
  caller: string;
  /** Longest edge of the result after scaling, in pixels (default 1024, 16-16384; never upscales). */
  maxSize?: number;
  /** Force a method; default 'auto' (capture-file on loopback when nobody holds the game). */
  method?: 'auto' | ScreenshotMethod;
}

export interface Screenshot {
  /** The (possibly scaled) PNG, 8-bit RGB or RGBA. */
  png: Buffer;
  width: number;
  height: number;
  /** What the game rendered. */
  sourceWidth: number;
  sourceHeight: number;
  method: ScreenshotMethod;
}

export const DEFAULT_MAX_SIZE = 1024;
export const MIN_MAX_SIZE = 16;
/** Unity's largest texture edge: a larger bound means nothing. */
export const MAX_MAX_SIZE = 16384;
/** How long the game gets to write a queued capture (it needs one rendered frame). */
export const CAPTURE_TIMEOUT_MS = 5000;

/** Our own programs: no `_`, `world`, `em` builtins to look up. */
const EVAL_OPTIONS: EvaluateOptions = { builtins: new Map(), functions: new Map() };

export async function takeScreenshot(
  session: GameSession,
  opts: ScreenshotOptions,
): Promise<OperationResult<Screenshot>> {
  const started = performance.now();
  const maxSize = checkMaxSize(opts.maxSize);
  const costs: OperationCost[] = [];
  const choice = await chooseMethod(session, opts, costs);
  const png =
    choice.method === 'capture-file'
      ? await captureFile(session, opts.caller, costs)
      : await renderTexture(session, opts.caller, maxSize, choice.why, costs);
  const shot = shrink(png, maxSize, choice.method);
  return { value: shot, cost: sumCosts(costs, started) };
}

export function checkMaxSize(maxSize: number | undefined): number {
  if (maxSize === undefined) return DEFAULT_MAX_SIZE;
  if (!Number.isInteger(maxSize) || maxSize < MIN_MAX_SIZE || maxSize > MAX_MAX_SIZE) {
    throw Errors.invalidArgument(
      `max_size must be an integer from ${MIN_MAX_SIZE} to ${MAX_MAX_SIZE} (the longest edge of the image in pixels; a smaller game image is never enlarged), got ${maxSize}`,
    );
  }
  return maxSize;
}

/** Why render-texture was chosen, for the messages of its failures. */
type RenderReason = 'held' | 'remote' | 'asked';

async function chooseMethod(
  session: GameSession,
  opts: ScreenshotOptions,
  costs: OperationCost[],
): Promise<{ method: ScreenshotMethod; why: RenderReason }> {
  let status = session.status();
  if (!status.attached || status.endpoint === undefined) {
    // where the game runs is known once attached; attaching sends no command of its own
    costs.push((await session.run('screenshot', opts.caller, noop, { window: false })).cost);
    status = session.status();
  }
  const holders = status.holds.map((h) => h.caller);
  const asked = opts.method ?? 'auto';
  if (asked === 'render-texture') return { method: asked, why: 'asked' };
  if (holders.length > 0) {
    if (asked === 'capture-file') {
      throw Errors.invalidArgument(
        `capture-file needs a running game, and the game is held by ${holders.join(', ')} (a held game renders nothing): release the hold, or use render-texture`,
      );
    }
    return { method: 'render-texture', why: 'held' };
  }
  if (asked === 'capture-file' || isLoopbackEndpoint(status.endpoint ?? '')) {
    return { method: 'capture-file', why: 'asked' };
  }
  return { method: 'render-texture', why: 'remote' };
}

async function noop(): Promise<void> {}

/** `host:port` (as the session writes endpoints) names this machine's loopback interface. */
export function isLoopbackEndpoint(endpoint: string): boolean {
  const colon = endpoint.lastIndexOf(':');
  const host = (colon < 0 ? endpoint : endpoint.slice(0, colon)).replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    /^::ffff:127\.\d+\.\d+\.\d+$/i.test(host)
  );
}

// ---------------------------------------------------------------------------------------------
// capture-file

/** The C# that queues a capture to `file` (a verbatim string: only `"` needs escaping). */
export function captureProgram(file: string): string {
  return `ScreenCapture.CaptureScreenshot(@"${file.replace(/"/g, '""')}")`;
}

async function captureFile(
  session: GameSession,
  caller: string,
  costs: OperationCost[],
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'unity-devtools-screenshot-'));
  const file = path.join(dir, 'screenshot.png');
  let timedOut = false;
  try {
    const r = await evaluateInSession(session, caller, captureProgram(file)).catch((e: unknown) => {
      throw lacking('capture-file', e);
    });
    costs.push(r.cost);
    throwIfException(r.value, 'queueing ScreenCapture.CaptureScreenshot');
    const png = await waitForPng(file, CAPTURE_TIMEOUT_MS);
    if (png) return png;
    timedOut = true;
    const holders = session.status().holds.map((h) => h.caller);
    throw new UnityError(
      'TIMEOUT',
      `the game did not write the screenshot within ${CAPTURE_TIMEOUT_MS} ms of queueing ScreenCapture.CaptureScreenshot("${file}"). ` +
        (holders.length > 0
          ? `The game was held meanwhile (by ${holders.join(', ')}), and a held game renders nothing: take the screenshot while holding and it is rendered from Camera.main instead, or release the hold and try again.`
          : `It writes the file after its next rendered frame: check that it is running (not stopped at a breakpoint, not loading) and that it can write to ${os.tmpdir()} on this machine (a game in a container or under another user cannot). ` +
            'To capture anyway, hold the game first (suspend): a held game is captured by rendering Camera.main into a texture, which needs no shared disk.'),
      { details: { timeoutMs: CAPTURE_TIMEOUT_MS, file } },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
    // the queued capture may still land later and recreate the folder: remove it again then
    if (timedOut) {
      setTimeout(() => void rm(dir, { recursive: true, force: true }), 30_000).unref();
    }
  }
}

/** Polls until `file` holds a whole PNG (a writer may be midway), or the bound passes. */
export async function waitForPng(file: string, timeoutMs: number): Promise<Buffer | undefined> {
  const deadline = performance.now() + timeoutMs;
  let delay = 10;
  for (;;) {
    const bytes = await readFile(file).catch((e: unknown) => {
      if ((e as { code?: string }).code === 'ENOENT') return undefined;
      throw new UnityError('INTERNAL', `cannot read the screenshot ${file}: ${messageOf(e)}`, {
        cause: e,
      });
    });
    if (bytes && isCompletePng(bytes)) return bytes;
    if (performance.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(50, Math.round(delay * 1.5));
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** An empty IEND chunk: length 0, "IEND", its CRC. */
const IEND_CHUNK = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** Starts like a PNG and ends with its IEND chunk: the writer has finished. */
export function isCompletePng(bytes: Buffer): boolean {
  return (
    bytes.length >= PNG_SIGNATURE.length + IEND_CHUNK.length &&
    bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE) &&
    bytes.subarray(bytes.length - IEND_CHUNK.length).equals(IEND_CHUNK)
  );
}

// ---------------------------------------------------------------------------------------------
// render-texture

/**
 * Renders Camera.main at the screen's size, capped so its longest edge is at most `limit`,
 * into a temporary RenderTexture and returns the PNG as base64. The evaluator has no
 * try/finally, so each piece of state is restored right after its use: the camera's target
 * straight after Render, RenderTexture.active straight after ReadPixels. `cam.targetTexture` is
 * read first so that a missing camera fails before anything changed.
 */
export function renderTextureProgram(limit: number): string {
  return [
    'var cam = Camera.main',
    'var prevTarget = cam.targetTexture',
    'var sw = Screen.width',
    'var sh = Screen.height',
    'var longest = sw > sh ? sw : sh',
    `var w0 = longest <= ${limit} ? sw : (sw * ${limit} + longest / 2) / longest`,
    `var h0 = longest <= ${limit} ? sh : (sh * ${limit} + longest / 2) / longest`,
    'var w = w0 < 1 ? 1 : w0',
    'var h = h0 < 1 ? 1 : h0',
    'var rt = RenderTexture.GetTemporary(w, h, 24)',
    'cam.targetTexture = rt',
    'cam.Render()',
    'cam.targetTexture = prevTarget',
    'var prevActive = RenderTexture.active',
    'RenderTexture.active = rt',
    'var tex = new Texture2D(w, h, TextureFormat.RGB24, false)',
    'tex.ReadPixels(new Rect(0, 0, w, h), 0, 0)',
    'tex.Apply()',
    'RenderTexture.active = prevActive',
    'RenderTexture.ReleaseTemporary(rt)',
    'var png = ImageConversion.EncodeToPNG(tex)',
    'UnityEngine.Object.Destroy(tex)',
    'Convert.ToBase64String(png)',
  ].join('; ');
}

/** What the NullReferenceException of `cam.targetTexture` says when Camera.main is null. */
const NO_CAMERA_HINT = "'cam' is null";

async function renderTexture(
  session: GameSession,
  caller: string,
  maxSize: number,
  why: RenderReason,
  costs: OperationCost[],
): Promise<Buffer> {
  // rendered at up to twice the final size, so the shrink here has pixels to average
  const source = renderTextureProgram(Math.min(MAX_MAX_SIZE, maxSize * 2));
  const r = await runBound(
    session,
    caller,
    source,
    EVAL_OPTIONS,
    'screenshot (render-texture)',
    async (ctx) => {
      const result = await evaluateInGame(ctx, source, EVAL_OPTIONS, false);
      if (result.kind !== 'value' || result.value.kind !== 'string') return { result };
      const v = result.value;
      // the string is read inside the window: once the game runs, its id may be collected
      const base64 = v.text ?? (v.ref ? (await readString(ctx.conn, v.ref.id)).text : '');
      return { result, base64 };
    },
  ).catch((e: unknown) => {
    throw lacking('render-texture', e);
  });
  costs.push(r.cost);
  const { result, base64 } = r.value;
  if (result.kind === 'exception' && result.hint === NO_CAMERA_HINT) throw noCamera(why);
  throwIfException(
    result,
    'rendering Camera.main into a texture (Camera.main.targetTexture and RenderTexture.active may need restoring)',
  );
  if (base64 === undefined) {
    throw new UnityError(
      'INTERNAL',
      `the render-texture program returned ${result.kind === 'value' ? result.type : result.kind}, not the PNG`,
    );
  }
  return Buffer.from(base64, 'base64');
}

function noCamera(why: RenderReason): UnityError {
  const instead =
    why === 'held'
      ? 'Release the hold so the screen itself is captured (ScreenCapture), or tag a camera "MainCamera"'
      : why === 'remote'
        ? 'Run the game on this machine so the screen itself can be captured (ScreenCapture), or tag a camera "MainCamera"'
        : 'Let the screen itself be captured (method capture-file), or tag a camera "MainCamera"';
  return new UnityError(
    'UNSUPPORTED',
    `the game has no main camera (Camera.main is null: no enabled camera is tagged "MainCamera"), so there is nothing to render into a texture. ${instead}`,
  );
}

// ---------------------------------------------------------------------------------------------
// shared

function throwIfException(result: EvaluateResult, doing: string): void {
  if (result.kind !== 'exception') return;
  throw new UnityError('GAME_EXCEPTION', `${result.type}: ${result.message} (while ${doing})`, {
    details: { type: result.type, message: result.message, stackTrace: result.stackTrace },
  });
}

/** A program of ours the game refuses: it lacks a Unity API the method needs. */
function lacking(method: ScreenshotMethod, e: unknown): Error {
  if (!(e instanceof Error)) return new UnityError('INTERNAL', messageOf(e), { cause: e });
  // a program the evaluator refuses here names what this game lacks (a type, a member)
  if (!(e instanceof UnityError) || !(e.cause instanceof EvalError)) return e;
  return new UnityError(
    'UNSUPPORTED',
    `this game lacks what a ${method} screenshot needs: ${e.message}${
      method === 'capture-file'
        ? '. Hold the game first (suspend): a held game is captured by rendering Camera.main instead'
        : ''
    }`,
    { cause: e, ...(e.details ? { details: e.details } : {}) },
  );
}

function shrink(png: Buffer, maxSize: number, method: ScreenshotMethod): Screenshot {
  let decoded;
  try {
    decoded = decodePng(png);
  } catch (e) {
    if (!(e instanceof PngError)) throw e;
    throw new UnityError(
      e.kind === 'unsupported' ? 'UNSUPPORTED' : 'INTERNAL',
      `the game's screenshot (${method}, ${png.length} bytes) cannot be read: ${e.message}`,
      { cause: e },
    );
  }
  const size = fitWithin(decoded.width, decoded.height, maxSize);
  const image = scaleArea(decoded, size.width, size.height);
  return {
    png: encodePng(image),
    width: image.width,
    height: image.height,
    sourceWidth: decoded.width,
    sourceHeight: decoded.height,
    method,
  };
}
