// Reflection type names as Mono spells them (mono_type_get_name_full, format FULL_NAME):
// namespace `.` name, nested types joined with `+`, generic arity kept (``List`1``), and the
// characters `\ + , & * [ ]` inside a name escaped with a backslash. Pure string functions.

const SPECIAL = /[\\+,&*[\]]/g;

/** Escapes a stored (metadata) name the way Mono does inside full names. */
export function escapeTypeNameChars(name: string): string {
  return name.replace(SPECIAL, (c) => `\\${c}`);
}

/**
 * Whether a full name can be sent as a plain lookup name (VM.GET_TYPES, ASSEMBLY.GET_TYPE): no
 * escapes, no generic arguments, arrays, pointers or assembly qualification — the forms that
 * make Mono 6.8 crash or misparse.
 */
export function isPlainTypeName(fullName: string): boolean {
  return fullName.length > 0 && !/[\\,&*[\]]/.test(fullName);
}

/** Indexes of the unescaped occurrences of `c` in `s`. */
function unescapedIndexes(s: string, c: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === c) out.push(i);
  }
  return out;
}

export interface NameParts {
  /** Namespace of the outermost type ("" if none). */
  namespace: string;
  /** The innermost simple name, escaped as in the full name (``Enumerator``, ``List`1``). */
  name: string;
  /** Full names of the enclosing types, outermost first. */
  enclosing: string[];
}

/** Splits a (plain) reflection full name into namespace, simple name and enclosing types. */
export function splitFullName(fullName: string): NameParts {
  const pluses = unescapedIndexes(fullName, '+');
  const outerEnd = pluses[0] ?? fullName.length;
  const dots = unescapedIndexes(fullName.slice(0, outerEnd), '.');
  const lastDot = dots.length ? dots[dots.length - 1]! : -1;
  const namespace = lastDot >= 0 ? fullName.slice(0, lastDot) : '';
  const lastPlus = pluses.length ? pluses[pluses.length - 1]! : -1;
  const name = lastPlus >= 0 ? fullName.slice(lastPlus + 1) : fullName.slice(lastDot + 1);
  return { namespace, name, enclosing: pluses.map((p) => fullName.slice(0, p)) };
}

/** Drops generic arity suffixes: ``Dictionary`2+Enumerator`` → `Dictionary+Enumerator`. */
export function stripArity(name: string): string {
  return name.replace(/`\d+/g, '');
}

/**
 * The agent's full name made readable, in `System.Type.ToString()` form: assembly
 * qualifications dropped from generic arguments, `List`1[[System.Int32, mscorlib, ...]]` →
 * `List`1[System.Int32]`. Returns the input unchanged if it does not parse.
 */
export function displayTypeName(fullName: string): string {
  const p = new DisplayParser(fullName);
  try {
    const out = p.type();
    return p.atEnd() ? out : fullName;
  } catch {
    return fullName;
  }
}

class DisplayParser {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i === this.s.length;
  }

  type(): string {
    let out = this.name();
    for (;;) {
      const c = this.s[this.i];
      if (c === '*' || c === '&') {
        out += c;
        this.i++;
      } else if (c === '[' && this.isArraySuffix()) {
        const close = this.s.indexOf(']', this.i);
        if (close < 0) throw new Error('unclosed array suffix');
        out += this.s.slice(this.i, close + 1);
        this.i = close + 1;
      } else if (c === '[') {
        out += `[${this.arguments().join(',')}]`;
      } else {
        return out;
      }
    }
  }

  private isArraySuffix(): boolean {
    const next = this.s[this.i + 1];
    return next === ']' || next === ',' || next === '*';
  }

  private name(): string {
    const start = this.i;
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '\\') this.i += 2;
      else if (c === '[' || c === ']' || c === ',' || c === '*' || c === '&') break;
      else this.i++;
    }
    if (this.i === start) throw new Error('empty name');
    return this.s.slice(start, Math.min(this.i, this.s.length));
  }

  private arguments(): string[] {
    const args: string[] = [];
    this.i++; // '['
    for (;;) {
      if (this.s[this.i] === '[') {
        this.i++;
        args.push(this.type());
        // ", Assembly, Version=..., PublicKeyToken=..." up to this argument's ']'
        const close = this.s.indexOf(']', this.i);
        if (close < 0) throw new Error('unclosed generic argument');
        this.i = close + 1;
      } else {
        args.push(this.type()); // a generic parameter (T) is not qualified
      }
      const c = this.s[this.i++];
      if (c === ']') return args;
      if (c !== ',') throw new Error('bad generic argument list');
    }
  }
}
