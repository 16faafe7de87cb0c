import { describe, expect, it } from 'vitest';

import { lex } from './lexer.js';
import type { Token } from './tokens.js';

function summary(t: Token): string {
  switch (t.kind) {
    case 'integer':
      return `${t.type} ${t.value}${t.radix === 10 ? '' : ` r${t.radix}`}${t.suffix ? ` ${t.suffix}` : ''}`;
    case 'real':
      return `${t.type} ${t.digits} = ${t.value}`;
    case 'char':
      return `char ${t.value}`;
    case 'string':
      return `${t.verbatim ? '@' : ''}string ${JSON.stringify(t.value)}`;
    case 'identifier':
      return `${t.verbatim ? '@' : ''}id ${t.name}`;
    case 'keyword':
      return `kw ${t.keyword}`;
    case 'punct':
      return t.punct;
    case 'interpolated':
      return `${t.verbatim ? '@' : ''}$ ${t.parts
        .map((p) =>
          p.kind === 'text'
            ? JSON.stringify(p.value)
            : `{${texts(p.expression)}${p.alignment ? `,${texts(p.alignment)}` : ''}${p.format === null ? '' : `:${JSON.stringify(p.format)}`}}`,
        )
        .join(' ')}`;
    case 'eof':
      return 'eof';
  }
}

/** A hole's tokens without the `eof` that ends them. */
function texts(tokens: Token[]): string {
  return tokens
    .filter((t) => t.kind !== 'eof')
    .map((t) => t.text)
    .join(' ');
}

function tokensOf(source: string): string {
  const { tokens, errors } = lex(source);
  expect(errors.map((e) => e.message)).toEqual([]);
  return tokens.slice(0, -1).map(summary).join(' | ');
}

describe('integer literals (§6.4.5.3): exact values, the spec type, radix and suffix', () => {
  it.each<[string, string]>([
    ['0', 'int 0'],
    ['2147483647', 'int 2147483647'],
    ['2147483648', 'uint 2147483648'],
    ['4294967295', 'uint 4294967295'],
    ['4294967296', 'long 4294967296'],
    ['9223372036854775807', 'long 9223372036854775807'],
    ['9223372036854775808', 'ulong 9223372036854775808'],
    ['18446744073709551615', 'ulong 18446744073709551615'],
    ['1u', 'uint 1 u'],
    ['1U', 'uint 1 u'],
    ['4294967296u', 'ulong 4294967296 u'],
    ['1l', 'long 1 l'],
    ['1L', 'long 1 l'],
    ['9223372036854775808L', 'ulong 9223372036854775808 l'],
    ['1ul', 'ulong 1 ul'],
    ['1UL', 'ulong 1 ul'],
    ['1lu', 'ulong 1 ul'],
    ['1LU', 'ulong 1 ul'],
    ['1Lu', 'ulong 1 ul'],
    ['1uL', 'ulong 1 ul'],
    ['0x1F', 'int 31 r16'],
    ['0X1f', 'int 31 r16'],
    ['0x7FFFFFFF', 'int 2147483647 r16'],
    ['0x80000000', 'uint 2147483648 r16'],
    ['0xFFFFFFFF', 'uint 4294967295 r16'],
    ['0x100000000', 'long 4294967296 r16'],
    ['0xFFFFFFFFFFFFFFFF', 'ulong 18446744073709551615 r16'],
    ['0xFFu', 'uint 255 r16 u'],
    ['0x10L', 'long 16 r16 l'],
    ['0x1e5', 'int 485 r16'],
    ['0xABCDEFabcdef', 'long 188900977659375 r16'],
    ['0b1010', 'int 10 r2'],
    ['0B11', 'int 3 r2'],
    ['0b1111_0000', 'int 240 r2'],
    ['0b_1', 'int 1 r2'],
    ['0x_FF', 'int 255 r16'],
    ['1_000', 'int 1000'],
    ['1__000', 'int 1000'],
    ['1_000_000L', 'long 1000000 l'],
    ['0x8000_0000_0000_0000', 'ulong 9223372036854775808 r16'],
    ['007', 'int 7'],
  ])('%s', (source, expected) => {
    expect(tokensOf(source)).toBe(expected);
  });
});

describe('real literals (§6.4.5.4): digits kept exactly, a double for convenience', () => {
  it.each<[string, string]>([
    ['1.5', 'double 1.5 = 1.5'],
    ['.5', 'double 0.5 = 0.5'],
    ['1e10', 'double 1e10 = 10000000000'],
    ['1E10', 'double 1e10 = 10000000000'],
    ['1.5e-3', 'double 1.5e-3 = 0.0015'],
    ['1.5E+3', 'double 1.5e+3 = 1500'],
    ['1d', 'double 1 = 1'],
    ['1D', 'double 1 = 1'],
    ['1.5d', 'double 1.5 = 1.5'],
    ['1f', 'float 1 = 1'],
    ['1.5F', 'float 1.5 = 1.5'],
    ['0.1f', `float 0.1 = ${Math.fround(0.1)}`],
    ['3.4028235e38f', `float 3.4028235e38 = ${Math.fround(3.4028235e38)}`],
    ['1m', 'decimal 1 = 1'],
    ['1.50m', 'decimal 1.50 = 1.5'],
    ['1.5M', 'decimal 1.5 = 1.5'],
    ['1e-30m', 'decimal 1e-30 = 1e-30'],
    [
      '79228162514264337593543950335m',
      'decimal 79228162514264337593543950335 = 7.922816251426434e+28',
    ],
    ['1_000.000_5', 'double 1000.0005 = 1000.0005'],
    ['1e1_0', 'double 1e10 = 10000000000'],
    ['1.7976931348623157e308', 'double 1.7976931348623157e308 = 1.7976931348623157e+308'],
    ['4.9e-324', 'double 4.9e-324 = 5e-324'],
    ['1e-400', 'double 1e-400 = 0'],
    ['0.30000000000000004', 'double 0.30000000000000004 = 0.30000000000000004'],
  ])('%s', (source, expected) => {
    expect(tokensOf(source)).toBe(expected);
  });

  it('keeps the source text of the token, separators and suffix included', () => {
    const t = lex('1_000.5e3F').tokens[0]!;
    expect(t).toMatchObject({ kind: 'real', text: '1_000.5e3F', digits: '1000.5e3', suffix: 'f' });
  });
});

describe('characters and strings (§6.4.5.5, §6.4.5.6)', () => {
  it.each<[string, string]>([
    ["'a'", 'char 97'],
    ["'\\''", 'char 39'],
    ["'\"'", 'char 34'],
    ["'\\\\'", 'char 92'],
    ["'\\0'", 'char 0'],
    ["'\\a'", 'char 7'],
    ["'\\b'", 'char 8'],
    ["'\\f'", 'char 12'],
    ["'\\n'", 'char 10'],
    ["'\\r'", 'char 13'],
    ["'\\t'", 'char 9'],
    ["'\\v'", 'char 11'],
    ["'\\x41'", 'char 65'],
    ["'\\x041'", 'char 65'],
    ["'\\x0041'", 'char 65'],
    ["'\\x7'", 'char 7'],
    ["'\\u00e9'", 'char 233'],
    ["'\\U0000FFFF'", 'char 65535'],
    ["'é'", 'char 233'],
    ["'中'", 'char 20013'],
    ['"abc"', 'string "abc"'],
    ['""', 'string ""'],
    ['"a\\tb\\nc"', 'string "a\\tb\\nc"'],
    ['"\\"quoted\\""', 'string "\\"quoted\\""'],
    // \x is greedy: up to four hex digits, so "\x41BC" is one character.
    ['"\\x41BC"', 'string "䆼"'],
    ['"\\x41 BC"', 'string "A BC"'],
    ['"\\u0041\\u00e9"', 'string "Aé"'],
    ['"\\U0001F600"', 'string "😀"'],
    ['"😀"', 'string "😀"'],
    ['@"C:\\dir\\file"', '@string "C:\\\\dir\\\\file"'],
    ['@"say ""hi"""', '@string "say \\"hi\\""'],
    ['@"two\nlines"', '@string "two\\nlines"'],
    ['@""', '@string ""'],
  ])('%s', (source, expected) => {
    expect(tokensOf(source)).toBe(expected);
  });
});

describe('interpolated strings (§12.8.3): text, holes, alignment, format, nesting', () => {
  it.each<[string, string]>([
    ['$"plain"', '$ "plain"'],
    ['$""', '$ '],
    ['$"{x}"', '$ {x}'],
    ['$"a{x}b"', '$ "a" {x} "b"'],
    ['$"{x,5}"', '$ {x,5}'],
    ['$"{x,-5}"', '$ {x,- 5}'],
    ['$"{x:N2}"', '$ {x:"N2"}'],
    ['$"{x,8:0.00}"', '$ {x,8:"0.00"}'],
    ['$"{x:HH:mm}"', '$ {x:"HH:mm"}'],
    ['$"{{literal}}"', '$ "{literal}"'],
    ['$"{{{x}}}"', '$ "{" {x} "}"'],
    ['$"\\t{x}\\n"', '$ "\\t" {x} "\\n"'],
    ['$"{f(a, b)}"', '$ {f ( a , b )}'],
    ['$"{d["key"]}"', '$ {d [ "key" ]}'],
    ['$"{new[] { 1 }.Length}"', '$ {new [ ] { 1 } . Length}'],
    ['$"{$"{x}"}"', '$ {$"{x}"}'],
    ['$"{(a ? b : c)}"', '$ {( a ? b : c )}'],
    ['$"{global::X.Y}"', '$ {global :: X . Y}'],
    ['$"{ x }"', '$ {x}'],
    ['$@"{x}\\n"', '@$ {x} "\\\\n"'],
    ['@$"{x}"""', '@$ {x} "\\""'],
    ['$@"{{{x}}}"', '@$ "{" {x} "}"'],
    ['$@"a\nb{x}"', '@$ "a\\nb" {x}'],
    ['$"{x:\\t}"', '$ {x:"\\t"}'],
  ])('%s', (source, expected) => {
    expect(tokensOf(source)).toBe(expected);
  });

  it('places hole tokens at their offsets in the whole source', () => {
    const t = lex('$"ab{cd}"').tokens[0]!;
    expect(
      t.kind === 'interpolated' && t.parts[1]?.kind === 'hole' && t.parts[1].expression[0]?.span,
    ).toEqual({
      start: 5,
      end: 7,
      line: 1,
      column: 6,
    });
  });
});

describe('identifiers, keywords, operators', () => {
  it.each<[string, string]>([
    ['world', 'id world'],
    ['_x1', 'id _x1'],
    ['@if', '@id if'],
    ['@var', '@id var'],
    ['var', 'id var'],
    ['nameof await from', 'id nameof | id await | id from'],
    ['int string object void', 'kw int | kw string | kw object | kw void'],
    ['über naïve 变量 Δx', 'id über | id naïve | id 变量 | id Δx'],
    ['a\u0301b', 'id a\u0301b'],
    ['x?.y', 'id x | ? | . | id y'],
    ['x?[0]', 'id x | ? | [ | int 0 | ]'],
    ['a?.5:1', 'id a | ? | double 0.5 = 0.5 | : | int 1'],
    ['a ?? b ??= c', 'id a | ?? | id b | ??= | id c'],
    ['List<List<int>>', 'id List | < | id List | < | kw int | > | >'],
    ['a >> b', 'id a | > | > | id b'],
    ['a >>= b', 'id a | > | >= | id b'],
    ['a <<= b << c', 'id a | <<= | id b | << | id c'],
    ['x => y', 'id x | => | id y'],
    ['global::A', 'id global | :: | id A'],
    ['a->b', 'id a | -> | id b'],
    ['1..2', 'int 1 | .. | int 2'],
    ['1.ToString()', 'int 1 | . | id ToString | ( | )'],
    ['a+++b', 'id a | ++ | + | id b'],
    ['a&&b||c&d|e^f', 'id a | && | id b | || | id c | & | id d | | | id e | ^ | id f'],
    [
      '!= == <= >= += -= *= /= %= &= |= ^=',
      '!= | == | <= | >= | += | -= | *= | /= | %= | &= | |= | ^=',
    ],
    ['a /* c */ b // d\ne', 'id a | id b | id e'],
    ['\ta\u00a0b\u2028c\r\nd', 'id a | id b | id c | id d'],
  ])('%s', (source, expected) => {
    expect(tokensOf(source)).toBe(expected);
  });

  it('records line and column spans across every kind of new line', () => {
    const { tokens } = lex('a\r\nb\nc\rd\u2028e @"x\ny" f');
    expect(tokens.map((t) => `${t.text}@${t.span.line}:${t.span.column}`)).toEqual([
      'a@1:1',
      'b@2:1',
      'c@3:1',
      'd@4:1',
      'e@5:1',
      '@"x\ny"@5:3',
      'f@6:4',
      '@6:5',
    ]);
  });
});

describe('lexical errors: a located error and still a token', () => {
  it.each<[string, string, number, string]>([
    ['0x', 'malformed-number', 1, 'needs digits after 0x'],
    ['0b', 'malformed-number', 1, 'needs digits after 0b'],
    ['0b102', 'malformed-number', 1, 'only the digits 0 and 1'],
    ['1e', 'malformed-number', 1, 'exponent needs digits'],
    ['1e+', 'malformed-number', 1, 'exponent needs digits'],
    ['x = 1.5e', 'malformed-number', 5, 'exponent needs digits'],
    ['1_', 'malformed-number', 1, "separator '_' must sit between digits"],
    ['1_.5', 'malformed-number', 1, "separator '_'"],
    ['0x1_', 'malformed-number', 1, "separator '_'"],
    ['1e_5', 'malformed-number', 1, 'exponent needs digits'],
    ['1uu', 'invalid-suffix', 1, "'1uu'"],
    ['1ll', 'invalid-suffix', 1, "'1ll'"],
    ['12abc', 'invalid-suffix', 1, "'12abc'"],
    ['0x1g', 'invalid-suffix', 1, "'0x1g'"],
    ['1.5u', 'invalid-suffix', 1, "'1.5u'"],
    ['18446744073709551616', 'integer-too-large', 1, 'too large'],
    ['0x1_0000_0000_0000_0000', 'integer-too-large', 1, 'too large'],
    ['1e309', 'real-out-of-range', 1, "type 'double'"],
    ['3.5e38f', 'real-out-of-range', 1, "type 'float'"],
    ['79228162514264337593543950335.5m', 'real-out-of-range', 1, "type 'decimal'"],
    ['1e29m', 'real-out-of-range', 1, "type 'decimal'"],
    ["''", 'invalid-char-literal', 1, 'empty character literal'],
    ["'ab'", 'invalid-char-literal', 1, 'too many characters'],
    ["'\\U0001F600'", 'invalid-char-literal', 1, 'too many characters'],
    ["'a", 'unterminated-char', 1, "add the closing '"],
    ["x = 'a\n'", 'unterminated-char', 5, 'unterminated character literal'],
    ['"abc', 'unterminated-string', 1, 'add the closing "'],
    ['f("a\nb")', 'unterminated-string', 3, 'unterminated string'],
    ['@"abc', 'unterminated-string', 1, 'unterminated string'],
    ['$"abc', 'unterminated-string', 1, 'unterminated string'],
    ['$"{x', 'unterminated-interpolation', 3, "add the closing '}'"],
    ['$"{x:N2', 'unterminated-interpolation', 3, "add the closing '}'"],
    ['$"a}b"', 'invalid-interpolation', 4, "must be doubled as '}}'"],
    ['"\\q"', 'invalid-escape', 2, "unrecognized escape sequence '\\q'"],
    ['"\\x"', 'invalid-escape', 2, '\\x needs 1 to 4 hex digits'],
    ['"\\u12"', 'invalid-escape', 2, '\\u needs 4 hex digits'],
    ['"\\U0000001"', 'invalid-escape', 2, '\\U needs 8 hex digits'],
    ['"\\U00110000"', 'invalid-escape', 2, 'beyond U+10FFFF'],
    ["'\\e'", 'invalid-escape', 2, "'\\e'"],
    ['a /* b', 'unterminated-comment', 3, 'add the closing */'],
    ['a # b', 'unexpected-character', 3, "'#'"],
    ['a ` b', 'unexpected-character', 3, "'`'"],
    ['$x', 'unexpected-character', 1, "'$'"],
    ['@ x', 'unexpected-character', 1, "'@'"],
    ['#if DEBUG', 'unsupported-preprocessor', 1, 'preprocessor directives'],
    ['"""raw"""', 'unsupported-raw-string', 1, 'raw string literals'],
    ['$"""{x}"""', 'unsupported-raw-string', 1, 'raw string literals'],
    ['\\u0061bc', 'unsupported-identifier-escape', 1, 'unicode escapes in identifiers'],
  ])('%s', (source, code, column, fragment) => {
    const { tokens, errors } = lex(source);
    expect(errors[0]).toMatchObject({ code, span: { column } });
    expect(errors[0]?.message).toContain(fragment);
    expect(errors[0]?.message).toContain(`column ${column}`);
    expect(tokens.at(-1)?.kind).toBe('eof');
  });

  it('reports every lexical error, not only the first', () => {
    const { errors } = lex('0x + 1e + \'ab\' + "\\q" + 1uu');
    expect(errors.map((e) => `${e.code}@${e.span.column}`)).toEqual([
      'malformed-number@1',
      'malformed-number@6',
      'invalid-char-literal@11',
      'invalid-escape@19',
      'invalid-suffix@25',
    ]);
  });
});
