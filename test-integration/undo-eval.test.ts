// Undo of eval's assignments through property and indexer setters, through callTool as an agent
// calls them: each assignment is journaled with the value before and after read through the
// getter, undo restores it (read back in the game), refuses when the value changed since unless
// forced, and a property that cannot be read is set all the same and said not to be undoable.
// Fixture properties: Game.Locker (Game/Locker.cs), Game.Item.Price, Game.Probe.SList / SDict.

// Tool results are checked as the JSON an agent gets: untyped by design.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return */

import { describe, expect, it } from 'vitest';

import { callTool } from '../mcp/server.js';
import type { Tool } from '../mcp/tool.js';
import { undoTool } from '../mcp/tools/ecs.js';
import { evalTool } from '../mcp/tools/eval.js';
import { evaluateInGame } from '../unity/eval-bridge/evaluate-in-session.js';
import { useFixtureApp } from './support/fixture-app.js';

/** A bound on a hang, not a timing assertion (a first evaluation loads metadata). */
const HANG_MS = 10_000;

const game = useFixtureApp({ entities: 20 });

const byName = new Map<string, Tool>([evalTool, undoTool].map((t) => [t.name, t as Tool]));

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Failure = Error & { code: string; details?: Out };

async function call(name: string, args: Record<string, unknown>): Promise<Out> {
  const tool = byName.get(name)!;
  const r = await callTool(tool, args, { app: game.app, caller: 'agent' });
  if (r.isError) {
    const text = (r.content[0] as { text: string }).text;
    throw Object.assign(new Error(text), r._meta as { code: string; details?: Out });
  }
  tool.output.parse(r.structuredContent); // the result is what the tool declares
  return { ...(r.structuredContent as Out), text: (r.content[0] as { text: string }).text };
}

async function fails(name: string, args: Record<string, unknown>): Promise<Failure> {
  try {
    await call(name, args);
  } catch (e) {
    return e as Failure;
  }
  throw new Error(`${name} did not fail`);
}

const evalOut = (code: string): Promise<Out> => call('eval', { code });
const evalText = async (code: string): Promise<string> => (await evalOut(code)).value as string;

/** The one write an assignment made, journaled: its journal id. */
function journaled(out: Out, where: string): number {
  expect(out.writes).toEqual([{ where, journal_id: expect.any(Number), undoable: true }]);
  return out.writes[0].journal_id as number;
}

describe('undo of property assignments', () => {
  it(
    'journals an instance property of an object and restores it, read back in the game',
    async () => {
      const before = await evalText('Game.Shop.Featured.Price.Cents');
      const out = await evalOut('Game.Shop.Featured.Price = 9');
      const id = journaled(out, 'Game.Item.Price');
      // the value before and after, each read through the getter
      expect(out.cost.journal_invokes).toBe(2);
      expect(out.text).toContain(`journaled for undo: #${id} Game.Item.Price`);
      expect(await evalText('Game.Shop.Featured.Price.Cents')).toBe('900');
      const r = await call('undo', { id });
      expect(r.entries).toMatchObject([{ id, undone: true }]);
      expect(r.entries[0].label).toContain('Game.Item.Price');
      expect(await evalText('Game.Shop.Featured.Price.Cents')).toBe(before);
    },
    HANG_MS,
  );

  it(
    'refuses when a later eval changed the value, changing nothing; force restores',
    async () => {
      const first = journaled(await evalOut('Game.Locker.Opened = 20'), 'Game.Locker.Opened');
      const second = journaled(await evalOut('Game.Locker.Opened = 21'), 'Game.Locker.Opened');
      const refused = await fails('undo', { id: first });
      expect(refused.code).toBe('UNDO_CONFLICT');
      expect(refused.details).toMatchObject({ id: first });
      expect(await evalText('Game.Locker.Opened')).toBe('21');
      const forced = await call('undo', { id: first, force: true });
      expect(forced.entries).toMatchObject([{ id: first, undone: true }]);
      expect(await evalText('Game.Locker.Opened')).toBe('10');
      // the later entry no longer matches the game either
      expect((await fails('undo', { id: second })).code).toBe('UNDO_CONFLICT');
      expect(await evalText('Game.Locker.Opened')).toBe('10');
    },
    HANG_MS,
  );

  it(
    'undoes a property assigned twice with steps: 2, back to the original',
    async () => {
      await evalOut('Game.Locker.Instance.Shelf = 4');
      await evalOut('Game.Locker.Instance.Shelf += 1');
      expect(await evalText('Game.Locker.Instance.Shelf')).toBe('5');
      const r = await call('undo', { steps: 2 });
      expect((r.entries as Out[]).map((e) => e.undone)).toEqual([true, true]);
      expect(await evalText('Game.Locker.Instance.Shelf')).toBe('3');
    },
    HANG_MS,
  );

  it(
    'journals what the setter stored, read back through the getter',
    async () => {
      // the setter clamps 50 to 9: the game holds 9, so undo finds what we wrote
      journaled(await evalOut('Game.Locker.Instance.Level = 50'), 'Game.Locker.Level');
      expect(await evalText('Game.Locker.Instance.Level')).toBe('9');
      expect((await call('undo', {})).entries[0].undone).toBe(true);
      expect(await evalText('Game.Locker.Instance.Level')).toBe('1');
    },
    HANG_MS,
  );

  it(
    'restores a struct property of a native object (Transform.localPosition)',
    async () => {
      const read = 'GameObject.Find("Hat").transform.localPosition.ToString()';
      const before = await evalText(read);
      const out = await evalOut(
        'GameObject.Find("Hat").transform.localPosition = new Vector3(5, 6, 7)',
      );
      journaled(out, 'UnityEngine.Transform.localPosition');
      expect(await evalText(read)).toBe('"(5.00, 6.00, 7.00)"');
      await call('undo', {});
      expect(await evalText(read)).toBe(before);
    },
    HANG_MS,
  );

  it(
    'sets a set-only property and says it cannot be undone, journaling nothing',
    async () => {
      const shelf = journaled(await evalOut('Game.Locker.Instance.Shelf = 7'), 'Game.Locker.Shelf');
      const out = await evalOut('Game.Locker.Instance.Code = 42');
      expect(out.value).toBe('42');
      expect(out.writes).toEqual([
        { where: 'Game.Locker.Code', undoable: false, why_not: expect.stringMatching(/no getter/) },
      ]);
      expect(out.text).toContain('NOT undoable: Game.Locker.Code');
      expect(out.cost.journal_invokes).toBeUndefined();
      expect(await evalText('Game.Locker.Instance.Peek()')).toBe('42');
      // the newest entry is still the Shelf assignment
      const dry = await call('undo', { dry_run: true });
      expect(dry.entries).toMatchObject([{ id: shelf, undone: false }]);
      await call('undo', { id: shelf });
      expect(await evalText('Game.Locker.Instance.Shelf')).toBe('3');
    },
    HANG_MS,
  );

  it(
    'journals nothing for an object the program made itself',
    async () => {
      const out = await evalOut(
        'var l = new List<int> { 1 }; l[0] = 5; new Game.Item { Name = "x" }.Name + l[0]',
      );
      expect(out.value).toBe('"x5"');
      expect(out.writes).toBeUndefined();
      expect(out.cost.journal_invokes).toBeUndefined();
    },
    HANG_MS,
  );

  it(
    'costs two getter invokes more than the same assignment unjournaled',
    async () => {
      const program = 'Game.Locker.Instance.Shelf = 8';
      const journaledRun = await evalOut(program);
      // the same program on the session without a journal (as the tools run their own)
      const plain = await game.app.session.run('eval', 'someone else', (ctx) =>
        evaluateInGame(ctx, program, {}, false),
      );
      expect(journaledRun.cost.invokes - plain.cost.invokes).toBe(2);
      expect(journaledRun.cost.journal_invokes).toBe(2);
      await call('undo', {}); // the game holds 8 still: restored
      expect(await evalText('Game.Locker.Instance.Shelf')).toBe('3');
    },
    HANG_MS,
  );

  it(
    'keeps the writes of a program that then threw, for undo by id',
    async () => {
      const failed = await fails('eval', { code: 'Game.Locker.Opened = 12; Game.Probe.Throw()' });
      expect(failed.code).toBe('GAME_EXCEPTION');
      expect(failed.details?.writes).toEqual([
        { where: 'Game.Locker.Opened', journal_id: expect.any(Number), undoable: true },
      ]);
      expect(await evalText('Game.Locker.Opened')).toBe('12');
      await call('undo', { id: failed.details!.writes[0].journal_id });
      expect(await evalText('Game.Locker.Opened')).toBe('10');
    },
    HANG_MS,
  );
});

describe('undo of indexer assignments', () => {
  it(
    'restores a list element set through the indexer',
    async () => {
      const id = journaled(
        await evalOut('Game.Probe.SList[1] = 99'),
        'System.Collections.Generic.List<int>[1]',
      );
      expect(await evalText('Game.Probe.SList[1]')).toBe('99');
      await call('undo', { id });
      expect(await evalText('Game.Probe.SList[1]')).toBe('20');
    },
    HANG_MS,
  );

  it(
    'restores a dictionary value by its string key',
    async () => {
      const id = journaled(
        await evalOut('Game.Probe.SDict["two"] = 22'),
        'System.Collections.Generic.Dictionary<string, int>["two"]',
      );
      expect(await evalText('Game.Probe.SDict["two"]')).toBe('22');
      await call('undo', { id });
      expect(await evalText('Game.Probe.SDict["two"]')).toBe('2');
    },
    HANG_MS,
  );

  it(
    'adds a new dictionary key, saying it cannot be undone (the getter threw before)',
    async () => {
      const out = await evalOut('Game.Probe.SDict["three"] = 3');
      expect(out.writes).toEqual([
        {
          where: 'System.Collections.Generic.Dictionary<string, int>["three"]',
          undoable: false,
          why_not: expect.stringMatching(/KeyNotFoundException/),
        },
      ]);
      expect(out.cost.journal_invokes).toBe(1);
      expect(await evalText('Game.Probe.SDict["three"]')).toBe('3');
      expect(await evalText('Game.Probe.SDict.Remove("three")')).toBe('True');
    },
    HANG_MS,
  );
});
