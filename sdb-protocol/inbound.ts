// What the agent sends, routed: the byte stream is framed into packets, replies go to the
// request pipeline, composite event sets are counted (an ALL-policy set is a suspend level we
// hold), decoded and queued for delivery; a corrupt stream is reported once.

import { PacketReader } from './buffer-reader.js';
import { SdbConnectionClosedError } from './errors.js';
import { readEventSet, type EventSet } from './events.js';
import { PacketFramer, type Packet, type ReplyPacket } from './framing.js';
import type { ConnectionState } from './request-pipeline.js';
import { CommandSet, EVENT_COMPOSITE } from './vocabulary.js';

/** Where what arrives goes. */
export interface InboundHooks {
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
    private readonly state: Omit<ConnectionState, 'closeReason'>,
    private readonly hooks: InboundHooks,
    maxPacketBytes: number | undefined,
  ) {
    this.framer = new PacketFramer(maxPacketBytes);
  }

  push(chunk: Buffer): void {
    const { state, hooks } = this;
    state.stats.bytesReceived += chunk.length;
    const packets = this.framer.push(chunk);
    for (const p of packets) this.onPacket(p);
    if (this.framer.error)
      hooks.corrupt(
        new SdbConnectionClosedError(
          `connection to ${state.endpoint} dropped: ${this.framer.error.message}`,
          { cause: this.framer.error },
        ),
      );
  }

  private onPacket(p: Packet): void {
    const { state, hooks } = this;
    if (p.kind === 'reply') {
      state.stats.repliesReceived++;
      if (!hooks.reply(p))
        hooks.log(`sdb: reply ${p.id} matches no pending request (timed out earlier?)`);
      return;
    }
    if (p.commandSet !== CommandSet.EVENT || p.command !== EVENT_COMPOSITE) {
      hooks.log(`sdb: ignoring agent command ${p.commandSet}/${p.command}`);
      return;
    }
    state.stats.eventSetsReceived++;
    // Count the suspension before anything can fail: an undecodable ALL-policy set still
    // suspended the VM, and close() must resume it. The set's first byte is its policy.
    hooks.eventPolicy(p.body[0]);
    let set: EventSet;
    try {
      set = readEventSet(new PacketReader(p.body, state.knownIds), state.version);
    } catch (e) {
      hooks.log(`sdb: undecodable event set: ${(e as Error).message}`);
      return;
    }
    hooks.event(set);
  }
}
