// The program: statements (C# standard §13), the last top-level one may omit its `;`. Blocks,
// if/else, the loops, break/continue/return, switch, try/catch/finally, throw and local
// functions are parsed (parse-control.ts); the statements this evaluator does not run (labels,
// goto, using, lock, yield, ...) are rejected by name and skipped whole, so that errors after
// them are still found.

import type {
  ArrayInitializer,
  Expression,
  LocalDeclaration,
  Program,
  Statement,
  TypeNode,
  VariableDeclarator,
} from './ast.js';
import { Diagnostics, type ParseError } from './diagnostics.js';
import { parseArrayInitializer } from './parse-creation.js';
import { awaitOperandFollows, parseExpression } from './parse-expressions.js';
import { identifier } from './parse-primary.js';
import { describe, NestingTooDeep, type Parser } from './parser-core.js';
import { checkType, hasTopLevelComma, parseType } from './parse-types.js';
import { isQueryAhead } from './parse-query.js';
import { parseControl, parseLocalFunction } from './parse-control.js';
import { isPredefinedType, type Token } from './tokens.js';

export function parseProgram(p: Parser, sourceLength: number): Program {
  const statements: Statement[] = [];
  try {
    while (!p.atEof) {
      if (p.eatPunct(';')) continue;
      const statement = parseStatement(p, true);
      if (statement !== null) statements.push(statement);
    }
  } catch (e) {
    if (!(e instanceof NestingTooDeep)) throw e;
    p.error(Diagnostics.nestingTooDeep(e.span));
  }
  const span = { start: 0, end: sourceLength, line: 1, column: 1 };
  return { kind: 'Program', statements, span };
}

const MEMBER_KEYWORDS: ReadonlySet<string> = new Set([
  'static', 'readonly', 'volatile', 'extern', 'public', 'private', 'protected', 'internal',
  'abstract', 'sealed', 'override', 'virtual', 'class', 'struct', 'interface', 'enum',
  'namespace', 'event', 'operator', 'implicit', 'explicit', 'params',
]); // prettier-ignore

/** A rejected statement at the cursor, reported; null when the cursor starts a supported one. */
function rejectedStatement(p: Parser): ParseError | null {
  const t = p.tok;
  const span = t.span;
  if (t.kind === 'punct' && (t.punct === ')' || t.punct === ']' || t.punct === '}')) {
    return Diagnostics.unexpectedToken(span, describe(t), 'a statement');
  }
  if (t.kind === 'identifier') {
    if (p.atPunct(':', 1)) return Diagnostics.statement(span, 'labels are', 'drop the label');
    if (p.atContextual('yield') && (p.atKeyword('return', 1) || p.atKeyword('break', 1))) {
      return Diagnostics.statement(span, "'yield' statements are", 'write the expressions only');
    }
    if (p.atContextual('await') && (p.atKeyword('foreach', 1) || p.atKeyword('using', 1))) {
      return Diagnostics.await(span);
    }
    if (p.atContextual('await') && awaitOperandFollows(p.peek(1)) && !p.atPunct('=', 2)) {
      return Diagnostics.await(span);
    }
    return null;
  }
  if (t.kind !== 'keyword') return null;
  const kw = t.keyword;
  if (kw === 'default' && !p.atPunct(':', 1)) return null;
  if ((kw === 'checked' || kw === 'unchecked') && !p.atPunct('{', 1)) return null;
  if (kw === 'else' || kw === 'case' || kw === 'default' || kw === 'catch' || kw === 'finally')
    return Diagnostics.unexpectedToken(span, describe(t), 'a statement');
  if (['using', 'lock', 'goto', 'fixed', 'unsafe', 'checked', 'unchecked'].includes(kw)) {
    // prettier-ignore
    return Diagnostics.statement(span, `'${kw}' statements are`, 'write the expressions only');
  }
  if (kw === 'const' || kw === 'ref') {
    return Diagnostics.declaration(span, `'${kw}' locals are`, 'declare with var x = ...;');
  }
  if (MEMBER_KEYWORDS.has(kw)) {
    return Diagnostics.declaration(
      span,
      'type and member declarations are',
      'use the types and methods the game already has',
    );
  }
  return null;
}

/** One statement; `top` for a statement of the program itself (the last may omit its `;`). */
export function parseStatement(p: Parser, top = false): Statement | null {
  p.enter();
  try {
    const control = parseControl(p);
    if (control !== undefined) return control;
    const rejected = rejectedStatement(p);
    if (rejected) {
      p.error(rejected);
      if (p.atPunct(')') || p.atPunct(']') || p.atPunct('}')) p.advance();
      else skipStatement(p);
      return null;
    }
    const start = p.tok.span;
    if (p.atContextual('var') && p.atPunct('(', 1) && hasTopLevelComma(p, p.pos + 1)) {
      p.error(Diagnostics.tuple(p.peek(1).span));
      skipStatement(p);
      return null;
    }
    if (p.atKeyword('void') && p.atIdentifier(1) && p.atPunct('(', 2))
      return parseLocalFunction(p, 'void', start);
    const declaration = declarationAhead(p);
    if (declaration === 'function') {
      const returnType = parseType(p, 'type');
      if (returnType !== null && p.atIdentifier() && p.atPunct('(', 1))
        return parseLocalFunction(p, returnType, start);
      p.error(Diagnostics.localFunction(start));
      skipStatement(p);
      return null;
    }
    if (declaration === 'pointer') {
      p.error(Diagnostics.pointer(start));
      skipStatement(p);
      return null;
    }
    if (declaration !== null) return parseDeclaration(p, declaration, start, top);
    const expression = parseExpression(p);
    const semicolon = endStatement(p, top);
    return { kind: 'ExpressionStatement', expression, semicolon, span: p.finish(start) };
  } finally {
    p.leave();
  }
}

/**
 * A statement that starts with a type followed by a name is a local declaration, as Roslyn
 * decides at a statement start: `a < b > c;` declares c. `a * b` multiplies (a pointer
 * declaration would be rejected anyway); `a ? b : c;` stays a conditional (see
 * conditionalAfter); `from x in` starts a query. Leaves the cursor on the name when it returns a
 * type; 'function' for `T Name(` / `T Name<`, the head of a local function.
 */
export function declarationAhead(p: Parser): TypeNode | 'var' | 'function' | 'pointer' | null {
  const start = p.pos;
  if (p.atContextual('var') && p.atIdentifier(1)) {
    p.advance();
    return 'var';
  }
  const t = p.tok;
  if (t.kind === 'keyword' && isPredefinedType(t.keyword) && p.atPunct('*', 1)) return 'pointer';
  if (isQueryAhead(p) && !['=', ';', ','].some((x) => p.atPunct(x as ';', 2)) && !p.atEof) {
    return null;
  }
  const result = p.speculate(() => {
    const type = parseType(p, 'type');
    if (type === null || !p.atIdentifier()) return null;
    return { type, isFunction: p.atPunct('(', 1) || p.atPunct('<', 1) };
  });
  if (result === null) return null;
  if (result.type.kind === 'NullableType' && conditionalAfter(p)) {
    p.pos = start;
    return null;
  }
  if (result.isFunction) {
    p.pos = start;
    return 'function';
  }
  return result.type;
}

/**
 * `a ? b = 1 : c;` reads at first like a declaration of `b` with type `a?`. It is a conditional
 * when the rest of the statement has more top-level `:` than `?`: one `?` was the type's.
 */
function conditionalAfter(p: Parser): boolean {
  let balance = 0;
  for (let i = p.pos; i < p.tokens.length; i++) {
    const t = p.tokens[i]!;
    if (t.kind !== 'punct') continue;
    if (t.punct === ';') break;
    if (t.punct === '?') balance++;
    else if (t.punct === ':') balance--;
    const m = p.match[i] ?? -1;
    if (m > i) i = m;
  }
  return balance < 0;
}

export function parseDeclaration(
  p: Parser,
  type: TypeNode | 'var',
  start: Token['span'],
  top: boolean | 'for' = false,
): LocalDeclaration {
  if (type !== 'var') checkType(p, type, false);
  const declarators: VariableDeclarator[] = [];
  do {
    if (!p.atIdentifier()) {
      p.error(Diagnostics.expectedToken(p.tok.span, 'a variable name', describe(p.tok)));
      break;
    }
    const nameToken = p.advance();
    if (p.atPunct('[')) {
      p.error(
        Diagnostics.invalidDeclaration(p.tok.span, 'write the brackets on the type: int[] a'),
      );
      p.skipGroup();
    }
    let initializer: Expression | ArrayInitializer | null = null;
    if (p.eatPunct('=')) {
      initializer = p.atPunct('{') ? parseArrayInitializer(p) : parseExpression(p);
      if (
        initializer.kind === 'ArrayInitializer' &&
        (type === 'var' || type.kind !== 'ArrayType')
      ) {
        p.error(
          Diagnostics.invalidDeclaration(
            initializer.span,
            'an array initializer { ... } needs an array type: int[] a = { 1, 2 }; or var a = new[] { 1, 2 };',
          ),
        );
      }
    }
    const span = p.finish(nameToken.span);
    declarators.push({
      kind: 'VariableDeclarator',
      name: identifier(nameToken),
      initializer,
      span,
    });
    if (type === 'var' && initializer === null) {
      p.error(Diagnostics.varWithoutInitializer(span));
    }
  } while (p.eatPunct(','));
  if (type === 'var' && declarators.length > 1) {
    p.error(
      Diagnostics.invalidDeclaration(
        start,
        'var declares one variable at a time: var a = 1; var b = 2;',
      ),
    );
  }
  const semicolon = top === 'for' ? false : endStatement(p, top);
  return { kind: 'LocalDeclaration', type, declarators, semicolon, span: p.finish(start) };
}

/**
 * `;`, or (for the program's last statement) the end of the input; anything else is reported
 * and skipped to the next `;`.
 */
function endStatement(p: Parser, top: boolean): boolean {
  if (p.eatPunct(';')) return true;
  if (p.atEof && top) return false;
  if (p.atPunct('}') || p.atEof) {
    p.error(Diagnostics.expectedToken(p.tok.span, "';'", describe(p.tok)));
    return false;
  }
  p.error(Diagnostics.unexpectedToken(p.tok.span, describe(p.tok), "';' or an operator"));
  p.skipUntil((t) => t.kind === 'punct' && t.punct === ';');
  return p.eatPunct(';');
}

/**
 * Skips a rejected statement: up to and including its `;`, or its last block — `if {} else {}`,
 * `try {} catch {} finally {}` and `do {} while (c);` count as one statement.
 */
export function skipStatement(p: Parser): void {
  for (;;) {
    if (p.atEof) return;
    if (p.eatPunct(';')) {
      if (!p.atKeyword('else')) return;
    } else if (p.atPunct('{')) {
      p.skipGroup();
      const more =
        p.atKeyword('else') ||
        p.atKeyword('catch') ||
        p.atKeyword('finally') ||
        p.atKeyword('while');
      if (!more) return;
    } else {
      p.skipGroup();
    }
  }
}
