// Commands listed in the protocol reference (docs/reference/sdb-protocol.md) that this client
// deliberately does not speak, each with the reason. A unit test fails when a command of the
// reference has neither a codec (commands/) nor an entry here.

const DOTNET_ONLY = "dotnet/runtime only: absent from Mono 6.8 and from Unity's Mono fork";
const BEYOND_VERSION =
  'needs a protocol version above the 2.56 this client declares (its layouts are not implemented)';

export const notSupported: Readonly<Record<string, string>> = {
  'VM.SET_KEEPALIVE':
    'crashes Debian mono 6.8 (SIGABRT when the receive timeout first fires); liveness is checked client-side instead',
  'METHOD.RESOLVE_TOKEN':
    "a token that is not a valid row of the method's metadata (bad table or heap index) segfaults Mono 6.8, and the agent cannot be asked first which tokens are valid; nothing here needs raw IL tokens",
  'POINTER.GET_VALUE':
    "reads raw memory at any address: a wrong address or type id 0 segfaults the game; absent from Unity's 2.45 fork",
  'VM.READ_MEMORY': DOTNET_ONLY,
  'VM.WRITE_MEMORY': DOTNET_ONLY,
  'VM.GET_ASSEMBLY_BY_NAME': DOTNET_ONLY,
  'VM.GET_MODULE_BY_GUID': DOTNET_ONLY,
  'VM.GET_ASSEMBLY_BYTES': DOTNET_ONLY,
  'VM.GET_ENC_CAPABILITIES': `${DOTNET_ONLY}; ${BEYOND_VERSION}`,
  'VM.GET_OBJECT_ID_BY_ADDRESS': DOTNET_ONLY,
  'VM.GET_INTERNAL_TYPE_CLASS': DOTNET_ONLY,
  'OBJECT_REF.GET_VALUES_BY_FIELD_TOKEN': DOTNET_ONLY,
  'OBJECT_REF.DELEGATE_GET_METHOD': DOTNET_ONLY,
  'OBJECT_REF.IS_DELEGATE': DOTNET_ONLY,
  'OBJECT_REF.SET_VALUES_BY_FIELD_TOKEN': DOTNET_ONLY,
  'THREAD.GET_APPDOMAIN': DOTNET_ONLY,
  'THREAD.GET_CONTEXT': DOTNET_ONLY,
  'THREAD.SET_CONTEXT': DOTNET_ONLY,
  'ARRAY_REF.GET_TYPE': DOTNET_ONLY,
  'STACK_FRAME.GET_ARGUMENT': DOTNET_ONLY,
  'STACK_FRAME.GET_ARGUMENTS': DOTNET_ONLY,
  'STACK_FRAME.GET_ADDRESS': DOTNET_ONLY,
  'STACK_FRAME.SET_VALUES_2': DOTNET_ONLY,
  'STACK_FRAME.GET_COUNT': DOTNET_ONLY,
  'STACK_FRAME.GET_PARAMETERS_COUNT': DOTNET_ONLY,
  'ASSEMBLY.GET_CATTRS':
    "Debian's 6.8 answers NOT_IMPLEMENTED; Unity's agents (2022.3, Mono and IL2CPP) have it as command 14 (debugger-agent.c:8902 of Unity's IL2CPP tree); nothing here needs assembly attributes",
  'ASSEMBLY.GET_CUSTOM_ATTRIBUTES': DOTNET_ONLY,
  'ASSEMBLY.GET_PEIMAGE_ADDRESS': DOTNET_ONLY,
  'ASSEMBLY.GET_DEBUG_INFORMATION': `${DOTNET_ONLY}; ${BEYOND_VERSION}`,
  'ASSEMBLY.HAS_DEBUG_INFO_LOADED': `${DOTNET_ONLY}; ${BEYOND_VERSION}`,
  'METHOD.TOKEN': DOTNET_ONLY,
  'METHOD.ASSEMBLY': DOTNET_ONLY,
  'METHOD.GET_CLASS_TOKEN': DOTNET_ONLY,
  'METHOD.HAS_ASYNC_DEBUG_INFO': DOTNET_ONLY,
  'METHOD.GET_NAME_FULL': DOTNET_ONLY,
  'METHOD.GET_PRETTY_NAME': DOTNET_ONLY,
  'METHOD.BIND_GENERIC_TYPE_PARAMETERS': DOTNET_ONLY,
  'TYPE.GET_VALUES_BY_FIELD_TOKEN': DOTNET_ONLY,
  'TYPE.GET_PARENTS': DOTNET_ONLY,
  'TYPE.INITIALIZE': DOTNET_ONLY,
  'TYPE.BIND_GENERIC_PARAMETERS': DOTNET_ONLY,
  'TYPE.ELEMENT_TYPE': DOTNET_ONLY,
  'TYPE.RANK': DOTNET_ONLY,
  'TYPE.SET_VALUES_BY_FIELD_TOKEN': DOTNET_ONLY,
  'MODULE.APPLY_CHANGES': `hot reload, ${DOTNET_ONLY}; ${BEYOND_VERSION}`,
};
