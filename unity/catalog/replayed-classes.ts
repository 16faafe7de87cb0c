// The classes an IL2CPP player had loaded before we attached. IL2CPP's agent marks every loaded
// class as already announced when a debugger attaches (Unity's debugger-agent.c, IL2CPP tree of
// 2022.3.10f1, lines 11285-11295), so no TYPE_LOAD event ever comes for them; in deferred mode a
// TYPE_LOAD request replays them all before its reply (lines 8485-8488). One request with policy
// NONE (nothing is suspended), cleared at once, gives their ids; their names, grouped by
// assembly, are the catalogue's type names where the game cannot be invoked.

import {
  EventKind,
  SuspendPolicy,
  type EventSet,
  type SdbConnection,
} from '../../sdb-protocol/index.js';

/** The replay's bound (a late reply still comes; the request then stays, with policy NONE). */
const REPLAY_TIMEOUT_MS = 30_000;

/** Asks the agent to replay its loaded classes; resolves with their type ids. */
export async function replayLoadedClasses(conn: SdbConnection): Promise<number[]> {
  const seen: { requestId: number; typeId: number }[] = [];
  const off = conn.onEvent((set: EventSet) => {
    for (const e of set.events)
      if (e.kind === 'TYPE_LOAD') seen.push({ requestId: e.requestId, typeId: e.typeId });
  });
  try {
    // the agent writes every replayed event before its reply: tens of thousands in a big game
    const requestId = await conn.send(
      'EVENT_REQUEST.SET',
      { eventKind: EventKind.TYPE_LOAD, suspendPolicy: SuspendPolicy.NONE },
      { timeoutMs: REPLAY_TIMEOUT_MS },
    );
    await conn.send('EVENT_REQUEST.CLEAR', { eventKind: EventKind.TYPE_LOAD, requestId });
    // the replay was written before the SET's reply; its delivery is one turn behind the replies
    await new Promise((resolve) => setImmediate(resolve));
    return [...new Set(seen.filter((s) => s.requestId === requestId).map((s) => s.typeId))];
  } finally {
    off();
  }
}

/** How many TYPE.GET_INFO requests are in flight at once while naming the replayed classes. */
const NAMING_BATCH = 256;

/**
 * Full names of the replayed classes, by assembly id, read once (TYPE.GET_INFO per class).
 * Constructed types (generic instances, arrays, pointers) are left out: the catalogue lists
 * definitions, as Assembly.GetTypes() does.
 */
export function classNamesByAssembly(
  conn: SdbConnection,
  typeIds: readonly number[],
): () => Promise<Map<number, string[]>> {
  let names: Promise<Map<number, string[]>> | undefined;
  return () => {
    names ??= (async () => {
      const out = new Map<number, string[]>();
      for (let i = 0; i < typeIds.length; i += NAMING_BATCH) {
        const infos = await Promise.all(
          typeIds
            .slice(i, i + NAMING_BATCH)
            .map((typeId) => conn.send('TYPE.GET_INFO', { typeId })),
        );
        for (const info of infos) {
          if (/[[\]*&]/.test(info.fullName) || info.rank > 0) continue;
          const list = out.get(info.assemblyId) ?? [];
          list.push(info.fullName);
          out.set(info.assemblyId, list);
        }
      }
      return out;
    })();
    names.catch(() => (names = undefined)); // asked again next time
    return names;
  };
}
