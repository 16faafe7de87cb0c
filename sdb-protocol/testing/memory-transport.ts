// Two Transports joined in memory, for tests that need a connection and no socket. Bytes arrive
// on a later turn of the event loop, as a socket's do, and all that one end wrote by then
// arrives as one chunk (as a socket read may join writes); closing at either end closes both,
// after the bytes already written have been delivered.

import type { Transport } from '../transport.js';

export function memoryPair(): [Transport, Transport] {
  const a = new MemoryEnd();
  const b = new MemoryEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class MemoryEnd implements Transport {
  peer!: MemoryEnd;
  private sink: (chunk: Buffer) => void = () => undefined;
  private readonly closeListeners = new Set<(cause: Error | undefined) => void>();
  private inbox: Buffer[] = [];
  private flushScheduled = false;
  /** No more writes from this end (end() or destroy() was called, or the stream closed). */
  private writable = true;
  /** The stream closes once the inbox is delivered. */
  private closeAfterInbox = false;
  private closed = false;

  write(bytes: Uint8Array): void {
    if (!this.writable) return;
    this.peer.receive(Buffer.from(bytes)); // a copy: the writer may reuse its buffer
  }

  onData(sink: (chunk: Buffer) => void): void {
    this.sink = sink;
  }

  onClose(listener: (cause: Error | undefined) => void): () => void {
    if (this.closed) {
      setImmediate(() => listener(undefined));
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  end(): void {
    this.writable = false;
    this.peer.closeWhenDelivered();
    this.closeWhenDelivered();
  }

  destroy(): void {
    this.writable = false;
    this.inbox = []; // what had not been read is lost, as with a socket
    this.peer.closeWhenDelivered();
    this.closeWhenDelivered();
  }

  private receive(chunk: Buffer): void {
    if (this.closed || this.closeAfterInbox) return;
    this.inbox.push(chunk);
    this.schedule();
  }

  private closeWhenDelivered(): void {
    if (this.closed) return;
    this.closeAfterInbox = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.closed) return;
    const chunks = this.inbox;
    this.inbox = [];
    if (chunks.length > 0) this.sink(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    if (!this.closeAfterInbox || this.closed) return;
    this.closed = true;
    this.writable = false;
    for (const listener of [...this.closeListeners]) listener(undefined);
    this.closeListeners.clear();
  }
}
