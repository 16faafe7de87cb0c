import { describe, expect, it } from 'vitest';

import { parseAnswer, parsePreamble } from './preamble.js';

const good = {
  frontend: 'unity-devtools',
  protocol: 1,
  version: '1.2.3',
  pid: 77,
  kind: 'mcp',
};
const line = (v: unknown) => JSON.stringify(v);

describe('the preamble', () => {
  it('reads a front-end preamble, with or without a target', () => {
    expect(parsePreamble(line(good), '1.2.3')).toEqual({ preamble: good });
    const endpoint = { kind: 'endpoint', host: '127.0.0.1', port: 56000 };
    expect(parsePreamble(line({ ...good, kind: 'cli', target: endpoint }), '1.2.3')).toEqual({
      preamble: { ...good, kind: 'cli', target: endpoint },
    });
    const player = { kind: 'player', selector: 'MyGame' };
    expect(parsePreamble(line({ ...good, target: player }), '1.2.3')).toEqual({
      preamble: { ...good, target: player },
    });
  });

  it.each([
    ['not JSON', 'GET / HTTP/1.1', /not JSON/],
    ['another program', line({ hello: 1 }), /frontend/],
    ['no pid', line({ ...good, pid: undefined }), /pid/],
    ['a bad kind', line({ ...good, kind: 'web' }), /kind/],
    ['a bad target', line({ ...good, target: { kind: 'endpoint', host: 'h' } }), /port/],
    ['an unknown target', line({ ...good, target: { kind: 'ssh' } }), /ssh/],
  ])('refuses %s with BAD_PREAMBLE', (_what, text, why) => {
    const r = parsePreamble(text, '1.2.3');
    expect('error' in r && r.error.code).toBe('BAD_PREAMBLE');
    expect('error' in r && r.error.message).toMatch(why);
  });

  it('refuses another version or protocol with BROKER_VERSION_MISMATCH, saying what to do', () => {
    for (const text of [line({ ...good, version: '9.9.9' }), line({ ...good, protocol: 2 })]) {
      const r = parsePreamble(text, '1.2.3');
      expect('error' in r && r.error.code).toBe('BROKER_VERSION_MISMATCH');
      expect('error' in r && r.error.message).toMatch(/broker --stop/);
    }
  });

  it("reads the broker's answer, and throws its refusal as the error it names", () => {
    const answer = { broker: 'unity-devtools', protocol: 1, version: '1.2.3', pid: 5 };
    expect(parseAnswer(line(answer))).toEqual(answer);
    expect(() =>
      parseAnswer(line({ error: { code: 'BROKER_VERSION_MISMATCH', message: 'stop it' } })),
    ).toThrow(expect.objectContaining({ code: 'BROKER_VERSION_MISMATCH', message: 'stop it' }));
    expect(() => parseAnswer('{"jsonrpc":"2.0"}')).toThrow(
      expect.objectContaining({ code: 'BAD_PREAMBLE' }),
    );
  });
});
