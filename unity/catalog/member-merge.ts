// Declared member lists of a type and its bases merged into what the type exposes: derived
// members first; a base method with the same name and parameter types as a more derived one is
// hidden (an override or `new`), as are base properties with the same name and index arity;
// constructors are not inherited. Fields are never hidden (a base's field still has storage).

import type {
  FieldMember,
  Member,
  MemberList,
  MethodMember,
  PropertyMember,
} from './catalog-types.js';
import type { Declared } from './member-reader.js';

const CONSTRUCTORS = new Set(['.ctor', '.cctor']);

/** `lists[0]` is the type's own; the rest its bases, nearest first. */
export function mergeFields(lists: readonly Declared<FieldMember>[]): Declared<FieldMember> {
  return {
    items: lists.flatMap((l) => l.items),
    omitted: lists.reduce((n, l) => n + l.omitted, 0),
  };
}

export function mergeProperties(
  lists: readonly Declared<PropertyMember>[],
): Declared<PropertyMember> {
  return mergeHiding(
    lists,
    (p) => `${p.name}/${p.indexParameters.length}`,
    () => true,
  );
}

export function mergeMethods(lists: readonly Declared<MethodMember>[]): Declared<MethodMember> {
  return mergeHiding(
    lists,
    (m) => `${m.name}(${m.parameters.map((p) => p.type.typeId).join(',')})`,
    (m, level) => level === 0 || !CONSTRUCTORS.has(m.name),
  );
}

function mergeHiding<T>(
  lists: readonly Declared<T>[],
  signature: (m: T) => string,
  inherits: (m: T, level: number) => boolean,
): Declared<T> {
  const seen = new Set<string>();
  const items: T[] = [];
  lists.forEach((list, level) => {
    const own: string[] = [];
    for (const m of list.items) {
      if (!inherits(m, level)) continue;
      const sig = signature(m);
      if (seen.has(sig)) continue;
      own.push(sig);
      items.push(m);
    }
    // a type's own overloads never hide each other, only members of its bases
    for (const sig of own) seen.add(sig);
  });
  return { items, omitted: lists.reduce((n, l) => n + l.omitted, 0) };
}

export function page<T>(declared: Declared<T>, limit: number): MemberList<T> {
  return {
    items: declared.items.slice(0, limit),
    total: declared.items.length,
    truncated: declared.items.length > limit,
    omitted: declared.omitted,
  };
}

/** Names of members, for suggestions. */
export function memberNames(members: Iterable<Member>): string[] {
  return [...new Set([...members].map((m) => m.name))];
}
