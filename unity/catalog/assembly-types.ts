// The type names of one loaded assembly. No SDB command lists them, so they come from the
// assembly's image, in this order:
//   1. ASSEMBLY.GET_METADATA_BLOB (since 2.47: Mono 6.8 has it, Unity's 2.45 agent does not, nor
//      does IL2CPP, which keeps no image: never asked there, see runtime-profile.ts);
//   2. the file at ASSEMBLY.GET_LOCATION read from local disk, accepted only if its MVID is the
//      loaded module's (MODULE.GET_INFO guid): a game on another machine, or a file rebuilt
//      since it was loaded, must not lend us wrong names;
//   3. an injected lister (the session's invoke-based Assembly.GetTypes(), for instance: an
//      IL2CPP player's names always come from there or from its replayed classes).
// With preferLocalFiles, 2 goes before 1: three small commands and a disk read instead of the
// whole image over the wire (mscorlib alone is 4.8 MB). Method signatures read images through
// the same loadAssemblyImage (sources 1 and 2 only: names alone carry no signatures).

import { readFile as fsReadFile } from 'node:fs/promises';

import { isAgentError, type SdbConnection } from '../../sdb-protocol/index.js';
import type { TypeKind, TypeListSource } from './catalog-types.js';
import { MetadataFormatError, MetadataImage, type MetadataTypeDef } from './metadata-reader.js';
import { nameKeys, type NameKeys } from './name-query.js';
import { splitFullName } from './type-names.js';

/** One type of an assembly, as the catalogue indexes it. */
export interface CatalogType {
  fullName: string;
  namespace: string;
  name: string;
  /** TypeDef token, when the names came from metadata. */
  token: number | undefined;
  kind: TypeKind | undefined;
  keys: NameKeys;
}

export type AssemblyTypes =
  | { listed: true; source: TypeListSource; types: CatalogType[]; blobBytes: number }
  | { listed: false; reasons: string[] };

export interface TypeSources {
  /** Reads a local file; undefined when it does not exist or cannot be read. */
  readFile: (path: string) => Promise<Uint8Array | undefined>;
  /** Full names of an assembly's types, when neither its metadata nor its file is reachable. */
  listTypeNames: ((assemblyId: number) => Promise<string[]>) | undefined;
  /** Try the local file before the metadata blob. */
  preferLocalFiles: boolean;
}

/** A metadata blob can be tens of megabytes: give it longer than an ordinary request. */
const BLOB_TIMEOUT_MS = 60_000;

export async function defaultReadFile(path: string): Promise<Uint8Array | undefined> {
  try {
    return await fsReadFile(path);
  } catch {
    return undefined; // absent, unreadable, a directory: the next source is tried
  }
}

/** An assembly's image, opened, and where it came from. */
export interface LoadedImage {
  source: Exclude<TypeListSource, 'fallback'>;
  metadata: MetadataImage;
  /** Bytes transferred over the wire (0 for a local file). */
  blobBytes: number;
}

/** One source: the image, or why it cannot give it (thrown errors that are not wire-fatal). */
type Attempt = () => Promise<LoadedImage | string>;

/**
 * The assembly's image from its metadata blob or its MVID-checked local file (in the order
 * `preferLocalFiles` picks), or why neither could give it, one reason per source.
 */
export async function loadAssemblyImage(
  conn: SdbConnection,
  assemblyId: number,
  sources: Pick<TypeSources, 'readFile' | 'preferLocalFiles'>,
): Promise<LoadedImage | { reasons: string[] }> {
  const blob: Attempt = async () => {
    if (!conn.runtime.metadataBlobs) {
      return `${conn.runtime.label} keeps no metadata image (GET_METADATA_BLOB is not implemented there)`;
    }
    if (!conn.version.atLeast(47)) {
      return `needs protocol 2.47, the agent speaks ${conn.version.toString()}`;
    }
    const image = await conn.send(
      'ASSEMBLY.GET_METADATA_BLOB',
      { assemblyId },
      { timeoutMs: BLOB_TIMEOUT_MS },
    );
    return { source: 'metadata-blob', metadata: new MetadataImage(image), blobBytes: image.length };
  };
  const file: Attempt = async () => {
    const read = await readLocalImage(conn, assemblyId, sources.readFile);
    if (typeof read === 'string') return read;
    return { source: 'file', metadata: read, blobBytes: 0 };
  };
  const attempts: [string, Attempt][] = sources.preferLocalFiles
    ? [
        ['file', file],
        ['metadata blob', blob],
      ]
    : [
        ['metadata blob', blob],
        ['file', file],
      ];
  const reasons: string[] = [];
  for (const [what, attempt] of attempts) {
    try {
      const got = await attempt();
      if (typeof got !== 'string') return got;
      reasons.push(`${what}: ${got}`);
    } catch (e) {
      reasons.push(`${what}: ${recoverable(e)}`);
    }
  }
  return { reasons };
}

export async function listAssemblyTypes(
  conn: SdbConnection,
  assemblyId: number,
  sources: TypeSources,
): Promise<AssemblyTypes> {
  const loaded = await loadAssemblyImage(conn, assemblyId, sources);
  if ('metadata' in loaded) {
    const types = fromMetadata(loaded.metadata.typeDefs());
    return { listed: true, source: loaded.source, types, blobBytes: loaded.blobBytes };
  }
  const reasons = loaded.reasons;
  if (!sources.listTypeNames) {
    reasons.push('fallback lister: none configured');
    return { listed: false, reasons };
  }
  try {
    const names = await sources.listTypeNames(assemblyId);
    return { listed: true, source: 'fallback', types: fromNames(names), blobBytes: 0 };
  } catch (e) {
    reasons.push(`fallback lister: ${e instanceof Error ? e.message : String(e)}`);
    return { listed: false, reasons };
  }
}

/** The opened image, or why the local file cannot stand for the loaded assembly. */
async function readLocalImage(
  conn: SdbConnection,
  assemblyId: number,
  readFile: TypeSources['readFile'],
): Promise<MetadataImage | string> {
  const [location, guid] = await Promise.all([
    conn.send('ASSEMBLY.GET_LOCATION', { assemblyId }),
    conn
      .send('ASSEMBLY.GET_MANIFEST_MODULE', { assemblyId })
      .then((moduleId) => conn.send('MODULE.GET_INFO', { moduleId }))
      .then((m) => m.guid),
  ]);
  if (!location) return 'the assembly has no location (loaded from memory)';
  const image = await readFile(location);
  if (!image) return `${location} is not readable here`;
  const metadata = new MetadataImage(image);
  if (guid && normalizeGuid(guid) !== normalizeGuid(metadata.mvid)) {
    return `${location} is not the loaded image (MVID ${metadata.mvid}, loaded ${guid})`;
  }
  return metadata;
}

function normalizeGuid(g: string): string {
  return g.replace(/[{}]/g, '').toUpperCase();
}

/** Agent refusals and bad images fall through to the next source; anything else is fatal. */
function recoverable(e: unknown): string {
  if (e instanceof MetadataFormatError || isAgentError(e)) return e.message;
  throw e;
}

const TypeAttributes = { Interface: 0x20 } as const;

function fromMetadata(defs: readonly MetadataTypeDef[]): CatalogType[] {
  const out: CatalogType[] = [];
  for (const d of defs) {
    if (d.token === 0x02000001 && d.name === '<Module>') continue; // not a type reflection shows
    const parts = splitFullName(d.fullName);
    out.push({
      fullName: d.fullName,
      namespace: parts.namespace,
      name: parts.name,
      token: d.token,
      kind: kindFromMetadata(d),
      keys: nameKeys(d.fullName, parts.name),
    });
  }
  return out;
}

function kindFromMetadata(d: MetadataTypeDef): TypeKind {
  if (d.flags & TypeAttributes.Interface) return 'interface';
  if (d.extends === 'System.Enum') return 'enum';
  if (d.extends === 'System.ValueType' && d.fullName !== 'System.Enum') return 'struct';
  return 'class';
}

function fromNames(names: readonly string[]): CatalogType[] {
  return names.map((fullName) => {
    const parts = splitFullName(fullName);
    return {
      fullName,
      namespace: parts.namespace,
      name: parts.name,
      token: undefined,
      kind: undefined,
      keys: nameKeys(fullName, parts.name),
    };
  });
}
