// Player discovery: Unity's PlayerConnection beacon, the players heard on it, and selection.
export { BeaconFlags, formatBeacon, parseBeacon, type BeaconMessage } from './beacon-message.js';
export {
  PlayerRegistry,
  connectHostOf,
  debuggerPortOf,
  playerSummary,
  type DiscoveredPlayer,
  type ListOptions,
  type ListedPlayer,
  type PlayerRegistryOptions,
} from './player-registry.js';
export {
  BEACON_MULTICAST_GROUP,
  BeaconListener,
  DEFAULT_BEACON_PORTS,
  type BeaconListenerOptions,
  type ListenerProblem,
  type ListenerStatus,
} from './beacon-listener.js';
export { playerResolver } from './player-resolver.js';
