// What guards ask the agent before a request is sent (array and string lengths, whether a type
// is a value type), each asked once per id per connection: none of these ever change.

import type { GuardContext } from './command.js';
import {
  flatLength,
  type ArrayLength,
  type CommandName,
  type ParamsOf,
  type ResultOf,
} from './commands/index.js';
import { TypeInfoFlags } from './vocabulary.js';

/** Sends one command past the guards' own lookups (they run inside other requests' guards). */
export type LookupSender = <K extends CommandName>(
  name: K,
  params: ParamsOf<K>,
) => Promise<ResultOf<K>>;

/** Past this many entries a cache starts over, bounding memory on a long session. */
const MAX_ENTRIES = 50_000;

export class GuardLookups {
  private readonly arrayShapes = new Map<number, ArrayLength>();
  private readonly stringLengths = new Map<number, number>();
  private readonly valueTypes = new Map<number, boolean>();
  private readonly nullableParams = new Map<number, number | undefined>();
  private readonly nullableTypes = new Map<number, boolean>();

  constructor(private readonly send: LookupSender) {}

  /** The context guards run in: these lookups plus the connection's version and holds. */
  guardContext(conn: Pick<GuardContext, 'version' | 'suspendCount' | 'runtime'>): GuardContext {
    return Object.defineProperties(
      {
        arrayLength: (id: number) => this.arrayLength(id),
        stringLength: (id: number) => this.stringLength(id),
        isValueType: (id: number) => this.isValueType(id),
        nullableParameter: (id: number) => this.nullableParameter(id),
      },
      {
        version: { get: () => conn.version, enumerable: true },
        suspendCount: { get: () => conn.suspendCount, enumerable: true },
        runtime: { get: () => conn.runtime, enumerable: true },
      },
    ) as GuardContext;
  }

  /** After a successful reply: any ARRAY_REF.GET_LENGTH answer is kept, whoever asked. */
  noteReply(name: CommandName, params: unknown, value: unknown): void {
    if (name !== 'ARRAY_REF.GET_LENGTH') return;
    const { arrayId } = params as ParamsOf<'ARRAY_REF.GET_LENGTH'>;
    if (this.arrayShapes.size > MAX_ENTRIES) this.arrayShapes.clear();
    this.arrayShapes.set(arrayId, value as ResultOf<'ARRAY_REF.GET_LENGTH'>);
  }

  /** Array shapes never change, so each array's is fetched at most once per connection. */
  async arrayShape(arrayId: number): Promise<ArrayLength> {
    return this.arrayShapes.get(arrayId) ?? this.send('ARRAY_REF.GET_LENGTH', { arrayId });
  }

  async arrayLength(arrayId: number): Promise<number> {
    return flatLength(await this.arrayShape(arrayId));
  }

  /** UTF-16 length of a string object, asked once per string (strings never change). */
  async stringLength(stringId: number): Promise<number> {
    let n = this.stringLengths.get(stringId);
    if (n === undefined) {
      n = await this.send('STRING_REF.GET_LENGTH', { objectId: stringId });
      if (this.stringLengths.size > MAX_ENTRIES) this.stringLengths.clear();
      this.stringLengths.set(stringId, n);
    }
    return n;
  }

  /**
   * TYPE.GET_INFO's value-type bit is absent on generic struct instances (Nullable<int> shows
   * only the generic bit), so a type whose base is System.ValueType or System.Enum counts too.
   */
  async isValueType(typeId: number): Promise<boolean> {
    let known = this.valueTypes.get(typeId);
    if (known === undefined) {
      const info = await this.send('TYPE.GET_INFO', { typeId });
      known =
        (info.flags & (TypeInfoFlags.PRIMITIVE | TypeInfoFlags.VALUE_TYPE | TypeInfoFlags.ENUM)) !==
        0;
      if (!known && info.baseTypeId !== 0) {
        const base = await this.send('TYPE.GET_INFO', { typeId: info.baseTypeId });
        known = base.fullName === 'System.ValueType' || base.fullName === 'System.Enum';
      }
      this.valueTypes.set(typeId, known);
    }
    return known;
  }

  /**
   * The index of the method's first `Nullable<T>` parameter passed by value (a `ref T?` goes by
   * address and is not unboxed), undefined when it has none; asked once per method.
   */
  async nullableParameter(methodId: number): Promise<number | undefined> {
    if (this.nullableParams.has(methodId)) return this.nullableParams.get(methodId);
    const info = await this.send('METHOD.GET_PARAM_INFO', { methodId });
    let found: number | undefined;
    for (const [i, typeId] of info.paramTypeIds.entries()) {
      let nullable = this.nullableTypes.get(typeId);
      if (nullable === undefined) {
        const { fullName } = await this.send('TYPE.GET_INFO', { typeId });
        nullable = fullName.startsWith('System.Nullable`1') && !fullName.endsWith('&');
        this.nullableTypes.set(typeId, nullable);
      }
      if (nullable) {
        found = i;
        break;
      }
    }
    if (this.nullableParams.size > MAX_ENTRIES) this.nullableParams.clear();
    this.nullableParams.set(methodId, found);
    return found;
  }
}
