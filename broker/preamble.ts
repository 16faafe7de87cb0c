// The first line of every connection to the broker: the front-end says who it is, the broker
// answers who it is (or why not) and, from then on, the connection is MCP: newline-delimited
// JSON-RPC, exactly stdio's framing. SDK-free (the stdio front-end loads it).

import type { Socket } from 'node:net';

import { BrokerError, brokerErrors } from './errors.js';

export const BROKER_PROTOCOL = 1;

/** Where a caller's calls go until it attaches or names a player (unity/session's Target). */
export type PreambleTarget =
  { kind: 'endpoint'; host: string; port: number } | { kind: 'player'; selector: string };

export interface FrontEndPreamble {
  frontend: 'unity-devtools';
  protocol: number;
  version: string;
  pid: number;
  kind: 'mcp' | 'cli';
  target?: PreambleTarget;
}

/** The settings a broker runs with (a running broker keeps its own; front-ends compare). */
export interface BrokerSettings {
  beaconPorts?: number[];
  multicast: boolean;
  parkTimeoutMs?: number;
  invokeTimeoutMs?: number;
}

export interface BrokerAnswer {
  broker: 'unity-devtools';
  protocol: number;
  version: string;
  pid: number;
  settings?: BrokerSettings;
}

export interface PreambleRefusal {
  error: { code: 'BROKER_VERSION_MISMATCH' | 'BAD_PREAMBLE'; message: string };
}

/** A preamble line never needs more; anything longer is not one. */
export const MAX_PREAMBLE_BYTES = 16 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseTarget(t: unknown): PreambleTarget | string {
  if (!isObject(t)) return 'target is not an object';
  if (t['kind'] === 'endpoint') {
    const port = t['port'];
    if (typeof t['host'] !== 'string' || typeof port !== 'number' || !Number.isInteger(port))
      return 'an endpoint target needs host (string) and port (integer)';
    return { kind: 'endpoint', host: t['host'], port };
  }
  if (t['kind'] === 'player') {
    if (typeof t['selector'] !== 'string') return 'a player target needs selector (string)';
    return { kind: 'player', selector: t['selector'] };
  }
  return `unknown target kind ${JSON.stringify(t['kind'])}`;
}

/** The broker's reading of a front-end's first line: the preamble, or the refusal to send. */
export function parsePreamble(
  line: string,
  brokerVersion: string,
): { preamble: FrontEndPreamble } | PreambleRefusal {
  const refuse = (message: string): PreambleRefusal => ({
    error: { code: 'BAD_PREAMBLE', message: brokerErrors.badPreamble(message).message },
  });
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return refuse('the first line is not JSON');
  }
  if (!isObject(v) || v['frontend'] !== 'unity-devtools')
    return refuse('the first line must be {"frontend":"unity-devtools",...}');
  if (v['protocol'] !== BROKER_PROTOCOL)
    return {
      error: {
        code: 'BROKER_VERSION_MISMATCH',
        message: `broker protocol ${BROKER_PROTOCOL}, front-end protocol ${String(v['protocol'])}: ${brokerErrors.versionMismatch(String(v['version']), brokerVersion).message}`,
      },
    };
  if (typeof v['version'] !== 'string') return refuse('version must be a string');
  if (v['version'] !== brokerVersion)
    return {
      error: {
        code: 'BROKER_VERSION_MISMATCH',
        message: brokerErrors.versionMismatch(v['version'], brokerVersion).message,
      },
    };
  const pid = v['pid'];
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0)
    return refuse('pid must be a positive integer');
  if (v['kind'] !== 'mcp' && v['kind'] !== 'cli') return refuse('kind must be "mcp" or "cli"');
  const preamble: FrontEndPreamble = {
    frontend: 'unity-devtools',
    protocol: BROKER_PROTOCOL,
    version: v['version'],
    pid,
    kind: v['kind'],
  };
  if (v['target'] !== undefined) {
    const target = parseTarget(v['target']);
    if (typeof target === 'string') return refuse(target);
    preamble.target = target;
  }
  return { preamble };
}

/** The front-end's reading of the broker's answer line: the answer, or the refusal as an error. */
export function parseAnswer(line: string): BrokerAnswer {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw brokerErrors.badPreamble(`the broker's answer is not JSON: ${line.slice(0, 200)}`);
  }
  if (isObject(v) && isObject(v['error'])) {
    const code = v['error']['code'];
    const message = String(v['error']['message']);
    throw new BrokerError(code === 'BROKER_VERSION_MISMATCH' ? code : 'BAD_PREAMBLE', message);
  }
  if (!isObject(v) || v['broker'] !== 'unity-devtools' || typeof v['pid'] !== 'number')
    throw brokerErrors.badPreamble(`not a broker's answer: ${line.slice(0, 200)}`);
  return v as unknown as BrokerAnswer;
}

/**
 * Reads one line from `socket` (bounded in time and size). Resolves with the line and whatever
 * arrived after it (the start of the MCP stream); the socket is left paused with no data
 * listener of ours, for the next reader.
 */
export function readLine(
  socket: Socket,
  timeoutMs: number,
  maxBytes = MAX_PREAMBLE_BYTES,
): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf: Buffer = Buffer.alloc(0);
    const done = (err: Error | undefined, value?: { line: string; rest: Buffer }): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      socket.pause();
      if (err) reject(err);
      else resolve(value!);
    };
    const onData = (chunk: Buffer): void => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      const nl = buf.indexOf(0x0a);
      if (nl >= 0) {
        done(undefined, {
          line: buf.subarray(0, nl).toString('utf8').replace(/\r$/, ''),
          rest: buf.subarray(nl + 1),
        });
      } else if (buf.length > maxBytes) {
        done(brokerErrors.badPreamble(`no newline in the first ${maxBytes} bytes`));
      }
    };
    const onClose = (): void => done(brokerErrors.badPreamble('the connection closed first'));
    const onError = (e: Error): void => done(e);
    const timer = setTimeout(
      () => done(brokerErrors.badPreamble(`no first line within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    socket.resume();
  });
}
