// Every player heard on the beacon, and the one rule for choosing among them: never guess. A
// player is "visible" while it keeps announcing; a game paused in a debugger stops announcing, so
// stale players stay listed on request (with their endpoint) instead of vanishing.

import { Errors, type PlayerSummary, type UnityError } from '../errors.js';
import { BeaconFlags, type BeaconMessage } from './beacon-message.js';

/** What the registry knows about one player instance. */
export interface DiscoveredPlayer {
  /** Stable for the player's lifetime: `${guid}@${host}`. */
  key: string;
  guid: number;
  /** The Id label, e.g. `WindowsPlayer(host)`. */
  label: string;
  projectName?: string;
  packageName?: string;
  /** Where to connect: the datagram's source address, or [IP] when Flags has UseAlternateIP. */
  host: string;
  /** Id's `:port` suffix when present, else 56000 + Guid % 1000 (the Mono agent's default). */
  debuggerPort: number;
  /** `${host}:${debuggerPort}` */
  endpoint: string;
  /** `[Debug] 1`: the agent listens. Players without it are listed but never selected. */
  debugEnabled: boolean;
  announcedIp: string;
  sourceAddress: string;
  /** PlayerConnection port (not the debugger's). */
  playerConnectionPort: number;
  flags: number;
  editorId: number;
  /** Epoch ms of the first and the latest beacon. */
  firstHeardAt: number;
  lastHeardAt: number;
  beacons: number;
}

export interface ListedPlayer extends DiscoveredPlayer {
  ageMs: number;
  /** Not heard within the visibility window. */
  stale: boolean;
}

export interface PlayerRegistryOptions {
  /** Epoch ms; injectable for tests. Default Date.now. */
  clock?: () => number;
  /** A player is visible while its last beacon is at most this old. Default 5000 (~5 missed beacons). */
  visibleForMs?: number;
  /** Players silent this long are forgotten, so a long-lived server does not grow forever. Default 1 h. */
  forgetAfterMs?: number;
  /** At most this many players are kept (the longest silent go first). Default 256. */
  maxPlayers?: number;
}

export interface ListOptions {
  now?: number;
  /** Visibility window for this call (default: the registry's `visibleForMs`). */
  maxAgeMs?: number;
  /** Also list stale players (marked `stale: true`). */
  includeStale?: boolean;
}

/** The Mono agent's default port for `server=y`: 56000 + pid % 1000, and Unity's Guid plays the pid. */
export function debuggerPortOf(msg: BeaconMessage): number {
  return msg.idPort ?? 56000 + (msg.guid % 1000);
}

/** The host to connect to for a beacon that arrived from `sourceAddress`. */
export function connectHostOf(msg: BeaconMessage, sourceAddress: string): string {
  // [IP] may be unreachable (a phone's mobile-data address); trust it only when the player asks.
  return (msg.flags & BeaconFlags.UseAlternateIp) !== 0 ? msg.ip : sourceAddress;
}

export function playerSummary(p: DiscoveredPlayer): PlayerSummary {
  return { key: p.key, label: describe(p), endpoint: p.endpoint };
}

export class PlayerRegistry {
  private readonly players = new Map<string, DiscoveredPlayer>();
  private readonly clock: () => number;
  readonly visibleForMs: number;
  private readonly forgetAfterMs: number;
  private readonly maxPlayers: number;

  constructor(options: PlayerRegistryOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.visibleForMs = options.visibleForMs ?? 5000;
    this.forgetAfterMs = options.forgetAfterMs ?? 60 * 60 * 1000;
    this.maxPlayers = options.maxPlayers ?? 256;
  }

  /** Records one beacon; `added` is true the first time this player is heard. */
  record(
    msg: BeaconMessage,
    sourceAddress: string,
    at: number = this.clock(),
  ): { player: DiscoveredPlayer; added: boolean } {
    const host = connectHostOf(msg, sourceAddress);
    const key = `${msg.guid}@${host}`;
    const previous = this.players.get(key);
    const debuggerPort = debuggerPortOf(msg);
    const player: DiscoveredPlayer = {
      key,
      guid: msg.guid,
      label: msg.id,
      ...(msg.projectName !== undefined ? { projectName: msg.projectName } : {}),
      ...(msg.packageName !== undefined ? { packageName: msg.packageName } : {}),
      host,
      debuggerPort,
      endpoint: `${host}:${debuggerPort}`,
      debugEnabled: msg.debug,
      announcedIp: msg.ip,
      sourceAddress,
      playerConnectionPort: msg.port,
      flags: msg.flags,
      editorId: msg.editorId,
      firstHeardAt: previous?.firstHeardAt ?? at,
      lastHeardAt: Math.max(at, previous?.lastHeardAt ?? at),
      beacons: (previous?.beacons ?? 0) + 1,
    };
    this.players.set(key, player);
    this.prune(at);
    return { player, added: previous === undefined };
  }

  /** Visible players (and stale ones on request), in the order they were first heard. */
  list(options: ListOptions = {}): ListedPlayer[] {
    const now = options.now ?? this.clock();
    const maxAgeMs = options.maxAgeMs ?? this.visibleForMs;
    return [...this.players.values()]
      .map((p) => listed(p, now, maxAgeMs))
      .filter((p) => options.includeStale === true || !p.stale)
      .sort((a, b) => a.firstHeardAt - b.firstHeardAt || a.key.localeCompare(b.key));
  }

  get(key: string, now: number = this.clock()): ListedPlayer | undefined {
    const player = this.players.get(key);
    return player && listed(player, now, this.visibleForMs);
  }

  get size(): number {
    return this.players.size;
  }

  clear(): void {
    this.players.clear();
  }

  /**
   * The player to attach to. Without a selector: the single visible player with script debugging
   * on. A selector matches key, guid, Id label, project name or debugger `host:port`: exact first,
   * then case-insensitively, then as a case-insensitive substring; the first tier that matches
   * decides. Several candidates are AMBIGUOUS_PLAYER, none is NO_PLAYER saying what was seen.
   */
  select(selector?: string, options: { now?: number; maxAgeMs?: number } = {}): ListedPlayer {
    const all = this.list({ ...options, includeStale: true });
    const visible = all.filter((p) => !p.stale);
    const stale = all.filter((p) => p.stale);
    const windowMs = options.maxAgeMs ?? this.visibleForMs;
    const wanted = selector?.trim();

    if (wanted === undefined || wanted === '') {
      if (visible.length === 0) throw silence(stale, windowMs);
      return pickDebuggable(visible, 'the visible players');
    }
    const matches = match(visible, wanted);
    if (matches.length > 0) return pickDebuggable(matches, `the players matching "${wanted}"`);
    const staleMatches = match(stale, wanted);
    if (staleMatches.length > 0) {
      throw Errors.noPlayer(
        `"${wanted}" matches only players silent for more than ${seconds(windowMs)} (a game paused in a debugger stops announcing): ${staleMatches
          .map((p) => `${line(p)} last heard ${seconds(p.ageMs)} ago`)
          .join('; ')}. If it still runs, attach to its host:port`,
      );
    }
    throw Errors.noPlayer(
      `no visible player matches "${wanted}"; ${
        visible.length === 0
          ? 'none is visible'
          : `visible: ${visible.map((p) => line(p)).join('; ')}`
      }`,
    );
  }

  private prune(now: number): void {
    for (const [key, p] of this.players) {
      if (now - p.lastHeardAt > this.forgetAfterMs) this.players.delete(key);
    }
    if (this.players.size <= this.maxPlayers) return;
    const oldestFirst = [...this.players.values()].sort((a, b) => a.lastHeardAt - b.lastHeardAt);
    for (const p of oldestFirst.slice(0, this.players.size - this.maxPlayers)) {
      this.players.delete(p.key);
    }
  }
}

function listed(p: DiscoveredPlayer, now: number, maxAgeMs: number): ListedPlayer {
  // A clock that steps back must not produce negative ages.
  const ageMs = Math.max(0, now - p.lastHeardAt);
  return { ...p, ageMs, stale: ageMs > maxAgeMs };
}

/** Tiers of matching; the first tier with any match decides. */
function match(players: ListedPlayer[], selector: string): ListedPlayer[] {
  const lower = selector.toLowerCase();
  const tiers: ((value: string) => boolean)[] = [
    (v) => v === selector,
    (v) => v.toLowerCase() === lower,
    (v) => v.toLowerCase().includes(lower),
  ];
  for (const test of tiers) {
    const hits = players.filter((p) => names(p).some(test));
    if (hits.length > 0) return hits;
  }
  return [];
}

function names(p: DiscoveredPlayer): string[] {
  const result = [p.key, String(p.guid), p.label, p.endpoint];
  if (p.projectName !== undefined) result.push(p.projectName);
  return result;
}

/** One attachable candidate, or the error that says why not. */
function pickDebuggable(candidates: ListedPlayer[], what: string): ListedPlayer {
  const debuggable = candidates.filter((p) => p.debugEnabled);
  const [only] = debuggable;
  if (only !== undefined && debuggable.length === 1) return only;
  if (debuggable.length > 1) throw Errors.ambiguousPlayer(debuggable.map(playerSummary));
  throw Errors.noPlayer(
    `${what} announce [Debug] 0 (script debugging off, so no debugger agent listens): ${candidates
      .map((p) => line(p))
      .join('; ')}. Rebuild as a Development Build with Script Debugging`,
  );
}

function silence(stale: ListedPlayer[], windowMs: number): UnityError {
  if (stale.length === 0) {
    return Errors.noPlayer(
      'no Unity player has announced itself (development players with script debugging send a UDP beacon about once a second)',
    );
  }
  return Errors.noPlayer(
    `no player announced itself in the last ${seconds(windowMs)} (a game paused in a debugger stops announcing); last heard: ${stale
      .map((p) => `${line(p)} ${seconds(p.ageMs)} ago`)
      .join('; ')}`,
  );
}

function describe(p: DiscoveredPlayer): string {
  // An Id-less beacon still needs a readable name in messages.
  const label = p.label || `player ${p.guid}`;
  return p.projectName ? `${p.projectName} on ${label}` : label;
}

function line(p: DiscoveredPlayer): string {
  return `${describe(p)} (${p.key}, ${p.endpoint})`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
