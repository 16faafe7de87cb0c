// Enumerable's immediate operators: they enumerate their source when called (quantifiers,
// element operators, aggregates) and materialize it (ToList, ToArray, ToDictionary,
// ToHashSet). Exceptions carry Mono's System.Core messages. ToList and ToArray make real game
// objects (one array, its elements written, and for a list one `new List<T>(array)`), so the
// result is typed, formatted and usable as C#'s is.

import { formatValue } from '../../format/format-value.js';
import { isClientType } from '../client-types.js';
import type { TypeHandle } from '../../runtime.js';
import { VOID, bool, num, type EvalValue } from '../../values.js';
import { CompileError, ManagedException, UnsupportedError } from '../errors.js';
import type { Operand } from '../operand.js';
import type { Maybe } from '../maybe.js';
import { eachOf } from '../sequences.js';
import type { SType } from '../type-facts.js';
import {
  averaging,
  extremum,
  NO_ELEMENTS,
  summing,
  sumOverload,
  type AggregateKind,
} from './aggregates.js';
import type { BoundFn, Linq, LinqCall } from './enumerable.js';
import { argsOf, lambdaArity, valueOf } from './enumerable.js';

export const TERMINAL_OPERATORS = new Set([
  'Count',
  'LongCount',
  'Any',
  'All',
  'Contains',
  'First',
  'FirstOrDefault',
  'Last',
  'LastOrDefault',
  'Single',
  'SingleOrDefault',
  'ElementAt',
  'ElementAtOrDefault',
  'Min',
  'Max',
  'Sum',
  'Average',
  'Aggregate',
  'ToList',
  'ToArray',
  'ToDictionary',
  'ToHashSet',
  'SequenceEqual',
]);

const invalid = (message: string): ManagedException =>
  new ManagedException('System.InvalidOperationException', message);

export class Terminal {
  constructor(private readonly linq: Linq) {}

  private get it() {
    return this.linq.it;
  }

  private async all(c: LinqCall): Promise<EvalValue[]> {
    const out: EvalValue[] = [];
    await eachOf(c.source, (x) => {
      out.push(x);
      return false;
    });
    return out;
  }

  async call(c: LinqCall, _receiver: Operand): Promise<Operand> {
    const it = this.it;
    const T = c.elementType;
    const boolType = await it.wk.keyword('bool');
    const dry = it.dry;
    const truth = (v: EvalValue) => v.kind === 'bool' && v.value;
    const pred = async (i: number): Promise<BoundFn | undefined> =>
      c.args[i] ? this.linq.predicate(c.args[i], [T]) : undefined;
    switch (c.name) {
      case 'Count':
      case 'LongCount': {
        this.linq.arity(c, 0, 1);
        const p = await pred(0);
        const type = await it.wk.keyword(c.name === 'Count' ? 'int' : 'long');
        if (dry) return { type, value: VOID };
        let n = 0;
        const test = p && (p.call.fast ?? p.call);
        await eachOf(c.source, (x) => {
          if (!test) {
            n++;
            return false;
          }
          const hit = test([x]);
          if (hit instanceof Promise)
            return hit.then((v) => {
              if (truth(v)) n++;
              return false;
            });
          if (truth(hit)) n++;
          return false;
        });
        return { type, value: c.name === 'Count' ? num('int', n) : num('long', BigInt(n)) };
      }
      case 'Any':
      case 'All': {
        this.linq.arity(c, ...(c.name === 'Any' ? [0, 1] : [1]));
        const p = await pred(0);
        if (dry) return { type: boolType, value: VOID };
        const any = c.name === 'Any';
        for await (const x of c.source.iterate()) {
          const hit = !p || truth(await p.call([x]));
          if (any && hit) return { type: boolType, value: bool(true) };
          if (!any && !hit) return { type: boolType, value: bool(false) };
        }
        return { type: boolType, value: bool(!any) };
      }
      case 'Contains': {
        this.linq.arity(c, 1, 2);
        const x = await it.conversions.implicitly(await it.expr(valueOf(c.args[0]!)), T);
        const keyer = await this.linq.keyer(c.args[1]);
        if (dry) return { type: boolType, value: VOID };
        const k = await keyer(x.value);
        for await (const y of c.source.iterate())
          if ((await keyer(y)) === k) return { type: boolType, value: bool(true) };
        return { type: boolType, value: bool(false) };
      }
      case 'First':
      case 'FirstOrDefault':
      case 'Last':
      case 'LastOrDefault':
      case 'Single':
      case 'SingleOrDefault':
        return this.element(c, await pred(0));
      case 'ElementAt':
      case 'ElementAtOrDefault': {
        this.linq.arity(c, 1);
        const index = await this.linq.intArg(c.args[0]!);
        if (dry) return { type: T, value: VOID };
        let i = 0;
        if (index >= 0)
          for await (const x of c.source.iterate()) if (i++ === index) return { type: T, value: x };
        if (c.name === 'ElementAtOrDefault') return it.defaults.defaultValue(T);
        throw new ManagedException(
          'System.ArgumentOutOfRangeException',
          'Specified argument was out of the range of valid values.\nParameter name: index',
        );
      }
      case 'Sum':
      case 'Average':
        return this.sumOrAverage(c);
      case 'Min':
      case 'Max':
        return this.minMax(c);
      case 'Aggregate':
        return this.aggregate(c);
      case 'ToList':
      case 'ToArray':
      case 'ToHashSet':
        return this.materialize(c);
      case 'ToDictionary':
        return this.toDictionary(c);
      case 'SequenceEqual': {
        this.linq.arity(c, 1);
        const second = await this.linq.sequenceArg(c.args[0]!);
        if (dry) return { type: boolType, value: VOID };
        const a = await this.all(c);
        const b: EvalValue[] = [];
        for await (const y of second.source.iterate()) b.push(y);
        let same = a.length === b.length;
        for (let i = 0; same && i < a.length; i++)
          same = (await this.linq.keys.key(a[i]!)) === (await this.linq.keys.key(b[i]!));
        return { type: boolType, value: bool(same) };
      }
    }
    throw new Error(`LINQ operator ${c.name} has no implementation`);
  }

  private async element(c: LinqCall, p: BoundFn | undefined): Promise<Operand> {
    this.linq.arity(c, 0, 1);
    const T = c.elementType;
    if (this.it.dry) return { type: T, value: VOID };
    const orDefault = c.name.endsWith('OrDefault');
    const kind = c.name.replace('OrDefault', '');
    let found: EvalValue | undefined;
    for await (const x of c.source.iterate()) {
      if (p) {
        const r = await p.call([x]);
        if (r.kind !== 'bool' || !r.value) continue;
      }
      if (kind === 'First') return { type: T, value: x };
      if (kind === 'Single' && found)
        throw invalid(
          p
            ? 'Sequence contains more than one matching element'
            : 'Sequence contains more than one element',
        );
      found = x;
    }
    if (found) return { type: T, value: found };
    if (orDefault) return this.it.defaults.defaultValue(T);
    throw invalid(p ? 'Sequence contains no matching element' : 'Sequence contains no elements');
  }

  /** The numeric kind of an aggregate's values, and whether they are nullable. */
  private async numeric(t: SType): Promise<{ kind: AggregateKind; nullable: boolean } | undefined> {
    if (t === 'null') return undefined;
    const under = await this.it.facts.nullableUnderlying(t);
    const p = await this.it.facts.primitive(under ?? t);
    if (!p || p === 'bool') return undefined;
    const exact = ['int', 'long', 'float', 'double', 'decimal'].includes(p);
    return exact ? { kind: p as AggregateKind, nullable: !!under } : undefined;
  }

  private async selected(c: LinqCall, selector: BoundFn | undefined): Promise<EvalValue[]> {
    const out: EvalValue[] = [];
    await this.eachSelected(c, selector, (v) => void out.push(v));
    return out;
  }

  /** Each element (through `selector`, when given) to `visit`, in order, as it is enumerated. */
  private eachSelected(
    c: LinqCall,
    selector: BoundFn | undefined,
    visit: (v: EvalValue) => Maybe<void>,
  ): Promise<void> {
    const call = selector && (selector.call.fast ?? selector.call);
    const args = argsOf(false);
    const visited = (v: EvalValue): Maybe<boolean> => {
      const r = visit(v);
      return r instanceof Promise ? r.then(() => false) : false;
    };
    return eachOf(c.source, (x) => {
      if (!call) return visited(x);
      const v = call(args(x));
      return v instanceof Promise ? v.then(visited) : visited(v);
    });
  }

  private async sumOrAverage(c: LinqCall): Promise<Operand> {
    this.linq.arity(c, 0, 1);
    const selector = c.args[0] ? await this.linq.fn(c.args[0], [c.elementType]) : undefined;
    let valueType: SType = selector ? selector.type : c.elementType;
    let n = await this.numeric(valueType);
    if (!n && selector && valueType !== 'null') {
      // a selector's other numeric types convert to the best overload's (short -> int...)
      const under = await this.it.facts.nullableUnderlying(valueType);
      const p = await this.it.facts.primitive(under ?? valueType);
      const best = p ? sumOverload(p) : undefined;
      if (best) {
        n = { kind: best, nullable: !!under };
        const bt = await this.it.wk.numeric(best);
        valueType = under ? await this.it.types.nullableOf(bt) : bt;
      }
    }
    if (!n && selector)
      // no Sum/Average overload takes it: C# reports the lambda's body against Func<T, int>
      throw new CompileError(
        'CS0029',
        `cannot implicitly convert type '${await this.it.facts.name(valueType)}' to 'int'`,
        c.args[0]!.span,
      );
    if (!n)
      throw new CompileError(
        'CS1929',
        `'${c.name}' needs numbers (int, long, float, double, decimal or their nullables), not '${await this.it.facts.name(valueType)}'`,
        c.e.span,
      );
    const kindType = await this.it.wk.numeric(n.kind);
    let type: TypeHandle;
    if (c.name === 'Sum') type = valueType as TypeHandle;
    else {
      const avgKind = n.kind === 'int' || n.kind === 'long' ? 'double' : n.kind;
      const t = await this.it.wk.numeric(avgKind);
      type = n.nullable ? await this.it.types.nullableOf(t) : t;
    }
    if (this.it.dry) return { type, value: VOID };
    const acc = c.name === 'Sum' ? summing(n.kind) : averaging(n.kind, n.nullable);
    let add = (v: EvalValue): Maybe<void> => acc.add(v);
    if (selector && !this.it.facts.same(selector.type, valueType)) {
      const from = selector.type;
      const to = n.nullable ? await this.it.types.nullableOf(kindType) : kindType;
      add = async (v) =>
        acc.add((await this.it.conversions.implicitly({ type: from, value: v }, to)).value);
    }
    await this.eachSelected(c, selector, add);
    return { type, value: acc.result() };
  }

  private async minMax(c: LinqCall): Promise<Operand> {
    this.linq.arity(c, 0, 1);
    const selector = c.args[0] ? await this.linq.fn(c.args[0], [c.elementType]) : undefined;
    const type = selector ? selector.type : c.elementType;
    if (type === 'null') throw new CompileError('CS0411', 'Min/Max of null literals', c.e.span);
    if (this.it.dry) return { type, value: VOID };
    const values = await this.selected(c, selector);
    const max = c.name === 'Max';
    const n = await this.numeric(type);
    if (n) {
      return { type, value: extremum(values, n.kind, max, n.nullable) };
    }
    // Min<T>: Comparer<T>.Default; a reference type's (or nullable's) nulls are skipped
    const nullable =
      !(await this.it.facts.isValueType(type)) || !!(await this.it.facts.nullableUnderlying(type));
    let best: EvalValue | undefined;
    for (const v of values) {
      if (nullable && v.kind === 'null') continue;
      if (!best) {
        best = v;
        continue;
      }
      const r = await this.linq.keys.compare(v, best);
      if (max ? r > 0 : r < 0) best = v;
    }
    if (best) return { type, value: best };
    if (nullable) return { type, value: { kind: 'null' } };
    throw NO_ELEMENTS();
  }

  private async aggregate(c: LinqCall): Promise<Operand> {
    this.linq.arity(c, 1, 2, 3);
    const T = c.elementType;
    if (c.args.length === 1) {
      const f = await this.linq.fn(c.args[0]!, [T, T], T);
      if (this.it.dry) return { type: T, value: VOID };
      let acc: EvalValue | undefined;
      for await (const x of c.source.iterate())
        acc = acc === undefined ? x : await f.call([acc, x]);
      if (acc === undefined) throw NO_ELEMENTS();
      return { type: T, value: acc };
    }
    const seed = await this.it.expr(valueOf(c.args[0]!));
    const A = this.linq.concrete(seed.type);
    const seedValue = (await this.it.conversions.implicitly(seed, A)).value;
    const f = await this.linq.fn(c.args[1]!, [A, T], A);
    const result = c.args[2] ? await this.linq.fn(c.args[2], [A]) : undefined;
    const type = result ? result.type : A;
    if (this.it.dry) return { type, value: VOID };
    let acc = seedValue;
    for await (const x of c.source.iterate()) acc = await f.call([acc, x]);
    return { type, value: result ? await result.call([acc]) : acc };
  }

  private async materialize(c: LinqCall): Promise<Operand> {
    this.linq.arity(c, 0);
    const T = c.elementType;
    const it = this.it;
    if (isClientType(T)) {
      // anonymous objects stay in the evaluator: a client array or list of them
      const type =
        c.name === 'ToArray'
          ? await it.md.arrayOf(T, 1)
          : await this.linq.generic(
              c.name === 'ToList'
                ? 'System.Collections.Generic.List`1'
                : 'System.Collections.Generic.HashSet`1',
              [T],
            );
      if (it.dry) return { type, value: VOID };
      let items = await this.all(c);
      if (c.name === 'ToHashSet') {
        const seen = new Set<string>();
        const unique: EvalValue[] = [];
        for (const x of items) {
          const k = await this.linq.keys.key(x);
          if (!seen.has(k)) unique.push(x);
          seen.add(k);
        }
        items = unique;
      }
      return { type, value: it.clientValues.fixedSequence(type, T, items) };
    }
    if (c.name === 'ToArray') {
      const type = await it.md.arrayOf(T, 1);
      if (it.dry) return { type, value: VOID };
      return { type, value: await it.arrays.newArrayOf(T, await this.all(c)) };
    }
    const definition =
      c.name === 'ToList'
        ? 'System.Collections.Generic.List`1'
        : 'System.Collections.Generic.HashSet`1';
    const type = await this.linq.generic(definition, [T]);
    if (it.dry) return { type, value: VOID };
    const array = await it.arrays.newArrayOf(T, await this.all(c));
    return { type, value: await this.construct(type, T, array) };
  }

  /** `new C<T>(IEnumerable<T> items)` in the game, over an array made here. */
  private async construct(type: TypeHandle, T: TypeHandle, array: EvalValue): Promise<EvalValue> {
    const enumerable = await this.linq.enumerableOf(T);
    const ctors = (await this.it.md.members(type, '.ctor')).methods;
    const ctor = ctors.find(
      (m) => m.parameters.length === 1 && this.it.facts.same(m.parameters[0]!.type, enumerable),
    );
    if (!ctor)
      throw new UnsupportedError(
        `the game's ${await this.it.facts.name(type)} has no constructor from IEnumerable<T>`,
      );
    return (
      await this.it.rt.game.invoke(ctor, undefined, [array], {
        virtual: false,
        outThis: false,
        outArgs: false,
      })
    ).result;
  }

  /** A key as its ToString() writes it, for Dictionary's duplicate-key message. */
  private async keyText(k: EvalValue): Promise<string> {
    if (k.kind === 'string') return this.linq.keys.text(k);
    if (k.kind === 'number' && k.type === 'char') return String.fromCharCode(Number(k.value));
    if (k.kind === 'number' || k.kind === 'enum') return String(k.value);
    if (k.kind === 'bool') return k.value ? 'True' : 'False';
    return (await formatValue(this.it.rt, k)).replace(/^"|"$/g, '');
  }

  private async toDictionary(c: LinqCall): Promise<Operand> {
    this.linq.arity(c, 1, 2);
    const T = c.elementType;
    const key = await this.linq.fn(c.args[0]!, [T]);
    const element =
      c.args[1] && lambdaArity(c.args[1]) !== -1 ? await this.linq.fn(c.args[1], [T]) : undefined;
    if (c.args[1] && !element)
      throw new UnsupportedError('ToDictionary with a comparer is not supported', c.args[1].span);
    const K = this.linq.concrete(key.type);
    const V = element ? this.linq.concrete(element.type) : T;
    const type = await this.linq.generic('System.Collections.Generic.Dictionary`2', [K, V]);
    if (this.it.dry) return { type, value: VOID };
    const ctor = (await this.it.md.members(type, '.ctor')).methods.find(
      (m) => m.parameters.length === 0,
    );
    const add = (await this.it.md.members(type, 'Add')).methods.find(
      (m) => m.parameters.length === 2,
    );
    if (!ctor || !add)
      throw new UnsupportedError(`the game's ${await this.it.facts.name(type)} cannot be made`);
    const pairs: [EvalValue, EvalValue][] = [];
    const seen = new Set<string>();
    for await (const x of c.source.iterate()) {
      const k = await key.call([x]);
      if (k.kind === 'null')
        throw new ManagedException(
          'System.ArgumentNullException',
          'Value cannot be null.\nParameter name: key',
        );
      const text = await this.linq.keys.key(k);
      if (seen.has(text))
        throw new ManagedException(
          'System.ArgumentException',
          `An item with the same key has already been added. Key: ${await this.keyText(k)}`,
        );
      seen.add(text);
      pairs.push([k, element ? await element.call([x]) : x]);
    }
    const game = this.it.rt.game;
    const dict = (
      await game.invoke(ctor, undefined, [], { virtual: false, outThis: false, outArgs: false })
    ).result;
    const boxIf = async (v: EvalValue, t: TypeHandle, p: TypeHandle) =>
      (await this.it.conversions.implicitly({ type: t, value: v }, p)).value;
    for (const [k, v] of pairs)
      await this.it.invoker.invokeOn(
        add,
        { type, value: dict },
        [await boxIf(k, K, add.parameters[0]!.type), await boxIf(v, V, add.parameters[1]!.type)],
        false,
      );
    return { type, value: dict };
  }
}
