import { describe, expect, it } from 'vitest';

import { checkHttpAddress, parseHttpAddress } from './http-server.js';

describe('parseHttpAddress', () => {
  it.each([
    ['127.0.0.1:8123', { host: '127.0.0.1', port: 8123 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
  ])('%s', (text, address) => {
    expect(parseHttpAddress(text)).toEqual(address);
  });

  it.each(['8123', '127.0.0.1', '127.0.0.1:', ':8123', '::1:8123', '127.0.0.1:65536', 'a b:1'])(
    'refuses %s with HTTP_BAD_ADDRESS',
    (text) => {
      expect(() => parseHttpAddress(text)).toThrow(
        expect.objectContaining({ code: 'HTTP_BAD_ADDRESS' }),
      );
    },
  );
});

describe('checkHttpAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1'])('lets loopback %s bind', (host) => {
    expect(() => checkHttpAddress(host, false)).not.toThrow();
  });

  it.each(['0.0.0.0', '::', '192.168.1.5', 'example.com', '128.0.0.1'])(
    'refuses %s without allowRemote, and lets it with',
    (host) => {
      expect(() => checkHttpAddress(host, false)).toThrow(
        expect.objectContaining({ code: 'HTTP_REMOTE_REFUSED' }),
      );
      expect(() => checkHttpAddress(host, true)).not.toThrow();
    },
  );
});
