import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { UnityError } from './errors.js';
import { encodePng } from './png/index.js';
import {
  captureProgram,
  checkMaxSize,
  isCompletePng,
  isLoopbackEndpoint,
  renderTextureProgram,
  takeScreenshot,
  waitForPng,
} from './screenshot.js';
import type { GameSession } from './session/session.js';

/** A session that fails the test if anything touches it. */
const untouchable = new Proxy({} as GameSession, {
  get: (_t, name) => {
    throw new Error(`the session was used (${String(name)})`);
  },
});

describe('max_size', () => {
  it('defaults to 1024 and accepts 16 to 16384', () => {
    expect(checkMaxSize(undefined)).toBe(1024);
    expect(checkMaxSize(16)).toBe(16);
    expect(checkMaxSize(16384)).toBe(16384);
  });

  it.each([0, 15, -1, 1.5, 16385, 100_000, Number.NaN, Number.POSITIVE_INFINITY])(
    '%s is refused before the game is touched',
    async (maxSize) => {
      const e = await takeScreenshot(untouchable, { caller: 't', maxSize }).catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(UnityError);
      expect((e as UnityError).code).toBe('INVALID_ARGUMENT');
      expect((e as UnityError).message).toMatch(/max_size must be an integer from 16 to 16384/);
    },
  );
});

describe('isLoopbackEndpoint', () => {
  it.each([
    ['127.0.0.1:56000', true],
    ['127.1.2.3:1', true],
    ['localhost:56000', true],
    ['[::1]:56000', true],
    ['::1:56000', true],
    ['::ffff:127.0.0.1:56000', true],
    ['192.168.1.20:56000', false],
    ['10.0.0.127:56000', false],
    ['1270.0.0.1:5', false],
    ['game.local:56000', false],
    ['', false],
  ])('%s → %s', (endpoint, loopback) => {
    expect(isLoopbackEndpoint(endpoint)).toBe(loopback);
  });
});

describe('the programs run in the game', () => {
  it('capture: an absolute path in a verbatim string, quotes doubled', () => {
    expect(captureProgram('/tmp/a b/shot.png')).toBe(
      'ScreenCapture.CaptureScreenshot(@"/tmp/a b/shot.png")',
    );
    expect(captureProgram('C:\\Temp\\x"y\\shot.png')).toBe(
      'ScreenCapture.CaptureScreenshot(@"C:\\Temp\\x""y\\shot.png")',
    );
  });

  it('render: camera checked first, state restored right after each use, base64 last', () => {
    const statements = renderTextureProgram(2048).split('; ');
    expect(statements[0]).toBe('var cam = Camera.main');
    expect(statements[1]).toBe('var prevTarget = cam.targetTexture');
    const at = (s: string) => statements.indexOf(s);
    expect(at('cam.targetTexture = prevTarget')).toBe(at('cam.Render()') + 1);
    expect(at('RenderTexture.active = prevActive')).toBeGreaterThan(at('tex.Apply()'));
    expect(at('RenderTexture.active = prevActive')).toBeLessThan(
      at('RenderTexture.ReleaseTemporary(rt)'),
    );
    expect(statements.at(-1)).toBe('Convert.ToBase64String(png)');
    expect(statements.filter((s) => s.includes('2048'))).toHaveLength(2);
  });
});

describe('isCompletePng', () => {
  const png = encodePng({ width: 3, height: 2, data: new Uint8Array(24).fill(200) });
  it('is true only once the IEND chunk is written', () => {
    expect(isCompletePng(png)).toBe(true);
    for (const n of [0, 8, 20, png.length - 1])
      expect(isCompletePng(png.subarray(0, n))).toBe(false);
    expect(isCompletePng(Buffer.concat([Buffer.from('GIF89a'), png.subarray(6)]))).toBe(false);
  });
});

describe('waitForPng', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const scratch = async () => {
    const d = await mkdtemp(path.join(os.tmpdir(), 'screenshot-test-'));
    dirs.push(d);
    return d;
  };
  const png = encodePng({ width: 2, height: 2, data: new Uint8Array(16).fill(9) });

  it('returns the file once it is whole', async () => {
    const file = path.join(await scratch(), 'a.png');
    await writeFile(file, png);
    expect((await waitForPng(file, 0))?.equals(png)).toBe(true);
  });

  it('gives up at the bound on a missing or half-written file', async () => {
    const dir = await scratch();
    expect(await waitForPng(path.join(dir, 'missing.png'), 0)).toBeUndefined();
    const half = path.join(dir, 'half.png');
    await writeFile(half, png.subarray(0, png.length - 5));
    expect(await waitForPng(half, 0)).toBeUndefined();
  });
});
