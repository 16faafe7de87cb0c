// The MCP SDK's Transport over a connected socket to (or from) the broker: newline-delimited
// JSON-RPC, stdio's framing (the SDK's own ReadBuffer and serializeMessage). One class serves
// both ends: the broker's server side and the client side of the CLI, tests and the bench.

import type { Socket } from 'node:net';

import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  /** `leftover`: bytes read past the preamble, the first of the MCP stream. */
  constructor(
    private readonly socket: Socket,
    private readonly leftover?: Buffer,
  ) {}

  start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (e) => this.onerror?.(e));
    this.socket.once('close', () => this.finish());
    if (this.leftover?.length) this.receive(this.leftover);
    this.socket.resume();
    if (this.socket.destroyed) this.finish();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.socket.destroyed)
      return Promise.reject(new Error('the broker connection is closed'));
    return new Promise((resolve, reject) => {
      this.socket.write(serializeMessage(message), (e) => (e ? reject(e) : resolve()));
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
      // a peer that never ends its half: do not wait for it
      setTimeout(() => this.socket.destroy(), 500).unref();
    });
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (e) {
      // a line over the SDK's 10 MiB bound: the stream cannot be resynchronised
      this.onerror?.(e as Error);
      this.socket.destroy();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (e) {
        this.onerror?.(e as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
