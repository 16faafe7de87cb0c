// The package as people install it: `npm pack` of the built server (dist/, made by
// global-setup), installed from the tarball into an empty folder (its dependencies from the npm
// registry, or npm's cache), its bin run through npx, then spawned as an MCP server by the SDK's
// client. Nothing here reads the repository's sources or node_modules at run time.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TOOL_NAMES, brokerEnv, brokerHome, runCli, stopBroker } from './support/mcp-client.js';
import { freeUdpPort } from './support/net.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

/** npm without its update check. */
const npmEnv = { ...process.env, npm_config_update_notifier: 'false' };

interface PackResult {
  filename: string;
  size: number;
  files: { path: string }[];
}

let work: string;
let app: string;
let pack: PackResult;
let installed: string;
let version: string;

beforeAll(async () => {
  version = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  work = await mkdtemp(join(tmpdir(), 'unity-devtools-package-'));
  app = join(work, 'app');
  await mkdir(app);
  // dist/ is already built; --ignore-scripts skips prepack's rebuild, which would rewrite the
  // files other test files are spawning meanwhile.
  const packed = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
    { cwd: root, env: npmEnv, maxBuffer: 16 << 20 },
  );
  [pack] = JSON.parse(packed.stdout) as [PackResult];
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'package-smoke', version: '1.0.0', private: true }),
  );
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, pack.filename)],
    {
      cwd: app,
      env: npmEnv,
      maxBuffer: 16 << 20,
    },
  );
  installed = join(app, 'node_modules', 'unity-devtools');
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('ships the built server and the README, no sources, tests or test helpers', () => {
    const paths = pack.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/cli/cli.js']));
    for (const p of paths) {
      expect(p, p).toMatch(
        /^(package\.json|README\.md|LICENSE(\.md)?|dist\/.+\.(js|d\.ts)(\.map)?)$/,
      );
      expect(p, p).not.toMatch(
        /\.test\.|(^|\/)testing\/|^dist\/(fixtures|test-integration|bench|scripts)\//,
      );
    }
  });

  it('holds every module its modules import; the rest are builtins or dependencies', async () => {
    const shipped = new Set(pack.files.map((f) => f.path));
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const deps = Object.keys(manifest.dependencies ?? {});
    const missing: string[] = [];
    for (const file of shipped) {
      if (!file.endsWith('.js')) continue;
      const text = await readFile(join(installed, file), 'utf8');
      const specs = text.matchAll(
        /^\s*(?:import|export)\s[^;'"]*?\sfrom\s*'([^']+)'|^\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm,
      );
      for (const m of specs) {
        const spec = (m[1] ?? m[2] ?? m[3])!;
        if (spec.startsWith('.')) {
          const target = posix.normalize(posix.join(posix.dirname(file), spec));
          if (!shipped.has(target)) missing.push(`${file} imports ${spec}`);
        } else if (!isBuiltin(spec) && !deps.some((d) => spec === d || spec.startsWith(`${d}/`))) {
          missing.push(`${file} imports ${spec}, not a dependency`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the installed package', () => {
  it('npx unity-devtools --version runs the installed bin', async () => {
    const bin = join(app, 'node_modules', '.bin', 'unity-devtools');
    expect(await realpath(bin)).toBe(await realpath(join(installed, 'dist', 'cli', 'cli.js')));
    // --no: never fetch a package of that name from the registry if the local bin were missing.
    const r = await run('npx', ['--no', '--', 'unity-devtools', '--version'], {
      cwd: app,
      env: npmEnv,
    });
    expect(r.stdout.trim()).toBe(version);
  });

  it('serves MCP over stdio: initialize, then tools/list names the ten tools', async () => {
    const beaconPort = await freeUdpPort();
    // the installed front-end starts the installed broker, in a home of this test's own
    const home = brokerHome();
    const transport = new StdioClientTransport({
      command: join(app, 'node_modules', '.bin', 'unity-devtools'),
      args: ['mcp', '--beacon-port', String(beaconPort), '--no-multicast'],
      cwd: app,
      env: brokerEnv(home) as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'package-smoke', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion(), stderr).toMatchObject({ name: 'unity', version });
      expect(client.getServerCapabilities()?.tools, stderr).toBeDefined();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const st = await runCli(home, ['broker', '--status', '--json']);
      expect(st.code, st.stderr).toBe(0);
      expect((JSON.parse(st.stdout) as { version: string }).version).toBe(version);
    } finally {
      await client.close();
      await stopBroker(home);
    }
  });
});
