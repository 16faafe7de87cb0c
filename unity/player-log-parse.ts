// Player.log text to entries. Unity (and the fixture, fixtures/src/FixtureEngine/PlayerLog.cs)
// writes each Debug.Log* entry as its message line(s), its stack lines, then a blank line; the
// file starts with engine lines that have no blank line after them, so the first entry shares
// their block. Unity does not write the level, so it is inferred, and where it cannot be known
// the entry says 'unknown'. The rules, in order:
//
// 1. A `UnityEngine.Debug:<Method>` frame in the stack (Unity's native stack format, e.g.
//    `UnityEngine.Debug:LogWarning (object)`; the first such frame counts) gives the level by the
//    method: Log/LogFormat → log; LogWarning(Format) → warning; LogError(Format) → error;
//    LogException → exception; LogAssertion(Format), Assert(Format) → assert.
// 2. Otherwise `UnityEngine.Logger:LogWarning/LogError/LogException` (Debug.unityLogger) does the
//    same; `Logger:Log` takes the level as an argument, so it decides nothing.
// 3. Otherwise a message that starts `<Name>Exception: ` is an exception (an uncaught one, whose
//    stack is the exception's own, or Debug.LogException, whose stack the fixture leaves empty
//    when the exception was never thrown).
// 4. Otherwise 'unknown': entries with no managed stack (engine messages, a build or
//    Application.SetStackTraceLogType that logs no stack), custom log handlers.
//
// Framing limits, also unknowable from the file: a message that itself contains a blank line
// becomes two entries (the part before is 'unknown' unless rule 3 matches it); engine lines
// printed right before an entry without a blank line join that entry's message, except in the
// file's first block, where the message is taken to be the one line before the stack and the
// engine header above it becomes its own 'unknown' entry. A lone `(Filename: <file> Line: <n>)`
// block, which Unity writes after some entries, belongs to the entry before it and is dropped.

export type LogLevel = 'error' | 'assert' | 'warning' | 'log' | 'exception';

export interface LogEntry {
  level: LogLevel | 'unknown';
  message: string;
  stackTrace?: string;
  /** 1-based line in the file where the entry starts. */
  line: number;
}

/** Lines between blank lines, as read from the file. */
export interface LogBlock {
  /** 1-based line of the block's first line. */
  line: number;
  lines: string[];
  /** A blank line directly precedes the block in what was read (an empty message, maybe). */
  blankBefore: boolean;
  /** The block starts the file (the engine header is in it). */
  atFileStart: boolean;
}

/** A type name as Unity prints it: spaces only inside generic arguments. */
const TYPE = String.raw`[\w<][^\s():<]*(?:<[^()]*?>[^\s():<]*)*`;
const METHOD = String.raw`[\w<>\x60$|.]+(?:<[^()]*>)? ?\([^()]*\)`;
/** `Type:Method (args)` with an optional `(at file:line)`: Unity's native frame format. */
const NATIVE_FRAME = new RegExp(String.raw`^${TYPE}:${METHOD}(?:\s*\(at .*\))?\s*$`);
/** `  at Type.Method (args) [0x00000] in <file>:0`: Mono's exception stack format. */
const MONO_FRAME = /^\s+at \S/;
/** `Type.Method (args) (at file:line)`: Unity's format of an exception's own frames. */
const MANAGED_FRAME = new RegExp(String.raw`^${TYPE}\.${METHOD}\s*\(at .*\)\s*$`);
const DEBUG_FRAME = /^UnityEngine\.Debug:(\w+)/;
const LOGGER_FRAME = /^UnityEngine\.Logger:(\w+)/;
const EXCEPTION_MESSAGE = /^(?:[A-Za-z_][\w`]*\.)*(?:[A-Za-z_][\w`]*)?Exception: /;
const FILENAME_TRAILER = /^\(Filename: .* Line: -?\d+\)\s*$/;

const DEBUG_METHODS: Readonly<Record<string, LogLevel>> = {
  Log: 'log',
  LogFormat: 'log',
  LogWarning: 'warning',
  LogWarningFormat: 'warning',
  LogError: 'error',
  LogErrorFormat: 'error',
  LogException: 'exception',
  LogAssertion: 'assert',
  LogAssertionFormat: 'assert',
  Assert: 'assert',
  AssertFormat: 'assert',
};

const LOGGER_METHODS: Readonly<Record<string, LogLevel>> = {
  LogWarning: 'warning',
  LogError: 'error',
  LogException: 'exception',
};

/** A line that can start a stack (the first line of a block is the message, see isEmptyMessage). */
export function isStackLine(line: string): boolean {
  return NATIVE_FRAME.test(line) || MONO_FRAME.test(line) || MANAGED_FRAME.test(line);
}

/** The level an entry's message and stack show (rules 1-4 above). */
export function inferLevel(message: string, stack: readonly string[]): LogLevel | 'unknown' {
  for (const frame of stack) {
    const m = DEBUG_FRAME.exec(frame);
    const level = m ? DEBUG_METHODS[m[1]!] : undefined;
    if (level) return level;
  }
  for (const frame of stack) {
    const m = LOGGER_FRAME.exec(frame);
    const level = m ? LOGGER_METHODS[m[1]!] : undefined;
    if (level) return level;
  }
  if (EXCEPTION_MESSAGE.test(message)) return 'exception';
  return 'unknown';
}

/** Entries of complete blocks, in file order. */
export function parseBlocks(blocks: readonly LogBlock[]): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const block of blocks) {
    const { lines } = block;
    if (lines.length === 0) continue;
    if (lines.length === 1 && FILENAME_TRAILER.test(lines[0]!)) continue;
    const s = stackStart(lines);
    if (s === -1) {
      entries.push(entry(lines.join('\n'), [], block.line));
      continue;
    }
    if (s === 0) {
      // Debug.Log(""): the empty message was the blank line before the stack
      entries.push(entry('', lines, block.blankBefore ? block.line - 1 : block.line));
      continue;
    }
    let first = 0;
    if (block.atFileStart && s > 1) {
      entries.push({
        level: 'unknown',
        message: lines.slice(0, s - 1).join('\n'),
        line: block.line,
      });
      first = s - 1;
    }
    entries.push(entry(lines.slice(first, s).join('\n'), lines.slice(s), block.line + first));
  }
  return entries;
}

function stackStart(lines: readonly string[]): number {
  // Only an engine frame can open a block (an empty message); any other first line is a message.
  if (lines[0]!.startsWith('UnityEngine.') && NATIVE_FRAME.test(lines[0]!)) return 0;
  for (let i = 1; i < lines.length; i++) if (isStackLine(lines[i]!)) return i;
  return -1;
}

function entry(message: string, stack: readonly string[], line: number): LogEntry {
  const e: LogEntry = { level: inferLevel(message, stack), message, line };
  if (stack.length > 0) e.stackTrace = stack.join('\n');
  return e;
}
