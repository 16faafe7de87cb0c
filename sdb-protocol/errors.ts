// Typed errors of the wire layer. Each carries a stable `code`; the layers above translate them
// once at their boundary (see docs/architecture.md) instead of matching on messages.

import type { RuntimeKind, RuntimeLimit } from './runtime-profile.js';
import { errorCodeName } from './vocabulary.js';

export type SdbErrorCode =
  | 'PROTOCOL_ERROR'
  | 'AGENT_ERROR'
  | 'TIMEOUT'
  | 'CONNECTION_CLOSED'
  | 'HANDSHAKE_FAILED'
  | 'UNSAFE_REQUEST'
  | 'UNSUPPORTED'
  | 'UNSUPPORTED_ON_RUNTIME'
  | 'NOT_PARKED';

export abstract class SdbError extends Error {
  abstract readonly code: SdbErrorCode;
}

/** The agent sent bytes we cannot decode: truncated, malformed, or an unknown tag. */
export class SdbProtocolError extends SdbError {
  readonly code = 'PROTOCOL_ERROR';
  override name = 'SdbProtocolError';
}

/** The agent answered a command with a non-zero error code. */
export class SdbAgentError extends SdbError {
  readonly code = 'AGENT_ERROR';
  override name = 'SdbAgentError';
  readonly errorName: string;
  constructor(
    readonly command: string,
    readonly errorCode: number,
    readonly agentMessage?: string,
  ) {
    super(
      `${command} failed: ${errorCodeName(errorCode)} (${errorCode})` +
        (agentMessage ? `: ${agentMessage}` : ''),
    );
    this.errorName = errorCodeName(errorCode);
  }
}

/** No reply within the bound. The command may still have been applied by the agent. */
export class SdbTimeoutError extends SdbError {
  readonly code = 'TIMEOUT';
  override name = 'SdbTimeoutError';
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(`${command} got no reply within ${timeoutMs} ms`);
  }
}

/** The connection is gone; every request pending on it is rejected with this error. */
export class SdbConnectionClosedError extends SdbError {
  readonly code = 'CONNECTION_CLOSED';
  override name = 'SdbConnectionClosedError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class SdbHandshakeError extends SdbError {
  readonly code = 'HANDSHAKE_FAILED';
  override name = 'SdbHandshakeError';
}

/** Refused before sending: this request is known to crash or wedge the debuggee. */
export class SdbUnsafeRequestError extends SdbError {
  readonly code = 'UNSAFE_REQUEST';
  override name = 'SdbUnsafeRequestError';
}

/** The command is not available with the negotiated protocol version, or not implemented here. */
export class SdbUnsupportedError extends SdbError {
  readonly code = 'UNSUPPORTED';
  override name = 'SdbUnsupportedError';
}

/**
 * Refused before sending (or an agent refusal explained): the runtime behind the agent cannot do
 * this (runtime-profile.ts). `feature` 'generic-instantiation' is a generic method the build has
 * no code for.
 */
export class SdbUnsupportedOnRuntimeError extends SdbError {
  readonly code = 'UNSUPPORTED_ON_RUNTIME';
  override name = 'SdbUnsupportedOnRuntimeError';
  constructor(
    readonly runtime: RuntimeKind,
    readonly command: string,
    readonly limit: RuntimeLimit,
    readonly feature: 'command' | 'nullable-argument' | 'generic-instantiation' = 'command',
    options?: { cause?: unknown },
  ) {
    super(
      `${command}: ${limit.feature} is not possible on this runtime: ${limit.why}. Instead: ${limit.instead}`,
      options,
    );
  }
}

export function isAgentError(e: unknown, errorCode?: number): e is SdbAgentError {
  return e instanceof SdbAgentError && (errorCode === undefined || e.errorCode === errorCode);
}

/** A thread did not reach managed code within the bound, so nothing could run on it. */
export class SdbNotParkedError extends SdbError {
  readonly code = 'NOT_PARKED';
  override name = 'SdbNotParkedError';
  constructor(
    message: string,
    readonly threadId: number,
    readonly waitedMs: number,
  ) {
    super(message);
  }
}
