// How a whole program (statements, blocks, loops, lambdas) is cut into its top-level statements,
// for the oracle to turn it into a method body: the program's value is what a `return` gives,
// else its last statement's (an expression's value, a declaration's variable), else void
// (docs/eval-contract.md, "The program"). Only the shapes the corpus writes need to be right:
// strings, chars and brackets are skipped, a `{` at the top level opens a block only in a
// statement that starts with a statement keyword (elsewhere it is an initializer, an anonymous
// object or a lambda's body), and `else` / `catch` / `finally` / a do's `while` continue the
// statement before them.

export type LastKind = 'expression' | 'declaration' | 'other';

export interface ProgramShape {
  /** Every top-level statement but the last, each with its terminator. */
  readonly head: string[];
  /** The last statement, without a trailing `;`. */
  readonly last: string;
  readonly lastKind: LastKind;
  /** For a declaration: the variable it declares last (the program's value). */
  readonly declared?: string;
  /** A `return` of the program itself (not of a lambda inside it). */
  readonly returns: boolean;
}

interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const STATEMENT_KEYWORDS = new Set([
  'if',
  'for',
  'foreach',
  'while',
  'do',
  'switch',
  'try',
  'return',
  'throw',
  'break',
  'continue',
  'using',
  'lock',
  'checked',
  'unchecked',
]);
const BLOCK_STARTERS = new Set(['if', 'for', 'foreach', 'while', 'do', 'switch', 'try', 'lock']);

/** Tokens: identifiers and numbers as words, strings and chars whole, punctuation one by one. */
function tokens(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'" || ((c === '$' || c === '@') && /^[$@]{1,2}"/.test(src.slice(i)))) {
      const prefix = /^[$@]*/.exec(src.slice(i))![0];
      const verbatim = prefix.includes('@');
      const interpolated = prefix.includes('$');
      const quote = src[i + prefix.length]!;
      i += prefix.length + 1;
      let braces = 0;
      while (i < src.length) {
        const d = src[i]!;
        if (interpolated && d === '{' && src[i + 1] !== '{') braces++;
        else if (interpolated && d === '}' && braces > 0) braces--;
        else if (braces > 0 && d === '"') {
          // a string inside an interpolation hole
          for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
        } else if (d === '\\' && !verbatim) i++;
        else if (verbatim && d === '"' && src[i + 1] === '"') i++;
        else if (d === quote && braces === 0) break;
        else if (interpolated && (d === '{' || d === '}')) i++; // {{ or }}
        i++;
      }
      i++;
      out.push({ text: src.slice(start, i), start, end: i });
      continue;
    }
    if (/[\w]/.test(c)) {
      while (i < src.length && /[\w]/.test(src[i]!)) i++;
      out.push({ text: src.slice(start, i), start, end: i });
      continue;
    }
    const two = src.slice(i, i + 2);
    i += two === '=>' || two === '==' ? 2 : 1;
    out.push({ text: src.slice(start, i), start, end: i });
  }
  return out;
}

/** Splits a program into its top-level statements and says what its last one is. */
export function shapeOf(program: string): ProgramShape {
  const toks = tokens(program);
  const statements: { start: number; end: number }[] = [];
  let returns = false;
  // the bracket stack: for each `{`, whether it is a lambda's body
  const stack: { close: string; lambda: boolean }[] = [];
  let first = 0; // token index where the current statement starts
  const finish = (endToken: number): void => {
    if (endToken < first) return;
    statements.push({ start: toks[first]!.start, end: toks[endToken]!.end });
    first = endToken + 1;
  };
  // the statement keyword last seen at the top level, and the one that owns each open brace
  let keyword = '';
  const owners: string[] = [];
  // else, catch and finally never start a statement; while does not after a do's body
  const continues = (i: number, owner: string): boolean => {
    const next = toks[i + 1]?.text;
    if (next === 'else' || next === 'catch' || next === 'finally') return true;
    return owner === 'do' && next === 'while';
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!.text;
    const inLambda = stack.some((s) => s.lambda);
    if (t === 'return' && !inLambda) returns = true;
    if (
      stack.length === 0 &&
      (STATEMENT_KEYWORDS.has(t) || ['else', 'catch', 'finally'].includes(t))
    )
      keyword = t;
    if (t === '(' || t === '[') stack.push({ close: t === '(' ? ')' : ']', lambda: false });
    else if (t === '{') {
      if (stack.length === 0) owners.push(keyword);
      stack.push({ close: '}', lambda: toks[i - 1]?.text === '=>' });
    } else if (t === ')' || t === ']' || t === '}') {
      stack.pop();
      if (t === '}' && stack.length === 0) {
        const owner = owners.pop() ?? '';
        const head = toks[first]!.text;
        const block = head === '{' || BLOCK_STARTERS.has(head);
        // a block statement ends at its closing brace, unless an else/catch/finally/while follows
        if (block && !continues(i, owner)) finish(i);
      }
    } else if (t === ';' && stack.length === 0) {
      if (!continues(i, keyword)) finish(i);
    }
  }
  if (first < toks.length) finish(toks.length - 1);
  const texts = statements.map((s) => program.slice(s.start, s.end).trim());
  const lastRaw = texts.pop() ?? '';
  const last = lastRaw.endsWith(';') ? lastRaw.slice(0, -1).trim() : lastRaw;
  const firstWord = /^[A-Za-z_]\w*/.exec(last)?.[0] ?? '';
  let lastKind: LastKind;
  let declared: string | undefined;
  const decl = declaration(last);
  if (last.startsWith('{') || STATEMENT_KEYWORDS.has(firstWord)) lastKind = 'other';
  else if (decl) {
    lastKind = 'declaration';
    declared = decl;
  } else lastKind = 'expression';
  return {
    head: texts.map((s) => (s.endsWith(';') || s.endsWith('}') ? s : `${s};`)),
    last,
    lastKind,
    ...(declared ? { declared } : {}),
    returns,
  };
}

/** The variable a local declaration declares last (`int a = 1, b = 2` → b), or undefined. */
function declaration(statement: string): string | undefined {
  const m = /^(?:var|[\w.]+(?:<[\w.<>, ]*>)?(?:\[,*\])*\??)\s+([A-Za-z_]\w*)\s*(?:=(?!=)|,|$)/.exec(
    statement,
  );
  if (!m || m[1] === 'in' || STATEMENT_KEYWORDS.has(/^\w+/.exec(statement)![0])) return undefined;
  // the last declarator: the identifier after the last top-level comma, if any
  let depth = 0;
  let name = m[1];
  const toks = tokens(statement);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!.text;
    if ('([{<'.includes(t)) depth++;
    else if (')]}>'.includes(t)) depth--;
    else if (t === ',' && depth === 0 && /^[A-Za-z_]\w*$/.test(toks[i + 1]?.text ?? ''))
      name = toks[i + 1]!.text;
  }
  return name;
}
