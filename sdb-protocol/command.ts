// What a command is: where it lives on the wire, since which protocol version, how its
// parameters are written and its reply read, and which requests are refused before sending
// because Mono's agent would crash or wedge the game on them.

import type { PacketReader } from './buffer-reader.js';
import type { PacketWriter } from './buffer-writer.js';
import type { RuntimeProfile } from './runtime-profile.js';
import type { CommandSetName } from './vocabulary.js';
import type { ProtocolVersion } from './version.js';

/** What a guard may ask of the connection before a request is sent. */
export interface GuardContext {
  readonly version: ProtocolVersion;
  /** Suspend levels this client holds (own SUSPENDs plus ALL-policy event sets). */
  readonly suspendCount: number;
  /** Flat element count of an array, fetched once per array id (lengths never change). */
  arrayLength(arrayId: number): Promise<number>;
  /** UTF-16 length of a string, fetched once per string id (strings never change). */
  stringLength(stringId: number): Promise<number>;
  /** Whether a type is a value type (struct, enum, primitive), fetched once per type id. */
  isValueType(typeId: number): Promise<boolean>;
  /** The runtime behind the agent (from VM.VERSION; Debian Mono until it is known). */
  readonly runtime: RuntimeProfile;
  /** The index of the method's first by-value `Nullable<T>` parameter, asked once per method. */
  nullableParameter(methodId: number): Promise<number | undefined>;
}

export interface CommandDef<P, R> {
  readonly set: CommandSetName;
  readonly command: number;
  /** Minimum protocol minor version (2.N) the agent needs for this command. */
  readonly since?: number;
  /** Several replies share the request's id (VM.INVOKE_METHODS). */
  readonly replies?: (params: P) => number;
  encode(w: PacketWriter, params: P, v: ProtocolVersion): void;
  decode(r: PacketReader, v: ProtocolVersion, params: P): R;
  /** Throws SdbUnsafeRequestError for requests known to crash or wedge the debuggee. */
  guard?(params: P, ctx: GuardContext): void | Promise<void>;
}

export function defineCommand<P = void, R = void>(def: CommandDef<P, R>): CommandDef<P, R> {
  return def;
}

/** Helpers for the many commands whose body is a single id and whose reply is one value. */
export const noBody = (): void => undefined;
export const noReply = (): void => undefined;
