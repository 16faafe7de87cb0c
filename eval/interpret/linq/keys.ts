// EqualityComparer<T>.Default and Comparer<T>.Default as LINQ uses them (Distinct, GroupBy,
// Join, Contains, ToDictionary keys; OrderBy, Min, Max), client-side: values by value (a
// string by its text, a struct field by field, an anonymous object member by member), a game
// object by identity. A game type's own Equals/CompareTo is not called (see eval-contract.md).

import type { TypeHandle } from '../../runtime.js';
import { CompileError, UnsupportedError } from '../errors.js';
import type { Operand } from '../operand.js';
import type { Interpreter } from '../interpreter.js';
import { decimalCompare } from '../../semantics/decimal.js';
import type { DecimalBits, EvalValue } from '../../values.js';
import { decimalFromBits } from '../primitives.js';

const collator = new Intl.Collator('en-US');

/** A value's equality key (equal keys: equal values, for the comparer in use). */
export type Keyer = (v: EvalValue) => Promise<string>;
export type Order = (a: EvalValue, b: EvalValue) => Promise<number>;

export class Keys {
  private readonly identities = new WeakMap<object, number>();
  private next = 0;

  constructor(private readonly it: Interpreter) {}

  /** A text equal for two values exactly when EqualityComparer<T>.Default says they are equal. */
  async key(v: EvalValue): Promise<string> {
    switch (v.kind) {
      case 'null':
        return 'n';
      case 'void':
        return 'v';
      case 'bool':
        return v.value ? 'T' : 'F';
      case 'number':
        // double: 0.0 equals -0.0, NaN equals NaN (Double.Equals)
        if (typeof v.value === 'number' && Object.is(v.value, -0)) return `${v.type}:0`;
        return `${v.type}:${String(v.value)}`;
      case 'decimal':
        return `m:${decimalKey(v.bits)}`;
      case 'string':
        return `s:${await this.text(v)}`;
      case 'enum':
        return `e:${v.type.key}:${String(v.value)}`;
      case 'pointer':
        return `p:${v.address}`;
      case 'object':
        return `o:${v.ref.id}`;
      case 'struct': {
        const parts: string[] = [];
        for (const f of v.fields) parts.push(await this.key(f));
        return `S:${v.type.key}{${parts.join(',')}}`;
      }
      case 'client': {
        if (v.payload.clientKind === 'anonymous') {
          const parts: string[] = [];
          for (const [n, x] of v.payload.members ?? []) parts.push(`${n}=${await this.key(x)}`);
          return `a:${v.type.key}{${parts.join(',')}}`;
        }
        let id = this.identities.get(v.payload);
        if (id === undefined) this.identities.set(v.payload, (id = this.next++));
        return `c:${id}`;
      }
    }
  }

  /** The comparer's method `name` of `arity` parameters, found on its static type. */
  private async comparerMethod(comparer: Operand, name: string, arity: number) {
    const type = comparer.type as TypeHandle;
    for (const level of await this.it.members.searchOrder(type)) {
      const all = [level, ...(await this.it.md.interfaces(level))];
      for (const t of all) {
        const m = (await this.it.md.members(t, name)).methods.find(
          (x) => !x.isStatic && x.parameters.length === arity,
        );
        if (m) return m;
      }
    }
    throw new CompileError('CS1503', `the comparer has no ${name} of ${arity} parameters`);
  }

  /**
   * Equality by a game IEqualityComparer<T> (StringComparer.OrdinalIgnoreCase...): its
   * GetHashCode buckets the values, its Equals decides within a bucket; invokes in the game.
   */
  async comparerKeyer(comparer: Operand): Promise<Keyer> {
    const hash = await this.comparerMethod(comparer, 'GetHashCode', 1);
    const equals = await this.comparerMethod(comparer, 'Equals', 2);
    const buckets = new Map<string, EvalValue[]>();
    const call = async (m: typeof hash, args: EvalValue[]) =>
      (await this.it.invoker.invokeOn(m, comparer, args, false)).result;
    return async (v) => {
      const h = v.kind === 'null' ? undefined : await call(hash, [v]);
      const key = h?.kind === 'number' ? `h:${String(h.value)}` : 'n';
      let reps = buckets.get(key);
      if (!reps) buckets.set(key, (reps = []));
      for (const [i, r] of reps.entries()) {
        const same = await call(equals, [r, v]);
        if (same.kind === 'bool' && same.value) return `${key}:${i}`;
      }
      reps.push(v);
      return `${key}:${reps.length - 1}`;
    };
  }

  /** Ordering by a game IComparer<T> (StringComparer.Ordinal...): its Compare, invoked. */
  async comparerOrder(comparer: Operand): Promise<Order> {
    const compare = await this.comparerMethod(comparer, 'Compare', 2);
    return async (a, b) => {
      const r = (await this.it.invoker.invokeOn(compare, comparer, [a, b], false)).result;
      const n = r.kind === 'number' ? Number(r.value) : 0;
      return n < 0 ? -1 : n > 0 ? 1 : 0;
    };
  }

  async equals(a: EvalValue, b: EvalValue): Promise<boolean> {
    return (await this.key(a)) === (await this.key(b));
  }

  /** Comparer<T>.Default: null first; numbers, chars, enums by value; strings by culture. */
  async compare(a: EvalValue, b: EvalValue): Promise<number> {
    if (a.kind === 'null' || b.kind === 'null')
      return a.kind === b.kind ? 0 : a.kind === 'null' ? -1 : 1;
    if (a.kind === 'number' && b.kind === 'number') return compareNumbers(a.value, b.value);
    if (a.kind === 'enum' && b.kind === 'enum') return compareNumbers(a.value, b.value);
    if (a.kind === 'bool' && b.kind === 'bool') return Number(a.value) - Number(b.value);
    if (a.kind === 'decimal' && b.kind === 'decimal')
      return decimalCompare(decimalFromBits(a.bits), decimalFromBits(b.bits));
    if (a.kind === 'string' && b.kind === 'string') {
      const c = collator.compare(await this.text(a), await this.text(b));
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    throw new UnsupportedError(
      'ordering or comparing game objects would call their CompareTo, which this evaluator does not: order by one of their fields or properties',
    );
  }

  async text(v: EvalValue & { kind: 'string' }): Promise<string> {
    return v.text ?? (await this.it.rt.game.stringText(v, 1 << 30)).text;
  }
}

/** Number.CompareTo: NaN below every number and equal to itself. */
export function compareNumbers(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A decimal's value without trailing zeros (1.0m equals 1.00m). */
function decimalKey(bits: DecimalBits): string {
  const d = decimalFromBits(bits);
  let { mantissa, scale } = d;
  while (scale > 0 && mantissa % 10n === 0n) {
    mantissa /= 10n;
    scale--;
  }
  return mantissa === 0n ? '0' : `${d.negative ? '-' : ''}${mantissa}e-${scale}`;
}
