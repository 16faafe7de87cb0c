// One field of many objects in a few invokes, with reflection objects that already exist in the
// game (no code is made there), nothing of the game's own code run:
//   1. `Array.FindAll<T>(segment, typeof(T).IsInstanceOfType)`: the elements in an array of our
//      own that no game thread can change, nulls dropped (a length short of the count read means
//      the game changed the list since: the batch fails and the reads go one by one);
//   2. `Array.ConvertAll<T, object>(those, getter)`, the getter a Converter closed over the
//      field's FieldInfo and bound to its unchecked reader (`RuntimeFieldInfo.UnsafeGetValue`,
//      an icall: a third of `FieldInfo.GetValue`'s time, which asks the field's declaring type
//      twice per element; measured 0.8 against 2.6 ms for 10,000 elements in Mono). Step 1 is
//      what makes it safe: that reader dereferences its target unchecked, so it only ever sees
//      a non-null T. A runtime without it uses `GetValue` (it checks) and skips step 1;
//   3. for a primitive field, `Array.ConvertAll<object, P>(boxes, Convert.ToP)`: the boxes
//      unboxed into a P[] (a fifth of `Array.Copy`'s time into an Array.CreateInstance(P, n),
//      which is what enums and other structs still take);
// then that array is read in one command. What the batched reads of prefetch.ts use for a chunk
// of a List<T> or array, instead of one OBJECT_REF.GET_VALUES per element. The objects made live
// only during the suspend window's own invokes (arguments are rooted while a call runs), so
// nothing is pinned; the delegates are kept weakly across windows (see Kept).

import type {
  FieldDescriptor,
  GameAccess,
  MetadataProvider,
  MethodDescriptor,
  TypeHandle,
} from '../runtime.js';
import { columnOf, type ElementColumn, type EvalValue } from '../values.js';

const NO_OUT = { virtual: false, outThis: false, outArgs: false } as const;
/** BindingFlags.Instance | Public | NonPublic. */
const INSTANCE_FIELDS = 4 | 16 | 32;
/** BindingFlags.Instance | NonPublic. */
const INTERNAL_METHODS = 4 | 32;

/**
 * Readers of a RuntimeFieldInfo that skip GetValue's checks, the first this runtime has (both are
 * icalls in Debian's Mono 6.8, whose corlib Unity's Mono fork shares; older class libraries,
 * whose FieldInfo was MonoField, had only the second). A runtime with neither keeps GetValue.
 */
const UNCHECKED_READERS = ['UnsafeGetValue', 'GetValueInternal'];

/** `Convert.ToP(object)` by primitive type: exact for a box of that type. */
const UNBOXERS: Readonly<Record<string, string>> = {
  'System.Boolean': 'ToBoolean',
  'System.Char': 'ToChar',
  'System.SByte': 'ToSByte',
  'System.Byte': 'ToByte',
  'System.Int16': 'ToInt16',
  'System.UInt16': 'ToUInt16',
  'System.Int32': 'ToInt32',
  'System.UInt32': 'ToUInt32',
  'System.Int64': 'ToInt64',
  'System.UInt64': 'ToUInt64',
  'System.Single': 'ToSingle',
  'System.Double': 'ToDouble',
};

/** A field's FieldInfo and the method its getter calls, which may check its target or not. */
interface Reader {
  readonly fieldInfo: EvalValue;
  readonly method: EvalValue;
  /** The method checks its target (GetValue): no FindAll is needed before it. */
  readonly checks: boolean;
}

/** What a connection keeps for its batches. */
interface Kept {
  /**
   * Reflection objects by key (FieldInfo, MethodInfo): Mono keeps one per member for the
   * domain's life, so their ids stay good for the connection's (all are found again if one is
   * not, see withInfos). A failed lookup is dropped.
   */
  readonly infos: Map<string, Promise<{ info: EvalValue; checks: boolean }>>;
  /**
   * The delegates made, by key: game objects the debugger names weakly, which the game may
   * collect between two uses (made anew then, see withDelegate).
   */
  readonly delegates: Map<string, EvalValue>;
  /**
   * Element types of the arrays read, by array id: an array's type never changes and the
   * debugger never gives a second object the same id. Bounded: past 10,000 it starts over.
   */
  readonly elementTypes: Map<number, string>;
}
const perConnection = new WeakMap<object, Kept>();
const MAX_ARRAY_TYPES = 10_000;

const newKept = (): Kept => ({ infos: new Map(), delegates: new Map(), elementTypes: new Map() });

export class FieldBatch {
  private readonly methods = new Map<string, Promise<MethodDescriptor>>();
  private readonly kept: Kept;

  constructor(
    private readonly md: MetadataProvider,
    private readonly game: GameAccess,
    /** What lives as long as the connection: what it keeps is kept by it (none: per batch). */
    connection?: object,
  ) {
    let kept = connection && perConnection.get(connection);
    if (!kept) {
      kept = newKept();
      if (connection) perConnection.set(connection, kept);
    }
    this.kept = kept;
  }

  private async type(name: string): Promise<TypeHandle> {
    const t = await this.md.findType(name);
    if (!t) throw new Error(`the game has no ${name}`);
    return t;
  }

  /** A method by its declaring type, name and parameter types' full names. */
  private method(
    owner: string,
    name: string,
    params: readonly string[],
  ): Promise<MethodDescriptor> {
    const k = `${owner}.${name}(${params.join(',')})`;
    let p = this.methods.get(k);
    if (!p) {
      p = (async () => {
        for (const m of (await this.md.members(await this.type(owner), name)).methods) {
          if (m.parameters.length !== params.length) continue;
          const names = await Promise.all(
            m.parameters.map(async (x) => (await this.md.describe(x.type)).fullName),
          );
          if (names.every((n, i) => n === params[i] || params[i] === '*')) return m;
        }
        throw new Error(`the game has no ${k}`);
      })();
      this.methods.set(k, p);
    }
    return p;
  }

  private async call(m: MethodDescriptor, self: EvalValue | undefined, args: EvalValue[]) {
    return (await this.game.invoke(m, self, args, { ...NO_OUT, virtual: !!self })).result;
  }

  /** `Array.<name><typeArgs>(args)`: ConvertAll and FindAll, static generic methods. */
  private async arrayCall(
    name: string,
    typeArgs: readonly TypeHandle[],
    args: EvalValue[],
  ): Promise<EvalValue> {
    const [m] = (await this.md.members(await this.type('System.Array'), name)).methods;
    if (!m) throw new Error(`the game has no Array.${name}`);
    return this.call(await this.md.instantiateMethod(m, typeArgs), undefined, args);
  }

  /**
   * `field` of `count` elements of `array` from `start` (all of them non-null objects of
   * `field.declaringType` or a subclass), in order.
   */
  async read(
    array: EvalValue,
    start: number,
    count: number,
    field: FieldDescriptor,
  ): Promise<ElementColumn> {
    const declaring = field.declaringType;
    const object = await this.type('System.Object');
    const d = await this.md.describe(field.type);
    const unboxer = d.kind === 'enum' ? undefined : UNBOXERS[d.fullName];
    const reader = await this.reader(declaring, field);
    let elements = await this.segment(array, start, count, declaring);
    if (!reader.checks)
      elements = await this.withDelegate(
        `is ${declaring.key}`,
        () => this.isInstance(declaring),
        (match) => this.arrayCall('FindAll', [declaring], [elements, match]),
      );
    const boxes = await this.withDelegate(
      `getter ${declaring.key}.${field.name}`,
      () => this.getter(declaring, field, object),
      (getter) => this.arrayCall('ConvertAll', [declaring, object], [elements, getter]),
    );
    let values = boxes;
    if (unboxer) {
      values = await this.withDelegate(
        `unbox ${d.fullName}`,
        () => this.unboxer(field.type, unboxer, object),
        (unbox) => this.arrayCall('ConvertAll', [object, field.type], [boxes, unbox]),
      );
    } else if (d.kind === 'struct' || d.kind === 'enum') {
      values = await this.game.newArray(field.type, [count]);
      await this.call(
        await this.method('System.Array', 'Copy', ['System.Array', 'System.Array', 'System.Int32']),
        undefined,
        [boxes, values, num(count)],
      );
    }
    // an element FindAll dropped makes this read fail (the guard refuses a range past the
    // array's end): no value is ever given to the wrong element
    const out = this.game.readElements
      ? await this.game.readElements(values, 0, count)
      : columnOf(
          await Promise.all(
            Array.from({ length: count }, (_, i) => this.game.readElement(values, i)),
          ),
        );
    if (out.length !== count) throw new Error('a short read');
    return out;
  }

  /** A reflection object kept for the connection (see Kept.infos), made by `make` once. */
  private info(
    key: string,
    make: () => Promise<{ info: EvalValue; checks: boolean }>,
  ): Promise<{ info: EvalValue; checks: boolean }> {
    let p = this.kept.infos.get(key);
    if (!p) {
      p = make();
      this.kept.infos.set(key, p);
      p.catch(() => this.kept.infos.delete(key));
    }
    return p;
  }

  /**
   * `use(delegate)` with the delegate kept for the connection by `key`, or made by `make` when
   * there is none or the game collected it. A collected argument fails an invoke before it
   * runs (the agent decodes the arguments first), so the call is then made again with a new
   * delegate; no probe is spent on a delegate that is still there. Each delegate is handed to
   * the first invoke after it is named: only an invoke's own arguments are sure to outlive it
   * (the agent resumes the whole VM for a call, and with it lets go of what it named before).
   */
  private async withDelegate<T>(
    key: string,
    make: () => Promise<EvalValue>,
    use: (delegate: EvalValue) => Promise<T>,
  ): Promise<T> {
    const known = this.kept.delegates.get(key);
    if (known) {
      try {
        return await use(known);
      } catch (e) {
        if (!collected(e)) throw e;
        this.kept.delegates.delete(key);
      }
    }
    const made = await make();
    this.kept.delegates.set(key, made);
    return use(made);
  }

  /** `Delegate.CreateDelegate(typeof(delegateType), target, method)` (static: no target). */
  private async createDelegate(
    delegateType: TypeHandle,
    method: EvalValue,
    target?: EvalValue,
  ): Promise<EvalValue> {
    const made = target
      ? await this.call(
          await this.method('System.Delegate', 'CreateDelegate', [
            'System.Type',
            'System.Object',
            'System.Reflection.MethodInfo',
          ]),
          undefined,
          [await this.game.typeObject(delegateType), target, method],
        )
      : await this.call(
          await this.method('System.Delegate', 'CreateDelegate', [
            'System.Type',
            'System.Reflection.MethodInfo',
          ]),
          undefined,
          [await this.game.typeObject(delegateType), method],
        );
    if (made.kind !== 'object') throw new Error('no delegate made');
    return made;
  }

  /** `owner.GetMethod(name)` (`flags`: GetMethod(name, flags)); null when there is none. */
  private async getMethod(owner: TypeHandle, name: string, flags?: number): Promise<EvalValue> {
    const args = [await this.game.createString(name)];
    if (flags !== undefined) args.push(await this.bindingFlags(flags));
    return this.call(
      await this.method(
        'System.Type',
        'GetMethod',
        flags === undefined
          ? ['System.String']
          : ['System.String', 'System.Reflection.BindingFlags'],
      ),
      await this.game.typeObject(owner),
      args,
    );
  }

  private async bindingFlags(value: number): Promise<EvalValue> {
    return {
      kind: 'enum',
      type: await this.type('System.Reflection.BindingFlags'),
      underlying: 'int',
      value,
    };
  }

  /**
   * The field's FieldInfo and the method its getter is bound to: the runtime's unchecked reader
   * when it has one (`checks` false: the elements must be non-null), else `FieldInfo.GetValue`.
   * Found once per connection (three invokes).
   */
  private async reader(declaring: TypeHandle, field: FieldDescriptor): Promise<Reader> {
    const fieldInfo = await this.info(`field ${declaring.key}.${field.name}`, async () => {
      const info = await this.call(
        await this.method('System.Type', 'GetField', [
          'System.String',
          'System.Reflection.BindingFlags',
        ]),
        await this.game.typeObject(declaring),
        [await this.game.createString(field.name), await this.bindingFlags(INSTANCE_FIELDS)],
      );
      if (info.kind !== 'object') throw new Error(`no FieldInfo for ${field.name}`);
      return { info, checks: true };
    });
    const reader = await this.info('reader', async () => {
      // the reader of the FieldInfo's own runtime type (RuntimeFieldInfo, or MonoField before)
      const runtimeType = await this.game.typeOf(fieldInfo.info);
      for (const name of UNCHECKED_READERS) {
        const found = (await this.md.members(runtimeType, name)).methods.some(
          (m) => m.parameters.length === 1 && !m.isStatic,
        );
        if (!found) continue;
        const info = await this.getMethod(runtimeType, name, INTERNAL_METHODS);
        if (info.kind === 'object') return { info, checks: false };
      }
      const info = await this.getMethod(await this.type('System.Reflection.FieldInfo'), 'GetValue');
      if (info.kind !== 'object') throw new Error('the game has no FieldInfo.GetValue');
      return { info, checks: true };
    });
    return { fieldInfo: fieldInfo.info, method: reader.info, checks: reader.checks };
  }

  /**
   * A new getter of the field: a `Converter<declaring, object>` closed over its FieldInfo and
   * bound to the reader's method (Delegate.CreateDelegate, one invoke).
   */
  private async getter(
    declaring: TypeHandle,
    field: FieldDescriptor,
    object: TypeHandle,
  ): Promise<EvalValue> {
    const converter = await this.md.constructGeneric(await this.type('System.Converter`2'), [
      declaring,
      object,
    ]);
    return this.withInfos(async () => {
      const reader = await this.reader(declaring, field);
      return this.createDelegate(converter, reader.method, reader.fieldInfo);
    });
  }

  /** A new `Predicate<type>` closed over `typeof(type)`'s IsInstanceOfType: false for null. */
  private async isInstance(type: TypeHandle): Promise<EvalValue> {
    const predicate = await this.md.constructGeneric(await this.type('System.Predicate`1'), [type]);
    return this.withInfos(async () => {
      const method = await this.info('IsInstanceOfType', async () => {
        const info = await this.getMethod(await this.type('System.Type'), 'IsInstanceOfType');
        if (info.kind !== 'object') throw new Error('the game has no Type.IsInstanceOfType');
        return { info, checks: true };
      });
      return this.createDelegate(predicate, method.info, await this.game.typeObject(type));
    });
  }

  /**
   * `make()` over the reflection objects kept (Kept.infos), found again once if the game no
   * longer has one: Mono keeps them for the domain's life, a runtime that does not must not
   * leave every later batch failing.
   */
  private async withInfos(make: () => Promise<EvalValue>): Promise<EvalValue> {
    try {
      return await make();
    } catch (e) {
      if (!collected(e)) throw e;
      this.kept.infos.clear();
      return make();
    }
  }

  /**
   * A new `Converter<object, P>` over the static `Convert.<name>(object)`: by
   * `Delegate.CreateDelegate(type, typeof(Convert), name)`, which picks the overload whose
   * parameters are exactly the delegate's (one invoke, no MethodInfo).
   */
  private async unboxer(type: TypeHandle, name: string, object: TypeHandle): Promise<EvalValue> {
    const converter = await this.md.constructGeneric(await this.type('System.Converter`2'), [
      object,
      type,
    ]);
    const made = await this.call(
      await this.method('System.Delegate', 'CreateDelegate', [
        'System.Type',
        'System.Type',
        'System.String',
      ]),
      undefined,
      [
        await this.game.typeObject(converter),
        await this.game.typeObject(await this.type('System.Convert')),
        await this.game.createString(name),
      ],
    );
    if (made.kind !== 'object') throw new Error(`no delegate over Convert.${name}`);
    return made;
  }

  /** The key of an array's element type ('' when it has none). */
  private async elementTypeKey(array: EvalValue): Promise<string> {
    const id = array.kind === 'object' ? array.ref.id : undefined;
    const types = this.kept.elementTypes;
    const known = id === undefined ? undefined : types?.get(id);
    if (known !== undefined) return known;
    const key = (await this.md.describe(await this.game.typeOf(array))).elementType?.key ?? '';
    if (id !== undefined && types) {
      if (types.size >= MAX_ARRAY_TYPES) types.clear();
      types.set(id, key);
    }
    return key;
  }

  /**
   * The elements as a `declaring[]` (ConvertAll's TInput[]): the storage itself when it is one
   * and holds just them (a List<T> filled to its capacity), else a copy of them.
   */
  private async segment(
    array: EvalValue,
    start: number,
    count: number,
    declaring: TypeHandle,
  ): Promise<EvalValue> {
    if (start === 0 && (await this.elementTypeKey(array)) === declaring.key) {
      const [length] = await this.game.arrayLengths(array);
      if (length === count) return array;
    }
    const segment = await this.game.newArray(declaring, [count]);
    await this.call(
      await this.method('System.Array', 'Copy', [
        'System.Array',
        'System.Int32',
        'System.Array',
        'System.Int32',
        'System.Int32',
      ]),
      undefined,
      [array, num(start), segment, num(0), num(count)],
    );
    return segment;
  }
}

/** An invoke refused because an object it was given is no longer in the game. */
function collected(e: unknown): boolean {
  return e instanceof Error && /\bINVALID_OBJECT\b/.test(e.message);
}

function num(n: number): EvalValue {
  return { kind: 'number', type: 'int', value: n };
}
