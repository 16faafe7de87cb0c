import { describe, expect, it } from 'vitest';

import {
  checkSlot,
  decodeIpv4,
  decodeIpv6,
  describeHolder,
  isLocalHost,
  parseTcpTable,
  slotConnections,
  type ProcSource,
} from './slot.js';

const HEADER =
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';

/** A row as a little-endian Linux prints it. */
const row = (sl: number, local: string, remote: string, st: string, inode: number): string =>
  `  ${sl}: ${local} ${remote} ${st} 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0000000000000000 20 4 30 10 -1\n`;

// An agent listening on 0.0.0.0:56123 (0xDB3B); a debugger connected from 127.0.0.1:40000
// (0x9C40); a TIME_WAIT leftover; an unrelated connection.
const TCP4 =
  HEADER +
  row(0, '00000000:DB3B', '00000000:0000', '0A', 100) +
  row(1, '0100007F:DB3B', '0100007F:9C40', '01', 101) +
  row(2, '0100007F:9C40', '0100007F:DB3B', '01', 102) +
  row(3, '0100007F:DB3B', '0100007F:9C41', '06', 0) +
  row(4, '0100007F:1F90', '0100007F:A000', '01', 103);

// The same agent over IPv6 (::), a client on ::1 and one mapped from IPv4.
const TCP6 =
  HEADER +
  row(
    0,
    '00000000000000000000000000000000:DB3B',
    '00000000000000000000000000000000:0000',
    '0A',
    200,
  ) +
  row(
    1,
    '00000000000000000000000001000000:DB3B',
    '00000000000000000000000001000000:9C50',
    '01',
    201,
  ) +
  row(
    2,
    '00000000000000000000000001000000:9C50',
    '00000000000000000000000001000000:DB3B',
    '01',
    202,
  ) +
  row(3, '0000000000000000FFFF00000100007F:DB3B', '0000000000000000FFFF00000100007F:9C60', '01', 0);

function fakeProc(
  tables: string[],
  pids: Record<number, number>,
  commands: Record<number, string> = {},
): ProcSource {
  return {
    selfPid: 999,
    readTcpTables: () => Promise.resolve(tables),
    pidOfInode: (inode) => Promise.resolve(pids[inode]),
    command: (pid) => Promise.resolve(commands[pid]),
  };
}

describe('reading /proc/net/tcp', () => {
  it('decodes addresses printed in host byte order', () => {
    expect(decodeIpv4('0100007F', true)).toBe('127.0.0.1');
    expect(decodeIpv4('7F000001', false)).toBe('127.0.0.1');
    expect(decodeIpv4('0101A8C0', true)).toBe('192.168.1.1');
    expect(decodeIpv6('00000000000000000000000001000000', true)).toBe('0:0:0:0:0:0:0:1');
    expect(decodeIpv6('0000000000000000FFFF00000100007F', true)).toBe('0:0:0:0:0:ffff:7f00:1');
    expect(decodeIpv6('B80D0120000000000000000001000000', true)).toBe('2001:db8:0:0:0:0:0:1');
  });

  it('parses rows of both tables and skips the header', () => {
    const v4 = parseTcpTable(TCP4, true);
    expect(v4).toHaveLength(5);
    expect(v4[1]).toEqual({
      local: { address: '127.0.0.1', port: 56123 },
      remote: { address: '127.0.0.1', port: 40000 },
      state: 1,
      uid: 1000,
      inode: 101,
    });
    const v6 = parseTcpTable(TCP6, true);
    expect(v6.map((e) => [e.local.address, e.local.port, e.state])).toEqual([
      ['0:0:0:0:0:0:0:0', 56123, 10],
      ['0:0:0:0:0:0:0:1', 56123, 1],
      ['0:0:0:0:0:0:0:1', 40016, 1],
      ['0:0:0:0:0:ffff:7f00:1', 56123, 1],
    ]);
  });

  it("finds the agent's ESTABLISHED sides and their peers, not listeners, TIME_WAIT or other ports", () => {
    const entries = [...parseTcpTable(TCP4, true), ...parseTcpTable(TCP6, true)];
    const taken = slotConnections(entries, 56123);
    expect(taken.map((t) => [t.agentSide.inode, t.peer?.inode])).toEqual([
      [101, 102],
      [201, 202],
      [0, undefined], // still in the backlog, its client on another host or not visible
    ]);
    expect(slotConnections(entries, 56124)).toEqual([]);
  });

  it('matches a peer on its IPv4-mapped form', () => {
    const mapped =
      HEADER +
      row(
        0,
        '0000000000000000FFFF00000100007F:DB3B',
        '0000000000000000FFFF00000100007F:9C70',
        '01',
        0,
      );
    const client = HEADER + row(0, '0100007F:9C70', '0100007F:DB3B', '01', 301);
    const taken = slotConnections(
      [...parseTcpTable(mapped, true), ...parseTcpTable(client, true)],
      56123,
    );
    expect(taken[0]?.peer?.inode).toBe(301);
  });
});

describe('checkSlot', () => {
  it('is free when nothing is connected to the port', async () => {
    expect(await checkSlot('127.0.0.1', 56124, fakeProc([TCP4], {}), 'linux')).toEqual({
      kind: 'free',
    });
  });

  it('names the holder by pid and command, and this process as itself', async () => {
    const state = await checkSlot(
      '127.0.0.1',
      56123,
      fakeProc([TCP4, TCP6], { 102: 4321, 202: 999 }, { 4321: 'mono Rider.exe', 999: 'node' }),
      'linux',
    );
    expect(state).toEqual({
      kind: 'busy',
      holders: [
        { peer: { address: '127.0.0.1', port: 40000 }, pid: 4321, command: 'mono Rider.exe' },
        {
          peer: { address: '0:0:0:0:0:0:0:1', port: 40016 },
          pid: 999,
          self: true,
          command: 'node',
        },
        { peer: { address: '0:0:0:0:0:ffff:7f00:1', port: 40032 } },
      ],
    });
    if (state.kind !== 'busy') return;
    expect(state.holders.map(describeHolder)).toEqual([
      'pid 4321 (mono Rider.exe)',
      'this process (pid 999)',
      'another process (not visible to this user), connected from [0:0:0:0:0:ffff:7f00:1]:40032',
    ]);
  });

  it('does not check other hosts, other platforms, or without a readable table', async () => {
    const proc = fakeProc([TCP4], { 102: 4321 });
    expect(await checkSlot('10.255.255.1', 56123, proc, 'linux')).toMatchObject({
      kind: 'unchecked',
      why: '10.255.255.1 is not this host',
    });
    expect(await checkSlot('127.0.0.1', 56123, proc, 'win32')).toMatchObject({
      kind: 'unchecked',
    });
    const unreadable: ProcSource = {
      ...proc,
      readTcpTables: () => Promise.reject(new Error('EACCES')),
    };
    expect(await checkSlot('127.0.0.1', 56123, unreadable, 'linux')).toMatchObject({
      kind: 'unchecked',
      why: 'cannot read /proc/net/tcp: EACCES',
    });
  });

  it('knows which hosts are local', () => {
    const interfaces = {
      eth0: [
        {
          address: '192.168.7.20',
          netmask: '255.255.255.0',
          family: 'IPv4' as const,
          mac: '00:00:00:00:00:00',
          internal: false,
          cidr: null,
        },
      ],
    };
    for (const h of [
      '127.0.0.1',
      '127.3.4.5',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
      '192.168.7.20',
    ])
      expect([h, isLocalHost(h, interfaces)]).toEqual([h, true]);
    for (const h of ['192.168.7.21', '10.0.0.1', 'game.example', '128.0.0.1'])
      expect([h, isLocalHost(h, interfaces)]).toEqual([h, false]);
  });
});
