// Discovery as the session sees it: a selector (or none) resolved to an endpoint, and the same
// game found again after it restarted under a new run id (a new guid, often a new port).

import type { PlayerEndpoint, PlayerResolver } from '../session/session.js';
import type { ListedPlayer, PlayerRegistry } from './player-registry.js';

function endpointOf(p: ListedPlayer): PlayerEndpoint {
  return {
    key: p.key,
    label: p.label,
    host: p.host,
    port: p.debuggerPort,
    guid: p.guid,
    ...(p.projectName !== undefined ? { projectName: p.projectName } : {}),
  };
}

export function playerResolver(registry: PlayerRegistry): PlayerResolver {
  return {
    select: (selector) => endpointOf(registry.select(selector)),
    reselect: (previous) => {
      // the same build on the same machine, announcing again under a new run id
      const candidates = registry
        .list()
        .filter(
          (p) =>
            p.debugEnabled &&
            p.key !== previous.key &&
            p.label === previous.label &&
            p.host === previous.host &&
            p.projectName === previous.projectName,
        )
        .sort((a, b) => b.lastHeardAt - a.lastHeardAt);
      return candidates[0] && endpointOf(candidates[0]);
    },
  };
}
