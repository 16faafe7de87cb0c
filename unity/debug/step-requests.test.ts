// Which assemblies count as game code for "step into" from a hold: those with debug information,
// or, on IL2CPP (HAS_DEBUG_INFO always false there), those that are not the framework's or the
// engine's.

import { describe, expect, it } from 'vitest';

import {
  RuntimeProfiles,
  type EventRequestParams,
  type RuntimeKind,
  type SdbConnection,
} from '../../sdb-protocol/index.js';
import type { OperationContext } from '../session/session.js';
import { RUNTIME_PROFILES } from '../testing/attachable-agent.js';
import { isPlatformAssembly, setGameCodeEntryRequest } from './step-requests.js';

const ASSEMBLIES = [
  { assemblyId: 1, name: 'mscorlib', fullName: 'mscorlib, Version=4.0.0.0' },
  { assemblyId: 2, name: 'UnityEngine.CoreModule', fullName: 'UnityEngine.CoreModule' },
  { assemblyId: 3, name: 'Assembly-CSharp', fullName: 'Assembly-CSharp' },
  { assemblyId: 4, name: 'System.Core', fullName: 'System.Core' },
  { assemblyId: 5, name: 'Game.Mods', fullName: 'Game.Mods' },
];

function contextOn(kind: RuntimeKind) {
  const sent: { name: string; params: unknown }[] = [];
  const conn = {
    runtime: RuntimeProfiles[kind],
    send(name: string, params: unknown) {
      sent.push({ name, params });
      if (name === 'ASSEMBLY.HAS_DEBUG_INFO')
        // Mono: only the game's own assemblies carry symbols; IL2CPP: always false
        return Promise.resolve(
          kind !== 'il2cpp' && [3, 5].includes((params as { assemblyId: number }).assemblyId),
        );
      return Promise.resolve(42);
    },
  } as unknown as SdbConnection;
  const ctx = {
    conn,
    catalog: { assemblies: () => Promise.resolve(ASSEMBLIES) },
  } as unknown as OperationContext;
  return { ctx, sent };
}

describe.each(RUNTIME_PROFILES)('the game-code entry request (%s)', (kind) => {
  it('is filtered to the game assemblies', async () => {
    const { ctx, sent } = contextOn(kind);
    expect(await setGameCodeEntryRequest(ctx)).toBe(42);
    const set = sent.find((s) => s.name === 'EVENT_REQUEST.SET')!.params as EventRequestParams;
    expect(set.modifiers).toEqual([{ kind: 'assembly_only', assemblyIds: [3, 5] }]);
    expect(sent.some((s) => s.name === 'ASSEMBLY.HAS_DEBUG_INFO')).toBe(kind !== 'il2cpp');
  });
});

describe('isPlatformAssembly', () => {
  it.each([
    ['mscorlib', true],
    ['netstandard', true],
    ['System', true],
    ['System.Xml.Linq', true],
    ['Mono.Security', true],
    ['UnityEngine', true],
    ['UnityEngine.UI', true],
    ['Unity.Entities', true],
    ['Assembly-CSharp', false],
    ['Assembly-CSharp-firstpass', false],
    ['SystemOfADown', false],
    ['Game.Mods, Version=1.0.0.0', false],
  ] as const)('%s → %s', (name, platform) => {
    expect(isPlatformAssembly(name)).toBe(platform);
  });
});
