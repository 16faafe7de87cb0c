// Reference equality (ECMA-334 §12.12.7): == and != on reference types that convert to one
// another compare identity, as the game sees it.

import { asValue, primitive } from '../semantics/numeric-types.js';
import type { TypeHandle } from '../runtime.js';
import { VOID, bool, type EvalValue } from '../values.js';
import { UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { SType } from './type-facts.js';

export class ReferenceEquality {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  /** §12.12.7: reference types compare by identity when one converts to the other. */
  async comparable(l: SType, r: SType): Promise<boolean> {
    if (!(await this.f.isReferenceType(l)) || !(await this.f.isReferenceType(r))) return false;
    if (l === 'null' || r === 'null') return true;
    const iface = async (t: TypeHandle) => (await this.f.describe(t)).kind === 'interface';
    return (
      (await this.f.assignable(l, r)) ||
      (await this.f.assignable(r, l)) ||
      (await iface(l)) ||
      (await iface(r))
    );
  }

  async equality(op: '==' | '!=', l: Operand, r: Operand): Promise<Operand> {
    const type = await this.it.wk.keyword('bool');
    if (l.constant?.kind === 'null' && r.constant?.kind === 'null')
      return this.it.literals.constantOperand(type, asValue(primitive('bool', op === '==')));
    if (this.it.dry) return { type, value: VOID };
    if (isUnboxed(l.value) && isUnboxed(r.value)) {
      // boxes reach the evaluator as their values: whether two are the same box is unknown
      throw new UnsupportedError(
        `comparing two boxed values by reference is not supported (the evaluator does not keep box identity): compare the values themselves, e.g. (int)a == (int)b, or a.Equals(b)`,
      );
    }
    return { type, value: bool(sameReference(l.value, r.value) === (op === '==')) };
  }
}

/** A value-type value held where C# would hold a box (object, interface). */
function isUnboxed(v: EvalValue): boolean {
  return (
    v.kind === 'number' ||
    v.kind === 'bool' ||
    v.kind === 'decimal' ||
    v.kind === 'enum' ||
    v.kind === 'struct'
  );
}

/** Object identity as the game sees it (strings made here and never sent compare by text). */
export function sameReference(a: EvalValue, b: EvalValue): boolean {
  if (a.kind === 'null' || b.kind === 'null') return a.kind === b.kind;
  if (a.kind === 'client' || b.kind === 'client')
    return a.kind === 'client' && b.kind === 'client' && a.payload === b.payload;
  const ra = a.kind === 'object' || a.kind === 'string' ? a.ref : undefined;
  const rb = b.kind === 'object' || b.kind === 'string' ? b.ref : undefined;
  if (ra && rb) return ra.id === rb.id;
  if (a.kind === 'string' && b.kind === 'string' && !ra && !rb) return a.text === b.text;
  return false;
}
