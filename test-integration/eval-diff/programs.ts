// The oracle's dialect for whole programs (corpus-programs.txt): statements, blocks, loops,
// lambdas, LINQ and query syntax. Each program becomes the body of a lambda run by Prog.Run, its
// last statement turned into the lambda's return (an expression's value, a declaration's
// variable), so that C# infers the value's static type as the evaluator infers a program's: the
// best common type of its returns. The lambda's own codes are mapped to the program's where
// they differ: falling off the end after a `return` is CS1643 in a lambda, CS0161 in a method
// (ours); returns without a best type make Prog.Run's T uninferable (CS0411), CS8030 for a
// program. The lambda is inside a class, whose inherited statics (ReferenceEquals, Equals) a
// program would reach unqualified there but not in the evaluator: the corpus qualifies them.

import type { CorpusCase, Dialect, Form } from './oracle.js';
import { shapeOf } from './program-shape.js';

const HEADER = `using System; using System.Collections.Generic; using System.Linq; using UnityEngine;
using Unity.Entities; using Unity.Mathematics; using Unity.Collections; using Unity.Transforms;
using Game;
public static class EvalOracle {
  static World world { get { return World.DefaultGameObjectInjectionWorld; } }
  static EntityManager em { get { return world.EntityManager; } }
`;

function body(c: CorpusCase, form: Form): string {
  const shape = shapeOf(c.program);
  const lines = shape.head.map((s) => `      ${s}`);
  const last = shape.last;
  if (shape.lastKind === 'expression')
    lines.push(form === 'void' ? `      ${last};` : `      return (${last});`);
  else if (shape.lastKind === 'declaration')
    lines.push(`      ${last};`, `      return ${shape.declared};`);
  else lines.push(`      ${last}${last.endsWith('}') ? '' : ';'}`);
  return lines.join('\n');
}

function method(c: CorpusCase, index: number, form: Form): string {
  const run =
    form === 'void'
      ? `Prog.RunVoid(() => {\n${body(c, form)}\n    });\n    return "void\\u0001void";`
      : form === 'untyped'
        ? `return Fmt.Untyped(Prog.Run<object>(() => {\n${body(c, form)}\n    }));`
        : `return Fmt.Typed(Prog.Run(() => {\n${body(c, form)}\n    }));`;
  return `  // CASE ${index} ${c.id}\n  public static string Case_${index}() {\n    try {\n    ${run}\n    } catch (System.Exception e) { return "!" + e.GetType().FullName + ": " + e.Message; }\n  }`;
}

export const PROGRAMS: Dialect = {
  header: HEADER,
  extraSources: ['Prog.cs'],
  systemRefs: ['System.Core.dll'],
  firstForm(c) {
    const shape = shapeOf(c.program);
    return shape.lastKind === 'other' && !shape.returns ? 'void' : 'typed';
  },
  method,
  onError(c, form, code, message) {
    const shape = shapeOf(c.program);
    const atRun = /Prog\.Run/.test(message);
    if (code === 'CS0411' && atRun && form === 'typed') {
      if (shape.returns)
        return { error: `CS8030: (mcs: ${message}) no best type for the returned values` };
      return 'untyped';
    }
    if (form === 'untyped' && /`void'/.test(message)) return 'void';
    // the wrapper's lambda (Func<T> or Func<object>), not one of the program's own
    if (code === 'CS1643' && /Func<(T|object)>'/.test(message))
      return { error: `CS0161: (mcs: ${message})` };
    return { error: `${code}: ${message}` };
  },
};
