// The switch statement (§13.8.3) with constant and type patterns: `case 1:`, `case Color.Red:`,
// `case string s:`, `case Foo _ when f:`, `default:`. The first section with a matching label
// runs (default only when none matches, wherever it is written); no section may fall through
// into the next (CS0163).

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { bool } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { Local } from './local-scope.js';
import { NORMAL, type Completion } from './statements.js';

export class SwitchStatements {
  constructor(private readonly it: Interpreter) {}

  private get st() {
    return this.it.statements;
  }

  async switchStatement(s: A.Switch): Promise<Completion> {
    const x = await this.it.expr(s.value);
    if (x.type === 'null')
      throw new CompileError(
        'CS0151',
        'a switch expression cannot be the null literal',
        s.value.span,
      );
    return this.st.inScope(async () => {
      if (this.it.dry) return this.bind(s, x);
      let chosen: A.SwitchSection | undefined;
      let fallback: A.SwitchSection | undefined;
      let completion: Completion | undefined;
      for (const section of s.sections) {
        for (const label of section.labels) {
          if (label.pattern.k === 'default') {
            fallback ??= section;
            continue;
          }
          const c = await this.st.inScope(async () => {
            if (!(await this.matches(x, label))) return undefined;
            chosen = section;
            return this.body(s, section);
          });
          if (c) {
            completion = c;
            break;
          }
        }
        if (chosen) break;
      }
      if (!chosen && fallback) completion = await this.st.inScope(() => this.body(s, fallback));
      if (!completion || completion.k === 'break') return NORMAL;
      return completion;
    });
  }

  private body(s: A.Switch, section: A.SwitchSection): Promise<Completion> {
    return this.st.targeting('switch', s, () => this.st.block(section.statements));
  }

  /** Tests a label (binding its pattern variable in the current scope) and its `when` guard. */
  private async matches(x: Operand, label: A.SwitchLabel): Promise<boolean> {
    const p = label.pattern;
    let matched: boolean;
    if (p.k === 'default') matched = true;
    else if (p.k === 'constant') {
      const r = await this.it.resolve(p.value);
      if (r.k === 'type') matched = await this.typePattern(x, r.type, null, label);
      else {
        const k = await this.it.asValue(r, p.value);
        const v = await this.it.typeTests.constantPattern(x, k, p.value.span);
        matched = !this.it.dry && v.kind === 'bool' && v.value;
      }
    } else {
      const t = await this.it.types.type(p.type);
      matched = await this.typePattern(x, t, p.name, label);
    }
    if (!label.when) return matched;
    if (!matched && !this.it.dry) return false;
    const w = await this.st.condition(label.when);
    return !this.it.dry && w.value.kind === 'bool' && w.value.value;
  }

  private async typePattern(
    x: Operand,
    t: TypeHandle,
    name: A.Identifier | null,
    label: A.SwitchLabel,
  ): Promise<boolean> {
    const c = await this.it.conversions.explicit({ type: x.type, value: bool(false) }, t, false);
    if (!c)
      throw new CompileError(
        'CS8121',
        `an expression of type '${await this.it.facts.name(x.type)}' cannot be handled by a pattern of type '${await this.it.facts.name(t)}'`,
        label.span,
      );
    const matched = !this.it.dry && (await this.it.typeTests.instanceOf(x, t));
    if (name) {
      this.st.checkName(name.name, name.span);
      const value = matched
        ? (await this.it.conversions.apply(c, x, t, false)).value
        : { kind: 'null' as const };
      this.it.locals.set(name.name, { type: t, value, assigned: true });
    }
    return matched;
  }

  private async bind(s: A.Switch, x: Operand): Promise<Completion> {
    const before = this.st.snapshot();
    const hasDefault = s.sections.some((sec) => sec.labels.some((l) => l.pattern.k === 'default'));
    let reachable = !hasDefault;
    // the states at the switch's end: each section left by break, and no section taken
    const ends: Map<Local, boolean>[] = hasDefault ? [] : [before];
    for (const section of s.sections) {
      this.st.restore(before);
      const end = await this.st.inScope(async () => {
        for (const label of section.labels) await this.matches(x, label);
        const broken = this.st.frame.broken.has(s);
        this.st.frame.broken.delete(s);
        const c = await this.body(s, section);
        if (this.st.frame.broken.has(s)) ends.push(this.st.snapshot());
        if (broken) this.st.frame.broken.add(s);
        return c;
      });
      if (end.k === 'normal' && section === s.sections.at(-1))
        throw new CompileError(
          'CS8070',
          'control cannot fall out of switch from the final case label: end it with break',
          section.labels.at(-1)?.span ?? section.span,
        );
      if (end.k === 'normal')
        throw new CompileError(
          'CS0163',
          'control cannot fall through from one case label to another: end the section with break',
          section.labels.at(-1)?.span ?? section.span,
        );
    }
    this.st.restore(before);
    for (const l of this.it.locals.cells()) l.assigned = ends.every((m) => m.get(l) ?? l.assigned);
    if (this.st.frame.broken.has(s)) reachable = true;
    return reachable ? NORMAL : { k: 'unreachable' };
  }
}
