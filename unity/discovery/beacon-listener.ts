// Listens for player beacons on Unity's announcement ports and feeds them to a PlayerRegistry.
// Discovery is optional: a port that cannot be bound (another tool or the Unity Editor may hold
// it without address reuse) or a group that cannot be joined is recorded in status() and
// everything else keeps working, so an explicit host:port attach never depends on it.
// This only ever receives: it joins the multicast group but sends nothing.

import dgram from 'node:dgram';
import os from 'node:os';
import { messageOf } from '../errors.js';
import { parseBeacon } from './beacon-message.js';
import { PlayerRegistry } from './player-registry.js';

/** Unity players send to 54997; editors and IDEs also listen on the other three. */
export const DEFAULT_BEACON_PORTS: readonly number[] = [54997, 34997, 57997, 58997];
export const BEACON_MULTICAST_GROUP = '225.0.0.222';

export interface BeaconListenerOptions {
  /** UDP ports to listen on (0 = any free port, for tests). Default `DEFAULT_BEACON_PORTS`. */
  ports?: readonly number[];
  /** Join 225.0.0.222 on each IPv4 interface (receive only). Default true; tests pass false. */
  multicast?: boolean;
  /** Default '0.0.0.0' (multicast datagrams only reach sockets bound to the wildcard address). */
  bindAddress?: string;
  /** IPv4 interface addresses to join the group on. Default: every IPv4 address of this host. */
  multicastInterfaces?: readonly string[];
  /** Where players go; default a new PlayerRegistry. */
  registry?: PlayerRegistry;
  /** Diagnostic lines (the caller sends them to stderr). Default: none. */
  log?: (line: string) => void;
  /** Bound on each bind and each close. Default 2000 ms. */
  timeoutMs?: number;
}

export interface ListenerProblem {
  port?: number;
  what: string;
  error: string;
}

export interface ListenerStatus {
  listening: { port: number; multicast: boolean }[];
  problems: ListenerProblem[];
  /** Datagrams that were beacons, and ones that were not. */
  datagrams: { accepted: number; ignored: number };
}

interface OpenSocket {
  socket: dgram.Socket;
  port: number;
  multicast: boolean;
}

export class BeaconListener {
  readonly registry: PlayerRegistry;
  private readonly ports: readonly number[];
  private readonly multicast: boolean;
  private readonly bindAddress: string;
  private readonly interfaces: readonly string[] | undefined;
  private readonly log: (line: string) => void;
  private readonly timeoutMs: number;
  private open: OpenSocket[] = [];
  private problems: ListenerProblem[] = [];
  private accepted = 0;
  private ignored = 0;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(options: BeaconListenerOptions = {}) {
    this.registry = options.registry ?? new PlayerRegistry();
    this.ports = options.ports ?? DEFAULT_BEACON_PORTS;
    this.multicast = options.multicast ?? true;
    this.bindAddress = options.bindAddress ?? '0.0.0.0';
    this.interfaces = options.multicastInterfaces;
    this.log = options.log ?? (() => undefined);
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** Binds every port it can; never rejects for a busy port or a failed join (see status()). */
  start(): Promise<void> {
    if (this.stopping) return Promise.reject(new Error('BeaconListener.start() after stop()'));
    this.starting ??= Promise.all(
      this.ports.map((port) =>
        // Whatever goes wrong with one port is a recorded problem, never a rejected start().
        this.listen(port).catch((error: unknown) => this.problem(port, 'listen', error)),
      ),
    ).then(() => {
      const ports = this.open.map((o) => `${o.port}${o.multicast ? ' (multicast)' : ''}`);
      this.log(`beacon: listening on UDP ${ports.length ? ports.join(', ') : 'no port'}`);
    });
    return this.starting;
  }

  /** Closes every socket, each within the bound; idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // A start still binding would otherwise open sockets after we closed the rest.
      await this.starting?.catch(() => undefined);
      const open = this.open;
      this.open = [];
      await Promise.all(open.map((o) => closeBounded(o.socket, this.timeoutMs)));
    })();
    return this.stopping;
  }

  status(): ListenerStatus {
    return {
      listening: this.open.map(({ port, multicast }) => ({ port, multicast })),
      problems: this.problems.map((p) => ({ ...p })),
      datagrams: { accepted: this.accepted, ignored: this.ignored },
    };
  }

  private async listen(requestedPort: number): Promise<void> {
    // node:dgram silently truncates a port to 16 bits (70000 binds 4464), so check it here.
    if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 0xffff) {
      this.problem(requestedPort, `bind port ${requestedPort}`, new Error('not a UDP port'));
      return;
    }
    // reuseAddr: the Unity Editor, Rider and other copies of this tool listen on the same ports.
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    socket.on('message', (data, remote) => this.onDatagram(data, remote));
    // Always listening for 'error': an unhandled one would crash the process. Bind failures are
    // reported by bindBounded; later ones (once the socket is open) are recorded here.
    socket.on('error', (error) => {
      const open = this.open.find((o) => o.socket === socket);
      if (open) this.problem(open.port, 'socket error', error);
    });
    try {
      await bindBounded(socket, requestedPort, this.bindAddress, this.timeoutMs);
    } catch (error) {
      this.problem(requestedPort, `bind ${this.bindAddress}:${requestedPort}`, error);
      await closeBounded(socket, this.timeoutMs);
      return;
    }
    const port = socket.address().port;
    const multicast = this.multicast && this.joinGroup(socket, port);
    this.open.push({ socket, port, multicast });
  }

  /** Joins the group on each interface it can; true when at least one join worked. */
  private joinGroup(socket: dgram.Socket, port: number): boolean {
    const interfaces = this.interfaces ?? ipv4Addresses();
    if (interfaces.length === 0) {
      this.problem(port, `join ${BEACON_MULTICAST_GROUP}`, new Error('no IPv4 interface'));
      return false;
    }
    let joined = 0;
    for (const address of interfaces) {
      try {
        socket.addMembership(BEACON_MULTICAST_GROUP, address);
        joined++;
      } catch (error) {
        // Typical: an interface without multicast, or one that went away (ENODEV, EADDRNOTAVAIL).
        this.problem(port, `join ${BEACON_MULTICAST_GROUP} on ${address}`, error);
      }
    }
    return joined > 0;
  }

  private onDatagram(data: Buffer, remote: dgram.RemoteInfo): void {
    const message = parseBeacon(data.toString('utf8'));
    if (message === undefined) {
      this.ignored++;
      return;
    }
    this.accepted++;
    const { player, added } = this.registry.record(message, remote.address);
    if (added) {
      const name = player.projectName ? `${player.projectName} on ${player.label}` : player.label;
      this.log(
        `beacon: heard ${name} (${player.key}), debugger ${player.endpoint}${player.debugEnabled ? '' : ', script debugging off'}`,
      );
    }
  }

  private problem(port: number | undefined, what: string, error: unknown): void {
    const entry: ListenerProblem = { what, error: messageOf(error) };
    if (port !== undefined) entry.port = port;
    this.problems.push(entry);
    this.log(`beacon: ${what}${port !== undefined ? ` (port ${port})` : ''}: ${entry.error}`);
  }
}

/** IPv4 addresses of this host's interfaces, loopback included (a local player multicasts there too). */
function ipv4Addresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((i) => i.family === 'IPv4')
    .map((i) => i.address);
}

function bindBounded(
  socket: dgram.Socket,
  port: number,
  address: string,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown): void => {
      clearTimeout(timer);
      socket.off('error', done);
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(messageOf(error)));
    };
    const timer = setTimeout(
      () => done(new Error(`bind did not complete within ${timeoutMs} ms`)),
      timeoutMs,
    );
    // Bind failures arrive as an 'error' event, not through the callback.
    socket.once('error', done);
    try {
      // exclusive: in a cluster worker, do not share the primary's handle.
      socket.bind({ port, address, exclusive: true }, () => done());
    } catch (error) {
      done(error ?? new Error('bind failed'));
    }
  });
}

function closeBounded(socket: dgram.Socket, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    try {
      socket.close(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      // Already closed (ERR_SOCKET_DGRAM_NOT_RUNNING).
      clearTimeout(timer);
      resolve();
    }
  });
}
