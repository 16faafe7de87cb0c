// Lambdas and local functions. Until their conversion to delegate types is built, a lambda or
// local function is refused as a whole, before anything runs.

import type * as A from '../syntax/index.js';
import { UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import type { SType } from './type-facts.js';

export class Functions {
  constructor(private readonly it: Interpreter) {}

  /** An expression converted to a known type: a lambda takes the delegate type's signature. */
  async target(e: A.Expression, _type: SType): Promise<Operand> {
    return this.it.expr(e);
  }

  lambda(e: A.Lambda): Promise<Operand> {
    throw new UnsupportedError(
      'lambdas are not supported here yet (no delegate can be made client-side): write a foreach loop',
      e.span,
    );
  }

  declareLocalFunction(s: A.LocalFunction): Promise<void> {
    throw new UnsupportedError('local functions are not supported yet', s.span);
  }
}
