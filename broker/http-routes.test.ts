import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import type { BodyError } from './http-routes.js';
import { readBody, sendError } from './http-routes.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A loopback server whose handler reads the body with `limit` and answers what it got. */
async function serve(limit: number): Promise<number> {
  server = createServer((req, res) => {
    readBody(req, limit).then(
      (b) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`read ${b.length}`);
      },
      (e: BodyError) => sendError(res, e.status, e.code, e.message),
    );
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function send(
  port: number,
  chunks: string[],
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
      );
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('readBody', () => {
  it('reads a body up to the limit, whole', async () => {
    const port = await serve(10);
    expect((await send(port, ['12345', '67890'])).body).toBe('read 10');
  });

  it('refuses a declared length over the limit with 413 BODY_TOO_LARGE', async () => {
    const port = await serve(10);
    const r = await send(port, ['12345678901'], { 'content-length': '11' });
    expect(r.status).toBe(413);
    expect(r.type).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
  });

  it('refuses a chunked body that grows past the limit', async () => {
    const port = await serve(10);
    const r = await send(port, ['123456', '789012']); // no length: chunked
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
  });
});
