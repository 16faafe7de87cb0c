// A scripted stand-in for Mono's debugger agent on a loopback port, for unit tests of the
// connection: it speaks the handshake and framing, answers VERSION/SET_PROTOCOL_VERSION/SUSPEND/
// RESUME/DISPOSE like Mono 6.8 does, and lets a test script everything else.

import net from 'node:net';

import { PacketWriter } from '../buffer-writer.js';
import { PacketFramer, encodeReplyPacket, type CommandPacket } from '../framing.js';
import { CommandSet, ErrorCode, EVENT_COMPOSITE, HANDSHAKE, HEADER_SIZE } from '../vocabulary.js';

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
  /** false: accept the TCP connection but never send the handshake. */
  handshake?: string | false;
  minor?: number;
  /** Send VM_START right after the handshake (default true). */
  vmStart?: boolean;
}

export class FakeAgent {
  readonly received: CommandPacket[] = [];
  suspendCount = 0;
  private readonly handlers = new Map<string, FakeHandler>();
  private socket: net.Socket | undefined;
  private eventId = 0;
  private waiters: { match: (p: CommandPacket) => boolean; resolve: (p: CommandPacket) => void }[] =
    [];
  readonly connected: Promise<net.Socket>;
  private onConnected!: (s: net.Socket) => void;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    readonly options: FakeAgentOptions,
  ) {
    this.connected = new Promise((resolve) => (this.onConnected = resolve));
    this.on('VM', 1, () => ({
      body: new PacketWriter()
        .string('fake mono')
        .i32(2)
        .i32(options.minor ?? 54)
        .body(),
    }));
    this.on('VM', 8, () => ({}));
    this.on('VM', 3, () => {
      this.suspendCount++;
      return {};
    });
    this.on('VM', 4, () => {
      if (this.suspendCount === 0) return { error: ErrorCode.NOT_SUSPENDED };
      this.suspendCount--;
      return {};
    });
    this.on('VM', 6, () => {
      this.suspendCount = 0;
      return {};
    });
    // APPDOMAIN.GET_ASSEMBLIES: a running game's (more than the core library: see
    // SdbConnection's keepStartSuspended)
    this.on('APPDOMAIN', 3, () => ({ body: new PacketWriter().i32(2).i32(1).i32(2).body() }));
  }

  static async start(options: FakeAgentOptions = {}): Promise<FakeAgent> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const agent = new FakeAgent(server, port, options);
    server.on('connection', (s) => agent.accept(s));
    return agent;
  }

  on(set: keyof typeof CommandSet, command: number, handler: FakeHandler): void {
    this.handlers.set(`${CommandSet[set]}/${command}`, handler);
  }

  /** Resolves with the next received command matching set/command. */
  next(set: keyof typeof CommandSet, command: number): Promise<CommandPacket> {
    return new Promise((resolve) =>
      this.waiters.push({
        match: (p) => p.commandSet === CommandSet[set] && p.command === command,
        resolve,
      }),
    );
  }

  count(set: keyof typeof CommandSet, command: number): number {
    return this.received.filter((p) => p.commandSet === CommandSet[set] && p.command === command)
      .length;
  }

  reply(id: number, r: FakeReply): void {
    this.socket?.write(encodeReplyPacket(id, r.error ?? 0, r.body ?? new Uint8Array()));
  }

  /** Sends a composite event packet with the given body (policy, count, events). */
  sendEvent(body: Uint8Array): void {
    const packet = Buffer.alloc(HEADER_SIZE + body.length);
    packet.writeInt32BE(packet.length, 0);
    packet.writeInt32BE(++this.eventId, 4);
    packet[8] = 0;
    packet[9] = CommandSet.EVENT;
    packet[10] = EVENT_COMPOSITE;
    packet.set(body, HEADER_SIZE);
    this.socket?.write(packet);
  }

  sendRaw(bytes: Uint8Array): void {
    this.socket?.write(bytes);
  }

  dropConnection(): void {
    this.socket?.destroy();
  }

  async stop(): Promise<void> {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    this.onConnected(socket);
    if (this.options.handshake === false) return;
    socket.write(this.options.handshake ?? HANDSHAKE);
    const framer = new PacketFramer();
    let handshaken = false;
    let pre = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (!handshaken) {
        pre = Buffer.concat([pre, chunk]);
        if (pre.length < HANDSHAKE.length) return;
        handshaken = true;
        chunk = pre.subarray(HANDSHAKE.length);
        if (this.options.vmStart !== false) {
          // VM_START: policy NONE, 1 event, kind 0, request 0, thread 1, root domain 1
          this.sendEvent(new PacketWriter().u8(0).i32(1).u8(0).i32(0).i32(1).i32(1).body());
        }
      }
      for (const p of framer.push(chunk)) {
        if (p.kind !== 'command') continue;
        this.received.push(p);
        const w = this.waiters.findIndex((x) => x.match(p));
        if (w >= 0) this.waiters.splice(w, 1)[0]!.resolve(p);
        const handler = this.handlers.get(`${p.commandSet}/${p.command}`);
        const out = handler
          ? handler(p, this)
          : ({ error: ErrorCode.NOT_IMPLEMENTED } as FakeReply);
        if (out === 'none') continue;
        for (const r of Array.isArray(out) ? out : [out]) this.reply(p.id, r);
      }
    });
  }
}
