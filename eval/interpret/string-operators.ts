// String operators (ECMA-334 §12.10.5, §12.12.8): + with a string operand (each other operand
// through its ToString(), folded when both are constant) and == / != comparing text.

import type * as A from '../syntax/index.js';
import { asValue, primitive } from '../semantics/numeric-types.js';
import { VOID, bool, type EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { ConstantValue, Operand } from './operand.js';

export class StringOperators {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  /** `+` with a string operand (§12.10.5): string.Concat, each non-string through ToString(). */
  async concat(l: Operand, r: Operand, span: A.Span): Promise<Operand> {
    const type = await this.it.wk.keyword('string');
    const lc = stringConstant(l.constant);
    const rc = stringConstant(r.constant);
    if (lc !== undefined && rc !== undefined)
      return {
        type,
        value: { kind: 'string', text: lc + rc },
        constant: { kind: 'string', value: lc + rc },
      };
    if (l.type === 'null' && r.type === 'null')
      throw new CompileError(
        'CS0034',
        "operator '+' is ambiguous on operands of type '<null>' and '<null>'",
        span,
      );
    for (const x of [l, r])
      if (x.type !== 'null' && (await this.it.types.isVoid(x.type)))
        throw await this.it.binaryOperators.noOperator('+', l.type, r.type, span);
    if (this.it.dry) return { type, value: VOID };
    const text = (await this.it.interpolation.textOf(l)) + (await this.it.interpolation.textOf(r));
    return { type, value: { kind: 'string', text } };
  }

  async equality(op: '==' | '!=', l: Operand, r: Operand): Promise<Operand> {
    const type = await this.it.wk.keyword('bool');
    const lc = stringOrNullConstant(l.constant);
    const rc = stringOrNullConstant(r.constant);
    if (lc !== undefined && rc !== undefined)
      return this.it.literals.constantOperand(
        type,
        asValue(primitive('bool', (lc === rc) === (op === '=='))),
      );
    if (this.it.dry) return { type, value: VOID };
    const text = async (v: EvalValue) =>
      v.kind === 'null' ? null : (await this.it.rt.game.stringText(v)).text;
    const equal = (await text(l.value)) === (await text(r.value));
    return { type, value: bool(equal === (op === '==')) };
  }
}

function stringConstant(c: ConstantValue | undefined): string | undefined {
  if (c?.kind === 'string') return c.value;
  if (c?.kind === 'null') return '';
  return undefined;
}

function stringOrNullConstant(c: ConstantValue | undefined): string | null | undefined {
  if (c?.kind === 'string') return c.value;
  if (c?.kind === 'null') return null;
  return undefined;
}
