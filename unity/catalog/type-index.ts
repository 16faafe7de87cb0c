// The searchable side of the catalogue: the domain's assemblies (listed fresh on every call:
// games load assemblies late), each assembly's types (listed once per assembly id), and type ids
// for hits (resolved once per type). Everything keyed by an agent id is cached for good: the
// agent never reuses an id.

import { isAgentError, type SdbConnection } from '../../sdb-protocol/index.js';
import { Errors } from '../errors.js';
import {
  listAssemblyTypes,
  type AssemblyTypes,
  type CatalogType,
  type TypeSources,
} from './assembly-types.js';
import type { AssemblyEntry, TypeListSource, UnlistedAssembly } from './catalog-types.js';
import { closestNames } from './edit-distance.js';
import { memo, type MemberReader } from './member-reader.js';
import { nameKeys, type TypeQuery } from './name-query.js';
import { searchTypes, type Hit, type IndexedAssembly } from './type-search.js';
import { isPlainTypeName, splitFullName } from './type-names.js';

export interface CatalogStats {
  /** Bytes of metadata blobs transferred (ASSEMBLY.GET_METADATA_BLOB). */
  metadataBlobBytes: number;
  /** Assemblies whose types were listed, by source. */
  listedBy: Record<TypeListSource, number>;
}

export interface SearchResult {
  hits: Hit[];
  /** The assemblies searched whose types are known (for suggestions). */
  indexed: IndexedAssembly[];
  unlisted: UnlistedAssembly[];
}

export class TypeIndex {
  readonly stats: CatalogStats = {
    metadataBlobBytes: 0,
    listedBy: { 'metadata-blob': 0, file: 0, fallback: 0 },
  };
  private readonly names = new Map<number, Promise<AssemblyEntry>>();
  private readonly typeLists = new Map<number, Promise<AssemblyTypes>>();
  private readonly typeIds = new Map<string, Promise<number | undefined>>();
  private rootDomain: Promise<number> | undefined;
  // A game's images can total tens of megabytes; listing a few assemblies at a time keeps other
  // requests from queueing behind all of them on the one connection (and timing out there).
  private readonly listing = limiter(4);

  constructor(
    private readonly conn: SdbConnection,
    private readonly members: MemberReader,
    private readonly sources: TypeSources,
    private readonly domainId: number | undefined,
  ) {}

  /** One APPDOMAIN.GET_ASSEMBLIES, plus ASSEMBLY.GET_NAME for ids not seen before. */
  async assemblies(): Promise<AssemblyEntry[]> {
    const domainId = await this.domain();
    const ids = await this.conn.send('APPDOMAIN.GET_ASSEMBLIES', { domainId });
    return Promise.all(ids.map((id) => this.assembly(id)));
  }

  assembly(assemblyId: number): Promise<AssemblyEntry> {
    return memo(this.names, assemblyId, async () => {
      const fullName = await this.conn.send('ASSEMBLY.GET_NAME', { assemblyId });
      return { assemblyId, name: fullName.split(',')[0]!.trim(), fullName };
    });
  }

  /** Every hit of `q` in the listed assemblies (optionally one, by simple name). */
  async search(q: TypeQuery, assemblyName: string | undefined): Promise<SearchResult> {
    let assemblies = await this.assemblies();
    if (assemblyName !== undefined) assemblies = pickAssembly(assemblies, assemblyName);
    const lists = await Promise.all(assemblies.map((a) => this.typesOf(a.assemblyId)));
    const indexed: IndexedAssembly[] = [];
    const unlisted: UnlistedAssembly[] = [];
    lists.forEach((l, i) => {
      const entry = assemblies[i]!;
      if (l.listed) indexed.push({ entry, types: l.types });
      else
        unlisted.push({ assembly: entry.name, assemblyId: entry.assemblyId, reasons: l.reasons });
    });
    let hits = searchTypes(q, indexed);
    if (hits.length === 0 && unlisted.length > 0 && q.kind === 'name') {
      hits = await this.searchUnlisted(q.text, new Set(unlisted.map((u) => u.assemblyId)));
    }
    return { hits, indexed, unlisted };
  }

  /** The type's id in its assembly: by metadata token (2.47+), else by plain name. */
  typeIdOf(hit: Hit): Promise<number | undefined> {
    const assemblyId = hit.assembly.assemblyId;
    const { token, fullName } = hit.type;
    return memo(this.typeIds, typeKey(assemblyId, hit.type), async () => {
      try {
        // IL2CPP answers token lookups with id 0 (runtime-profile.ts: tokenLookups): by name there
        if (
          token !== undefined &&
          this.conn.version.atLeast(47) &&
          this.conn.runtime.tokenLookups
        ) {
          try {
            const id = await this.conn.send('ASSEMBLY.GET_TYPE_FROM_TOKEN', { assemblyId, token });
            if (id !== 0) return id;
          } catch (e) {
            // a fork may declare 2.47+ without the command (NOT_IMPLEMENTED): the name still works
            if (!isAgentError(e)) throw e;
          }
        }
        // escaped or otherwise unusual names are refused or misparsed by name lookups
        if (!isPlainTypeName(fullName)) return undefined;
        const id = await this.conn.send('ASSEMBLY.GET_TYPE', {
          assemblyId,
          name: fullName,
          ignoreCase: false,
        });
        return id === 0 ? undefined : id;
      } catch (e) {
        if (isAgentError(e)) return undefined; // the runtime cannot load it (a missing reference)
        throw e;
      }
    });
  }

  /** Exact full names can still be found in assemblies we could not list: VM.GET_TYPES. */
  private async searchUnlisted(name: string, assemblyIds: Set<number>): Promise<Hit[]> {
    if (!isPlainTypeName(name)) return [];
    const ids = await this.conn.send('VM.GET_TYPES', { name, ignoreCase: false });
    const infos = await Promise.all(ids.map((id) => this.members.info(id)));
    const hits: Hit[] = [];
    for (const [i, info] of infos.entries()) {
      if (!assemblyIds.has(info.assemblyId)) continue; // another domain's copy
      const parts = splitFullName(info.fullName);
      const type: CatalogType = {
        fullName: info.fullName,
        namespace: parts.namespace,
        name: parts.name,
        token: undefined,
        kind: undefined,
        keys: nameKeys(info.fullName, parts.name),
      };
      this.typeIds.set(typeKey(info.assemblyId, type), Promise.resolve(ids[i]));
      hits.push({ type, assembly: await this.assembly(info.assemblyId), match: 'exact' });
    }
    return hits;
  }

  private typesOf(assemblyId: number): Promise<AssemblyTypes> {
    return memo(this.typeLists, assemblyId, async () => {
      const listed = await this.listing(() =>
        listAssemblyTypes(this.conn, assemblyId, this.sources),
      );
      if (listed.listed) {
        this.stats.listedBy[listed.source]++;
        this.stats.metadataBlobBytes += listed.blobBytes;
      }
      return listed;
    });
  }

  private domain(): Promise<number> {
    const given = this.domainId ?? this.conn.vmStart?.rootDomainId;
    if (given !== undefined) return Promise.resolve(given);
    const root = (this.rootDomain ??= this.conn.send('APPDOMAIN.GET_ROOT_DOMAIN'));
    void root.catch(() => (this.rootDomain = undefined));
    return root;
  }
}

function typeKey(assemblyId: number, t: CatalogType): string {
  return `${assemblyId}\u0000${t.token ?? t.fullName}`;
}

function pickAssembly(assemblies: AssemblyEntry[], name: string): AssemblyEntry[] {
  const wanted = name.toLowerCase();
  const chosen = assemblies.filter((a) => a.name.toLowerCase() === wanted);
  if (chosen.length > 0) return chosen;
  const close = closestNames(
    name,
    assemblies.map((a) => ({ label: a.name, keys: [a.name] })),
  );
  throw Errors.invalidArgument(
    `no loaded assembly is named ${JSON.stringify(name)}` +
      (close.length ? `; did you mean ${close.join(', ')}?` : ''),
  );
}

/** Runs at most `n` tasks at once; a finishing task hands its slot to the next waiter. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
