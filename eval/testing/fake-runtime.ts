// An in-memory game for unit tests of the evaluator: a Runtime (metadata and game access) over
// a registry of types the test declares and a heap of objects it can inspect afterwards.
//
//   const fake = new FakeRuntime();
//   fake.class('Game.Node', {
//     fields: { Value: 'int', Next: 'Game.Node' },
//     properties: { Name: 'string' },
//     methods: { Twice: { params: ['int x'], returns: 'int', impl: (c) => int(2 * numberOf(c.args[0])) } },
//   });
//   const node = fake.new('Game.Node', { Value: int(3) });
//   fake.setStatic('Game.World', 'Root', node);
//   await evaluate('Game.World.Root.Value = 4', fake);
//   fake.get(node, 'Value'); // int 4
//
// Corlib (System.Object, String, the primitives, Nullable<T>...) is declared by fake-corlib.ts.

import type { FieldDescriptor, Runtime, TypeHandle } from '../runtime.js';
import { num, type EvalValue } from '../values.js';
import { declareCorlib } from './fake-corlib.js';
import { FakeGame } from './fake-game.js';
import { FakeMetadata } from './fake-metadata.js';
import type { EnumSpec, TypeSpec } from './fake-specs.js';

export type { Call, EnumSpec, MethodSpec, TypeSpec } from './fake-specs.js';
export { gameException } from './fake-game.js';

/** Log entries that change the game or run its code (reads are not effects). */
const EFFECTS = /^(invoke|write|newArray|createString|box)/;

export class FakeRuntime implements Runtime {
  readonly metadata = new FakeMetadata();
  readonly game: FakeGame;

  constructor() {
    this.game = new FakeGame(this.metadata, this);
    declareCorlib(this);
  }

  // ---------------------------------------------------------------- declaring types

  class(fullName: string, spec: TypeSpec = {}): TypeHandle {
    return this.metadata.declare(fullName, 'class', spec);
  }

  struct(fullName: string, spec: TypeSpec = {}): TypeHandle {
    return this.metadata.declare(fullName, 'struct', spec);
  }

  interface(fullName: string, spec: TypeSpec = {}): TypeHandle {
    return this.metadata.declare(fullName, 'interface', spec);
  }

  /** A delegate type: its `Invoke` method (client-side delegates are typed by it). */
  delegate(fullName: string, spec: TypeSpec = {}): TypeHandle {
    return this.metadata.declare(fullName, 'delegate', { base: 'System.Object', ...spec });
  }

  enum(fullName: string, spec: EnumSpec): TypeHandle {
    return this.metadata.declare(fullName, 'enum', {}, spec);
  }

  /** A type by type string: `int`, `Game.Node[]`, `Game.Box<int>`, `int?`. */
  type(text: string | TypeHandle): TypeHandle {
    return typeof text === 'string' ? this.metadata.resolve(text) : text;
  }

  // ---------------------------------------------------------------- making values

  /** A new class instance in the heap, or a struct value, with some fields set by name. */
  new(type: string | TypeHandle, init: Readonly<Record<string, EvalValue>> = {}): EvalValue {
    const t = this.type(type);
    let v =
      this.metadata.entry(t).kind === 'class' ? this.game.instance(t) : this.game.defaultOf(t);
    for (const [name, x] of Object.entries(init)) v = this.set(v, name, x);
    return v;
  }

  /** A one-dimensional array in the heap. */
  array(element: string | TypeHandle, values: readonly EvalValue[]): EvalValue {
    const a = this.game.newArrayNow(this.type(element), [values.length]);
    values.forEach((v, i) => this.setElement(a, i, v));
    return a;
  }

  /** A string object in the heap (as the game returns them: by reference). */
  string(text: string): EvalValue {
    return this.game.alloc({ kind: 'string', text });
  }

  enumValue(type: string | TypeHandle, member: string): EvalValue {
    const f = this.field(this.type(type), member, true);
    if (!f.constant) throw new Error(`fake: ${member} is not an enum member`);
    return f.constant;
  }

  // ---------------------------------------------------------------- reading and changing state

  /**
   * A field (or an auto-property's backing field) of an object or a struct value; the nearest
   * declaration of the name, or the one of `declaredOn` (a hidden base field).
   */
  get(target: EvalValue, name: string, declaredOn?: string): EvalValue {
    const f = this.field(this.game.typeOfValue(target), name, false, declaredOn);
    if (target.kind === 'struct') return target.fields[this.game.structIndex(f)]!;
    const o = this.game.object(target);
    if (o.kind !== 'instance') throw new Error(`fake: fields of a ${o.kind}`);
    return o.fields.get(`${f.declaringType.key}::${f.name}`)!;
  }

  /** Sets a field: in place for an object (returned as is), as a new value for a struct. */
  set(target: EvalValue, name: string, value: EvalValue, declaredOn?: string): EvalValue {
    const f = this.field(this.game.typeOfValue(target), name, false, declaredOn);
    if (target.kind === 'struct') {
      const fields = [...target.fields];
      fields[this.game.structIndex(f)] = value;
      return { ...target, fields };
    }
    const o = this.game.object(target);
    if (o.kind !== 'instance') throw new Error(`fake: fields of a ${o.kind}`);
    o.fields.set(`${f.declaringType.key}::${f.name}`, value);
    return target;
  }

  static(type: string | TypeHandle, name: string): EvalValue {
    const f = this.field(this.type(type), name, true);
    return (
      this.game.statics.get(`${f.declaringType.key}::${f.name}`) ?? this.game.defaultOf(f.type)
    );
  }

  setStatic(type: string | TypeHandle, name: string, value: EvalValue): void {
    const f = this.field(this.type(type), name, true);
    this.game.statics.set(`${f.declaringType.key}::${f.name}`, value);
  }

  elements(array: EvalValue): EvalValue[] {
    const o = this.game.object(array);
    if (o.kind !== 'array') throw new Error(`fake: not an array: ${o.kind}`);
    return [...o.elements];
  }

  setElement(array: EvalValue, index: number, value: EvalValue): void {
    const o = this.game.object(array);
    if (o.kind !== 'array') throw new Error(`fake: not an array: ${o.kind}`);
    o.elements[index] = value;
  }

  /** The text of a string value, local or in the heap. */
  text(value: EvalValue): string {
    return this.game.textOf(value);
  }

  /** `Type.ToString()`: `Game.Box\`1[System.Int32]`, `System.Int32[]`, `Game.Outer+Inner`. */
  reflectionName(type: TypeHandle): string {
    const e = this.metadata.entry(type);
    if (e.definition)
      return `${this.metadata.entry(e.definition).fullName}[${e.typeArgs.map((a) => this.reflectionName(a)).join(',')}]`;
    if (e.element) return `${this.reflectionName(e.element)}[${','.repeat(e.rank - 1)}]`;
    return e.fullName;
  }

  private field(
    type: TypeHandle,
    name: string,
    isStatic: boolean,
    declaredOn?: string,
  ): FieldDescriptor {
    const owner = declaredOn === undefined ? undefined : this.type(declaredOn).key;
    for (const t of this.metadata.chain(type)) {
      if (owner !== undefined && t.key !== owner) continue;
      const f = this.metadata
        .built(t)
        .fields.find(
          (x) =>
            (x.name === name || x.name === `<${name}>k__BackingField`) && x.isStatic === isStatic,
        );
      if (f) return f;
    }
    throw new Error(`fake: ${this.metadata.entry(type).fullName} has no field ${name}`);
  }

  // ---------------------------------------------------------------- the record

  /** Every GameAccess call the evaluator made, in order. */
  get log(): readonly string[] {
    return this.game.log;
  }

  /** The calls that ran game code, wrote, or allocated. */
  effects(): string[] {
    return this.game.log.filter((l) => EFFECTS.test(l));
  }

  clearLog(): void {
    this.game.log.length = 0;
  }
}

// ---------------------------------------------------------------- values for method bodies

export function int(n: number): EvalValue {
  return num('int', n);
}

/** A number, enum or char value as a JS number. */
export function numberOf(v: EvalValue | undefined): number {
  if (v?.kind === 'number' || v?.kind === 'enum') return Number(v.value);
  throw new Error(`fake: not a number: ${v?.kind}`);
}
