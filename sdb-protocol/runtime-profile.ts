// Which runtime the agent is, chosen once from VM.VERSION, and what that runtime cannot do: the
// one module every layer consults. The wire facts behind each entry were read in Unity's agent
// source, Unity 2022.3.10f1's IL2CPP tree (public mirror Extacy/il2cpp-2022.3, commit 3b83bf9):
// `external/mono/mono/mini/debugger-agent.c` (cited as U:line), `debugger-engine.c`,
// `libil2cpp/il2cpp-mono-api.cpp` (cited as api:line). docs/solutions/il2cpp-runtime-profiles.md
// lists them with what each layer does about them.

import type { CommandName, VmVersion } from './commands/index.js';

/** Debian's Mono 6.8 (what the tests run), Unity's Mono backend, an IL2CPP player. */
export type RuntimeKind = 'debian-mono' | 'unity-mono' | 'il2cpp';

/** Something a runtime cannot do, what happens if it is asked anyway, and what to do instead. */
export interface RuntimeLimit {
  /** What cannot be done, in a user's words ("set the next statement"). */
  readonly feature: string;
  /** What the runtime does when asked, with the citation. */
  readonly why: string;
  readonly instead: string;
}

export interface RuntimeProfile {
  readonly kind: RuntimeKind;
  /** For people: "IL2CPP", "Unity Mono", "Debian Mono". */
  readonly label: string;
  /** ASSEMBLY.GET_METADATA_BLOB gives the assembly's image (IL2CPP: NOT_IMPLEMENTED, U:8829-8838). */
  readonly metadataBlobs: boolean;
  /** ASSEMBLY.HAS_DEBUG_INFO tells game code apart (IL2CPP: always false, api:1738-1742). */
  readonly debugInfoFlag: boolean;
  /** ASSEMBLY.GET_TYPE/METHOD_FROM_TOKEN answer real ids (IL2CPP: id 0). */
  readonly tokenLookups: boolean;
  /**
   * Any generic instantiation can be made and any method run (a JIT). IL2CPP: only what the build
   * compiled (MAKE_GENERIC_METHOD INVALID_ARGUMENT otherwise, U:10126, api:1672-1680).
   */
  readonly jit: boolean;
  /**
   * A breakpoint binds only at an exact sequence-point offset and the agent says nothing when none
   * matches (debugger-engine.c:650-676, IL2CPP branch): offsets must be checked before arming.
   */
  readonly silentOffSequencePoints: boolean;
  /**
   * Classes loaded before the attach count as already announced (U:11285-11295): a TYPE_LOAD
   * request made on attach gets them replayed (deferred mode, U:8485-8488).
   */
  readonly replayTypeLoadsOnAttach: boolean;
  /** A step out of the outermost frame answers success with an empty body (U:8435-8441). */
  readonly emptyStepOutOfOutermost: boolean;
  /** Commands refused before sending on this runtime. */
  readonly refused: Readonly<Partial<Record<CommandName, RuntimeLimit>>>;
  /** An invoke with a `Nullable<T>` parameter is refused before sending (IL2CPP: U:7306-7308). */
  readonly refusesNullableArguments: boolean;
  /** Everything this runtime cannot do, for `status`. */
  readonly limits: readonly RuntimeLimit[];
}

const GET_BODY: RuntimeLimit = {
  feature: 'reading a method body (IL bytes)',
  why: "IL2CPP keeps no IL at run time; METHOD.GET_BODY has no bytes behind its reply loop (U:9966-9968) and IL2CPP's NOT_IMPLEMENTED is an assertion that kills the player",
  instead: 'read the source file and its sequence points (debug_locations)',
};
const RESOLVE_TOKEN: RuntimeLimit = {
  feature: 'resolving IL tokens',
  why: 'METHOD.RESOLVE_TOKEN ends in NOT_IMPLEMENTED, an assertion on IL2CPP (U:10033-10034)',
  instead: 'look types and members up by name',
};
const SET_IP: RuntimeLimit = {
  feature: 'moving the next statement (set IP)',
  why: 'THREAD.SET_IP answers NOT_IMPLEMENTED on IL2CPP (U:10248-10251)',
  instead: 'set a breakpoint where execution should stop and resume',
};
const METADATA_BLOB: RuntimeLimit = {
  feature: "reading an assembly's metadata image",
  why: 'ASSEMBLY.GET_METADATA_BLOB answers NOT_IMPLEMENTED on IL2CPP (U:8829-8838): no image is kept',
  instead:
    "type names come from the game itself (Assembly.GetTypes() invoked in the game); method signatures show only what the agent's member lists give",
};
const PDB_BLOB: RuntimeLimit = {
  feature: "reading an assembly's symbols",
  why: 'ASSEMBLY.GET_PDB_BLOB answers NOT_IMPLEMENTED on IL2CPP (U:8845-8847)',
  instead:
    "sequence points come from METHOD.GET_DEBUG_INFO (IL2CPP's build-time debugger metadata)",
};
const NULLABLE_ARGUMENT: RuntimeLimit = {
  feature: 'calling a method with a Nullable<T> parameter',
  why: "IL2CPP's invoke asserts on a Nullable<T> argument (U:7306-7308: g_assert_not_reached), killing the player",
  instead:
    'call an overload without Nullable<T> parameters, or read the fields the method would compute',
};
const NO_JIT: RuntimeLimit = {
  feature: 'generic instantiations and methods the build did not compile',
  why: 'IL2CPP has no JIT: METHOD.MAKE_GENERIC_METHOD is INVALID_ARGUMENT unless the instantiation is in the build (U:10126, api:1672-1680); invoking a method without AOT code throws ExecutionEngineException in the game',
  instead:
    'use an instantiation the game code itself uses (List<int> if the game has one), or a non-generic overload',
};
const STEP_ONE_AT_A_TIME: RuntimeLimit = {
  feature: 'several step requests at once',
  why: 'a second active step request is NOT_IMPLEMENTED on IL2CPP (U:5502-5503)',
  instead: 'one step at a time (the debugger clears the previous step first)',
};
const DEBUG_INFO_FLAG: RuntimeLimit = {
  feature: 'telling game assemblies apart by debug information',
  why: 'ASSEMBLY.HAS_DEBUG_INFO is always false on IL2CPP (il2cpp-mono-api.cpp:1738-1742)',
  instead: 'every assembly counts as game code for "step into" from a hold',
};
const OFF_SEQUENCE_POINT: RuntimeLimit = {
  feature: 'breakpoints off sequence points',
  why: 'IL2CPP binds a breakpoint only at an exact sequence-point offset and reports no error when none matches (debugger-engine.c:650-676)',
  instead:
    'breakpoints are checked against the sequence points first and refused off them (NO_LOCATION lists the lines)',
};
const ENTRY_ASSEMBLY: RuntimeLimit = {
  feature: 'asking for the entry assembly',
  why: "APPDOMAIN.GET_ENTRY_ASSEMBLY answers NOT_IMPLEMENTED on Unity's Mono backend (U:8587-8590)",
  instead: 'find types by name; a player has no entry assembly of its own',
};

const DEBIAN: RuntimeProfile = {
  kind: 'debian-mono',
  label: 'Debian Mono',
  metadataBlobs: true,
  debugInfoFlag: true,
  tokenLookups: true,
  jit: true,
  silentOffSequencePoints: false,
  replayTypeLoadsOnAttach: false,
  emptyStepOutOfOutermost: false,
  refused: {},
  refusesNullableArguments: false,
  limits: [],
};

const UNITY_MONO: RuntimeProfile = {
  ...DEBIAN,
  kind: 'unity-mono',
  label: 'Unity Mono',
  refused: { 'APPDOMAIN.GET_ENTRY_ASSEMBLY': ENTRY_ASSEMBLY },
  limits: [ENTRY_ASSEMBLY],
};

const IL2CPP: RuntimeProfile = {
  kind: 'il2cpp',
  label: 'IL2CPP',
  metadataBlobs: false,
  debugInfoFlag: false,
  tokenLookups: false,
  jit: false,
  silentOffSequencePoints: true,
  replayTypeLoadsOnAttach: true,
  emptyStepOutOfOutermost: true,
  refused: {
    'METHOD.GET_BODY': GET_BODY,
    'THREAD.SET_IP': SET_IP,
    'ASSEMBLY.GET_METADATA_BLOB': METADATA_BLOB,
    'ASSEMBLY.GET_PDB_BLOB': PDB_BLOB,
  },
  refusesNullableArguments: true,
  limits: [
    NO_JIT,
    NULLABLE_ARGUMENT,
    METADATA_BLOB,
    GET_BODY,
    RESOLVE_TOKEN,
    SET_IP,
    OFF_SEQUENCE_POINT,
    STEP_ONE_AT_A_TIME,
    DEBUG_INFO_FLAG,
  ],
};

export const RuntimeProfiles: Readonly<Record<RuntimeKind, RuntimeProfile>> = {
  'debian-mono': DEBIAN,
  'unity-mono': UNITY_MONO,
  il2cpp: IL2CPP,
};

/** The Mono line Debian ships (6.8) reports protocol 2.54; no Unity release reports it. */
const DEBIAN_MONO_MINOR = 54;

/**
 * The runtime behind a VM.VERSION reply. IL2CPP names itself: its build info is "0.0 (IL2CPP)"
 * (api:1584-1587), so the description is "mono 0.0 (IL2CPP)" (U:7917-7918). Debian's Mono 6.8
 * reports 2.54 (measured); Unity's Mono forks report 2.45 (2017-18) or 2.58 (2022.3, U:301-302).
 * Any other Mono counts as Unity's: its differences from Debian's are a refusal of a command this
 * client does not need and tolerances, so a misjudged upstream Mono loses nothing.
 */
export function profileOf(agent: Pick<VmVersion, 'description' | 'minor'>): RuntimeProfile {
  if (/\(IL2CPP\)/i.test(agent.description)) return IL2CPP;
  if (agent.minor === DEBIAN_MONO_MINOR) return DEBIAN;
  return UNITY_MONO;
}
