// The dispatcher's hook (server.ts callTool over mcp/ledger), with a tool of the test's own that
// counts its runs: request_id is taken off the arguments, a repeat is answered from the record
// (saying so), outcomes that prove nothing ran are not recorded, and every call has its line in
// the audit log with its outcome code and a digest, never the arguments.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { UnityError, type UnityErrorCode } from '../../unity/errors.js';
import { GameApp } from '../app.js';
import { callCost } from '../cost.js';
import { costSchema } from '../schemas.js';
import { callTool, listTools } from '../server.js';
import { CHANGES_GAME, CONTROLS, READS, defineTool, type Tool } from '../tool.js';
import { ALL_TOOLS } from '../tools/index.js';
import type { AuditEntry } from './audit.js';

let runs = 0;
const bump = defineTool({
  name: 'bump',
  title: 'Bump',
  description: 'counts its runs; fails with `fail` after counting when `late` is set',
  input: z.object({
    by: z.number().int(),
    fail: z.string().optional(),
    late: z.boolean().optional(),
  }),
  output: z.object({ count: z.number().int(), cost: costSchema }),
  annotations: CHANGES_GAME,
  tier: 'smooth',
  routing: 'none',
  writes: 'checked-first',
  run: async (args) => {
    const started = performance.now();
    await Promise.resolve();
    if (args.fail !== undefined && !args.late)
      throw new UnityError(args.fail as UnityErrorCode, 'refused');
    runs += args.by;
    if (args.fail !== undefined) throw new UnityError(args.fail as UnityErrorCode, 'late');
    return { text: `count ${runs}`, structured: { count: runs }, cost: callCost(started) };
  },
});
const steps: Tool = { ...(bump as unknown as Tool), name: 'bump_steps', writes: 'in-steps' };
const read: Tool = { ...(bump as unknown as Tool), name: 'peek', writes: undefined };

let dir: string;
let app: GameApp;
beforeEach(async () => {
  runs = 0;
  dir = mkdtempSync(path.join(tmpdir(), 'ud-ledger-'));
  app = await GameApp.start({ discovery: false, stateDir: dir });
});
afterEach(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (t: Tool, args: Record<string, unknown>, caller = 'agent') =>
  callTool(t, args, { app, caller });
const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');
const code = (r: CallToolResult) => (r._meta as { code?: string } | undefined)?.code;

async function audit(): Promise<AuditEntry[]> {
  await app.ledger.audit!.flush();
  return readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditEntry);
}

describe('request_id through callTool', () => {
  it('a repeat returns the first outcome without running, says so, and the audit log has both', async () => {
    const first = await call(bump, { by: 1, request_id: 'r-1' });
    expect(first.structuredContent).toMatchObject({ count: 1 });
    expect(first._meta).toMatchObject({ request_id: 'r-1', recorded: true, durable: true });
    const again = await call(bump, { by: 1, request_id: 'r-1' }, 'other');
    expect(runs).toBe(1);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta).toMatchObject({ replayed: true, request_id: 'r-1', first_caller: 'agent' });
    expect(text(again)).toMatch(/^replayed: request_id "r-1" was first run at .* by agent;/);
    const lines = await audit();
    expect(lines.map((l) => [l.caller, l.tool, l.request_id, l.outcome, l.replayed])).toEqual([
      ['agent', 'bump', 'r-1', 'ok', undefined],
      ['other', 'bump', 'r-1', 'ok', true],
    ]);
    expect(lines[0]!.args_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(lines[1]!.args_sha256).toBe(lines[0]!.args_sha256);
    expect(lines[0]!.cost).toEqual({ wire_commands: 0, invokes: 0, freeze_ms: 0 });
    expect(JSON.stringify(lines)).not.toMatch(/"by"/);
  });

  it('the same id with other arguments is IDEMPOTENCY_CONFLICT and runs nothing', async () => {
    await call(bump, { by: 1, request_id: 'r-1' });
    const r = await call(bump, { by: 2, request_id: 'r-1' });
    expect(code(r)).toBe('IDEMPOTENCY_CONFLICT');
    expect(runs).toBe(1);
    expect((await audit()).at(-1)).toMatchObject({ outcome: 'IDEMPOTENCY_CONFLICT' });
  });

  it('argument errors and refusals that prove nothing ran are not recorded; a retry runs', async () => {
    expect(code(await call(bump as unknown as Tool, { by: 'x', request_id: 'r-2' }))).toBe(
      'INVALID_ARGUMENT',
    );
    const busy = await call(bump, {
      by: 1,
      fail: 'SLOT_BUSY',
      request_id: 'r-2',
    });
    expect(code(busy)).toBe('SLOT_BUSY');
    expect(busy._meta).toMatchObject({ recorded: false });
    const ok = await call(bump, { by: 1, request_id: 'r-3' });
    expect(ok._meta).toMatchObject({ recorded: true });
    expect(runs).toBe(1);
  });

  it('MAY_HAVE_APPLIED and other failures after the write are recorded: the repeat is the failure again', async () => {
    const args = { by: 1, fail: 'MAY_HAVE_APPLIED', late: true, request_id: 'r-4' };
    expect(code(await call(bump as unknown as Tool, args))).toBe('MAY_HAVE_APPLIED');
    const again = await call(bump, args);
    expect(code(again)).toBe('MAY_HAVE_APPLIED');
    expect(again._meta).toMatchObject({ replayed: true });
    expect(runs).toBe(1);
  });

  it('an in-steps tool records every refusal its handler makes but an argument one', async () => {
    const args = { by: 1, fail: 'CONNECTION_LOST', late: true, request_id: 'r-5' };
    await call(steps, args);
    expect((await call(steps, args))._meta).toMatchObject({ replayed: true });
    expect(runs).toBe(1);
  });

  it('a tool that takes no request_id leaves it to its own schema (stripped, not honoured)', async () => {
    await call(read, { by: 1, request_id: 'r-6' });
    await call(read, { by: 1, request_id: 'r-6' });
    expect(runs).toBe(2);
  });

  it('an invalid request_id is refused by name', async () => {
    const r = await call(bump, { by: 1, request_id: '' });
    expect(code(r)).toBe('INVALID_ARGUMENT');
    expect(text(r)).toMatch(/request_id:/);
    expect(runs).toBe(0);
  });

  it('survives a new app over the same state directory (a broker restart)', async () => {
    await call(bump, { by: 1, request_id: 'r-7' });
    await app.close();
    app = await GameApp.start({ discovery: false, stateDir: dir });
    const again = await call(bump, { by: 1, request_id: 'r-7' });
    expect(again._meta).toMatchObject({ replayed: true });
    expect(runs).toBe(1);
  });

  it('an app without a state directory keeps outcomes in memory and says they are not durable', async () => {
    const mem = await GameApp.start({ discovery: false });
    try {
      const r = await callTool(bump, { by: 1, request_id: 'm' }, { app: mem, caller: 'a' });
      expect(r._meta).toMatchObject({ recorded: true, durable: false });
      const status = ALL_TOOLS.find((t) => t.name === 'status')!;
      const s = await callTool(status, {}, { app: mem, caller: 'a' });
      expect(s.structuredContent).toMatchObject({ records: { durable: false } });
      expect(text(s)).toMatch(/records: request_id outcomes in memory only \(not durable/);
    } finally {
      await mem.close();
    }
  });
});

describe('the tools that take request_id', () => {
  it('are the ones that change the game; the others are bound to their caller', () => {
    const listed = new Map(listTools().map((t) => [t.name, t]));
    const takes = ALL_TOOLS.filter((t) => t.writes).map((t) => t.name);
    expect(takes.sort()).toEqual(
      [
        'advance',
        'debug_evaluate',
        'ecs_buffer_edit',
        'ecs_create_entity',
        'ecs_destroy_entity',
        'ecs_set_component',
        'eval',
        'object_destroy',
        'object_set',
        'object_set_active',
        'undo',
      ].sort(),
    );
    for (const name of takes)
      expect(Object.keys(listed.get(name)!.inputSchema.properties as object)).toContain(
        'request_id',
      );
    // the other tools that change something: holds, breakpoints and pauses end with their caller
    const others = ALL_TOOLS.filter(
      (t) => !t.writes && t.annotations !== READS && !t.annotations.idempotentHint,
    ).map((t) => t.name);
    expect(others.sort()).toEqual(
      [
        'debug_break_on_exception',
        'debug_set_breakpoint',
        'debug_step',
        'resume',
        'suspend',
      ].sort(),
    );
    expect(ALL_TOOLS.filter((t) => t.annotations === CONTROLS && t.writes).length).toBe(4);
  });
});
