// What the tool-level integration tests share: fixture lines found by their `// MARK:` comments
// (never by number), calling a tool as an agent would (a failure is thrown with its text and
// code), and a debugger left clean between tests.

import { readFileSync } from 'node:fs';

import type { GameApp } from '../../mcp/app.js';
import { callTool } from '../../mcp/server.js';
import type { Tool } from '../../mcp/tool.js';

/** `mark(name)`: the 1-based line carrying `// MARK: name` in one of `files` (under fixtures/src/). */
export function fixtureMarks(...files: string[]): (name: string) => number {
  const sources = files.map((f) =>
    readFileSync(new URL(`../../fixtures/src/${f}`, import.meta.url), 'utf8').split('\n'),
  );
  return (name) => {
    for (const lines of sources) {
      const i = lines.findIndex((l) => l.trimEnd().endsWith(`// MARK: ${name}`));
      if (i >= 0) return i + 1;
    }
    throw new Error(`no MARK ${name} in ${files.join(', ')}`);
  };
}

export type ToolCall<Out> = (
  name: string,
  args: Record<string, unknown>,
  caller?: string,
) => Promise<Out>;

/** Calls one of `tools` by name on the app as `caller` (default agent-a). */
export function toolCaller<Out>(
  tools: readonly { name: string }[],
  app: () => GameApp,
): ToolCall<Out> {
  const byName = new Map(tools.map((t) => [t.name, t as Tool]));
  return async (name, args, caller = 'agent-a') => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`${name} is not among this test's tools`);
    // a heavy call past its wait_ms (default 20 s) becomes a job: tests that wait for the
    // result say so, unless they test the job reply itself (a wait_ms of their own)
    const a = tool.tier === 'heavy' && !('wait_ms' in args) ? { ...args, wait_ms: 600_000 } : args;
    const r = await callTool(tool, a, { app: app(), caller });
    if (r.isError) {
      const text = (r.content[0] as { text: string }).text;
      throw Object.assign(new Error(text), { code: (r._meta as { code: string }).code });
    }
    return r.structuredContent as unknown as Out;
  };
}

/** No breakpoint and no pause left: the next test starts with a running game. */
export async function clearDebugger(call: ToolCall<unknown>): Promise<void> {
  await call('debug_remove_breakpoint', { all: true, force: true }, 'cleanup').catch(
    () => undefined,
  );
  const s = (await call('debug_status', {}, 'cleanup')) as { pause?: unknown };
  if (s.pause) await call('debug_step', { kind: 'resume', force: true }, 'cleanup');
}
