// Reading a growing log file from a cursor: only the bytes written since, at most `maxBytes` of
// them (the newest), cut at entry boundaries (a blank line), never a partial last entry.
//
// The cursor names the file (device, inode, birth time), the byte offset and line number of the
// next unread entry, and a hash of the bytes just before that offset. The file is treated as
// restarted, and read from its start, when its identity changed (replaced), it is shorter than
// the offset (truncated), or the bytes before the offset changed: a restarted game that reopens
// the same file with truncation keeps the inode and may already have written past the offset.

import { open, type FileHandle } from 'node:fs/promises';

import { Errors } from './errors.js';
import type { LogBlock } from './player-log-parse.js';

export interface LogCursor {
  dev: string;
  ino: string;
  /** Birth time in ns ('0' where the file system has none). */
  birth: string;
  offset: number;
  /** 1-based line number at `offset`. */
  line: number;
  /** Hash of the (up to) TAIL_BYTES bytes before `offset`. */
  tail: string;
}

export interface LogChunk {
  blocks: LogBlock[];
  /** Where the next read starts: after the last complete entry. */
  cursor: LogCursor;
  restarted: boolean;
  /** Bytes read from the file for entries (not counting the restart check). */
  bytes: number;
  /** New bytes left out because more than maxBytes were new (older entries skipped). */
  omittedBytes: number;
  fileSize: number;
}

const TAIL_BYTES = 64;
const CURSOR_PREFIX = 'plog1.';
const COUNT_CHUNK = 1 << 20;
const NL = 0x0a;
const CR = 0x0d;

export function encodeCursor(c: LogCursor): string {
  const text = [c.dev, c.ino, c.birth, c.offset, c.line, c.tail].join(':');
  return CURSOR_PREFIX + Buffer.from(text, 'utf8').toString('base64url');
}

/** Throws INVALID_ARGUMENT for anything that is not a cursor this module made. */
export function decodeCursor(s: string): LogCursor {
  const bad = () =>
    Errors.invalidArgument(
      `since ${JSON.stringify(s.slice(0, 40))} is not a cursor from a previous logs result; omit it to read the whole log`,
    );
  if (!s.startsWith(CURSOR_PREFIX)) throw bad();
  const fields = Buffer.from(s.slice(CURSOR_PREFIX.length), 'base64url')
    .toString('utf8')
    .split(':');
  if (fields.length !== 6) throw bad();
  const [dev, ino, birth, offset, line, tail] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const digits = /^\d+$/;
  if (![dev, ino, birth, offset, line].every((x) => digits.test(x)) || !/^[0-9a-f]{8}$/.test(tail))
    throw bad();
  const c = { dev, ino, birth, offset: Number(offset), line: Number(line), tail };
  if (!Number.isSafeInteger(c.offset) || !Number.isSafeInteger(c.line) || c.line < 1) throw bad();
  return c;
}

/** Reads what was written after `since` (the whole file without it), bounded by `maxBytes`. */
export async function readLogChunk(
  path: string,
  since: LogCursor | undefined,
  maxBytes: number,
): Promise<LogChunk> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat({ bigint: true });
    const id = { dev: st.dev.toString(), ino: st.ino.toString(), birth: st.birthtimeNs.toString() };
    const size = Number(st.size);
    let from = { offset: 0, line: 1 };
    let restarted = false;
    if (since) {
      if (await sameContent(fh, id, size, since)) from = since;
      else restarted = true;
    }
    const chunk = await readFrom(fh, from, size, maxBytes);
    const cursor: LogCursor = {
      ...id,
      offset: chunk.end.offset,
      line: chunk.end.line,
      tail: await tailHash(fh, chunk.end.offset),
    };
    return {
      blocks: chunk.blocks,
      cursor,
      restarted,
      bytes: chunk.bytes,
      omittedBytes: chunk.omittedBytes,
      fileSize: size,
    };
  } finally {
    await fh.close();
  }
}

async function sameContent(
  fh: FileHandle,
  id: { dev: string; ino: string; birth: string },
  size: number,
  c: LogCursor,
): Promise<boolean> {
  if (id.dev !== c.dev || id.ino !== c.ino) return false;
  if (id.birth !== '0' && c.birth !== '0' && id.birth !== c.birth) return false;
  if (size < c.offset) return false;
  return (await tailHash(fh, c.offset)) === c.tail;
}

async function tailHash(fh: FileHandle, offset: number): Promise<string> {
  const start = Math.max(0, offset - TAIL_BYTES);
  const buf = Buffer.alloc(offset - start);
  const { bytesRead } = await fh.read(buf, 0, buf.length, start);
  return fnv1a(buf.subarray(0, bytesRead));
}

function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

interface Position {
  offset: number;
  line: number;
}

async function readFrom(
  fh: FileHandle,
  from: Position,
  size: number,
  maxBytes: number,
): Promise<{ blocks: LogBlock[]; end: Position; bytes: number; omittedBytes: number }> {
  const cut = size - from.offset > maxBytes;
  // when cut, one byte more is read so that a blank line right at the window's start is seen
  const readStart = cut ? size - maxBytes - 1 : from.offset;
  const buf = Buffer.alloc(size - readStart);
  const { bytesRead } = await fh.read(buf, 0, buf.length, readStart);
  const data = buf.subarray(0, bytesRead);
  let start = 0;
  let startLine = from.line;
  if (cut) {
    const boundary = firstBlockBoundary(data);
    if (boundary === undefined) {
      // no entry ends in the window: nothing is complete yet, keep the cursor where it was
      return { blocks: [], end: from, bytes: data.length, omittedBytes: 0 };
    }
    start = boundary;
    startLine += (await countNewlines(fh, from.offset, readStart)) + countIn(data, 0, start);
  }
  const { blocks, endIndex, endLine } = splitBlocks(
    data,
    start,
    startLine,
    readStart + start === 0,
  );
  return {
    blocks,
    end: { offset: readStart + endIndex, line: endLine },
    bytes: data.length,
    omittedBytes: readStart + start - from.offset,
  };
}

/** The index after the first blank line (`\n\n` or `\n\r\n`). */
function firstBlockBoundary(data: Buffer): number | undefined {
  for (let i = data.indexOf(NL); i !== -1 && i < data.length; i = data.indexOf(NL, i + 1)) {
    if (data[i + 1] === NL) return i + 2;
    if (data[i + 1] === CR && data[i + 2] === NL) return i + 3;
  }
  return undefined;
}

/**
 * Complete blocks from `start`: lines ending in `\n`, split at blank lines; what follows the last
 * blank line (an entry being written) is left for the next read.
 */
export function splitBlocks(
  data: Buffer,
  start: number,
  startLine: number,
  atFileStart: boolean,
): { blocks: LogBlock[]; endIndex: number; endLine: number } {
  const blocks: LogBlock[] = [];
  let current: LogBlock | undefined;
  let blankBefore = false;
  let endIndex = start;
  let line = startLine;
  let endLine = startLine;
  let pos = start;
  // a BOM is not part of the first line
  if (atFileStart && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) pos = 3;
  let first = atFileStart;
  for (let nl = data.indexOf(NL, pos); nl !== -1; nl = data.indexOf(NL, pos)) {
    const textEnd = nl > pos && data[nl - 1] === CR ? nl - 1 : nl;
    if (textEnd === pos) {
      if (current) blocks.push(current);
      current = undefined;
      blankBefore = true;
      first = false;
      endIndex = nl + 1;
      endLine = line + 1;
    } else {
      current ??= { line, lines: [], blankBefore, atFileStart: first };
      current.lines.push(data.toString('utf8', pos, textEnd));
      blankBefore = false;
      first = false;
    }
    line++;
    pos = nl + 1;
  }
  return { blocks, endIndex, endLine };
}

function countIn(data: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = data.indexOf(NL, from); i !== -1 && i < to; i = data.indexOf(NL, i + 1)) n++;
  return n;
}

/** Newlines in [from, to) of the file, read in bounded chunks (line numbers of a cut read). */
async function countNewlines(fh: FileHandle, from: number, to: number): Promise<number> {
  const buf = Buffer.alloc(Math.min(COUNT_CHUNK, Math.max(0, to - from)));
  let n = 0;
  for (let pos = from; pos < to;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, to - pos), pos);
    if (bytesRead === 0) break;
    n += countIn(buf, 0, bytesRead);
    pos += bytesRead;
  }
  return n;
}
