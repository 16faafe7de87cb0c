// The evaluator's GameAccess over one operation of the session: field reads and writes are wire
// commands, calls are main-thread invokes, static constructors run before statics are touched.
// Values on the wire (strings, boxes, Nullable<T>) are game-values.ts; the observation of every
// write for the undo journal, observed-writes.ts.

import {
  BindingFlags,
  ErrorCode,
  SdbAgentError,
  Values,
  type ArrayLength,
  type Value,
} from '../../sdb-protocol/index.js';
import { columnOf } from '../../eval/index.js';
import {
  GameExceptionError,
  type FieldDescriptor,
  type GameAccess,
  type InvokeOptions,
  type InvokeResult,
  type MethodDescriptor,
  type TypeHandle,
} from '../../eval/runtime.js';
import type { ElementColumn, EvalValue } from '../../eval/values.js';
import { UnityError } from '../errors.js';
import type { OperationContext } from '../session/session.js';
import { columnFromWire, fromWire, handleOf, typeIdOf } from './convert.js';
import type { GameMetadata } from './game-metadata.js';
import { ObservedWrites } from './observed-writes.js';

export class SessionGameAccess extends ObservedWrites implements GameAccess {
  constructor(
    ctx: OperationContext,
    metadata: GameMetadata,
    /**
     * The thread whose thread-static fields this evaluation reads: a frame's thread when
     * evaluating in a frame; the game's main thread when absent (what `eval` sees, as its
     * calls run there).
     */
    private readonly thread?: number,
  ) {
    super(ctx, metadata);
  }

  /** Static fields the agent reads only for a thread ([ThreadStatic]), by field id. */
  private readonly threadStatics = new Set<number>();

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
      const typeObject = await this.metadata.typeObjectId(type);
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
    const typeId = typeIdOf(field.declaringType);
    const fieldId = field.handle as number;
    if (!this.threadStatics.has(fieldId)) {
      try {
        const [v] = await this.conn.send('TYPE.GET_VALUES', { typeId, fieldIds: [fieldId] });
        return await fromWire(v!, this.metadata, field.type);
      } catch (e) {
        // INVALID_FIELDID for a static field of its own declaring type: a special static,
        // which TYPE.GET_VALUES cannot read (it has no thread to read it for)
        if (!isInvalidField(e)) throw e;
        this.threadStatics.add(fieldId);
      }
    }
    return this.readThreadStatic(field, typeId, fieldId);
  }

  /** A [ThreadStatic] field as this evaluation's thread sees it: TYPE.GET_VALUES_2 (since 2.3). */
  private async readThreadStatic(
    field: FieldDescriptor,
    typeId: number,
    fieldId: number,
  ): Promise<EvalValue> {
    if (!this.conn.version.atLeast(3))
      throw new UnityError(
        'UNSUPPORTED',
        `${field.name} is thread-static: reading it needs TYPE.GET_VALUES_2 (protocol 2.3), ` +
          `and this agent speaks ${this.conn.version.toString()}`,
      );
    const threadId = this.thread ?? (await this.ctx.mainThread());
    try {
      const [v] = await this.conn.send('TYPE.GET_VALUES_2', {
        typeId,
        threadId,
        fieldIds: [fieldId],
      });
      return await fromWire(v!, this.metadata, field.type);
    } catch (e) {
      if (!isInvalidField(e)) throw e;
      throw new UnityError(
        'UNSUPPORTED',
        `${field.name} is a special static field that is not thread-static (context-static): ` +
          'the debugger protocol cannot read it',
      );
    }
  }

  async writeStatic(field: FieldDescriptor, value: EvalValue): Promise<void> {
    await this.ensureInitialized(field.declaringType);
    const typeId = typeIdOf(field.declaringType);
    const fieldId = field.handle as number;
    if (this.threadStatics.has(fieldId)) throw threadStaticWrite(field);
    this.ctx.markWrite();
    try {
      await this.observed({ kind: 'static', typeId, fieldId, name: field.name }, async () => {
        await this.conn.send('TYPE.SET_VALUES', {
          typeId,
          writes: [{ fieldId, value: await this.wireFor(value, field.type) }],
        });
      });
    } catch (e) {
      // the read before (with an observer) or the write itself: nothing was written
      if (isInvalidField(e)) throw threadStaticWrite(field);
      throw e;
    }
  }

  async readField(target: EvalValue, field: FieldDescriptor): Promise<EvalValue> {
    if (target.kind !== 'object')
      throw new Error(`a field of a ${target.kind} value is not read from the game`);
    const [v] = await this.conn.send('OBJECT_REF.GET_VALUES', {
      objectId: target.ref.id,
      fieldIds: [field.handle as number],
    });
    return fromWire(v!, this.metadata, field.type);
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
      const out: InvokeResult = {
        result: await fromWire(r.result, this.metadata, method.returnType),
      };
      if (r.outThis) out.outThis = await fromWire(r.outThis, this.metadata, method.declaringType);
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

  private shapeOf(array: EvalValue): Promise<ArrayLength> {
    if (array.kind !== 'object') throw new Error('not an array');
    return this.conn.arrayShape(array.ref.id);
  }

  async arrayLengths(array: EvalValue): Promise<number[]> {
    return (await this.shapeOf(array)).dimensions.map((d) => d.length);
  }

  /** Array.CreateInstance(type, lengths, lowerBounds) makes arrays whose indices start elsewhere. */
  async arrayLowerBounds(array: EvalValue): Promise<number[]> {
    return (await this.shapeOf(array)).dimensions.map((d) => d.lowerBound);
  }

  async readElement(array: EvalValue, index: number): Promise<EvalValue> {
    if (array.kind !== 'object') throw new Error('not an array');
    const [v] = await this.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: array.ref.id,
      index,
      count: 1,
    });
    return fromWire(v!, this.metadata, () => this.elementTypeOf(array));
  }

  /** `count` elements from `index` in one ARRAY_REF.GET_VALUES (foreach and LINQ read so). */
  async readElements(array: EvalValue, index: number, count: number): Promise<ElementColumn> {
    if (array.kind !== 'object') throw new Error('not an array');
    const values = await this.conn.send('ARRAY_REF.GET_VALUES', {
      arrayId: array.ref.id,
      index,
      count,
    });
    // references and numbers (what a bulk read mostly is) are kept as a column of numbers,
    // made values one at a time as the loop reaches them
    const column = columnFromWire(values);
    if (column) return column;
    const elementType = () => this.elementTypeOf(array);
    return columnOf(await Promise.all(values.map((v) => fromWire(v, this.metadata, elementType))));
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
    const typeObject = await this.metadata.typeObjectId(element);
    const array = await this.createArray(typeObject, lengths);
    if (array.kind === 'object') this.made.add(array.ref.id);
    return array;
  }

  /** Array.CreateInstance(type, lengths) for a System.Type object in the game. */
  async createArray(typeObjectId: number, lengths: readonly number[]): Promise<EvalValue> {
    const arrayType = await this.type('System.Array');
    const typeType = await this.type('System.Type');
    let lookup = createInstanceMethods.get(this.metadata);
    if (!lookup) {
      // per connection (the metadata's): a lookup of 7 commands, not one per evaluation
      lookup = this.findCreateInstance(arrayType, typeType);
      createInstanceMethods.set(this.metadata, lookup);
      lookup.catch(() => createInstanceMethods.delete(this.metadata));
    }
    const methods = await lookup;
    let lengthArg: Value;
    if (lengths.length === 1) {
      lengthArg = Values.i4(lengths[0]!);
    } else {
      const intType = await this.metadata.typeObjectId(handleOf(await this.type('System.Int32')));
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

  /** Array.CreateInstance(Type, int) and (Type, int[]), by their method ids. */
  private async findCreateInstance(
    arrayType: number,
    typeType: number,
  ): Promise<{ one: number; many: number }> {
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
  }
}

/** Array.CreateInstance's overloads per connection (its metadata). */
const createInstanceMethods = new WeakMap<GameMetadata, Promise<{ one: number; many: number }>>();

function isInvalidField(e: unknown): boolean {
  return e instanceof SdbAgentError && e.errorCode === ErrorCode.INVALID_FIELDID;
}

function threadStaticWrite(field: FieldDescriptor): UnityError {
  return new UnityError(
    'UNSUPPORTED',
    `${field.name} is thread-static: the debugger protocol reads it for a thread ` +
      '(TYPE.GET_VALUES_2) but has no command to write it; nothing was written. ' +
      'Assign it from game code running on that thread instead',
  );
}
