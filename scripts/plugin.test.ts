// The Claude Code plugin as a user gets it, judged by Claude Code's own CLI (the npm package,
// pinned in package.json), offline, in a temporary HOME: the manifests validate, the plugin
// installs from its marketplace, and the `unity` server it declares starts and connects with
// no game running. The marketplace is copied out of the checkout first, so the server can only
// run on what the plugin ships (no node_modules beside it). The server is split: the entry and
// the relay's chunks are small and free of the MCP SDK and zod, which load only for `broker` and
// the commands (issue 12: `mcp` spawn → tools/list under 300 ms).

import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ALL_TOOLS } from '../mcp/tools/index.js';
import {
  buildPlugin,
  checkPlugin,
  SERVER_BUNDLE,
  SERVER_DIR,
  SERVER_LICENSES,
  writePlugin,
} from './build-plugin.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const claudeBin = path.join(root, 'node_modules/.bin/claude');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};

let home: string;

/** Claude Code with nothing of the caller's configuration and nothing sent over the network. */
function claude(args: string[], cwd = home): { status: number | null; out: string } {
  const r = spawnSync(claudeBin, args, {
    cwd,
    encoding: 'utf8',
    timeout: 90_000,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      TMPDIR: home,
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  });
  if (r.error) throw r.error;
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  home = mkdtempSync(path.join(tmpdir(), 'unity-devtools-claude-'));
  const v = claude(['--version']);
  if (v.status !== 0 || !/Claude Code/.test(v.out)) {
    throw new Error(`Claude Code's CLI does not run (npm ci installs it): ${v.out}`);
  }
});

/** Stops the broker the bundle's front-end started with this environment (`broker --stop`). */
function stopBundledBroker(env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, [path.join(root, SERVER_BUNDLE), 'broker', '--stop'], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(`broker --stop failed: ${r.stderr}`);
}

afterAll(() => {
  if (!home) return;
  // the server Claude Code health-checked started a broker in the temporary HOME's cache dir
  stopBundledBroker({ PATH: process.env.PATH ?? '', HOME: home });
  rmSync(home, { recursive: true, force: true });
});

describe('the Claude Code plugin', () => {
  it('validates strictly: the repository as a marketplace, and the plugin', () => {
    for (const target of [root, path.join(root, 'plugin')]) {
      const r = claude(['plugin', 'validate', '--strict', target]);
      expect(r.out).toContain('Validation passed');
      expect(r.status).toBe(0);
    }
  }, 60_000);

  it('installs from its marketplace with the skill and the unity server, which connects', async () => {
    const market = path.join(home, 'market');
    for (const dir of ['.claude-plugin', 'plugin']) {
      cpSync(path.join(root, dir), path.join(market, dir), { recursive: true });
    }
    // the copy holds the entry and every chunk it imports, as a user's clone does
    for (const rel of (await buildPlugin()).keys()) {
      if (rel.startsWith(`${SERVER_DIR}/`))
        expect(existsSync(path.join(market, rel)), `${rel} copied`).toBe(true);
    }
    const add = claude(['plugin', 'marketplace', 'add', market]);
    expect(add.out).toContain('Successfully added marketplace: unity-devtools');
    const install = claude(['plugin', 'install', 'unity-devtools@unity-devtools']);
    expect(install.out).toContain('Successfully installed plugin: unity-devtools@unity-devtools');

    const details = claude(['plugin', 'details', 'unity-devtools@unity-devtools']);
    expect(details.out).toMatch(/Skills \(1\)\s+drive-unity-game/);
    expect(details.out).toMatch(/MCP servers \(1\)\s+unity\b/);

    // the health check starts the server over stdio and waits for its initialize answer
    const list = claude(['mcp', 'list']);
    const line = list.out.split('\n').find((l) => l.startsWith('plugin:unity-devtools:unity:'));
    expect(line, list.out).toBeDefined();
    expect(line).toContain(`node ${path.join(market, 'plugin/server/unity-devtools.mjs')} mcp`);
    expect(line).toMatch(/✔ Connected$/);
  }, 120_000);
});

describe('the bundled server', () => {
  it('answers initialize with no game present, with our version and every tool', async () => {
    const client = new Client({ name: 'plugin-test', version: '0' });
    // its broker in a home of this test's own, never the user's
    const brokerHome = mkdtempSync(path.join(tmpdir(), 'ud-plugin-broker-'));
    const env = { PATH: process.env.PATH ?? '', UNITY_DEVTOOLS_HOME: brokerHome };
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(root, SERVER_BUNDLE), 'mcp'],
        cwd: tmpdir(),
        env,
        stderr: 'ignore',
      }),
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'unity', version });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
      const status = await client.callTool({ name: 'status', arguments: {} });
      expect(status.isError).toBeFalsy();
    } finally {
      await client.close();
      stopBundledBroker(env);
      rmSync(brokerHome, { recursive: true, force: true });
    }
  }, 30_000);

  it('builds the same bytes twice, entry and every chunk, with no path of this machine', async () => {
    const [a, b] = [await buildPlugin(), await buildPlugin()];
    expect([...a.keys()]).toEqual([...b.keys()]);
    expect(
      [...a.keys()].filter((k) => k.startsWith(`${SERVER_DIR}/chunks/`)).length,
    ).toBeGreaterThan(1);
    for (const [file, text] of a) {
      expect(b.get(file), file).toBe(text);
      expect(text.includes(root), `${file} names ${root}`).toBe(false);
    }
  }, 60_000);
});

/** `./x.mjs` relative to `from` (a path relative to the repository) → a path like `from`'s. */
function resolveChunk(from: string, spec: string): string {
  return path.posix.join(path.posix.dirname(from), spec);
}

/** The files `file` imports statically (`import … from "./x.mjs"`) and by `import("./x.mjs")`. */
function importsOf(built: Map<string, string>, file: string): { eager: string[]; lazy: string[] } {
  const text = built.get(file);
  if (text === undefined) throw new Error(`${file} is not built`);
  const eager = [...text.matchAll(/(?:^|\n)(?:import|export)\b[^"'();]*?"(\.\.?\/[^"]+)"/g)];
  const lazy = [...text.matchAll(/\bimport\("(\.\.?\/[^"]+)"\)/g)];
  return {
    eager: eager.map((m) => resolveChunk(file, m[1]!)),
    lazy: lazy.map((m) => resolveChunk(file, m[1]!)),
  };
}

/** `roots` and every file they import statically, transitively: what loading them loads. */
function eagerClosure(built: Map<string, string>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...importsOf(built, file).eager);
  }
  return seen;
}

/** Bytes of the files, and whether any holds code of the MCP SDK, zod or ajv. */
function weigh(built: Map<string, string>, files: Set<string>) {
  let bytes = 0;
  const heavy: string[] = [];
  for (const f of files) {
    const text = built.get(f)!;
    bytes += Buffer.byteLength(text);
    for (const pkg of ['@modelcontextprotocol/sdk', 'zod', 'ajv'])
      if (text.includes(`node_modules/${pkg}/`)) heavy.push(`${f}: ${pkg}`);
  }
  return { bytes, heavy };
}

describe('the split bundle', () => {
  let built: Map<string, string>;
  beforeAll(async () => {
    built = await buildPlugin();
  }, 60_000);

  it('is an executable entry plus content-hash chunks in chunks/, all ESM (.mjs)', () => {
    const server = [...built.keys()].filter((k) => k.startsWith(`${SERVER_DIR}/`));
    expect(server.filter((k) => !k.startsWith(`${SERVER_DIR}/chunks/`))).toEqual([
      SERVER_BUNDLE,
      SERVER_LICENSES,
    ]);
    for (const k of server.filter((k) => k.startsWith(`${SERVER_DIR}/chunks/`)))
      expect(k).toMatch(/^plugin\/server\/chunks\/[\w-]+-[A-Z0-9]{8}\.mjs$/);
    expect(built.get(SERVER_BUNDLE)!.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // every import of every file names a file the build makes
    for (const file of server.filter((k) => k.endsWith('.mjs'))) {
      const { eager, lazy } = importsOf(built, file);
      for (const dep of [...eager, ...lazy]) expect(built.has(dep), `${file} → ${dep}`).toBe(true);
    }
  });

  it('loads neither the SDK nor zod for --version, nor for the mcp relay', () => {
    const version = eagerClosure(built, [SERVER_BUNDLE]);
    // what serve() in cli/cli.ts imports: the relay, the broker client, lifetime, the home
    const relayChunks = [...new Set(importsOf(built, SERVER_BUNDLE).lazy)].filter((f) =>
      /\/(front-end|client|lifetime|home)-[A-Z0-9]{8}\.mjs$/.test(f),
    );
    expect(
      relayChunks.map((f) => path.posix.basename(f).replace(/-[A-Z0-9]{8}\.mjs$/, '')).sort(),
    ).toEqual(['client', 'front-end', 'home', 'lifetime']);
    const relay = eagerClosure(built, [SERVER_BUNDLE, ...relayChunks]);
    for (const files of [version, relay]) {
      const { bytes, heavy } = weigh(built, files);
      expect(heavy).toEqual([]);
      expect(bytes).toBeLessThan(200_000);
    }
    // and the commands' broker does load them (the split is at the right place)
    const brokerChunk = importsOf(built, SERVER_BUNDLE).lazy.find((f) => /\/broker-/.test(f));
    expect(brokerChunk).toBeDefined();
    expect(weigh(built, eagerClosure(built, [brokerChunk!])).heavy.length).toBeGreaterThan(0);
  });

  it('lists the license of every package any chunk bundles', () => {
    const notices = built.get(SERVER_LICENSES)!;
    const packages = new Set<string>();
    for (const [file, text] of built) {
      if (!file.endsWith('.mjs')) continue;
      for (const m of text.matchAll(/node_modules\/((?:@[^/"\s]+\/)?[^/"\s]+)\//g))
        packages.add(m[1]!);
    }
    expect(packages.size).toBeGreaterThan(3);
    for (const name of packages)
      expect(notices, name).toMatch(new RegExp(`^${name}@\\S+ \\(`, 'm'));
  });

  it('checks a copy: a stale, missing or extra file and a non-executable entry each fail', async () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'ud-plugin-check-'));
    try {
      cpSync(path.join(root, 'plugin'), path.join(copy, 'plugin'), { recursive: true });
      expect(await checkPlugin(copy)).toEqual([]);
      const chunk = [...built.keys()].find((k) => k.startsWith(`${SERVER_DIR}/chunks/`))!;
      const stray = `${SERVER_DIR}/chunks/chunk-OLDBUILD.mjs`;
      writeFileSync(path.join(copy, stray), 'export {};\n');
      rmSync(path.join(copy, chunk));
      writeFileSync(path.join(copy, SERVER_LICENSES), 'edited\n');
      chmodSync(path.join(copy, SERVER_BUNDLE), 0o644);
      const problems = await checkPlugin(copy);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringContaining(`${chunk} is missing`),
          expect.stringContaining(`${SERVER_LICENSES} is stale`),
          expect.stringContaining(`${stray} is not built from the sources`),
          expect.stringContaining(`${SERVER_BUNDLE} has mode 0644`),
        ]),
      );
      expect(problems).toHaveLength(4);
      // the build repairs all of it: the old chunk deleted, the rest rewritten
      const done = await writePlugin(copy);
      expect(done).toContain(`deleted ${stray}`);
      expect(existsSync(path.join(copy, stray))).toBe(false);
      expect(await checkPlugin(copy)).toEqual([]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);

  it('matches the committed plugin/server/ exactly', async () => {
    expect(await checkPlugin()).toEqual([]);
  }, 60_000);
});
