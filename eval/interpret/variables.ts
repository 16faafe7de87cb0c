// Variables and assignment targets (ECMA-334 §9, §12.21): the program's locals, what `=`,
// `++`/`--` and ref/out arguments write to (a variable or a property, C#'s refusals of readonly
// fields and of their structs' members), and reading and writing a variable wherever it lives —
// a local, a static or instance field, a field of a struct variable (the struct is written
// back whole), an array element, a variable of the method's scope.

import { ClientValues } from './client-values.js';
import type * as A from '../syntax/index.js';
import { NULL, VOID, type EvalValue } from '../values.js';
import { CompileError, Messages } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { AccessMode, Operand, Place, Resolved } from './operand.js';
import type { SType } from './type-facts.js';

export class Variables {
  constructor(private readonly it: Interpreter) {}

  localOperand(name: string, span: A.Span, mode: AccessMode = 'read'): Operand | undefined {
    const l = this.it.locals.get(name);
    if (!l) return undefined;
    if (mode === 'read' && !l.assigned)
      throw new CompileError('CS0165', `use of unassigned local variable '${name}'`, span);
    return { type: l.type, value: l.value, place: { k: 'local', name } };
  }

  /**
   * What an assignment, ++/-- or ref/out argument writes to: a variable or a property, with
   * its receiver and indices evaluated but (in 'write' mode) its current value not read.
   */
  async target(e: A.Expression, mode: AccessMode = 'write'): Promise<Operand> {
    const conditional = (e.kind === 'MemberAccess' || e.kind === 'ElementAccess') && e.conditional;
    if (conditional)
      throw new CompileError(
        'CS0131',
        'the left-hand side of an assignment cannot be a null-conditional access',
        e.span,
      );
    let r: Resolved;
    if (e.kind === 'Name') r = await this.it.names.simpleName(e, mode);
    else if (e.kind === 'This') r = await this.it.enclosing.thisAccess(e, mode);
    else if (e.kind === 'MemberAccess')
      r = await this.it.naming(e.target, () => this.it.memberAccess.memberAccess(e, mode));
    else if (e.kind === 'ElementAccess')
      r = {
        k: 'value',
        op: await this.it.naming(e.target, () => this.it.elements.elementAccess(e, mode)),
      };
    else if (e.kind === 'Parenthesized') return this.target(e.expression, mode);
    else
      throw new CompileError(
        'CS0131',
        'the left-hand side of an assignment must be a variable, a property or an indexer',
        e.span,
      );
    const op = await this.it.asValue(r, e);
    if (!op.place && !op.property)
      throw new CompileError(
        'CS0131',
        'the left-hand side of an assignment must be a variable, a property or an indexer',
        e.span,
      );
    await this.checkWritable(op, e.span);
    if (op.place?.k === 'local') {
      const readOnly = this.it.locals.get(op.place.name)?.readOnly;
      if (readOnly)
        throw new CompileError(
          'CS1656',
          `cannot assign to '${op.place.name}' because it is a ${readOnly}`,
          e.span,
        );
    }
    return op;
  }

  /**
   * C# refuses writes to readonly fields (outside constructors): the field itself (CS0191,
   * CS0198 static) and the members of a readonly struct field, fields or properties (CS1648,
   * CS1650 static), however deep.
   */
  private async checkWritable(op: Operand, span: A.Span): Promise<void> {
    const place = op.place;
    if (place && (place.k === 'static' || place.k === 'field' || place.k === 'struct-field')) {
      if (place.field.isReadOnly) {
        throw new CompileError(
          place.field.isStatic ? 'CS0198' : 'CS0191',
          `a ${place.field.isStatic ? 'static ' : ''}readonly field ('${place.field.name}') cannot be assigned to`,
          span,
        );
      }
    }
    // the struct variables the write changes: a field's parents, or a struct property's receiver
    let p: Place | undefined = place?.k === 'struct-field' ? place.parent : undefined;
    if (
      op.property?.receiverPlace &&
      (await this.it.facts.isValueType(op.property.property.declaringType))
    )
      p = op.property.receiverPlace;
    for (; p; p = p.k === 'struct-field' ? p.parent : undefined) {
      if ((p.k === 'static' || p.k === 'field' || p.k === 'struct-field') && p.field.isReadOnly) {
        const isStatic = p.k === 'static';
        throw new CompileError(
          isStatic ? 'CS1650' : 'CS1648',
          isStatic
            ? `fields of static readonly field '${p.field.name}' cannot be assigned to`
            : `members of readonly field '${p.field.name}' cannot be modified`,
          span,
        );
      }
    }
  }

  /** Whether a variable is (inside) a readonly field: a struct method called on it runs on a copy. */
  isReadOnlyPlace(place: Place): boolean {
    for (let p: Place | undefined = place; p; p = p.k === 'struct-field' ? p.parent : undefined) {
      if ((p.k === 'static' || p.k === 'field' || p.k === 'struct-field') && p.field.isReadOnly)
        return true;
    }
    return false;
  }

  /** The current value of an assignment target. */
  async readTarget(t: Operand): Promise<EvalValue> {
    if (this.it.dry) return VOID;
    if (t.place) return this.read(t.place);
    if (t.property) {
      if (!t.property.property.getter)
        throw new CompileError(
          'CS0154',
          `the property or indexer '${t.property.property.name}' lacks a get accessor`,
        );
      return this.it.invoker.callGetter(t.property);
    }
    return t.value;
  }

  /** Stores into an assignment target (a variable, or a property through its setter). */
  async store(t: Operand, value: EvalValue): Promise<void> {
    if (this.it.dry) {
      // binding: the local is definitely assigned from here on (§9.4.4)
      if (t.place?.k === 'local') {
        const l = this.it.locals.get(t.place.name);
        if (l) l.assigned = true;
      }
      return;
    }
    if (t.place) return this.write(t.place, value);
    if (t.property) return this.it.invoker.callSetter(t.property, value);
  }

  /** Reads a variable's current value. */
  /** Not async: a game read's own promise is returned, a local's value costs one resolved promise. */
  read(place: Place): Promise<EvalValue> {
    if (this.it.dry) return Promise.resolve(VOID);
    switch (place.k) {
      case 'local':
        return Promise.resolve(this.it.locals.get(place.name)!.value);
      case 'static':
        return this.it.rt.game.readStatic(place.field);
      case 'field':
        return this.it.rt.game.readField(place.target, place.field);
      case 'struct-field':
        return this.read(place.parent).then((parent) => {
          if (parent.kind !== 'struct') throw new Error('a struct field of a non-struct');
          return parent.fields[place.index]!;
        });
      case 'element':
        return this.it.rt.game.readElement(place.array, place.index);
      case 'scope':
        return place.variable.read();
    }
  }

  /** Writes a variable; a field of a struct is written by writing the whole struct back. */
  async write(place: Place, value: EvalValue): Promise<void> {
    if (this.it.dry) return;
    if (place.k !== 'local') ClientValues.refuseInGame([value], 'this assignment');
    switch (place.k) {
      case 'local': {
        const l = this.it.locals.get(place.name)!;
        l.value = value;
        l.assigned = true;
        return;
      }
      case 'static':
        return this.it.rt.game.writeStatic(place.field, value);
      case 'field':
        if (place.target.kind === 'null') throw Messages.nullReference();
        return this.it.rt.game.writeField(place.target, place.field, value);
      case 'struct-field': {
        const parent = await this.read(place.parent);
        if (parent.kind !== 'struct') throw new Error('a struct field of a non-struct');
        const fields = [...parent.fields];
        fields[place.index] = value;
        return this.write(place.parent, { ...parent, fields });
      }
      case 'element':
        return this.it.rt.game.writeElement(place.array, place.index, value);
      case 'scope':
        if (!place.variable.write)
          throw new CompileError('CS1604', `cannot assign to '${place.name}': it is read-only`);
        return place.variable.write(value);
    }
  }

  /** Marks a local assigned (out arguments), without a value in dry mode. */
  assignLocal(name: string, value: EvalValue): void {
    const l = this.it.locals.get(name);
    if (l) {
      l.value = value;
      l.assigned = true;
    }
  }

  declareLocal(name: string, type: SType, span: A.Span): void {
    if (this.it.locals.has(name))
      throw new CompileError('CS0128', `a local variable named '${name}' is already defined`, span);
    this.it.locals.set(name, { type, value: NULL, assigned: false });
  }
}
