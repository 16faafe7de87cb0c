import { describe, expect, it } from 'vitest';
import { formatBeacon, parseBeacon, type BeaconMessage } from './beacon-message.js';

// The two samples of docs/reference/sdb-protocol.md §9.2.
const KKKON =
  '[IP] 192.168.110.128 [Port] 55194 [Flags] 3 [Guid] 2477256561 [EditorId] 1495077346 [Version] 1048832 [Id] WindowsPlayer(kkkon) [Debug] 1';
const PARALLELS =
  '[IP] 10.211.55.4 [Port] 55376 [Flags] 3 [Guid] 1410689715 [EditorId] 1006284310 [Version] 1048832 [Id] WindowsPlayer(PARALLELS) [Debug] 1 [PackageName] WindowsPlayer [ProjectName] GemShader is awesome';

const base: BeaconMessage = {
  ip: '10.211.55.4',
  port: 55376,
  flags: 3,
  guid: 1410689715,
  editorId: 1006284310,
  version: 1048832,
  id: 'WindowsPlayer(PARALLELS)',
  debug: true,
  packageName: 'WindowsPlayer',
  projectName: 'GemShader is awesome',
};

const parsed: [string, string, BeaconMessage][] = [
  [
    'the 2017 sample (no PackageName, no ProjectName)',
    KKKON,
    {
      ip: '192.168.110.128',
      port: 55194,
      flags: 3,
      guid: 2477256561,
      editorId: 1495077346,
      version: 1048832,
      id: 'WindowsPlayer(kkkon)',
      debug: true,
    },
  ],
  ['the 2019.3+ sample (ProjectName with spaces)', PARALLELS, base],
  ['a trailing NUL', `${PARALLELS}\0`, base],
  ['a NUL and padding after it', `${PARALLELS}\0\0garbage`, base],
  ['trailing whitespace and a NUL', `${PARALLELS} \r\n\0`, base],
  [
    'Id with a :port suffix (consoles, iOS)',
    '[IP] 192.168.1.9 [Port] 4600 [Flags] 3 [Guid] 1343323326 [EditorId] 2183797363 [Version] 1048832 [Id] XboxOnePlayer(192.168.1.9):4601 [Debug] 1',
    {
      ip: '192.168.1.9',
      port: 4600,
      flags: 3,
      guid: 1343323326,
      editorId: 2183797363,
      version: 1048832,
      id: 'XboxOnePlayer(192.168.1.9)',
      idPort: 4601,
      debug: true,
    },
  ],
  [
    'case-insensitive keys and loose spacing',
    '[ip]10.211.55.4 [PORT] 55376 [flags] 3 [ guid ] 1410689715 [editorid] 1006284310 [version] 1048832 [ID] WindowsPlayer(PARALLELS) [debug] 1 [packagename] WindowsPlayer [projectname]   GemShader is awesome  ',
    base,
  ],
  [
    'brackets inside values',
    '[IP] 10.211.55.4 [Port] 55376 [Flags] 3 [Guid] 1410689715 [EditorId] 1006284310 [Version] 1048832 [Id] WindowsPlayer(host[2]) [Debug] 1 [PackageName] WindowsPlayer [ProjectName] My [Beta] Game [Id] x',
    { ...base, id: 'WindowsPlayer(host[2])', projectName: 'My [Beta] Game [Id] x' },
  ],
  ['[Debug] 0', PARALLELS.replace('[Debug] 1', '[Debug] 0'), { ...base, debug: false }],
  [
    'missing trailing keys: Debug counts as off',
    '[IP] 10.211.55.4 [Port] 55376 [Flags] 3 [Guid] 1410689715',
    {
      ip: '10.211.55.4',
      port: 55376,
      flags: 3,
      guid: 1410689715,
      editorId: 0,
      version: 0,
      id: '',
      debug: false,
    },
  ],
  [
    'a malformed optional field defaults',
    PARALLELS.replace('[Flags] 3', '[Flags] three'),
    { ...base, flags: 0 },
  ],
  [
    'the largest Guid (unsigned 32-bit)',
    PARALLELS.replace('1410689715', '4294967295'),
    { ...base, guid: 4294967295 },
  ],
  [
    'an Id ending in a colon is kept whole',
    PARALLELS.replace('(PARALLELS)', '(a):'),
    {
      ...base,
      id: 'WindowsPlayer(a):',
    },
  ],
];

const rejected: [string, string][] = [
  ['empty text', ''],
  ['junk', 'hello world'],
  ['an SDB handshake', 'DWP-Handshake'],
  ['brackets but no beacon keys', '[Foo] 1 [Bar] 2'],
  ['no Guid', '[IP] 10.0.0.1 [Port] 55000 [Flags] 3'],
  ['no Port', '[IP] 10.0.0.1 [Guid] 1'],
  ['no IP', '[Port] 55000 [Guid] 1'],
  ['IP with spaces', '[IP] 10.0.0.1 oops [Port] 55000 [Guid] 1'],
  ['Port out of range', '[IP] 10.0.0.1 [Port] 65536 [Guid] 1'],
  ['Guid beyond 32 bits', '[IP] 10.0.0.1 [Port] 55000 [Guid] 4294967296'],
  ['negative Guid', '[IP] 10.0.0.1 [Port] 55000 [Guid] -1'],
  ['text before a NUL lacks the keys', 'x\0[IP] 10.0.0.1 [Port] 55000 [Guid] 1'],
];

describe('parseBeacon', () => {
  it.each(parsed)('parses %s', (_name, text, expected) => {
    expect(parseBeacon(text)).toEqual(expected);
  });

  it.each(rejected)('rejects %s', (_name, text) => {
    expect(parseBeacon(text)).toBeUndefined();
  });
});

describe('formatBeacon', () => {
  it('reproduces both reference samples exactly', () => {
    for (const text of [KKKON, PARALLELS]) {
      const message = parseBeacon(text);
      expect(message).toBeDefined();
      if (message) expect(formatBeacon(message)).toBe(text);
    }
  });

  it('round-trips an Id port and a project name with brackets', () => {
    const message: BeaconMessage = {
      ...base,
      id: 'iPhonePlayer(name)',
      idPort: 56000,
      projectName: 'A [b] c',
    };
    const text = formatBeacon(message);
    expect(text).toContain('[Id] iPhonePlayer(name):56000 [Debug] 1');
    expect(parseBeacon(`${text}\0`)).toEqual(message);
  });
});
