// The better function member (ECMA-334 §12.6.4.3): among applicable candidates, the one whose
// every argument converts at least as well (§12.6.4.4 better conversion from expression,
// §12.6.4.6 better conversion target) and one better, then C#'s tie-breakers (non-generic,
// normal form, more declared parameters, no defaults used).

import type { TypeHandle } from '../runtime.js';
import { VOID } from '../values.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { ArgInfo, Candidate } from './overloads.js';
import { primitiveKindOfName } from './primitives.js';

export class BetterMember {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  /** §12.6.4.3: the candidate better than every other, if one is. */
  async best(cs: Candidate[], args: readonly ArgInfo[]): Promise<Candidate | undefined> {
    if (cs.length === 1) return cs[0];
    for (const c of cs) {
      let wins = true;
      for (const d of cs) {
        if (d === c) continue;
        if (!(await this.better(c, d, args))) {
          wins = false;
          break;
        }
      }
      if (wins) return c;
    }
    return undefined;
  }

  private async better(p: Candidate, q: Candidate, args: readonly ArgInfo[]): Promise<boolean> {
    let anyBetter = false;
    let allSame = true;
    for (let i = 0; i < args.length; i++) {
      const tp = p.targets[i]!;
      const tq = q.targets[i]!;
      if (!this.f.same(tp, tq)) allSame = false;
      const cmp = await this.compareConversion(args[i]!.op, tp, tq);
      if (cmp < 0) return false;
      if (cmp > 0) anyBetter = true;
    }
    if (anyBetter) return true;
    if (!allSame) return false;
    // tie-breakers (§12.6.4.3)
    if (!p.generic && q.generic) return true;
    if (!p.expanded && q.expanded) return true;
    if (p.expanded && q.expanded && p.method.parameters.length > q.method.parameters.length)
      return true;
    if (!p.usesDefaults && q.usesDefaults) return true;
    return false;
  }

  /** §12.6.4.4 better conversion from expression: 1 when to t1 is better, -1 when to t2. */
  private async compareConversion(e: Operand, t1: TypeHandle, t2: TypeHandle): Promise<number> {
    if (this.f.same(t1, t2)) return 0;
    if (e.type !== 'null') {
      if (this.f.same(e.type, t1)) return 1;
      if (this.f.same(e.type, t2)) return -1;
    }
    if (await this.betterTarget(t1, t2)) return 1;
    if (await this.betterTarget(t2, t1)) return -1;
    return 0;
  }

  /** §12.6.4.6 better conversion target. */
  private async betterTarget(t1: TypeHandle, t2: TypeHandle): Promise<boolean> {
    const c12 = await this.it.conversions.implicit({ type: t1, value: VOID }, t2);
    const c21 = await this.it.conversions.implicit({ type: t2, value: VOID }, t1);
    if (c12 && !c21) return true;
    const [k1, k2] = [
      primitiveKindOfName(await this.f.fullName(t1)),
      primitiveKindOfName(await this.f.fullName(t2)),
    ];
    const signed: Record<string, string[]> = {
      sbyte: ['byte', 'ushort', 'uint', 'ulong'],
      short: ['ushort', 'uint', 'ulong'],
      int: ['uint', 'ulong'],
      long: ['ulong'],
    };
    return !!k1 && !!k2 && (signed[k1]?.includes(k2) ?? false);
  }
}
