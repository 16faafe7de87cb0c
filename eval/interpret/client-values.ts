// Values that live in the evaluator, not in the game: delegates made from lambdas and local
// functions, the sequences of LINQ and their groupings. None of them is ever passed to the
// game: a call or a write that would take one there is refused (no code can be created in it).

import { formatNumber } from '../format/format-number.js';
import type * as A from '../syntax/index.js';
import type { MethodDescriptor, TypeHandle } from '../runtime.js';
import { VOID, bool, num, str, type ClientObject, type EvalValue } from '../values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { ClientFunction } from './functions.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { SequenceSource } from './sequences.js';
import { fromArray } from './linq/enumerable.js';
import type { SType } from './type-facts.js';

export interface ClientDelegate extends ClientObject {
  readonly clientKind: 'delegate';
  readonly parameters: readonly TypeHandle[];
  readonly returnType: TypeHandle | undefined;
  readonly call: ClientFunction;
}

/** One key of an OrderBy/ThenBy chain. */
export interface SortKey {
  readonly key: ClientFunction;
  readonly descending: boolean;
  readonly compare: (a: EvalValue, b: EvalValue) => Promise<number>;
}

export interface ClientSequence extends ClientObject, SequenceSource {
  readonly clientKind: 'sequence';
  /** An IOrderedEnumerable: its unsorted source and keys, for ThenBy to extend. */
  readonly ordering?: { readonly source: SequenceSource; readonly keys: readonly SortKey[] };
  /** An IGrouping: its key. */
  readonly groupKey?: EvalValue;
}

/** An enumerator of a client sequence, pulled by MoveNext. */
interface ClientEnumerator extends ClientObject {
  readonly clientKind: 'enumerator';
  readonly iteration: AsyncGenerator<EvalValue, void, undefined>;
  current: EvalValue | undefined;
}

export class ClientValues {
  constructor(private readonly it: Interpreter) {}

  /** The client-side sequence an operand holds, if it is one. */
  sequenceOf(op: Operand): SequenceSource | undefined {
    const v = op.value;
    if (v.kind === 'client' && v.payload.clientKind === 'sequence')
      return v.payload as ClientSequence;
    return undefined;
  }

  /** A client sequence value of static type `type`. */
  sequence(
    type: TypeHandle,
    elementType: SType,
    iterate: SequenceSource['iterate'],
    extra: Partial<Pick<ClientSequence, 'ordering' | 'groupKey' | 'pull' | 'rows'>> = {},
  ): EvalValue {
    const payload: ClientSequence = {
      clientKind: 'sequence',
      elementType,
      iterate,
      elements: iterate,
      ...extra,
    };
    return { kind: 'client', type, payload };
  }

  /** A sequence of fixed elements (a client array or list: of anonymous objects). */
  fixedSequence(type: TypeHandle, elementType: SType, items: readonly EvalValue[]): EvalValue {
    return this.sequence(type, elementType, () => fromArray(items));
  }

  /** `q.GetEnumerator()` on a sequence made here: MoveNext, Current and Dispose run it. */
  private enumerator(seq: ClientSequence, type: TypeHandle): EvalValue {
    const payload: ClientEnumerator = {
      clientKind: 'enumerator',
      iteration: seq.iterate(),
      current: undefined,
    };
    return { kind: 'client', type, payload };
  }

  /** `new { a = 1, p.Name }` (§12.8.17.7): an anonymous object, client-side. */
  async anonymous(e: A.AnonymousObjectCreation): Promise<Operand> {
    const it = this.it;
    const members: { name: string; type: TypeHandle; value: EvalValue }[] = [];
    for (const m of e.members) {
      const name = m.name?.name ?? projectedName(m.value);
      const op = await it.expr(m.value);
      if (op.type === 'null' || op.type.key === (await it.wk.keyword('void')).key)
        throw new CompileError(
          'CS0828',
          `cannot assign '${op.type === 'null' ? '<null>' : 'void'}' to anonymous type property '${name}'`,
          m.span,
        );
      members.push({ name, type: op.type, value: op.value });
    }
    const type = await it.clientTypes.anonymous(members);
    if (it.dry) return { type, value: VOID };
    const values = members.map((m) => [m.name, m.value] as const);
    const payload: ClientObject = {
      clientKind: 'anonymous',
      members: values,
      text: async () => {
        const parts: string[] = [];
        for (const [n, v] of values) parts.push(`${n} = ${await this.toStringText(v)}`);
        return parts.length ? `{ ${parts.join(', ')} }` : '{ }';
      },
    };
    return { type, value: { kind: 'client', type, payload } };
  }

  /** What `v.ToString()` gives (null: empty, as string interpolation and ToString of 'a do). */
  async toStringText(v: EvalValue): Promise<string> {
    switch (v.kind) {
      case 'null':
        return '';
      case 'string':
        return this.it.linq.keys.text(v);
      case 'bool':
        return v.value ? 'True' : 'False';
      case 'number':
        return v.type === 'char'
          ? String.fromCharCode(Number(v.value))
          : formatNumber(v.type, v.value);
      case 'client':
        if (v.payload.text) return v.payload.text();
        return (await this.it.facts.fullName(v.type)).replace(/^<anonymous type.*/, '');
      case 'void':
        return '';
      case 'decimal':
      case 'enum':
      case 'object':
      case 'pointer':
      case 'struct': {
        const object = await this.it.wk.keyword('object');
        const m = (await this.it.md.members(object, 'ToString')).methods.find(
          (x) => x.parameters.length === 0,
        )!;
        const boxed =
          v.kind === 'enum' || v.kind === 'struct' || v.kind === 'decimal'
            ? await this.it.rt.game.box(v, await this.it.rt.game.typeOf(v))
            : v;
        const r = await this.it.invoker.invokeOn(m, { type: object, value: boxed }, [], false);
        return r.result.kind === 'null'
          ? ''
          : (await this.it.rt.game.stringText(r.result, 1 << 20)).text;
      }
    }
  }

  /** A method called on a client value: a delegate's Invoke, a grouping's Key. */
  async invokeMember(
    receiver: EvalValue & { kind: 'client' },
    m: MethodDescriptor,
    args: readonly EvalValue[],
  ): Promise<EvalValue> {
    const p = receiver.payload;
    if (p.clientKind === 'delegate' && m.name === 'Invoke') return (p as ClientDelegate).call(args);
    if (p.clientKind === 'anonymous') {
      const member = p.members?.find(([n]) => `get_${n}` === m.name);
      if (member) return member[1];
      const keys = this.it.linq.keys;
      if (m.name === 'ToString') return str(await p.text!());
      if (m.name === 'Equals') {
        const other = args[0];
        const same =
          other?.kind === 'client' &&
          other.type.key === receiver.type.key &&
          (await keys.key(other)) === (await keys.key(receiver));
        return bool(same);
      }
      if (m.name === 'GetHashCode') return num('int', hash(await keys.key(receiver)));
    }
    const seq = p as ClientSequence;
    if (p.clientKind === 'sequence' && m.name === 'get_Key' && seq.groupKey) return seq.groupKey;
    if (p.clientKind === 'sequence' && m.name === 'GetEnumerator' && m.returnType)
      return this.enumerator(seq, m.returnType);
    if (p.clientKind === 'enumerator') {
      const e = p as ClientEnumerator;
      switch (m.name) {
        case 'MoveNext': {
          const r = await e.iteration.next();
          e.current = r.done ? undefined : r.value;
          return bool(!r.done);
        }
        case 'get_Current':
          return e.current ?? (await this.it.defaults.defaultValue(m.returnType!)).value;
        case 'Dispose':
          await e.iteration.return(undefined);
          return VOID;
      }
    }
    throw new UnsupportedError(
      `'${m.name}' cannot be called on a ${p.clientKind} made by the program (${await this.it.facts.name(receiver.type)}): it lives in the evaluator, not in the game`,
    );
  }

  /**
   * Arguments for a game call: a client sequence is materialized as a game array of its
   * elements (an IEnumerable<T> the game can enumerate, as `string.Join(",", q)` needs); a
   * delegate is refused.
   */
  async intoGame(values: readonly EvalValue[], what: string): Promise<EvalValue[]> {
    const out: EvalValue[] = [];
    for (const v of values) {
      if (v.kind === 'client' && v.payload.clientKind === 'sequence') {
        const seq = v.payload as ClientSequence;
        const items: EvalValue[] = [];
        for await (const x of seq.iterate()) items.push(x);
        const element =
          seq.elementType === 'null' ? await this.it.wk.keyword('object') : seq.elementType;
        out.push(await this.it.arrays.newArrayOf(element, items));
        continue;
      }
      out.push(v);
    }
    ClientValues.refuseInGame(out, what);
    return out;
  }

  /** Refuses to take a client value to the game (an argument, a stored value). */
  static refuseInGame(values: readonly EvalValue[], what: string): void {
    const v = values.find((x) => x.kind === 'client');
    if (v?.kind === 'client')
      throw new UnsupportedError(
        `${what} would take a ${v.payload.clientKind === 'delegate' ? 'lambda or local function' : 'LINQ sequence'} into the game, where no code can be created: ` +
          'use it client-side (call it, enumerate it, or materialize the sequence with ToList()/ToArray())',
      );
  }
}

/** The name a member written without one takes (§12.8.17.7): `x` → x, `p.Name` → Name. */
function projectedName(e: A.Expression): string {
  if (e.kind === 'Name') return e.name;
  if (e.kind === 'MemberAccess') return e.name.name;
  throw new CompileError(
    'CS0746',
    'an anonymous type member must be a name = value, a simple name or a member access',
    e.span,
  );
}

/** A stable 32-bit hash of a key text (GetHashCode of equal anonymous objects is equal). */
function hash(text: string): number {
  let h = 17;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}
