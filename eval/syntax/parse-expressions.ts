// Expressions above the primary level (C# standard §12.4.2 precedence and associativity):
// assignment, conditional, null coalescing, the binary operators by precedence climbing over
// one table, and the unary operators (casts: parse-cast.ts).

import type { AssignmentOperator, BinaryOperator, Expression } from './ast.js';
import { Diagnostics } from './diagnostics.js';
import type { Parser } from './parser-core.js';
import { parseParenthesizedOrCast } from './parse-cast.js';
import { parseIsPattern } from './parse-patterns.js';
import { parsePostfix, parsePrimary } from './parse-primary.js';
import { canStartExpression, checkType, parseType } from './parse-types.js';
import { rejectLambda } from './parse-unsupported.js';
import type { Token } from './tokens.js';

/**
 * Binary operator precedence, loosest first (§12.4.2), in the manner of acorn's `binop`. All
 * are left-associative. Below them: `??` (right), `?:` (right), assignment (right).
 */
export const BINARY_PRECEDENCE: Readonly<Record<BinaryOperator | 'is' | 'as', number>> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6, '!=': 6,
  '<': 7, '>': 7, '<=': 7, '>=': 7, is: 7, as: 7,
  '<<': 8, '>>': 8,
  '+': 9, '-': 9,
  '*': 10, '/': 10, '%': 10,
}; // prettier-ignore

const SIMPLE_ASSIGNMENTS: ReadonlySet<string> = new Set([
  '=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '??=',
]); // prettier-ignore

export function parseExpression(p: Parser): Expression {
  p.enter();
  try {
    const start = p.tok.span;
    const target = parseConditional(p);
    const op = assignmentOperatorAt(p);
    if (op === null) {
      if (p.atPunct('=>')) return rejectLambda(p, start);
      return target;
    }
    p.pos += op === '>>=' ? 2 : 1;
    checkAssignable(p, target, `'${op}'`);
    const value = parseExpression(p); // right-associative
    return { kind: 'Assignment', operator: op, target, value, span: p.finish(start) };
  } finally {
    p.leave();
  }
}

/** The lexer never makes `>>=`: it is `>` followed by an adjacent `>=`. */
function assignmentOperatorAt(p: Parser): AssignmentOperator | null {
  const t = p.tok;
  if (t.kind !== 'punct') return null;
  if (SIMPLE_ASSIGNMENTS.has(t.punct)) return t.punct as AssignmentOperator;
  if (t.punct === '>' && p.atPunct('>=', 1) && p.adjacent(0)) return '>>=';
  return null;
}

function parseConditional(p: Parser): Expression {
  const start = p.tok.span;
  const condition = parseCoalesce(p);
  if (!p.atPunct('?')) return condition;
  p.advance();
  // Both branches are full expressions (§12.18): `c ? a = 1 : b = 2` assigns in either.
  const whenTrue = parseExpression(p);
  const whenFalse = p.expectPunct(':') ? parseExpression(p) : errorAt(p);
  return { kind: 'Conditional', condition, whenTrue, whenFalse, span: p.finish(start) };
}

function parseCoalesce(p: Parser): Expression {
  const start = p.tok.span;
  const left = parseBinary(p, 1);
  if (!p.atPunct('??')) return left;
  p.advance();
  p.enter();
  try {
    const right = parseCoalesce(p); // right-associative
    return { kind: 'Coalesce', left, right, span: p.finish(start) };
  } finally {
    p.leave();
  }
}

interface OperatorAt {
  op: BinaryOperator | 'is' | 'as';
  tokens: number;
  /** `>>>` (C# 11): reported when consumed, read as `>>` to go on. */
  unsignedShift?: boolean;
}

/** The binary operator at the cursor; `>` `>` adjacent make `>>` (Roslyn's way, see tokens.ts). */
function binaryOperatorAt(p: Parser): OperatorAt | null {
  const t = p.tok;
  if (t.kind === 'keyword') {
    return t.keyword === 'is' || t.keyword === 'as' ? { op: t.keyword, tokens: 1 } : null;
  }
  if (t.kind !== 'punct') return null;
  if (t.punct === '>') {
    if (p.atPunct('>=', 1) && p.adjacent(0)) return null; // `>>=`: an assignment
    if (p.atPunct('>', 1) && p.adjacent(0)) {
      if ((p.atPunct('>', 2) || p.atPunct('>=', 2)) && p.adjacent(1)) {
        return { op: '>>', tokens: 3, unsignedShift: true };
      }
      return { op: '>>', tokens: 2 };
    }
    return { op: '>', tokens: 1 };
  }
  return t.punct in BINARY_PRECEDENCE ? { op: t.punct as BinaryOperator, tokens: 1 } : null;
}

function parseBinary(p: Parser, minPrecedence: number): Expression {
  const start = p.tok.span;
  let left = parseUnary(p);
  // Each operator applied deepens the tree by one: it counts against the nesting bound, so no
  // later recursive walk over `a + a + ... + a` can overflow the stack.
  const depth = p.depth;
  try {
    for (;;) {
      const rejected = rejectPostfixConstruct(p, start);
      if (rejected) {
        left = rejected;
        continue;
      }
      const at = binaryOperatorAt(p);
      if (at === null) return left;
      const precedence = BINARY_PRECEDENCE[at.op];
      if (precedence < minPrecedence) return left;
      if (at.unsignedShift) p.error(Diagnostics.unsignedShift(p.tok.span));
      p.pos += at.tokens;
      p.enter();
      left = parseBinaryRight(p, left, at.op, precedence, start);
    }
  } finally {
    p.depth = depth;
  }
}

function parseBinaryRight(
  p: Parser,
  left: Expression,
  op: OperatorAt['op'],
  precedence: number,
  start: Token['span'],
): Expression {
  if (op === 'is') return parseIsPattern(p, left, start);
  if (op === 'as') {
    const type = parseType(p, 'isAs');
    if (type) checkType(p, type, false);
    return type ? { kind: 'As', operand: left, type, span: p.finish(start) } : errorAt(p, start);
  }
  const right = parseBinary(p, precedence + 1);
  return { kind: 'Binary', operator: op, left, right, span: p.finish(start) };
}

/** `x switch { ... }`, `x with { ... }`, `a..b`: named, skipped, reported once. */
function rejectPostfixConstruct(p: Parser, start: Token['span']): Expression | null {
  if (p.atKeyword('switch')) {
    p.error(Diagnostics.switchExpression(p.tok.span));
    p.advance();
    if (p.atPunct('{')) p.skipGroup();
    return errorAt(p, start);
  }
  if (p.atContextual('with') && p.atPunct('{', 1)) {
    p.error(Diagnostics.withExpression(p.tok.span));
    p.advance();
    p.skipGroup();
    return errorAt(p, start);
  }
  if (p.atPunct('..')) {
    p.error(Diagnostics.range(p.tok.span));
    p.advance();
    if (canStartExpression(p.tok)) parseUnary(p);
    return errorAt(p, start);
  }
  return null;
}

const PREFIX: ReadonlySet<string> = new Set(['+', '-', '!', '~', '++', '--']);

export function parseUnary(p: Parser): Expression {
  p.enter();
  try {
    const t = p.tok;
    const start = t.span;
    if (t.kind === 'punct') {
      if (PREFIX.has(t.punct)) {
        p.advance();
        const operand = parseUnary(p);
        const operator = t.punct as '+' | '-' | '!' | '~' | '++' | '--';
        if (operator === '++' || operator === '--') checkAssignable(p, operand, `'${operator}'`);
        if (operator === '-') {
          const folded = foldNegativeLiteral(operand, start);
          if (folded) return folded;
        }
        return { kind: 'Unary', operator, operand, span: p.finish(start) };
      }
      if (t.punct === '(') {
        const e = parseParenthesizedOrCast(p);
        // A cast's operand already took its postfix chain: `(T)a.b` casts `a.b`.
        return e.kind === 'Cast' ? e : parsePostfix(p, e, start);
      }
      if (t.punct === '&' || t.punct === '*' || t.punct === '^' || t.punct === '..') {
        p.error(
          t.punct === '^'
            ? Diagnostics.indexFromEnd(t.span)
            : t.punct === '..'
              ? Diagnostics.range(t.span)
              : Diagnostics.pointer(t.span),
        );
        p.advance();
        if (canStartExpression(p.tok)) parseUnary(p);
        return errorAt(p, start);
      }
    }
    if (t.kind === 'keyword' && (t.keyword === 'throw' || t.keyword === 'ref')) {
      p.error(
        t.keyword === 'throw' ? Diagnostics.throwExpression(t.span) : Diagnostics.ref(t.span),
      );
      p.advance();
      if (canStartExpression(p.tok)) parseUnary(p);
      return errorAt(p, start);
    }
    if (p.atContextual('await') && awaitOperandFollows(p.peek(1))) {
      p.error(Diagnostics.await(t.span));
      p.advance();
      parseUnary(p);
      return errorAt(p, start);
    }
    return parsePostfix(p, parsePrimary(p), start);
  } finally {
    p.leave();
  }
}

/** `await x` versus a variable named await: an operand has to follow (§12.9.8). */
export function awaitOperandFollows(t: Token): boolean {
  if (t.kind === 'punct') return t.punct === '(';
  return canStartExpression(t);
}

/**
 * §6.4.5.3: `2147483648` (no suffix) and `9223372036854775808` (no suffix or L) right after a
 * unary minus make one int / long constant, the minimum value. Only a decimal literal counts (the
 * earlier specs' wording, decimal-integer-literal); `-(2147483648)` stays a negated uint.
 */
function foldNegativeLiteral(operand: Expression, start: Token['span']): Expression | null {
  if (operand.kind !== 'Literal' || (operand.type !== 'uint' && operand.type !== 'ulong'))
    return null;
  if (operand.radix !== 10) return null;
  const span = { ...start, end: operand.span.end };
  if (operand.value === 2147483648n && operand.suffix === '') {
    return { ...operand, type: 'int', value: -2147483648n, span };
  }
  if (operand.value === 9223372036854775808n && (operand.suffix === '' || operand.suffix === 'l')) {
    return { ...operand, type: 'long', value: -9223372036854775808n, span };
  }
  return null;
}

/** Assignment, `++` / `--`, `ref` / `out` need a variable: a name, member or element access. */
export function checkAssignable(p: Parser, e: Expression, what: string): void {
  if (isAssignable(e)) return;
  // a variable but for a `?.` / `?[` in its chain: C# says so with a code of its own
  p.error(
    isConditionalVariable(e)
      ? Diagnostics.conditionalAssignmentTarget(e.span, what)
      : Diagnostics.invalidAssignmentTarget(e.span, what),
  );
}

/** `a?.b`, `a?[i].c`: a member or element access that only a `?.` / `?[` keeps from being a variable. */
function isConditionalVariable(e: Expression): boolean {
  if (e.kind === 'Parenthesized') return isConditionalVariable(e.expression);
  if (e.kind !== 'MemberAccess' && e.kind !== 'ElementAccess') return false;
  return e.conditional || inConditionalChain(e.target);
}

function isAssignable(e: Expression): boolean {
  if (e.kind === 'Name') return e.typeArgs.length === 0;
  if (e.kind === 'MemberAccess') {
    return !e.conditional && e.typeArgs.length === 0 && !inConditionalChain(e.target);
  }
  if (e.kind === 'ElementAccess') return !e.conditional && !inConditionalChain(e.target);
  if (e.kind === 'Parenthesized') return isAssignable(e.expression);
  return e.kind === 'Error'; // an error is already reported
}

/** A `?.` / `?[` earlier in the postfix chain makes the whole chain a value, not a variable. */
export function inConditionalChain(e: Expression): boolean {
  let x = e;
  for (;;) {
    if (x.kind === 'MemberAccess' || x.kind === 'ElementAccess') {
      if (x.conditional) return true;
      x = x.target;
    } else if (x.kind === 'Invocation') {
      x = x.target;
    } else if (x.kind === 'Postfix' && x.operator === '!') {
      x = x.operand;
    } else {
      return false;
    }
  }
}

export function errorAt(p: Parser, start: Token['span'] = p.tok.span): Expression {
  return { kind: 'Error', span: p.finish(start) };
}
