// How a debugger connection opens: the byte handshake (the agent sends "DWP-Handshake", the
// client echoes it), then version negotiation and the agent's VM_START. Bounded, because a listening agent that another
// debugger holds (or that an earlier client left without VM.DISPOSE) accepts and stays silent.

import type { SdbConnection } from './connection.js';
import { SdbConnectionClosedError, SdbHandshakeError, isAgentError } from './errors.js';
import type { Transport } from './transport.js';
import { ErrorCode, HANDSHAKE } from './vocabulary.js';
import { ProtocolVersion } from './version.js';

/**
 * Waits for the agent's handshake, checks it and echoes it. Resolves with the bytes that came
 * after it (the agent may send VM_START in the same chunk); on failure destroys the transport.
 */
export async function exchangeHandshake(
  transport: Transport,
  endpoint: string,
  timeoutMs: number,
): Promise<Buffer> {
  const expected = Buffer.from(HANDSHAKE, 'ascii');
  try {
    const received = await new Promise<Buffer>((resolve, reject) => {
      let got = Buffer.alloc(0);
      const cleanup = (): void => {
        clearTimeout(timer);
        transport.onData(() => undefined);
        offClose();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new SdbHandshakeError(
            `the debugger agent at ${endpoint} accepted the connection but sent no handshake within ` +
              `${timeoutMs} ms (another debugger may hold it, or an earlier client ` +
              `left without VM.DISPOSE, after which Mono accepts no new debugger)`,
          ),
        );
      }, timeoutMs);
      transport.onData((chunk) => {
        got = Buffer.concat([got, chunk]); // a copy: the read buffer is reused
        if (got.length >= expected.length) {
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
    if (!received.subarray(0, expected.length).equals(expected)) {
      throw new SdbHandshakeError(
        `${endpoint} is not a Mono debugger agent (handshake was ${JSON.stringify(received.subarray(0, expected.length).toString('latin1'))})`,
      );
    }
    transport.write(expected);
    return received.subarray(expected.length);
  } catch (e) {
    transport.destroy();
    throw e;
  }
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
  const declared = ProtocolVersion.negotiate(conn.agent.major, conn.agent.minor);
  await conn.send('VM.SET_PROTOCOL_VERSION', { major: declared.major, minor: declared.minor });
  conn.version = declared;
  await started;
  // kept: the caller counts it as a level it holds
  if (keepStartSuspended && (await waitingAtStart(conn))) return { startSuspended: true };
  // With suspend=y the VM sits suspended after VM_START although the event says policy NONE
  // (trap 9); in deferred mode this RESUME answers NOT_SUSPENDED, which is fine.
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
