// Values as text: interpolated strings (string.Format in the game when culture or format can
// matter, plain concatenation otherwise) and what string concatenation appends for a value.

import type * as A from '../syntax/index.js';
import type { MethodDescriptor } from '../runtime.js';
import { VOID, type EvalValue } from '../values.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class Interpolation {
  constructor(private readonly it: Interpreter) {}

  private get f() {
    return this.it.facts;
  }

  private get game() {
    return this.it.rt.game;
  }

  /** `$"..."`: string.Format in the game (its culture), or plain concatenation when it cannot differ. */
  async interpolated(e: A.InterpolatedString): Promise<Operand> {
    const type = await this.it.wk.keyword('string');
    const holes: { op: Operand; alignment: number | undefined; format: string | null }[] = [];
    for (const p of e.parts) {
      if (p.kind !== 'Interpolation') continue;
      const op = await this.it.expr(p.expression);
      if (op.type !== 'null' && (await this.it.types.isVoid(op.type)))
        throw new CompileError(
          'CS0029',
          "cannot convert type 'void' to 'object'",
          p.expression.span,
        );
      let alignment: number | undefined;
      if (p.alignment) {
        const a = await this.it.conversions.implicitly(
          await this.it.expr(p.alignment),
          await this.it.wk.keyword('int'),
          'the alignment',
        );
        if (a.constant?.kind !== 'number')
          throw new CompileError('CS0150', 'the alignment must be a constant', p.alignment.span);
        alignment = Number(a.constant.c.value.value);
      }
      holes.push({ op, alignment, format: p.format });
    }
    if (this.it.dry) return { type, value: VOID };
    let simple = true;
    for (const h of holes)
      if (h.alignment !== undefined || h.format !== null || !this.plainText(h.op)) simple = false;
    let i = 0;
    if (simple) {
      let text = '';
      for (const p of e.parts)
        text += p.kind === 'InterpolatedText' ? p.value : await this.textOf(holes[i++]!.op);
      return { type, value: { kind: 'string', text } };
    }
    let format = '';
    for (const p of e.parts) {
      if (p.kind === 'InterpolatedText') {
        format += p.value.replace(/[{}]/g, (c) => c + c);
        continue;
      }
      const h = holes[i]!;
      format += `{${i}${h.alignment !== undefined ? `,${h.alignment}` : ''}${h.format !== null ? `:${h.format}` : ''}}`;
      i++;
    }
    const stringFormat = await this.stringFormat();
    const objectType = await this.it.wk.keyword('object');
    const args = await this.it.arrays.newArrayOf(
      objectType,
      holes.map((h) => h.op.value),
    );
    const r = await this.game.invoke(
      stringFormat,
      undefined,
      [{ kind: 'string', text: format }, args],
      { virtual: false, outThis: false, outArgs: false },
    );
    return { type, value: r.result };
  }

  private async stringFormat(): Promise<MethodDescriptor> {
    const string = await this.it.wk.keyword('string');
    const objectArray = await this.it.md.arrayOf(await this.it.wk.keyword('object'), 1);
    const m = (await this.it.md.members(string, 'Format')).methods.find(
      (x) =>
        x.parameters.length === 2 &&
        this.f.same(x.parameters[0]!.type, string) &&
        this.f.same(x.parameters[1]!.type, objectArray),
    );
    if (!m) throw new Error('System.String.Format(string, object[]) not found');
    return m;
  }

  /** Values whose text does not depend on the game's culture. */
  private plainText(op: Operand): boolean {
    const v = op.value;
    return (
      v.kind === 'null' ||
      v.kind === 'string' ||
      v.kind === 'bool' ||
      (v.kind === 'number' && v.type !== 'float' && v.type !== 'double')
    );
  }

  /** What string concatenation appends for a value: its ToString(), "" for null. */
  async textOf(op: Operand): Promise<string> {
    const v = op.value;
    if (v.kind === 'null') return '';
    if (v.kind === 'string') return (await this.game.stringText(v)).text;
    if (v.kind === 'bool') return v.value ? 'True' : 'False';
    if (v.kind === 'number' && v.type === 'char') return String.fromCharCode(Number(v.value));
    if (v.kind === 'number' && v.type !== 'float' && v.type !== 'double') return String(v.value);
    const s = await this.toStringOf(op);
    return s.kind === 'null' ? '' : (await this.game.stringText(s)).text;
  }

  /** x.ToString() in the game (virtual: the run-time type's override). */
  async toStringOf(op: Operand): Promise<EvalValue> {
    const type = op.type === 'null' ? await this.it.wk.keyword('object') : op.type;
    const found = await this.it.members.member(type, 'ToString');
    const m =
      found?.k === 'methods'
        ? found.methods.find((x) => x.parameters.length === 0 && !x.isStatic)
        : undefined;
    if (!m) throw new Error(`no ToString() on ${await this.f.name(type)}`);
    return (await this.it.invoker.invokeOn(m, op, [], false)).result;
  }
}
