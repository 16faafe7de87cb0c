// The type catalogue of one connection: which assemblies are loaded, which types they define,
// type ids by name, and what a type looks like (kind, bases, generic arguments, fields,
// properties, methods). Everything keyed by an agent id is cached for good (the agent never
// reuses one); assemblies are listed fresh on every search. One catalogue serves one
// SdbConnection: the ids it caches mean nothing on another connection.

import {
  TypeAttributes,
  TypeInfoFlags,
  type SdbConnection,
  type TypeInfo,
} from '../../sdb-protocol/index.js';
import { Errors, fromSdbError, UnityError } from '../errors.js';
import { defaultReadFile } from './assembly-types.js';
import type {
  AssemblyEntry,
  DescribeOptions,
  FindTypesOptions,
  FindTypesResult,
  MemberLookup,
  MethodSignature,
  TypeDescription,
  TypeKind,
  TypeMatch,
} from './catalog-types.js';
import { closestNames } from './edit-distance.js';
import { mergeFields, mergeMethods, mergeProperties, memberNames, page } from './member-merge.js';
import { MemberReader } from './member-reader.js';
import { MethodSignatures } from './method-signatures.js';
import { parseTypeQuery } from './name-query.js';
import { TypeIndex, type CatalogStats } from './type-index.js';
import { bestHits, suggestTypeNames, type Hit } from './type-search.js';
import { displayTypeName } from './type-names.js';

export type { CatalogStats } from './type-index.js';

export interface TypeCatalogOptions {
  /** Reads an assembly file from local disk (default: node:fs; undefined when unreadable). */
  readFile?: (path: string) => Promise<Uint8Array | undefined>;
  /**
   * Lists the full names of an assembly's types when neither its metadata blob (protocol older
   * than 2.47, e.g. Unity's 2.45 agent) nor its file (a game on another machine, or an assembly
   * loaded from memory) is available. The session is expected to provide one that invokes
   * `Assembly.GetTypes()` in the game. Without it such assemblies are reported in `unlisted`,
   * and only exact full names resolve in them (through VM.GET_TYPES).
   */
  listTypeNames?: (assemblyId: number) => Promise<string[]>;
  /** Domain whose assemblies are listed (default: the root domain). */
  domainId?: number;
  /**
   * Read an assembly's local file (MVID-checked) before asking for its metadata blob: on the
   * same machine this skips transferring every image (default false: the blob is exact).
   */
  preferLocalFiles?: boolean;
}

const DEFAULT_FIND_LIMIT = 50;
const DEFAULT_MEMBER_LIMIT = 200;

export class TypeCatalog {
  private readonly members: MemberReader;
  private readonly index: TypeIndex;
  private readonly signatures: MethodSignatures;

  constructor(
    private readonly conn: SdbConnection,
    options: TypeCatalogOptions = {},
  ) {
    this.members = new MemberReader(conn);
    const sources = {
      readFile: options.readFile ?? defaultReadFile,
      listTypeNames: options.listTypeNames,
      preferLocalFiles: options.preferLocalFiles ?? false,
    };
    this.index = new TypeIndex(conn, this.members, sources, options.domainId);
    this.signatures = new MethodSignatures(conn, this.members, sources, (bytes) => {
      this.index.stats.metadataBlobBytes += bytes;
    });
  }

  /** Metadata transferred, and how each assembly's types were listed. */
  get stats(): CatalogStats {
    return this.index.stats;
  }

  /** The domain's assemblies, listed fresh (one APPDOMAIN.GET_ASSEMBLIES; names cached per id). */
  assemblies(): Promise<AssemblyEntry[]> {
    return this.translate(() => this.index.assemblies());
  }

  /** Types by exact or simple name, glob or /regex/, with type ids for the returned page. */
  findTypes(query: string, options: FindTypesOptions = {}): Promise<FindTypesResult> {
    return this.translate(async () => {
      const limit = checkLimit(options.limit ?? DEFAULT_FIND_LIMIT);
      const q = parseTypeQuery(query);
      const { hits, indexed, unlisted } = await this.index.search(
        q,
        options.assembly ?? q.assembly,
      );
      const shown = hits.slice(0, limit);
      const typeIds = await Promise.all(shown.map((h) => this.index.typeIdOf(h)));
      const matches = shown.map((h, i): TypeMatch => ({
        fullName: h.type.fullName,
        namespace: h.type.namespace,
        name: h.type.name,
        assembly: h.assembly.name,
        assemblyId: h.assembly.assemblyId,
        kind: h.type.kind,
        match: h.match,
        typeId: typeIds[i],
      }));
      const suggestions =
        hits.length === 0 && q.kind === 'name' ? suggestTypeNames(q.text, indexed) : [];
      return {
        query,
        matches,
        total: hits.length,
        truncated: hits.length > limit,
        suggestions,
        unlisted,
      };
    });
  }

  /** A type id by exact full name or a unique simple name (`Name, Assembly` narrows it). */
  resolveType(name: string): Promise<number> {
    return this.translate(async () => {
      const q = parseTypeQuery(name);
      if (q.kind !== 'name') {
        throw Errors.invalidArgument(`${name} is a pattern; resolve a type by its name`);
      }
      const { hits, indexed } = await this.index.search(q, q.assembly);
      const best = bestHits(hits);
      if (best.length === 0) throw Errors.typeNotFound(name, suggestTypeNames(q.text, indexed));
      if (best.length > 1) throw ambiguous(name, best);
      const hit = best[0]!;
      const typeId = await this.index.typeIdOf(hit);
      if (typeId === undefined) {
        throw new UnityError(
          'TYPE_NOT_FOUND',
          `${hit.type.fullName} is defined in ${hit.assembly.name}, but the runtime could not load it`,
        );
      }
      return typeId;
    });
  }

  /** A type's kind, bases, generic arguments and (declared, or also inherited) members. */
  describe(type: number | string, options: DescribeOptions = {}): Promise<TypeDescription> {
    return this.translate(async () => {
      const limit = checkLimit(options.limit ?? DEFAULT_MEMBER_LIMIT);
      const want = new Set(options.members ?? ['fields', 'properties', 'methods']);
      const typeId = typeof type === 'number' ? type : await this.resolveType(type);
      const chain = await this.members.chain(typeId);
      const info = chain[0]!.info;
      const levels = (options.inherited ? chain : chain.slice(0, 1)).map((c) => c.typeId);
      const r = this.members;
      const [assembly, baseTypes, genericArguments, elementType, fields, properties, methods] =
        await Promise.all([
          this.index.assembly(info.assemblyId),
          Promise.all(chain.slice(1).map((c) => r.ref(c.typeId))),
          Promise.all(info.typeArgIds.map((t) => r.ref(t))),
          info.elementTypeId ? r.ref(info.elementTypeId) : undefined,
          want.has('fields') ? Promise.all(levels.map((t) => r.fields(t))) : undefined,
          want.has('properties') ? Promise.all(levels.map((t) => r.properties(t))) : undefined,
          want.has('methods') ? Promise.all(levels.map((t) => r.methods(t))) : undefined,
        ]);
      const out: TypeDescription = {
        typeId,
        fullName: info.fullName,
        name: displayTypeName(info.fullName),
        namespace: info.namespace,
        assembly: assembly.name,
        assemblyId: info.assemblyId,
        kind: kindOf(
          info,
          chain.slice(1).map((c) => c.info.fullName),
        ),
        isGenericDefinition: (info.flags & TypeInfoFlags.GENERIC_TYPE_DEFINITION) !== 0,
        baseTypes,
        genericArguments,
        elementType,
      };
      if (fields) out.fields = page(mergeFields(fields), limit);
      if (properties) out.properties = page(mergeProperties(properties), limit);
      if (methods) out.methods = page(mergeMethods(methods), limit);
      return out;
    });
  }

  /** A member by exact name, searched from the type down its bases; misses suggest names. */
  findMember(type: number | string, name: string): Promise<MemberLookup> {
    return this.translate(async () => {
      const typeId = typeof type === 'number' ? type : await this.resolveType(type);
      const chain = await this.members.chain(typeId);
      const ids = chain.map((c) => c.typeId);
      const r = this.members;
      const [fields, properties, methods] = await Promise.all([
        Promise.all(ids.map((t) => r.fields(t))).then(mergeFields),
        Promise.all(ids.map((t) => r.properties(t))).then(mergeProperties),
        Promise.all(ids.map((t) => r.methods(t))).then(mergeMethods),
      ]);
      const depth = (declaringTypeId: number): number => ids.indexOf(declaringTypeId);
      const field = fields.items.find((f) => f.name === name);
      const property = properties.items.find((p) => p.name === name);
      const overloads = methods.items.filter((m) => m.name === name);
      const candidates: { at: number; found: MemberLookup }[] = [];
      if (field)
        candidates.push({ at: depth(field.declaringType.typeId), found: { kind: 'field', field } });
      if (property) {
        candidates.push({
          at: depth(property.declaringType.typeId),
          found: { kind: 'property', property },
        });
      }
      if (overloads[0]) {
        candidates.push({
          at: depth(overloads[0].declaringType.typeId),
          found: { kind: 'method', overloads },
        });
      }
      // the most derived declaration wins; in one type C# allows only one kind per name
      candidates.sort((a, b) => a.at - b.at);
      if (candidates[0]) return candidates[0].found;
      const all = memberNames([...fields.items, ...properties.items, ...methods.items]);
      const typeName = displayTypeName(chain[0]!.info.fullName);
      throw Errors.memberNotFound(
        typeName,
        name,
        closestNames(
          name,
          all.map((n) => ({ label: n, keys: [n] })),
        ),
      );
    });
  }

  /**
   * What METHOD.GET_PARAM_INFO does not tell about a method's parameters, read from its
   * assembly's metadata: `ref` / `out` / `in` (the agent reports `out int` as Int32), optional
   * parameters and their default constants, `params` arrays, and the method's generic arity.
   * Methods of closed generic types and instantiated generic methods are answered from their
   * definition.
   *
   * undefined when the assembly's image cannot be read: an agent older than 2.47 (Unity's 2.45
   * has no ASSEMBLY.GET_METADATA_BLOB) with no readable local file of the same MVID (a game on
   * another machine, an assembly loaded from memory), or a method the runtime made (array
   * accessors, dynamic methods). Callers must then treat every parameter as by-value and
   * required, with no defaults and no `params` expansion.
   *
   * Cost: METHOD.GET_DECLARING_TYPE + METHOD.GET_INFO per method, TYPE.GET_INFO per declaring
   * type, and per assembly one image (its metadata blob, or three commands and a local file
   * read; listing types does not keep it, so it is read again), kept for the catalogue's life;
   * every answer is cached per method id. A method whose own rows or blobs are malformed
   * rejects (INTERNAL, with the reader's message), each time; an image that cannot be opened at
   * all counts as unavailable.
   */
  methodSignature(methodId: number): Promise<MethodSignature | undefined> {
    return this.translate(() => this.signatures.of(methodId));
  }

  private async translate<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      throw fromSdbError(e, this.conn.endpoint);
    }
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw Errors.invalidArgument(`limit must be a positive integer, not ${limit}`);
  }
  return limit;
}

function ambiguous(name: string, hits: readonly Hit[]): UnityError {
  const candidates = hits.map((h) => `${h.type.fullName}, ${h.assembly.name}`);
  return Errors.ambiguousName(
    name,
    candidates,
    'Give the full name, and the assembly as "Full.Name, Assembly" if needed',
  );
}

/** Kind from the agent's flags, attributes and base chain (nearest base first). */
export function kindOf(info: TypeInfo, baseNames: readonly string[]): TypeKind {
  if (info.flags & TypeInfoFlags.POINTER) return 'pointer';
  if (info.rank > 0) return 'array';
  if (info.attributes & TypeAttributes.Interface) return 'interface';
  if (info.flags & TypeInfoFlags.ENUM || baseNames[0] === 'System.Enum') return 'enum';
  // the value-type bit is missing on generic struct instances: the base chain tells
  if (info.flags & (TypeInfoFlags.VALUE_TYPE | TypeInfoFlags.PRIMITIVE)) return 'struct';
  if (baseNames[0] === 'System.ValueType' && info.fullName !== 'System.Enum') return 'struct';
  return 'class';
}
