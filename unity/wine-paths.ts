// Finding, on this machine, a file a game names by its Windows path: a game under Wine or
// Proton reports `C:\users\steamuser\AppData\LocalLow\...`, which lives in a Wine prefix
// (`<prefix>/drive_c/...`; other letters are the `<prefix>/dosdevices/<x>:` links; `Z:` is `/`).
// Which prefix is not knowable from the game, so candidates are tried in order: WINEPREFIX,
// STEAM_COMPAT_DATA_PATH/pfx (what Steam sets for a Proton game), then every Proton prefix of
// every Steam library (`steamapps/compatdata/<appid>/pfx`; where several hold the file, the most
// recently written wins), then ~/.wine. Wine matches names without regard to case and Proton's
// prefixes say `users` where the game may say `Users`, so each path component is matched the way
// Wine does: exactly if it exists, else case-insensitively.

import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { UnityError } from './errors.js';

export interface WineLookupOptions {
  /** Environment to read WINEPREFIX, STEAM_COMPAT_DATA_PATH and HOME from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home directory (default env.HOME, else os.homedir()). */
  home?: string;
  /** Steam installations whose libraries hold Proton prefixes (default: the usual three). */
  steamRoots?: readonly string[];
}

export interface WindowsPath {
  /** Lower-case drive letter. */
  drive: string;
  /** The components after the drive, without empty ones. */
  parts: string[];
}

export interface PrefixCandidate {
  prefix: string;
  /** Where it came from, for messages: 'WINEPREFIX', 'STEAM_COMPAT_DATA_PATH', 'steam', 'default'. */
  source: 'WINEPREFIX' | 'STEAM_COMPAT_DATA_PATH' | 'steam' | 'default';
}

export interface LocatedFile {
  path: string;
  /** The prefix it was found in (absent when the path was used as given or is on Z:). */
  prefix?: string;
}

/** `C:\a\b`, `c:/a/b`, `\\?\C:\a\b`; undefined for anything else (POSIX paths, UNC shares). */
export function parseWindowsPath(p: string): WindowsPath | undefined {
  const m = /^(?:[\\/]{2}[?.][\\/])?([A-Za-z]):[\\/](.*)$/.exec(p);
  if (!m) return undefined;
  const parts = m[2]!.split(/[\\/]+/).filter((x) => x !== '' && x !== '.');
  return { drive: m[1]!.toLowerCase(), parts };
}

/** Where a Windows path is in a prefix, before case matching: a directory and what follows. */
export function wineLocation(w: WindowsPath, prefix: string): { base: string; parts: string[] } {
  if (w.drive === 'z') return { base: '/', parts: w.parts };
  if (w.drive === 'c') return { base: path.join(prefix, 'drive_c'), parts: w.parts };
  return { base: path.join(prefix, 'dosdevices', `${w.drive}:`), parts: w.parts };
}

/**
 * The prefixes to try, in order, without duplicates (by real path); those found by listing only
 * when they exist.
 */
export async function winePrefixes(options: WineLookupOptions = {}): Promise<PrefixCandidate[]> {
  const env = options.env ?? process.env;
  const home = options.home ?? env.HOME ?? os.homedir();
  const roots = options.steamRoots ?? [
    path.join(home, '.steam', 'steam'),
    path.join(home, '.local', 'share', 'Steam'),
    path.join(home, '.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam'),
  ];
  const raw: PrefixCandidate[] = [];
  if (env.WINEPREFIX) raw.push({ prefix: env.WINEPREFIX, source: 'WINEPREFIX' });
  if (env.STEAM_COMPAT_DATA_PATH) {
    raw.push({
      prefix: path.join(env.STEAM_COMPAT_DATA_PATH, 'pfx'),
      source: 'STEAM_COMPAT_DATA_PATH',
    });
  }
  for (const library of await steamLibraries(roots)) {
    const compatdata = path.join(library, 'steamapps', 'compatdata');
    for (const appId of (await listDir(compatdata)).sort()) {
      raw.push({ prefix: path.join(compatdata, appId, 'pfx'), source: 'steam' });
    }
  }
  raw.push({ prefix: path.join(home, '.wine'), source: 'default' });
  const seen = new Set<string>();
  const out: PrefixCandidate[] = [];
  for (const c of raw) {
    const real = await realpath(c.prefix).catch(() => undefined);
    // a prefix named by the environment is kept even when missing, so that the error names it
    if (real === undefined ? c.source === 'steam' || c.source === 'default' : !(await isDir(real)))
      continue;
    const key = real ?? path.resolve(c.prefix);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** Steam roots and the extra libraries their libraryfolders.vdf lists (the roots first). */
async function steamLibraries(roots: readonly string[]): Promise<string[]> {
  const libraries = [...roots];
  for (const root of roots) {
    const vdf = await readFile(path.join(root, 'steamapps', 'libraryfolders.vdf'), 'utf8').catch(
      () => '',
    );
    for (const m of vdf.matchAll(/"path"\s+"((?:[^"\\]|\\.)*)"/g)) {
      libraries.push(m[1]!.replace(/\\\\/g, '\\'));
    }
  }
  return libraries;
}

/**
 * `parts` below `base`, each component matched exactly when it exists and otherwise without
 * regard to case (as Wine does); undefined when a component is missing.
 */
export async function resolveCaseInsensitive(
  base: string,
  parts: readonly string[],
): Promise<string | undefined> {
  let current = base;
  for (const part of parts) {
    const exact = path.join(current, part);
    if (await exists(exact)) {
      current = exact;
      continue;
    }
    const lower = part.toLowerCase();
    const match = (await listDir(current)).find((name) => name.toLowerCase() === lower);
    if (match === undefined) return undefined;
    current = path.join(current, match);
  }
  return current;
}

/**
 * The local file for a path the game reported: as given when it exists here, else (for a
 * Windows path) mapped into a Wine prefix. Throws UNSUPPORTED, naming every place looked at.
 */
export async function locateGameFile(
  gamePath: string,
  options: WineLookupOptions = {},
): Promise<LocatedFile> {
  if (await isFile(gamePath)) return { path: gamePath };
  const windows = parseWindowsPath(gamePath);
  const tried: string[] = [gamePath];
  if (windows) {
    if (windows.drive === 'z') {
      const found = await resolveCaseInsensitive('/', windows.parts);
      if (found !== undefined && (await isFile(found))) return { path: found };
      tried.push(path.join('/', ...windows.parts));
    } else {
      let newest: { path: string; prefix: string; mtimeMs: number } | undefined;
      for (const c of await winePrefixes(options)) {
        const { base, parts } = wineLocation(windows, c.prefix);
        tried.push(path.join(base, ...parts));
        const found = await resolveCaseInsensitive(base, parts);
        const st = found === undefined ? undefined : await stat(found).catch(() => undefined);
        if (found === undefined || !st?.isFile()) continue;
        // an explicit prefix is the answer; among Steam's, the one the game wrote last
        if (c.source !== 'steam') return { path: found, prefix: c.prefix };
        if (!newest || st.mtimeMs > newest.mtimeMs)
          newest = { path: found, prefix: c.prefix, mtimeMs: st.mtimeMs };
      }
      if (newest) return { path: newest.path, prefix: newest.prefix };
    }
  }
  throw fileNotHere(gamePath, tried, windows !== undefined);
}

function fileNotHere(gamePath: string, tried: string[], windows: boolean): UnityError {
  const shown =
    tried.slice(0, 8).join(', ') + (tried.length > 8 ? `, and ${tried.length - 8} more` : '');
  const how = windows
    ? 'If the game runs under Wine or Proton, set WINEPREFIX to its prefix (the folder that holds drive_c, e.g. ~/.steam/steam/steamapps/compatdata/<appid>/pfx) in the environment of this server and retry'
    : 'The game may run on another machine or in a container, whose files this server cannot read';
  return new UnityError(
    'UNSUPPORTED',
    `the game writes its log to ${JSON.stringify(gamePath)}, which is not on this machine (looked at ${shown}). ${how}`,
    { details: { gamePath, tried } },
  );
}

async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function isDir(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function isFile(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}
