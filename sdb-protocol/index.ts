// The public surface of the wire client. Nothing above this folder touches sockets or bytes.

export * from './commands/index.js';
export { SdbConnection } from './connection.js';
export type { ConnectOptions, ConnectionStats, SendOptions } from './connection-options.js';
export type { CloseListener, EventListener } from './event-delivery.js';
export type { Transport } from './transport.js';
export * from './errors.js';
export * from './events.js';
export { invokeWhenParked } from './invoke.js';
export type { ParkedInvokeOptions, ParkedInvokeResult } from './invoke.js';
export { notSupported } from './not-supported.js';
export { RuntimeProfiles, profileOf } from './runtime-profile.js';
export type { RuntimeKind, RuntimeLimit, RuntimeProfile } from './runtime-profile.js';
export { readString } from './strings.js';
export type { StringRead } from './strings.js';
export * from './values.js';
export * from './vocabulary.js';
export { IMPLEMENTED_MINOR, ProtocolVersion } from './version.js';
