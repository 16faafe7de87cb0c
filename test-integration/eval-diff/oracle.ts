// The C# compiler as the evaluator's oracle. Each program of the corpus becomes a static method
// of one assembly compiled by mcs against the fixture's own assemblies; the assembly is loaded
// into the running fixture (Assembly.LoadFrom, by invoke) and every method is invoked there, so
// C# evaluates the program in the fixture's own context and prints it with eval's formatting
// rules (Fmt.cs), after the static type of the program's value as the compiler inferred it
// (Fmt.Typed<T>). A program C# refuses to compile is recorded with its error code: the evaluator
// must refuse it too, with the same code.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { BindingFlags, Values, readString } from '../../sdb-protocol/index.js';
import type { OperationContext } from '../../unity/session/session.js';

export interface CorpusCase {
  id: string;
  program: string;
  /**
   * Where mcs itself is wrong (a line ending in ` //roslyn(<type>): <value>`): what C# (Roslyn,
   * the compiler Unity uses) gives, its static type and printed value; the oracle must still
   * disagree, or the note is stale.
   */
  roslyn?: { type: string | undefined; text: string };
  /** The comment line (`# ...`) last seen above the case: the family it belongs to. */
  section?: string;
}

/** A value with its static type as C# writes it (`void` for a void call, `<null>` for `null`). */
export type Outcome =
  | { kind: 'value'; type: string; text: string }
  | { kind: 'exception'; type: string; message: string }
  | { kind: 'compile-error'; message: string };

/** How the last expression is compiled: typed (its static type inferred), untyped, or void. */
export type Form = 'typed' | 'untyped' | 'void';

/**
 * How a corpus's programs become methods of the oracle: the source around them, each case's
 * method in a form, and what an mcs error on a case means (another form to try, or the case's
 * compile error as the evaluator must report it).
 */
export interface Dialect {
  readonly header: string;
  readonly extraSources: readonly string[];
  readonly systemRefs: readonly string[];
  firstForm(c: CorpusCase): Form;
  method(c: CorpusCase, index: number, form: Form): string;
  /** An error of the case in `form`: the next form, or the error to record. */
  onError(c: CorpusCase, form: Form, code: string, message: string): Form | { error: string };
}

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Splits a program at top-level `;` (outside strings, chars and brackets). */
export function statements(program: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < program.length; i++) {
    const c = program[i]!;
    if (c === '"' || c === "'") {
      const verbatim = program[i - 1] === '@' || (program[i - 1] === '$' && program[i - 2] === '@');
      for (i++; i < program.length && program[i] !== c; i++) {
        if (program[i] === '\\' && !verbatim) i++;
        else if (verbatim && program[i] === '"' && program[i + 1] === '"') i++;
      }
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ';' && depth === 0) {
      out.push(program.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = program.slice(start).trim();
  if (last) out.push(last);
  return out.filter(Boolean);
}

function methodFor(c: CorpusCase, index: number, form: Form): string {
  const parts = statements(c.program);
  const last = parts.pop() ?? 'null';
  const decl = /^(?:var|[\w.<>[\],? ]+?)\s+([A-Za-z_]\w*)\s*=/.exec(last);
  const body = parts.map((s) => `    ${s};`).join('\n');
  const show = form === 'untyped' ? 'Fmt.Untyped' : 'Fmt.Typed';
  const tail = decl
    ? `    ${last};\n    return ${show}(${decl[1]});`
    : form === 'void'
      ? `    ${last};\n    return "void\\u0001void";`
      : `    return ${show}(${last});`;
  return `  // CASE ${index} ${c.id}\n  public static string Case_${index}() {\n    try {\n${body}\n${tail}\n    } catch (System.Exception e) { return "!" + e.GetType().FullName + ": " + e.Message; }\n  }`;
}

const LINES_HEADER = `using System; using System.Collections.Generic; using UnityEngine; using Unity.Entities;
using Unity.Mathematics; using Unity.Collections; using Unity.Transforms; using Game;
public static class EvalOracle {
  static World world { get { return World.DefaultGameObjectInjectionWorld; } }
  static EntityManager em { get { return world.EntityManager; } }
`;

/** The one-line expression corpus (corpus.txt): statements split at `;`, the last one shown. */
export const LINES: Dialect = {
  header: LINES_HEADER,
  extraSources: [],
  systemRefs: [],
  firstForm: () => 'typed',
  method: methodFor,
  onError(_c, form, code, message) {
    // typed first; a null literal cannot be typed (CS0411), a void call cannot be shown at all
    const untypable = code === 'CS0411' && /Fmt\.Typed/.test(message);
    const voidLast =
      (code === 'CS1503' && /void/.test(message)) ||
      (code === 'CS1502' && /Fmt\.(Typed|Untyped)/.test(message));
    if (form === 'typed' && untypable) return 'untyped';
    if (form !== 'void' && voidLast) return 'void';
    return { error: `${code}: ${message}` };
  },
};

function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` });
    });
  });
}

/**
 * Compiles the corpus; cases mcs refuses become compile-error outcomes (the rest are compiled
 * again without them). Returns the assembly's path and the index of each compiled case.
 */
export async function compileOracle(
  cases: readonly CorpusCase[],
  fixtureDir: string,
  dialect: Dialect = LINES,
): Promise<{ dll: string; compileErrors: Map<string, string> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eval-oracle-'));
  const refs = [
    'UnityEngine.CoreModule',
    'Unity.Entities',
    'Unity.Mathematics',
    'Unity.Collections',
    'Unity.Transforms',
    'Assembly-CSharp',
    'FixtureEngine',
  ].map((a) => `-r:${path.join(fixtureDir, `${a}.dll`)}`);
  refs.push(...dialect.systemRefs.map((a) => `-r:${a}`));
  const compileErrors = new Map<string, string>();
  const forms = new Map<string, Form>(cases.map((c) => [c.id, dialect.firstForm(c)]));
  for (let attempt = 0; attempt < 8; attempt++) {
    const before = new Map(forms);
    const live = cases.filter((c) => !compileErrors.has(c.id));
    const source =
      dialect.header +
      live.map((c, i) => dialect.method(c, i, before.get(c.id)!)).join('\n') +
      '\n}\n';
    const file = path.join(dir, 'cases.cs');
    await writeFile(file, source);
    const dll = path.join(dir, 'EvalOracle.dll');
    const r = await run('mcs', [
      '-target:library',
      `-out:${dll}`,
      '-nowarn:162,219,1718,414,649,169',
      ...refs,
      path.join(HERE, 'Fmt.cs'),
      ...dialect.extraSources.map((f) => path.join(HERE, f)),
      file,
    ]);
    if (r.code === 0) return { dll, compileErrors };
    const lines = source.split('\n');
    let progressed = false;
    for (const m of r.out.matchAll(/cases\.cs\((\d+),\d+\): error (CS\d+): (.*)/g)) {
      const line = Number(m[1]);
      let caseIndex = -1;
      for (let l = line - 1; l >= 0; l--) {
        const hit = /^ {2}\/\/ CASE (\d+) /.exec(lines[l] ?? '');
        if (hit) {
          caseIndex = Number(hit[1]);
          break;
        }
      }
      const c = live[caseIndex];
      if (!c || compileErrors.has(c.id)) continue;
      // more errors of a case whose form changed this round belong to its old form
      if (forms.get(c.id) !== before.get(c.id)) continue;
      const next = dialect.onError(c, before.get(c.id)!, m[2]!, m[3]!);
      if (typeof next === 'string') forms.set(c.id, next);
      else compileErrors.set(c.id, next.error);
      progressed = true;
    }
    if (!progressed)
      throw new Error(`mcs failed on the oracle without a case error:\n${r.out.slice(0, 4000)}`);
  }
  throw new Error('the oracle did not compile after eight rounds of removing cases');
}

/** Loads the oracle into the game (once per process) and runs every compiled case there. */
export async function runOracle(
  ctx: OperationContext,
  dll: string,
  cases: readonly CorpusCase[],
  compileErrors: Map<string, string>,
): Promise<Map<string, Outcome>> {
  const conn = ctx.conn;
  const out = new Map<string, Outcome>();
  const find = async (name: string): Promise<number> => {
    const [t] = await conn.send('VM.GET_TYPES', { name, ignoreCase: false });
    if (!t) throw new Error(`${name} not found in the game`);
    return t;
  };
  let oracle = (await conn.send('VM.GET_TYPES', { name: 'EvalOracle', ignoreCase: false }))[0];
  if (!oracle) {
    const assembly = await find('System.Reflection.Assembly');
    const [loadFrom] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
      typeId: assembly,
      name: 'LoadFrom',
      flags: BindingFlags.Static | BindingFlags.Public | BindingFlags.DeclaredOnly,
    });
    const domainId = conn.vmStart!.rootDomainId;
    const pathString = await conn.send('APPDOMAIN.CREATE_STRING', { domainId, text: dll });
    const loaded = await ctx.invoke(loadFrom!, Values.null(), [Values.string(pathString)]);
    if (loaded.result.kind !== 'object') throw new Error('Assembly.LoadFrom returned no assembly');
    oracle = await find('EvalOracle');
  }
  const compiled = cases.filter((c) => !compileErrors.has(c.id));
  for (const [index, c] of compiled.entries()) {
    const [method] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
      typeId: oracle,
      name: `Case_${index}`,
      flags: BindingFlags.Static | BindingFlags.Public | BindingFlags.DeclaredOnly,
    });
    const r = await ctx.invoke(method!, Values.null(), []);
    if (r.result.kind !== 'string') throw new Error(`Case_${index} returned ${r.result.kind}`);
    const text = (await readString(conn, r.result.objectId)).text;
    const thrown = /^!([\w.`+]+): ([\s\S]*)$/.exec(text);
    const cut = text.indexOf('\u0001'); // the type, U+0001, the value (Fmt.Typed)
    if (!thrown && cut < 0) throw new Error(`Case_${index} (${c.id}) printed no type: ${text}`);
    out.set(
      c.id,
      thrown
        ? { kind: 'exception', type: thrown[1]!, message: thrown[2]! }
        : { kind: 'value', type: text.slice(0, cut), text: text.slice(cut + 1) },
    );
  }
  for (const [id, message] of compileErrors) out.set(id, { kind: 'compile-error', message });
  return out;
}

export async function readCorpus(file: string): Promise<CorpusCase[]> {
  const text = await readFile(file, 'utf8');
  const cases: CorpusCase[] = [];
  let section: string | undefined;
  for (const [n, raw] of text.split('\n').entries()) {
    const line = raw.trimEnd();
    if (line.trimStart().startsWith('#')) section = line.trim().slice(1).trim();
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const note = / \/\/roslyn(?:\(([^)]*)\))?: (.*)$/.exec(line);
    const program = note ? line.slice(0, note.index) : line;
    cases.push({
      id: `L${n + 1}`,
      program: program.trim(),
      ...(note ? { roslyn: { type: note[1], text: note[2]! } } : {}),
      ...(section ? { section } : {}),
    });
  }
  return cases;
}
