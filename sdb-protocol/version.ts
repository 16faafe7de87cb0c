// The negotiated protocol version is a value passed to every codec whose layout changes; each
// gate names the minor version it depends on ("since 2.N", sdb-protocol.md §8.2).

/** The newest layouts this client implements; we declare min(agent minor, this). */
export const IMPLEMENTED_MINOR = 56;

export class ProtocolVersion {
  constructor(
    readonly major: number,
    readonly minor: number,
  ) {}

  /** True when layouts introduced in 2.`minor` apply. */
  atLeast(minor: number): boolean {
    return this.major > 2 || (this.major === 2 && this.minor >= minor);
  }

  toString(): string {
    return `${this.major}.${this.minor}`;
  }

  /** Before SET_PROTOCOL_VERSION the agent treats every gate as false. */
  static readonly UNSET = new ProtocolVersion(2, 0);

  /** What to declare to an agent that reports `agentMinor`. */
  static negotiate(agentMajor: number, agentMinor: number): ProtocolVersion {
    return new ProtocolVersion(
      2,
      agentMajor > 2 ? IMPLEMENTED_MINOR : Math.min(agentMinor, IMPLEMENTED_MINOR),
    );
  }
}
