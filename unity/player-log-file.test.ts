import { appendFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { UnityError } from './errors.js';
import { decodeCursor, encodeCursor, readLogChunk, type LogChunk } from './player-log-file.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'player-log-file-'));
  file = path.join(dir, 'Player.log');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MAX = 1 << 20;
const HEADER = "Mono path[0] = '/build'\nUnloadTime: 0.4 ms\n";
const entry = (m: string) => `${m}\nUnityEngine.Debug:Log (object)\nBootstrap:Update ()\n\n`;

/** The first line of every block, with its line number. */
function firsts(c: LogChunk): [number, string][] {
  return c.blocks.map((b) => [b.line, b.lines[0]!]);
}

describe('readLogChunk', () => {
  it('reads whole entries and keeps the cursor before a partial last one', async () => {
    await writeFile(file, HEADER + entry('a') + entry('b') + 'c\nUnityEngine.Debug:Log (object)\n');
    const c = await readLogChunk(file, undefined, MAX);
    expect(firsts(c)).toEqual([
      [1, "Mono path[0] = '/build'"],
      [7, 'b'],
    ]);
    expect(c.blocks[0]!.atFileStart).toBe(true);
    expect(c.cursor.offset).toBe(Buffer.byteLength(HEADER + entry('a') + entry('b')));
    expect(c.cursor.line).toBe(11);
    expect(c.restarted).toBe(false);

    await appendFile(file, 'Bootstrap:Update ()\n\n');
    const next = await readLogChunk(file, c.cursor, MAX);
    expect(firsts(next)).toEqual([[11, 'c']]);
    expect(next.blocks[0]!.atFileStart).toBe(false);
    expect(next.bytes).toBe(Buffer.byteLength(entry('c')));
  });

  it('returns nothing and the same cursor when nothing is new', async () => {
    await writeFile(file, HEADER + entry('a'));
    const c = await readLogChunk(file, undefined, MAX);
    const again = await readLogChunk(file, c.cursor, MAX);
    expect(again.blocks).toEqual([]);
    expect(again.bytes).toBe(0);
    expect(encodeCursor(again.cursor)).toBe(encodeCursor(c.cursor));
  });

  it('gives the same entries however the writes were split (every offset)', async () => {
    const text =
      HEADER +
      entry('a') +
      '\n' +
      entry('b') +
      'x é ✓\r\nUnityEngine.Debug:LogError (object)\r\n\r\n';
    const whole = Buffer.from(text);
    await writeFile(file, whole);
    const expected = firsts(await readLogChunk(file, undefined, MAX));
    for (let k = 0; k <= whole.length; k++) {
      await writeFile(file, whole.subarray(0, k));
      const first = await readLogChunk(file, undefined, MAX);
      await appendFile(file, whole.subarray(k));
      const second = await readLogChunk(file, first.cursor, MAX);
      expect(second.restarted).toBe(false);
      expect([...firsts(first), ...firsts(second)]).toEqual(expected);
      expect(second.cursor.offset).toBe(whole.length);
    }
  });

  it('strips CR and a BOM', async () => {
    await writeFile(file, '\uFEFFhead\r\n\r\nm\r\nUnityEngine.Debug:Log (object)\r\n\r\n');
    const c = await readLogChunk(file, undefined, MAX);
    expect(c.blocks.map((b) => b.lines)).toEqual([
      ['head'],
      ['m', 'UnityEngine.Debug:Log (object)'],
    ]);
  });

  it('reads from the start when the file was truncated', async () => {
    await writeFile(file, HEADER + entry('a') + entry('b'));
    const c = await readLogChunk(file, undefined, MAX);
    await truncate(file, 0);
    await appendFile(file, HEADER + entry('new'));
    const r = await readLogChunk(file, c.cursor, MAX);
    expect(r.restarted).toBe(true);
    expect(r.blocks.map((b) => [b.line, b.lines.at(-3)])).toEqual([[1, 'new']]);
  });

  it('reads from the start when a restarted game rewrote the same file past the cursor', async () => {
    await writeFile(file, HEADER + entry('a'));
    const c = await readLogChunk(file, undefined, MAX);
    // same inode, truncated and rewritten longer than before (FileMode.Create, as the fixture does)
    await writeFile(file, HEADER + entry('b') + entry('c') + entry('d'));
    const r = await readLogChunk(file, c.cursor, MAX);
    expect(r.restarted).toBe(true);
    expect(r.blocks.map((b) => b.lines.at(-3))).toEqual(['b', 'c', 'd']);
  });

  it('reads from the start when the file was replaced', async () => {
    await writeFile(file, HEADER + entry('a'));
    const c = await readLogChunk(file, undefined, MAX);
    const other = path.join(dir, 'new.log');
    await writeFile(file + '.keep', 'x'); // keep the old inode from being reused at once
    await writeFile(other, HEADER + entry('a') + entry('b'));
    await rename(other, file);
    const r = await readLogChunk(file, c.cursor, MAX);
    expect(r.restarted).toBe(true);
    expect(r.blocks).toHaveLength(2);
  });

  it('reads only the newest maxBytes, from an entry boundary, with true line numbers', async () => {
    let text = HEADER;
    for (let i = 0; i < 100; i++) text += entry(`m${i}`);
    await writeFile(file, text);
    const size = Buffer.byteLength(text);
    const c = await readLogChunk(file, undefined, 200);
    expect(c.bytes).toBeLessThanOrEqual(201);
    const lines = text.split('\n');
    for (const b of c.blocks) expect(lines[b.line - 1]).toBe(b.lines[0]);
    expect(c.blocks.at(-1)!.lines[0]).toBe('m99');
    expect(c.omittedBytes).toBe(size - c.blocks.length * Buffer.byteLength(entry('m99')));
    expect(c.cursor.offset).toBe(size);
    expect(c.cursor.line).toBe(lines.length);

    // from a cursor too: what is skipped is counted, the cursor line stays true
    const mid = await readLogChunk(file, undefined, MAX);
    await appendFile(file, entry('n0') + entry('n1') + entry('n2'));
    const r = await readLogChunk(file, mid.cursor, Buffer.byteLength(entry('n1')) * 2);
    expect(r.blocks.map((b) => b.lines[0])).toEqual(['n2']);
    expect(r.omittedBytes).toBe(Buffer.byteLength(entry('n0') + entry('n1')));
    expect(r.blocks[0]!.line).toBe(lines.length + 8);
  });

  it('keeps the cursor when no entry ends inside the bound', async () => {
    await writeFile(file, HEADER + entry('a'));
    const c = await readLogChunk(file, undefined, MAX);
    await appendFile(file, 'x'.repeat(1000) + '\n');
    const r = await readLogChunk(file, c.cursor, 100);
    expect(r.blocks).toEqual([]);
    expect(r.omittedBytes).toBe(0);
    expect(r.cursor.offset).toBe(c.cursor.offset);
  });
});

describe('cursors', () => {
  it('round-trip', () => {
    const c = {
      dev: '2049',
      ino: '123456789012345678',
      birth: '0',
      offset: 77,
      line: 9,
      tail: '0badf00d',
    };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
  });

  it.each([
    '',
    'nope',
    'plog1.',
    'plog1.' + Buffer.from('1:2:3:4:5').toString('base64url'),
    'plog1.' + Buffer.from('1:2:3:x:5:0badf00d').toString('base64url'),
    'plog1.' + Buffer.from('1:2:3:4:0:0badf00d').toString('base64url'),
  ])('%j is refused as INVALID_ARGUMENT', (s) => {
    let error: unknown;
    try {
      decodeCursor(s);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnityError);
    expect((error as UnityError).code).toBe('INVALID_ARGUMENT');
  });
});
