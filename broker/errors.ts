// The broker's error catalogue: the failures of reaching or running the per-user broker, each
// with a stable code and a message that says what to do. No SDK or unity import: the stdio
// front-end loads this file and must stay light (spawn → tools/list under 300 ms).

export type BrokerErrorCode =
  /** The broker's directory is not a directory, not ours, or open to others. */
  | 'BROKER_HOME_UNSAFE'
  /** The socket path does not fit a Unix socket address (108 bytes with its NUL). */
  | 'BROKER_SOCKET_PATH_TOO_LONG'
  /** The broker we spawned exited, or did not listen, before it answered. */
  | 'BROKER_START_FAILED'
  /** The broker this front-end was talking to went away. */
  | 'BROKER_LOST'
  /** Front-end and broker are different versions of unity-devtools. */
  | 'BROKER_VERSION_MISMATCH'
  /** A connection's first line was not a front-end's preamble (or a broker's answer). */
  | 'BAD_PREAMBLE'
  /** `broker --status` and friends: no broker listens in this home. */
  | 'BROKER_NOT_RUNNING'
  /** `dashboard`: the running broker serves no HTTP (it was started without --http). */
  | 'BROKER_NO_HTTP'
  /** `broker --http` was given something that is not host:port. */
  | 'HTTP_BAD_ADDRESS'
  /** `broker --http` names a non-loopback address without `--allow-remote`. */
  | 'HTTP_REMOTE_REFUSED'
  /** UNITY_DEVTOOLS_TOKEN is too short or holds characters a header cannot carry. */
  | 'HTTP_TOKEN_WEAK'
  /** The HTTP address could not be bound (in use, not ours). */
  | 'HTTP_LISTEN_FAILED';

export class BrokerError extends Error {
  override readonly name = 'BrokerError';
  constructor(
    readonly code: BrokerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const brokerErrors = {
  homeUnsafe: (dir: string, why: string): BrokerError =>
    new BrokerError(
      'BROKER_HOME_UNSAFE',
      `the broker directory ${dir} ${why}; the broker's socket must be reachable by you alone: ` +
        `fix it (\`chmod 700 ${dir}\`, owned by you) or point UNITY_DEVTOOLS_HOME at a directory that is`,
    ),
  socketPathTooLong: (socket: string, bytes: number): BrokerError =>
    new BrokerError(
      'BROKER_SOCKET_PATH_TOO_LONG',
      `the broker socket path ${socket} is ${bytes} bytes; a Unix socket path holds at most 107 ` +
        'bytes: set UNITY_DEVTOOLS_HOME to a shorter directory',
    ),
  startFailed: (why: string, logTail: string): BrokerError =>
    new BrokerError(
      'BROKER_START_FAILED',
      `the broker did not start: ${why}${logTail ? `; its log ends with:\n${logTail}` : ''}`,
    ),
  lost: (pid: number | undefined): BrokerError =>
    new BrokerError(
      'BROKER_LOST',
      `the broker${pid !== undefined ? ` (pid ${pid})` : ''} exited; holds, pauses and ` +
        'breakpoints you had are gone; the next call starts a new broker',
    ),
  versionMismatch: (ours: string, theirs: string): BrokerError =>
    new BrokerError(
      'BROKER_VERSION_MISMATCH',
      `this front-end is unity-devtools ${ours} but the running broker is ${theirs}: stop it ` +
        '(`unity-devtools broker --stop`) so the next call starts a matching one',
    ),
  badPreamble: (why: string): BrokerError =>
    new BrokerError('BAD_PREAMBLE', `not a unity-devtools preamble: ${why}`),
  notRunning: (socket: string): BrokerError =>
    new BrokerError('BROKER_NOT_RUNNING', `no broker is listening at ${socket}`),
  noHttp: (): BrokerError =>
    new BrokerError(
      'BROKER_NO_HTTP',
      'the running broker does not serve HTTP, so it has no dashboard: stop it ' +
        '(`unity-devtools broker --stop`) and start it with `unity-devtools broker --http 127.0.0.1:<port>`',
    ),
  httpBadAddress: (text: string): BrokerError =>
    new BrokerError(
      'HTTP_BAD_ADDRESS',
      `--http takes host:port (127.0.0.1:8123, [::1]:8123), got "${text}"`,
    ),
  httpRemoteRefused: (host: string): BrokerError =>
    new BrokerError(
      'HTTP_REMOTE_REFUSED',
      `${host} is not a loopback address: anyone who reaches it and has the token can run code ` +
        'in your game; bind 127.0.0.1, or add --allow-remote if that is what you want',
    ),
  httpTokenWeak: (): BrokerError =>
    new BrokerError(
      'HTTP_TOKEN_WEAK',
      'UNITY_DEVTOOLS_TOKEN must be at least 16 printable characters without spaces; unset it ' +
        'to have the broker make a random one',
    ),
  httpListenFailed: (address: string, why: string): BrokerError =>
    new BrokerError(
      'HTTP_LISTEN_FAILED',
      `could not serve HTTP at ${address}: ${why}; pick another port`,
    ),
};
