// Matching a query against the listed types of every assembly, ranking the hits, and close
// names for a miss. Pure functions over the catalogue's index.

import type { AssemblyEntry } from './catalog-types.js';
import type { CatalogType } from './assembly-types.js';
import { closestNames } from './edit-distance.js';
import { MATCH_RANKS, type MatchKind, type TypeQuery } from './name-query.js';
import { stripArity } from './type-names.js';

export interface IndexedAssembly {
  entry: AssemblyEntry;
  types: readonly CatalogType[];
}

export interface Hit {
  type: CatalogType;
  assembly: AssemblyEntry;
  match: MatchKind;
}

/** Every hit, best first: by match kind, then full name (ordinal), then assembly name. */
export function searchTypes(query: TypeQuery, assemblies: readonly IndexedAssembly[]): Hit[] {
  const hits: Hit[] = [];
  for (const a of assemblies) {
    for (const type of a.types) {
      const match = query.match(type.keys);
      if (match) hits.push({ type, assembly: a.entry, match });
    }
  }
  return hits.sort(
    (x, y) =>
      MATCH_RANKS.indexOf(x.match) - MATCH_RANKS.indexOf(y.match) ||
      ordinal(x.type.fullName, y.type.fullName) ||
      ordinal(x.assembly.name, y.assembly.name),
  );
}

/** The hits of the best match kind (what a lookup by name should pick from). */
export function bestHits(hits: readonly Hit[]): Hit[] {
  const first = hits[0];
  return first ? hits.filter((h) => h.match === first.match) : [];
}

/**
 * Close full names for a name that matched nothing: compared with full names, and with simple
 * names (with and without arity) when the query is a simple name itself.
 */
export function suggestTypeNames(text: string, assemblies: readonly IndexedAssembly[]): string[] {
  const simple = !/[.+]/.test(text);
  function* candidates(): Generator<{ label: string; keys: string[] }> {
    for (const a of assemblies) {
      for (const t of a.types) {
        yield {
          label: t.fullName,
          keys: simple ? [t.name, stripArity(t.name)] : [t.fullName, t.keys.bare],
        };
      }
    }
  }
  return closestNames(text, candidates());
}

function ordinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
