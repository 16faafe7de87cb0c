// What the kernel shows of a debugger agent's port: the ESTABLISHED sockets on it (its accepted
// side and its listen backlog), from /proc/net/tcp and tcp6. A call that made no connection
// leaves this count unchanged.

import { readFile } from 'node:fs/promises';

import { parseTcpTable, slotConnections } from '../../unity/session/slot.js';

export async function agentConnections(port: number): Promise<number> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((f) => readFile(f, 'utf8').catch(() => '')),
  );
  return slotConnections(
    tables.flatMap((t) => parseTcpTable(t)),
    port,
  ).length;
}
