// Binding by name to code the compiler generated, as Roslyn names it (the fixtures' mcs names
// state machines its own way and compiles no local functions: test-integration/observe.test.ts
// covers those against the real agent, a local function through Roslyn's lowering written out
// by hand). A scripted connection stands for the agent.

import { describe, expect, it } from 'vitest';

import type { SdbConnection } from '../../sdb-protocol/index.js';
import type { TypeCatalog } from '../catalog/index.js';
import { UnityError } from '../errors.js';
import { LocationCache } from './locations.js';
import { resolveBreakpoint } from './resolve.js';

/**
 * Type 7 `Game.P`: `Compute` (method 5) with its local function `Helper` and a lambda in `<>c`,
 * and the iterator `Patrol` (its stub, method 13; its state machine `<Patrol>d__2`).
 */
function fakeGame() {
  const types: Record<
    number,
    { fullName: string; name: string; nested: number[]; methods: number[] }
  > = {
    7: { fullName: 'Game.P', name: 'P', nested: [8, 9], methods: [5, 6, 13] },
    8: { fullName: 'Game.P+<>c', name: '<>c', nested: [], methods: [10] },
    9: { fullName: 'Game.P+<Patrol>d__2', name: '<Patrol>d__2', nested: [], methods: [11, 12] },
  };
  const methods: Record<number, { name: string; type: number; lines: number[] }> = {
    5: { name: 'Compute', type: 7, lines: [10, 11, 14] },
    6: { name: '<Compute>g__Helper|0_0', type: 7, lines: [12, 13] },
    10: { name: '<Compute>b__0_1', type: 8, lines: [11] },
    11: { name: 'MoveNext', type: 9, lines: [20, 21, 22] },
    12: { name: 'Dispose', type: 9, lines: [] },
    13: { name: 'Patrol', type: 7, lines: [19] },
  };
  const replies: Record<string, (p: Record<string, number>) => unknown> = {
    'TYPE.GET_INFO': (p) => {
      const t = types[p['typeId']!]!;
      return { fullName: t.fullName, name: t.name, nestedTypeIds: t.nested };
    },
    'TYPE.GET_METHODS': (p) => types[p['typeId']!]!.methods,
    'TYPE.GET_FIELDS': () => [],
    'METHOD.GET_NAME': (p) => methods[p['methodId']!]!.name,
    'METHOD.GET_DECLARING_TYPE': (p) => methods[p['methodId']!]!.type,
    'METHOD.GET_DEBUG_INFO': (p) => ({
      files: [{ path: '/game/P.cs' }],
      points: methods[p['methodId']!]!.lines.map((line, i) => ({
        ilOffset: i * 4,
        line,
        sourceIndex: 0,
        column: -1,
        endLine: -1,
        endColumn: -1,
      })),
    }),
    'METHOD.GET_PARAM_INFO': () => ({ paramNames: [], paramTypeIds: [] }),
    'METHOD.GET_LOCALS_INFO': () => ({ locals: [] }),
    'METHOD.GET_INFO': () => ({ attributes: 0 }),
  };
  const conn = {
    send: (name: string, params: Record<string, number>) => Promise.resolve(replies[name]!(params)),
  } as unknown as SdbConnection;
  const catalog = {
    resolveType: () => Promise.resolve(7),
    findMember: (_t: number, name: string) => {
      const found = Object.entries(methods).filter(([, m]) => m.name === name && m.type === 7);
      if (found.length === 0)
        return Promise.reject(new UnityError('MEMBER_NOT_FOUND', `no member ${name}`));
      return Promise.resolve({
        kind: 'method',
        overloads: found.map(([id, m]) => ({
          methodId: Number(id),
          name: m.name,
          declaringType: { name: 'Game.P' },
          parameters: [],
        })),
      });
    },
  } as unknown as TypeCatalog;
  return { ctx: { conn, catalog }, cache: new LocationCache(conn) };
}

describe('binding to generated code by name', () => {
  it('a name that is no member binds to the local function of that name', async () => {
    const g = fakeGame();
    const locs = await resolveBreakpoint(g.ctx, g.cache, { type: 'Game.P', method: 'Helper' });
    expect(locs).toEqual([
      expect.objectContaining({
        method: 'Game.P.Compute.Helper (local function)',
        methodId: 6,
        line: 12,
      }),
    ]);
  });

  it("a line of the outer method inside a lambda binds in the lambda's method", async () => {
    const g = fakeGame();
    const locs = await resolveBreakpoint(g.ctx, g.cache, {
      type: 'Game.P',
      method: 'Compute',
      line: 11,
    });
    expect(locs.map((l) => [l.method, l.methodId])).toEqual([['Game.P.Compute (lambda)', 10]]);
    // a line of its local function binds in the local function
    const local = await resolveBreakpoint(g.ctx, g.cache, {
      type: 'Game.P',
      method: 'Compute',
      line: 13,
    });
    expect(local.map((l) => [l.method, l.methodId])).toEqual([
      ['Game.P.Compute.Helper (local function)', 6],
    ]);
    // a line only the method has stays there
    const own = await resolveBreakpoint(g.ctx, g.cache, {
      type: 'Game.P',
      method: 'Compute',
      line: 14,
    });
    expect(own.map((l) => l.methodId)).toEqual([5]);
  });

  it('a Roslyn iterator by name binds to its MoveNext, not the stub', async () => {
    const g = fakeGame();
    const locs = await resolveBreakpoint(g.ctx, g.cache, { type: 'Game.P', method: 'Patrol' });
    expect(locs).toEqual([
      expect.objectContaining({ method: 'Game.P.Patrol (coroutine)', methodId: 11, line: 20 }),
    ]);
  });
});
