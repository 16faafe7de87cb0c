// Another debugger for the slot tests: ForeignDebugger.cs on the reference C# client
// (Mono.Debugger.Soft.dll, as an IDE would attach), built with mcs once per content hash into
// .build/<hash>/ (temporary directory renamed into place, so parallel builds are safe). It holds a
// game's debugger slot until told to leave, then detaches with VM DISPOSE and exits. Started
// processes are ended by their own exit, or by the pid started here.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildCSharpProgram } from '../../../fixtures/csharp-program.js';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(DIR, 'ForeignDebugger.cs');
const BUILD_ROOT = path.join(DIR, '.build');
const EXE = 'ForeignDebugger.exe';
/** The reference client, as Debian's libmono-debugger-soft4.0a-cil installs it (bench/reference.ts). */
const SDB_DLL = '/usr/lib/mono/4.5/Mono.Debugger.Soft.dll';
const READY = /^FOREIGN READY pid=(\d+)$/m;
const LEFT = /^FOREIGN LEFT$/m;

export interface ForeignDebugger {
  pid: number;
  /** Resumes, detaches (VM DISPOSE) and exits; rejects when it did not leave cleanly. */
  leave(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) if (child.pid !== undefined) tryKill(child.pid);
});

function tryKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

let building: Promise<string> | undefined;

/** Compiles ForeignDebugger.cs once per hash of (mcs version, the DLL, the source). */
export function buildForeignDebugger(): Promise<string> {
  building ??= buildCSharpProgram({
    sources: [SOURCE],
    references: [SDB_DLL],
    exeName: EXE,
    buildRoot: BUILD_ROOT,
  }).catch((err: unknown) => {
    building = undefined;
    throw err;
  });
  return building;
}

/**
 * Attaches a foreign debugger to the agent on 127.0.0.1:port and resolves once it holds the slot
 * (its READY line, within `readyTimeoutMs`).
 */
export async function startForeignDebugger(
  port: number,
  readyTimeoutMs = 20_000,
): Promise<ForeignDebugger> {
  const exe = await buildForeignDebugger();
  const child = spawn('mono', [exe, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-16_000)));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  const pid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) tryKill(child.pid);
      reject(
        new Error(
          `the foreign debugger did not attach to port ${port} in ${readyTimeoutMs} ms\n${err}`,
        ),
      );
    }, readyTimeoutMs);
    const check = (): void => {
      const m = READY.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve(Number(m[1]));
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the foreign debugger exited with ${code} before attaching\n${err}`));
    });
  });
  let leaving: Promise<void> | undefined;
  return {
    pid,
    leave: () =>
      (leaving ??= (async () => {
        child.stdin.end('leave\n');
        let timer: NodeJS.Timeout | undefined;
        const code = await Promise.race([
          exited,
          new Promise<'timeout'>(
            (resolve) => (timer = setTimeout(() => resolve('timeout'), 10_000)),
          ),
        ]);
        clearTimeout(timer);
        if (code === 'timeout') {
          tryKill(pid);
          throw new Error(`the foreign debugger (pid ${pid}) did not leave within 10 s\n${err}`);
        }
        if (code !== 0 || !LEFT.test(out))
          throw new Error(`the foreign debugger (pid ${pid}) left with ${code}\n${err}`);
      })()),
  };
}
