// Null-conditional access chains (ECMA-334 §12.8.8): in `a?.b.c` or `a?[i].M()` a null
// receiver makes the rest of the chain type-only (bound, not run: the game is not touched) and
// the whole chain null, of the nullable form of its type; a void call stays void.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { NULL, VOID } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand, Resolved } from './operand.js';

export class NullConditional {
  constructor(private readonly it: Interpreter) {}

  /** Null-conditional accesses whose null receiver made the rest of their chain dry. */
  private shortCircuits = 0;

  /**
   * Any expression (the visitor's entry). A postfix chain holding `?.` or `?[` ends here: when
   * its receiver was null the rest of the chain was bound without running (dry), and the whole
   * chain is null (§12.8.8).
   */
  resolve(e: A.Expression): Promise<Resolved> {
    return !isChainNode(e) || !hasConditional(e) ? this.it.resolveNode(e) : this.conditional(e);
  }

  private async conditional(e: A.Expression): Promise<Resolved> {
    const mark = this.shortCircuits;
    let r: Resolved;
    let shorted = false;
    try {
      r = await this.it.resolveNode(e);
    } finally {
      if (this.shortCircuits > mark) {
        shorted = true;
        this.it.dry -= this.shortCircuits - mark;
        this.shortCircuits = mark;
      }
    }
    if (r.k !== 'value') return r;
    const t = r.op.type;
    if (t === 'null') return r;
    // a void call stays void: `a?.M()` is a statement, not a value
    if (await this.it.types.isVoid(t)) return { k: 'value', op: { type: t, value: VOID } };
    let type: TypeHandle = t;
    if ((await this.it.facts.isValueType(t)) && !(await this.it.facts.nullableUnderlying(t)))
      type = await this.it.types.nullableOf(t);
    return { k: 'value', op: { type, value: shorted ? NULL : r.op.value } };
  }

  /** The target of a member access, invocation or element access: part of the same chain. */
  inChain(e: A.Expression): Promise<Resolved> {
    return isChainNode(e) ? this.it.resolveNode(e) : this.resolve(e);
  }

  /** `x?.` / `x?[`: a null x makes the rest of the chain type-only (see resolve). */
  async receiver(op: Operand, span: A.Span): Promise<Operand> {
    const t = op.type as TypeHandle;
    if ((await this.it.facts.isValueType(t)) && !(await this.it.facts.nullableUnderlying(t))) {
      throw new CompileError(
        'CS0023',
        `the '?' operator cannot be applied to operand of type '${await this.it.facts.name(t)}'`,
        span,
      );
    }
    const underlying = await this.it.facts.nullableUnderlying(t);
    if (!this.it.dry && op.value.kind === 'null') {
      this.it.dry++;
      this.shortCircuits++;
    }
    // the receiver of x?.m is x's value (for Nullable<T>, the T inside)
    return { type: underlying ?? t, value: op.value };
  }
}

const CHAIN_KINDS = new Set(['MemberAccess', 'Invocation', 'ElementAccess', 'Postfix']);

function isChainNode(e: A.Expression): boolean {
  return CHAIN_KINDS.has(e.kind) && (e.kind !== 'Postfix' || e.operator === '!');
}

/** Whether a `?.` or `?[` occurs in the postfix chain ending at e. */
function hasConditional(e: A.Expression): boolean {
  for (let n: A.Expression = e; isChainNode(n);) {
    if ((n.kind === 'MemberAccess' || n.kind === 'ElementAccess') && n.conditional) return true;
    n =
      n.kind === 'Postfix'
        ? n.operand
        : (n as A.MemberAccess | A.Invocation | A.ElementAccess).target;
  }
  return false;
}
