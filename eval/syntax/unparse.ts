// The canonical unparser: one spelling per tree, so tests can state what was parsed as text.
// Every operator application is parenthesized, which makes precedence and associativity
// visible: `a + b * c` → `(a + (b * c))`, `(int)-x` → `((int)(-x))`. A Parenthesized node adds
// its own parentheses: `(a + b) * c` → `(((a + b)) * c)`. Literals print their value in one
// canonical form (`0x1F` → `31`, `1_000L` → `1000L`, `@"a""b"` → `"a\"b"`), so the tables also
// check decoding. The output parses back to the same tree.

import type {
  Argument,
  ArrayInitializer,
  Block,
  LocalDeclaration,
  Parameter,
  SwitchLabel,
  CollectionInitializer,
  ElementInitializer,
  Expression,
  Identifier,
  InterpolatedString,
  Is,
  Literal,
  MemberInitializer,
  ObjectInitializer,
  OutDeclaration,
  Program,
  Statement,
  TypeNode,
} from './ast.js';
import { isKeyword } from './tokens.js';

export function unparse(node: Program | Statement | Expression): string {
  if (node.kind === 'Program') return node.statements.map(unparseStatement).join(' ');
  if (isStatement(node)) return unparseStatement(node);
  return expr(node);
}

const STATEMENT_KINDS: ReadonlySet<string> = new Set([
  'ExpressionStatement', 'LocalDeclaration', 'Block', 'EmptyStatement', 'If', 'While', 'Do',
  'For', 'Foreach', 'Break', 'Continue', 'Return', 'Throw', 'Switch', 'Try', 'LocalFunction',
]); // prettier-ignore

function isStatement(n: Statement | Expression): n is Statement {
  return STATEMENT_KINDS.has(n.kind);
}

function declaration(s: LocalDeclaration): string {
  const declarators = s.declarators.map((d) => {
    const init = d.initializer;
    if (init === null) return name(d.name);
    return `${name(d.name)} = ${init.kind === 'ArrayInitializer' ? arrayInit(init) : expr(init)}`;
  });
  return `${s.type === 'var' ? 'var' : unparseType(s.type)} ${declarators.join(', ')}`;
}

function block(b: Block): string {
  return b.statements.length === 0 ? '{ }' : `{ ${b.statements.map(unparseStatement).join(' ')} }`;
}

function parameters(ps: readonly Parameter[]): string {
  const one = (q: Parameter): string =>
    (q.type ? `${unparseType(q.type)} ${name(q.name)}` : name(q.name)) +
    (q.defaultValue ? ` = ${expr(q.defaultValue)}` : '');
  return `(${ps.map(one).join(', ')})`;
}

function body(b: Expression | Block): string {
  return b.kind === 'Block' ? block(b) : expr(b);
}

function label(l: SwitchLabel): string {
  const when = l.when ? ` when ${expr(l.when)}` : '';
  const p = l.pattern;
  if (p.k === 'default') return 'default:';
  if (p.k === 'constant') return `case ${expr(p.value)}${when}:`;
  return `case ${unparseType(p.type)}${p.name ? ` ${name(p.name)}` : ''}${when}:`;
}

function unparseStatement(s: Statement): string {
  switch (s.kind) {
    case 'ExpressionStatement':
      return expr(s.expression) + (s.semicolon ? ';' : '');
    case 'LocalDeclaration':
      return declaration(s) + (s.semicolon ? ';' : '');
    case 'Block':
      return block(s);
    case 'EmptyStatement':
      return ';';
    case 'If':
      return `if (${expr(s.condition)}) ${unparseStatement(s.then)}${s.else ? ` else ${unparseStatement(s.else)}` : ''}`;
    case 'While':
      return `while (${expr(s.condition)}) ${unparseStatement(s.body)}`;
    case 'Do':
      return `do ${unparseStatement(s.body)} while (${expr(s.condition)});`;
    case 'For': {
      const init = Array.isArray(s.init) ? s.init.map(expr).join(', ') : declaration(s.init);
      const cond = s.condition ? ` ${expr(s.condition)}` : '';
      const iter = s.iterators.length > 0 ? ` ${s.iterators.map(expr).join(', ')}` : '';
      return `for (${init};${cond};${iter}) ${unparseStatement(s.body)}`;
    }
    case 'Foreach':
      return `foreach (${s.type === 'var' ? 'var' : unparseType(s.type)} ${name(s.name)} in ${expr(s.collection)}) ${unparseStatement(s.body)}`;
    case 'Break':
      return 'break;';
    case 'Continue':
      return 'continue;';
    case 'Return':
      return s.value ? `return ${expr(s.value)};` : 'return;';
    case 'Throw':
      return s.value ? `throw ${expr(s.value)};` : 'throw;';
    case 'Switch': {
      const sections = s.sections.map(
        (x) => `${x.labels.map(label).join(' ')} ${x.statements.map(unparseStatement).join(' ')}`,
      );
      return `switch (${expr(s.value)}) { ${sections.join(' ')} }`;
    }
    case 'Try': {
      const catches = s.catches.map((c) => {
        const decl = c.type ? ` (${unparseType(c.type)}${c.name ? ` ${name(c.name)}` : ''})` : '';
        const when = c.filter ? ` when (${expr(c.filter)})` : '';
        return ` catch${decl}${when} ${block(c.block)}`;
      });
      return `try ${block(s.block)}${catches.join('')}${s.finally ? ` finally ${block(s.finally)}` : ''}`;
    }
    case 'LocalFunction': {
      const ret = s.returnType === 'void' ? 'void' : unparseType(s.returnType);
      const b = s.body.kind === 'Block' ? ` ${block(s.body)}` : ` => ${expr(s.body)};`;
      return `${ret} ${name(s.name)}${parameters(s.parameters)}${b}`;
    }
  }
}

export function unparseType(t: TypeNode): string {
  switch (t.kind) {
    case 'PredefinedType':
      return t.name;
    case 'NamedType': {
      const parts = t.parts.map((p) => name(p.name) + typeArgs(p.typeArgs));
      return (t.alias ? `${name(t.alias)}::` : '') + parts.join('.');
    }
    case 'ArrayType':
      return unparseType(t.elementType) + t.ranks.map(rank).join('');
    case 'NullableType':
      return `${unparseType(t.underlying)}?`;
    case 'OmittedTypeArgument':
      return '';
  }
}

const rank = (n: number): string => `[${','.repeat(n - 1)}]`;

function typeArgs(args: TypeNode[]): string {
  if (args.length === 0) return '';
  const omitted = args.every((a) => a.kind === 'OmittedTypeArgument');
  return `<${args.map(unparseType).join(omitted ? ',' : ', ')}>`;
}

/** A name, with `@` when it is spelled like a reserved keyword. */
function name(id: Identifier | string): string {
  const text = typeof id === 'string' ? id : id.name;
  return isKeyword(text) ? `@${text}` : text;
}

function expr(e: Expression): string {
  switch (e.kind) {
    case 'Literal':
      return literal(e);
    case 'InterpolatedString':
      return interpolated(e);
    case 'Name':
      return (e.alias ? `${name(e.alias)}::` : '') + name(e.name) + typeArgs(e.typeArgs);
    case 'This':
      return 'this';
    case 'PredefinedType':
      return e.name;
    case 'MemberAccess':
      return `${expr(e.target)}${e.conditional ? '?.' : '.'}${name(e.name)}${typeArgs(e.typeArgs)}`;
    case 'Invocation':
      return `${expr(e.target)}(${args(e.arguments)})`;
    case 'ElementAccess':
      return `${expr(e.target)}${e.conditional ? '?[' : '['}${args(e.arguments)}]`;
    case 'ObjectCreation': {
      const a = e.arguments === null ? '' : `(${args(e.arguments)})`;
      const init = e.initializer === null ? '' : ` ${initializer(e.initializer)}`;
      return `new ${unparseType(e.type)}${a}${init}`;
    }
    case 'AnonymousObjectCreation': {
      const members = e.members.map((m) =>
        m.name ? `${name(m.name)} = ${expr(m.value)}` : expr(m.value),
      );
      return members.length === 0 ? 'new { }' : `new { ${members.join(', ')} }`;
    }
    case 'ArrayCreation': {
      const [first = 1, ...rest] = e.ranks;
      const firstRank = e.sizes.length > 0 ? `[${e.sizes.map(expr).join(', ')}]` : rank(first);
      const type = e.elementType === null ? '' : ` ${unparseType(e.elementType)}`;
      const init = e.initializer === null ? '' : ` ${arrayInit(e.initializer)}`;
      return `new${type}${firstRank}${rest.map(rank).join('')}${init}`;
    }
    case 'Cast':
      return `((${unparseType(e.type)})${expr(e.operand)})`;
    case 'Unary':
      return `(${e.operator}${expr(e.operand)})`;
    case 'Postfix':
      return `(${expr(e.operand)}${e.operator})`;
    case 'Binary':
      return `(${expr(e.left)} ${e.operator} ${expr(e.right)})`;
    case 'Coalesce':
      return `(${expr(e.left)} ?? ${expr(e.right)})`;
    case 'Assignment':
      return `(${expr(e.target)} ${e.operator} ${expr(e.value)})`;
    case 'Conditional':
      return `(${expr(e.condition)} ? ${expr(e.whenTrue)} : ${expr(e.whenFalse)})`;
    case 'Lambda':
      return `(${parameters(e.parameters)} => ${body(e.body)})`;
    case 'Is':
      return `(${expr(e.operand)} is ${unparsePattern(e.pattern)})`;
    case 'As':
      return `(${expr(e.operand)} as ${unparseType(e.type)})`;
    case 'TypeOf':
      return `typeof(${unparseType(e.type)})`;
    case 'SizeOf':
      return `sizeof(${unparseType(e.type)})`;
    case 'Default':
      return e.type === null ? 'default' : `default(${unparseType(e.type)})`;
    case 'NameOf':
      return `nameof(${expr(e.argument)})`;
    case 'Checked':
      return `${e.checked ? 'checked' : 'unchecked'}(${expr(e.expression)})`;
    case 'Parenthesized':
      return `(${expr(e.expression)})`;
    case 'Error':
      return '<error>';
  }
}

function unparsePattern(pattern: Is['pattern']): string {
  switch (pattern.kind) {
    case 'NullPattern':
      return 'null';
    case 'TypePattern':
      return unparseType(pattern.type);
    case 'ConstantPattern':
      // a signed literal unparenthesized: `is (` starts a positional pattern, which is refused
      return pattern.value.kind === 'Unary'
        ? `${pattern.value.operator}${expr(pattern.value.operand)}`
        : expr(pattern.value);
  }
}

function args(list: Argument[]): string {
  return list.map(argument).join(', ');
}

function argument(a: Argument): string {
  const label = a.name ? `${name(a.name)}: ` : '';
  const modifier = a.modifier === 'none' ? '' : `${a.modifier} `;
  const value = a.value.kind === 'OutDeclaration' ? outDeclaration(a.value) : expr(a.value);
  return label + modifier + value;
}

function outDeclaration(d: OutDeclaration): string {
  return `${d.type === 'var' ? 'var' : unparseType(d.type)} ${name(d.name)}`;
}

function initializer(i: ObjectInitializer | CollectionInitializer): string {
  const items =
    i.kind === 'ObjectInitializer' ? i.members.map(member) : i.elements.map(collectionElement);
  return items.length === 0 ? '{ }' : `{ ${items.join(', ')} }`;
}

function member(m: MemberInitializer): string {
  const target = Array.isArray(m.target) ? `[${args(m.target)}]` : name(m.target);
  const v = m.value;
  const value =
    v.kind === 'ObjectInitializer' || v.kind === 'CollectionInitializer' ? initializer(v) : expr(v);
  return `${target} = ${value}`;
}

function collectionElement(e: Expression | ElementInitializer): string {
  return e.kind === 'ElementInitializer' ? `{ ${e.arguments.map(expr).join(', ')} }` : expr(e);
}

function arrayInit(a: ArrayInitializer): string {
  const items = a.elements.map((e) => (e.kind === 'ArrayInitializer' ? arrayInit(e) : expr(e)));
  return items.length === 0 ? '{ }' : `{ ${items.join(', ')} }`;
}

function literal(l: Literal): string {
  switch (l.type) {
    case 'int':
      return String(l.value);
    case 'uint':
      return `${l.value}u`;
    case 'long':
      return `${l.value}L`;
    case 'ulong':
      return `${l.value}UL`;
    case 'float':
      return `${l.digits}f`;
    case 'double':
      return /[.e]/.test(l.digits) ? l.digits : `${l.digits}d`;
    case 'decimal':
      return `${l.digits}m`;
    case 'char':
      return `'${escape(String.fromCharCode(l.value), "'")}'`;
    case 'string':
      return `"${escape(l.value, '"')}"`;
    case 'bool':
      return String(l.value);
    case 'null':
      return 'null';
  }
}

function interpolated(s: InterpolatedString): string {
  const body = s.parts.map((part) => {
    if (part.kind === 'InterpolatedText') return escape(part.value, '"').replace(/[{}]/g, '$&$&');
    const align = part.alignment ? `,${expr(part.alignment)}` : '';
    const format = part.format === null ? '' : `:${escape(part.format, '"')}`;
    return `{${expr(part.expression)}${align}${format}}`;
  });
  return `$"${body.join('')}"`;
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** C# escapes: named ones, `\uXXXX` for everything outside printable ASCII. */
function escape(text: string, quote: string): string {
  let out = '';
  for (const ch of text.split('')) {
    const named = NAMED_ESCAPES[ch];
    const c = ch.charCodeAt(0);
    if (named !== undefined) out += named;
    else if (ch === quote) out += `\\${quote}`;
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}
