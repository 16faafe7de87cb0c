// A program and its statements (C# standard §13). The program's value is what a `return`
// gives, else its last statement's (an expression's value, a declaration's variable), else void.
// Each statement visits its parts the same way in both passes: binding (dry) visits every branch
// and every loop body once, running visits what runs. Control flow is a completion value
// (break, continue, return), never a JS exception, so finally blocks and scopes unwind in order.

import type * as A from '../syntax/index.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import { LocalScope, type Local } from './local-scope.js';
import type { Operand } from './operand.js';
import type { SType } from './type-facts.js';

export type Completion =
  | { readonly k: 'normal' }
  | { readonly k: 'break'; readonly span: A.Span }
  | { readonly k: 'continue'; readonly span: A.Span }
  | { readonly k: 'return'; readonly op: Operand | undefined }
  /** Only when binding: the end of the statement cannot be reached (a throw, an endless loop). */
  | { readonly k: 'unreachable' };

export const NORMAL: Completion = { k: 'normal' };
const UNREACHABLE: Completion = { k: 'unreachable' };

/** The function whose body is running: the program itself, a lambda or a local function. */
export interface FunctionFrame {
  /** The declared return type; undefined while it is inferred from the returns. */
  returnType: SType | undefined;
  readonly inferred: boolean;
  /** Loops and switches around the statement, innermost last (what break/continue target). */
  readonly targets: { readonly k: 'loop' | 'switch'; readonly node: A.Node }[];
  /** Loops (in binding) whose body has a break: their end is reachable. */
  readonly broken: Set<A.Node>;
  /** While binding an inferred frame: the types of its returned values (§12.6.3.16). */
  readonly returned?: SType[];
}

export class Statements {
  frame: FunctionFrame = {
    returnType: undefined,
    inferred: true,
    targets: [],
    broken: new Set(),
    returned: [],
  };

  constructor(private readonly it: Interpreter) {}

  /** Runs a program; its value is the last statement's (a declaration's is its variable's). */
  async run(program: A.Program): Promise<Operand> {
    const voidType = await this.it.wk.keyword('void');
    let last: Operand = { type: voidType, value: VOID };
    const n = program.statements.length;
    const noted = this.it.notes.get(program) as { returnType: SType } | undefined;
    if (noted) this.frame.returnType = noted.returnType;
    await this.hoist(program.statements);
    let completion: Completion = NORMAL;
    for (const [i, s] of program.statements.entries()) {
      const released = this.boundary(s);
      if (released) await released;
      const isLast = i === n - 1;
      if (s.kind === 'LocalDeclaration') {
        last = await this.declare(s);
        const name = s.declarators.at(-1)?.name.name;
        // a declaration ending the program is its value: the variable must hold one
        if (isLast && name && !this.it.locals.get(name)?.assigned) {
          throw new CompileError('CS0165', `use of unassigned local variable '${name}'`, s.span);
        }
        continue;
      }
      if (s.kind === 'ExpressionStatement') {
        last = isLast ? await this.it.expr(s.expression) : await this.statement(s.expression);
        continue;
      }
      last = { type: voidType, value: VOID };
      const c = await this.exec(s);
      if (c.k === 'return' && !this.it.dry) return await this.returned(c.op, s);
      if (c.k !== 'normal') completion = c;
    }
    await this.it.functions.bindLocalFunctions(program.statements);
    if (this.it.dry && !this.frame.returnType && this.frame.returned?.length) {
      const types = [...this.frame.returned];
      const lastStatement = program.statements.at(-1);
      if (lastStatement?.kind === 'ExpressionStatement') types.push(last.type);
      this.frame.returnType = await this.bestCommonType(types, program);
      this.it.notes.set(program, { returnType: this.frame.returnType });
    }
    const returnType = this.frame.returnType;
    if (!returnType) return last;
    // a program with returns: falling off its end gives its last expression, converted
    const lastStatement = program.statements.at(-1);
    if (lastStatement?.kind === 'ExpressionStatement' || lastStatement?.kind === 'LocalDeclaration')
      return this.it.conversions.implicitly(last, returnType as never, 'the value of the program');
    if (completion.k === 'normal' && this.it.dry)
      throw new CompileError(
        'CS0161',
        'not all code paths return a value: end the program with a return or an expression',
        lastStatement?.span,
      );
    return { type: returnType, value: NULL };
  }

  private async returned(op: Operand | undefined, s: A.Node): Promise<Operand> {
    if (!op) throw new CompileError('CS0126', 'the program must return a value', s.span);
    const t = this.frame.returnType;
    if (!t || t === 'null' || this.it.facts.same(t, op.type)) return op;
    return this.it.conversions.implicitly(op, t, 'the returned value');
  }

  /** The one of `types` every other converts to implicitly (C#'s inferred return type). */
  async bestCommonType(types: readonly SType[], at: A.Node): Promise<SType> {
    const candidates = types.filter((t) => t !== 'null');
    for (const t of candidates) {
      let all = true;
      for (const u of types) {
        const c = await this.it.conversions.implicit({ type: u, value: VOID }, t);
        if (!c) all = false;
      }
      if (all) return t;
    }
    throw new CompileError(
      'CS8030',
      'no best type for the returned values: cast them to one type',
      at.span,
    );
  }

  /** Between statements: the budget is checked (and the game may be released, if asked). */
  boundary(s: A.Node): Promise<void> | undefined {
    return this.it.dry ? undefined : this.it.budget.statement(s.span);
  }

  /**
   * An expression statement: C# allows only calls, assignments, ++/--, and object creation
   * (CS0201). The last one of the program is its value, so any expression may end a program.
   */
  statement(e: A.Expression): Promise<Operand> {
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

  /** One statement inside a block or a loop. */
  async exec(s: A.Statement): Promise<Completion> {
    switch (s.kind) {
      case 'ExpressionStatement':
        await this.statement(s.expression);
        return NORMAL;
      case 'LocalDeclaration':
        await this.declare(s);
        return NORMAL;
      case 'EmptyStatement':
        return NORMAL;
      case 'Block':
        return this.inScope(() => this.block(s.statements));
      case 'If':
        return this.ifStatement(s);
      case 'While':
      case 'Do':
      case 'For':
        return this.it.loops.loop(s);
      case 'Foreach':
        return this.it.loops.foreach(s);
      case 'Break':
      case 'Continue':
        return this.jump(s);
      case 'Return':
        return this.returnStatement(s);
      case 'Throw':
        return this.it.exceptions.throwStatement(s);
      case 'Try':
        return this.it.exceptions.tryStatement(s);
      case 'Switch':
        return this.it.switches.switchStatement(s);
      case 'LocalFunction':
        return NORMAL; // hoisted when its block was entered
    }
  }

  /** The statements of a block, in the current scope. */
  async block(statements: readonly A.Statement[]): Promise<Completion> {
    await this.hoist(statements);
    let result: Completion = NORMAL;
    for (const s of statements) {
      const released = this.boundary(s);
      if (released) await released;
      const c = await this.exec(s);
      if (c.k === 'normal') continue;
      if (!this.it.dry) return c;
      // binding goes on through unreachable code, as the compiler does
      if (result.k === 'normal') result = c;
    }
    await this.it.functions.bindLocalFunctions(statements);
    return result;
  }

  /** Local functions are visible in their whole block (§7.7.1), before their declaration. */
  private async hoist(statements: readonly A.Statement[]): Promise<void> {
    for (const s of statements)
      if (s.kind === 'LocalFunction') await this.it.functions.declareLocalFunction(s);
  }

  /** A statement of an if, else or loop: its own scope; a declaration alone is CS1023. */
  embedded(s: A.Statement): Promise<Completion> {
    if (s.kind === 'LocalDeclaration' || s.kind === 'LocalFunction')
      throw new CompileError(
        'CS1023',
        'an embedded statement cannot be a declaration: put it in a block { ... }',
        s.span,
      );
    return this.inScope(() => this.exec(s));
  }

  /** Runs a loop's or a switch's body with it as the target of break (and continue). */
  async targeting<T>(k: 'loop' | 'switch', node: A.Node, fn: () => Promise<T>): Promise<T> {
    this.frame.targets.push({ k, node });
    try {
      return await fn();
    } finally {
      this.frame.targets.pop();
    }
  }

  async inScope<T>(fn: () => Promise<T>): Promise<T> {
    const saved = this.it.locals;
    this.it.locals = new LocalScope(saved);
    try {
      return await fn();
    } finally {
      this.it.locals = saved;
    }
  }

  /** A condition: an expression that converts implicitly to bool (§12.24). */
  async condition(e: A.Expression): Promise<Operand> {
    const boolType = this.it.wk.knownKeyword('bool') ?? (await this.it.wk.keyword('bool'));
    const op = await this.it.expr(e);
    try {
      return await this.it.conversions.implicitly(op, boolType, 'the condition');
    } catch (err) {
      if (err instanceof CompileError && !err.span)
        throw new CompileError(err.csCode, err.message, e.span);
      throw err;
    }
  }

  static truth(op: Operand): boolean {
    return (op.value as { value: boolean }).value === true;
  }

  private async ifStatement(s: A.If): Promise<Completion> {
    const c = await this.condition(s.condition);
    if (!this.it.dry) {
      if (Statements.truth(c)) return this.embedded(s.then);
      return s.else ? this.embedded(s.else) : NORMAL;
    }
    // binding: both branches; a local is assigned after the if when both assign it
    const before = this.snapshot();
    const then = await this.embedded(s.then);
    const afterThen = this.snapshot();
    this.restore(before);
    const otherwise = s.else ? await this.embedded(s.else) : NORMAL;
    const afterElse = this.snapshot();
    // `if (true)`: the else branch cannot be reached (§13.3), nor the then of `if (false)`
    const constant = literalBool(s.condition);
    const thenEnds = then.k === 'normal' && constant !== false;
    const elseEnds = otherwise.k === 'normal' && constant !== true;
    this.merge(thenEnds ? afterThen : undefined, elseEnds ? afterElse : undefined);
    if (!thenEnds && !elseEnds) return UNREACHABLE;
    return NORMAL;
  }

  private jump(s: A.Break | A.Continue): Completion {
    const targets = this.frame.targets;
    if (s.kind === 'Break') {
      const target = targets.at(-1);
      if (!target)
        throw new CompileError(
          'CS0139',
          'no enclosing loop or switch out of which to break',
          s.span,
        );
      this.frame.broken.add(target.node);
      return { k: 'break', span: s.span };
    }
    if (!targets.some((t) => t.k === 'loop'))
      throw new CompileError('CS0139', 'no enclosing loop out of which to continue', s.span);
    return { k: 'continue', span: s.span };
  }

  private async returnStatement(s: A.Return): Promise<Completion> {
    const frame = this.frame;
    const voidType = await this.it.wk.keyword('void');
    if (s.value === null) {
      if (frame.returnType && frame.returnType !== 'null' && frame.returnType.key !== voidType.key)
        throw new CompileError('CS0126', 'an object of the return type is required', s.span);
      if (!frame.returnType && frame.inferred) frame.returnType = voidType;
      return { k: 'return', op: undefined };
    }
    let op =
      frame.returnType && frame.returnType !== 'null'
        ? await this.it.functions.target(s.value, frame.returnType)
        : await this.it.expr(s.value);
    if (frame.returnType === undefined && frame.inferred) {
      // binding collects the returned types; the best common one is the return type
      frame.returned?.push(op.type);
    } else if (frame.returnType && frame.returnType !== 'null') {
      if (frame.returnType.key === voidType.key)
        throw new CompileError('CS0127', 'a void function cannot return a value', s.span);
      op = await this.it.conversions.implicitly(op, frame.returnType, 'the returned value');
    }
    return { k: 'return', op };
  }

  // ---------------------------------------------------------------- definite assignment

  snapshot(): Map<Local, boolean> {
    return new Map(this.it.locals.cells().map((l) => [l, l.assigned]));
  }

  restore(s: Map<Local, boolean>): void {
    for (const [l, a] of s) l.assigned = a;
  }

  /** After two paths (undefined: one that does not reach the end): assigned on every path. */
  merge(a: Map<Local, boolean> | undefined, b: Map<Local, boolean> | undefined): void {
    for (const l of this.it.locals.cells()) {
      const x = a ? (a.get(l) ?? l.assigned) : true;
      const y = b ? (b.get(l) ?? l.assigned) : true;
      l.assigned = x && y;
    }
  }

  // ---------------------------------------------------------------- declarations

  /** Checks that a new local's name is free here (CS0128) and in the scopes around (CS0136). */
  checkName(name: string, span: A.Span): void {
    if (this.it.locals.hasOwn(name))
      throw new CompileError('CS0128', `a local variable named '${name}' is already defined`, span);
    if (this.it.locals.has(name))
      throw new CompileError(
        'CS0136',
        `a local named '${name}' cannot be declared here: an enclosing scope already uses it`,
        span,
      );
    if (this.it.options.scope?.variables.has(name))
      throw new CompileError(
        'CS0136',
        `a local named '${name}' cannot be declared here: the method already has a variable of that name`,
        span,
      );
  }

  async declare(d: A.LocalDeclaration): Promise<Operand> {
    let last: Operand | undefined;
    for (const v of d.declarators) {
      const name = v.name.name;
      this.checkName(name, v.name.span);
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
        if (v.initializer.kind === 'Lambda')
          throw new CompileError(
            'CS0815',
            `cannot assign a lambda expression to an implicitly typed local ('${name}')`,
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
      // declared before its initializer runs: a lambda in it may name it (after assignment)
      this.it.locals.set(name, { type, value, assigned });
      if (v.initializer) {
        const init =
          v.initializer.kind === 'ArrayInitializer'
            ? await this.it.arrays.arrayFromInitializer(type, v.initializer)
            : await this.it.conversions.implicitly(
                await this.it.functions.target(v.initializer, type),
                type,
                `the initializer of '${name}'`,
              );
        value = init.value;
        assigned = true;
      }
      const local = this.it.locals.get(name)!;
      local.value = value;
      local.assigned = assigned;
      last = { type, value, place: { k: 'local', name } };
    }
    if (!last) throw new CompileError('CS1001', 'a declaration needs a variable', d.span);
    return last;
  }

  /** A statement form this evaluator does not run. */
  static unsupported(what: string, span: A.Span): never {
    throw new UnsupportedError(what, span);
  }
}

function literalBool(e: A.Expression): boolean | undefined {
  while (e.kind === 'Parenthesized') e = e.expression;
  return e.kind === 'Literal' && e.type === 'bool' ? e.value : undefined;
}
