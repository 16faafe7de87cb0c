import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  locateGameFile,
  parseWindowsPath,
  resolveCaseInsensitive,
  wineLocation,
  winePrefixes,
  type WineLookupOptions,
} from './wine-paths.js';
import { refusal } from './testing/errors.js';

let root: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wine-paths-'));
  home = path.join(root, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const GAME_PATH = 'C:/Users/steamuser/AppData/LocalLow/Acme/Rocket Game/Player.log';
const GAME_PATH_BACKSLASH =
  'C:\\Users\\steamuser\\AppData\\LocalLow\\Acme\\Rocket Game\\Player.log';

/** A Wine prefix with the log where Proton puts it (`users`, lower case, as Wine creates it). */
async function prefixWithLog(prefix: string, content = 'log'): Promise<string> {
  const dir = path.join(
    prefix,
    'drive_c',
    'users',
    'steamuser',
    'AppData',
    'LocalLow',
    'Acme',
    'Rocket Game',
  );
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'Player.log');
  await writeFile(file, content);
  return file;
}

/** Options that see only what a test made: no real env, home or Steam. */
function lookup(extra: WineLookupOptions = {}): WineLookupOptions {
  return { env: {}, home, steamRoots: [], ...extra };
}

describe('parseWindowsPath', () => {
  it.each([
    [
      GAME_PATH,
      'c',
      ['Users', 'steamuser', 'AppData', 'LocalLow', 'Acme', 'Rocket Game', 'Player.log'],
    ],
    [
      GAME_PATH_BACKSLASH,
      'c',
      ['Users', 'steamuser', 'AppData', 'LocalLow', 'Acme', 'Rocket Game', 'Player.log'],
    ],
    ['d:\\Games\\\\x.log', 'd', ['Games', 'x.log']],
    ['\\\\?\\C:\\a\\.\\b.log', 'c', ['a', 'b.log']],
    ['Z:/home/u/x.log', 'z', ['home', 'u', 'x.log']],
  ])('%s', (p, drive, parts) => {
    expect(parseWindowsPath(p)).toEqual({ drive, parts });
  });

  it.each([
    '/home/u/.config/unity3d/Acme/Game/Player.log',
    'relative\\x.log',
    '\\\\server\\share\\x.log',
    'C:x.log',
    '',
  ])('%j is not a drive path', (p) => {
    expect(parseWindowsPath(p)).toBeUndefined();
  });
});

describe('wineLocation', () => {
  it('maps C: to drive_c, other letters to dosdevices, Z: to /', () => {
    const w = (p: string) => parseWindowsPath(p)!;
    expect(wineLocation(w('C:\\a\\b'), '/pfx')).toEqual({
      base: '/pfx/drive_c',
      parts: ['a', 'b'],
    });
    expect(wineLocation(w('E:\\a'), '/pfx')).toEqual({ base: '/pfx/dosdevices/e:', parts: ['a'] });
    expect(wineLocation(w('z:\\home\\u'), '/pfx')).toEqual({ base: '/', parts: ['home', 'u'] });
  });
});

describe('resolveCaseInsensitive', () => {
  it('matches each component exactly, else regardless of case', async () => {
    await mkdir(path.join(root, 'drive_c', 'users', 'SteamUser'), { recursive: true });
    await writeFile(path.join(root, 'drive_c', 'users', 'SteamUser', 'Player.log'), '');
    expect(
      await resolveCaseInsensitive(root, ['DRIVE_C', 'Users', 'steamuser', 'player.LOG']),
    ).toBe(path.join(root, 'drive_c', 'users', 'SteamUser', 'Player.log'));
    expect(await resolveCaseInsensitive(root, ['drive_c', 'users', 'nobody'])).toBeUndefined();
    expect(await resolveCaseInsensitive(root, [])).toBe(root);
  });
});

describe('winePrefixes', () => {
  it('orders WINEPREFIX, STEAM_COMPAT_DATA_PATH, Steam libraries, ~/.wine; without duplicates', async () => {
    const steam = path.join(home, '.local', 'share', 'Steam');
    const library = path.join(root, 'ssd', 'SteamLibrary');
    for (const p of [
      path.join(root, 'explicit'),
      path.join(root, 'compat', 'pfx'),
      path.join(steam, 'steamapps', 'compatdata', '20', 'pfx'),
      path.join(steam, 'steamapps', 'compatdata', '10', 'pfx'),
      path.join(library, 'steamapps', 'compatdata', '30', 'pfx'),
      path.join(home, '.wine'),
    ])
      await mkdir(p, { recursive: true });
    await mkdir(path.join(steam, 'steamapps', 'compatdata', 'no-pfx'));
    await writeFile(
      path.join(steam, 'steamapps', 'libraryfolders.vdf'),
      `"libraryfolders"\n{\n\t"0"\n\t{\n\t\t"path"\t\t"${steam}"\n\t}\n\t"1"\n\t{\n\t\t"path"\t\t"${library}"\n\t}\n}\n`,
    );
    // ~/.steam/steam is a link to the real installation: listed twice, kept once
    await mkdir(path.join(home, '.steam'));
    await symlink(steam, path.join(home, '.steam', 'steam'));
    const found = await winePrefixes({
      env: {
        WINEPREFIX: path.join(root, 'explicit'),
        STEAM_COMPAT_DATA_PATH: path.join(root, 'compat'),
      },
      home,
      steamRoots: [path.join(home, '.steam', 'steam'), steam],
    });
    expect(found.map((c) => [path.relative(root, c.prefix), c.source])).toEqual([
      ['explicit', 'WINEPREFIX'],
      ['compat/pfx', 'STEAM_COMPAT_DATA_PATH'],
      ['home/.steam/steam/steamapps/compatdata/10/pfx', 'steam'],
      ['home/.steam/steam/steamapps/compatdata/20/pfx', 'steam'],
      ['ssd/SteamLibrary/steamapps/compatdata/30/pfx', 'steam'],
      ['home/.wine', 'default'],
    ]);
  });

  it('keeps a missing prefix the environment names (so errors show it), drops a missing ~/.wine', async () => {
    const found = await winePrefixes({
      env: { WINEPREFIX: path.join(root, 'gone') },
      home,
      steamRoots: [],
    });
    expect(found).toEqual([{ prefix: path.join(root, 'gone'), source: 'WINEPREFIX' }]);
  });

  it('uses the usual Steam places under HOME by default', async () => {
    await mkdir(path.join(home, '.steam', 'steam', 'steamapps', 'compatdata', '1', 'pfx'), {
      recursive: true,
    });
    await mkdir(
      path.join(home, '.local', 'share', 'Steam', 'steamapps', 'compatdata', '2', 'pfx'),
      {
        recursive: true,
      },
    );
    const found = await winePrefixes({ env: { HOME: home } });
    expect(found.map((c) => path.relative(home, c.prefix))).toEqual([
      '.steam/steam/steamapps/compatdata/1/pfx',
      '.local/share/Steam/steamapps/compatdata/2/pfx',
    ]);
  });
});

describe('locateGameFile', () => {
  it('uses the path as given when it exists', async () => {
    const file = path.join(root, 'Player.log');
    await writeFile(file, '');
    expect(await locateGameFile(file, lookup())).toEqual({ path: file });
  });

  it('finds C: in WINEPREFIX, with either separator and any case', async () => {
    const prefix = path.join(root, 'pfx');
    const file = await prefixWithLog(prefix);
    for (const p of [GAME_PATH, GAME_PATH_BACKSLASH, GAME_PATH.toLowerCase()]) {
      expect(await locateGameFile(p, lookup({ env: { WINEPREFIX: prefix } }))).toEqual({
        path: file,
        prefix,
      });
    }
  });

  it('finds C: under STEAM_COMPAT_DATA_PATH/pfx', async () => {
    const compat = path.join(root, 'compatdata', '123');
    const file = await prefixWithLog(path.join(compat, 'pfx'));
    expect(
      (await locateGameFile(GAME_PATH, lookup({ env: { STEAM_COMPAT_DATA_PATH: compat } }))).path,
    ).toBe(file);
  });

  it('prefers WINEPREFIX over Steam prefixes that also hold the file', async () => {
    const steam = path.join(root, 'Steam');
    await prefixWithLog(path.join(steam, 'steamapps', 'compatdata', '1', 'pfx'));
    const prefix = path.join(root, 'pfx');
    const file = await prefixWithLog(prefix);
    const found = await locateGameFile(
      GAME_PATH,
      lookup({ env: { WINEPREFIX: prefix }, steamRoots: [steam] }),
    );
    expect(found.path).toBe(file);
  });

  it('falls through to Steam when WINEPREFIX lacks the file, and takes the newest of several', async () => {
    const steam = path.join(root, 'Steam');
    const older = await prefixWithLog(path.join(steam, 'steamapps', 'compatdata', '1', 'pfx'));
    const newer = await prefixWithLog(path.join(steam, 'steamapps', 'compatdata', '2', 'pfx'));
    await prefixWithLog(path.join(steam, 'steamapps', 'compatdata', '3', 'pfx'));
    await utimes(older, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    await utimes(newer, new Date(2_100_000_000_000), new Date(2_100_000_000_000));
    const empty = path.join(root, 'empty-pfx');
    await mkdir(path.join(empty, 'drive_c'), { recursive: true });
    const found = await locateGameFile(
      GAME_PATH,
      lookup({ env: { WINEPREFIX: empty }, steamRoots: [steam] }),
    );
    expect(found.path).toBe(newer);
  });

  it('finds other letters through dosdevices and Z: at /', async () => {
    const prefix = path.join(root, 'pfx');
    const games = path.join(root, 'games');
    await mkdir(path.join(games, 'Acme'), { recursive: true });
    await writeFile(path.join(games, 'Acme', 'Player.log'), '');
    await mkdir(path.join(prefix, 'dosdevices'), { recursive: true });
    await symlink(games, path.join(prefix, 'dosdevices', 'd:'));
    expect(
      (await locateGameFile('D:\\ACME\\player.log', lookup({ env: { WINEPREFIX: prefix } }))).path,
    ).toBe(path.join(prefix, 'dosdevices', 'd:', 'Acme', 'Player.log'));
    const z = 'Z:' + path.join(games, 'Acme', 'Player.log').replaceAll('/', '\\');
    expect(await locateGameFile(z, lookup())).toEqual({
      path: path.join(games, 'Acme', 'Player.log'),
    });
  });

  it('says where it looked and how to fix it when the file is nowhere', async () => {
    const prefix = path.join(root, 'pfx');
    await mkdir(path.join(prefix, 'drive_c'), { recursive: true });
    const e = await refusal(locateGameFile(GAME_PATH, lookup({ env: { WINEPREFIX: prefix } })));
    expect(e.code).toBe('UNSUPPORTED');
    expect(e.message).toContain(GAME_PATH);
    expect(e.message).toContain(path.join(prefix, 'drive_c', 'Users', 'steamuser'));
    expect(e.message).toMatch(/set WINEPREFIX/);
    expect(e.details?.tried).toEqual([
      GAME_PATH,
      path.join(
        prefix,
        'drive_c',
        'Users',
        'steamuser',
        'AppData',
        'LocalLow',
        'Acme',
        'Rocket Game',
        'Player.log',
      ),
    ]);
  });

  it('says a POSIX path that is missing may be on another machine', async () => {
    const e = await refusal(locateGameFile('/nowhere/Player.log', lookup()));
    expect(e.code).toBe('UNSUPPORTED');
    expect(e.message).toMatch(/another machine/);
  });

  it('does not take a directory for the file', async () => {
    const prefix = path.join(root, 'pfx');
    const file = await prefixWithLog(prefix);
    await rm(file);
    await mkdir(file);
    expect(
      (await refusal(locateGameFile(GAME_PATH, lookup({ env: { WINEPREFIX: prefix } })))).code,
    ).toBe('UNSUPPORTED');
  });
});
