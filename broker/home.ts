// Where the per-user broker lives: one directory only its user can open (0700), holding the
// socket (0600), the pid file and the log. Both the broker and every front-end check the
// directory before using it: a front-end must never talk to a socket someone else planted.
// On Windows the broker listens on a named pipe (code path only; untested here).

import { mkdirSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import path from 'node:path';

import { brokerErrors } from './errors.js';

export interface BrokerPaths {
  home: string;
  /** The Unix socket (or the Windows named pipe) the broker listens on. */
  socket: string;
  pidFile: string;
  logFile: string;
}

/** A Unix socket address holds 108 bytes, the terminating NUL included. */
const SUN_PATH_MAX = 107;

/** `UNITY_DEVTOOLS_HOME`, else `$XDG_RUNTIME_DIR/unity-devtools`, else the user's cache dir's. */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env['UNITY_DEVTOOLS_HOME'];
  if (own) return path.resolve(own);
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime) return path.join(runtime, 'unity-devtools');
  const cache = env['XDG_CACHE_HOME'] || path.join(homedir(), '.cache');
  return path.join(cache, 'unity-devtools');
}

export function brokerPaths(home: string, platform = process.platform): BrokerPaths {
  return {
    home,
    socket:
      platform === 'win32'
        ? `\\\\.\\pipe\\unity-devtools-${userInfo().username}`
        : path.join(home, 'broker.sock'),
    pidFile: path.join(home, 'broker.pid'),
    logFile: path.join(home, 'broker.log'),
  };
}

/**
 * The broker's directory, created 0700 when missing; refused (BROKER_HOME_UNSAFE) when it is not
 * a directory, not owned by this user, or open to group or others. Never repaired silently: a
 * directory someone else could write may already hold their socket.
 */
export function ensureHome(env: NodeJS.ProcessEnv = process.env): BrokerPaths {
  const home = homeDir(env);
  const paths = brokerPaths(home);
  if (process.platform === 'win32') {
    mkdirSync(home, { recursive: true });
    return paths;
  }
  let created: string | undefined;
  try {
    created = mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (e) {
    // a file in the way (EEXIST, ENOTDIR): checkHome names what is wrong with it
    if (!['EEXIST', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
  }
  checkHome(home, created !== undefined);
  const bytes = Buffer.byteLength(paths.socket);
  if (bytes > SUN_PATH_MAX) throw brokerErrors.socketPathTooLong(paths.socket, bytes);
  return paths;
}

/** Throws BROKER_HOME_UNSAFE unless `dir` is a directory of ours that only we can open. */
export function checkHome(dir: string, justCreated = false): void {
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    throw brokerErrors.homeUnsafe(dir, `cannot be read (${(e as Error).message})`);
  }
  if (!st.isDirectory()) throw brokerErrors.homeUnsafe(dir, 'is not a directory');
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw brokerErrors.homeUnsafe(dir, `is owned by uid ${st.uid}, not by you (uid ${uid})`);
  if ((st.mode & 0o077) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(3, '0');
    // mkdir's mode passes through the umask, which only ever removes bits: a directory we just
    // made is never more open than 0700, so this is someone's directory (or a parent we reused)
    throw brokerErrors.homeUnsafe(
      dir,
      `is open to others (mode ${mode}${justCreated ? ', just created' : ''})`,
    );
  }
}
