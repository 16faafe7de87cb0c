// The fake game's state, as a GameAccess: a heap of objects keyed by id, static fields, and a
// log of every call the evaluator made (so a test can assert that nothing ran). Values are
// those of the real bridge: primitives inline, objects by reference, structs as field lists
// in declaration order, Nullable<T> as T-or-null, boxed values unboxed.

import {
  GameExceptionError,
  type FieldDescriptor,
  type GameAccess,
  type InvokeOptions,
  type InvokeResult,
  type MethodDescriptor,
  type TypeHandle,
} from '../runtime.js';
import { NULL, VOID, bool, num, type EvalValue } from '../values.js';
import type { FakeMethod } from './fake-builder.js';
import type { FakeMetadata } from './fake-metadata.js';
import type { FakeRuntime } from './fake-runtime.js';
import { valueNumericKindOfName } from '../interpret/primitives.js';
import type { Call } from './fake-specs.js';

export type HeapObject =
  | {
      readonly kind: 'instance';
      readonly type: TypeHandle;
      readonly fields: Map<string, EvalValue>;
    }
  | {
      readonly kind: 'array';
      readonly type: TypeHandle;
      readonly lengths: readonly number[];
      readonly elements: EvalValue[];
    }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'boxed'; readonly type: TypeHandle; readonly value: EvalValue }
  /** A System.RuntimeType: what typeof and GetType() return. */
  | { readonly kind: 'type'; readonly represents: TypeHandle };

/** Where a field's value lives in an instance's map or the statics map. */
export function fieldKey(f: FieldDescriptor): string {
  return `${f.declaringType.key}::${f.name}`;
}

export class FakeGame implements GameAccess {
  readonly heap = new Map<number, HeapObject>();
  readonly statics = new Map<string, EvalValue>();
  /** Every GameAccess call, in order: `invoke Game.Node.Describe`, `writeField Game.Node.Value`... */
  readonly log: string[] = [];
  /** Setter calls the evaluator said were property sets in an assignment: `set_Label (Label)`. */
  readonly propertySets: string[] = [];
  private nextId = 1;
  private readonly typeObjects = new Map<string, EvalValue>();

  constructor(
    private readonly md: FakeMetadata,
    private readonly fake: FakeRuntime,
  ) {}

  // ---------------------------------------------------------------- heap helpers (not logged)

  alloc(o: HeapObject): EvalValue {
    const id = this.nextId++;
    this.heap.set(id, o);
    return o.kind === 'string'
      ? { kind: 'string', text: o.text, ref: { id } }
      : { kind: 'object', ref: { id } };
  }

  object(v: EvalValue): HeapObject {
    const ref = v.kind === 'object' || v.kind === 'string' ? v.ref : undefined;
    const o = ref && this.heap.get(ref.id);
    if (!o) throw new Error(`fake: not a heap object: ${JSON.stringify(v, jsonBigInt)}`);
    return o;
  }

  instance(type: TypeHandle): EvalValue {
    const fields = new Map<string, EvalValue>();
    for (const t of this.md.chain(type))
      for (const f of this.md.built(t).fields)
        if (!f.isStatic) fields.set(fieldKey(f), this.defaultOf(f.type));
    return this.alloc({ kind: 'instance', type, fields });
  }

  /** default(T) as the game holds it. */
  defaultOf(type: TypeHandle): EvalValue {
    const e = this.md.entry(type);
    const numeric = valueNumericKindOfName(e.fullName);
    if (numeric) return num(numeric, numeric === 'long' || numeric === 'ulong' ? 0n : 0);
    if (e.fullName === 'System.Boolean') return bool(false);
    if (e.fullName === 'System.Decimal')
      return { kind: 'decimal', bits: { flags: 0, hi: 0, lo: 0, mid: 0 } };
    if (e.kind === 'enum') {
      const u = e.enumSpec?.underlying ?? 'int';
      return { kind: 'enum', type, underlying: u, value: u === 'long' || u === 'ulong' ? 0n : 0 };
    }
    if (e.kind !== 'struct' || this.isNullable(type)) return NULL;
    const fields = this.md
      .built(type)
      .fields.filter((f) => !f.isStatic)
      .map((f) => this.defaultOf(f.type));
    return { kind: 'struct', type, fields };
  }

  isNullable(type: TypeHandle): boolean {
    const d = this.md.entry(type).definition;
    return !!d && this.md.entry(d).fullName === 'System.Nullable`1';
  }

  typeOfValue(v: EvalValue): TypeHandle {
    switch (v.kind) {
      case 'object': {
        if (v.type) return v.type;
        const o = this.object(v);
        if (o.kind === 'string') return this.md.named('string');
        if (o.kind === 'type') return this.md.named('System.RuntimeType');
        return o.type;
      }
      case 'string':
        return this.md.named('string');
      case 'number':
        return this.md.named(v.type);
      case 'bool':
        return this.md.named('bool');
      case 'decimal':
        return this.md.named('decimal');
      case 'struct':
      case 'enum':
      case 'client':
        return v.type;
      case 'pointer':
        return this.md.named('System.IntPtr');
      case 'null':
      case 'void':
        throw new Error(`fake: a ${v.kind} value has no runtime type`);
    }
  }

  textOf(v: EvalValue): string {
    if (v.kind !== 'string') throw new Error(`fake: not a string: ${v.kind}`);
    if (v.text !== undefined) return v.text;
    const o = this.object(v);
    if (o.kind !== 'string') throw new Error('fake: not a string object');
    return o.text;
  }

  private array(v: EvalValue): HeapObject & { kind: 'array' } {
    const o = this.object(v);
    if (o.kind !== 'array') throw new Error(`fake: not an array: ${o.kind}`);
    return o;
  }

  private instanceFields(v: EvalValue): Map<string, EvalValue> {
    const o = this.object(v);
    if (o.kind !== 'instance') throw new Error(`fake: fields of a ${o.kind}`);
    return o.fields;
  }

  // ---------------------------------------------------------------- GameAccess

  readStatic(field: FieldDescriptor): Promise<EvalValue> {
    this.log.push(`readStatic ${this.name(field)}`);
    return Promise.resolve(this.statics.get(fieldKey(field)) ?? this.defaultOf(field.type));
  }

  writeStatic(field: FieldDescriptor, value: EvalValue): Promise<void> {
    this.log.push(`writeStatic ${this.name(field)}`);
    this.statics.set(fieldKey(field), value);
    return Promise.resolve();
  }

  readField(target: EvalValue, field: FieldDescriptor): Promise<EvalValue> {
    this.log.push(`readField ${this.name(field)}`);
    const fields = this.instanceFields(target);
    const v = fields.get(fieldKey(field));
    if (!v) throw new Error(`fake: the object has no field ${this.name(field)}`);
    return Promise.resolve(v);
  }

  writeField(target: EvalValue, field: FieldDescriptor, value: EvalValue): Promise<void> {
    this.log.push(`writeField ${this.name(field)}`);
    const fields = this.instanceFields(target);
    if (!fields.has(fieldKey(field)))
      throw new Error(`fake: the object has no field ${this.name(field)}`);
    fields.set(fieldKey(field), value);
    return Promise.resolve();
  }

  invoke(
    method: MethodDescriptor,
    thisArg: EvalValue | undefined,
    args: readonly EvalValue[],
    options: InvokeOptions,
  ): Promise<InvokeResult> {
    this.log.push(`invoke ${this.md.entry(method.declaringType).fullName}.${method.name}`);
    if (options.propertySet) this.propertySets.push(`${method.name} (${options.propertySet.name})`);
    try {
      return Promise.resolve(this.run(method, thisArg, args, options));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  arrayLengths(array: EvalValue): Promise<number[]> {
    this.log.push('arrayLengths');
    return Promise.resolve([...this.array(array).lengths]);
  }

  readElement(array: EvalValue, index: number): Promise<EvalValue> {
    this.log.push(`readElement [${index}]`);
    const a = this.array(array);
    if (index < 0 || index >= a.elements.length) throw new Error(`fake: index ${index} outside`);
    return Promise.resolve(a.elements[index]!);
  }

  writeElement(array: EvalValue, index: number, value: EvalValue): Promise<void> {
    this.log.push(`writeElement [${index}]`);
    const a = this.array(array);
    if (index < 0 || index >= a.elements.length) throw new Error(`fake: index ${index} outside`);
    a.elements[index] = value;
    return Promise.resolve();
  }

  newArray(element: TypeHandle, lengths: readonly number[]): Promise<EvalValue> {
    this.log.push(`newArray ${this.md.entry(element).fullName}[${lengths.join(',')}]`);
    return Promise.resolve(this.newArrayNow(element, lengths));
  }

  newArrayNow(element: TypeHandle, lengths: readonly number[]): EvalValue {
    const count = lengths.reduce((a, b) => a * b, 1);
    const elements = Array.from({ length: count }, () => this.defaultOf(element));
    const type = this.md.array(element, lengths.length);
    return this.alloc({ kind: 'array', type, lengths: [...lengths], elements });
  }

  stringText(value: EvalValue, maxChars?: number): Promise<{ text: string; length: number }> {
    this.log.push('stringText');
    const text = this.textOf(value);
    return Promise.resolve({
      text: maxChars === undefined ? text : text.slice(0, maxChars),
      length: text.length,
    });
  }

  createString(text: string): Promise<EvalValue> {
    this.log.push('createString');
    return Promise.resolve(this.alloc({ kind: 'string', text }));
  }

  box(value: EvalValue, type: TypeHandle): Promise<EvalValue> {
    this.log.push(`box ${this.md.entry(type).fullName}`);
    const boxed = this.alloc({ kind: 'boxed', type, value });
    return Promise.resolve({ ...boxed, type } as EvalValue);
  }

  rebox(box: EvalValue, value: EvalValue): Promise<void> {
    this.log.push('rebox');
    const o = this.object(box);
    if (o.kind !== 'boxed' || box.kind !== 'object') throw new Error('fake: rebox of a non-box');
    this.heap.set(box.ref.id, { ...o, value });
    return Promise.resolve();
  }

  unbox(box: EvalValue, type: TypeHandle): Promise<EvalValue> {
    this.log.push(`unbox ${this.md.entry(type).fullName}`);
    const o = this.object(box);
    if (o.kind !== 'boxed') throw new Error('fake: unbox of a non-box');
    return Promise.resolve(o.value);
  }

  typeObject(type: TypeHandle): Promise<EvalValue> {
    this.log.push(`typeObject ${this.md.entry(type).fullName}`);
    return Promise.resolve(this.typeObjectNow(type));
  }

  typeObjectNow(type: TypeHandle): EvalValue {
    let v = this.typeObjects.get(type.key);
    if (!v) {
      v = {
        ...this.alloc({ kind: 'type', represents: type }),
        type: this.md.named('System.RuntimeType'),
      } as EvalValue;
      this.typeObjects.set(type.key, v);
    }
    return v;
  }

  typeOf(value: EvalValue): Promise<TypeHandle> {
    this.log.push('typeOf');
    return Promise.resolve(this.typeOfValue(value));
  }

  // ---------------------------------------------------------------- calls

  /** Runs a method body: constructors allocate, virtual calls dispatch on the runtime type. */
  run(
    method: MethodDescriptor,
    thisArg: EvalValue | undefined,
    args: readonly EvalValue[],
    options: { virtual: boolean; outThis: boolean; outArgs: boolean },
  ): InvokeResult {
    const target = options.virtual && thisArg ? this.dispatch(method, thisArg) : method;
    const h = target.handle as FakeMethod;
    const outArgs = [...args];
    let self = thisArg && this.unboxed(thisArg);
    const valueType = ['struct', 'enum'].includes(this.md.entry(method.declaringType).kind);
    if (method.isConstructor && !valueType) self = this.instance(method.declaringType);
    else if (method.isConstructor) self ??= this.defaultOf(method.declaringType);
    let outThis = self;
    const call: Call = {
      self,
      args: outArgs,
      typeArgs: h.typeArgs,
      method: target,
      fake: this.fake,
      setThis: (v) => (outThis = v),
      setArg: (i, v) => (outArgs[i] = v),
    };
    let result: EvalValue;
    if (h.auto) result = this.autoAccessor(h.auto, call);
    else if (h.impl) result = h.impl(call) ?? VOID;
    else if (method.isConstructor || (!target.returnType && !target.isAbstract)) result = VOID;
    else
      throw new Error(
        `fake: ${this.md.entry(target.declaringType).fullName}.${target.name} has no body`,
      );
    if (method.isConstructor && !valueType) result = self!;
    // a method called on a box changes the box itself, as the CLR does
    const box = thisArg?.kind === 'object' ? this.heap.get(thisArg.ref.id) : undefined;
    if (thisArg?.kind === 'object' && box?.kind === 'boxed' && outThis) {
      this.heap.set(thisArg.ref.id, { ...box, value: outThis });
    }
    return {
      result,
      ...(options.outThis ? { outThis: outThis ?? VOID } : {}),
      ...(options.outArgs ? { outArgs } : {}),
    };
  }

  private dispatch(method: MethodDescriptor, thisArg: EvalValue): MethodDescriptor {
    if (thisArg.kind === 'null') return method;
    // an interface method maps to the implementing method, virtual in C# or not (the compiler
    // marks it virtual sealed); a class method only to overrides
    const viaInterface = this.md.entry(method.declaringType).kind === 'interface';
    for (const t of this.md.chain(this.typeOfValue(this.unboxed(thisArg)))) {
      if (t.key === method.declaringType.key) return method;
      const found = this.md
        .built(t)
        .methods.find(
          (m) =>
            !m.isStatic &&
            !m.isAbstract &&
            (m.isVirtual || viaInterface) &&
            sameSignature(m, method),
        );
      if (found) return found;
    }
    return method;
  }

  private unboxed(v: EvalValue): EvalValue {
    if (v.kind !== 'object') return v;
    const o = this.heap.get(v.ref.id);
    return o?.kind === 'boxed' ? o.value : v;
  }

  private autoAccessor(auto: NonNullable<FakeMethod['auto']>, call: Call): EvalValue {
    const { field, accessor } = auto;
    const self = call.self;
    if (accessor === 'get') {
      if (field.isStatic) return this.statics.get(fieldKey(field)) ?? this.defaultOf(field.type);
      if (self?.kind === 'struct') return self.fields[this.structIndex(field)]!;
      return this.instanceFields(self ?? NULL).get(fieldKey(field))!;
    }
    const value = call.args.at(-1)!;
    if (field.isStatic) this.statics.set(fieldKey(field), value);
    else if (self?.kind === 'struct') {
      const fields = [...self.fields];
      fields[this.structIndex(field)] = value;
      call.setThis({ ...self, fields });
    } else this.instanceFields(self ?? NULL).set(fieldKey(field), value);
    return VOID;
  }

  structIndex(field: FieldDescriptor): number {
    const fields = this.md.built(field.declaringType).fields.filter((f) => !f.isStatic);
    return fields.findIndex((f) => f.name === field.name);
  }

  private name(field: FieldDescriptor): string {
    return `${this.md.entry(field.declaringType).fullName}.${field.name}`;
  }
}

function sameSignature(a: MethodDescriptor, b: MethodDescriptor): boolean {
  return (
    a.name === b.name &&
    a.genericArity === b.genericArity &&
    a.parameters.length === b.parameters.length &&
    a.parameters.every(
      (p, i) => p.type.key === b.parameters[i]!.type.key && p.refKind === b.parameters[i]!.refKind,
    )
  );
}

/** What a method body throws for an exception in the game. */
export function gameException(type: string, message: string): GameExceptionError {
  return new GameExceptionError(type, message, `  at ${type}`);
}

export function jsonBigInt(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `${v}n` : v;
}
