// The dashboard's server-sent events: one ticker for every page open (every 500 ms while at
// least one listens), the state sent only when it changed in more than its durations (the page
// counts those on by itself), a comment every 15 s so proxies and the browser keep the stream.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { messageOf } from '../../unity/errors.js';
import { sendError } from '../http-routes.js';
import { stateSignature, type DashboardState } from './state.js';

export const EVENT_EVERY_MS = 500;
const KEEPALIVE_MS = 15_000;
/** Open event streams, at most (a page more falls back to polling). */
export const MAX_STREAMS = 16;

export class EventHub {
  /** Each open stream with the signature of the state it was sent last. */
  private readonly streams = new Map<ServerResponse, string>();
  private timer: NodeJS.Timeout | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private reading = false;

  constructor(
    private readonly read: () => Promise<DashboardState>,
    private readonly log: (line: string) => void,
  ) {}

  async subscribe(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.streams.size >= MAX_STREAMS) {
      sendError(
        res,
        503,
        'TOO_MANY_STREAMS',
        `at most ${MAX_STREAMS} dashboard pages stream at once`,
      );
      return;
    }
    const state = await this.read();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    res.write(`retry: 1000\ndata: ${JSON.stringify(state)}\n\n`);
    this.streams.set(res, stateSignature(state));
    const gone = (): void => {
      this.streams.delete(res);
      if (this.streams.size === 0) this.stop();
    };
    req.once('close', gone);
    res.once('close', gone);
    this.start();
  }

  private start(): void {
    this.timer ??= setInterval(() => void this.tick(), EVENT_EVERY_MS);
    this.keepalive ??= setInterval(() => {
      for (const s of this.streams.keys()) s.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
  }

  private stop(): void {
    clearInterval(this.timer);
    clearInterval(this.keepalive);
    this.timer = undefined;
    this.keepalive = undefined;
  }

  private async tick(): Promise<void> {
    if (this.reading || this.streams.size === 0) return;
    this.reading = true;
    try {
      const state = await this.read();
      const sig = stateSignature(state);
      const frame = `data: ${JSON.stringify(state)}\n\n`;
      for (const [s, last] of this.streams) {
        if (last === sig) continue;
        this.streams.set(s, sig);
        s.write(frame);
      }
    } catch (e) {
      this.log(`dashboard events: ${messageOf(e)}`);
    } finally {
      this.reading = false;
    }
  }

  /** Ends every stream (the server closing). */
  close(): Promise<void> {
    this.stop();
    for (const s of this.streams.keys()) s.end();
    this.streams.clear();
    return Promise.resolve();
  }
}
