// `unity-devtools mcp`: the stdio front-end an MCP host starts. A transparent relay between the
// host's stdin/stdout and the broker's socket, line for line. It parses each line (JSON.parse
// only) to know the host's pending requests and to keep its `initialize`, so that when the
// broker dies it answers what was pending itself (BROKER_LOST) and the next request reconnects
// to a new broker, replaying the initialize. It imports neither the MCP SDK nor zod nor any
// tool: spawn → tools/list must stay under 300 ms when a broker already runs.

import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

import { BrokerError, brokerErrors } from './errors.js';
import type { BrokerLink } from './client.js';

type Id = string | number;

interface Message {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

export interface RelayOptions {
  input: Readable;
  output: Writable;
  /** Connect-or-spawn plus the preamble (client.ts), called at the first request and after a loss. */
  connect: () => Promise<BrokerLink>;
  /** Called once per link with the broker's answer (to compare settings, say). */
  onLink?: (link: BrokerLink) => void;
  log?: (line: string) => void;
}

const REPLAY_ID_PREFIX = 'unity-devtools-relay-initialize-';

/**
 * Splits a byte stream into lines; calls `onLine` for each complete one. A character whose UTF-8
 * bytes straddle two chunks is decoded whole (a StringDecoder keeps the partial bytes).
 */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending = '';
  const decoder = new StringDecoder('utf8');
  return (chunk) => {
    const text = pending + decoder.write(chunk);
    const lines = text.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) {
      const line = l.replace(/\r$/, '');
      if (line.trim()) onLine(line);
    }
  };
}

function parse(line: string): Message | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export class Relay {
  private link: BrokerLink | undefined;
  private connecting: Promise<void> | undefined;
  /** Lines from the host waiting for a link. */
  private queue: string[] = [];
  /** The host's requests the broker has not answered: id → method. */
  private readonly pending = new Map<Id, string>();
  private initialize: Message | undefined;
  private initialized = false;
  /** After a loss, the next link replays initialize first. */
  private replay = false;
  private replays = 0;
  private readonly replayIds = new Set<Id>();
  private closed = false;
  /**
   * The broker died and no tools/call of the host was told (none was pending): the next one is
   * answered BROKER_LOST, so the agent learns its holds and breakpoints are gone before it
   * relies on them; the call after reconnects.
   */
  private untold: BrokerError | undefined;
  private readonly log: (line: string) => void;
  private readonly onInput = lineSplitter((line) => this.fromHost(line));
  private readonly ended: Promise<void>;
  private endInput!: () => void;

  constructor(private readonly opts: RelayOptions) {
    this.log = opts.log ?? (() => undefined);
    this.ended = new Promise((r) => (this.endInput = r));
  }

  /** Starts relaying; resolves when the host's input ends or `close()` is called. */
  run(): Promise<void> {
    this.opts.input.on('data', this.onInput);
    this.opts.input.once('end', () => void this.close());
    this.opts.input.once('close', () => void this.close());
    return this.ended;
  }

  /** Closes the broker connection (the broker then releases this caller). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.opts.input.off('data', this.onInput);
    const socket = this.link?.socket;
    this.link = undefined;
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.end();
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 500).unref();
      });
    }
    this.endInput();
  }

  private fromHost(line: string): void {
    const m = parse(line);
    if (m?.method !== undefined && m.id !== undefined && m.id !== null) {
      if (m.method === 'tools/call' && this.untold && !this.link) {
        const err = this.untold;
        this.untold = undefined;
        this.pending.set(m.id, m.method);
        this.answerLocally(m.id, err);
        return;
      }
      this.pending.set(m.id, m.method);
      if (m.method === 'initialize') this.initialize = m;
    } else if (m?.method === 'notifications/initialized') {
      this.initialized = true;
    }
    if (this.link) {
      this.link.socket.write(`${line}\n`);
      return;
    }
    this.queue.push(line);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
  }

  private async connect(): Promise<void> {
    let link: BrokerLink;
    try {
      link = await this.opts.connect();
    } catch (e) {
      // nothing reached a broker: every queued request is answered with why; the next retries
      const lines = this.queue;
      this.queue = [];
      const err = e instanceof BrokerError ? e : brokerErrors.startFailed((e as Error).message, '');
      this.log(`${err.code}: ${err.message}`);
      for (const line of lines) {
        const m = parse(line);
        if (m?.id !== undefined && m.id !== null && m.method !== undefined)
          this.answerLocally(m.id, err);
      }
      return;
    }
    if (this.closed) {
      link.socket.destroy();
      return;
    }
    this.opts.onLink?.(link);
    this.link = link;
    const socket = link.socket;
    const onData = lineSplitter((line) => this.fromBroker(line));
    socket.on('data', onData);
    socket.once('close', () => this.lost(link));
    socket.on('error', (e) => this.log(`broker connection: ${e.message}`));
    if (link.rest.length) onData(link.rest);
    socket.resume();
    if (this.replay && this.initialize) {
      const id = `${REPLAY_ID_PREFIX}${++this.replays}`;
      this.replayIds.add(id);
      socket.write(`${JSON.stringify({ ...this.initialize, id })}\n`);
      if (this.initialized)
        socket.write(
          `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
        );
    }
    this.replay = false;
    const lines = this.queue;
    this.queue = [];
    for (const line of lines) socket.write(`${line}\n`);
  }

  private fromBroker(line: string): void {
    const m = parse(line);
    if (m && m.method === undefined && m.id !== undefined && m.id !== null) {
      if (this.replayIds.delete(m.id)) return; // the replayed initialize's answer: ours
      this.pending.delete(m.id);
    }
    this.opts.output.write(`${line}\n`);
  }

  private lost(link: BrokerLink): void {
    if (this.link === link) this.link = undefined;
    this.replayIds.clear();
    if (this.closed) return;
    this.replay = true;
    const err = brokerErrors.lost(link.answer.pid);
    this.log(`${err.code}: ${err.message}`);
    // the lines still queued went nowhere; the pending requests were sent and will never be
    // answered: both are answered here
    const told = [...this.pending.values()].includes('tools/call');
    for (const [id] of this.pending) this.answerLocally(id, err);
    this.untold = told ? undefined : err;
    if (this.queue.length)
      this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
  }

  private answerLocally(id: Id, err: BrokerError): void {
    const method = this.pending.get(id);
    this.pending.delete(id);
    const text = `${err.code}: ${err.message}`;
    const reply =
      method === 'tools/call'
        ? {
            jsonrpc: '2.0',
            id,
            result: {
              content: [{ type: 'text', text }],
              isError: true,
              _meta: { code: err.code },
            },
          }
        : { jsonrpc: '2.0', id, error: { code: -32000, message: text, data: { code: err.code } } };
    this.opts.output.write(`${JSON.stringify(reply)}\n`);
  }
}
