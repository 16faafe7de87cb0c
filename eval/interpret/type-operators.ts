// The operators whose operand is a type or a name: the cast `(T)x` (ECMA-334 §12.9.7),
// `typeof(T)` (§12.8.18, the game's System.Type object), `default(T)` (§12.8.21) and
// `nameof(x)` (§12.8.23, a constant string; x must name something).

import type * as A from '../syntax/index.js';
import { VOID } from '../values.js';
import { CompileError, UnsupportedError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';

export class TypeOperators {
  constructor(private readonly it: Interpreter) {}

  async cast(e: A.Cast): Promise<Operand> {
    const to = await this.it.types.type(e.type);
    const from = await this.it.functions.target(e.operand, to);
    const c = await this.it.conversions.explicit(from, to);
    if (!c) {
      if (from.type === 'null') {
        throw new CompileError(
          'CS0037',
          `cannot convert null to '${await this.it.facts.name(to)}' because it is a non-nullable value type`,
          e.span,
        );
      }
      throw new CompileError(
        'CS0030',
        `cannot convert type '${await this.it.facts.name(from.type)}' to '${await this.it.facts.name(to)}'`,
        e.span,
      );
    }
    return this.it.conversions.apply(c, from, to, this.it.checked);
  }

  async typeOf(e: A.TypeOf): Promise<Operand> {
    const type = await this.it.types.type(e.type, { allowVoid: true, allowUnbound: true });
    const systemType = await this.it.wk.named('System.Type');
    if (this.it.dry) return { type: systemType, value: VOID };
    return { type: systemType, value: await this.it.rt.game.typeObject(type) };
  }

  async defaultOf(e: A.Default): Promise<Operand> {
    if (!e.type)
      throw new UnsupportedError('the default literal needs a type here: write default(T)', e.span);
    const type = await this.it.types.type(e.type);
    return this.it.defaults.defaultValue(type);
  }

  async nameOf(e: A.NameOf): Promise<Operand> {
    const a = e.argument;
    const name = a.kind === 'Name' ? a.name : a.kind === 'MemberAccess' ? a.name.name : undefined;
    if (!name) throw new CompileError('CS8081', 'nameof needs a simple or member name', e.span);
    await this.it.inDry(() => this.it.resolve(a)); // it must name something
    const type = await this.it.wk.keyword('string');
    return {
      type,
      value: { kind: 'string', text: name },
      constant: { kind: 'string', value: name },
    };
  }
}
