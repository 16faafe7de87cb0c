// What a type query means. A plain name matches a full name exactly, or as a suffix at a name
// boundary (`Probe`, `World+NoAllocReadOnlyCollection`1`, `Generic.List`1`), with or without
// generic arity (`NoAllocReadOnlyCollection` finds ``...+NoAllocReadOnlyCollection`1``), then
// the same ignoring case. `*`/`?` make a glob (case-insensitive, over the full name, and over
// the simple name when the glob has no `.` or `+`); `/regex/flags` is tested on full names.

import { Errors } from '../errors.js';
import { stripArity } from './type-names.js';

/** Best first. */
export const MATCH_RANKS = ['exact', 'name', 'exact-ignore-case', 'name-ignore-case', 'pattern'];
export type MatchKind = 'exact' | 'name' | 'exact-ignore-case' | 'name-ignore-case' | 'pattern';

/** The spellings of one type that queries look at, computed once per type. */
export interface NameKeys {
  fullName: string;
  /** The innermost simple name (``Enumerator``, ``List`1``). */
  simpleName: string;
  /** fullName with generic arity removed. */
  bare: string;
  lowerFull: string;
  lowerBare: string;
}

export function nameKeys(fullName: string, simpleName: string): NameKeys {
  const bare = stripArity(fullName);
  return {
    fullName,
    simpleName,
    bare,
    lowerFull: fullName.toLowerCase(),
    lowerBare: bare.toLowerCase(),
  };
}

export interface TypeQuery {
  kind: 'name' | 'glob' | 'regex';
  /** The name or pattern, without an assembly qualification. */
  text: string;
  /** From `Name, Assembly` (plain names only). */
  assembly: string | undefined;
  match(keys: NameKeys): MatchKind | undefined;
}

export function parseTypeQuery(query: string): TypeQuery {
  const q = query.trim();
  if (!q) throw Errors.invalidArgument('the type query is empty');
  const re = /^\/(.+)\/([a-z]*)$/s.exec(q);
  if (re) return regexQuery(re[1]!, re[2]!);
  if (/[*?]/.test(q)) return globQuery(q);
  const comma = q.indexOf(',');
  const name = (comma >= 0 ? q.slice(0, comma) : q).trim();
  const assembly = comma >= 0 ? q.slice(comma + 1).trim() || undefined : undefined;
  if (!name) throw Errors.invalidArgument(`no type name in ${JSON.stringify(query)}`);
  return { kind: 'name', text: name, assembly, match: nameMatcher(name) };
}

function nameMatcher(q: string): (k: NameKeys) => MatchKind | undefined {
  const withArity = q.includes('`');
  const lower = q.toLowerCase();
  return (k) => {
    if (k.fullName === q) return 'exact';
    if (isBoundarySuffix(k.fullName, q) || (!withArity && isBoundarySuffix(k.bare, q))) {
      return 'name';
    }
    if (k.lowerFull === lower) return 'exact-ignore-case';
    if (
      isBoundarySuffix(k.lowerFull, lower) ||
      (!withArity && isBoundarySuffix(k.lowerBare, lower))
    )
      return 'name-ignore-case';
    return undefined;
  };
}

/** `full` is `q`, or ends with `q` right after an unescaped `.` or `+`. */
export function isBoundarySuffix(full: string, q: string): boolean {
  if (full === q) return true;
  if (full.length <= q.length || !full.endsWith(q)) return false;
  const at = full.length - q.length - 1;
  const c = full[at];
  return (c === '.' || c === '+') && full[at - 1] !== '\\';
}

function globQuery(glob: string): TypeQuery {
  const body = glob
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/, '\\$&')))
    .join('');
  const re = new RegExp(`^${body}$`, 'is');
  const simpleToo = !/[.+]/.test(glob);
  return {
    kind: 'glob',
    text: glob,
    assembly: undefined,
    match: (k) =>
      re.test(k.fullName) || (simpleToo && re.test(k.simpleName)) ? 'pattern' : undefined,
  };
}

function regexQuery(source: string, flags: string): TypeQuery {
  let re: RegExp;
  try {
    // g and y make test() stateful across names
    re = new RegExp(source, flags.replace(/[gy]/g, ''));
  } catch (e) {
    throw Errors.invalidArgument(
      `bad regular expression /${source}/${flags}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return {
    kind: 'regex',
    text: `/${source}/${flags}`,
    assembly: undefined,
    match: (k) => (re.test(k.fullName) ? 'pattern' : undefined),
  };
}
