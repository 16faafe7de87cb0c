// The plugin's skill names tools, arguments and error codes; this checks each against the tool
// list and the error catalogue, so the skill cannot teach a call that does not exist. The skill
// is written so that the check is exact: every `code span` of the forms below is checked.
//   `eval`                          a tool
//   `undo {dry_run: true}`          a call: the tool exists, has every key of the object (JSON
//                                   with bare keys), and its input schema accepts the object
//   `dry_run`, `confirm: true`      an argument or a result field of a tool named in the same
//                                   paragraph, bullet or table row
//   `CONFIRM_REQUIRED`              an error code of the catalogue (unity/errors.ts)
// Other spans (C# such as `Time.frameCount`, file names) are not checked.

import { z } from 'zod';

import { jobReplySchema } from '../mcp/jobs.js';
import { splitPlayer, takesPlayer, takesRequestId, takesWait } from '../mcp/server.js';
import type { Tool } from '../mcp/tool.js';

export interface SkillCheckInput {
  text: string;
  tools: readonly Tool[];
  /** The error codes a result can carry. */
  codes: readonly string[];
  /** Names that belong to eval programs rather than to tools (`_`, the previous value). */
  programNames?: readonly string[];
}

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

const IDENT = /^[a-z_][a-z0-9_]*$/;
const CALL = /^([a-z_][a-z0-9_]*) (\{.*\})$/;
const ARG_WITH_VALUE = /^([a-z_][a-z0-9_]*): .+$/;
const CODE = /^[A-Z][A-Z0-9_]+$/;

/** Property names anywhere in a JSON schema (nested objects and array items included). */
function propertyNames(schema: JsonSchema, into = new Set<string>()): Set<string> {
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    into.add(name);
    propertyNames(sub, into);
  }
  if (schema.items) propertyNames(schema.items, into);
  for (const alt of schema.anyOf ?? []) propertyNames(alt, into);
  return into;
}

/** The argument and result field names of a tool, as tools/list describes them. */
function fieldsOf(tool: Tool): Set<string> {
  const out = new Set<string>();
  for (const [schema, io] of [
    [tool.input, 'input'],
    [tool.output, 'output'],
  ] as const) {
    propertyNames(z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema, out);
  }
  if (takesPlayer(tool)) out.add('player');
  if (takesRequestId(tool)) out.add('request_id');
  // a heavy tool also takes wait_ms and may answer a job reply
  if (takesWait(tool)) {
    out.add('wait_ms');
    propertyNames(z.toJSONSchema(jobReplySchema, { io: 'output' }) as JsonSchema, out);
  }
  return out;
}

/** Paragraphs, bullets, numbered steps, table rows and headings, each as one block of text. */
export function blocksOf(markdown: string): string[] {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length) blocks.push(current.join(' '));
    current = [];
  };
  for (const line of body.split('\n')) {
    if (/^\s*$/.test(line)) flush();
    else if (/^(\s*[-*] |\s*\d+\. |\||#)/.test(line)) {
      flush();
      current.push(line);
      if (/^(\||#)/.test(line)) flush();
    } else current.push(line);
  }
  flush();
  return blocks;
}

/** `{a: 1, b: "x"}` → `{"a": 1, "b": "x"}` (keys outside strings only). */
function quoteKeys(object: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < object.length; i++) {
    const c = object[i]!;
    if (c === '"' && object[i - 1] !== '\\') inString = !inString;
    if (!inString && /[{,]/.test(c)) {
      const key = /^(\s*)([a-z_][a-z0-9_]*)(\s*):/.exec(object.slice(i + 1));
      if (key) {
        out += `${c}${key[1]}"${key[2]}"${key[3]}:`;
        i += key[0].length;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** Every problem found; empty when the skill only names what exists. */
export function checkSkill(input: SkillCheckInput): string[] {
  const byName = new Map(input.tools.map((t) => [t.name, t]));
  const codes = new Set(input.codes);
  const programNames = new Set(input.programNames ?? []);
  const problems: string[] = [];
  for (const block of blocksOf(input.text)) {
    const spans = [...block.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const named = spans
      .map((s) => CALL.exec(s)?.[1] ?? s)
      .filter((s) => byName.has(s))
      .map((s) => byName.get(s)!);
    const fields = new Set(named.flatMap((t) => [...fieldsOf(t)]));
    const where = block.length > 70 ? `${block.slice(0, 70)}…` : block;
    for (const span of spans) {
      const call = CALL.exec(span);
      if (call) {
        const tool = byName.get(call[1]!);
        if (!tool) {
          problems.push(`\`${span}\`: no tool is named ${call[1]} (in: ${where})`);
          continue;
        }
        let args: unknown;
        try {
          args = JSON.parse(quoteKeys(call[2]!));
          if (typeof args !== 'object' || args === null || Array.isArray(args))
            throw new Error('not a JSON object');
        } catch (e) {
          problems.push(`\`${span}\`: the arguments are not an object: ${(e as Error).message}`);
          continue;
        }
        // tools/call would drop an unknown key silently (zod strips it): here it is a mistake
        const known = Object.keys(tool.input.shape);
        const split = splitPlayer(tool, args);
        if ('problem' in split) {
          problems.push(`\`${span}\`: ${tool.name} refuses its player: ${split.problem}`);
          continue;
        }
        const own = split.own as Record<string, unknown>;
        const unknown = Object.keys(own).filter((k) => !known.includes(k));
        if (unknown.length) {
          problems.push(`\`${span}\`: ${tool.name} has no argument ${unknown.join(', ')}`);
          continue;
        }
        const parsed = tool.input.safeParse(own);
        if (!parsed.success) {
          const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
          problems.push(`\`${span}\`: ${tool.name} refuses these arguments: ${why.join('; ')}`);
        }
        continue;
      }
      if (CODE.test(span)) {
        if (!codes.has(span)) problems.push(`\`${span}\`: not an error code of the catalogue`);
        continue;
      }
      const name = IDENT.test(span) ? span : ARG_WITH_VALUE.exec(span)?.[1];
      if (name === undefined || byName.has(name) || programNames.has(name)) continue;
      if (!fields.has(name)) {
        problems.push(
          named.length
            ? `\`${span}\`: not an argument or result field of ${named.map((t) => t.name).join(', ')} (in: ${where})`
            : `\`${span}\`: neither a tool nor a field of a tool named beside it (in: ${where})`,
        );
      }
    }
  }
  return problems;
}

/** The codes of the `UnityErrorCode` union, read from the source of unity/errors.ts. */
export function errorCodesIn(source: string, typeName = 'UnityErrorCode'): string[] {
  // up to the `;` that ends a line (a comment inside the union may hold one)
  const union = new RegExp(`export type ${typeName} =([\\s\\S]*?);[ \\t]*$`, 'm').exec(source);
  if (!union) throw new Error(`no \`export type ${typeName} = ...;\` in the catalogue`);
  return [...union[1]!.matchAll(/\|\s*'([A-Z0-9_]+)'/g)].map((m) => m[1]!);
}
