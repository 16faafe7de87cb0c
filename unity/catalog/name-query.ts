// What a type query means. A plain name matches a full name exactly, or as a suffix at a name
// boundary (`Probe`, `World+NoAllocReadOnlyCollection`1`, `Generic.List`1`), with or without
// generic arity (`NoAllocReadOnlyCollection` finds ``...+NoAllocReadOnlyCollection`1``), then
// the same ignoring case. A nested type answers to its reflection name (`Outer+Inner`), its
// metadata (IL) name (`Outer/Inner`) and its C# name (`Outer.Inner`). `*`/`?` make a glob (case-insensitive, over the full name, and over
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
  /** A nested type's C# spelling (`Ns.Outer.Inner`: `+` → `.`); absent when not nested. */
  dotted?: { full: string; bare: string; lowerFull: string; lowerBare: string };
}

export function nameKeys(fullName: string, simpleName: string): NameKeys {
  const bare = stripArity(fullName);
  const keys: NameKeys = {
    fullName,
    simpleName,
    bare,
    lowerFull: fullName.toLowerCase(),
    lowerBare: bare.toLowerCase(),
  };
  const full = dotNesting(fullName);
  if (full !== fullName) {
    const dottedBare = stripArity(full);
    keys.dotted = {
      full,
      bare: dottedBare,
      lowerFull: full.toLowerCase(),
      lowerBare: dottedBare.toLowerCase(),
    };
  }
  return keys;
}

/** `Ns.Outer+Inner` → `Ns.Outer.Inner`: the unescaped nesting `+` become `.`. */
function dotNesting(fullName: string): string {
  if (!fullName.includes('+')) return fullName;
  let out = '';
  for (let i = 0; i < fullName.length; i++) {
    const c = fullName[i]!;
    if (c === '\\') {
      out += c + (fullName[i + 1] ?? '');
      i++;
    } else out += c === '+' ? '.' : c;
  }
  return out;
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
  // `Outer/Inner`, the metadata spelling of nesting, is the reflection `Outer+Inner`
  const text = name.replace(/\//g, '+');
  return { kind: 'name', text, assembly, match: nameMatcher(text) };
}

function nameMatcher(q: string): (k: NameKeys) => MatchKind | undefined {
  const withArity = q.includes('`');
  const lower = q.toLowerCase();
  // `Outer.Inner` is compared with nested names as C# spells them too (no `+` in the query)
  const dottedToo = !q.includes('+');
  const exact = (full: string): boolean => full === q;
  const suffix = (full: string, bare: string): boolean =>
    isBoundarySuffix(full, q) || (!withArity && isBoundarySuffix(bare, q));
  const suffixLower = (full: string, bare: string): boolean =>
    isBoundarySuffix(full, lower) || (!withArity && isBoundarySuffix(bare, lower));
  return (k) => {
    const d = dottedToo ? k.dotted : undefined;
    if (exact(k.fullName) || (d && exact(d.full))) return 'exact';
    if (suffix(k.fullName, k.bare) || (d && suffix(d.full, d.bare))) return 'name';
    if (k.lowerFull === lower || d?.lowerFull === lower) return 'exact-ignore-case';
    if (suffixLower(k.lowerFull, k.lowerBare) || (d && suffixLower(d.lowerFull, d.lowerBare)))
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
