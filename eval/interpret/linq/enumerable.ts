// System.Linq.Enumerable in extension-method form, client-side (issue 17): `xs.Where(...)` on
// any game array, List<T> or IEnumerable<T> (read as foreach reads it: in bulk where the
// layout allows, else through the game's enumerator) or on a sequence made here. C#'s rules:
// an instance method of the receiver's type with that name and arity wins over the extension
// method; the static types are Enumerable's (IEnumerable<T>, IOrderedEnumerable<T>,
// IGrouping<K, T>, List<T>...); execution is deferred (a query is a recipe that each
// enumeration runs again, over the source as it is then, running its lambdas when and as
// often as .NET's iterators would). Immediate operators are in terminal.ts.

import type * as A from '../../syntax/index.js';
import type { TypeHandle } from '../../runtime.js';
import { NULL, VOID, num, type EvalValue } from '../../values.js';
import type { ClientSequence, SortKey } from '../client-values.js';
import { CompileError, ManagedException, UnsupportedError } from '../errors.js';
import type { ClientFunction } from '../functions.js';
import type { Interpreter } from '../interpreter.js';
import type { Operand, Resolved } from '../operand.js';
import { END, pullOf, type Pull, type SequenceSource } from '../sequences.js';
import type { Maybe } from '../maybe.js';
import type { SType } from '../type-facts.js';
import { Keys, type Keyer } from './keys.js';
import { rowChain, rowPull, type ScalarStage } from './row-pull.js';
import { Terminal, TERMINAL_OPERATORS } from './terminal.js';

const DEFERRED_OPERATORS = new Set([
  'Where',
  'Select',
  'SelectMany',
  'OrderBy',
  'OrderByDescending',
  'ThenBy',
  'ThenByDescending',
  'GroupBy',
  'Join',
  'GroupJoin',
  'Zip',
  'Distinct',
  'Take',
  'Skip',
  'TakeWhile',
  'SkipWhile',
  'Reverse',
  'Concat',
  'Union',
  'Intersect',
  'Except',
  'DefaultIfEmpty',
  'Cast',
  'OfType',
  'AsEnumerable',
]);

/** A bound function argument: its return type and, when running, its function. */
export interface BoundFn {
  readonly type: SType;
  readonly call: ClientFunction;
}

/** One call of an operator: its receiver, arguments and node. */
export interface LinqCall {
  readonly name: string;
  readonly e: A.Invocation;
  readonly args: readonly A.Argument[];
  readonly typeArgs: readonly TypeHandle[];
  readonly source: SequenceSource;
  readonly elementType: TypeHandle;
}

const argumentNull = (name: string): ManagedException =>
  new ManagedException(
    'System.ArgumentNullException',
    `Value cannot be null.\nParameter name: ${name}`,
  );

export class Linq {
  readonly keys: Keys;
  readonly terminal: Terminal;

  constructor(readonly it: Interpreter) {
    this.keys = new Keys(it);
    this.terminal = new Terminal(this);
  }

  private get facts() {
    return this.it.facts;
  }

  // ---------------------------------------------------------------- types

  async enumerableOf(t: SType): Promise<TypeHandle> {
    return this.generic('System.Collections.Generic.IEnumerable`1', [this.concrete(t)]);
  }

  async generic(definition: string, args: readonly TypeHandle[]): Promise<TypeHandle> {
    const def = await this.it.md.findType(definition);
    if (!def)
      throw new CompileError(
        'CS0246',
        `the game has not loaded ${definition.replace(/`\d+$/, '')} (System.Core), which this query's type needs`,
      );
    return this.it.md.constructGeneric(def, args);
  }

  /** The type a `null` literal's type stands for in a type argument: object. */
  concrete(t: SType): TypeHandle {
    return t === 'null' ? this.objectType! : t;
  }

  private objectType: TypeHandle | undefined;

  /** T of the IEnumerable<T> a type is (an array, string, List<T>, a client sequence...). */
  async elementTypeOf(type: SType): Promise<TypeHandle | undefined> {
    if (type === 'null') return undefined;
    const d = await this.facts.describe(type);
    if (d.kind === 'array' && d.rank === 1) return d.elementType;
    if (await this.facts.isString(type)) return this.it.wk.keyword('char');
    const candidates = [type, ...(await this.it.md.interfaces(type))];
    for (const c of candidates) {
      const cd = await this.facts.describe(c);
      if (!cd.genericDefinition) continue;
      const def = await this.facts.describe(cd.genericDefinition);
      if (def.fullName === 'System.Collections.Generic.IEnumerable`1') return cd.typeArguments[0];
    }
    return undefined;
  }

  // ---------------------------------------------------------------- entry

  /** A LINQ call, or undefined when `e` is not one (the normal invocation then runs). */
  async invocation(e: A.Invocation): Promise<Operand | undefined> {
    const t = e.target;
    if (t.kind !== 'MemberAccess' || t.conditional) return undefined;
    const name = t.name.name;
    const linq = this.it.options.usings.includes('System.Linq');
    this.objectType ??= await this.it.wk.keyword('object');
    if (['Range', 'Repeat', 'Empty'].includes(name) && this.namesEnumerable(t.target, linq))
      return this.staticCall(name, e, t);
    // extension methods are in scope by a using directive, as in C# (System.Linq is a default)
    if (!linq) return undefined;
    if (!DEFERRED_OPERATORS.has(name) && !TERMINAL_OPERATORS.has(name)) return undefined;
    // the receiver's static type decides, found without running it
    const probe = await this.it.inDry(() => this.it.resolveInChain(t.target));
    if (probe.k !== 'value' || probe.op.type === 'null') return undefined;
    if (await this.hasInstanceMethod(probe.op.type, name, e.arguments.length, t.typeArgs.length))
      return undefined;
    let elementType = await this.elementTypeOf(probe.op.type);
    if (!elementType) {
      if (name !== 'Cast' && name !== 'OfType') return undefined;
      if (!(await this.implementsNonGeneric(probe.op.type))) return undefined;
      elementType = this.objectType;
    }
    const receiver = await this.it.asValue(await this.it.resolveInChain(t.target), t.target);
    if (!this.it.dry && receiver.value.kind === 'null') throw argumentNull('source');
    const typeArgs: TypeHandle[] = [];
    for (const a of t.typeArgs) typeArgs.push(await this.it.types.type(a));
    const source = this.it.dry
      ? { elementType, iterate: () => none() }
      : await this.it.sequences.source(receiver, t.target.span);
    const call: LinqCall = { name, e, args: e.arguments, typeArgs, source, elementType };
    for (const a of e.arguments)
      if (a.name || a.modifier !== 'none')
        throw new CompileError('CS1739', `${name}(...) takes plain arguments`, a.span);
    if (TERMINAL_OPERATORS.has(name)) return this.terminal.call(call, receiver);
    return this.deferred(call, receiver);
  }

  private namesEnumerable(target: A.Expression, linq: boolean): boolean {
    if (target.kind === 'Name')
      return linq && target.name === 'Enumerable' && !this.it.locals.has('Enumerable');
    return (
      target.kind === 'MemberAccess' &&
      target.name.name === 'Enumerable' &&
      target.target.kind === 'MemberAccess' &&
      target.target.name.name === 'Linq' &&
      target.target.target.kind === 'Name' &&
      target.target.target.name === 'System'
    );
  }

  private async hasInstanceMethod(
    type: TypeHandle,
    name: string,
    arity: number,
    typeArity: number,
  ): Promise<boolean> {
    for (const level of await this.it.members.searchOrder(type)) {
      const ms = (await this.it.md.members(level, name)).methods;
      const fits = (m: (typeof ms)[number]) =>
        !m.isStatic &&
        m.isPublic &&
        m.parameters.length === arity &&
        (typeArity === 0 || m.genericArity === typeArity);
      if (ms.some(fits)) return true;
    }
    return false;
  }

  private async implementsNonGeneric(type: TypeHandle): Promise<boolean> {
    const all = [type, ...(await this.it.md.interfaces(type))];
    for (const c of all)
      if ((await this.facts.fullName(c)) === 'System.Collections.IEnumerable') return true;
    return false;
  }

  // ---------------------------------------------------------------- arguments

  arg(c: LinqCall, i: number, what: string): A.Argument {
    const a = c.args[i];
    if (!a)
      throw new CompileError(
        'CS1501',
        `no overload of '${c.name}' takes ${c.args.length} argument${c.args.length === 1 ? '' : 's'}: it needs ${what}`,
        c.e.span,
      );
    return a;
  }

  arity(c: LinqCall, ...allowed: number[]): void {
    if (!allowed.includes(c.args.length))
      throw new CompileError(
        'CS1501',
        `no overload for method '${c.name}' takes ${c.args.length} argument${c.args.length === 1 ? '' : 's'}`,
        c.e.span,
      );
  }

  /** A function argument: a lambda bound for `params`, or a delegate value of that shape. */
  async fn(
    a: A.Argument,
    params: readonly TypeHandle[],
    ret: TypeHandle | 'infer' = 'infer',
    /** The parameter's name in Enumerable (for ArgumentNullException). */
    param = 'selector',
  ): Promise<BoundFn> {
    let v = valueOf(a);
    while (v.kind === 'Parenthesized') v = v.expression;
    if (v.kind === 'Lambda') {
      const b = await this.it.functions.bindLambda(v, params, ret);
      if (b.returnType === 'void')
        throw new CompileError(
          'CS1662',
          'the lambda returns no value, and this operator needs one',
          v.span,
        );
      return { type: b.returnType, call: b.call ?? noCall };
    }
    const r = await this.it.resolve(v);
    if (r.k === 'methods') return this.methodGroup(a, r, params);
    const op = await this.it.asValue(r, v);
    const sig = await this.it.functions.signature(op.type);
    if (!sig || sig.parameters.length !== params.length || !sig.returnType)
      throw new CompileError(
        'CS1503',
        `the argument must be a function of ${params.length} parameter${params.length === 1 ? '' : 's'} that returns a value`,
        a.span,
      );
    const invoke = (await this.it.md.members(op.type as TypeHandle, 'Invoke')).methods[0]!;
    // Enumerable checks its arguments when called, before anything is enumerated
    if (!this.it.dry && op.value.kind === 'null') throw argumentNull(param);
    const call: ClientFunction = async (args) =>
      (await this.it.invoker.invokeOn(invoke, op, args, false)).result;
    return { type: sig.returnType, call };
  }

  /** A method group (`char.IsDigit`, `x.Equals`) converted to a function of `params`. */
  private async methodGroup(
    a: A.Argument,
    group: Extract<Resolved, { k: 'methods' }>,
    params: readonly TypeHandle[],
  ): Promise<BoundFn> {
    const args = params.map((type) => ({
      op: { type, value: VOID },
      name: undefined,
      modifier: 'none' as const,
      outVar: false,
      span: a.span,
    }));
    const c = await this.it.calls.overloads.resolve(
      group.methods,
      args,
      group.typeArgs,
      group.name,
      a.span,
    );
    if (!c.method.returnType)
      throw new CompileError(
        'CS0407',
        `'${group.name}' returns void: it cannot be a selector`,
        a.span,
      );
    const receiver = c.method.isStatic ? undefined : group.receiver;
    const call: ClientFunction = async (values) => {
      const converted = await this.it.calls.argumentValues(
        c,
        values.map((value, i) => ({ ...args[i]!, op: { type: params[i]!, value } })),
      );
      return (await this.it.invoker.invokeOn(c.method, receiver, converted, false)).result;
    };
    return { type: c.method.returnType, call };
  }

  async predicate(a: A.Argument, params: readonly TypeHandle[]): Promise<BoundFn> {
    return this.fn(a, params, await this.it.wk.keyword('bool'), 'predicate');
  }

  /** Whether an argument is a delegate value or a method group (not a comparer). */
  private async isFunction(a: A.Argument): Promise<boolean> {
    const r = await this.it.inDry(() => this.it.resolve(valueOf(a)));
    if (r.k === 'methods') return true;
    return r.k === 'value' && (await this.facts.isDelegate(r.op.type));
  }

  /** A sequence argument (Concat, Zip, Join's inner...): its source and element type. */
  async sequenceArg(a: A.Argument): Promise<{ source: SequenceSource; elementType: TypeHandle }> {
    const op = await this.it.expr(valueOf(a));
    const elementType = await this.elementTypeOf(op.type);
    if (!elementType)
      throw new CompileError(
        'CS1503',
        `the argument must be a sequence (an IEnumerable<T>), not '${await this.facts.name(op.type)}'`,
        a.span,
      );
    if (this.it.dry) return { source: { elementType, iterate: () => none() }, elementType };
    if (op.value.kind === 'null') throw argumentNull('second');
    return { source: await this.it.sequences.source(op, a.span), elementType };
  }

  async intArg(a: A.Argument): Promise<number> {
    const op = await this.it.conversions.implicitly(
      await this.it.expr(valueOf(a)),
      await this.it.wk.keyword('int'),
      'the count',
    );
    return this.it.dry ? 0 : Number((op.value as { value: number }).value);
  }

  /** A sequence operand of static type IEnumerable<T> (or `type`), deferred. */
  async make(
    elementType: SType,
    iterate: () => AsyncGenerator<EvalValue, void, undefined>,
    type?: TypeHandle,
    extra: Partial<Pick<ClientSequence, 'ordering' | 'groupKey' | 'pull' | 'rows'>> = {},
  ): Promise<Operand> {
    const t = type ?? (await this.enumerableOf(elementType));
    if (this.it.dry) return { type: t, value: VOID };
    return { type: t, value: this.it.clientValues.sequence(t, elementType, iterate, extra) };
  }

  // ---------------------------------------------------------------- deferred operators

  private async deferred(c: LinqCall, receiver: Operand): Promise<Operand> {
    const T = c.elementType;
    const src = c.source;
    const int = await this.it.wk.keyword('int');
    const truth = (v: EvalValue) => v.kind === 'bool' && v.value;
    switch (c.name) {
      case 'AsEnumerable': {
        this.arity(c, 0);
        // Enumerable.AsEnumerable returns its source itself, typed IEnumerable<T>
        const type = await this.enumerableOf(T);
        if (this.it.dry || receiver.value.kind === 'struct')
          return this.make(T, () => src.iterate());
        return { type, value: receiver.value };
      }
      case 'Where': {
        this.arity(c, 1);
        const a = this.arg(c, 0, 'a predicate');
        const indexed = lambdaArity(a) === 2;
        const f = await this.predicate(a, indexed ? [T, int] : [T]);
        const rows =
          indexed || this.it.options.interpretOnly
            ? undefined
            : rowChain(src, { op: 'where', fn: f, span: a.span });
        return this.make(
          T,
          async function* () {
            let i = 0;
            for await (const x of src.iterate())
              if (truth(await f.call(indexed ? [x, num('int', i++)] : [x]))) yield x;
          },
          undefined,
          rows
            ? { pull: () => rowPull(rows, this.it, scalarStage), rows }
            : { pull: () => wherePull(src, f, indexed) },
        );
      }
      case 'Select': {
        this.arity(c, 1);
        const a = this.arg(c, 0, 'a selector');
        const indexed = lambdaArity(a) === 2;
        const f = await this.fn(a, indexed ? [T, int] : [T]);
        const rows =
          indexed || this.it.options.interpretOnly
            ? undefined
            : rowChain(src, { op: 'select', fn: f, span: a.span });
        return this.make(
          f.type,
          async function* () {
            let i = 0;
            for await (const x of src.iterate())
              yield await f.call(indexed ? [x, num('int', i++)] : [x]);
          },
          undefined,
          rows
            ? { pull: () => rowPull(rows, this.it, scalarStage), rows }
            : { pull: () => selectPull(src, f, indexed) },
        );
      }
      case 'SelectMany':
        return this.selectMany(c, int);
      case 'OrderBy':
      case 'OrderByDescending':
      case 'ThenBy':
      case 'ThenByDescending':
        return this.orderBy(c, receiver);
      case 'GroupBy':
        return this.groupBy(c);
      case 'Join':
      case 'GroupJoin':
        return this.join(c);
      case 'Zip': {
        this.arity(c, 2);
        const second = await this.sequenceArg(this.arg(c, 0, 'a second sequence'));
        const f = await this.fn(this.arg(c, 1, 'a result selector'), [T, second.elementType]);
        return this.make(f.type, async function* () {
          const other = second.source.iterate();
          try {
            for await (const x of src.iterate()) {
              const y = await other.next();
              if (y.done) return;
              yield await f.call([x, y.value]);
            }
          } finally {
            await other.return(undefined);
          }
        });
      }
      case 'Distinct': {
        this.arity(c, 0, 1);
        const keyer = await this.keyer(c.args[0]);
        return this.make(T, async function* () {
          const seen = new Set<string>();
          for await (const x of src.iterate()) {
            const k = await keyer(x);
            if (seen.has(k)) continue;
            seen.add(k);
            yield x;
          }
        });
      }
      case 'Take':
      case 'Skip': {
        this.arity(c, 1);
        const n = await this.intArg(this.arg(c, 0, 'a count'));
        const take = c.name === 'Take';
        return this.make(T, async function* () {
          if (take && n <= 0) return;
          let i = 0;
          for await (const x of src.iterate()) {
            i++;
            if (take) {
              yield x;
              if (i >= n) return;
            } else if (i > n) yield x;
          }
        });
      }
      case 'TakeWhile':
      case 'SkipWhile': {
        this.arity(c, 1);
        const a = this.arg(c, 0, 'a predicate');
        const indexed = lambdaArity(a) === 2;
        const f = await this.predicate(a, indexed ? [T, int] : [T]);
        const take = c.name === 'TakeWhile';
        return this.make(T, async function* () {
          let i = 0;
          let yielding = false;
          for await (const x of src.iterate()) {
            if (take) {
              if (!truth(await f.call(indexed ? [x, num('int', i++)] : [x]))) return;
              yield x;
              continue;
            }
            if (!yielding && !truth(await f.call(indexed ? [x, num('int', i++)] : [x])))
              yielding = true;
            if (yielding) yield x;
          }
        });
      }
      case 'Reverse': {
        this.arity(c, 0);
        return this.make(T, async function* () {
          const all: EvalValue[] = [];
          for await (const x of src.iterate()) all.push(x);
          for (let i = all.length - 1; i >= 0; i--) yield all[i]!;
        });
      }
      case 'Concat': {
        this.arity(c, 1);
        const second = await this.sequenceArg(this.arg(c, 0, 'a second sequence'));
        await this.sameElements(c, T, second.elementType);
        return this.make(T, async function* () {
          yield* src.iterate();
          yield* second.source.iterate();
        });
      }
      case 'Union':
      case 'Intersect':
      case 'Except': {
        this.arity(c, 1);
        const second = await this.sequenceArg(this.arg(c, 0, 'a second sequence'));
        await this.sameElements(c, T, second.elementType);
        const keys = this.keys;
        const op = c.name;
        return this.make(T, async function* () {
          const seen = new Set<string>();
          if (op !== 'Union')
            for await (const y of second.source.iterate()) seen.add(await keys.key(y));
          for await (const x of src.iterate()) {
            const k = await keys.key(x);
            if (op === 'Intersect') {
              if (seen.delete(k)) yield x;
            } else if (!seen.has(k)) {
              seen.add(k);
              yield x;
            }
          }
          if (op !== 'Union') return;
          for await (const y of second.source.iterate()) {
            const k = await keys.key(y);
            if (seen.has(k)) continue;
            seen.add(k);
            yield y;
          }
        });
      }
      case 'DefaultIfEmpty': {
        this.arity(c, 0, 1);
        let fallback: EvalValue = (await this.it.defaults.defaultValue(T)).value;
        if (c.args[0])
          fallback = (
            await this.it.conversions.implicitly(await this.it.expr(valueOf(c.args[0])), T)
          ).value;
        return this.make(T, async function* () {
          let any = false;
          for await (const x of src.iterate()) {
            any = true;
            yield x;
          }
          if (!any) yield fallback;
        });
      }
      case 'Cast':
      case 'OfType':
        return this.castOrOfType(c, receiver);
    }
    throw new Error(`LINQ operator ${c.name} has no implementation`);
  }

  /** Equality keys: EqualityComparer<T>.Default's, or a game comparer argument's. */
  async keyer(comparer: A.Argument | undefined): Promise<Keyer> {
    if (!comparer) return (v) => this.keys.key(v);
    const op = await this.it.expr(valueOf(comparer));
    if (this.it.dry) return (v) => this.keys.key(v);
    if (op.value.kind === 'null') return (v) => this.keys.key(v); // null: the default comparer
    return this.keys.comparerKeyer(op);
  }

  private async sameElements(c: LinqCall, a: TypeHandle, b: TypeHandle): Promise<void> {
    if (this.facts.same(a, b)) return;
    throw new CompileError(
      'CS1929',
      `'${c.name}' needs two sequences of one element type: '${await this.facts.name(a)}' and '${await this.facts.name(b)}' differ`,
      c.e.span,
    );
  }

  private async selectMany(c: LinqCall, int: TypeHandle): Promise<Operand> {
    this.arity(c, 1, 2);
    const T = c.elementType;
    const src = c.source;
    const a = this.arg(c, 0, 'a collection selector');
    const indexed = lambdaArity(a) === 2;
    const f = await this.fn(a, indexed ? [T, int] : [T]);
    const inner = await this.elementTypeOf(f.type);
    if (!inner)
      throw new CompileError(
        'CS0411',
        `SelectMany's selector must return a sequence, not '${await this.facts.name(f.type)}'`,
        a.span,
      );
    const result = c.args[1] ? await this.fn(c.args[1], [T, inner]) : undefined;
    const sequences = this.it.sequences;
    const span = a.span;
    return this.make(result ? result.type : inner, async function* () {
      let i = 0;
      for await (const x of src.iterate()) {
        const many = await f.call(indexed ? [x, num('int', i++)] : [x]);
        if (many.kind === 'null') throw argumentNull('source');
        const s = await sequences.source({ type: f.type, value: many }, span);
        for await (const y of s.iterate()) yield result ? await result.call([x, y]) : y;
      }
    });
  }

  private async orderBy(c: LinqCall, receiver: Operand): Promise<Operand> {
    this.arity(c, 1, 2);
    const T = c.elementType;
    const then = c.name.startsWith('Then');
    const previous =
      receiver.value.kind === 'client'
        ? (receiver.value.payload as ClientSequence).ordering
        : undefined;
    if (then && !(await this.isOrdered(receiver.type)))
      throw new CompileError(
        'CS1061',
        `'${await this.facts.name(receiver.type)}' does not contain a definition for '${c.name}': ThenBy follows an OrderBy`,
        c.e.span,
      );
    const f = await this.fn(this.arg(c, 0, 'a key selector'), [T]);
    const type = await this.orderedType(T);
    if (this.it.dry) return { type, value: VOID };
    const keys = this.keys;
    const comparer = c.args[1] ? await this.it.expr(valueOf(c.args[1])) : undefined;
    const key: SortKey = {
      key: f.call,
      descending: c.name.endsWith('Descending'),
      compare:
        comparer && comparer.value.kind !== 'null'
          ? await keys.comparerOrder(comparer)
          : (x, y) => keys.compare(x, y),
    };
    const base = then && previous ? previous.source : c.source;
    const all = then && previous ? [...previous.keys, key] : [key];
    const iterate = async function* () {
      const items: { v: EvalValue; keys: EvalValue[]; i: number }[] = [];
      let i = 0;
      for await (const v of base.iterate()) items.push({ v, keys: [], i: i++ });
      // .NET computes every key of a level before sorting (EnumerableSorter.ComputeKeys)
      for (const k of all) for (const it of items) it.keys.push(await k.key([it.v]));
      const sorted = await mergeSort(items, async (x, y) => {
        for (const [n, k] of all.entries()) {
          const r = await k.compare(x.keys[n]!, y.keys[n]!);
          if (r !== 0) return k.descending ? -r : r;
        }
        return x.i - y.i;
      });
      for (const it of sorted) yield it.v;
    };
    return {
      type,
      value: this.it.clientValues.sequence(type, T, iterate, {
        ordering: { source: base, keys: all },
      }),
    };
  }

  private async isOrdered(t: SType): Promise<boolean> {
    if (t === 'null') return false;
    const d = await this.facts.describe(t);
    if (!d.genericDefinition) return false;
    return (await this.facts.fullName(d.genericDefinition)) === 'System.Linq.IOrderedEnumerable`1';
  }

  private orderedType(T: TypeHandle): Promise<TypeHandle> {
    return this.generic('System.Linq.IOrderedEnumerable`1', [T]);
  }

  /** Groups in order of first appearance of their key, elements in source order. */
  async groups(
    source: SequenceSource,
    key: ClientFunction,
    element?: ClientFunction,
    keyer: Keyer = (v) => this.keys.key(v),
  ): Promise<{ key: EvalValue; items: EvalValue[] }[]> {
    const out = new Map<string, { key: EvalValue; items: EvalValue[] }>();
    for await (const x of source.iterate()) {
      const k = await key([x]);
      const text = await keyer(k);
      let g = out.get(text);
      if (!g) out.set(text, (g = { key: k, items: [] }));
      g.items.push(element ? await element([x]) : x);
    }
    return [...out.values()];
  }

  private async groupBy(c: LinqCall): Promise<Operand> {
    this.arity(c, 1, 2, 3);
    const T = c.elementType;
    const src = c.source;
    const key = await this.fn(this.arg(c, 0, 'a key selector'), [T]);
    const K = this.concrete(key.type);
    // GroupBy(key, element) or GroupBy(key, (k, g) => result): by the lambda's parameters
    let element: BoundFn | undefined;
    let result: A.Argument | undefined;
    let comparer: A.Argument | undefined;
    // GroupBy(key, comparer) and GroupBy(key, element, comparer): the last is not a function
    const rest = [...c.args.slice(1)];
    const last = rest.at(-1);
    if (last && lambdaArity(last) === -1 && !(await this.isFunction(last))) {
      comparer = last;
      rest.pop();
    }
    if (rest.length === 2) {
      element = await this.fn(rest[0]!, [T]);
      result = rest[1];
    } else if (rest[0]) {
      if (lambdaArity(rest[0]) === 2) result = rest[0];
      else element = await this.fn(rest[0], [T]);
    }
    const keyer = await this.keyer(comparer);
    const E = element ? this.concrete(element.type) : T;
    const groupingType = await this.generic('System.Linq.IGrouping`2', [K, E]);
    const E_seq = await this.enumerableOf(E);
    const resultFn = result ? await this.fn(result, [K, E_seq]) : undefined;
    const groups = this.groups.bind(this);
    const grouping = (g: { key: EvalValue; items: EvalValue[] }, type: TypeHandle) =>
      this.it.clientValues.sequence(type, E, () => fromArray(g.items), { groupKey: g.key });
    return this.make(resultFn ? resultFn.type : groupingType, async function* () {
      for (const g of await groups(src, key.call, element?.call, keyer)) {
        if (resultFn) yield await resultFn.call([g.key, grouping(g, E_seq)]);
        else yield grouping(g, groupingType);
      }
    });
  }

  private async join(c: LinqCall): Promise<Operand> {
    this.arity(c, 4);
    const T = c.elementType;
    const src = c.source;
    const inner = await this.sequenceArg(this.arg(c, 0, 'an inner sequence'));
    const I = inner.elementType;
    const outerKey = await this.fn(this.arg(c, 1, 'an outer key selector'), [T]);
    const innerKey = await this.fn(this.arg(c, 2, 'an inner key selector'), [I]);
    if (!this.facts.same(outerKey.type, innerKey.type))
      throw new CompileError(
        'CS0411',
        `the key types of '${c.name}' differ ('${await this.facts.name(outerKey.type)}' and '${await this.facts.name(innerKey.type)}'): cast one`,
        c.e.span,
      );
    const group = c.name === 'GroupJoin';
    const I_seq = await this.enumerableOf(I);
    const result = await this.fn(this.arg(c, 3, 'a result selector'), [T, group ? I_seq : I]);
    const groups = this.groups.bind(this);
    const keys = this.keys;
    const clientValues = this.it.clientValues;
    return this.make(result.type, async function* () {
      // the inner sequence is read whole first (a Lookup), null keys never match
      const lookup = new Map<string, EvalValue[]>();
      for (const g of await groups(inner.source, innerKey.call)) {
        if (g.key.kind !== 'null') lookup.set(await keys.key(g.key), g.items);
      }
      for await (const x of src.iterate()) {
        const k = await outerKey.call([x]);
        const matches = k.kind === 'null' ? [] : (lookup.get(await keys.key(k)) ?? []);
        if (group) {
          yield await result.call([x, clientValues.sequence(I_seq, I, () => fromArray(matches))]);
        } else for (const y of matches) yield await result.call([x, y]);
      }
    });
  }

  private async castOrOfType(c: LinqCall, receiver: Operand): Promise<Operand> {
    this.arity(c, 0);
    const target = c.typeArgs[0];
    if (!target || c.typeArgs.length !== 1)
      throw new CompileError('CS0411', `${c.name} needs its type: ${c.name}<T>()`, c.e.span);
    const src = c.source;
    // Enumerable.Cast returns a source that already is an IEnumerable<T> itself (checked when
    // called, as `source as IEnumerable<T>`); OfType always filters
    if (c.name === 'Cast' && !this.it.dry) {
      const typed = await this.enumerableOf(target);
      const v = receiver.value;
      const already =
        v.kind === 'object' || v.kind === 'string'
          ? await this.it.typeTests.instanceOf({ type: this.objectType!, value: v }, typed)
          : v.kind === 'client' && this.it.facts.same(c.elementType, target);
      if (already) return { type: typed, value: v };
    }
    const from: Operand = { type: this.objectType!, value: VOID };
    const conversion = await this.it.conversions.explicit(from, target);
    const it = this.it;
    const objectType = this.objectType!;
    const ofType = c.name === 'OfType';
    return this.make(target, async function* () {
      for await (const x of src.iterate()) {
        if (ofType) {
          if (await it.typeTests.instanceOf({ type: objectType, value: x }, target)) yield x;
          continue;
        }
        if (!conversion)
          throw new ManagedException('System.InvalidCastException', 'Specified cast is not valid.');
        yield (
          await it.conversions.apply(conversion, { type: objectType, value: x }, target, false)
        ).value;
      }
    });
  }

  // ---------------------------------------------------------------- Enumerable.Range...

  private async staticCall(name: string, e: A.Invocation, t: A.MemberAccess): Promise<Operand> {
    const int = await this.it.wk.keyword('int');
    const c: LinqCall = {
      name,
      e,
      args: e.arguments,
      typeArgs: [],
      source: { elementType: int, iterate: () => none() },
      elementType: int,
    };
    if (name === 'Range') {
      this.arity(c, 2);
      const start = await this.intArg(c.args[0]!);
      const count = await this.intArg(c.args[1]!);
      if (!this.it.dry && (count < 0 || start + count - 1 > 2147483647))
        throw new ManagedException(
          'System.ArgumentOutOfRangeException',
          'Specified argument was out of the range of valid values.\nParameter name: count',
        );
      return this.make(int, () => generated(count, (i) => num('int', start + i)));
    }
    if (name === 'Repeat') {
      this.arity(c, 2);
      const x = await this.it.expr(valueOf(c.args[0]!));
      const type = t.typeArgs[0] ? await this.it.types.type(t.typeArgs[0]) : this.concrete(x.type);
      const value = (await this.it.conversions.implicitly(x, type)).value;
      const count = await this.intArg(c.args[1]!);
      if (!this.it.dry && count < 0)
        throw new ManagedException(
          'System.ArgumentOutOfRangeException',
          'Specified argument was out of the range of valid values.\nParameter name: count',
        );
      return this.make(type, () => generated(count, () => value));
    }
    this.arity(c, 0);
    if (t.typeArgs.length !== 1)
      throw new CompileError(
        'CS0305',
        'Enumerable.Empty needs its type: Enumerable.Empty<T>()',
        e.span,
      );
    return this.empty(await this.it.types.type(t.typeArgs[0]!), e.span);
  }

  /**
   * Enumerable.Empty<T>() is the game's own: one cached empty T[] per T, so two calls give the
   * same object, as in C# (one invoke, no writes).
   */
  private async empty(T: TypeHandle, span: A.Span): Promise<Operand> {
    const type = await this.enumerableOf(T);
    if (this.it.dry) return { type, value: VOID };
    const enumerable = await this.it.md.findType('System.Linq.Enumerable');
    const def = enumerable
      ? (await this.it.md.members(enumerable, 'Empty')).methods.find(
          (m) => m.parameters.length === 0,
        )
      : undefined;
    if (!def)
      throw new UnsupportedError(
        'the game has no System.Linq.Enumerable.Empty (System.Core is not loaded): write new T[0]',
        span,
      );
    const m = await this.it.md.instantiateMethod(def, [T]);
    const r = await this.it.rt.game.invoke(m, undefined, [], {
      virtual: false,
      outThis: false,
      outArgs: false,
    });
    return { type, value: r.result };
  }
}

/** An argument's expression (`out var x` is no LINQ argument). */
export function valueOf(a: A.Argument): A.Expression {
  if (a.value.kind === 'OutDeclaration')
    throw new CompileError('CS1615', 'a LINQ operator takes no out arguments', a.span);
  return a.value;
}

/** The number of parameters of a lambda argument (-1 for any other argument). */
export function lambdaArity(a: A.Argument): number {
  if (a.value.kind === 'OutDeclaration') return -1;
  let v: A.Expression = a.value;
  while (v.kind === 'Parenthesized') v = v.expression;
  return v.kind === 'Lambda' ? v.parameters.length : -1;
}

const noCall: ClientFunction = () => Promise.resolve(VOID);

/** An empty sequence's enumeration. */
function none(): AsyncGenerator<EvalValue, void, undefined> {
  return fromArray([]);
}

/** `count` elements made by `at(i)` (Range, Repeat). */
// eslint-disable-next-line @typescript-eslint/require-await -- its elements are computed
async function* generated(
  count: number,
  at: (i: number) => EvalValue,
): AsyncGenerator<EvalValue, void, undefined> {
  for (let i = 0; i < count; i++) yield at(i);
}

/** The elements of a JS array as a sequence's enumeration. */
// eslint-disable-next-line @typescript-eslint/require-await -- its elements are known
export async function* fromArray(
  items: readonly EvalValue[],
): AsyncGenerator<EvalValue, void, undefined> {
  for (const x of items) yield x;
}

/** A stable merge sort with an async comparison (OrderBy is stable; Array.sort is not async). */
async function mergeSort<T>(items: T[], cmp: (a: T, b: T) => Promise<number>): Promise<T[]> {
  if (items.length <= 1) return items;
  const mid = items.length >> 1;
  const left = await mergeSort(items.slice(0, mid), cmp);
  const right = await mergeSort(items.slice(mid), cmp);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if ((await cmp(left[i]!, right[j]!)) <= 0) out.push(left[i++]!);
    else out.push(right[j++]!);
  }
  while (i < left.length) out.push(left[i++]!);
  while (j < right.length) out.push(right[j++]!);
  return out;
}

// ---------------------------------------------------------------- pulled Where and Select

/**
 * The argument list of a pull's calls of its lambda, element `x` (and its index, counted from
 * 0, when `indexed`). One array serves every call of a pull or a terminal operator's loop: a
 * lambda keeps its arguments' values, never the list, and those calls never overlap (each
 * waits for the one before).
 */
export function argsOf(indexed: boolean): (x: EvalValue) => EvalValue[] {
  if (indexed) {
    let i = 0;
    return (x) => [x, num('int', i++)];
  }
  const one: EvalValue[] = [NULL];
  return (x) => {
    one[0] = x;
    return one;
  };
}

/**
 * Where's iterator pulled by hand: the same predicate calls, on the same elements, in the same
 * order as the async iterator above, without a promise where the source and the predicate
 * answer at once. A predicate that throws closes the source first, as the iterator's for await
 * does.
 */
function wherePull(src: SequenceSource, f: BoundFn, indexed: boolean): Pull {
  const s = pullOf(src);
  const call = f.call.fast ?? f.call;
  const args = argsOf(indexed);
  const test = (x: EvalValue): Maybe<boolean> => {
    let r: Maybe<EvalValue>;
    try {
      r = call(args(x));
    } catch (e) {
      return closeAndThrow(s, e);
    }
    return r instanceof Promise ? r.then(isTrue, (e: unknown) => closeAndThrow(s, e)) : isTrue(r);
  };
  const next = (): Maybe<EvalValue | typeof END> => {
    for (;;) {
      const x = s.next();
      if (x instanceof Promise) return x.then(after);
      if (x === END) return END;
      const t = test(x);
      if (t instanceof Promise) return t.then((ok) => (ok ? x : next()));
      if (t) return x;
    }
  };
  const after = (x: EvalValue | typeof END): Maybe<EvalValue | typeof END> => {
    if (x === END) return END;
    const t = test(x);
    if (t instanceof Promise) return t.then((ok) => (ok ? x : next()));
    return t ? x : next();
  };
  return { next, close: () => s.close() };
}

/** One stage of a row chain by its iterator (the row pull's way back, element by element). */
const scalarStage: ScalarStage = (src, stage) =>
  stage.op === 'where' ? wherePull(src, stage.fn, false) : selectPull(src, stage.fn, false);

/** Select's iterator pulled by hand (as wherePull). */
function selectPull(src: SequenceSource, f: BoundFn, indexed: boolean): Pull {
  const s = pullOf(src);
  const call = f.call.fast ?? f.call;
  const args = argsOf(indexed);
  const apply = (x: EvalValue | typeof END): Maybe<EvalValue | typeof END> => {
    if (x === END) return END;
    let r: Maybe<EvalValue>;
    try {
      r = call(args(x));
    } catch (e) {
      return closeAndThrow(s, e);
    }
    return r instanceof Promise ? r.catch((e: unknown) => closeAndThrow(s, e)) : r;
  };
  return {
    next: () => {
      const x = s.next();
      return x instanceof Promise ? x.then(apply) : apply(x);
    },
    close: () => s.close(),
  };
}

const isTrue = (v: EvalValue): boolean => v.kind === 'bool' && v.value;

/** A call in Where or Select threw: the source is closed before the error goes on. */
async function closeAndThrow(source: Pull, e: unknown): Promise<never> {
  try {
    await source.close();
  } catch {
    // the call's error is the one reported
  }
  throw e;
}
