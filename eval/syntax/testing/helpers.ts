// Test helpers for the parser tables.

import type { Node } from '../ast.js';
import { parse } from '../parser.js';
import { unparse } from '../unparse.js';

/** The canonical unparse of `source`; fails the test with the messages when it has errors. */
export function unparseOk(source: string): string {
  const { program, errors } = parse(source);
  if (errors.length > 0) {
    throw new Error(
      `unexpected errors in ${JSON.stringify(source)}:\n${errors.map((e) => e.message).join('\n')}`,
    );
  }
  return unparse(program);
}

/** `code@column` for every error of `source`, in order. */
export function errorSummary(source: string): string[] {
  return parse(source).errors.map((e) => `${e.code}@${e.span.column}`);
}

/** Every node below `node` (itself included), by walking the object graph. */
export function* walk(node: Node): Generator<Node> {
  yield node;
  for (const value of Object.values(node) as unknown[]) {
    for (const child of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (isNode(child)) yield* walk(child);
    }
  }
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && 'kind' in x && 'span' in x;
}

const SPELLING: ReadonlySet<string> = new Set(['span', 'radix', 'suffix', 'verbatim']);

/**
 * The tree's meaning, for comparing a parse with the parse of its unparse: spans and spelling
 * details (radix, suffix, verbatim) dropped, Parenthesized nodes replaced by their content.
 */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (record.kind === 'Parenthesized') return shape(record.expression);
  return Object.fromEntries(
    Object.entries(record)
      .filter(([k]) => !SPELLING.has(k))
      .map(([k, v]) => [k, shape(v)]),
  );
}
