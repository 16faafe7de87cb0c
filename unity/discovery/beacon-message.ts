// Unity's PlayerConnection announcement ("beacon"): the text a development player sends about once
// a second (docs/reference/sdb-protocol.md §9.2). Parsing is tolerant because the text varies by
// Unity version (PackageName and ProjectName are missing in older players) and ProjectName is the
// user's product name, which may contain spaces and brackets.

/** One parsed announcement. */
export interface BeaconMessage {
  /** The player's own address as it reports it; may be unreachable (see `UseAlternateIp`). */
  ip: string;
  /** PlayerConnection TCP port (logs, profiler): **not** the debugger port. */
  port: number;
  /** Bit set, see `BeaconFlags`. */
  flags: number;
  /** Unsigned 32-bit instance id, stable for the player's lifetime. */
  guid: number;
  /** Unsigned 32-bit id of the editor that built the player. */
  editorId: number;
  version: number;
  /** Display label such as `WindowsPlayer(host)`, without a `:<port>` suffix. */
  id: string;
  /** `[Debug] 1`: script debugging is on, so the Mono agent listens. */
  debug: boolean;
  packageName?: string;
  projectName?: string;
  /** The `:<port>` suffix of Id (consoles, iOS): then the debugger port. */
  idPort?: number;
}

/** Flag bits of `[Flags]` (names as Rider uses them). */
export const BeaconFlags = {
  RequestImmediateConnect: 1,
  SupportsProfile: 2,
  CustomMessage: 4,
  UseAlternateIp: 8,
} as const;

type FieldName =
  | 'ip'
  | 'port'
  | 'flags'
  | 'guid'
  | 'editorid'
  | 'version'
  | 'id'
  | 'debug'
  | 'packagename'
  | 'projectname';

const FIELDS: ReadonlySet<string> = new Set<FieldName>([
  'ip',
  'port',
  'flags',
  'guid',
  'editorid',
  'version',
  'id',
  'debug',
  'packagename',
  'projectname',
]);

const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

/**
 * Parses one beacon text (a datagram decoded as UTF-8). Returns undefined for text that is not a
 * beacon: one without a usable IP, Port or Guid, the fields an endpoint and an identity need.
 * Other fields default when missing or malformed; a missing Debug counts as off, because attaching
 * to a player whose agent may not listen is the worse mistake.
 */
export function parseBeacon(text: string): BeaconMessage | undefined {
  const fields = splitFields(stripTerminator(text));
  const ip = fields.get('ip');
  const port = parseUnsigned(fields.get('port'), U16_MAX);
  const guid = parseUnsigned(fields.get('guid'), U32_MAX);
  if (ip === undefined || !/^\S+$/.test(ip) || port === undefined || guid === undefined)
    return undefined;

  const message: BeaconMessage = {
    ip,
    port,
    flags: parseUnsigned(fields.get('flags'), U32_MAX) ?? 0,
    guid,
    editorId: parseUnsigned(fields.get('editorid'), U32_MAX) ?? 0,
    version: parseSigned32(fields.get('version')) ?? 0,
    id: '',
    debug: (parseSigned32(fields.get('debug')) ?? 0) !== 0,
  };
  const id = fields.get('id') ?? '';
  const suffix = /^(.+):(\d{1,5})$/s.exec(id);
  const idPort = parseUnsigned(suffix?.[2], U16_MAX);
  if (suffix?.[1] !== undefined && idPort !== undefined && idPort > 0) {
    message.id = suffix[1];
    message.idPort = idPort;
  } else {
    message.id = id;
  }
  const packageName = fields.get('packagename');
  if (packageName !== undefined) message.packageName = packageName;
  const projectName = fields.get('projectname');
  if (projectName !== undefined) message.projectName = projectName;
  return message;
}

/** Unity's exact text for `msg` (without the trailing NUL the datagram carries). */
export function formatBeacon(msg: BeaconMessage): string {
  const id = msg.idPort === undefined ? msg.id : `${msg.id}:${msg.idPort}`;
  let text =
    `[IP] ${msg.ip} [Port] ${msg.port} [Flags] ${msg.flags} [Guid] ${msg.guid}` +
    ` [EditorId] ${msg.editorId} [Version] ${msg.version} [Id] ${id} [Debug] ${msg.debug ? 1 : 0}`;
  if (msg.packageName !== undefined) text += ` [PackageName] ${msg.packageName}`;
  if (msg.projectName !== undefined) text += ` [ProjectName] ${msg.projectName}`;
  return text;
}

/** The datagram ends with a C string's NUL (and buffers may be padded after it). */
function stripTerminator(text: string): string {
  const nul = text.indexOf('\0');
  return nul === -1 ? text : text.slice(0, nul);
}

/**
 * Splits on `[Key]` tokens. Only the known keys split, and each only at its first occurrence, so
 * a product name such as `Game [Beta]` or even `Foo [Id] Bar` stays whole in ProjectName.
 */
function splitFields(text: string): Map<FieldName, string> {
  const fields = new Map<FieldName, string>();
  let current: FieldName | undefined;
  let valueStart = 0;
  for (const match of text.matchAll(/\[\s*([A-Za-z]+)\s*\]/g)) {
    const key = match[1]?.toLowerCase();
    if (key === undefined || !FIELDS.has(key) || fields.has(key as FieldName)) continue;
    if (current !== undefined) fields.set(current, text.slice(valueStart, match.index).trim());
    current = key as FieldName;
    // Reserve the key now so a repeat of it inside the value is treated as text.
    fields.set(current, '');
    valueStart = match.index + match[0].length;
  }
  if (current !== undefined) fields.set(current, text.slice(valueStart).trim());
  return fields;
}

function parseUnsigned(text: string | undefined, max: number): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

function parseSigned32(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= -0x80000000 && value <= 0x7fffffff ? value : undefined;
}
