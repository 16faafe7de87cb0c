// Method signatures as the evaluator needs them, from the declaring assembly's metadata: the
// agent's METHOD.GET_PARAM_INFO gives a by-reference parameter's element type (Int32 for
// `out int`) and nothing about optional parameters, defaults or `params` arrays. The reference
// client (Mono.Debugger.Soft) reads these with Cecil; we read them with our own metadata reader.
//
// Per method: METHOD.GET_DECLARING_TYPE and METHOD.GET_INFO (its token), TYPE.GET_INFO of the
// declaring type (its assembly; cached per type). Per assembly, once: its image, from the same
// sources as type listing (the metadata blob since 2.47, or the MVID-checked local file), kept
// open for the catalogue's life. Listing does not keep images (all of a game's would be tens of
// megabytes), so an assembly that was listed is read once more on its first signature.
// Methods of generic instances (List<int>.Add, Echo<int>) carry their definition's token.

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { loadAssemblyImage, type TypeSources } from './assembly-types.js';
import type { MethodSignature } from './catalog-types.js';
import { memo, type MemberReader } from './member-reader.js';
import { Table } from './metadata-schema.js';
import { MethodDefinitions } from './method-metadata.js';

export class MethodSignatures {
  private readonly images = new Map<number, Promise<MethodDefinitions | undefined>>();
  private readonly signatures = new Map<number, Promise<MethodSignature | undefined>>();

  constructor(
    private readonly conn: SdbConnection,
    private readonly members: MemberReader,
    private readonly sources: Pick<TypeSources, 'readFile' | 'preferLocalFiles'>,
    private readonly onBlob: (bytes: number) => void,
  ) {}

  /** The method's signature, or undefined when its assembly's image cannot be read. */
  of(methodId: number): Promise<MethodSignature | undefined> {
    return memo(this.signatures, methodId, async () => {
      const [typeId, info] = await Promise.all([
        this.conn.send('METHOD.GET_DECLARING_TYPE', { methodId }),
        this.conn.send('METHOD.GET_INFO', { methodId }),
      ]);
      // Runtime-made methods (array accessors, dynamic methods, wrappers) have no MethodDef row.
      if (info.token >>> 24 !== Table.MethodDef || (info.token & 0xffffff) === 0) return undefined;
      const { assemblyId } = await this.members.info(typeId);
      const definitions = await this.image(assemblyId);
      return definitions?.signature(info.token);
    });
  }

  private image(assemblyId: number): Promise<MethodDefinitions | undefined> {
    return memo(this.images, assemblyId, async () => {
      const loaded = await loadAssemblyImage(this.conn, assemblyId, this.sources);
      if (!('metadata' in loaded)) return undefined; // no blob (before 2.47), no matching file
      this.onBlob(loaded.blobBytes);
      return new MethodDefinitions(loaded.metadata);
    });
  }
}
