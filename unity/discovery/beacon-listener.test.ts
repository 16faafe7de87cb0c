// Loopback only: listeners bind 127.0.0.1 without joining the multicast group, and the test sends
// unicast datagrams to 127.0.0.1.
import dgram from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatBeacon, type BeaconMessage } from './beacon-message.js';
import { BeaconListener, type BeaconListenerOptions } from './beacon-listener.js';

const WAIT = { timeout: 2000, interval: 10 };

const message: BeaconMessage = {
  ip: '127.0.0.1',
  port: 55001,
  flags: 3,
  guid: 4000056321,
  editorId: 2224704987,
  version: 1048832,
  id: 'LinuxPlayer(test)',
  debug: true,
  packageName: 'LinuxPlayer',
  projectName: 'Listener Test',
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function listener(options: BeaconListenerOptions): BeaconListener {
  const l = new BeaconListener({ multicast: false, bindAddress: '127.0.0.1', ...options });
  cleanups.push(() => l.stop());
  return l;
}

async function udpSocket(port = 0, reuseAddr = false): Promise<dgram.Socket> {
  const socket = dgram.createSocket({ type: 'udp4', reuseAddr });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve());
  });
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return socket;
}

async function send(port: number, text: string): Promise<void> {
  const sender = await udpSocket();
  await new Promise<void>((resolve, reject) =>
    sender.send(Buffer.from(text, 'utf8'), port, '127.0.0.1', (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}

function portOf(l: BeaconListener, index = 0): number {
  const entry = l.status().listening[index];
  if (!entry) throw new Error(`listener has no socket #${index}`);
  return entry.port;
}

describe('BeaconListener', () => {
  it('feeds unicast beacons into its registry with the source address', async () => {
    const l = listener({ ports: [0, 0] });
    await l.start();
    const status = l.status();
    expect(status.problems).toEqual([]);
    expect(status.listening).toHaveLength(2);
    expect(status.listening.every((s) => s.port > 0 && !s.multicast)).toBe(true);

    await send(portOf(l, 1), `${formatBeacon(message)}\0`);
    await vi.waitFor(() => expect(l.registry.size).toBe(1), WAIT);
    expect(l.registry.select()).toMatchObject({
      key: '4000056321@127.0.0.1',
      endpoint: '127.0.0.1:56321',
      projectName: 'Listener Test',
      stale: false,
    });
    expect(l.status().datagrams).toEqual({ accepted: 1, ignored: 0 });
  });

  it('counts and ignores datagrams that are not beacons', async () => {
    const log: string[] = [];
    const l = listener({ ports: [0], log: (line) => log.push(line) });
    await l.start();
    const port = portOf(l);
    await send(port, 'not a beacon');
    await send(port, '\0');
    await send(port, formatBeacon({ ...message, debug: false }));
    await vi.waitFor(() => expect(l.status().datagrams).toEqual({ accepted: 1, ignored: 2 }), WAIT);
    expect(l.registry.list()).toMatchObject([{ debugEnabled: false }]);
    expect(log.some((line) => line.includes('heard Listener Test'))).toBe(true);
  });

  it('records a port it cannot bind and keeps listening on the others', async () => {
    // Held without SO_REUSEADDR, so our reuse-enabled bind is refused.
    const blocker = await udpSocket(0, false);
    const taken = blocker.address().port;
    const l = listener({ ports: [taken, 0] });
    await l.start();

    const status = l.status();
    expect(status.listening).toHaveLength(1);
    expect(status.listening[0]?.port).not.toBe(taken);
    expect(status.problems).toEqual([
      {
        port: taken,
        what: `bind 127.0.0.1:${taken}`,
        error: expect.stringContaining('EADDRINUSE'),
      },
    ]);

    await send(portOf(l), formatBeacon(message));
    await vi.waitFor(() => expect(l.registry.size).toBe(1), WAIT);
  });

  it('records an invalid port instead of rejecting', async () => {
    const l = listener({ ports: [70000, 0] });
    await l.start();
    expect(l.status().listening).toHaveLength(1);
    expect(l.status().problems).toMatchObject([{ port: 70000 }]);
  });

  it('shares a port with another reuse-enabled listener', async () => {
    const first = listener({ ports: [0] });
    await first.start();
    const port = portOf(first);
    const second = listener({ ports: [port] });
    await second.start();
    expect(second.status().problems).toEqual([]);

    // Unicast goes to one socket per datagram (on Linux: the one bound last); only multicast
    // reaches every listener. Together they see each datagram once.
    for (let guid = 1; guid <= 5; guid++) await send(port, formatBeacon({ ...message, guid }));
    const total = (): number =>
      first.status().datagrams.accepted + second.status().datagrams.accepted;
    await vi.waitFor(() => expect(total()).toBe(5), WAIT);
  });

  it('stop() closes every socket, is idempotent, and frees the ports', async () => {
    const l = new BeaconListener({ ports: [0, 0], multicast: false, bindAddress: '127.0.0.1' });
    await l.start();
    const ports = l.status().listening.map((s) => s.port);
    await l.stop();
    await l.stop();
    expect(l.status().listening).toEqual([]);
    await expect(l.start()).rejects.toThrow('after stop()');
    // A socket without SO_REUSEADDR can bind only if ours are really closed.
    for (const port of ports) await udpSocket(port, false);
  });

  it('start() is idempotent', async () => {
    const l = listener({ ports: [0] });
    await Promise.all([l.start(), l.start()]);
    expect(l.status().listening).toHaveLength(1);
  });
});
