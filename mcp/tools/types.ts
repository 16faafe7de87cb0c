// `find_types`: the game's loaded types by name, and the members of the ones found.

import { z } from 'zod';

import { KEYWORD_TYPES } from '../../eval/index.js';
import type { Member, TypeDescription } from '../../unity/catalog/index.js';
import type { OperationCost } from '../../unity/session/session.js';
import { costSchema } from '../schemas.js';
import { callCost } from '../cost.js';
import { READS, defineTool } from '../tool.js';

const KEYWORD_OF = new Map<string, string>(Object.entries(KEYWORD_TYPES).map(([k, v]) => [v, k]));

/** System.Int32 → int; everything else as the catalogue names it. */
function typeName(name: string): string {
  return KEYWORD_OF.get(name) ?? (name.endsWith('[]') ? `${typeName(name.slice(0, -2))}[]` : name);
}

/** One member as a C# declaration a reader recognises. */
export function memberLine(m: Member): string {
  const access = m.access === 'public' ? '' : `${m.access} `;
  const stat = m.isStatic ? 'static ' : '';
  if (m.kind === 'field') {
    const mod = m.isLiteral ? 'const ' : m.isReadOnly ? 'readonly ' : '';
    return `${access}${m.isLiteral ? '' : stat}${mod}${typeName(m.type.name)} ${m.name}`;
  }
  if (m.kind === 'property') {
    const index = m.indexParameters.length
      ? `this[${m.indexParameters.map((p) => `${typeName(p.type.name)} ${p.name}`).join(', ')}]`
      : m.name;
    const acc = `${m.getterId ? 'get; ' : ''}${m.setterId ? 'set; ' : ''}`;
    return `${access}${stat}${m.type ? typeName(m.type.name) : '?'} ${index} { ${acc}}`;
  }
  const generic = m.genericArity
    ? `<${Array.from({ length: m.genericArity }, (_, i) => `T${i + 1}`).join(', ')}>`
    : '';
  const params = m.parameters.map((p) => `${typeName(p.type.name)} ${p.name}`).join(', ');
  const virt = m.isAbstract ? 'abstract ' : m.isVirtual ? 'virtual ' : '';
  return `${access}${stat}${virt}${typeName(m.returnType.name)} ${m.name}${generic}(${params})`;
}

const memberListSchema = z.object({
  items: z.array(z.string()),
  total: z.number().int(),
  truncated: z.boolean(),
});

const typeSchema = z.object({
  full_name: z.string(),
  assembly: z.string(),
  kind: z.string().optional().describe('class, struct, enum, interface'),
  match: z.string().describe('how the query matched: exact, name, ignore-case, glob, regex...'),
  base_types: z.array(z.string()).optional(),
  fields: memberListSchema.optional(),
  properties: memberListSchema.optional(),
  methods: memberListSchema.optional(),
});

/** Members are listed for at most this many matches (a query for `*` must not flood). */
const DESCRIBED_TYPES = 5;

export const findTypes = defineTool({
  name: 'find_types',
  title: 'Find types',
  description:
    'Search the types loaded in the game: an exact full name (`UnityEngine.Time`), a simple ' +
    'name (`Time`), a glob (`*Camera*`) or a regex (`/^Game\\./`). With `members: true`, also ' +
    'lists the fields, properties and methods of the types found (the first ' +
    `${DESCRIBED_TYPES}), declared ones or \`inherited\` too. Close names are suggested on a miss.`,
  input: z.object({
    query: z.string().min(1).max(500).describe('full name, simple name, glob or /regex/'),
    members: z.boolean().optional().describe('also list members of the types found'),
    inherited: z.boolean().optional().describe('with members: include base types’ members'),
    limit: z.number().int().min(1).max(500).optional().describe('types per page (default 50)'),
  }),
  output: z.object({
    types: z.array(typeSchema),
    total: z.number().int().describe('matches before the limit'),
    truncated: z.boolean(),
    suggestions: z.array(z.string()).describe('close names, when nothing matched'),
    unlisted_assemblies: z
      .array(z.string())
      .describe('assemblies whose types could not be listed (their types cannot match)'),
    cost: costSchema,
  }),
  annotations: READS,
  tier: 'instant',
  run: async (args, { session, caller }) => {
    const started = performance.now();
    const costs: OperationCost[] = [];
    const found = await session.run(
      'find_types',
      caller,
      (ctx) => ctx.catalog.findTypes(args.query, { limit: args.limit ?? 50 }),
      { window: false },
    );
    costs.push(found.cost);
    const r = found.value;
    const described = new Map<number, TypeDescription>(); // by type id
    if (args.members === true) {
      const d = await session.run(
        'find_types (members)',
        caller,
        async (ctx) => {
          const out: TypeDescription[] = [];
          for (const m of r.matches.slice(0, DESCRIBED_TYPES)) {
            if (m.typeId === undefined) continue;
            out.push(
              await ctx.catalog.describe(m.typeId, {
                inherited: args.inherited === true,
                limit: 200,
              }),
            );
          }
          return out;
        },
        { window: false },
      );
      costs.push(d.cost);
      for (const t of d.value) described.set(t.typeId, t);
    }
    const types = r.matches.map((m) => {
      const t = m.typeId !== undefined ? described.get(m.typeId) : undefined;
      const list = <T extends Member>(
        l: { items: T[]; total: number; truncated: boolean } | undefined,
      ) => l && { items: l.items.map(memberLine), total: l.total, truncated: l.truncated };
      return {
        full_name: m.fullName,
        assembly: m.assembly,
        ...(m.kind ? { kind: m.kind } : {}),
        match: m.match,
        ...(t
          ? {
              base_types: t.baseTypes.map((b) => b.name),
              ...(t.fields ? { fields: list(t.fields) } : {}),
              ...(t.properties ? { properties: list(t.properties) } : {}),
              ...(t.methods ? { methods: list(t.methods) } : {}),
            }
          : {}),
      };
    });
    const cost = callCost(started, costs);
    const lines: string[] = [];
    if (types.length === 0) {
      lines.push(
        `no type matches "${args.query}"${r.suggestions.length ? `; did you mean: ${r.suggestions.join(', ')}` : ''}`,
      );
    } else {
      lines.push(
        `${r.total} type${r.total === 1 ? '' : 's'} match "${args.query}"${r.truncated ? ` (first ${types.length} shown)` : ''}:`,
      );
      for (const t of types) {
        lines.push(`${t.full_name}  [${t.kind ?? '?'}, ${t.assembly}]`);
        for (const key of ['fields', 'properties', 'methods'] as const) {
          const l = t[key];
          if (!l || l.items.length === 0) continue;
          lines.push(`  ${key}${l.truncated ? ` (${l.items.length} of ${l.total})` : ''}:`);
          for (const item of l.items) lines.push(`    ${item}`);
        }
      }
    }
    if (r.unlisted.length)
      lines.push(
        `not searched (types could not be listed): ${r.unlisted.map((u) => u.assembly).join(', ')}`,
      );
    return {
      text: lines.join('\n'),
      structured: {
        types,
        total: r.total,
        truncated: r.truncated,
        suggestions: r.suggestions,
        unlisted_assemblies: r.unlisted.map((u) => u.assembly),
      },
      cost,
    };
  },
});

export const typeTools = [findTypes];
