// Method type inference (ECMA-334 §12.6.3, the common cases, without lambdas): the type
// arguments of a generic method from its arguments' types — bounds collected by matching each
// parameter type against its argument's (arrays, constructed types through bases and
// interfaces), then fixed to the bound every other converts to (§12.6.3.12).

import type { MethodDescriptor, TypeHandle } from '../runtime.js';
import { VOID } from '../values.js';
import type { Interpreter } from './interpreter.js';
import type { ArgInfo } from './overloads.js';

export class TypeInference {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  /** Method type arguments from the argument types (§12.6.3, without lambdas). */
  async infer(m: MethodDescriptor, args: readonly ArgInfo[]): Promise<TypeHandle[] | undefined> {
    const tparams = m.genericParameterTypes ?? [];
    if (tparams.length !== m.genericArity) return undefined;
    const bounds = tparams.map(() => [] as TypeHandle[]);
    const index = new Map(tparams.map((t, i) => [t.key, i]));
    const params = m.parameters;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const j = a.name
        ? params.findIndex((p) => p.name === a.name)
        : Math.min(i, params.length - 1);
      if (j < 0) return undefined;
      const p = params[j]!;
      if (a.op.type === 'null' || a.outVar) continue;
      let pt = p.type;
      if (p.isParams && i >= params.length - 1) {
        // expanded: an element argument infers from the element type
        const pd = await this.f.describe(pt);
        const ad = await this.f.describe(a.op.type);
        if (pd.elementType && !(ad.kind === 'array' && ad.rank === pd.rank)) pt = pd.elementType;
      }
      await this.unify(pt, a.op.type, index, bounds, 0);
    }
    const out: TypeHandle[] = [];
    for (const b of bounds) {
      const fixed = await this.fix(b);
      if (!fixed) return undefined;
      out.push(fixed);
    }
    return out;
  }

  private async unify(
    p: TypeHandle,
    a: TypeHandle,
    index: Map<string, number>,
    bounds: TypeHandle[][],
    depth: number,
  ): Promise<void> {
    if (depth > 8) return;
    const i = index.get(p.key);
    if (i !== undefined) {
      bounds[i]!.push(a);
      return;
    }
    const pd = await this.f.describe(p);
    if (pd.kind === 'array' && pd.elementType) {
      const ad = await this.f.describe(a);
      if (ad.kind === 'array' && ad.rank === pd.rank && ad.elementType)
        await this.unify(pd.elementType, ad.elementType, index, bounds, depth + 1);
      return;
    }
    if (!pd.genericDefinition || pd.typeArguments.length === 0) return;
    // the argument's type, a base or an interface constructed from the same definition
    const candidates = [
      ...(await this.f.chain(a)).map((d) => d.handle),
      ...(await this.it.md.interfaces(a)),
    ];
    for (const c of candidates) {
      const cd = await this.f.describe(c);
      if (cd.genericDefinition && this.f.same(cd.genericDefinition, pd.genericDefinition)) {
        for (let k = 0; k < pd.typeArguments.length; k++) {
          const pa = pd.typeArguments[k];
          const ca = cd.typeArguments[k];
          if (pa && ca) await this.unify(pa, ca, index, bounds, depth + 1);
        }
        return;
      }
    }
  }

  /** Fixing (§12.6.3.12): the bound every other bound converts to. */
  private async fix(bounds: TypeHandle[]): Promise<TypeHandle | undefined> {
    const unique = bounds.filter((b, i) => bounds.findIndex((c) => c.key === b.key) === i);
    if (unique.length <= 1) return unique[0];
    const fits: TypeHandle[] = [];
    for (const x of unique) {
      let all = true;
      for (const y of unique)
        if (!(await this.it.conversions.implicit({ type: y, value: VOID }, x))) all = false;
      if (all) fits.push(x);
    }
    return fits.length === 1 ? fits[0] : undefined;
  }
}
