// How a debugger connection opens: the byte handshake (the agent sends "DWP-Handshake", the
// client echoes it), then version negotiation and the agent's VM_START. Bounded, because a
// listening agent that another debugger holds (or that an earlier client left without
// VM.DISPOSE) accepts and stays silent; a caller may keep such a connection pending (whenLate).

import type { SdbConnection } from './connection.js';
import { SdbConnectionClosedError, SdbHandshakeError, isAgentError } from './errors.js';
import type { Transport } from './transport.js';
import { ErrorCode, HANDSHAKE } from './vocabulary.js';
import { profileOf } from './runtime-profile.js';
import { ProtocolVersion } from './version.js';

/**
 * Waits for the agent's handshake, checks it and echoes it. Resolves with the bytes that came
 * after it (the agent may send VM_START in the same chunk); on failure destroys the transport.
 *
 * With `whenLate`, a handshake that does not come within the bound does not end the connection:
 * the agent may be serving another debugger, with ours in its listen backlog, and a connection it
 * accepts later and finds closed ends Mono's debugger thread for good. The transport is kept,
 * `whenLate` gets the handshake's late arrival (echoed like an early one; it rejects if the
 * stream closes first), and this call still rejects with the timeout.
 */
export async function exchangeHandshake(
  transport: Transport,
  endpoint: string,
  timeoutMs: number,
  whenLate?: (late: Promise<Buffer>) => void,
): Promise<Buffer> {
  const arrival = handshakeArrival(transport, endpoint);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const first = await Promise.race([arrival.bytes, timedOut]);
    if (first !== 'timeout') return echo(transport, endpoint, first);
  } catch (e) {
    transport.destroy();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  const waited =
    `the debugger agent at ${endpoint} accepted the connection but sent no handshake within ` +
    `${timeoutMs} ms`;
  if (whenLate) {
    const late = arrival.bytes.then(
      (bytes) => echo(transport, endpoint, bytes),
      (e: unknown) => {
        transport.destroy();
        throw e;
      },
    );
    whenLate(late);
    throw new SdbHandshakeError(
      `${waited}: another debugger holds it; this connection is kept pending in its backlog ` +
        `and completes when that debugger leaves`,
    );
  }
  arrival.stop();
  transport.destroy();
  throw new SdbHandshakeError(
    `${waited} (another debugger may hold it, or an earlier client ` +
      `left without VM.DISPOSE, after which Mono accepts no new debugger)`,
  );
}

/** The agent's handshake bytes as they arrive, without a bound; rejects if the stream closes. */
function handshakeArrival(
  transport: Transport,
  endpoint: string,
): { bytes: Promise<Buffer>; stop: () => void } {
  const expectedLength = HANDSHAKE.length;
  let stop = (): void => undefined;
  const bytes = new Promise<Buffer>((resolve, reject) => {
    let got = Buffer.alloc(0);
    const cleanup = (): void => {
      transport.onData(() => undefined);
      offClose();
    };
    stop = cleanup;
    transport.onData((chunk) => {
      got = Buffer.concat([got, chunk]); // a copy: the read buffer is reused
      if (got.length >= expectedLength) {
        cleanup();
        resolve(got);
      }
    });
    const offClose = transport.onClose(() => {
      cleanup();
      reject(
        new SdbHandshakeError(
          `the debugger agent at ${endpoint} closed the connection during the handshake`,
        ),
      );
    });
  });
  bytes.catch(() => undefined); // awaited by the caller (or by whoever takes the late arrival)
  return { bytes, stop };
}

/** Checks the agent's greeting and echoes it; returns the bytes that followed it. */
function echo(transport: Transport, endpoint: string, received: Buffer): Buffer {
  const expected = Buffer.from(HANDSHAKE, 'ascii');
  if (!received.subarray(0, expected.length).equals(expected)) {
    transport.destroy();
    throw new SdbHandshakeError(
      `${endpoint} is not a Mono debugger agent (handshake was ${JSON.stringify(received.subarray(0, expected.length).toString('latin1'))})`,
    );
  }
  transport.write(expected);
  return received.subarray(expected.length);
}

/**
 * Asks the agent's version, declares min(agent, what this client implements), waits for
 * VM_START (bounded) and resumes a VM started with suspend=y. `deliver` hands the connection
 * the bytes that followed the handshake, once the wait for VM_START is in place.
 */
export async function negotiate(
  conn: SdbConnection,
  timeoutMs: number,
  deliver: () => void,
  keepStartSuspended = false,
): Promise<{ startSuspended: boolean }> {
  const started = waitForVmStart(conn, timeoutMs);
  started.catch(() => undefined); // awaited below; a failure before then must not go unhandled
  deliver();
  conn.agent = await conn.send('VM.VERSION');
  if (conn.agent.major !== 2) {
    throw new SdbHandshakeError(
      `agent at ${conn.endpoint} speaks protocol ${conn.agent.major}.${conn.agent.minor}; only 2.x is supported`,
    );
  }
  conn.runtime = profileOf(conn.agent);
  const declared = ProtocolVersion.negotiate(conn.agent.major, conn.agent.minor);
  await conn.send('VM.SET_PROTOCOL_VERSION', { major: declared.major, minor: declared.minor });
  conn.version = declared;
  await started;
  // kept: the caller counts it as a level it holds
  if (keepStartSuspended && (await waitingAtStart(conn))) return { startSuspended: true };
  // With suspend=y the VM sits suspended after VM_START although the event says policy NONE
  // (trap 9); in deferred mode this RESUME answers NOT_SUSPENDED, which is fine (Unity's Mono
  // backend answers success there, U:7952-7961: nothing was suspended, so nothing is counted).
  await conn.send('VM.RESUME').catch((e: unknown) => {
    if (!isAgentError(e, ErrorCode.NOT_SUSPENDED)) throw e;
  });
  return { startSuspended: false };
}

/**
 * Whether the game is waiting for its debugger at start (suspend=y): VM_START then comes as the
 * runtime starts, before the program's own assembly is loaded, so the root domain holds the
 * core library alone (live: 1 assembly). A running game (deferred attach, suspend=n; or one
 * frozen by a client that left mid-invoke, which connect must release) has loaded its program.
 */
async function waitingAtStart(conn: SdbConnection): Promise<boolean> {
  const domainId = conn.vmStart?.rootDomainId;
  if (domainId === undefined) return false;
  const assemblies = await conn.send('APPDOMAIN.GET_ASSEMBLIES', { domainId });
  return assemblies.length <= 1;
}

function waitForVmStart(conn: SdbConnection, timeoutMs: number): Promise<void> {
  if (conn.vmStart) return Promise.resolve();
  return conn
    .waitForEvent((s) => s.events.some((e) => e.kind === 'VM_START'), timeoutMs)
    .then(
      () => undefined,
      (e: unknown) => {
        throw e instanceof SdbConnectionClosedError
          ? e
          : new SdbHandshakeError(
              `agent at ${conn.endpoint} sent no VM_START within ${timeoutMs} ms`,
            );
      },
    );
}
