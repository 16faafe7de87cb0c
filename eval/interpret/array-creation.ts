// Array creation (ECMA-334 §12.8.17.5): sizes, rectangular and jagged ranks, initializers
// (checked for shape as C# does) and the best common type of `new[] { ... }`.

import { isClientType } from './client-types.js';
import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { VOID, type EvalValue } from '../values.js';
import { isIntegralKind } from '../semantics/numeric-types.js';
import { CompileError, ManagedException } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class Arrays {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  private get game() {
    return this.it.rt.game;
  }

  async arrayCreation(e: A.ArrayCreation): Promise<Operand> {
    if (!e.elementType) {
      if (!e.initializer)
        throw new CompileError(
          'CS1586',
          'array creation must have array size or array initializer',
          e.span,
        );
      return this.implicitArray(e.initializer, e.ranks[0] ?? 1, e.span);
    }
    const base = await this.it.types.type(e.elementType);
    const [outer = 1, ...inner] = e.ranks;
    let element = base;
    for (const r of [...inner].reverse()) element = await this.it.md.arrayOf(element, r);
    const type = await this.it.md.arrayOf(element, outer);
    const sizes: bigint[] = [];
    const constants: (bigint | undefined)[] = [];
    for (const s of e.sizes) {
      const x = await this.it.expr(s);
      const n = await this.it.elements.index(x, s.span);
      const c = x.constant?.kind === 'number' ? x.constant.c.value : undefined;
      const cv =
        c && c.kind !== 'bool' && c.kind !== 'decimal' && isIntegralKind(c.kind)
          ? BigInt(c.value)
          : undefined;
      if (cv !== undefined && cv < 0n)
        throw new CompileError('CS0248', 'cannot create an array with a negative size', s.span);
      sizes.push(n);
      constants.push(cv);
    }
    if (e.initializer) {
      const shape = initializerShape(e.initializer, outer);
      for (let k = 0; k < sizes.length; k++) {
        if (constants[k] === undefined)
          throw new CompileError(
            'CS0150',
            'a constant value is expected for the size of an initialized array',
            e.sizes[k]!.span,
          );
        if (constants[k] !== BigInt(shape[k] ?? -1))
          throw new CompileError(
            'CS0847',
            `an array initializer of length '${constants[k]}' is expected`,
            e.initializer.span,
          );
      }
      return this.fillArray(type, element, outer, e.initializer);
    }
    if (sizes.length !== outer)
      throw new CompileError(
        'CS1586',
        'array creation must have array size or array initializer',
        e.span,
      );
    if (this.it.dry) return { type, value: VOID };
    if (sizes.some((n) => n < 0n))
      throw new ManagedException(
        'System.OverflowException',
        'Arithmetic operation resulted in an overflow.',
      );
    return { type, value: await this.game.newArray(element, sizes.map(Number)) };
  }

  /** `T[] a = { ... }`. */
  async arrayFromInitializer(type: TypeHandle, init: A.ArrayInitializer): Promise<Operand> {
    const d = await this.f.describe(type);
    if (d.kind !== 'array' || !d.elementType)
      throw new CompileError(
        'CS0622',
        'an array initializer can only initialize an array type; use new T { ... }',
        init.span,
      );
    return this.fillArray(type, d.elementType, d.rank, init);
  }

  private async fillArray(
    type: TypeHandle,
    element: TypeHandle,
    rank: number,
    init: A.ArrayInitializer,
  ): Promise<Operand> {
    const shape = initializerShape(init, rank);
    const leaves = flatten(init, rank, shape);
    const values: EvalValue[] = [];
    for (const x of leaves)
      values.push(
        (await this.it.conversions.implicitly(await this.it.expr(x), element, 'an array element'))
          .value,
      );
    if (this.it.dry) return { type, value: VOID };
    const array = await this.game.newArray(element, shape);
    for (let i = 0; i < values.length; i++) await this.game.writeElement(array, i, values[i]!);
    return { type, value: array };
  }

  /** `new[] { ... }`: the best common type of the elements (§12.6.3.15). */
  private async implicitArray(
    init: A.ArrayInitializer,
    rank: number,
    span: A.Span,
  ): Promise<Operand> {
    const shape = initializerShape(init, rank);
    const leaves = flatten(init, rank, shape);
    const ops: Operand[] = [];
    for (const x of leaves) ops.push(await this.it.expr(x));
    const types = ops.map((o) => o.type).filter((t): t is TypeHandle => t !== 'null');
    let best: TypeHandle | undefined;
    for (const t of types) {
      let all = true;
      for (const o of ops) if (!(await this.it.conversions.implicit(o, t))) all = false;
      if (all && (!best || !this.f.same(best, t))) {
        if (best)
          throw new CompileError('CS0826', 'no best type found for implicitly-typed array', span);
        best = t;
      }
    }
    if (!best)
      throw new CompileError('CS0826', 'no best type found for implicitly-typed array', span);
    const type = await this.it.md.arrayOf(best, rank);
    const values: EvalValue[] = [];
    for (const o of ops) values.push((await this.it.conversions.implicitly(o, best)).value);
    if (this.it.dry) return { type, value: VOID };
    // an array of anonymous objects cannot live in the game: it is the evaluator's
    if (isClientType(best) && rank === 1)
      return { type, value: this.it.clientValues.fixedSequence(type, best, values) };
    const array = await this.game.newArray(best, shape);
    for (let i = 0; i < values.length; i++) await this.game.writeElement(array, i, values[i]!);
    return { type, value: array };
  }

  /** A one-dimensional array of `element` holding `values`. */
  async newArrayOf(element: TypeHandle, values: readonly EvalValue[]): Promise<EvalValue> {
    const array = await this.game.newArray(element, [values.length]);
    for (let i = 0; i < values.length; i++) await this.game.writeElement(array, i, values[i]!);
    return array;
  }
}

/** Lengths per dimension of a (nested) array initializer; ragged ones are refused (CS0847). */
function initializerShape(init: A.ArrayInitializer, rank: number): number[] {
  const shape: number[] = [];
  let level: A.ArrayInitializer | undefined = init;
  for (let k = 0; k < rank; k++) {
    if (!level)
      throw new CompileError('CS0846', 'a nested array initializer is expected', init.span);
    shape.push(level.elements.length);
    const first: A.Expression | A.ArrayInitializer | undefined = level.elements[0];
    level = first && first.kind === 'ArrayInitializer' ? first : undefined;
  }
  return shape;
}

function flatten(
  init: A.ArrayInitializer,
  rank: number,
  shape: readonly number[],
  depth = 0,
): A.Expression[] {
  if (init.elements.length !== shape[depth])
    throw new CompileError(
      'CS0847',
      `an array initializer of length '${shape[depth]}' is expected`,
      init.span,
    );
  const out: A.Expression[] = [];
  for (const el of init.elements) {
    if (depth + 1 < rank) {
      if (el.kind !== 'ArrayInitializer')
        throw new CompileError('CS0846', 'a nested array initializer is expected', el.span);
      out.push(...flatten(el, rank, shape, depth + 1));
    } else {
      if (el.kind === 'ArrayInitializer')
        throw new CompileError(
          'CS0623',
          'array initializers can only be used in a variable or field initializer; use new T[] { ... }',
          el.span,
        );
      out.push(el);
    }
  }
  return out;
}
