// A type as C# writes it, from the agent's full name (TYPE.GET_INFO, Mono's FULL_NAME format):
// ``Game.Box`1[[System.Int32, mscorlib, ...]]`` → `Game.Box<int>`, `Game.Outer+Inner` →
// `Game.Outer.Inner`, ``List`1+Enumerator[[System.Int32, ...]]`` → `List<int>.Enumerator` (each
// nesting level takes the type arguments its arity counts). What frames and stops name methods
// by; lookups keep the full names.

import { KEYWORD_TYPES } from '../../eval/index.js';
import { displayTypeName } from '../catalog/index.js';

const KEYWORD_OF = new Map<string, string>(Object.entries(KEYWORD_TYPES).map(([k, v]) => [v, k]));

export function csharpTypeName(fullName: string): string {
  try {
    const p = new Reader(displayTypeName(fullName));
    const out = p.type();
    return p.atEnd() ? out : fullName;
  } catch {
    return fullName;
  }
}

/** Reads the display form: ``Ns.A`1+B[System.Int32][]``, arguments unqualified. */
class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i === this.s.length;
  }

  type(): string {
    const start = this.i;
    while (this.i < this.s.length && !'[],'.includes(this.s[this.i]!)) {
      if (this.s[this.i] === '\\') this.i++;
      this.i++;
    }
    const base = this.s.slice(start, this.i).trim();
    let args: string[] = [];
    if (this.s[this.i] === '[' && !/^\[,*\]/.test(this.s.slice(this.i))) {
      this.i++;
      args = [this.type()];
      while (this.s[this.i] === ',') {
        this.i++;
        args.push(this.type());
      }
      this.expect(']');
    }
    let text = this.named(base, args);
    // array ranks: `[]`, `[,]`
    for (
      let m = /^\[,*\]/.exec(this.s.slice(this.i));
      m;
      m = /^\[,*\]/.exec(this.s.slice(this.i))
    ) {
      text += m[0];
      this.i += m[0].length;
    }
    return text;
  }

  private named(base: string, args: readonly string[]): string {
    const keyword = args.length === 0 ? KEYWORD_OF.get(base) : undefined;
    if (keyword) return keyword;
    if (base === 'System.Nullable`1' && args.length === 1) return `${args[0]}?`;
    let next = 0;
    const levels = splitNesting(base).map((level) => {
      const m = /^(.*)`(\d+)$/.exec(level);
      if (!m) return level;
      const arity = Number(m[2]);
      // an open definition has no arguments: C# writes it unbound, `Box<>`, `Dictionary<,>`
      if (args.length === 0) return `${m[1]}<${','.repeat(arity - 1)}>`;
      const own = args.slice(next, next + arity);
      next += own.length;
      return `${m[1]}<${own.join(', ')}>`;
    });
    if (next !== args.length) throw new Error('type arguments do not match the arities');
    return levels.join('.');
  }

  private expect(c: string): void {
    if (this.s[this.i] !== c) throw new Error(`expected ${c}`);
    this.i++;
  }
}

/** `Ns.Outer+Inner` → [`Ns.Outer`, `Inner`] (an escaped `\+` is part of a name). */
function splitNesting(name: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\') {
      cur += name[i + 1] ?? '';
      i++;
    } else if (c === '+') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
