// Values between the evaluator and the game over one operation of the session: strings made in
// the game and read with GET_CHARS (bounded when asked), boxes, Nullable<T> and default(T) as the
// wire needs them, type objects and a value's runtime type. The base of SessionGameAccess.

import { Values, readString, type SdbConnection, type Value } from '../../sdb-protocol/index.js';
import type { TypeHandle } from '../../eval/runtime.js';
import type { EvalValue } from '../../eval/values.js';
import { KEYWORD_TYPES, primitiveKindOfName } from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import {
  fromWire,
  handleOf,
  structIdentity,
  toWire,
  typeIdOf,
  type WireSupport,
} from './convert.js';
import type { GameMetadata } from './game-metadata.js';

export abstract class GameValues implements WireSupport {
  protected readonly conn: SdbConnection;
  /**
   * Objects this evaluation made (constructed, arrays, boxes, strings): no one else can have
   * seen them, so writes to them are not observed (nothing of the game's to undo).
   */
  protected readonly made = new Set<number>();

  constructor(
    protected readonly ctx: OperationContext,
    protected readonly metadata: GameMetadata,
  ) {
    this.conn = ctx.conn;
  }

  protected async type(name: string): Promise<number> {
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

  private wire(v: EvalValue, boxes: Boxes = new Map()): Promise<Value> {
    if (v.kind === 'struct') return this.structFor(v, boxes);
    return toWire(v, this);
  }

  /** WireSupport: a struct with its fields encoded for their declared types. */
  structWire(v: EvalValue & { kind: 'struct' }): Promise<Value> {
    return this.structFor(v, new Map());
  }

  /**
   * A value for a slot of a known type. The evaluator keeps boxed values unboxed and
   * Nullable<T> as T-or-null (C#'s view); the wire needs the real shapes: a box in the game
   * for a reference slot, the Nullable struct for a Nullable slot. `boxes`: the boxes made for
   * structs while encoding one value, so a box that contains itself is made once.
   */
  protected async wireFor(
    v: EvalValue,
    slot: TypeHandle | undefined,
    boxes: Boxes = new Map(),
  ): Promise<Value> {
    if (!slot) return this.wire(v, boxes);
    const d = await this.metadata.describe(slot);
    const boxable =
      v.kind === 'number' ||
      v.kind === 'bool' ||
      v.kind === 'decimal' ||
      v.kind === 'enum' ||
      v.kind === 'struct';
    if (boxable && d.kind !== 'struct' && d.kind !== 'enum') {
      return Values.object(await this.boxFor(v, boxes));
    }
    // the evaluator's default of a pointer field (in a zeroed IntPtr) is null: the agent takes
    // a pointer only as I8
    if (d.kind === 'pointer' && v.kind === 'null') return { kind: 'ptr', address: 0n };
    if (
      v.kind === 'pointer' &&
      (d.fullName === 'System.IntPtr' || d.fullName === 'System.UIntPtr')
    ) {
      // IntPtr is a struct of one pointer field on the wire: a bare pointer in its slot is refused
      const names = await this.metadata.instanceFieldNames(typeIdOf(slot));
      if (names.length === 1) return Values.struct(typeIdOf(slot), [await this.wire(v, boxes)]);
    }
    if (d.kind === 'struct' && d.fullName.startsWith('System.Nullable`1') && d.typeArguments[0]) {
      const inner = d.typeArguments[0];
      const names = await this.metadata.instanceFieldNames(typeIdOf(slot));
      const hasValue = v.kind !== 'null';
      const value = hasValue ? await this.wireFor(v, inner, boxes) : await this.zeroWire(inner);
      return Values.struct(
        typeIdOf(slot),
        names.map((n) => (n === 'has_value' || n === 'hasValue' ? Values.bool(hasValue) : value)),
      );
    }
    return this.wire(v, boxes);
  }

  /**
   * A struct on the wire, each field for its declared type: an object field holding a boxed
   * long must go back as a box (the agent refuses a bare I8 there), and a struct's field count
   * must be its type's (a wrong count aborts the agent).
   */
  private async structFor(v: EvalValue & { kind: 'struct' }, boxes: Boxes): Promise<Value> {
    const slots = (await this.metadata.allFields(v.type)).filter((f) => !f.isStatic);
    if (slots.length !== v.fields.length)
      throw new Error(
        `a struct of ${v.fields.length} fields for a type of ${slots.length} instance fields`,
      );
    const fields: Value[] = [];
    for (let i = 0; i < slots.length; i++)
      fields.push(await this.wireFor(v.fields[i]!, slots[i]!.type, boxes));
    return Values.struct(typeIdOf(v.type), fields);
  }

  /** A box in the game holding `v` (a struct that contains itself: one box, pointing at itself). */
  private async boxFor(v: EvalValue, boxes: Boxes): Promise<number> {
    if (v.kind === 'struct') {
      const known = boxes.get(structIdentity(v));
      if (known !== undefined) return known;
      if (containsItself(v)) {
        // made empty first, so that its own fields can name it; then filled
        const type = v.type;
        const id = await this.createBox(type, await this.zeroWire(type));
        boxes.set(structIdentity(v), id);
        const slots = (await this.metadata.allFields(type)).filter((f) => !f.isStatic);
        const writes = [];
        for (let i = 0; i < slots.length; i++)
          writes.push({
            fieldId: slots[i]!.handle as number,
            value: await this.wireFor(v.fields[i]!, slots[i]!.type, boxes),
          });
        await this.conn.send('OBJECT_REF.SET_VALUES', { objectId: id, writes });
        return id;
      }
    }
    return this.createBox(await this.typeOf(v), await this.wire(v, boxes));
  }

  private async createBox(type: TypeHandle, value: Value): Promise<number> {
    const domainId =
      this.conn.vmStart?.rootDomainId ?? (await this.conn.send('APPDOMAIN.GET_ROOT_DOMAIN'));
    const id = await this.conn.send('APPDOMAIN.CREATE_BOXED_VALUE', {
      domainId,
      typeId: typeIdOf(type),
      value,
    });
    this.made.add(id);
    return id;
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
    const id = await this.createBox(type, await this.wire(value));
    return { kind: 'object', ref: { id }, type };
  }

  async rebox(box: EvalValue, value: EvalValue): Promise<void> {
    if (box.kind !== 'object' || value.kind !== 'struct')
      throw new Error('rebox needs a box and a struct');
    const fields = (await this.metadata.allFields(value.type)).filter((f) => !f.isStatic);
    this.ctx.markWrite();
    const boxes: Boxes = new Map();
    const writes = [];
    for (let i = 0; i < fields.length; i++)
      writes.push({
        fieldId: fields[i]!.handle as number,
        value: await this.wireFor(value.fields[i]!, fields[i]!.type, boxes),
      });
    await this.conn.send('OBJECT_REF.SET_VALUES', { objectId: box.ref.id, writes });
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
      type,
    );
  }

  async typeObject(type: TypeHandle): Promise<EvalValue> {
    const id = await this.metadata.typeObjectId(type);
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
      case 'client':
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

/** Boxes made for struct values while encoding one value (by the value's identity). */
type Boxes = Map<EvalValue, number>;

/** Whether a struct reaches itself through its fields (a box that contains itself, as read). */
function containsItself(v: EvalValue & { kind: 'struct' }): boolean {
  const self = structIdentity(v);
  const seen = new Set<EvalValue>();
  const stack: EvalValue[] = [...v.fields];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind !== 'struct') continue;
    const id = structIdentity(x);
    if (id === self) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...x.fields);
  }
  return false;
}
