// An IL2CPP game's catalogue: no metadata image, so names come from Assembly.GetTypes() in the
// game, and from the classes the agent replayed at attach when the game cannot be invoked.

import { afterEach, describe, expect, it } from 'vitest';

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { FakeAgent } from '../../sdb-protocol/testing/fake-agent.js';
import { TypeInfoFlags as F } from '../../sdb-protocol/vocabulary.js';
import { FakeGame } from '../catalog/testing/fake-game.js';
import { GameConnection } from './game-connection.js';

let agent: FakeAgent | undefined;
let conn: SdbConnection | undefined;

afterEach(async () => {
  await conn?.close();
  expect(agent?.violations ?? []).toEqual([]);
  await agent?.stop();
  conn = agent = undefined;
});

function game() {
  const g = new FakeGame();
  const corlib = g.assembly('mscorlib, Version=4.0.0.0');
  const object = g.type(corlib, 'System.Object');
  const valueType = g.type(corlib, 'System.ValueType', { base: object });
  const int32 = g.type(corlib, 'System.Int32', { base: valueType, flags: F.PRIMITIVE });
  const asm = g.assembly('Assembly-CSharp, Version=0.0.0.0');
  const probe = g.type(asm, 'Game.Probe', { base: object });
  const unloaded = g.type(asm, 'Game.NeverLoaded', { base: object });
  const listOfInt = g.type(corlib, 'System.Collections.Generic.List`1[[System.Int32]]', {
    base: object,
    runtimeOnly: { namespace: 'System.Collections.Generic', name: 'List`1' },
  });
  return { g, object, int32, probe, unloaded, listOfInt };
}

describe('an IL2CPP game connection', () => {
  it('names types from the replayed loaded classes when Assembly.GetTypes() cannot run', async () => {
    const w = game();
    agent = FakeAgent.inMemory({ profile: 'il2cpp' });
    w.g.install(agent);
    agent.on('EVENT_REQUEST.CLEAR', () => ({}));
    agent.model.loadedClasses.push(w.object.id, w.int32.id, w.probe.id, w.listOfInt.id);
    conn = await agent.connect();
    const logged: string[] = [];
    const connection = new GameConnection(conn, {
      endpoint: '10.0.0.5:56000', // not loopback: no local files
      identity: 'test',
      log: (m) => logged.push(m),
    });
    await connection.replayClasses();
    expect(connection.loadedClasses).toEqual([w.object.id, w.int32.id, w.probe.id, w.listOfInt.id]);
    // the fake game answers no thread list: finding the main thread to invoke fails
    expect(await connection.catalog.resolveType('Game.Probe')).toBe(w.probe.id);
    expect(logged.join('\n')).toMatch(/listed from 1 replayed loaded classes/);
    // only loaded classes: a type never loaded is not listed (but exact names still resolve)
    const found = await connection.catalog.findTypes('Game.*');
    expect(found.matches.map((m) => m.fullName)).toEqual(['Game.Probe']);
    expect(agent.count('ASSEMBLY.GET_METADATA_BLOB')).toBe(0);
  });

  it('asks for no replay on Mono', async () => {
    agent = FakeAgent.inMemory({ profile: 'unity-mono' });
    game().g.install(agent);
    conn = await agent.connect();
    const connection = new GameConnection(conn, { endpoint: '10.0.0.5:56000', identity: 'test' });
    await connection.replayClasses();
    expect(connection.loadedClasses).toBeUndefined();
    expect(agent.count('EVENT_REQUEST.SET')).toBe(0);
  });
});
