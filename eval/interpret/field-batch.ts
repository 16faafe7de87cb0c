// One field of many objects in a few invokes: `Array.ConvertAll<T, object>(segment, getValue)`
// with a Converter closed over the field's FieldInfo (`FieldInfo.GetValue`, an existing method:
// no code is made in the game), the boxes copied into a typed array by `Array.Copy` (which
// unboxes), and that array read in one command. What the batched reads of prefetch.ts use for
// a chunk of a List<T> or array, instead of one OBJECT_REF.GET_VALUES per element. Reflection
// reads only: nothing of the game's own code runs. The objects made live only during the
// suspend window's own invokes (arguments are rooted while a call runs), so nothing is pinned.

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

/** What a connection keeps for its batches. */
interface Kept {
  /**
   * The converters made, by field: a game object the debugger names weakly (it may be collected
   * between two windows), so each is asked for its type before it is used again (named with the
   * VM suspended, it then lives to the end of the window) and made anew if gone.
   */
  readonly converters: Map<string, EvalValue>;
  /**
   * Element types of the arrays read, by array id: an array's type never changes and the
   * debugger never gives a second object the same id. Bounded: past 10,000 it starts over.
   */
  readonly elementTypes: Map<number, string>;
}
const perConnection = new WeakMap<object, Kept>();
const MAX_ARRAY_TYPES = 10_000;

export class FieldBatch {
  private readonly methods = new Map<string, Promise<MethodDescriptor>>();
  private readonly kept: Kept | undefined;

  constructor(
    private readonly md: MetadataProvider,
    private readonly game: GameAccess,
    /** What lives as long as the connection: its converters are kept by it (none: per batch). */
    connection?: object,
  ) {
    if (connection) {
      let kept = perConnection.get(connection);
      if (!kept)
        perConnection.set(connection, (kept = { converters: new Map(), elementTypes: new Map() }));
      this.kept = kept;
    }
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
    const getter = await this.converter(declaring, field, object);
    const segment = await this.segment(array, start, count, declaring);
    const [convertAll] = (await this.md.members(await this.type('System.Array'), 'ConvertAll'))
      .methods;
    if (!convertAll) throw new Error('the game has no Array.ConvertAll');
    const convert = await this.md.instantiateMethod(convertAll, [declaring, object]);
    const boxes = await this.call(convert, undefined, [segment, getter]);
    const d = await this.md.describe(field.type);
    let values = boxes;
    if (d.kind === 'struct' || d.kind === 'enum') {
      values = await this.game.newArray(field.type, [count]);
      await this.call(
        await this.method('System.Array', 'Copy', ['System.Array', 'System.Array', 'System.Int32']),
        undefined,
        [boxes, values, num(count)],
      );
    }
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

  /**
   * `Converter<declaring, object>` over `FieldInfo.GetValue` bound to the field's FieldInfo (three
   * invokes), or the one made before on this connection if it is still there (one command).
   */
  private async converter(
    declaring: TypeHandle,
    field: FieldDescriptor,
    object: TypeHandle,
  ): Promise<EvalValue> {
    const key = `${declaring.key}.${field.name}`;
    const known = this.kept?.converters.get(key);
    if (known) {
      try {
        await this.game.typeOf(known);
        return known;
      } catch {
        this.kept!.converters.delete(key); // collected: made anew (a lost connection fails there too)
      }
    }
    const info = await this.call(
      await this.method('System.Type', 'GetField', [
        'System.String',
        'System.Reflection.BindingFlags',
      ]),
      await this.game.typeObject(declaring),
      [
        await this.game.createString(field.name),
        {
          kind: 'enum',
          type: await this.type('System.Reflection.BindingFlags'),
          underlying: 'int',
          value: INSTANCE_FIELDS,
        },
      ],
    );
    if (info.kind !== 'object') throw new Error(`no FieldInfo for ${field.name}`);
    const getValue = await this.call(
      await this.method('System.Type', 'GetMethod', ['System.String']),
      await this.game.typeObject(await this.type('System.Reflection.FieldInfo')),
      [await this.game.createString('GetValue')],
    );
    const converter = await this.md.constructGeneric(await this.type('System.Converter`2'), [
      declaring,
      object,
    ]);
    const getter = await this.call(
      await this.method('System.Delegate', 'CreateDelegate', [
        'System.Type',
        'System.Object',
        'System.Reflection.MethodInfo',
      ]),
      undefined,
      [await this.game.typeObject(converter), info, getValue],
    );
    this.kept?.converters.set(key, getter);
    return getter;
  }

  /** The key of an array's element type ('' when it has none). */
  private async elementTypeKey(array: EvalValue): Promise<string> {
    const id = array.kind === 'object' ? array.ref.id : undefined;
    const types = this.kept?.elementTypes;
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

function num(n: number): EvalValue {
  return { kind: 'number', type: 'int', value: n };
}
