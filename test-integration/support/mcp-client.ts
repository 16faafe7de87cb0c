// The built server (dist/, made by global-setup) spawned over stdio and driven with the SDK's
// own client, as an MCP host would. Each server is a front-end of a broker in a temporary home of
// its own (unless one is passed), stopped when the server is closed.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect } from 'vitest';

export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/cli.js', import.meta.url));

/** The tools the server must list, in order: from the committed schema baseline. */
export const TOOL_NAMES: readonly string[] = (
  JSON.parse(
    readFileSync(new URL('../../mcp/tool-schemas.baseline.json', import.meta.url), 'utf8'),
  ) as { name: string }[]
).map((t) => t.name);

/**
 * Every home brokerHome made for this test file: removed after the file's own afterAll hooks
 * (vitest runs them in reverse order of registration, and this one is registered on import,
 * first), so its brokers are stopped by then.
 */
const homes = new Set<string>();
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
  homes.clear();
});

/**
 * A fresh broker home (0700, as mkdtemp makes it): no other test's broker lives there. Removed
 * with the test file's other clean-up, whichever test made it.
 */
export function brokerHome(): string {
  const home = mkdtempSync(path.join(tmpdir(), 'ud-broker-'));
  homes.add(home);
  return home;
}

/** The environment a front-end or broker of `home` runs with. */
export function brokerEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, UNITY_DEVTOOLS_HOME: home, ...extra };
}

/** Runs the built CLI with `home` as its broker home; resolves with its exit code and output. */
export async function runCli(
  home: string,
  args: string[],
  timeoutMs = 30_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [BUILT_CLI, ...args], {
      env: brokerEnv(home),
      timeout: timeoutMs,
      encoding: 'utf8',
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    if (typeof err.code !== 'number') throw e;
    return { code: err.code, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** Stops the broker of `home` (`broker --stop`: games resumed and released), then removes it. */
export async function stopBroker(home: string, remove = true): Promise<void> {
  const r = await runCli(home, ['broker', '--stop']);
  if (r.code !== 0) throw new Error(`broker --stop failed (${r.code}): ${r.stderr}`);
  if (remove) rmSync(home, { recursive: true, force: true });
}

export interface ServerUnderTest {
  client: Client;
  /** The server's stderr so far (its diagnostics). */
  stderr(): string;
  pid: number | undefined;
  /** The broker home this front-end uses. */
  home: string;
  /** Ends the front-end; stops the broker too when the home is the server's own. */
  close(): Promise<void>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool that must succeed; returns its structured content. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail; returns its code and text. */
  fails(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ code: string; text: string; meta: Record<string, unknown> }>;
}

export async function startServer(
  args: string[],
  opts: { home?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerUnderTest> {
  const home = opts.home ?? brokerHome();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_CLI, 'mcp', ...args],
    // the SDK passes only a few variables on by default: the broker's home must reach it
    env: brokerEnv(home, opts.env) as Record<string, string>,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'integration-test', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, a: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: a })) as CallToolResult;
  return {
    client,
    stderr: () => err,
    pid: transport.pid ?? undefined,
    home,
    close: async () => {
      await client.close();
      if (opts.home === undefined) await stopBroker(home);
    },
    call,
    ok: async <T>(name: string, a: Record<string, unknown> = {}) => {
      const r = await call(name, a);
      const text = r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      expect(r.isError ?? false, `${name} failed: ${text}`).toBe(false);
      return r.structuredContent as T;
    },
    fails: async (name: string, a: Record<string, unknown> = {}) => {
      const r = await call(name, a);
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      expect(r.isError, `${name} should fail, got: ${text}`).toBe(true);
      const meta = (r._meta ?? {}) as Record<string, unknown>;
      return { code: String(meta.code), text, meta };
    },
  };
}
