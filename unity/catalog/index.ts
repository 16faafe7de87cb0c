// The type catalogue: assemblies, type search and resolution, type descriptions and members,
// and method signatures from metadata.

export { TypeCatalog, kindOf } from './type-catalog.js';
export type { CatalogStats, TypeCatalogOptions } from './type-catalog.js';
export type * from './catalog-types.js';
export { MetadataFormatError, MetadataImage, readAssemblyMetadata } from './metadata-reader.js';
export { MethodDefinitions, ParamAttributes } from './method-metadata.js';
export type { MethodDefinition, ParamDefinition } from './method-metadata.js';
export { decodeMethodSig, ElementType } from './signature-blob.js';
export type { MethodSig, SigType } from './signature-blob.js';
export type { AssemblyMetadata, MetadataTypeDef } from './metadata-reader.js';
export { boundedEditDistance, closestNames, suggestionBound } from './edit-distance.js';
export { parseTypeQuery } from './name-query.js';
export type { MatchKind, TypeQuery } from './name-query.js';
export { displayTypeName, isPlainTypeName, splitFullName } from './type-names.js';
export { classNamesByAssembly, replayLoadedClasses } from './replayed-classes.js';
