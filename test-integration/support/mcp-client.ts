// The built server (dist/, made by global-setup) spawned over stdio and driven with the SDK's
// own client, as an MCP host would.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const BUILT_CLI = fileURLToPath(new URL('../../dist/mcp/cli.js', import.meta.url));

/** The tools the server must list, in order: from the committed schema baseline. */
export const TOOL_NAMES: readonly string[] = (
  JSON.parse(
    readFileSync(new URL('../../mcp/tool-schemas.baseline.json', import.meta.url), 'utf8'),
  ) as { name: string }[]
).map((t) => t.name);

export interface ServerUnderTest {
  client: Client;
  /** The server's stderr so far (its diagnostics). */
  stderr(): string;
  pid: number | undefined;
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

export async function startServer(args: string[]): Promise<ServerUnderTest> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_CLI, 'mcp', ...args],
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
    close: () => client.close(),
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
