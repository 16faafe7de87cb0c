// A scripted stand-in for Mono's debugger agent, for unit tests of the connection and of what is
// built on it: it speaks the handshake and framing, answers VERSION/SET_PROTOCOL_VERSION/SUSPEND/
// RESUME/DISPOSE like Mono 6.8 does, and lets a test script everything else. It serves either a
// loopback socket (FakeAgent.start) or in-memory pairs (FakeAgent.inMemory), the same way.

import { PacketWriter } from '../buffer-writer.js';
import { commands, type CommandName } from '../commands/index.js';
import type { ConnectOptions } from '../connection-options.js';
import { SdbConnection } from '../connection.js';
import { PacketFramer, encodeReplyPacket, type CommandPacket } from '../framing.js';
import { listenLoopback } from '../socket-transport.js';
import type { Transport } from '../transport.js';
import {
  COMMAND_FLAG,
  CommandSet,
  ErrorCode,
  EVENT_COMPOSITE,
  EventKind,
  HANDSHAKE,
  HEADER_SIZE,
  SuspendPolicy,
  type CommandSetName,
} from '../vocabulary.js';
import type { RuntimeKind } from '../runtime-profile.js';
import {
  profileReply,
  versionOf,
  violationOf,
  type FakeRuntimeModel,
  type Violation,
} from './fake-profiles.js';
import { memoryPair } from './memory-transport.js';

export interface FakeReply {
  error?: number;
  body?: Uint8Array;
}

/** Returns the reply(ies) to send, or 'none' to stay silent. */
export type FakeHandler = (
  req: CommandPacket,
  agent: FakeAgent,
) => FakeReply | FakeReply[] | 'none';

export interface FakeAgentOptions {
  /** false: accept the connection but never send the handshake. */
  handshake?: string | false;
  /** Which runtime to answer as (fake-profiles.ts); default Debian's Mono 6.8. */
  profile?: RuntimeKind;
  minor?: number;
  /** Send VM_START right after the handshake (default true). */
  vmStart?: boolean;
}

export type FakeTransportKind = 'socket' | 'memory';

/** The port an in-memory agent goes by: it only names the connection; no socket listens. */
const MEMORY_PORT = 1;

const keyOf = (set: number, command: number): string => `${set}/${command}`;
const namesByKey = new Map<string, CommandName>(
  (Object.keys(commands) as CommandName[]).map((n) => [
    keyOf(CommandSet[commands[n].set], commands[n].command),
    n,
  ]),
);

/** A command's name ('VM.RESUME'), or set/command for one this client does not define. */
export function commandNameOf(p: CommandPacket): string {
  return namesByKey.get(keyOf(p.commandSet, p.command)) ?? keyOf(p.commandSet, p.command);
}

/** Accepts a command name, or a set name and command number. */
type CommandRef = [name: CommandName] | [set: CommandSetName, command: number];

function keyOfRef(ref: CommandRef): string {
  if (ref.length === 2) return keyOf(CommandSet[ref[0]], ref[1]);
  const def = commands[ref[0]];
  return keyOf(CommandSet[def.set], def.command);
}

export class FakeAgent {
  readonly received: CommandPacket[] = [];
  suspendCount = 0;
  /** The runtime this agent answers as. */
  readonly profile: RuntimeKind;
  /** Requests this runtime must never receive that it received anyway (a test asserts none). */
  readonly violations: Violation[] = [];
  /** What the profile's answers depend on (fake-profiles.ts); tests and fake games fill it. */
  readonly model: FakeRuntimeModel = {
    nullableParamMethods: new Set(),
    frameCounts: new Map(),
    loadedClasses: [],
    noAotMethods: new Set(),
    executionEngineException: 0,
    nextRequestId: () => ++this.requestIds,
  };
  private requestIds = 9000;
  private readonly handlers = new Map<string, FakeHandler>();
  private peer: Transport | undefined;
  private eventId = 0;
  private waiters: { key: string; resolve: (p: CommandPacket) => void }[] = [];
  private peerClosedValue = false;
  private peerClosing: Promise<void> | undefined;

  private constructor(
    readonly transport: FakeTransportKind,
    readonly port: number,
    private readonly listener: { close(): Promise<void> } | undefined,
    readonly options: FakeAgentOptions,
  ) {
    this.profile = options.profile ?? 'debian-mono';
    const version = versionOf[this.profile];
    this.on('VM.VERSION', () => ({
      body: new PacketWriter()
        .string(version.description)
        .i32(2)
        .i32(options.minor ?? version.minor)
        .body(),
    }));
    this.on('VM.SET_PROTOCOL_VERSION', () => ({}));
    this.on('VM.SUSPEND', () => {
      this.suspendCount++;
      return {};
    });
    this.on('VM.RESUME', () => {
      if (this.suspendCount === 0) return { error: ErrorCode.NOT_SUSPENDED };
      this.suspendCount--;
      return {};
    });
    this.on('VM.DISPOSE', () => {
      this.suspendCount = 0;
      return {};
    });
    // a running game's assemblies (more than the core library: see keepStartSuspended)
    this.on('APPDOMAIN.GET_ASSEMBLIES', () => ({
      body: new PacketWriter().i32(2).i32(1).i32(2).body(),
    }));
  }

  /** An agent on a loopback port (connect with SdbConnection.connect, or connect()). */
  static async start(options: FakeAgentOptions = {}): Promise<FakeAgent> {
    const made: { agent?: FakeAgent } = {};
    const listener = await listenLoopback((t) => made.agent?.accept(t));
    made.agent = new FakeAgent('socket', listener.port, listener, options);
    return made.agent;
  }

  /** An agent that serves in-memory transports: connect() or openTransport(). No socket. */
  static inMemory(options: FakeAgentOptions = {}): FakeAgent {
    return new FakeAgent('memory', MEMORY_PORT, undefined, options);
  }

  static create(kind: FakeTransportKind, options: FakeAgentOptions = {}): Promise<FakeAgent> {
    return kind === 'socket'
      ? FakeAgent.start(options)
      : Promise.resolve(FakeAgent.inMemory(options));
  }

  /** A client end whose peer this agent serves from now on (an in-memory agent's "connect"). */
  openTransport(): Transport {
    if (this.transport !== 'memory')
      throw new Error('openTransport: this agent listens on a socket');
    const [client, server] = memoryPair();
    this.accept(server);
    return client;
  }

  /** Connects a client the way this agent is reached (TCP or in memory). */
  connect(options: Partial<ConnectOptions> = {}): Promise<SdbConnection> {
    const opts = { ...options, port: this.port };
    return this.transport === 'socket'
      ? SdbConnection.connect(opts)
      : SdbConnection.over(this.openTransport(), opts);
  }

  on(...args: [...CommandRef, FakeHandler]): void {
    const handler = args.pop() as FakeHandler;
    this.handlers.set(keyOfRef(args as unknown as CommandRef), handler);
  }

  /** Resolves with the next received command matching set/command. */
  next(...ref: CommandRef): Promise<CommandPacket> {
    const key = keyOfRef(ref);
    return new Promise((resolve) => this.waiters.push({ key, resolve }));
  }

  count(...ref: CommandRef): number {
    const key = keyOfRef(ref);
    return this.received.filter((p) => keyOf(p.commandSet, p.command) === key).length;
  }

  /** The first received command of that name. */
  find(name: CommandName): CommandPacket | undefined {
    const key = keyOfRef([name]);
    return this.received.find((p) => keyOf(p.commandSet, p.command) === key);
  }

  /** Names of the commands received from index `from` on. */
  namesSince(from = 0): string[] {
    return this.received.slice(from).map(commandNameOf);
  }

  reply(id: number, r: FakeReply): void {
    this.peer?.write(encodeReplyPacket(id, r.error ?? 0, r.body ?? new Uint8Array()));
  }

  /** A composite event packet with the given body (policy, count, events). */
  eventPacket(body: Uint8Array): Buffer {
    const packet = Buffer.alloc(HEADER_SIZE + body.length);
    packet.writeInt32BE(packet.length, 0);
    packet.writeInt32BE(++this.eventId, 4);
    packet[8] = COMMAND_FLAG;
    packet[9] = CommandSet.EVENT;
    packet[10] = EVENT_COMPOSITE;
    packet.set(body, HEADER_SIZE);
    return packet;
  }

  /** Sends a composite event packet with the given body (policy, count, events). */
  sendEvent(body: Uint8Array): void {
    this.peer?.write(this.eventPacket(body));
  }

  sendRaw(bytes: Uint8Array): void {
    this.peer?.write(bytes);
  }

  dropConnection(): void {
    this.peer?.destroy();
  }

  async stop(): Promise<void> {
    this.peer?.destroy();
    await this.listener?.close();
  }

  /**
   * With `handshake: false`: greets the connection now and serves it from here on, as Mono does
   * with a connection that waited in its backlog once the debugger before it leaves.
   */
  greetLate(): void {
    if (!this.peer) throw new Error('greetLate: no connection to greet');
    this.serve(this.peer);
  }

  /** Whether the connection this agent serves has closed (at either end). */
  get peerClosed(): boolean {
    return this.peerClosedValue;
  }

  /** Resolves once the connection this agent serves has closed. */
  whenPeerClosed(): Promise<void> {
    return this.peerClosing ?? Promise.reject(new Error('whenPeerClosed: no connection'));
  }

  private accept(peer: Transport): void {
    this.peer = peer;
    this.peerClosedValue = false;
    this.peerClosing = new Promise((resolve) =>
      peer.onClose(() => {
        this.peerClosedValue = true;
        resolve();
      }),
    );
    if (this.options.handshake === false) return;
    this.serve(peer);
  }

  private serve(peer: Transport): void {
    const greeting =
      typeof this.options.handshake === 'string' ? this.options.handshake : HANDSHAKE;
    peer.write(Buffer.from(greeting, 'latin1'));
    const framer = new PacketFramer();
    let handshaken = false;
    let pre = Buffer.alloc(0);
    peer.onData((chunk) => {
      if (!handshaken) {
        pre = Buffer.concat([pre, chunk]);
        if (pre.length < HANDSHAKE.length) return;
        handshaken = true;
        chunk = pre.subarray(HANDSHAKE.length);
        if (this.options.vmStart !== false) {
          // VM_START: request 0, thread 1, root domain 1
          this.sendEvent(
            new PacketWriter()
              .u8(SuspendPolicy.NONE)
              .i32(1)
              .u8(EventKind.VM_START)
              .i32(0)
              .i32(1)
              .i32(1)
              .body(),
          );
        }
      }
      for (const p of framer.push(chunk)) {
        if (p.kind !== 'command') continue;
        this.received.push(p);
        const key = keyOf(p.commandSet, p.command);
        const w = this.waiters.findIndex((x) => x.key === key);
        if (w >= 0) this.waiters.splice(w, 1)[0]!.resolve(p);
        const violation = violationOf(this.profile, p, this.model);
        if (violation) {
          this.violations.push(violation);
          if (violation.fatal) {
            peer.destroy(); // the player died
            return;
          }
        }
        const own = profileReply(
          this.profile,
          p,
          this.model,
          () => this.suspendCount,
          (body) => this.sendEvent(body),
        );
        const handler = this.handlers.get(key);
        const out =
          own === 'resume-anyway'
            ? {}
            : (own ?? (handler ? handler(p, this) : { error: ErrorCode.NOT_IMPLEMENTED }));
        if (out === 'none') continue;
        for (const r of Array.isArray(out) ? out : [out]) this.reply(p.id, r);
      }
    });
  }
}
