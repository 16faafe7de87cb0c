// The byte stream under a connection, a few members wide, so the connection runs the same over
// a TCP socket (socket-transport.ts) and over an in-memory pair (testing/memory-transport.ts).

export interface Transport {
  /** Queues bytes for the peer, in order. Bytes written after end() or destroy() are dropped. */
  write(bytes: Uint8Array): void;
  /**
   * Sets the one consumer of received bytes, replacing the previous one. A chunk may be a view
   * of a reused read buffer: the sink consumes it before returning and keeps no reference.
   */
  onData(sink: (chunk: Buffer) => void): void;
  /**
   * Calls `listener` once, when the stream has closed (at either end): with the error that
   * closed it, or undefined for an orderly close. Returns the unsubscribe function.
   */
  onClose(listener: (cause: Error | undefined) => void): () => void;
  /** Closes once the bytes written so far have left; the peer reads them all first. */
  end(): void;
  /** Closes now. */
  destroy(): void;
}
