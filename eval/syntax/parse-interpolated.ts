// Interpolated strings (C# standard §12.8.3): the lexer hands over each hole's tokens; each is
// parsed here by its own cursor that shares the error list and the nesting depth.

import type { Expression, InterpolatedString, InterpolatedText, Interpolation } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { parseExpression } from './parse-expressions.js';
import { describe, Parser } from './parser-core.js';
import type { InterpolatedToken, Token } from './tokens.js';

export function parseInterpolatedString(p: Parser, t: InterpolatedToken): InterpolatedString {
  const parts: (InterpolatedText | Interpolation)[] = t.parts.map((part) => {
    if (part.kind === 'text')
      return { kind: 'InterpolatedText', value: part.value, span: part.span };
    const errorCount = p.errors.length;
    const expression = parseHolePiece(p, part.expression, part.span);
    if (part.conditionalBeforeFormat && p.errors.length > errorCount) {
      // `{a ? b : c}`: the ':' began the format; one clear message instead of the fallout.
      p.errors.length = errorCount;
      p.error(Diagnostics.interpolationConditional(part.span));
    }
    const alignment = part.alignment ? parseHolePiece(p, part.alignment, part.span) : null;
    return { kind: 'Interpolation', expression, alignment, format: part.format, span: part.span };
  });
  return { kind: 'InterpolatedString', verbatim: t.verbatim, parts, span: t.span };
}

function parseHolePiece(p: Parser, tokens: Token[], holeSpan: Token['span']): Expression {
  const sub = new Parser(tokens, p.errors, p.depth);
  if (sub.atEof) {
    p.error(
      tokens[0]?.text === '}' || tokens[0]?.text === ''
        ? Diagnostics.emptyInterpolation(holeSpan)
        : Diagnostics.missingExpression(sub.tok.span, describe(sub.tok)),
    );
    return { kind: 'Error', span: sub.tok.span };
  }
  const e = parseExpression(sub);
  if (!sub.atEof) {
    p.error(Diagnostics.unexpectedToken(sub.tok.span, describe(sub.tok), "'}' to end the hole"));
  }
  return e;
}
