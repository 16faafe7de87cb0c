// The Claude Code plugin as a user gets it, judged by Claude Code's own CLI (the npm package,
// pinned in package.json), offline, in a temporary HOME: the manifests validate, the plugin
// installs from its marketplace, and the `unity` server it declares starts and connects with
// no game running. The marketplace is copied out of the checkout first, so the server can only
// run on what the plugin ships (no node_modules beside it).

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ALL_TOOLS } from '../mcp/tools/index.js';
import { buildPlugin, SERVER_BUNDLE } from './build-plugin.js';

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

  it('installs from its marketplace with the skill and the unity server, which connects', () => {
    const market = path.join(home, 'market');
    for (const dir of ['.claude-plugin', 'plugin']) {
      cpSync(path.join(root, dir), path.join(market, dir), { recursive: true });
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

  it('builds the same bytes twice, with no path of this machine in them', async () => {
    const [a, b] = [await buildPlugin(), await buildPlugin()];
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [file, text] of a) {
      expect(b.get(file), file).toBe(text);
      expect(text.includes(root), `${file} names ${root}`).toBe(false);
    }
  }, 60_000);
});
