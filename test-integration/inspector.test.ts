// A client we did not write: the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli) spawns
// the built server (`node dist/cli/cli.js mcp --port <game>`), runs one method and prints its
// result as JSON on stdout, against a real fixture game on loopback.

import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { BUILT_CLI, TOOL_NAMES, brokerEnv, brokerHome, stopBroker } from './support/mcp-client.js';
import { freeUdpPort } from './support/net.js';

const run = promisify(execFile);

/** The inspector's bin (`mcp-inspector-cli`, its package's main). */
const INSPECTOR = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli');

let fixture: FixtureProcess;
let beaconPort: number;
/** The broker every inspector run's server is a front-end of (this file's own). */
let home: string;

beforeAll(async () => {
  fixture = await startFixture({ entities: 10 });
  // The game is named by its port; an unused beacon port keeps discovery off the shared ones.
  beaconPort = await freeUdpPort();
  home = brokerHome();
});

afterAll(async () => {
  if (home) await stopBroker(home);
  await fixture?.stop();
});

/** Runs the inspector once against a fresh server; returns the JSON it printed. */
async function inspect<T = Record<string, unknown>>(...method: string[]): Promise<T> {
  const server = [
    process.execPath,
    BUILT_CLI,
    'mcp',
    '--port',
    String(fixture.sdbPort),
    '--beacon-port',
    String(beaconPort),
    '--no-multicast',
  ];
  // The working directory must have a package.json one level up: inspector-cli 1.0.3 looks for
  // `../package.json` relative to the working directory but imports it relative to its own
  // module. Its build/ folder satisfies both.
  const r = await run(process.execPath, [INSPECTOR, '--cli', ...server, ...method], {
    cwd: dirname(INSPECTOR),
    env: brokerEnv(home),
    maxBuffer: 16 << 20,
    timeout: 45_000,
  }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`inspector failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  });
  // Its v1 deprecation banner goes to stderr; stdout is the result alone (no trailing newline).
  const start = r.stdout.indexOf('{');
  expect(start, `no JSON on stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBeGreaterThanOrEqual(0);
  return JSON.parse(r.stdout.slice(start)) as T;
}

interface CallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: { code?: string };
}

describe('the MCP Inspector CLI', () => {
  it('tools/list: the ten tools, each with schemas', async () => {
    const { tools } = await inspect<{
      tools: { name: string; inputSchema: { type: string }; outputSchema?: { type: string } }[];
    }>('--method', 'tools/list');
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
  });

  it('tools/call eval reads a static field of the game', async () => {
    const r = await inspect<CallResult>(
      '--method',
      'tools/call',
      '--tool-name',
      'eval',
      '--tool-arg',
      'code=Game.Probe.SInt',
    );
    expect(r.isError ?? false, JSON.stringify(r)).toBe(false);
    expect(r.structuredContent).toMatchObject({ kind: 'value', type: 'int', value: '-123456789' });
    expect(r.content[0]?.text).toMatch(/^-123456789 {2}\(int\)/);
  });

  it('tools/call eval of a missing member: a tool error with its code', async () => {
    const r = await inspect<CallResult>(
      '--method',
      'tools/call',
      '--tool-name',
      'eval',
      '--tool-arg',
      'code=Game.Probe.NoSuchMember',
    );
    expect(r.isError).toBe(true);
    expect(r._meta?.code).toBe('MEMBER_NOT_FOUND');
    expect(r.content[0]?.text).toContain('NoSuchMember');
  });

  it('tools/call find_types with a string and a number argument', async () => {
    const r = await inspect<CallResult>(
      '--method',
      'tools/call',
      '--tool-name',
      'find_types',
      '--tool-arg',
      'query=Game.Probe',
      'limit=5',
    );
    expect(r.isError ?? false, JSON.stringify(r)).toBe(false);
    expect(r.structuredContent?.types).toEqual([
      expect.objectContaining({ full_name: 'Game.Probe', kind: 'class', match: 'exact' }),
    ]);
  });
});
