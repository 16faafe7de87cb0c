// Is a game's debugger slot taken? Decided from the kernel's table of TCP connections, WITHOUT
// connecting: a connection to a busy Mono agent sits unanswered, and one closed before the agent
// greets it ends the agent's debugger thread for good (docs/solutions/debugger-slot.md). On Linux
// only (/proc/net/tcp and tcp6); elsewhere, and for endpoints that are not this host, no check.

import { readFile, readdir, readlink } from 'node:fs/promises';
import os from 'node:os';

/** TCP state numbers as /proc/net/tcp prints them (include/net/tcp_states.h). */
const TCP_ESTABLISHED = 0x01;

export interface SocketAddress {
  /** Dotted IPv4, or IPv6 in full lower-case groups ("0:0:0:0:0:0:0:1", "::ffff:" kept as groups). */
  address: string;
  port: number;
}

export interface TcpEntry {
  local: SocketAddress;
  remote: SocketAddress;
  /** The kernel's state number (1 = ESTABLISHED, 10 = LISTEN, ...). */
  state: number;
  uid: number;
  /** 0 for a socket no process owns yet (e.g. still in a listen backlog). */
  inode: number;
}

/** Who holds a connection to the agent, as far as this user can see. */
export interface SlotHolder {
  /** The agent's end of the connection: who connected (remote address:port). */
  peer: SocketAddress;
  pid?: number;
  /** The holder's command line (or comm), when its /proc entry is readable. */
  command?: string;
  /** The holder is this very process. */
  self?: boolean;
}

export type SlotState =
  | { kind: 'free' }
  | { kind: 'busy'; holders: SlotHolder[] }
  /** Not checked: the reason (not Linux, not a local endpoint, /proc unreadable). */
  | { kind: 'unchecked'; why: string };

/** The /proc parts the check reads, replaceable in tests. */
export interface ProcSource {
  readTcpTables(): Promise<string[]>;
  /** `socket:[inode]` → pid, scanning /proc/<pid>/fd (only the processes this user may read). */
  pidOfInode(inode: number): Promise<number | undefined>;
  command(pid: number): Promise<string | undefined>;
  /** This process's pid (holders with it are reported as this process). */
  selfPid: number;
}

/**
 * One IPv4 address as /proc/net/tcp prints it: the 32-bit word in host byte order, so on a
 * little-endian host 127.0.0.1 is "0100007F".
 */
export function decodeIpv4(hex: string, littleEndian = os.endianness() === 'LE'): string {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 4) throw new Error(`not an IPv4 address in /proc/net/tcp: ${hex}`);
  const ordered = littleEndian ? [...bytes].reverse() : [...bytes];
  return ordered.join('.');
}

/** One IPv6 address as /proc/net/tcp6 prints it: four 32-bit words, each in host byte order. */
export function decodeIpv6(hex: string, littleEndian = os.endianness() === 'LE'): string {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 16) throw new Error(`not an IPv6 address in /proc/net/tcp6: ${hex}`);
  const ordered: number[] = [];
  for (let w = 0; w < 16; w += 4) {
    const word = [...bytes.subarray(w, w + 4)];
    ordered.push(...(littleEndian ? word.reverse() : word));
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ordered[i]! << 8) | ordered[i + 1]!).toString(16));
  return groups.join(':');
}

function decodeEndpoint(text: string, littleEndian: boolean): SocketAddress {
  const [addr, port] = text.split(':');
  if (addr === undefined || port === undefined) throw new Error(`bad socket address ${text}`);
  return {
    address: addr.length === 8 ? decodeIpv4(addr, littleEndian) : decodeIpv6(addr, littleEndian),
    port: parseInt(port, 16),
  };
}

/** The rows of a /proc/net/tcp or tcp6 table (header skipped; malformed rows ignored). */
export function parseTcpTable(text: string, littleEndian = os.endianness() === 'LE'): TcpEntry[] {
  const entries: TcpEntry[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
    if (f.length < 10 || !f[0]!.endsWith(':')) continue;
    try {
      entries.push({
        local: decodeEndpoint(f[1]!, littleEndian),
        remote: decodeEndpoint(f[2]!, littleEndian),
        state: parseInt(f[3]!, 16),
        uid: Number(f[7]),
        inode: Number(f[9]),
      });
    } catch {
      continue; // a row we cannot read names no connection we could act on
    }
  }
  return entries;
}

/**
 * The connections that take the slot of the agent listening on `port`: ESTABLISHED sockets whose
 * local port is the agent's (its accepted side, or one still in its listen backlog), each with
 * its peer socket (local port = that connection's remote port, remote port = the agent's) when
 * the peer is on this host too.
 */
export function slotConnections(
  entries: TcpEntry[],
  port: number,
): { agentSide: TcpEntry; peer: TcpEntry | undefined }[] {
  return entries
    .filter((e) => e.state === TCP_ESTABLISHED && e.local.port === port)
    .map((agentSide) => ({
      agentSide,
      peer: entries.find(
        (e) =>
          e.state === TCP_ESTABLISHED &&
          e.local.port === agentSide.remote.port &&
          e.remote.port === port &&
          sameHost(e.local.address, agentSide.remote.address),
      ),
    }));
}

/** Equal addresses, an IPv4 one and its IPv4-mapped IPv6 form counting as equal. */
function sameHost(a: string, b: string): boolean {
  return unmapped(a) === unmapped(b);
}

function unmapped(address: string): string {
  const m = /^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/.exec(address);
  if (!m) return address;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1']);

/** Whether `host` is this machine: loopback (127.0.0.0/8, ::1, localhost) or one of its addresses. */
export function isLocalHost(
  host: string,
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (LOOPBACK_NAMES.has(h) || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\./.test(h))
    return true;
  for (const list of Object.values(interfaces)) {
    for (const i of list ?? []) if (i.address.toLowerCase() === h) return true;
  }
  return false;
}

/** Decides whether the slot of the agent at host:port is taken, without connecting to it. */
export async function checkSlot(
  host: string,
  port: number,
  proc: ProcSource = linuxProc(),
  platform: NodeJS.Platform = process.platform,
): Promise<SlotState> {
  if (platform !== 'linux')
    return { kind: 'unchecked', why: `no connection table is read on ${platform}` };
  if (!isLocalHost(host)) return { kind: 'unchecked', why: `${host} is not this host` };
  let tables: string[];
  try {
    tables = await proc.readTcpTables();
  } catch (e) {
    return { kind: 'unchecked', why: `cannot read /proc/net/tcp: ${(e as Error).message}` };
  }
  const entries = tables.flatMap((t) => parseTcpTable(t));
  const taken = slotConnections(entries, port);
  if (taken.length === 0) return { kind: 'free' };
  const holders = await Promise.all(
    taken.map(async ({ agentSide, peer }): Promise<SlotHolder> => {
      const holder: SlotHolder = { peer: agentSide.remote };
      const pid = peer && peer.inode !== 0 ? await proc.pidOfInode(peer.inode) : undefined;
      if (pid === undefined) return holder;
      holder.pid = pid;
      if (pid === proc.selfPid) holder.self = true;
      const command = await proc.command(pid);
      if (command) holder.command = command;
      return holder;
    }),
  );
  return { kind: 'busy', holders };
}

/** How a holder is named in messages. */
export function describeHolder(h: SlotHolder): string {
  if (h.self) return `this process (pid ${h.pid})`;
  if (h.pid === undefined)
    return `another process (not visible to this user), connected from ${formatAddress(h.peer)}`;
  return `pid ${h.pid}${h.command ? ` (${h.command})` : ''}`;
}

/** `host:port`, IPv6 in brackets. */
export function formatAddress(a: SocketAddress): string {
  return a.address.includes(':') ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}

const COMMAND_CHARS = 200;

/** The real /proc of this Linux host. */
export function linuxProc(): ProcSource {
  return {
    selfPid: process.pid,
    readTcpTables: async () => {
      const tables: string[] = [];
      const problems: string[] = [];
      for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
        // tcp6 is absent on hosts without IPv6
        await readFile(file, 'utf8').then(
          (t) => tables.push(t),
          (e: Error) => problems.push(e.message),
        );
      }
      if (tables.length === 0) throw new Error(problems.join('; '));
      return tables;
    },
    pidOfInode: async (inode) => {
      const link = `socket:[${inode}]`;
      const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n));
      const found = await Promise.all(
        pids.map(async (pid) => {
          // other users' processes cannot be read: skipped, the holder then is "not visible"
          const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
          for (const fd of fds) {
            const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
            if (target === link) return Number(pid);
          }
          return undefined;
        }),
      );
      return found.find((pid) => pid !== undefined);
    },
    command: async (pid) => {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const text = cmdline.split('\0').filter(Boolean).join(' ');
      const name = text || (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      if (!name) return undefined;
      return name.length > COMMAND_CHARS ? `${name.slice(0, COMMAND_CHARS)}…` : name;
    },
  };
}
