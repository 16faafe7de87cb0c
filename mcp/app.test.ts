// The composition root: each GameApp builds its own session-wide services once and hands them
// to every tool call, so two apps in one process (two sessions) share nothing.

import { afterEach, describe, expect, it } from 'vitest';

import { GameApp } from './app.js';
import { callTool } from './server.js';
import { toolContext } from './tool.js';
import { ALL_TOOLS } from './tools/index.js';

const apps: GameApp[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** An app pointed at a port nothing listens on: tools that need the game fail to attach. */
async function app(): Promise<GameApp> {
  const a = await GameApp.start({ endpoint: { host: '127.0.0.1', port: 9 }, discovery: false });
  apps.push(a);
  return a;
}

const undo = ALL_TOOLS.find((t) => t.name === 'undo')!;

function code(r: Awaited<ReturnType<typeof callTool>>): unknown {
  return (r._meta as { code?: string } | undefined)?.code;
}

describe('GameApp', () => {
  it('builds the journal, the debugger and the log paths once, and every call gets them', async () => {
    const a = await app();
    const one = toolContext({ app: a, caller: 'x' });
    const two = toolContext({ app: a, caller: 'y' });
    expect(one.session).toBe(a.session);
    expect(one.journal).toBe(a.journal);
    expect(two.journal).toBe(one.journal);
    expect(two.debug).toBe(one.debug);
    expect(two.playerLog).toBe(one.playerLog);
  });

  it('gives two apps in one process their own journals and debuggers', async () => {
    const a = await app();
    const b = await app();
    expect(b.session).not.toBe(a.session);
    expect(b.journal).not.toBe(a.journal);
    expect(b.debug).not.toBe(a.debug);
    expect(b.playerLog).not.toBe(a.playerLog);

    a.journal.record({
      label: 'a write of app a',
      target: { kind: 'create' },
      before: null,
      after: null,
      caller: 'agent',
    });
    // b has nothing to undo: refused before any attach
    const rb = await callTool(undo, { dry_run: true }, { app: b, caller: 'agent' });
    expect(rb.isError).toBe(true);
    expect(code(rb)).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(rb.content)).toMatch(/nothing to undo/);
    expect(b.session.status().connects).toBe(0);
    // a has its entry, so it goes to the game for it (and finds none there)
    const ra = await callTool(undo, { dry_run: true }, { app: a, caller: 'agent' });
    expect(code(ra)).toBe('ATTACH_FAILED');
    expect(a.session.status().connects).toBe(1);
    expect(b.debug.status().breakpoints).toEqual([]);
  });
});
