// The seam between the broker's HTTP server (broker/http-server.ts) and what it serves besides
// MCP (the dashboard, broker/dashboard/). The server checks Host and Origin, then offers every
// path other than /mcp to its routes; the bearer check is the server's for /mcp only, because
// the dashboard has its own login. Small helpers both sides use live here so the two agree on
// body limits and on the shape of an error.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A route the HTTP server delegates to after its Host/Origin checks (not the bearer check:
 * the dashboard has its own login). Return false when the path is not yours. */
export interface HttpRoutes {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  close?(): Promise<void>;
}

/** The default bound on a request body. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request body that could not be read: too large (413) or broken off / unreadable (400). */
export class BodyError extends Error {
  override readonly name = 'BodyError';
  constructor(
    readonly code: 'BODY_TOO_LARGE' | 'BAD_BODY',
    readonly status: 413 | 400,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a request body, bounded (1 MiB default): BODY_TOO_LARGE (413) / BAD_BODY (400). */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      // Refused before a byte is read; the rest is drained so the answer can be written.
      req.resume();
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: BodyError | undefined): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (error) {
        req.resume();
        reject(error);
      } else {
        resolve(Buffer.concat(chunks, size));
      }
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(buffer);
    };
    const onEnd = (): void => finish(undefined);
    const onError = (error: Error): void =>
      finish(
        new BodyError('BAD_BODY', 400, `the request body could not be read: ${error.message}`),
      );
    const onAborted = (): void =>
      finish(new BodyError('BAD_BODY', 400, 'the request body was cut off before its end'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function tooLarge(limit: number): BodyError {
  return new BodyError(
    'BODY_TOO_LARGE',
    413,
    `the request body is larger than ${limit} bytes; send less in one request`,
  );
}

/** Writes a JSON error with a stable code: {error:{code,message}} and the status. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
