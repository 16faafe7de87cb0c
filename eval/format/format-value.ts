// Results for a reader: the rules of docs/eval-contract.md ("Formatting"), which the oracle's
// Fmt.cs applies in C#. Bounded: strings clipped at MAX_CHARS, sequences at MAX_ELEMENTS,
// members at MAX_MEMBERS, nesting at MAX_DEPTH, so a result never floods an agent's context.

import type { FieldDescriptor, Runtime, TypeHandle } from '../runtime.js';
import type { DecimalBits, EvalValue } from '../values.js';
import { formatNumber } from './format-number.js';
import { csharpName, csharpNameOfReflection } from './type-names.js';

export const MAX_CHARS = 200;
export const MAX_ELEMENTS = 10;
export const MAX_MEMBERS = 12;
export const MAX_DEPTH = 2;

export async function formatValue(runtime: Runtime, value: EvalValue): Promise<string> {
  return new Formatter(runtime).value(value, 0);
}

class Formatter {
  constructor(private readonly rt: Runtime) {}

  async value(v: EvalValue, depth: number): Promise<string> {
    switch (v.kind) {
      case 'null':
        return 'null';
      case 'void':
        return 'void';
      case 'bool':
        return v.value ? 'True' : 'False';
      case 'number':
        return v.type === 'char' ? quoteChar(Number(v.value)) : formatNumber(v.type, v.value);
      case 'decimal':
        return formatDecimal(v.bits);
      case 'string': {
        const { text, length } = await this.rt.game.stringText(v, MAX_CHARS);
        return quoteString(text) + (length > text.length ? `… (${length} chars)` : '');
      }
      case 'pointer':
        return `0x${v.address.toString(16)}`;
      case 'enum':
        return this.callToString(v);
      case 'struct':
      case 'object':
        return this.composite(v, depth);
      case 'client':
        return this.client(v, depth);
    }
  }

  /**
   * A value the evaluator made: a delegate as the oracle prints one (its type and no public
   * fields), an anonymous object as C#'s ToString writes it, a LINQ sequence as its static
   * type and its elements (enumerated: the query's lambdas run, as a foreach over it would).
   */
  private async client(v: EvalValue & { kind: 'client' }, depth: number): Promise<string> {
    const name = await csharpName(this.rt.metadata, v.type);
    const p = v.payload;
    if (p.text) return p.text();
    if (p.clientKind === 'anonymous') {
      const parts: string[] = [];
      for (const [n, x] of p.members ?? []) parts.push(`${n} = ${await this.value(x, depth + 1)}`);
      return parts.length ? `{ ${parts.join(', ')} }` : '{ }';
    }
    if (p.clientKind === 'delegate' || !p.elements) return `${name} { }`;
    const items: EvalValue[] = [];
    for await (const x of p.elements()) items.push(x);
    // a client array or list (of anonymous objects) is written as the game's would be
    const d = await this.rt.metadata.describe(v.type);
    let head = name;
    if (d.kind === 'array' && d.elementType)
      head = `${await csharpName(this.rt.metadata, d.elementType)}[${items.length}]`;
    else if (d.genericDefinition) {
      const def = await this.rt.metadata.describe(d.genericDefinition);
      if (def.fullName === 'System.Collections.Generic.List`1') head = `${name}(${items.length})`;
    }
    return this.sequence(head, items.length, (i) => Promise.resolve(items[i]!), depth);
  }

  private async composite(
    v: EvalValue & { kind: 'struct' | 'object' },
    depth: number,
  ): Promise<string> {
    const type = await this.rt.game.typeOf(v);
    const d = await this.rt.metadata.describe(type);
    if (d.fullName === 'System.RuntimeType' || d.fullName === 'System.MonoType') {
      return `typeof(${csharpNameOfReflection(await this.callToString(v))})`;
    }
    if (d.kind === 'array') return this.array(v, type, depth);
    if (d.genericDefinition) {
      const def = await this.rt.metadata.describe(d.genericDefinition);
      if (def.fullName === 'System.Collections.Generic.List`1') return this.list(v, type, depth);
      if (def.fullName === 'System.Collections.Generic.Dictionary`2')
        return this.dictionary(v, type, depth);
    }
    if (await this.overridesToString(type)) return this.callToString(v);
    return this.members(v, type, depth);
  }

  private async array(v: EvalValue, type: TypeHandle, depth: number): Promise<string> {
    const d = await this.rt.metadata.describe(type);
    const lengths = await this.rt.game.arrayLengths(v);
    const lower = (await this.rt.game.arrayLowerBounds?.(v)) ?? [];
    const head = `${await csharpName(this.rt.metadata, d.elementType!)}[${arrayDimensions(lengths, lower)}]`;
    const total = lengths.reduce((a, b) => a * b, 1);
    return this.sequence(head, total, (i) => this.rt.game.readElement(v, i), depth);
  }

  private async list(v: EvalValue, type: TypeHandle, depth: number): Promise<string> {
    const items = await this.field(v, type, '_items');
    const size = await this.field(v, type, '_size');
    const n = size.kind === 'number' ? Number(size.value) : 0;
    const head = `${await csharpName(this.rt.metadata, type)}(${n})`;
    return this.sequence(head, n, (i) => this.rt.game.readElement(items, i), depth);
  }

  private async dictionary(v: EvalValue, type: TypeHandle, depth: number): Promise<string> {
    // Dictionary keeps entries in `_entries[0.._count)` (Mono 6.8's corefx copy; `entries` and
    // `count` in older Monos); live ones have hashCode >= 0, in enumeration order.
    const entries = await this.field(v, type, '_entries', 'entries');
    const countValue = await this.field(v, type, '_count', 'count');
    const used = countValue.kind === 'number' ? Number(countValue.value) : 0;
    const live: EvalValue[] = [];
    for (let i = 0; i < used && entries.kind === 'object'; i++) {
      const e = await this.rt.game.readElement(entries, i);
      if (e.kind === 'struct' && e.fields[0]?.kind === 'number' && Number(e.fields[0].value) >= 0)
        live.push(e);
    }
    const head = `${await csharpName(this.rt.metadata, type)}(${live.length})`;
    if (depth >= MAX_DEPTH) return `${head} { … }`;
    const parts: string[] = [];
    for (const e of live.slice(0, MAX_ELEMENTS)) {
      if (e.kind !== 'struct') continue;
      // Entry<TKey, TValue> { int hashCode; int next; TKey key; TValue value; }
      parts.push(
        `[${await this.value(e.fields[2]!, depth + 1)}] = ${await this.value(e.fields[3]!, depth + 1)}`,
      );
    }
    if (live.length > MAX_ELEMENTS) parts.push(`… (${live.length - MAX_ELEMENTS} more)`);
    return parts.length ? `${head} { ${parts.join(', ')} }` : `${head} {}`;
  }

  private async sequence(
    head: string,
    total: number,
    at: (i: number) => Promise<EvalValue>,
    depth: number,
  ): Promise<string> {
    if (depth >= MAX_DEPTH) return `${head} { … }`;
    const parts: string[] = [];
    for (let i = 0; i < Math.min(total, MAX_ELEMENTS); i++)
      parts.push(await this.value(await at(i), depth + 1));
    if (total > MAX_ELEMENTS) parts.push(`… (${total - MAX_ELEMENTS} more)`);
    return total === 0 ? `${head} {}` : `${head} { ${parts.join(', ')} }`;
  }

  private async members(
    v: EvalValue & { kind: 'struct' | 'object' },
    type: TypeHandle,
    depth: number,
  ): Promise<string> {
    const name = await csharpName(this.rt.metadata, type);
    if (depth >= MAX_DEPTH) return `${name} { … }`;
    const fields = await this.publicInstanceFields(type);
    const parts: string[] = [];
    for (const f of fields.slice(0, MAX_MEMBERS)) {
      const value =
        v.kind === 'struct' ? v.fields[f.index]! : await this.rt.game.readField(v, f.field);
      parts.push(`${f.field.name} = ${await this.value(value, depth + 1)}`);
    }
    if (fields.length > MAX_MEMBERS) parts.push('…');
    return parts.length ? `${name} { ${parts.join(', ')} }` : `${name} { }`;
  }

  /** Public instance fields as Type.GetFields(Public | Instance) lists them: the type's, then its bases'. */
  private async publicInstanceFields(
    type: TypeHandle,
  ): Promise<{ field: FieldDescriptor; index: number }[]> {
    const out: { field: FieldDescriptor; index: number }[] = [];
    for (
      let t: TypeHandle | undefined = type;
      t;
      t = (await this.rt.metadata.describe(t)).baseType
    ) {
      const all = await this.rt.metadata.allFields(t);
      all
        .filter((f) => !f.isStatic)
        .forEach((f, index) => {
          if (f.isPublic) out.push({ field: f, index });
        });
    }
    return out;
  }

  /** The first of these fields the type (or a base) declares. */
  private async field(v: EvalValue, type: TypeHandle, ...names: string[]): Promise<EvalValue> {
    for (
      let t: TypeHandle | undefined = type;
      t;
      t = (await this.rt.metadata.describe(t)).baseType
    ) {
      for (const name of names) {
        const [f] = (await this.rt.metadata.members(t, name)).fields;
        if (f) return this.rt.game.readField(v, f);
      }
    }
    throw new Error(`none of the fields ${names.join(', ')} found`);
  }

  private async overridesToString(type: TypeHandle): Promise<boolean> {
    for (
      let t: TypeHandle | undefined = type;
      t;
      t = (await this.rt.metadata.describe(t)).baseType
    ) {
      const d = await this.rt.metadata.describe(t);
      if (
        d.fullName === 'System.Object' ||
        d.fullName === 'System.ValueType' ||
        d.fullName === 'System.Enum'
      )
        return false;
      const ms = (await this.rt.metadata.members(t, 'ToString')).methods;
      if (ms.some((m) => !m.isStatic && m.parameters.length === 0)) return true;
    }
    return false;
  }

  /** `ToString()` in the game, dispatched on the runtime type (enums are boxed first). */
  private async callToString(v: EvalValue): Promise<string> {
    const type = await this.rt.game.typeOf(v);
    const target = v.kind === 'enum' ? await this.rt.game.box(v, type) : v;
    for (
      let t: TypeHandle | undefined = type;
      t;
      t = (await this.rt.metadata.describe(t)).baseType
    ) {
      const m = (await this.rt.metadata.members(t, 'ToString')).methods.find(
        (x) => !x.isStatic && x.parameters.length === 0,
      );
      if (!m) continue;
      const r = await this.rt.game.invoke(m, target, [], {
        virtual: target.kind === 'object',
        outThis: false,
        outArgs: false,
      });
      return (await this.rt.game.stringText(r.result, 100_000)).text;
    }
    throw new Error('no ToString()');
  }
}

/**
 * `2,3` for an array indexed from 0; `5..7` per dimension (first and last index, as a debugger
 * shows them) when any dimension starts elsewhere (Array.CreateInstance with lower bounds).
 */
export function arrayDimensions(
  lengths: readonly number[],
  lowerBounds: readonly number[],
): string {
  if (lowerBounds.every((b) => b === 0)) return lengths.join(',');
  return lengths
    .map((n, k) => `${lowerBounds[k] ?? 0}..${(lowerBounds[k] ?? 0) + n - 1}`)
    .join(',');
}

export function quoteChar(unit: number): string {
  return `'${escape(unit, "'")}'`;
}

export function quoteString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) out += escape(text.charCodeAt(i), '"');
  return `${out}"`;
}

function escape(c: number, quote: string): string {
  switch (c) {
    case 0x5c:
      return '\\\\';
    case 0:
      return '\\0';
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 9:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  const ch = String.fromCharCode(c);
  if (ch === quote) return `\\${ch}`;
  if (c < 0x20 || c === 0x7f) return `\\u${c.toString(16).padStart(4, '0')}`;
  return ch;
}

/** System.Decimal.ToString() with the invariant culture: every digit of the scale is kept. */
export function formatDecimal(bits: DecimalBits): string {
  const mantissa =
    (BigInt(bits.hi >>> 0) << 64n) | (BigInt(bits.mid >>> 0) << 32n) | BigInt(bits.lo >>> 0);
  const scale = (bits.flags >> 16) & 0xff;
  const negative = (bits.flags & 0x80000000) !== 0;
  let digits = mantissa.toString().padStart(scale + 1, '0');
  if (scale > 0) digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${digits}` : digits;
}
