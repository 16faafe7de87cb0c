// try / catch / finally (§13.11) and throw (§13.10.6). What a program can catch: an exception
// the game threw in a call (caught by its type, as the game named it), one the evaluator raised
// in the program's own arithmetic (DivideByZeroException...), and one the program threw itself
// (`throw new InvalidOperationException("...")`, an object made in the game). Bounds reached
// (EVAL_BUDGET) and refusals are not exceptions of the program: no catch sees them.

import type * as A from '../syntax/index.js';
import { GameExceptionError, type TypeHandle } from '../runtime.js';
import { NULL, type EvalValue } from '../values.js';
import { CompileError, ManagedException, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Local } from './local-scope.js';
import { NORMAL, type Completion } from './statements.js';

type Thrown = ManagedException | GameExceptionError;

export class Exceptions {
  /** The exceptions being handled, innermost last (what `throw;` rethrows). */
  private readonly handling: Thrown[] = [];
  private catchDepth = 0;

  constructor(private readonly it: Interpreter) {}

  private get st() {
    return this.it.statements;
  }

  private async exceptionType(): Promise<TypeHandle> {
    return this.it.wk.named('System.Exception');
  }

  async throwStatement(s: A.Throw): Promise<Completion> {
    if (s.value === null) {
      if (this.catchDepth === 0)
        throw new CompileError(
          'CS0156',
          'a throw statement with no argument is only allowed in a catch clause',
          s.span,
        );
      if (this.it.dry) return { k: 'unreachable' };
      throw this.handling.at(-1)!;
    }
    const op = await this.it.expr(s.value);
    const exceptionType = await this.exceptionType();
    if (op.type !== 'null' && !(await this.it.facts.assignable(exceptionType, op.type)))
      throw new CompileError(
        'CS0155',
        `the type thrown must be derived from System.Exception ('${await this.it.facts.name(op.type)}' is not)`,
        s.value.span,
      );
    if (this.it.dry) return { k: 'unreachable' };
    if (op.value.kind === 'null') throw Messages.nullReference();
    const type = await this.it.rt.game.typeOf(op.value);
    const message = await this.message(op.value, exceptionType);
    const e = new ManagedException(await this.it.facts.fullName(type), message);
    e.object = op.value;
    throw e;
  }

  /** Exception.Message, read through its getter (a derived type may override it). */
  private async message(exception: EvalValue, exceptionType: TypeHandle): Promise<string> {
    const getter = (await this.it.md.members(exceptionType, 'Message')).properties[0]?.getter;
    if (!getter) return '';
    const m = await this.it.invoker.invokeRaw({ ...getter, isVirtual: true }, exception, []);
    if (m.kind !== 'string') return '';
    return m.text ?? (await this.it.rt.game.stringText(m)).text;
  }

  async tryStatement(s: A.Try): Promise<Completion> {
    if (this.it.dry) return this.bindTry(s);
    let completion: Completion;
    try {
      try {
        completion = await this.st.inScope(() => this.st.block(s.block.statements));
      } catch (err) {
        if (!(err instanceof ManagedException || err instanceof GameExceptionError)) throw err;
        const handled = await this.handle(s, err);
        if (!handled) throw err;
        completion = handled;
      }
    } finally {
      // a bound reached or a refusal ends the program: its finally blocks do not run
      if (s.finally && !this.it.budget.stopped)
        await this.st.inScope(() => this.st.block(s.finally!.statements));
    }
    return completion;
  }

  /** Runs the first catch clause that takes `err`; undefined when none does. */
  private async handle(s: A.Try, err: Thrown): Promise<Completion | undefined> {
    const thrownType = await this.it.md.findType(err.type);
    for (const c of s.catches) {
      const type = c.type ? await this.it.types.type(c.type) : await this.exceptionType();
      if (!thrownType || !(await this.it.facts.assignable(type, thrownType))) {
        // a type the debugger cannot find is caught only by catch-all clauses
        if (thrownType || c.type) continue;
      }
      const taken = await this.st.inScope(async () => {
        if (c.name) {
          const value = await this.exceptionObject(err, thrownType);
          this.it.locals.set(c.name.name, { type, value, assigned: true });
        }
        if (c.filter) {
          const f = await this.st.condition(c.filter);
          if (f.value.kind !== 'bool' || !f.value.value) return undefined;
        }
        this.handling.push(err);
        this.catchDepth++;
        try {
          return await this.st.block(c.block.statements);
        } finally {
          this.catchDepth--;
          this.handling.pop();
        }
      });
      if (taken) return taken;
    }
    return undefined;
  }

  /**
   * The exception as an object of the game, for `catch (T e)`: the one thrown, when the runtime
   * kept it; otherwise one made now, `new T(message)` (the evaluator's own exceptions exist only
   * as a type and a message).
   */
  private async exceptionObject(err: Thrown, type: TypeHandle | undefined): Promise<EvalValue> {
    const kept = err instanceof ManagedException ? err.object : err.exception;
    if (kept) return kept;
    if (!type) return NULL;
    const stringKey = (await this.it.wk.keyword('string')).key;
    const ctor = (await this.it.md.members(type, '.ctor')).methods.find(
      (m) => m.parameters.length === 1 && m.parameters[0]!.type.key === stringKey,
    );
    if (!ctor) return NULL;
    const text = err instanceof ManagedException ? err.managedMessage : err.gameMessage;
    const message = await this.it.rt.game.createString(text);
    return this.it.invoker.invokeRaw(ctor, undefined, [message]);
  }

  private async bindTry(s: A.Try): Promise<Completion> {
    const before = this.st.snapshot();
    const paths: (Map<Local, boolean> | undefined)[] = [];
    const body = await this.st.inScope(() => this.st.block(s.block.statements));
    paths.push(body.k === 'normal' ? this.st.snapshot() : undefined);
    const exceptionType = await this.exceptionType();
    const earlier: TypeHandle[] = [];
    for (const c of s.catches) {
      this.st.restore(before);
      const type = c.type ? await this.it.types.type(c.type) : exceptionType;
      for (const e of earlier)
        if (await this.it.facts.assignable(e, type))
          throw new CompileError(
            'CS0160',
            `a previous catch clause already catches all exceptions of this or a super type ('${await this.it.facts.name(e)}')`,
            c.type?.span ?? c.span,
          );
      if (!c.filter) earlier.push(type);
      if (!(await this.it.facts.assignable(exceptionType, type)))
        throw new CompileError(
          'CS0155',
          `the type caught must be derived from System.Exception ('${await this.it.facts.name(type)}' is not)`,
          c.type?.span ?? c.span,
        );
      const end = await this.st.inScope(async () => {
        if (c.name) {
          this.st.checkName(c.name.name, c.name.span);
          this.it.locals.set(c.name.name, { type, value: NULL, assigned: true });
        }
        if (c.filter) await this.st.condition(c.filter);
        this.catchDepth++;
        try {
          return await this.st.block(c.block.statements);
        } finally {
          this.catchDepth--;
        }
      });
      paths.push(end.k === 'normal' ? this.st.snapshot() : undefined);
    }
    this.st.restore(before);
    for (const l of this.it.locals.cells())
      l.assigned = paths.every((p) => (p ? (p.get(l) ?? l.assigned) : true));
    const reachable = paths.some((p) => p !== undefined);
    if (s.finally) {
      const f = await this.st.inScope(() => this.st.block(s.finally!.statements));
      if (f.k === 'break' || f.k === 'continue' || f.k === 'return')
        throw new CompileError(
          'CS0157',
          'control cannot leave the body of a finally clause',
          s.finally.span,
        );
    }
    return reachable ? NORMAL : { k: 'unreachable' };
  }
}
