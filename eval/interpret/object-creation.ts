// Object creation (ECMA-334 §12.8.17.2): constructors by overload resolution (a struct's
// parameterless one is its zero), and object and collection initializers run on the new value
// held in a hidden local.

import type * as A from '../syntax/index.js';
import type { TypeHandle } from '../runtime.js';
import { VOID, type EvalValue } from '../values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { type ArgInfo } from './overloads.js';

export class Creation {
  private hidden = 0;

  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  private get game() {
    return this.it.rt.game;
  }

  async objectCreation(e: A.ObjectCreation): Promise<Operand> {
    const type = await this.it.types.type(e.type);
    const d = await this.f.describe(type);
    if (d.kind === 'interface' || d.isAbstract) {
      throw new CompileError(
        'CS0144',
        `cannot create an instance of the abstract type or interface '${await this.f.name(type)}'`,
        e.span,
      );
    }
    if (d.kind === 'delegate')
      throw new UnsupportedError('creating a delegate is not supported', e.span);
    let value: EvalValue;
    const valueType = await this.f.isValueType(type);
    const argNodes = e.arguments ?? [];
    if (valueType && argNodes.length === 0) {
      value = (await this.it.defaults.defaultValue(type)).value;
    } else {
      const ctors = (await this.it.md.members(type, '.ctor')).methods.filter((m) => !m.isStatic);
      if (ctors.length === 0)
        throw new CompileError(
          'CS0143',
          `the type '${await this.f.name(type)}' has no constructors defined`,
          e.span,
        );
      const args = await this.it.calls.arguments(argNodes);
      const c = await this.it.calls.overloads.resolve(
        ctors,
        args,
        [],
        await this.f.name(type),
        e.span,
      );
      const values = await this.it.calls.argumentValues(c, args);
      if (this.it.dry) {
        value = VOID;
      } else if (valueType) {
        const zero = (await this.it.defaults.defaultValue(type)).value;
        const r = await this.game.invoke(c.method, zero, values, {
          virtual: false,
          outThis: true,
          outArgs: false,
        });
        value = r.outThis ?? r.result;
      } else {
        value = (
          await this.game.invoke(c.method, undefined, values, {
            virtual: false,
            outThis: false,
            outArgs: false,
          })
        ).result;
      }
    }
    if (!e.initializer) return { type, value };
    return this.initialize(type, value, e.initializer);
  }

  /** Runs an object or collection initializer on a new value held in a hidden local. */
  private async initialize(
    type: TypeHandle,
    value: EvalValue,
    init: A.ObjectInitializer | A.CollectionInitializer,
  ): Promise<Operand> {
    const name = `<init${this.hidden++}>`;
    this.it.locals.set(name, { type, value, assigned: true });
    try {
      const holder: Operand = { type, value, place: { k: 'local', name } };
      await this.applyInitializer(holder, init);
      return { type, value: this.it.locals.get(name)!.value };
    } finally {
      this.it.locals.delete(name);
    }
  }

  private async current(op: Operand): Promise<Operand> {
    return op.place ? { ...op, value: await this.it.variables.read(op.place) } : op;
  }

  private async applyInitializer(
    holder: Operand,
    init: A.ObjectInitializer | A.CollectionInitializer,
  ): Promise<void> {
    const type = holder.type as TypeHandle;
    if (init.kind === 'CollectionInitializer') {
      const enumerable = await this.it.md.findType('System.Collections.IEnumerable');
      if (enumerable && !(await this.f.assignable(enumerable, type))) {
        throw new CompileError(
          'CS1922',
          `a collection initializer needs '${await this.f.name(type)}' to implement System.Collections.IEnumerable`,
          init.span,
        );
      }
      for (const el of init.elements) {
        const exprs = el.kind === 'ElementInitializer' ? el.arguments : [el];
        const add = await this.it.members.member(type, 'Add');
        if (add?.k !== 'methods')
          throw new CompileError(
            'CS1061',
            `'${await this.f.name(type)}' does not contain a definition for 'Add' (needed by a collection initializer)`,
            el.span,
          );
        const args: ArgInfo[] = [];
        for (const x of exprs)
          args.push({
            op: await this.it.expr(x),
            name: undefined,
            modifier: 'none',
            outVar: false,
            span: x.span,
          });
        const c = await this.it.calls.overloads.resolve(add.methods, args, [], 'Add', el.span);
        await this.it.calls.call(c, await this.current(holder), args, []);
      }
      return;
    }
    const seen = new Set<string>();
    for (const mi of init.members) {
      const receiver = await this.current(holder);
      let target: Operand;
      if (Array.isArray(mi.target)) {
        const fake: A.ElementAccess = {
          kind: 'ElementAccess',
          target: {
            kind: 'Name',
            name: holderName(holder),
            typeArgs: [],
            alias: null,
            span: mi.span,
          },
          arguments: mi.target,
          conditional: false,
          span: mi.span,
        };
        target = await this.it.elements.elementAccess(
          fake,
          mi.value.kind === 'ObjectInitializer' || mi.value.kind === 'CollectionInitializer'
            ? 'read'
            : 'write',
        );
      } else {
        const name = mi.target.name;
        if (seen.has(name))
          throw new CompileError(
            'CS1912',
            `duplicate initialization of member '${name}'`,
            mi.target.span,
          );
        seen.add(name);
        const m = await this.it.members.member(type, name);
        const nested =
          mi.value.kind === 'ObjectInitializer' || mi.value.kind === 'CollectionInitializer';
        const mode = nested ? 'read' : 'write';
        if (m?.k === 'field' && !m.field.isStatic)
          target = await this.it.memberOperands.fieldOperand(
            receiver,
            m.field,
            mode,
            mi.target.span,
          );
        else if (m?.k === 'property' && !m.property.isStatic)
          target = await this.it.memberOperands.propertyOperand(
            receiver,
            m.property,
            [],
            mode,
            mi.target.span,
          );
        else
          throw new CompileError(
            'CS0117',
            `'${await this.f.name(type)}' does not contain an assignable member '${name}'`,
            mi.target.span,
          );
      }
      if (mi.value.kind === 'ObjectInitializer' || mi.value.kind === 'CollectionInitializer') {
        await this.applyInitializer(target, mi.value);
        continue;
      }
      const v = await this.it.conversions.implicitly(
        await this.it.expr(mi.value),
        target.type as TypeHandle,
        'the initializer',
      );
      await this.it.variables.store(target, v.value);
    }
  }
}

function holderName(holder: Operand): string {
  if (holder.place?.k !== 'local')
    throw new UnsupportedError('an indexer initializer on a nested member is not supported');
  return holder.place.name;
}
