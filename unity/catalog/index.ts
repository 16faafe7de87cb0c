// The type catalogue: assemblies, type search and resolution, type descriptions and members.

export { TypeCatalog, kindOf } from './type-catalog.js';
export type { CatalogStats, TypeCatalogOptions } from './type-catalog.js';
export type * from './catalog-types.js';
export { MetadataFormatError, readAssemblyMetadata } from './metadata-reader.js';
export type { AssemblyMetadata, MetadataTypeDef } from './metadata-reader.js';
export { boundedEditDistance, closestNames, suggestionBound } from './edit-distance.js';
export { parseTypeQuery } from './name-query.js';
export type { MatchKind, TypeQuery } from './name-query.js';
export { displayTypeName, isPlainTypeName, splitFullName } from './type-names.js';
