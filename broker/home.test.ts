import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { BrokerError } from './errors.js';
import { ensureHome, homeDir } from './home.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'ud-home-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function refusal(env: NodeJS.ProcessEnv): BrokerError {
  try {
    ensureHome(env);
  } catch (e) {
    return e as BrokerError;
  }
  throw new Error('ensureHome accepted it');
}

describe('the broker home', () => {
  it('is UNITY_DEVTOOLS_HOME, else under XDG_RUNTIME_DIR, else the cache dir', () => {
    expect(homeDir({ UNITY_DEVTOOLS_HOME: '/x/y', XDG_RUNTIME_DIR: '/run/user/1' })).toBe('/x/y');
    expect(homeDir({ XDG_RUNTIME_DIR: '/run/user/1' })).toBe('/run/user/1/unity-devtools');
    expect(homeDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/unity-devtools');
    expect(homeDir({})).toMatch(/\.cache\/unity-devtools$/);
  });

  it('is created 0700 when missing, with the socket, pid and log inside', () => {
    const home = path.join(root, 'a', 'b');
    const paths = ensureHome({ UNITY_DEVTOOLS_HOME: home });
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(paths.socket).toBe(path.join(home, 'broker.sock'));
    expect(paths.pidFile).toBe(path.join(home, 'broker.pid'));
    expect(paths.logFile).toBe(path.join(home, 'broker.log'));
  });

  it('refuses a directory open to others, naming it and chmod 700, and does not repair it', () => {
    const home = path.join(root, 'open');
    mkdirSync(home);
    chmodSync(home, 0o755);
    const e = refusal({ UNITY_DEVTOOLS_HOME: home });
    expect(e.code).toBe('BROKER_HOME_UNSAFE');
    expect(e.message).toContain(home);
    expect(e.message).toContain('chmod 700');
    expect(e.message).toMatch(/mode 755/);
    expect(statSync(home).mode & 0o777).toBe(0o755);
  });

  it('refuses a directory someone else owns, even one only its owner can open', () => {
    // as root, a 0700 directory given to nobody; as anyone else, root's own 0700 home
    const uid = process.getuid!();
    const home = uid === 0 ? path.join(root, 'theirs') : '/root';
    if (uid === 0) {
      mkdirSync(home, { mode: 0o700 });
      chownSync(home, 65534, 65534);
    }
    const e = refusal({ UNITY_DEVTOOLS_HOME: home });
    expect(e.code).toBe('BROKER_HOME_UNSAFE');
    expect(e.message).toMatch(new RegExp(`is owned by uid \\d+, not by you \\(uid ${uid}\\)`));
  });

  it('refuses a file where the directory should be', () => {
    const home = path.join(root, 'file');
    writeFileSync(home, '');
    const e = refusal({ UNITY_DEVTOOLS_HOME: home });
    expect(e.code).toBe('BROKER_HOME_UNSAFE');
    expect(e.message).toContain(`${home} is not a directory`);
  });

  it('refuses a socket path longer than a Unix socket address holds', () => {
    const home = path.join(root, 'x'.repeat(120));
    const e = refusal({ UNITY_DEVTOOLS_HOME: home });
    expect(e.code).toBe('BROKER_SOCKET_PATH_TOO_LONG');
    expect(e.message).toMatch(/107 bytes/);
  });
});
