// Element access (ECMA-334 §12.8.12): array elements (bounds-checked, multi-dimensional) as
// variables, indexers chosen by overload resolution as properties, and the index conversion.

import type * as A from '../syntax/index.js';
import type { MethodDescriptor, PropertyDescriptor, TypeHandle } from '../runtime.js';
import { VOID } from '../values.js';
import { CompileError, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand, Place } from './operand.js';

const INDEX_KINDS = ['int', 'uint', 'long', 'ulong'] as const;

export class Elements {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  private get game() {
    return this.it.rt.game;
  }

  async elementAccess(e: A.ElementAccess, mode: 'read' | 'write' = 'read'): Promise<Operand> {
    const target = await this.it.resolveInChain(e.target);
    if (target.k !== 'value')
      throw new CompileError('CS0119', 'only a value can be indexed', e.target.span);
    let op = target.op;
    if (op.type === 'null')
      throw new CompileError(
        'CS0021',
        "cannot apply indexing to an expression of type '<null>'",
        e.span,
      );
    if (e.conditional) op = await this.it.nullConditional.receiver(op, e.span);
    const type = op.type as TypeHandle;
    const d = await this.f.describe(type);
    if (d.kind === 'array' && d.elementType)
      return this.arrayElement(op, d.elementType, d.rank, e, mode);
    const indexers = await this.it.members.indexers(type);
    if (indexers.length === 0)
      throw new CompileError(
        'CS0021',
        `cannot apply indexing with [] to an expression of type '${await this.f.name(type)}'`,
        e.span,
      );
    const args = await this.it.calls.arguments(e.arguments);
    // overloads are chosen on the indexers' parameters; the accessor the mode needs is then
    // checked (a get-only indexer assigned is CS0200, as C# says, not a missing overload)
    const signatures = new Map<MethodDescriptor, PropertyDescriptor>();
    for (const p of indexers) {
      const accessor = p.getter ?? p.setter;
      if (accessor) signatures.set({ ...accessor, parameters: p.parameters }, p);
    }
    const c = await this.it.calls.overloads.resolve(
      [...signatures.keys()],
      args,
      [],
      'this[]',
      e.span,
    );
    const property = signatures.get(c.method)!;
    const values = await this.it.calls.argumentValues(c, args);
    return this.it.memberOperands.propertyOperand(op, property, values, mode, e.span);
  }

  private async arrayElement(
    op: Operand,
    element: TypeHandle,
    rank: number,
    e: A.ElementAccess,
    mode: 'read' | 'write',
  ): Promise<Operand> {
    if (e.arguments.length !== rank)
      throw new CompileError(
        'CS0022',
        `wrong number of indices inside []; expected ${rank}`,
        e.span,
      );
    const indices: bigint[] = [];
    for (const a of e.arguments) {
      if (a.name)
        throw new CompileError(
          'CS1742',
          'an array access may not have a named argument specifier',
          a.span,
        );
      if (a.modifier !== 'none' || a.value.kind === 'OutDeclaration')
        throw new CompileError('CS1615', 'an index may not be passed with ref or out', a.span);
      const x = await this.it.expr(a.value);
      indices.push(await this.index(x, a.span));
    }
    if (this.it.dry)
      return { type: element, value: VOID, place: { k: 'element', array: VOID, index: 0 } };
    const array = op.value;
    if (array.kind === 'null') throw Messages.nullReference();
    const lengths = await this.game.arrayLengths(array);
    const lower = (await this.game.arrayLowerBounds?.(array)) ?? [];
    let linear = 0n;
    for (let k = 0; k < rank; k++) {
      const i = indices[k]! - BigInt(lower[k] ?? 0);
      const n = BigInt(lengths[k] ?? 0);
      if (i < 0n || i >= n) throw Messages.indexOutOfRange();
      linear = linear * n + i;
    }
    const place: Place = { k: 'element', array, index: Number(linear) };
    return {
      type: element,
      value: mode === 'read' ? await this.it.variables.read(place) : VOID,
      place,
    };
  }

  /** An array index or size: int, uint, long or ulong after an implicit conversion (§12.8.12.2). */
  async index(x: Operand, span: A.Span): Promise<bigint> {
    for (const k of INDEX_KINDS) {
      const t = await this.it.wk.keyword(k);
      if (await this.it.conversions.implicit(x, t)) {
        const v = await this.it.conversions.implicitly(x, t);
        return this.it.dry ? 0n : BigInt((v.value as { value: number | bigint }).value);
      }
    }
    throw new CompileError(
      'CS0029',
      `cannot implicitly convert type '${await this.f.name(x.type)}' to 'int'`,
      span,
    );
  }
}
