// Literals (C# standard §6.4.5) with their exact values, and interpolated strings (§12.8.3).

import type { Expression, NodeBase } from './ast.js';

/**
 * A literal with its exact value (C# standard §6.4.5). Integer literals carry the type the spec
 * gives them; `-2147483648` and `-9223372036854775808` (decimal, suffix-less or `L`, right after a
 * unary minus, §6.4.5.3) arrive folded: one negative int / long Literal spanning the minus.
 */
export type Literal =
  IntegerLiteral | RealLiteral | CharLiteral | StringLiteral | BoolLiteral | NullLiteral;

export interface IntegerLiteral extends NodeBase {
  readonly kind: 'Literal';
  readonly type: 'int' | 'uint' | 'long' | 'ulong';
  readonly value: bigint;
  readonly radix: 2 | 10 | 16;
  readonly suffix: '' | 'u' | 'l' | 'ul';
}

export interface RealLiteral extends NodeBase {
  readonly kind: 'Literal';
  readonly type: 'float' | 'double' | 'decimal';
  /** The decimal digits as written, separators and suffix removed: `1_000.50e-3m` → `1000.50e-3`. */
  readonly digits: string;
  /** Nearest double (float: then rounded to float). Convert `digits` for decimal. */
  readonly value: number;
  readonly suffix: '' | 'f' | 'd' | 'm';
}

export interface CharLiteral extends NodeBase {
  readonly kind: 'Literal';
  readonly type: 'char';
  /** One UTF-16 code unit. */
  readonly value: number;
}

export interface StringLiteral extends NodeBase {
  readonly kind: 'Literal';
  readonly type: 'string';
  /** Escapes decoded. */
  readonly value: string;
  readonly verbatim: boolean;
}

export interface BoolLiteral extends NodeBase {
  readonly kind: 'Literal';
  readonly type: 'bool';
  readonly value: boolean;
}

export interface NullLiteral extends NodeBase {
  readonly kind: 'Literal';
  readonly type: 'null';
}

export interface InterpolatedString extends NodeBase {
  readonly kind: 'InterpolatedString';
  readonly verbatim: boolean;
  readonly parts: (InterpolatedText | Interpolation)[];
}

export interface InterpolatedText extends NodeBase {
  readonly kind: 'InterpolatedText';
  /** Escapes and `{{` / `}}` decoded. */
  readonly value: string;
}

/** A hole `{expression[,alignment][:format]}`. */
export interface Interpolation extends NodeBase {
  readonly kind: 'Interpolation';
  readonly expression: Expression;
  readonly alignment: Expression | null;
  readonly format: string | null;
}
