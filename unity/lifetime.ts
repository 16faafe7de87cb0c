// A server process must never strand a game: when its stdin closes (the MCP host went away),
// on SIGINT, SIGTERM or SIGHUP, and when its parent process dies (a host that reconnects can
// leave the old server orphaned, still holding the debugger slot), it resumes the game, sends
// VM.DISPOSE and exits — within 2 s whatever happens.

export interface LifetimeOptions {
  /** Shut down when this stream ends (the MCP stdio transport's stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Shut down when this process is gone (default: the parent at start-up). 0 disables. */
  parentPid?: number;
  /** How often the parent is checked (ms). */
  pollMs?: number;
  /** Hard bound from the trigger to exit (ms). */
  exitWithinMs?: number;
  /** For tests; default process.exit. */
  exit?: (code: number) => void;
  log?: (message: string) => void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Installs the triggers; `shutdown` resumes and detaches (it should be bounded itself, but the
 * exit happens at `exitWithinMs` regardless). Returns an uninstall function.
 */
export function installLifetime(
  shutdown: () => Promise<void>,
  opts: LifetimeOptions = {},
): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const log = opts.log ?? (() => undefined);
  const exitWithinMs = opts.exitWithinMs ?? 1800;
  let leaving = false;

  const leave = (why: string, code: number): void => {
    if (leaving) return;
    leaving = true;
    log(`leaving: ${why}`);
    const hard = setTimeout(() => {
      log(`shutdown did not finish within ${exitWithinMs} ms; exiting anyway`);
      exit(code);
    }, exitWithinMs);
    shutdown().then(
      () => {
        clearTimeout(hard);
        exit(code);
      },
      (e: unknown) => {
        clearTimeout(hard);
        log(`shutdown failed: ${e instanceof Error ? e.message : String(e)}`);
        exit(code === 0 ? 1 : code);
      },
    );
  };

  const onSignal = (signal: NodeJS.Signals): void =>
    leave(signal, 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
  for (const s of SIGNALS) process.on(s, onSignal);

  const onStdinEnd = (): void => leave('stdin closed', 0);
  opts.stdin?.once('end', onStdinEnd);
  opts.stdin?.once('close', onStdinEnd);

  const parent = opts.parentPid ?? process.ppid;
  let poll: NodeJS.Timeout | undefined;
  if (parent > 1) {
    poll = setInterval(() => {
      // On Linux and macOS an orphan is re-parented, so ppid changes; kill(pid, 0) also works
      // on Windows, where a dead parent's pid simply stops existing.
      if (process.ppid !== parent || !processAlive(parent))
        leave(`parent process ${parent} is gone`, 0);
    }, opts.pollMs ?? 250);
    poll.unref();
  }

  return () => {
    for (const s of SIGNALS) process.off(s, onSignal);
    opts.stdin?.off('end', onStdinEnd);
    opts.stdin?.off('close', onStdinEnd);
    if (poll) clearInterval(poll);
  };
}

/** Whether process `pid` exists (signal 0; EPERM: it exists but is not ours to signal). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but is not ours to signal
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
