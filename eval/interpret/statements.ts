// A program (the evaluator's extension of one C# expression): statements run in order, the
// last one's value is the program's; statements before it are what C# allows as statements
// (CS0201); local declarations (`var x = ...`, `int[] a = {...}`) add the program's locals.

import type * as A from '../syntax/index.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class Statements {
  constructor(private readonly it: Interpreter) {}

  /** Runs a program; its value is the last statement's (a declaration's is its variable's). */
  async run(program: A.Program): Promise<Operand> {
    let last: Operand = { type: await this.it.wk.keyword('void'), value: VOID };
    const n = program.statements.length;
    for (const [i, s] of program.statements.entries()) {
      if (s.kind === 'LocalDeclaration') {
        last = await this.declare(s);
        const name = s.declarators.at(-1)?.name.name;
        // a declaration ending the program is its value: the variable must hold one
        if (i === n - 1 && name && !this.it.locals.get(name)?.assigned) {
          throw new CompileError('CS0165', `use of unassigned local variable '${name}'`, s.span);
        }
      } else
        last = i === n - 1 ? await this.it.expr(s.expression) : await this.statement(s.expression);
    }
    return last;
  }

  /**
   * A statement before the last: C# allows only calls, assignments, ++/--, and object creation
   * (CS0201). The last one is the program's value, so any expression may end a program.
   */
  private async statement(e: A.Expression): Promise<Operand> {
    let inner = e;
    while (inner.kind === 'Parenthesized') inner = inner.expression;
    const allowed =
      inner === e &&
      (e.kind === 'Invocation' ||
        e.kind === 'Assignment' ||
        e.kind === 'ObjectCreation' ||
        (e.kind === 'Unary' && (e.operator === '++' || e.operator === '--')) ||
        (e.kind === 'Postfix' && e.operator !== '!'));
    if (!allowed)
      throw new CompileError(
        'CS0201',
        'only assignment, call, increment, decrement and new object expressions can be used as a statement',
        e.span,
      );
    return this.it.expr(e);
  }

  private async declare(d: A.LocalDeclaration): Promise<Operand> {
    let last: Operand | undefined;
    for (const v of d.declarators) {
      const name = v.name.name;
      if (this.it.locals.has(name))
        throw new CompileError(
          'CS0128',
          `a local variable named '${name}' is already defined`,
          v.name.span,
        );
      if (this.it.options.scope?.variables.has(name))
        throw new CompileError(
          'CS0136',
          `a local named '${name}' cannot be declared here: the method already has a variable of that name`,
          v.name.span,
        );
      if (d.type === 'var') {
        if (!v.initializer)
          throw new CompileError(
            'CS0818',
            `an implicitly typed local needs an initializer ('${name}')`,
            v.span,
          );
        if (v.initializer.kind === 'ArrayInitializer')
          throw new CompileError(
            'CS0820',
            'cannot initialize an implicitly typed local with an array initializer',
            v.span,
          );
        const init = await this.it.expr(v.initializer);
        if (init.type === 'null')
          throw new CompileError(
            'CS0815',
            `cannot assign <null> to an implicitly typed local ('${name}')`,
            v.span,
          );
        if (init.type.key === (await this.it.wk.keyword('void')).key)
          throw new CompileError(
            'CS0815',
            `cannot assign void to an implicitly typed local ('${name}')`,
            v.span,
          );
        this.it.locals.set(name, { type: init.type, value: init.value, assigned: true });
        last = { type: init.type, value: init.value, place: { k: 'local', name } };
        continue;
      }
      const type = await this.it.types.type(d.type);
      let value: EvalValue = NULL;
      let assigned = false;
      if (v.initializer) {
        const init =
          v.initializer.kind === 'ArrayInitializer'
            ? await this.it.arrays.arrayFromInitializer(type, v.initializer)
            : await this.it.conversions.implicitly(
                await this.it.expr(v.initializer),
                type,
                `the initializer of '${name}'`,
              );
        value = init.value;
        assigned = true;
      }
      this.it.locals.set(name, { type, value, assigned });
      last = { type, value, place: { k: 'local', name } };
    }
    if (!last) throw new CompileError('CS1001', 'a declaration needs a variable', d.span);
    return last;
  }
}
