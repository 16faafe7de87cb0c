// The paused game's stacks against a scripted connection: a thread whose stack the agent refuses
// is reported as unreadable, with the reason, never as a thread with no frames.

import { describe, expect, it } from 'vitest';

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { GameConnection } from '../session/game-connection.js';
import type { GameSession } from '../session/session.js';
import type { Debugger } from './debugger.js';
import { pauseState } from './inspect.js';
import { LocationCache } from './locations.js';

describe('pauseState', () => {
  it('reports a thread whose stack cannot be read as unreadable, with the reason', async () => {
    const conn = {
      isClosed: false,
      endpoint: '127.0.0.1:1',
      send(name: string, params?: { threadId?: number }) {
        if (name === 'VM.ALL_THREADS') return Promise.resolve([1, 2, 3]);
        if (name === 'THREAD.GET_NAME') return Promise.resolve(`t${params?.threadId}`);
        if (name === 'THREAD.GET_FRAME_INFO')
          return params?.threadId === 2
            ? Promise.reject(new Error('agent error INVALID_OBJECT'))
            : Promise.resolve([]);
        return Promise.reject(new Error(`unexpected ${name}`));
      },
    } as unknown as SdbConnection;
    const connection = new GameConnection(conn, { endpoint: '127.0.0.1:1', identity: 'test' });
    const session = {
      status: () => ({ holds: [{ caller: 'a', count: 1 }] }),
      async run<T>(_label: string, _caller: string, op: (ctx: unknown) => Promise<T>) {
        const value = await op({
          connection,
          conn,
          catalog: {},
          mainThread: () => Promise.resolve(1),
        });
        return { value, cost: { wireCommands: 0, invokes: 0, freezeMs: 0, wallMs: 0 } };
      },
    } as unknown as GameSession;
    const cache = new LocationCache(conn);
    const dbg = { paused: undefined, locations: () => cache } as unknown as Debugger;
    const r = await pauseState(session, dbg, 'a', {
      frames: 5,
      variableFrames: 0,
      allThreads: true,
    });
    expect(r.value.others).toEqual([
      {
        threadId: 2,
        name: 't2',
        totalFrames: 0,
        frames: [],
        unreadable: 'agent error INVALID_OBJECT',
      },
      { threadId: 3, name: 't3', totalFrames: 0, frames: [] },
    ]);
  });
});
