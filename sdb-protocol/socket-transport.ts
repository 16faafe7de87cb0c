// The TCP implementation of Transport, and the only file of the wire client that touches
// node:net: a bounded connect, reads into one reused buffer, and one write per tick.

import net from 'node:net';

import { SdbConnectionClosedError } from './errors.js';
import type { Transport } from './transport.js';

const READ_BUFFER_BYTES = 256 * 1024;

export interface SocketTarget {
  host: string;
  port: number;
  connectTimeoutMs: number;
}

/** Opens a TCP connection to an agent, within the connect bound. */
export async function connectSocket(target: SocketTarget): Promise<Transport> {
  const endpoint = `${target.host}:${target.port}`;
  const socket = net.connect({
    host: target.host,
    port: target.port,
    // The socket reads into one reused buffer: no allocation and no stream machinery per read.
    onread: {
      buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      callback: (nread: number, buf: Uint8Array) => {
        transport.deliver(Buffer.from(buf.buffer, buf.byteOffset, nread));
        return true;
      },
    },
  });
  socket.setNoDelay(true);
  // Built before connecting, so an 'error' event always has a listener.
  const transport = new SocketTransport(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new SdbConnectionClosedError(
              `TCP connect to ${endpoint} timed out after ${target.connectTimeoutMs} ms`,
            ),
          ),
        target.connectTimeoutMs,
      );
      const onError = (err: Error): void => {
        clearTimeout(timer);
        reject(
          new SdbConnectionClosedError(
            `cannot connect to the debugger agent at ${endpoint}: ${err.message}`,
            { cause: err },
          ),
        );
      };
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        resolve();
      });
      socket.once('error', onError);
    });
  } catch (e) {
    socket.destroy();
    throw e;
  }
  return transport;
}

/** A loopback listener handing each accepted connection out as a Transport (the fake agent's). */
export async function listenLoopback(
  onConnection: (transport: Transport) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const transport = new SocketTransport(socket);
    socket.on('data', (chunk: Buffer) => transport.deliver(chunk));
    onConnection(transport);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

class SocketTransport implements Transport {
  private sink: (chunk: Buffer) => void = () => undefined;
  private cause: Error | undefined;
  private closed = false;
  private readonly closeListeners = new Set<(cause: Error | undefined) => void>();
  private inTick = false;
  private corked = false;

  constructor(private readonly socket: net.Socket) {
    // 'close' always follows 'error'; the error is the close's cause
    socket.on('error', (err) => (this.cause ??= err));
    socket.on('close', () => {
      this.closed = true;
      for (const listener of [...this.closeListeners]) listener(this.cause);
      this.closeListeners.clear();
    });
  }

  deliver(chunk: Buffer): void {
    this.sink(chunk);
  }

  write(bytes: Uint8Array): void {
    // The first write of a tick leaves at once (a lone request waits for nothing); the rest of
    // the tick's writes leave together: a pipelined burst costs one syscall.
    if (!this.inTick) {
      this.inTick = true;
      process.nextTick(() => {
        this.inTick = false;
        if (this.corked) {
          this.corked = false;
          this.socket.uncork();
        }
      });
    } else if (!this.corked) {
      this.corked = true;
      this.socket.cork();
    }
    this.socket.write(bytes);
  }

  onData(sink: (chunk: Buffer) => void): void {
    this.sink = sink;
  }

  onClose(listener: (cause: Error | undefined) => void): () => void {
    if (this.closed) {
      process.nextTick(() => listener(this.cause));
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }
}
