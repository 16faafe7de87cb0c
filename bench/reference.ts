// The reference side of the SDB benchmarks: builds and runs bench/reference/RefBench.cs, a console
// program on the reference C# client (Mono.Debugger.Soft.dll), against a debuggee that is already
// listening for a debugger. See bench/reference/README.md.

import { execFile, spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildCSharpProgram } from '../fixtures/csharp-program.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SOURCE_DIR = path.join(BENCH_DIR, 'reference');
const BUILD_ROOT = path.join(BENCH_DIR, '.build');
const EXE_NAME = 'RefBench.exe';

/** The reference client, as installed by Debian's libmono-debugger-soft4.0a-cil. */
export const SDB_DLL = '/usr/lib/mono/4.5/Mono.Debugger.Soft.dll';

const DEFAULT_TIMEOUT_MS = 60_000;
/** RefBench's default --iterations for the session scenario (200 for the others). */
export const SESSION_DEFAULT_ITERATIONS = 30;
/**
 * Default bound per session iteration: one iteration is 4 samples of about 6-7 frames each
 * (≈ 0.45 s at 60 fps); 1 s leaves room for a loaded machine.
 */
const SESSION_TIMEOUT_PER_ITERATION_MS = 1_000;
const COMPILE_TIMEOUT_MS = 120_000;
const STDERR_KEEP_CHARS = 16_000;

export interface RunReferenceOptions {
  /** The debuggee's SDB port on 127.0.0.1 (the agent must be listening: server=y). */
  port: number;
  /** Scenario name: "info", "wire" or "session" (see the Scenarios table in RefBench.cs). */
  scenario: string;
  /** Timed iterations per row (RefBench default 200; for "session", samples per row, default 30). */
  iterations?: number;
  /** Bursts to average for burst rows (RefBench default min(iterations, 10)). */
  burstIterations?: number;
  /** Untimed calls before each light row (RefBench default 50). */
  warmup?: number;
  /**
   * Upper bound for the whole run, default 60 s (for "session": the larger of 60 s and 30 s + 1 s
   * per iteration). RefBench's own watchdog fires a little earlier
   * (timeoutMs minus min(5 s, timeoutMs/4)) so it can resume and detach cleanly; at timeoutMs the
   * process is killed by pid.
   */
  timeoutMs?: number;
}

export interface ReferenceResult {
  /**
   * The numeric fields of the RESULT line: the measured rows and counts. Rows are in µs (info,
   * wire) or, for "session", in ms of main-thread freeze (`<row>_freeze_ms` median,
   * `<row>_freeze_mean_ms`, `<row>_freeze_max_ms` for rows idle, field_read, one_invoke,
   * ten_invokes, plus `iterations`).
   */
  metrics: Record<string, number>;
  /** The string fields: scenario, protocol_version, vm_version, client, diagnostics, ... */
  info: Record<string, string>;
}

function defaultTimeoutMs(scenario: string, iterations: number | undefined): number {
  if (scenario !== 'session') return DEFAULT_TIMEOUT_MS;
  const n = iterations ?? SESSION_DEFAULT_ITERATIONS;
  return Math.max(DEFAULT_TIMEOUT_MS, 30_000 + n * SESSION_TIMEOUT_PER_ITERATION_MS);
}

async function run(
  file: string,
  args: string[],
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          const detail = `${stdout}${stderr}`.trim();
          reject(
            new Error(
              `${file} ${args.join(' ')} failed: ${err.message}${detail ? `\n${detail}` : ''}`,
            ),
          );
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

async function sourceFiles(): Promise<string[]> {
  const names = (await readdir(SOURCE_DIR)).filter((n) => n.endsWith('.cs')).sort();
  if (names.length === 0) throw new Error(`no .cs sources in ${SOURCE_DIR}`);
  return names;
}

async function buildOnce(): Promise<string> {
  // Installs mono, mcs and Mono.Debugger.Soft.dll from Debian when missing (fresh machines, CI).
  await run('bash', [path.join(BENCH_DIR, '..', 'scripts', 'ensure-mono.sh')], 600_000);
  const names = await sourceFiles();
  // the referenced client is hashed too: a different DLL build means a different benchmark
  return buildCSharpProgram({
    sources: names.map((n) => path.join(SOURCE_DIR, n)),
    references: [SDB_DLL],
    exeName: EXE_NAME,
    buildRoot: BUILD_ROOT,
    optimize: true,
    timeoutMs: COMPILE_TIMEOUT_MS,
  });
}

let building: Promise<string> | undefined;

/**
 * Makes sure Mono is installed (scripts/ensure-mono.sh), then compiles bench/reference/*.cs with
 * mcs against Mono.Debugger.Soft.dll, once: the output lives in bench/.build/<sha256 of the
 * sources, the mcs version and the DLL>/RefBench.exe, written to a temporary directory and renamed
 * into place. Returns the path of RefBench.exe.
 */
export async function buildReference(): Promise<string> {
  building ??= buildOnce().catch((err: unknown) => {
    building = undefined;
    throw err;
  });
  return building;
}

function tail(s: string): string {
  const t = s.trim();
  return t.length > STDERR_KEEP_CHARS ? `…${t.slice(-STDERR_KEEP_CHARS)}` : t;
}

/** Picks the single `RESULT <json>` line out of RefBench's stdout. */
export function parseResultLine(stdout: string): ReferenceResult {
  const lines = stdout.split(/\r?\n/).filter((l) => l.startsWith('RESULT '));
  if (lines.length !== 1) {
    throw new Error(`expected exactly one RESULT line from RefBench, got ${lines.length}`);
  }
  const parsed: unknown = JSON.parse(lines[0]!.slice('RESULT '.length));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('RefBench RESULT is not a JSON object');
  }
  const metrics: Record<string, number> = {};
  const info: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'number') metrics[key] = value;
    else if (typeof value === 'string') info[key] = value;
    else throw new Error(`RefBench RESULT field ${key} is neither a number nor a string`);
  }
  return { metrics, info };
}

/**
 * Runs one scenario of RefBench against the debuggee on 127.0.0.1:port and returns both the
 * numeric rows and the string fields of its RESULT line. Rejects if RefBench exits non-zero, prints
 * no RESULT line, or exceeds timeoutMs (then it is killed by pid; note that Mono's agent does not
 * accept another debugger after a client vanished without VM DISPOSE, so restart the debuggee).
 */
export async function runReferenceDetailed(opts: RunReferenceOptions): Promise<ReferenceResult> {
  const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs(opts.scenario, opts.iterations);
  if (!Number.isInteger(opts.port) || opts.port <= 0 || opts.port > 65535) {
    throw new Error(`invalid port ${opts.port}`);
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs < 2000) {
    throw new Error(`timeoutMs must be at least 2000, got ${timeoutMs}`);
  }
  const exe = await buildReference();
  const watchdogMs = Math.max(1000, Math.floor(timeoutMs - Math.min(5000, timeoutMs / 4)));
  const args = [exe, '--port', String(opts.port), '--scenario', opts.scenario];
  args.push('--timeout-ms', String(watchdogMs));
  if (opts.iterations !== undefined) args.push('--iterations', String(opts.iterations));
  if (opts.warmup !== undefined) args.push('--warmup', String(opts.warmup));
  if (opts.burstIterations !== undefined) {
    args.push('--burst-iterations', String(opts.burstIterations));
  }

  const { code, signal, stdout, stderr, timedOut, pid } = await new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
    timedOut: boolean;
    pid: number | undefined;
  }>((resolve, reject) => {
    const child = spawn('mono', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (err.length > 4 * STDERR_KEEP_CHARS) err = err.slice(-STDERR_KEEP_CHARS);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot start mono: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: out, stderr: err, timedOut, pid: child.pid });
    });
  });

  const where = `RefBench (pid ${pid ?? '?'}, scenario ${opts.scenario}, port ${opts.port})`;
  if (timedOut) {
    throw new Error(
      `${where} did not finish within ${timeoutMs} ms and was killed; the debuggee may refuse further debuggers\n${tail(stderr)}`,
    );
  }
  if (code !== 0) {
    const how = code === 124 ? 'hit its watchdog' : `exited with ${code ?? signal}`;
    throw new Error(`${where} ${how}\n${tail(stderr)}`);
  }
  try {
    return parseResultLine(stdout);
  } catch (e) {
    throw new Error(`${where}: ${(e as Error).message}\nstdout: ${tail(stdout)}\n${tail(stderr)}`, {
      cause: e,
    });
  }
}

/** Runs one scenario and returns the numeric fields of its RESULT line (see ReferenceResult). */
export async function runReference(opts: RunReferenceOptions): Promise<Record<string, number>> {
  return (await runReferenceDetailed(opts)).metrics;
}

// `npx tsx bench/reference.ts [--port N] [--scenario wire|info|session] [--iterations N]
// [--timeout-ms N]`: one run, printed. Without --port it starts a fixture game of its own
// (fixtures/launch.ts), runs against it and stops it.
async function main(argv: string[]): Promise<void> {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const portArg = get('--port');
  const iterations = get('--iterations');
  const timeoutMs = get('--timeout-ms');
  const runOn = (port: number): Promise<ReferenceResult> =>
    runReferenceDetailed({
      port,
      scenario: get('--scenario') ?? 'wire',
      ...(iterations !== undefined ? { iterations: Number(iterations) } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs: Number(timeoutMs) } : {}),
    });
  let result: ReferenceResult;
  if (portArg !== undefined) {
    result = await runOn(Number(portArg));
  } else {
    const { startFixture } = await import('../fixtures/launch.js');
    const fixture = await startFixture();
    try {
      result = await runOn(fixture.sdbPort);
    } finally {
      await fixture.stop();
    }
  }
  console.log(JSON.stringify(result, null, 2));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
