// while, do, for (§13.9) and foreach (§13.9.5). Binding visits a body once; what a body assigns
// is not definitely assigned after the loop (the body may not run). Running counts every
// iteration against the budget, which stops an endless loop at a statement boundary.

import type * as A from '../syntax/index.js';
import type { EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { eachOf } from './sequences.js';
import { conditionDeclares } from './compiled.js';
import { NORMAL, Statements, type Completion } from './statements.js';

export class Loops {
  constructor(private readonly it: Interpreter) {}

  private get st(): Statements {
    return this.it.statements;
  }

  async loop(s: A.While | A.Do | A.For): Promise<Completion> {
    if (!this.it.dry && !this.it.options.interpretOnly && !conditionDeclares(s)) {
      // running: the loop compiled to closures (compiled.ts), once per scope shape
      const run = await this.it.compiler.cached(s, '', () => this.it.compiler.loop(s));
      return run();
    }
    return this.st.inScope(async () => {
      if (s.kind === 'For') {
        if (Array.isArray(s.init)) for (const e of s.init) await this.st.statement(e);
        else await this.st.declare(s.init);
      }
      const condition = s.kind === 'For' ? s.condition : s.condition;
      const endless = condition === null || isTrue(condition);
      if (this.it.dry) return this.bindLoop(s, condition, endless);
      // one pass: its completion when the loop ends, undefined to go on
      const pass = async (): Promise<Completion | undefined> => {
        if (s.kind !== 'Do' && condition && !Statements.truth(await this.st.condition(condition)))
          return NORMAL;
        this.it.budget.iteration(s.span);
        const c = await this.st.targeting('loop', s, () => this.st.embedded(s.body));
        if (c.k === 'break') return NORMAL;
        if (c.k === 'return') return c;
        if (s.kind === 'For') for (const e of s.iterators) await this.st.statement(e);
        // a do's condition declares its out variables afresh at each test
        if (
          s.kind === 'Do' &&
          !Statements.truth(await this.st.inScope(() => this.st.condition(s.condition)))
        )
          return NORMAL;
        return undefined;
      };
      for (;;) {
        // a while's or a for's condition declares its out variables afresh at each pass, in
        // scope in the body and a for's iterators: Roslyn enters a block holding them at every
        // pass (LocalRewriter_WhileStatement, _ForStatement), so a lambda keeps its pass's own
        // (mcs 6.8 shares one for the loop; the corpus marks those lines with Roslyn's value)
        const end = s.kind === 'Do' ? await pass() : await this.st.inScope(pass);
        if (end) return end;
      }
    });
  }

  private async bindLoop(
    s: A.While | A.Do | A.For,
    condition: A.Expression | null,
    endless: boolean,
  ): Promise<Completion> {
    // a do body runs at least once: what it assigns before the condition stays assigned
    if (s.kind === 'Do') {
      await this.st.targeting('loop', s, () => this.st.embedded(s.body));
      await this.st.condition(s.condition);
    } else {
      if (condition) await this.st.condition(condition);
      const before = this.st.snapshot();
      await this.st.targeting('loop', s, () => this.st.embedded(s.body));
      if (s.kind === 'For') for (const e of s.iterators) await this.st.statement(e);
      this.st.restore(before);
    }
    return endless && !this.st.frame.broken.has(s) ? { k: 'unreachable' } : NORMAL;
  }

  async foreach(s: A.Foreach): Promise<Completion> {
    const collection = await this.it.expr(s.collection);
    const source = await this.it.sequences.source(collection, s.collection.span);
    const element: Operand = { type: source.elementType, value: undefined as never };
    let type = source.elementType;
    let convert: ((v: EvalValue) => Promise<EvalValue>) | undefined;
    if (s.type !== 'var') {
      const to = await this.it.types.type(s.type);
      type = to;
      if (!this.it.facts.same(to, source.elementType)) {
        // the iteration variable takes each element by an explicit conversion (§13.9.5)
        const c = await this.it.conversions.explicit({ ...element, value: { kind: 'void' } }, to);
        if (!c)
          throw new CompileError(
            'CS0030',
            `cannot convert type '${await this.it.facts.name(source.elementType)}' to '${await this.it.facts.name(to)}'`,
            s.span,
          );
        convert = async (v) =>
          (await this.it.conversions.apply(c, { type: source.elementType, value: v }, to, false))
            .value;
      }
    }
    const name = s.name.name;
    const body = (v: EvalValue): Promise<Completion> =>
      this.st.inScope(() => {
        this.st.checkName(name, s.name.span);
        this.it.locals.set(name, {
          type,
          value: v,
          assigned: true,
          readOnly: 'foreach iteration variable',
        });
        return this.st.targeting('loop', s, () => this.st.embedded(s.body));
      });
    if (this.it.dry) {
      const before = this.st.snapshot();
      await body({ kind: 'void' });
      this.st.restore(before);
      return NORMAL;
    }
    if (!convert && !this.it.options.interpretOnly) {
      // running: the body compiled to closures (compiled.ts), pulled element by element
      const run = await this.it.compiler.cached(s, type === 'null' ? 'null' : type.key, () =>
        this.it.compiler.foreach(s, type),
      );
      return run(source);
    }
    let result: Completion = NORMAL;
    await eachOf(source, async (raw) => {
      this.it.budget.iteration(s.span);
      const c = await body(convert ? await convert(raw) : raw);
      if (c.k === 'break') return true;
      if (c.k === 'return') {
        result = c;
        return true;
      }
      return false;
    });
    return result;
  }
}

function isTrue(e: A.Expression): boolean {
  while (e.kind === 'Parenthesized') e = e.expression;
  return e.kind === 'Literal' && e.type === 'bool' && e.value === true;
}
