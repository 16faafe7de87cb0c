// A game started waiting for its debugger (agent suspend=y, Unity's "Wait For Managed
// Debugger"): attaching leaves it held, as a hold of the attaching caller, so a breakpoint in
// start-up code (Bootstrap.Awake, the first script code) is set before any of it runs and is hit
// once `resume` lets the game start. With suspend=y the agent accepts one debugger only (after
// DISPOSE, never another): the whole file uses one attach.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { GameApp } from '../mcp/app.js';
import { callTool } from '../mcp/server.js';
import type { Tool } from '../mcp/tool.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';

const BOOTSTRAP = readFileSync(
  new URL('../fixtures/src/Assembly-CSharp/Behaviours/Bootstrap.cs', import.meta.url),
  'utf8',
).split('\n');
const AWAKE_LINE = BOOTSTRAP.findIndex((l) => l.trimEnd().endsWith('// MARK: bootstrap-awake')) + 1;

let fixture: FixtureProcess;
let app: GameApp;

beforeAll(async () => {
  fixture = await startFixture({ suspendOnStart: true, entities: 10 });
  app = await GameApp.start({
    endpoint: { host: '127.0.0.1', port: fixture.sdbPort },
    discovery: false,
  });
});

afterAll(async () => {
  await app?.close(); // resumes whatever is still held, then DISPOSE
  await fixture?.stop();
});

const byName = new Map<string, Tool>(ALL_TOOLS.map((t) => [t.name, t]));

/** The fields of the tools' results this file reads. */
interface Out {
  session: { holds: { caller: string; count: number }[] };
  breakpoint: { id: number; waiting_for?: string };
  stopped: boolean;
  stop?: unknown;
  value: string;
}

async function call(name: string, args: Record<string, unknown>, caller = 'agent-a'): Promise<Out> {
  const r = await callTool(byName.get(name)!, args, { app, caller });
  if (r.isError) throw new Error(`${name}: ${(r.content[0] as { text: string }).text}`);
  return r.structuredContent as unknown as Out;
}

/** The fixture printed READY: its start-up ran to the frame loop. */
const started = (): boolean => /FIXTURE READY/.test(fixture.output());

describe('a game waiting for its debugger', () => {
  it('stays held by the attaching caller, so start-up code can be debugged after resume', async () => {
    expect(AWAKE_LINE).toBeGreaterThan(0);
    const attached = await call('attach', { port: fixture.sdbPort });
    expect(attached.session.holds).toEqual([{ caller: 'agent-a', count: 1 }]);
    const st = await call('status', {}, 'agent-b');
    expect(st.session.holds).toEqual([{ caller: 'agent-a', count: 1 }]);

    // Bootstrap's assembly is not loaded yet: the breakpoint waits for it
    const bp = (
      await call('debug_set_breakpoint', { type: 'Bootstrap', method: 'Awake', line: AWAKE_LINE })
    ).breakpoint;
    expect(bp.waiting_for).toBeDefined();
    expect(started()).toBe(false); // still held: no start-up code ran

    // someone else's hold is not theirs to release
    await expect(call('resume', {}, 'agent-b')).rejects.toThrow(/HOLD_NOT_OWNED|hold/i);
    await call('resume', {});

    const w = await call('debug_wait', { timeout_ms: 20_000 });
    expect(w.stopped).toBe(true);
    expect(w.stop).toMatchObject({
      reason: 'breakpoint',
      owner: 'agent-a',
      breakpoint: bp.id,
      location: { method: 'Bootstrap.Awake', line: AWAKE_LINE },
    });
    // stopped before the marked line ran, during start-up
    expect((await call('debug_evaluate', { code: 'Bootstrap.Awakes' })).value).toBe('0');
    expect(started()).toBe(false);

    await call('debug_remove_breakpoint', { id: bp.id });
    await call('debug_step', { kind: 'resume', timeout_ms: 100 });
    await Promise.race([
      fixture.ready,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('no READY within 20 s of resume')), 20_000),
      ),
    ]);
    expect((await call('eval', { code: 'Bootstrap.Awakes' })).value).toBe('1');
    expect((await call('status', {})).session.holds).toEqual([]);
  });
});
