// Every command this client speaks, by name. The name → definition map types the connection's
// `send`, so call sites never cast.

import type { CommandDef } from '../command.js';
import { appDomainCommands } from './app-domain.js';
import { arrayRefCommands } from './array-ref.js';
import { assemblyCommands, moduleCommands } from './assembly.js';
import { eventRequestCommands } from './event-request.js';
import { methodCommands } from './method.js';
import { objectRefCommands, stringRefCommands } from './object-ref.js';
import { stackFrameCommands } from './stack-frame.js';
import { threadCommands } from './thread.js';
import { fieldCommands, typeCommands } from './type.js';
import { vmCommands } from './vm.js';

export const commands = {
  ...vmCommands,
  ...objectRefCommands,
  ...stringRefCommands,
  ...threadCommands,
  ...arrayRefCommands,
  ...eventRequestCommands,
  ...stackFrameCommands,
  ...appDomainCommands,
  ...assemblyCommands,
  ...methodCommands,
  ...typeCommands,
  ...moduleCommands,
  ...fieldCommands,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type ParamsOf<K extends CommandName> =
  Commands[K] extends CommandDef<infer P, unknown> ? P : never;
export type ResultOf<K extends CommandName> =
  Commands[K] extends CommandDef<never, infer R> ? R : never;

export * from './app-domain.js';
export * from './array-ref.js';
export * from './assembly.js';
export * from './custom-attributes.js';
export * from './event-request.js';
export * from './method.js';
export * from './object-ref.js';
export * from './stack-frame.js';
export * from './thread.js';
export * from './type.js';
export * from './vm.js';
