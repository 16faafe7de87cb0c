// Values that live in the evaluator, not in the game: delegates made from lambdas and the
// sequences of LINQ. None of them is ever passed to the game.

import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { SequenceSource } from './sequences.js';

export class ClientValues {
  constructor(private readonly it: Interpreter) {}

  /** The client-side sequence an operand holds, if it is one. */
  sequenceOf(_op: Operand): SequenceSource | undefined {
    void this.it;
    return undefined;
  }
}
