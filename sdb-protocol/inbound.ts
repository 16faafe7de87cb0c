// What the agent sends, routed: the byte stream is framed into packets, replies go to the
// request pipeline, composite event sets are counted (an ALL-policy set is a suspend level we
// hold), decoded and queued for delivery; a corrupt stream is reported once.

import { PacketReader } from './buffer-reader.js';
import type { ConnectionStats } from './connection-options.js';
import { SdbConnectionClosedError } from './errors.js';
import { readEventSet, type EventSet } from './events.js';
import { PacketFramer, type Packet, type ReplyPacket } from './framing.js';
import type { KnownIds } from './known-ids.js';
import { CommandSet, EVENT_COMPOSITE } from './vocabulary.js';
import type { ProtocolVersion } from './version.js';

export interface InboundHost {
  readonly endpoint: string;
  readonly version: ProtocolVersion;
  readonly knownIds: KnownIds;
  readonly stats: ConnectionStats;
  log(message: string): void;
  /** Routes a reply to its request; false when none waits for it. */
  reply(packet: ReplyPacket): boolean;
  /** An event set's policy byte, before the set is decoded. */
  eventPolicy(policy: number | undefined): void;
  event(set: EventSet): void;
  /** The stream cannot be trusted from here on. */
  corrupt(reason: Error): void;
}

export class Inbound {
  private readonly framer: PacketFramer;

  constructor(
    private readonly host: InboundHost,
    maxPacketBytes: number | undefined,
  ) {
    this.framer = new PacketFramer(maxPacketBytes);
  }

  push(chunk: Buffer): void {
    const { host } = this;
    host.stats.bytesReceived += chunk.length;
    const packets = this.framer.push(chunk);
    for (const p of packets) this.onPacket(p);
    if (this.framer.error)
      host.corrupt(
        new SdbConnectionClosedError(
          `connection to ${host.endpoint} dropped: ${this.framer.error.message}`,
          { cause: this.framer.error },
        ),
      );
  }

  private onPacket(p: Packet): void {
    const { host } = this;
    if (p.kind === 'reply') {
      host.stats.repliesReceived++;
      if (!host.reply(p))
        host.log(`sdb: reply ${p.id} matches no pending request (timed out earlier?)`);
      return;
    }
    if (p.commandSet !== CommandSet.EVENT || p.command !== EVENT_COMPOSITE) {
      host.log(`sdb: ignoring agent command ${p.commandSet}/${p.command}`);
      return;
    }
    host.stats.eventSetsReceived++;
    // Count the suspension before anything can fail: an undecodable ALL-policy set still
    // suspended the VM, and close() must resume it. The set's first byte is its policy.
    host.eventPolicy(p.body[0]);
    let set: EventSet;
    try {
      set = readEventSet(new PacketReader(p.body, host.knownIds), host.version);
    } catch (e) {
      host.log(`sdb: undecodable event set: ${(e as Error).message}`);
      return;
    }
    host.event(set);
  }
}
