// The composition root: each GameApp builds its own session-wide services once and hands them
// to every tool call, so two apps in one process (two sessions) share nothing.

import { afterEach, describe, expect, it } from 'vitest';

import type { BeaconMessage } from '../unity/discovery/beacon-message.js';
import { refusal } from '../unity/testing/errors.js';
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
    const one = toolContext({ app: a, caller: 'x' }, await a.gameFor('x'));
    const two = toolContext({ app: a, caller: 'y' }, await a.gameFor('y'));
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

/** A beacon of a debuggable player whose agent listens on `port` (loopback). */
function beacon(guid: number, id: string, port: number): BeaconMessage {
  return {
    ip: '127.0.0.1',
    port: 55066,
    flags: 3,
    guid,
    editorId: 1,
    version: 1048832,
    id,
    debug: true,
    idPort: port,
    projectName: id,
  };
}

/** An app that hears players only as the test records them (its listener binds no known port). */
async function hearingApp(): Promise<GameApp> {
  const a = await GameApp.start({ beaconPorts: [0], multicast: false, firstBeaconWaitMs: 0 });
  apps.push(a);
  return a;
}

const status = ALL_TOOLS.find((t) => t.name === 'status')!;
const detach = ALL_TOOLS.find((t) => t.name === 'detach')!;

describe('GameApp callers and games', () => {
  it("sends a caller's calls to the game it chose, never to another caller's", async () => {
    const a = await hearingApp();
    a.registry!.record(beacon(1, 'One', 9), '127.0.0.1');
    a.registry!.record(beacon(2, 'Two', 10), '127.0.0.1');
    const x = a.openCaller({ label: 'x (pid 1)' });
    const y = a.openCaller({ label: 'y (pid 2)' });
    // two visible and none chosen: never a guess
    expect((await refusal(a.gameFor(x))).code).toBe('AMBIGUOUS_PLAYER');
    const one = await a.gameFor(x, 'One');
    expect(one.endpoint).toBe('127.0.0.1:9');
    expect(await a.gameFor(x)).toBe(one); // chosen by naming it
    // y did not choose: still ambiguous for y, x's choice is not y's
    expect((await refusal(a.gameFor(y))).code).toBe('AMBIGUOUS_PLAYER');
    const two = await a.gameFor(y, '127.0.0.1:10');
    expect(two).not.toBe(one);
    expect(await a.gameFor(y)).toBe(two);
    // a game id from status names it too, for one call, without changing the choice
    expect(await a.gameFor(y, one.id)).toBe(one);
    expect(await a.gameFor(y)).toBe(two);
    expect(a.gamesStatus().map((g) => [g.id, g.callers])).toEqual([
      [one.id, ['x (pid 1)', 'y (pid 2)']],
      [two.id, ['y (pid 2)']],
    ]);
  });

  it('gives two connections with one label distinct caller ids', async () => {
    const a = await hearingApp();
    expect(a.openCaller({ label: 'cli (pid 7)' })).toBe('cli (pid 7)');
    expect(a.openCaller({ label: 'cli (pid 7)' })).toBe('cli (pid 7)#2');
    await a.closeCaller('cli (pid 7)');
    expect(a.openCallers().map((c) => c.caller)).toEqual(['cli (pid 7)#2']);
  });

  it("follows a front-end's own target before it chooses", async () => {
    const a = await hearingApp();
    a.registry!.record(beacon(1, 'One', 9), '127.0.0.1');
    a.registry!.record(beacon(2, 'Two', 10), '127.0.0.1');
    const x = a.openCaller({ label: 'x', target: { kind: 'player', selector: 'Two' } });
    expect((await a.gameFor(x)).endpoint).toBe('127.0.0.1:10');
    const y = a.openCaller({
      label: 'y',
      target: { kind: 'endpoint', host: '127.0.0.1', port: 9 },
    });
    expect((await a.gameFor(y)).endpoint).toBe('127.0.0.1:9');
  });

  it('forgets a game nobody is attached to once its last caller leaves (never attached: at once)', async () => {
    const a = await hearingApp();
    a.registry!.record(beacon(1, 'One', 9), '127.0.0.1');
    const x = a.openCaller({ label: 'x' });
    const y = a.openCaller({ label: 'y' });
    const g = await a.gameFor(x);
    await a.gameFor(y);
    await a.closeCaller(x);
    expect(a.gamesStatus().map((s) => s.callers)).toEqual([['y']]);
    // detach by the last caller frees it
    const r = await callTool(detach, {}, { app: a, caller: y });
    expect(r.structuredContent).toMatchObject({ freed: true, still_attached: [] });
    expect(a.gamesStatus()).toEqual([]);
    expect(a.selectedGame(y)).toBeUndefined();
    expect(g.session.status().attached).toBe(false);
  });

  it('detach by one of two callers leaves the game attached for the other', async () => {
    const a = await hearingApp();
    a.registry!.record(beacon(1, 'One', 9), '127.0.0.1');
    const x = a.openCaller({ label: 'x' });
    const y = a.openCaller({ label: 'y' });
    await a.gameFor(x);
    await a.gameFor(y);
    const r = await callTool(detach, {}, { app: a, caller: x });
    expect(r.structuredContent).toMatchObject({ freed: false, still_attached: ['y'] });
    expect(a.gamesStatus().map((s) => s.callers)).toEqual([['y']]);
    // x chose nothing now: detach again says so
    const again = await callTool(detach, {}, { app: a, caller: x });
    expect(again.structuredContent).toMatchObject({ was_attached: false });
  });

  it('status lists every game and who is attached, and names the caller', async () => {
    const a = await hearingApp();
    a.registry!.record(beacon(1, 'One', 9), '127.0.0.1');
    const x = a.openCaller({ label: 'x' });
    await a.gameFor(x);
    const r = await callTool(status, {}, { app: a, caller: x });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      caller: 'x',
      game: 'g1',
      games: [{ id: 'g1', endpoint: '127.0.0.1:9', attached: false, callers: ['x'] }],
    });
  });

  it('refuses a bad player argument with INVALID_ARGUMENT, before any game is chosen', async () => {
    const a = await hearingApp();
    const r = await callTool(undo, { player: '' }, { app: a, caller: 'x' });
    expect(code(r)).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(r.content)).toMatch(/player/);
    expect(a.gamesStatus()).toEqual([]);
  });
});
