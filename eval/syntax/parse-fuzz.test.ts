import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { ParseResult } from './parser.js';
import { parse } from './parser.js';
import { TRANSPARENT_PREFIX } from './parse-query.js';
import { CORPUS } from './testing/corpus.js';
import { shape, walk } from './testing/helpers.js';
import { KEYWORDS, PUNCTUATORS } from './tokens.js';
import { unparse } from './unparse.js';

// A generous bound per parse: a hang guard, not a speed check (bench.ts measures speed).
const HANG_BOUND_MS = 2000;

/** Parses, and checks what must hold for any input whatsoever. */
function checkedParse(source: string): ParseResult {
  const started = performance.now();
  const result = parse(source);
  expect(performance.now() - started).toBeLessThan(HANG_BOUND_MS);
  for (const e of result.errors) {
    expect(e.span.start).toBeGreaterThanOrEqual(0);
    expect(e.span.end).toBeGreaterThanOrEqual(e.span.start);
    expect(e.span.end).toBeLessThanOrEqual(source.length);
    expect(e.span.line).toBeGreaterThanOrEqual(1);
    expect(e.span.column).toBeGreaterThanOrEqual(1);
    expect(e.message).toMatch(/\(.*column \d+\)$/);
  }
  for (const node of walk(result.program)) {
    expect(node.span.start).toBeGreaterThanOrEqual(0);
    expect(node.span.end).toBeGreaterThanOrEqual(node.span.start);
    expect(node.span.end).toBeLessThanOrEqual(source.length);
  }
  if (result.errors.length === 0) expectRoundTrip(source, result);
  return result;
}

/** Query translation's hidden parameters, which no source can spell, renamed to a writable name. */
const HIDDEN = new RegExp(TRANSPARENT_PREFIX.replace(/[<>]/g, '\\$&'), 'g');
const writable = (text: string): string => text.replace(HIDDEN, '__hidden');

/**
 * The canonical unparse of a valid program parses back to the same tree (parentheses aside),
 * once the hidden parameters of query translation are given a name a program can write.
 */
function expectRoundTrip(source: string, result: ParseResult): void {
  const once = writable(unparse(result.program));
  const again = parse(once);
  expect(
    again.errors.map((e) => e.message),
    `reparsing ${once} (from ${source})`,
  ).toEqual([]);
  const expected = JSON.parse(writable(JSON.stringify(shape(result.program)))) as unknown;
  expect(shape(again.program), `reparsing ${once} (from ${source})`).toEqual(expected);
}

const VOCABULARY: readonly string[] = [
  ...PUNCTUATORS,
  ...KEYWORDS,
  'var', 'nameof', 'await', 'from', 'async', 'with', 'global', 'not', 'and', 'or', 'dynamic',
  'where', 'select', 'group', 'by', 'into', 'orderby', 'descending', 'let', 'join', 'on', 'equals',
  'x', 'y', 'Foo', 'List', 'world', 'entity', '_', '@if', 'é', '😀',
  '0', '1', '2147483648', '0x', '0xFF', '0b2', '1e', '1.5f', '2m', '1_', '1uu', '.5', '1..2',
  '"s"', '"open', "'c'", "''", "'ab'", '"\\q"', '"\\x41BC"', '@"v""q"', '$"a{x}b"', '$"{', '$"{x:N2}"',
  '$@"{x}"', '"""', '}', '{{', '#', '\\', '`', '$', '@', '/*', '*/', '//', '\n', '\t', ' ',
]; // prettier-ignore

const tokenStream = fc
  .array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(' ', '', '\n')), {
    maxLength: 40,
  })
  .map((parts) => parts.map(([token, space]) => token + space).join(''));

type Mutation =
  | { op: 'insert'; at: number; text: string }
  | { op: 'delete'; at: number; length: number }
  | { op: 'swap'; at: number; other: number }
  | { op: 'duplicate'; at: number; length: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(...VOCABULARY),
  }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.string({ maxLength: 3 }),
  }),
  fc.record({
    op: fc.constant('delete' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({
    op: fc.constant('duplicate' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 12 }),
  }),
);

function mutate(source: string, m: Mutation): string {
  const n = source.length + 1;
  const at = m.at % n;
  switch (m.op) {
    case 'insert':
      return source.slice(0, at) + m.text + source.slice(at);
    case 'delete':
      return source.slice(0, at) + source.slice(at + m.length);
    case 'swap': {
      const other = m.other % n;
      const [i, j] = at < other ? [at, other] : [other, at];
      if (j >= source.length) return source;
      return (
        source.slice(0, i) + source[j]! + source.slice(i + 1, j) + source[i]! + source.slice(j + 1)
      );
    }
    case 'duplicate':
      return source.slice(0, at) + source.slice(at, at + m.length) + source.slice(at);
  }
}

describe('the corpus', () => {
  it.each(CORPUS.map((s) => [s]))('%s parses without errors and round-trips', (source) => {
    expect(parse(source).errors.map((e) => e.message)).toEqual([]);
    checkedParse(source);
  });
});

describe('fuzzing: never throws, never hangs, spans stay inside the input', () => {
  it('random token streams', () => {
    fc.assert(
      fc.property(tokenStream, (source) => {
        checkedParse(source);
      }),
      { numRuns: 1500 },
    );
  });

  it('random mutations of the corpus', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CORPUS),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (seed, ms) => {
          checkedParse(ms.reduce(mutate, seed));
        },
      ),
      { numRuns: 2500 },
    );
    // a bound on a hang, not a speed check: 2,500 parses take seconds on a loaded machine
  }, 60_000);

  it('random text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (source) => {
        checkedParse(source);
      }),
      { numRuns: 500 },
    );
  });

  it.each<[string, string]>([
    ['parentheses', `${'('.repeat(20000)}x${')'.repeat(20000)}`],
    ['unary minus', `${'-'.repeat(20000)}x`],
    ['casts', `${'(int)'.repeat(5000)}x`],
    ['assignments', `${'a = '.repeat(5000)}1`],
    ['coalescing', `${'a ?? '.repeat(5000)}1`],
    ['conditionals', `${'a ? '.repeat(5000)}b${' : c'.repeat(5000)}`],
    ['additions', `${'a + '.repeat(20000)}1`],
    ['member accesses', `x${'.y'.repeat(20000)}`],
    ['element accesses', `x${'[0]'.repeat(20000)}`],
    ['calls', `f${'(1)'.repeat(20000)}`],
    ['generic types', `${'List<'.repeat(5000)}int${'>'.repeat(5000)} x;`],
    ['less-thans', `${'a<'.repeat(3000)}b`],
    ['initializers', `new List<int> ${'{ '.repeat(5000)}`],
    ['array initializers', `int[] a = ${'{ '.repeat(5000)}`],
    ['interpolations', '$"{'.repeat(2000)],
    ['lambdas', `${'x => '.repeat(5000)}1`],
    ['statements', 'if (a) b; '.repeat(5000)],
    ['query clauses', `from x in xs ${'where x '.repeat(5000)}select x`],
    ['nested queries', `${'from x in '.repeat(3000)}xs${' select x'.repeat(3000)}`],
    ['range variables', `from x in xs ${'let y = x '.repeat(3000)}select y`],
  ])('deep or long input (%s) ends in errors, not a stack overflow', (_name, source) => {
    expect(() => checkedParse(source)).not.toThrow();
  });

  it('bounds nesting with one located error', () => {
    const { errors } = parse(`${'('.repeat(2000)}x`);
    expect(errors.map((e) => e.code)).toEqual(['nesting-too-deep']);
    expect(errors[0]?.message).toContain('nested too deeply');
  });
});
