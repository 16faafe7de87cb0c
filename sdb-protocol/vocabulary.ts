// The protocol's numbers, in one place. Names follow mono's debugger-agent.c; see
// docs/reference/sdb-protocol.md for what each one means.

export const HANDSHAKE = 'DWP-Handshake';
export const HEADER_SIZE = 11;
/** Header flags byte: a command packet has none, a reply this one. */
export const COMMAND_FLAG = 0x00;
export const REPLY_FLAG = 0x80;

export const CommandSet = {
  VM: 1,
  OBJECT_REF: 9,
  STRING_REF: 10,
  THREAD: 11,
  ARRAY_REF: 13,
  EVENT_REQUEST: 15,
  STACK_FRAME: 16,
  APPDOMAIN: 20,
  ASSEMBLY: 21,
  METHOD: 22,
  TYPE: 23,
  MODULE: 24,
  FIELD: 25,
  EVENT: 64,
  POINTER: 65,
} as const;
export type CommandSetName = keyof typeof CommandSet;

/** Composite event packets are agent → client commands in set EVENT with this command. */
export const EVENT_COMPOSITE = 100;

export const ErrorCode = {
  NONE: 0,
  INVALID_OBJECT: 20,
  INVALID_FIELDID: 25,
  INVALID_FRAMEID: 30,
  NOT_IMPLEMENTED: 100,
  NOT_SUSPENDED: 101,
  INVALID_ARGUMENT: 102,
  ERR_UNLOADED: 103,
  NO_INVOCATION: 104,
  ABSENT_INFORMATION: 105,
  NO_SEQ_POINT_AT_IL_OFFSET: 106,
  INVOKE_ABORTED: 107,
  LOADER_ERROR: 200,
} as const;

const errorNames = new Map<number, string>(Object.entries(ErrorCode).map(([k, v]) => [v, k]));
export function errorCodeName(code: number): string {
  return errorNames.get(code) ?? `ERROR_${code}`;
}

export const EventKind = {
  VM_START: 0,
  VM_DEATH: 1,
  THREAD_START: 2,
  THREAD_DEATH: 3,
  APPDOMAIN_CREATE: 4,
  APPDOMAIN_UNLOAD: 5,
  METHOD_ENTRY: 6,
  METHOD_EXIT: 7,
  ASSEMBLY_LOAD: 8,
  ASSEMBLY_UNLOAD: 9,
  BREAKPOINT: 10,
  STEP: 11,
  TYPE_LOAD: 12,
  EXCEPTION: 13,
  KEEPALIVE: 14,
  USER_BREAK: 15,
  USER_LOG: 16,
  CRASH: 17,
} as const;
export type EventKindName = keyof typeof EventKind;
export type EventKindValue = (typeof EventKind)[EventKindName];

export const SuspendPolicy = {
  NONE: 0,
  /** Not implemented by the agent: an event with this policy aborts the debuggee. Never send it. */
  EVENT_THREAD: 1,
  ALL: 2,
} as const;

export const ModifierKind = {
  COUNT: 1,
  THREAD_ONLY: 3,
  LOCATION_ONLY: 7,
  EXCEPTION_ONLY: 8,
  STEP: 10,
  ASSEMBLY_ONLY: 11,
  SOURCE_FILE_ONLY: 12,
  TYPE_NAME_ONLY: 13,
} as const;

export const StepDepth = { INTO: 0, OVER: 1, OUT: 2 } as const;
export const StepSize = { MIN: 0, LINE: 1 } as const;
export const StepFilter = {
  NONE: 0,
  STATIC_CTOR: 1,
  DEBUGGER_HIDDEN: 2,
  DEBUGGER_STEP_THROUGH: 4,
  DEBUGGER_NON_USER_CODE: 8,
} as const;

export const InvokeFlags = {
  NONE: 0,
  DISABLE_BREAKPOINTS: 1,
  SINGLE_THREADED: 2,
  RETURN_OUT_THIS: 4,
  RETURN_OUT_ARGS: 8,
  VIRTUAL: 16,
} as const;

/** The flags byte that starts an invoke's result (sdb-protocol.md §4). */
export const InvokeResultFlags = {
  /** The whole byte: the call threw, and the exception follows. */
  THREW: 0,
  RETURNED: 1,
  OUT_THIS: 2,
  OUT_ARGS: 4,
} as const;

/** VALUE encoding tags: ECMA-335 element types plus the agent's private codes. */
export const ValueTag = {
  VOID: 0x01,
  BOOLEAN: 0x02,
  CHAR: 0x03,
  I1: 0x04,
  U1: 0x05,
  I2: 0x06,
  U2: 0x07,
  I4: 0x08,
  U4: 0x09,
  I8: 0x0a,
  U8: 0x0b,
  R4: 0x0c,
  R8: 0x0d,
  STRING: 0x0e,
  PTR: 0x0f,
  VALUETYPE: 0x11,
  CLASS: 0x12,
  ARRAY: 0x14,
  OBJECT: 0x1c,
  SZARRAY: 0x1d,
  NULL: 0xf0,
  TYPE: 0xf1,
  PARENT_VTYPE: 0xf2,
  FIXED_ARRAY: 0xf3,
} as const;

/** TYPE.GET_INFO flags byte. */
export const TypeInfoFlags = {
  BYREF: 1,
  POINTER: 2,
  PRIMITIVE: 4,
  VALUE_TYPE: 8,
  ENUM: 16,
  GENERIC_TYPE_DEFINITION: 32,
  GENERIC_TYPE: 64,
} as const;

export const FrameFlags = { DEBUGGER_INVOKE: 1, NATIVE_TRANSITION: 2 } as const;

/** METHOD.GET_INFO's generic bits (2.12+). */
export const MethodInfoFlags = { GENERIC_DEFINITION: 1, GENERIC: 2 } as const;

/** METHOD.GET_BODY exception clause kinds (ECMA-335 II.25.4.6). */
export const ExceptionClauseKind = { CATCH: 0, FILTER: 1, FINALLY: 2, FAULT: 4 } as const;

/** A custom attribute's named argument: a field or a property (ECMA-335 II.23.3). */
export const NamedArgumentKind = { FIELD: 0x53, PROPERTY: 0x54 } as const;

/** .NET BindingFlags as TYPE.GET_METHODS_BY_NAME_FLAGS reads them. */
export const BindingFlags = {
  IgnoreCase: 1,
  DeclaredOnly: 2,
  Instance: 4,
  Static: 8,
  Public: 16,
  NonPublic: 32,
  FlattenHierarchy: 64,
} as const;

/** GET_METHODS_BY_NAME_FLAGS: agents before 2.48 read ignore-case from these high flag bits. */
export const LEGACY_IGNORE_CASE_BITS = 0x70000000;

/** GET_METHODS_BY_NAME_FLAGS list type (2.48+; older agents ignore the trailing int). */
export const MethodListType = { ALL: 0, CASE_SENSITIVE: 1, CASE_INSENSITIVE: 2 } as const;

export const FieldAttributes = {
  Static: 0x10,
  Literal: 0x40,
  InitOnly: 0x20,
  FieldAccessMask: 0x7,
  Public: 0x6,
} as const;
export const MethodAttributes = {
  Static: 0x10,
  Virtual: 0x40,
  Abstract: 0x400,
  SpecialName: 0x800,
  MemberAccessMask: 0x7,
  Public: 0x6,
} as const;

/** TYPE.GET_INFO attributes: ECMA-335 TypeAttributes bits. */
export const TypeAttributes = { Interface: 0x20, Abstract: 0x80, Sealed: 0x100 } as const;
