// The evaluator's GameAccess over one operation of the session: field reads and writes are wire
// commands, calls are main-thread invokes, strings are read with GET_CHARS (bounded when asked).
// With an observer, every write to the game is told with the value before and after: fields,
// statics and elements read on the wire; a property set through its getter (two more invokes).

import {
  BindingFlags,
  Values,
  readString,
  type SdbConnection,
  type Value,
} from '../../sdb-protocol/index.js';
import {
  GameExceptionError,
  type FieldDescriptor,
  type GameAccess,
  type InvokeOptions,
  type InvokeResult,
  type MethodDescriptor,
  type PropertyDescriptor,
  type TypeHandle,
} from '../../eval/runtime.js';
import type { EvalValue } from '../../eval/values.js';
import { KEYWORD_TYPES, csharpName, primitiveKindOfName } from '../../eval/index.js';
import type { InvokeOutcome } from '../invoker.js';
import { UnityError } from '../errors.js';
import type { OperationContext } from '../session/session.js';
import { fromWire, handleOf, toWire, typeIdOf, type WireSupport } from './convert.js';
import type { GameMetadata } from './game-metadata.js';
import {
  readAt,
  readProperty,
  type IndexArg,
  type WriteLocation,
  type WriteObserver,
} from './write-observer.js';

/** A string index argument longer than this keeps only its object (see IndexArg). */
const MAX_INDEX_TEXT = 4096;

export class SessionGameAccess implements GameAccess, WireSupport {
  private readonly conn: SdbConnection;
  /** Told of every field, static, element and property write, with the value before and after. */
  onWrite: WriteObserver | undefined;
  /**
   * Objects this evaluation made (constructed, arrays, boxes, strings): no one else can have
   * seen them, so writes to them are not observed (nothing of the game's to undo).
   */
  private readonly made = new Set<number>();

  constructor(
    private readonly ctx: OperationContext,
    private readonly metadata: GameMetadata,
  ) {
    this.conn = ctx.conn;
  }

  private async type(name: string): Promise<number> {
    const t = await this.metadata.findType(name);
    if (!t) throw new Error(`${name} is not loaded in the game`);
    return typeIdOf(t);
  }

  decimalTypeId(): Promise<number> {
    return this.type('System.Decimal');
  }

  async decimalFieldNames(): Promise<string[]> {
    return this.metadata.instanceFieldNames(await this.decimalTypeId());
  }

  async gameString(text: string): Promise<number> {
    const domainId =
      this.conn.vmStart?.rootDomainId ?? (await this.conn.send('APPDOMAIN.GET_ROOT_DOMAIN'));
    const id = await this.conn.send('APPDOMAIN.CREATE_STRING', { domainId, text });
    this.made.add(id);
    return id;
  }

  async createString(text: string): Promise<EvalValue> {
    return { kind: 'string', text, ref: { id: await this.gameString(text) } };
  }

  private wire(v: EvalValue): ReturnType<typeof toWire> {
    return toWire(v, this);
  }

  /**
   * A value for a slot of a known type. The evaluator keeps boxed values unboxed and
   * Nullable<T> as T-or-null (C#'s view); the wire needs the real shapes: a box in the game
   * for a reference slot, the Nullable struct for a Nullable slot.
   */
  private async wireFor(v: EvalValue, slot: TypeHandle | undefined): Promise<Value> {
    if (!slot) return this.wire(v);
    const d = await this.metadata.describe(slot);
    const boxable =
      v.kind === 'number' ||
      v.kind === 'bool' ||
      v.kind === 'decimal' ||
      v.kind === 'enum' ||
      v.kind === 'struct';
    if (boxable && d.kind !== 'struct' && d.kind !== 'enum') {
      const boxed = await this.box(v, await this.typeOf(v));
      return Values.object((boxed as { ref: { id: number } }).ref.id);
    }
    if (d.kind === 'struct' && d.fullName.startsWith('System.Nullable`1') && d.typeArguments[0]) {
      const inner = d.typeArguments[0];
      const names = await this.metadata.instanceFieldNames(typeIdOf(slot));
      const hasValue = v.kind !== 'null';
      const value = hasValue ? await this.wireFor(v, inner) : await this.zeroWire(inner);
      return Values.struct(
        typeIdOf(slot),
        names.map((n) => (n === 'has_value' || n === 'hasValue' ? Values.bool(hasValue) : value)),
      );
    }
    return this.wire(v);
  }

  /** default(T) on the wire. */
  private async zeroWire(type: TypeHandle): Promise<Value> {
    const d = await this.metadata.describe(type);
    const primitive = primitiveKindOfName(d.fullName);
    if (primitive === 'bool') return Values.bool(false);
    if (primitive === 'decimal')
      return this.wire({ kind: 'decimal', bits: { flags: 0, hi: 0, lo: 0, mid: 0 } });
    if (primitive) {
      const value = primitive === 'long' || primitive === 'ulong' ? 0n : 0;
      return this.wire({ kind: 'number', type: primitive, value });
    }
    if (d.kind === 'enum') {
      const underlying = (await this.metadata.allFields(type)).find((f) => !f.isStatic);
      return Values.struct(
        typeIdOf(type),
        [underlying ? await this.zeroWire(underlying.type) : Values.i4(0)],
        true,
      );
    }
    if (d.kind !== 'struct') return Values.null();
    const fields: Value[] = [];
    for (const f of await this.metadata.allFields(type))
      if (!f.isStatic) fields.push(await this.zeroWire(f.type));
    return Values.struct(typeIdOf(type), fields);
  }

  /** Element types of arrays written to, by array id (an array's type never changes). */
  private readonly elementTypes = new Map<number, Promise<TypeHandle | undefined>>();

  private elementTypeOf(array: { ref: { id: number } }): Promise<TypeHandle | undefined> {
    let p = this.elementTypes.get(array.ref.id);
    if (!p) {
      p = this.typeOf(array as EvalValue).then(
        async (t) => (await this.metadata.describe(t)).elementType,
      );
      this.elementTypes.set(array.ref.id, p);
    }
    return p;
  }

  /**
   * C# runs a type's static constructor before its statics are first used; the agent reads and
   * writes statics without it (an uninitialized class reads as zeros). So run it first, once:
   * RuntimeHelpers.RunClassConstructor(typeof(T).TypeHandle), on the main thread.
   */
  private async ensureInitialized(type: TypeHandle): Promise<void> {
    if (this.metadata.initialized.has(type.key)) return;
    const typeId = typeIdOf(type);
    const done = await this.conn.send('TYPE.IS_INITIALIZED', { typeId }).catch(() => false);
    if (!done && (await this.metadata.members(type, '.cctor')).methods.length > 0) {
      const systemType = await this.metadata.findType('System.Type');
      const helpers = await this.metadata.findType(
        'System.Runtime.CompilerServices.RuntimeHelpers',
      );
      const handleType = await this.metadata.findType('System.RuntimeTypeHandle');
      const getter =
        systemType && (await this.metadata.members(systemType, 'TypeHandle')).properties[0]?.getter;
      const run =
        helpers &&
        handleType &&
        (await this.metadata.members(helpers, 'RunClassConstructor')).methods.find(
          (m) => m.parameters.length === 1 && m.parameters[0]!.type.key === handleType.key,
        );
      if (!getter || !run)
        throw new Error('RuntimeHelpers.RunClassConstructor(RuntimeTypeHandle) is not available');
      const typeObject = await this.conn.send('TYPE.GET_OBJECT', { typeId });
      const handle = await this.ctx.invoke(getter.handle as number, Values.object(typeObject), [], {
        virtual: true,
      });
      try {
        await this.ctx.invoke(run.handle as number, Values.null(), [handle.result]);
      } catch (e) {
        if (e instanceof UnityError && e.code === 'GAME_EXCEPTION') {
          const d = e.details as { type: string; message: string; stackTrace: string };
          throw new GameExceptionError(d.type, d.message, d.stackTrace);
        }
        throw e;
      }
    }
    this.metadata.initialized.add(type.key);
  }

  async readStatic(field: FieldDescriptor): Promise<EvalValue> {
    await this.ensureInitialized(field.declaringType);
    const [v] = await this.conn.send('TYPE.GET_VALUES', {
      typeId: typeIdOf(field.declaringType),
      fieldIds: [field.handle as number],
    });
    return fromWire(v!, this.metadata);
  }

  async writeStatic(field: FieldDescriptor, value: EvalValue): Promise<void> {
    await this.ensureInitialized(field.declaringType);
    this.ctx.markWrite();
    const typeId = typeIdOf(field.declaringType);
    const fieldId = field.handle as number;
    await this.observed({ kind: 'static', typeId, fieldId, name: field.name }, async () => {
      await this.conn.send('TYPE.SET_VALUES', {
        typeId,
        writes: [{ fieldId, value: await this.wireFor(value, field.type) }],
      });
    });
  }

  /** Runs a write, telling the observer (when there is one) the value before and after. */
  private async observed(where: WriteLocation, write: () => Promise<void>): Promise<void> {
    const observer = this.onWrite;
    const target =
      where.kind === 'field' ? where.objectId : where.kind === 'element' ? where.arrayId : 0;
    if (!observer || this.made.has(target)) return write();
    const before = await readAt(this.ctx, where);
    await write();
    observer({ where, before, after: await readAt(this.ctx, where), invokes: 0 });
  }

  /**
   * A property set, told to the observer with the value before and after read through the
   * getter (an invoke each, in this window). A property without a getter, or whose getter
   * throws, is set all the same and told as a write that cannot be undone.
   */
  private async observedSet(
    property: PropertyDescriptor,
    thisArg: Value,
    args: readonly Value[],
    evalArgs: readonly EvalValue[],
    set: () => Promise<InvokeOutcome>,
  ): Promise<InvokeOutcome> {
    const observer = this.onWrite;
    const objectId = thisArg.kind === 'object' ? thisArg.objectId : undefined;
    if (!observer || (objectId !== undefined && this.made.has(objectId))) return set();
    const indexArgs = args.slice(0, -1);
    const where = await this.propertyLocation(property, objectId, indexArgs, evalArgs);
    if (!where.getter) {
      const r = await set();
      observer({
        where,
        notUndoable: 'it has no getter: its value before cannot be read',
        invokes: 0,
      });
      return r;
    }
    let before: Value;
    try {
      before = await readProperty(this.ctx, where, indexArgs);
    } catch (e) {
      // the getter threw (a dictionary's missing key): set all the same, as C# would
      const thrown = gameException(e);
      const r = await set();
      observer({ where, notUndoable: `reading it before threw ${thrown}`, invokes: 1 });
      return r;
    }
    const r = await set();
    try {
      const after = await readProperty(this.ctx, where, indexArgs);
      observer({ where, before, after, invokes: 2 });
    } catch (e) {
      observer({ where, notUndoable: `reading it after threw ${gameException(e)}`, invokes: 2 });
    }
    return r;
  }

  private async propertyLocation(
    p: PropertyDescriptor,
    objectId: number | undefined,
    indexArgs: readonly Value[],
    evalArgs: readonly EvalValue[],
  ): Promise<Extract<WriteLocation, { kind: 'property' }>> {
    const args: IndexArg[] = [];
    const shown: string[] = [];
    for (let i = 0; i < indexArgs.length; i++) {
      const value = indexArgs[i]!;
      const ev = evalArgs[i];
      if (value.kind === 'string' && ev?.kind === 'string') {
        const s = await this.stringText(ev, MAX_INDEX_TEXT);
        const whole = s.length <= MAX_INDEX_TEXT;
        args.push(whole ? { value, text: s.text } : { value });
        shown.push(JSON.stringify(s.text.slice(0, 40)));
      } else {
        args.push({ value });
        shown.push(ev?.kind === 'number' ? String(ev.value) : value.kind);
      }
    }
    const type = await csharpName(this.metadata, p.declaringType);
    const setter = p.setter!;
    return {
      kind: 'property',
      ...(objectId !== undefined ? { objectId } : {}),
      typeId: typeIdOf(p.declaringType),
      ...(p.getter
        ? {
            getter: {
              methodId: p.getter.handle as number,
              virtual: objectId !== undefined && p.getter.isVirtual,
            },
          }
        : {}),
      setter: {
        methodId: setter.handle as number,
        virtual: objectId !== undefined && setter.isVirtual,
      },
      args,
      name: p.parameters.length > 0 ? `${type}[${shown.join(', ')}]` : `${type}.${p.name}`,
    };
  }

  async readField(target: EvalValue, field: FieldDescriptor): Promise<EvalValue> {
    if (target.kind !== 'object')
      throw new Error(`a field of a ${target.kind} value is not read from the game`);
    const [v] = await this.conn.send('OBJECT_REF.GET_VALUES', {
      objectId: target.ref.id,
      fieldIds: [field.handle as number],
    });
    return fromWire(v!, this.metadata);
  }

  async writeField(target: EvalValue, field: FieldDescriptor, value: EvalValue): Promise<void> {
    if (target.kind !== 'object')
      throw new Error(`a field of a ${target.kind} value is not written in the game`);
    this.ctx.markWrite();
    const objectId = target.ref.id;
    const fieldId = field.handle as number;
    await this.observed({ kind: 'field', objectId, fieldId, name: field.name }, async () => {
      await this.conn.send('OBJECT_REF.SET_VALUES', {
        objectId,
        writes: [{ fieldId, value: await this.wireFor(value, field.type) }],
      });
    });
  }

  async invoke(
    method: MethodDescriptor,
    thisArg: EvalValue | undefined,
    args: readonly EvalValue[],
    options: InvokeOptions,
  ): Promise<InvokeResult> {
    const wireArgs: Value[] = [];
    for (let i = 0; i < args.length; i++) {
      wireArgs.push(await this.wireFor(args[i]!, method.parameters[i]?.type));
    }
    const wireThis = thisArg ? await this.wireFor(thisArg, method.declaringType) : Values.null();
    const call = () =>
      this.ctx.invoke(method.handle as number, wireThis, wireArgs, {
        virtual: options.virtual,
        returnOutThis: options.outThis,
        returnOutArgs: options.outArgs,
      });
    const property = options.propertySet;
    try {
      const r =
        property?.setter && (wireThis.kind === 'object' || (!thisArg && property.isStatic))
          ? await this.observedSet(property, wireThis, wireArgs, args, call)
          : await call();
      if (method.isConstructor && !thisArg && r.result.kind === 'object')
        this.made.add(r.result.objectId);
      const out: InvokeResult = { result: await fromWire(r.result, this.metadata) };
      if (r.outThis) out.outThis = await fromWire(r.outThis, this.metadata);
      if (r.outArgs)
        out.outArgs = await Promise.all(r.outArgs.map((a) => fromWire(a, this.metadata)));
      return out;
    } catch (e) {
      if (e instanceof UnityError && e.code === 'GAME_EXCEPTION') {
        const d = e.details as { type: string; message: string; stackTrace: string };
        throw new GameExceptionError(d.type, d.message, d.stackTrace);
      }
      throw e;
    }
  }

  async arrayLengths(array: EvalValue): Promise<number[]> {
    if (array.kind !== 'object') throw new Error('not an array');
    const l = await this.conn.send('ARRAY_REF.GET_LENGTH', { arrayId: array.ref.id });
    return l.dimensions.map((d) => d.length);
  }

  async readElement(array: EvalValue, index: number): Promise<EvalValue> {
    if (array.kind !== 'object') throw new Error('not an array');
    const [v] = await this.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: array.ref.id,
      index,
      count: 1,
    });
    return fromWire(v!, this.metadata);
  }

  async writeElement(array: EvalValue, index: number, value: EvalValue): Promise<void> {
    if (array.kind !== 'object') throw new Error('not an array');
    this.ctx.markWrite();
    const arrayId = array.ref.id;
    await this.observed({ kind: 'element', arrayId, index }, async () => {
      await this.conn.send('ARRAY_REF.SET_VALUES', {
        arrayId,
        index,
        values: [await this.wireFor(value, await this.elementTypeOf(array))],
      });
    });
  }

  async newArray(element: TypeHandle, lengths: readonly number[]): Promise<EvalValue> {
    const typeObject = await this.conn.send('TYPE.GET_OBJECT', { typeId: typeIdOf(element) });
    const array = await this.createArray(typeObject, lengths);
    if (array.kind === 'object') this.made.add(array.ref.id);
    return array;
  }

  /** Array.CreateInstance(type, lengths) for a System.Type object in the game. */
  async createArray(typeObjectId: number, lengths: readonly number[]): Promise<EvalValue> {
    const arrayType = await this.type('System.Array');
    const typeType = await this.type('System.Type');
    this.createInstance ??= (async () => {
      const overloads = await this.conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
        typeId: arrayType,
        name: 'CreateInstance',
        flags: BindingFlags.Static | BindingFlags.Public | BindingFlags.DeclaredOnly,
      });
      const found: { one?: number; many?: number } = {};
      for (const id of overloads) {
        const p = await this.conn.send('METHOD.GET_PARAM_INFO', { methodId: id });
        if (p.paramCount !== 2 || p.paramTypeIds[0] !== typeType) continue;
        const second = await this.metadata.fullName(p.paramTypeIds[1]!);
        if (second === 'System.Int32') found.one = id;
        if (second === 'System.Int32[]') found.many = id;
      }
      if (found.one === undefined || found.many === undefined)
        throw new Error('System.Array.CreateInstance(Type, ...) not found');
      return { one: found.one, many: found.many };
    })();
    const methods = await this.createInstance;
    let lengthArg: Value;
    if (lengths.length === 1) {
      lengthArg = Values.i4(lengths[0]!);
    } else {
      const intType = await this.conn.send('TYPE.GET_OBJECT', {
        typeId: await this.type('System.Int32'),
      });
      const ints = (await this.createArray(intType, [lengths.length])) as { ref: { id: number } };
      await this.conn.send('ARRAY_REF.SET_VALUES', {
        arrayId: ints.ref.id,
        index: 0,
        values: lengths.map((n) => Values.i4(n)),
      });
      lengthArg = Values.object(ints.ref.id);
    }
    const r = await this.ctx.invoke(
      lengths.length === 1 ? methods.one : methods.many,
      Values.null(),
      [Values.object(typeObjectId), lengthArg],
    );
    return fromWire(r.result, this.metadata);
  }

  private createInstance: Promise<{ one: number; many: number }> | undefined;

  async stringText(value: EvalValue, maxChars?: number): Promise<{ text: string; length: number }> {
    if (value.kind !== 'string') throw new Error(`not a string: ${value.kind}`);
    if (!value.ref) {
      const text = value.text ?? '';
      return { text: maxChars === undefined ? text : text.slice(0, maxChars), length: text.length };
    }
    const r = await readString(this.conn, value.ref.id, maxChars === undefined ? {} : { maxChars });
    return { text: r.text, length: r.length };
  }

  async box(value: EvalValue, type: TypeHandle): Promise<EvalValue> {
    const domainId =
      this.conn.vmStart?.rootDomainId ?? (await this.conn.send('APPDOMAIN.GET_ROOT_DOMAIN'));
    const id = await this.conn.send('APPDOMAIN.CREATE_BOXED_VALUE', {
      domainId,
      typeId: typeIdOf(type),
      value: await this.wire(value),
    });
    this.made.add(id);
    return { kind: 'object', ref: { id }, type };
  }

  async rebox(box: EvalValue, value: EvalValue): Promise<void> {
    if (box.kind !== 'object' || value.kind !== 'struct')
      throw new Error('rebox needs a box and a struct');
    const fields = (await this.metadata.allFields(value.type)).filter((f) => !f.isStatic);
    this.ctx.markWrite();
    await this.conn.send('OBJECT_REF.SET_VALUES', {
      objectId: box.ref.id,
      writes: await Promise.all(
        fields.map(async (f, i) => ({
          fieldId: f.handle as number,
          value: await this.wireFor(value.fields[i]!, f.type),
        })),
      ),
    });
  }

  async unbox(box: EvalValue, type: TypeHandle): Promise<EvalValue> {
    if (box.kind !== 'object') throw new Error(`not a box: ${box.kind}`);
    const fields = (await this.metadata.allFields(type)).filter((f) => !f.isStatic);
    const values = await this.conn.send('OBJECT_REF.GET_VALUES', {
      objectId: box.ref.id,
      fieldIds: fields.map((f) => f.handle as number),
    });
    return fromWire(
      { kind: 'valuetype', typeId: typeIdOf(type), isEnum: false, fields: values },
      this.metadata,
    );
  }

  async typeObject(type: TypeHandle): Promise<EvalValue> {
    const id = await this.conn.send('TYPE.GET_OBJECT', { typeId: typeIdOf(type) });
    return {
      kind: 'object',
      ref: { id },
      type: handleOf(await this.type('System.RuntimeType').catch(() => this.type('System.Type'))),
    };
  }

  async typeOf(value: EvalValue): Promise<TypeHandle> {
    switch (value.kind) {
      case 'object':
        return (
          value.type ??
          handleOf(await this.conn.send('OBJECT_REF.GET_TYPE', { objectId: value.ref.id }))
        );
      case 'struct':
      case 'enum':
        return value.type;
      case 'string':
        return handleOf(await this.type('System.String'));
      case 'number':
        return handleOf(await this.type(KEYWORD_TYPES[value.type]));
      case 'bool':
        return handleOf(await this.type('System.Boolean'));
      case 'decimal':
        return handleOf(await this.type('System.Decimal'));
      case 'pointer':
        return handleOf(await this.type('System.IntPtr'));
      case 'null':
      case 'void':
        throw new Error(`a ${value.kind} value has no runtime type`);
    }
  }
}

/** A game exception's type and message; anything else is thrown on. */
function gameException(e: unknown): string {
  if (!(e instanceof UnityError && e.code === 'GAME_EXCEPTION')) throw e;
  const d = e.details as { type: string; message: string };
  return `${d.type} (${d.message})`;
}
