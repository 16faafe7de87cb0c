// The statements with a keyword or a brace at their head (C# standard §13): blocks, if/else,
// while, do, for, foreach, break, continue, return, throw, switch, try/catch/finally, and local
// functions. undefined when the cursor starts none of them (a declaration or an expression
// statement follows, or a rejected statement).

import type {
  Block,
  CatchClause,
  Expression,
  Identifier,
  LocalDeclaration,
  Parameter,
  Statement,
  SwitchLabel,
  SwitchSection,
  TypeNode,
} from './ast.js';
import { Diagnostics } from './diagnostics.js';
import { errorAt, parseExpression } from './parse-expressions.js';
import { identifier } from './parse-primary.js';
import { describe, type Parser } from './parser-core.js';
import { declarationAhead, parseDeclaration, parseStatement } from './parse-statements.js';
import { checkType, parseType } from './parse-types.js';
import type { Span } from './span.js';
import type { Token } from './tokens.js';

export function parseControl(p: Parser): Statement | null | undefined {
  const t = p.tok;
  const start = t.span;
  if (t.kind === 'punct') {
    if (t.punct === '{') return parseBlock(p);
    if (t.punct === ';') {
      p.advance();
      return { kind: 'EmptyStatement', span: start };
    }
    return undefined;
  }
  if (t.kind !== 'keyword') return undefined;
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- the other keywords start no control statement
  switch (t.keyword) {
    case 'if': {
      p.advance();
      const condition = parenthesized(p);
      const then = embedded(p);
      const otherwise = p.atKeyword('else') ? (p.advance(), embedded(p)) : null;
      return { kind: 'If', condition, then, else: otherwise, span: p.finish(start) };
    }
    case 'while': {
      p.advance();
      const condition = parenthesized(p);
      const body = embedded(p);
      return { kind: 'While', condition, body, span: p.finish(start) };
    }
    case 'do': {
      p.advance();
      const body = embedded(p);
      if (!p.atKeyword('while')) {
        p.error(Diagnostics.expectedToken(p.tok.span, "'while'", describe(p.tok)));
        return { kind: 'Do', body, condition: errorAt(p), span: p.finish(start) };
      }
      p.advance();
      const condition = parenthesized(p);
      p.expectPunct(';');
      return { kind: 'Do', body, condition, span: p.finish(start) };
    }
    case 'for':
      return parseFor(p, start);
    case 'foreach':
      return parseForeach(p, start);
    case 'break':
    case 'continue':
      p.advance();
      p.expectPunct(';');
      return { kind: t.keyword === 'break' ? 'Break' : 'Continue', span: p.finish(start) };
    case 'return':
    case 'throw': {
      p.advance();
      const value = p.atPunct(';') ? null : parseExpression(p);
      p.expectPunct(';');
      return { kind: t.keyword === 'return' ? 'Return' : 'Throw', value, span: p.finish(start) };
    }
    case 'switch':
      if (!p.atPunct('(', 1)) return undefined;
      return parseSwitch(p, start);
    case 'try':
      return parseTry(p, start);
    default:
      return undefined;
  }
}

export function parseBlock(p: Parser): Block {
  const start = p.tok.span;
  const statements: Statement[] = [];
  if (!p.expectPunct('{')) return { kind: 'Block', statements, span: p.finish(start) };
  while (!p.atPunct('}') && !p.atEof) {
    const s = parseStatement(p);
    if (s !== null) statements.push(s);
  }
  p.expectPunct('}');
  return { kind: 'Block', statements, span: p.finish(start) };
}

/** The statement of an if, a loop or an else. */
function embedded(p: Parser): Statement {
  const start = p.tok.span;
  return parseStatement(p) ?? { kind: 'EmptyStatement', span: p.finish(start) };
}

function parenthesized(p: Parser): Expression {
  if (!p.expectPunct('(')) return errorAt(p);
  const e = parseExpression(p);
  p.expectPunct(')');
  return e;
}

function parseFor(p: Parser, start: Span): Statement {
  p.advance();
  p.expectPunct('(');
  let init: LocalDeclaration | Expression[] = [];
  if (!p.atPunct(';')) {
    const declStart = p.tok.span;
    const declaration = declarationAhead(p);
    if (declaration !== null && declaration !== 'function' && declaration !== 'pointer')
      init = parseDeclaration(p, declaration, declStart, 'for');
    else init = expressionList(p, ';');
  }
  p.expectPunct(';');
  const condition = p.atPunct(';') ? null : parseExpression(p);
  p.expectPunct(';');
  const iterators = p.atPunct(')') ? [] : expressionList(p, ')');
  p.expectPunct(')');
  const body = embedded(p);
  return { kind: 'For', init, condition, iterators, body, span: p.finish(start) };
}

function expressionList(p: Parser, end: ';' | ')'): Expression[] {
  const list = [parseExpression(p)];
  while (p.eatPunct(',')) list.push(parseExpression(p));
  if (!p.atPunct(end))
    p.skipUntil((t) => t.kind === 'punct' && (t.punct === end || t.punct === '{'));
  return list;
}

function parseForeach(p: Parser, start: Span): Statement {
  p.advance();
  p.expectPunct('(');
  let type: TypeNode | 'var' | null;
  if (p.atContextual('var') && p.atIdentifier(1)) {
    p.advance();
    type = 'var';
  } else {
    type = parseType(p, 'type');
    if (type !== null) checkType(p, type, false);
  }
  let name: Identifier = { kind: 'Identifier', name: '', span: p.tok.span };
  if (p.atIdentifier()) name = identifier(p.advance());
  else p.error(Diagnostics.expectedToken(p.tok.span, 'a variable name', describe(p.tok)));
  if (p.atKeyword('in')) p.advance();
  else p.error(Diagnostics.expectedToken(p.tok.span, "'in'", describe(p.tok)));
  const collection = parseExpression(p);
  p.expectPunct(')');
  const body = embedded(p);
  return {
    kind: 'Foreach',
    type: type ?? 'var',
    name,
    collection,
    body,
    span: p.finish(start),
  };
}

function parseSwitch(p: Parser, start: Span): Statement {
  p.advance();
  const value = parenthesized(p);
  const sections: SwitchSection[] = [];
  if (!p.expectPunct('{')) return { kind: 'Switch', value, sections, span: p.finish(start) };
  while (!p.atPunct('}') && !p.atEof) {
    const sectionStart = p.tok.span;
    const labels: SwitchLabel[] = [];
    while (p.atKeyword('case') || (p.atKeyword('default') && p.atPunct(':', 1))) {
      labels.push(parseLabel(p));
    }
    if (labels.length === 0) {
      p.error(Diagnostics.expectedToken(p.tok.span, "'case' or 'default'", describe(p.tok)));
      p.skipGroup();
      continue;
    }
    const statements: Statement[] = [];
    while (
      !p.atPunct('}') &&
      !p.atEof &&
      !p.atKeyword('case') &&
      !(p.atKeyword('default') && p.atPunct(':', 1))
    ) {
      const s = parseStatement(p);
      if (s !== null) statements.push(s);
    }
    sections.push({ kind: 'SwitchSection', labels, statements, span: p.finish(sectionStart) });
  }
  p.expectPunct('}');
  return { kind: 'Switch', value, sections, span: p.finish(start) };
}

function parseLabel(p: Parser): SwitchLabel {
  const start = p.tok.span;
  if (p.atKeyword('default')) {
    p.advance();
    p.advance();
    return { kind: 'SwitchLabel', pattern: { k: 'default' }, when: null, span: p.finish(start) };
  }
  p.advance();
  // `case T name:` / `case T _:` / `case int:`: a type pattern; otherwise a constant (a name
  // that denotes a type, `case Foo:`, is told apart when binding)
  const typed = p.speculate(() => {
    const type = parseType(p, 'type');
    if (type === null) return null;
    if (p.atIdentifier() && !p.atContextual('when')) return { type, name: identifier(p.advance()) };
    const definitelyType = type.kind !== 'NamedType';
    if (definitelyType && (p.atPunct(':') || p.atContextual('when'))) return { type, name: null };
    return null;
  });
  const pattern: SwitchLabel['pattern'] = typed
    ? {
        k: 'type',
        type: typed.type,
        name: typed.name && typed.name.name !== '_' ? typed.name : null,
      }
    : { k: 'constant', value: parseExpression(p) };
  let when: Expression | null = null;
  if (p.atContextual('when')) {
    p.advance();
    when = parseExpression(p);
  }
  p.expectPunct(':');
  return { kind: 'SwitchLabel', pattern, when, span: p.finish(start) };
}

function parseTry(p: Parser, start: Span): Statement {
  p.advance();
  const block = parseBlock(p);
  const catches: CatchClause[] = [];
  while (p.atKeyword('catch')) {
    const catchStart = p.tok.span;
    p.advance();
    let type: TypeNode | null = null;
    let name: Identifier | null = null;
    if (p.eatPunct('(')) {
      type = parseType(p, 'type');
      if (type !== null) checkType(p, type, false);
      if (p.atIdentifier()) name = identifier(p.advance());
      p.expectPunct(')');
    }
    let filter: Expression | null = null;
    if (p.atContextual('when')) {
      p.advance();
      filter = parenthesized(p);
    }
    const body = parseBlock(p);
    catches.push({
      kind: 'CatchClause',
      type,
      name,
      filter,
      block: body,
      span: p.finish(catchStart),
    });
  }
  let fin: Block | null = null;
  if (p.atKeyword('finally')) {
    p.advance();
    fin = parseBlock(p);
  }
  if (catches.length === 0 && fin === null)
    p.error(Diagnostics.expectedToken(p.tok.span, "'catch' or 'finally'", describe(p.tok)));
  return { kind: 'Try', block, catches, finally: fin, span: p.finish(start) };
}

/** `(int a, string b)` of a local function or an explicitly typed lambda; `(a, b)` when `implicit`. */
export function parseParameters(p: Parser, implicit: boolean, defaults = false): Parameter[] {
  const list: Parameter[] = [];
  p.expectPunct('(');
  while (!p.atPunct(')') && !p.atEof) {
    const start = p.tok.span;
    if (p.atKeyword('ref') || p.atKeyword('out') || p.atKeyword('in') || p.atKeyword('params')) {
      p.error(
        Diagnostics.declaration(
          p.tok.span,
          `'${p.tok.text}' parameters are`,
          'pass values and return the result',
        ),
      );
      p.advance();
    }
    let type: TypeNode | null = null;
    if (!(implicit && p.atIdentifier() && (p.atPunct(',', 1) || p.atPunct(')', 1)))) {
      type = parseType(p, 'type');
      if (type !== null) checkType(p, type, false);
    }
    if (!p.atIdentifier()) {
      p.error(Diagnostics.expectedToken(p.tok.span, 'a parameter name', describe(p.tok)));
      p.skipUntil((t) => t.kind === 'punct' && (t.punct === ')' || t.punct === ','));
    } else {
      const name = identifier(p.advance());
      if (defaults && type !== null && p.atPunct('=')) {
        p.advance();
        const defaultValue = parseExpression(p);
        list.push({ kind: 'Parameter', type, name, defaultValue, span: p.finish(start) });
      } else list.push({ kind: 'Parameter', type, name, span: p.finish(start) });
    }
    if (!p.eatPunct(',')) break;
  }
  p.expectPunct(')');
  return list;
}

export function parseLocalFunction(
  p: Parser,
  returnType: TypeNode | 'void',
  start: Token['span'],
): Statement {
  if (returnType === 'void') p.advance();
  else checkType(p, returnType, false);
  const name = identifier(p.advance());
  const parameters = parseParameters(p, false, true);
  let body: Expression | Block;
  if (p.eatPunct('=>')) {
    body = parseExpression(p);
    p.expectPunct(';');
  } else body = parseBlock(p);
  return { kind: 'LocalFunction', returnType, name, parameters, body, span: p.finish(start) };
}
