// Screenshots of the fixture game by both methods: capture-file while it runs (ScreenCapture
// writes the PNG after the next rendered frame) and render-texture while it is held (Camera.main
// rendered into a texture through main-thread invokes), scaled here to max_size.

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { evaluateInSession } from '../unity/eval-bridge/evaluate-in-session.js';
import { decodePng, fitWithin, type RgbaImage } from '../unity/png/index.js';
import { takeScreenshot, type Screenshot } from '../unity/screenshot.js';
import { GameSession } from '../unity/session/session.js';
import { refusal } from '../unity/testing/errors.js';

let fixture: FixtureProcess;
let session: GameSession;
let screen: { width: number; height: number };

beforeAll(async () => {
  fixture = await startFixture({ entities: 200 });
  session = new GameSession();
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
  screen = { width: await int('Screen.width'), height: await int('Screen.height') };
});

afterAll(async () => {
  await session?.shutdown();
  await fixture?.stop();
});

async function eval_(source: string): Promise<string> {
  const r = await evaluateInSession(session, 'test', source);
  if (r.value.kind !== 'value') throw new Error(`${source}: ${JSON.stringify(r.value)}`);
  return r.value.text;
}

async function int(source: string): Promise<number> {
  return Number(await eval_(source));
}

function image(shot: Screenshot): RgbaImage {
  const img = decodePng(shot.png);
  expect([img.width, img.height]).toEqual([shot.width, shot.height]);
  return img;
}

function colours(img: RgbaImage): number {
  const seen = new Set<number>();
  for (let i = 0; i < img.data.length; i += 4) {
    seen.add((img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!);
  }
  return seen.size;
}

/** Share of a's non-background pixels that are non-background in b (b read upside down if asked). */
function overlap(a: RgbaImage, b: RgbaImage, upsideDown = false): number {
  const bg = (d: Uint8Array, i: number) =>
    d[i] === a.data[0] && d[i + 1] === a.data[1] && d[i + 2] === a.data[2];
  let drawn = 0;
  let both = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (bg(a.data, (y * a.width + x) * 4)) continue;
      drawn++;
      const yb = upsideDown ? a.height - 1 - y : y;
      if (!bg(b.data, (yb * a.width + x) * 4)) both++;
    }
  }
  return both / drawn;
}

/** Runs `fn` with os.tmpdir() pointing at a fresh folder; returns what was left in it. */
async function inOwnTmpdir(fn: () => Promise<void>): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'screenshot-it-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await fn();
    return await readdir(dir);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    await rm(dir, { recursive: true, force: true });
  }
}

describe('capture-file (the game runs on loopback, nobody holds it)', () => {
  it('returns the rendered screen at the game’s size, with the frame drawn', async () => {
    let shot: Screenshot | undefined;
    const left = await inOwnTmpdir(async () => {
      shot = (await takeScreenshot(session, { caller: 'test' })).value;
    });
    expect(left).toEqual([]); // the temp folder is gone
    expect(shot!.method).toBe('capture-file');
    expect(screen).toEqual({ width: 320, height: 180 }); // the fixture's default
    expect([shot!.sourceWidth, shot!.sourceHeight]).toEqual([screen.width, screen.height]);
    expect([shot!.width, shot!.height]).toEqual([screen.width, screen.height]); // fits 1024
    // background, entity dots, one colour per GameObject square, the spinner's line
    expect(colours(image(shot!))).toBeGreaterThan(10);
  });

  it('scales to max_size on the longest edge, keeping the aspect ratio', async () => {
    const r = await takeScreenshot(session, { caller: 'test', maxSize: 100 });
    const expected = fitWithin(screen.width, screen.height, 100);
    expect(expected).toEqual({ width: 100, height: 56 });
    expect([r.value.width, r.value.height]).toEqual([expected.width, expected.height]);
    expect([r.value.sourceWidth, r.value.sourceHeight]).toEqual([screen.width, screen.height]);
    expect(colours(image(r.value))).toBeGreaterThan(10);
    // one invoke (CaptureScreenshot); the game is not held while the file is awaited
    expect(r.cost.invokes).toBe(1);
    expect(session.status().holds).toEqual([]);
  });

  it('refuses a max_size of 0 or 100000 before touching the game', async () => {
    for (const maxSize of [0, 100_000]) {
      const e = await refusal(takeScreenshot(session, { caller: 'test', maxSize }));
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.message).toMatch(/max_size must be an integer from 16 to 16384/);
    }
  });
});

/** Runs `fn` with the game held by 'test'; the hold is released on every path. */
async function whileHeld<T>(fn: () => Promise<T>): Promise<T> {
  await session.hold('test');
  try {
    return await fn();
  } finally {
    await session.release('test');
  }
}

describe('render-texture (the game is held)', () => {
  it('renders Camera.main while held, leaves the hold in place, and the game runs on after release', async () => {
    const frame = await whileHeld(async () => {
      const before = await int('Time.frameCount');
      const r = await takeScreenshot(session, { caller: 'test' });
      expect(r.value.method).toBe('render-texture');
      expect([r.value.sourceWidth, r.value.sourceHeight]).toEqual([screen.width, screen.height]);
      expect(colours(image(r.value))).toBeGreaterThan(10);
      expect(r.cost.invokes).toBeGreaterThan(1);
      // still held, by the same caller, once; no frame ran
      expect(session.status().holds).toEqual([{ caller: 'test', count: 1 }]);
      expect(await int('Time.frameCount')).toBe(before);
      // what the program borrowed is given back
      expect(await eval_('Camera.main.targetTexture == null')).toBe('True');
      expect(await eval_('RenderTexture.active == null')).toBe('True');
      return before;
    });
    let later = frame;
    for (let i = 0; i < 200 && later <= frame; i++) later = await int('Time.frameCount');
    expect(later).toBeGreaterThan(frame);
  });

  it('shows the same scene as capture-file, the same way up', async () => {
    const captured = image((await takeScreenshot(session, { caller: 'test' })).value);
    const rendered = await whileHeld(async () =>
      image((await takeScreenshot(session, { caller: 'test' })).value),
    );
    // GameObject squares stand still; entity dots move a little between the two frames
    expect(overlap(captured, rendered)).toBeGreaterThan(0.8);
    expect(overlap(captured, rendered, true)).toBeLessThan(0.3);
  });

  it('scales its render too', async () => {
    const r = await whileHeld(() => takeScreenshot(session, { caller: 'test', maxSize: 160 }));
    expect(r.value.method).toBe('render-texture');
    expect([r.value.width, r.value.height]).toEqual([160, 90]);
    expect(colours(image(r.value))).toBeGreaterThan(10);
  });

  it('also works on a running game (as for a remote one), which it leaves running', async () => {
    const frame = await int('Time.frameCount');
    const r = await takeScreenshot(session, { caller: 'test', method: 'render-texture' });
    expect(r.value.method).toBe('render-texture');
    expect([r.value.width, r.value.height]).toEqual([screen.width, screen.height]);
    expect(colours(image(r.value))).toBeGreaterThan(10);
    expect(session.status().holds).toEqual([]);
    let later = frame;
    for (let i = 0; i < 200 && later <= frame; i++) later = await int('Time.frameCount');
    expect(later).toBeGreaterThan(frame);
  });

  it('says clearly when the game has no main camera', async () => {
    const e = await whileHeld(async () => {
      try {
        await eval_('GameObject.Find("Main Camera").tag = "Untagged"');
        return await refusal(takeScreenshot(session, { caller: 'test' }));
      } finally {
        await eval_('GameObject.Find("Main Camera").tag = "MainCamera"');
      }
    });
    expect(e.code).toBe('UNSUPPORTED');
    expect(e.message).toMatch(/no main camera .*Release the hold/);
    expect((await takeScreenshot(session, { caller: 'test' })).value.method).toBe('capture-file');
  });

  it('will not wait for a file from a held game', async () => {
    const e = await whileHeld(() =>
      refusal(takeScreenshot(session, { caller: 'test', method: 'capture-file' })),
    );
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toMatch(/held by test .*release the hold, or use render-texture/);
  });
});
