// Values that live in the evaluator, not in the game: delegates made from lambdas and local
// functions, the sequences of LINQ and their groupings. None of them is ever passed to the
// game: a call or a write that would take one there is refused (no code can be created in it).

import type { MethodDescriptor, TypeHandle } from '../runtime.js';
import type { ClientObject, EvalValue } from '../values.js';
import { UnsupportedError } from './errors.js';
import type { ClientFunction } from './functions.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { SequenceSource } from './sequences.js';
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
    extra: Partial<Pick<ClientSequence, 'ordering' | 'groupKey'>> = {},
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

  /** A method called on a client value: a delegate's Invoke, a grouping's Key. */
  async invokeMember(
    receiver: EvalValue & { kind: 'client' },
    m: MethodDescriptor,
    args: readonly EvalValue[],
  ): Promise<EvalValue> {
    const p = receiver.payload;
    if (p.clientKind === 'delegate' && m.name === 'Invoke') return (p as ClientDelegate).call(args);
    const seq = p as ClientSequence;
    if (p.clientKind === 'sequence' && m.name === 'get_Key' && seq.groupKey) return seq.groupKey;
    throw new UnsupportedError(
      `'${m.name}' cannot be called on a ${p.clientKind} made by the program (${await this.it.facts.name(receiver.type)}): it lives in the evaluator, not in the game`,
    );
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
