// Values whose wire encodings are unusual, read, called on and written back in the game under
// the real Mono agent: thread-static fields (read for a thread, in `eval` and in a frame),
// arrays with non-zero lower bounds, and structs holding a boxed value, pointer-sized fields or
// a box that contains itself. The targets are fixtures/src/Assembly-CSharp/Game/ValueTargets.cs.

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';

import type { EvaluateResult } from '../eval/index.js';
import { callTool } from '../mcp/server.js';
import { debugTools } from '../mcp/tools/debug.js';
import type { Tool } from '../mcp/tool.js';
import { evaluateInGame } from '../unity/eval-bridge/evaluate-in-session.js';
import { useFixtureApp } from './support/fixture-app.js';

const T = 'Game.ValueTargets';
const SOURCE = readFileSync(
  new URL('../fixtures/src/Assembly-CSharp/Game/ValueTargets.cs', import.meta.url),
  'utf8',
).split('\n');

function mark(name: string): number {
  const i = SOURCE.findIndex((l) => l.trimEnd().endsWith(`// MARK: ${name}`));
  if (i < 0) throw new Error(`no MARK ${name}`);
  return i + 1;
}

const game = useFixtureApp({ entities: 10 });

async function run(source: string): Promise<EvaluateResult> {
  return (await game.app.session.run('eval', 'test', (ctx) => evaluateInGame(ctx, source))).value;
}

async function value(source: string): Promise<string> {
  const v = await run(source);
  if (v.kind !== 'value') throw new Error(`${source}: ${JSON.stringify(v)}`);
  return v.text;
}

async function thrown(source: string): Promise<string> {
  const v = await run(source);
  if (v.kind !== 'exception') throw new Error(`${source} did not throw: ${JSON.stringify(v)}`);
  return v.type;
}

const tools = new Map<string, Tool>(debugTools.map((t) => [t.name, t as Tool]));

async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await callTool(tools.get(name)!, args, { app: game.app, caller: 'agent-a' });
  if (r.isError) throw new Error((r.content[0] as { text: string }).text);
  return r.structuredContent as Record<string, unknown>;
}

afterEach(async () => {
  await call('debug_remove_breakpoint', { all: true, force: true }).catch(() => undefined);
  const s = await call('debug_status', {});
  if (s.pause) await call('debug_step', { kind: 'resume', force: true });
});

describe('thread-static fields', () => {
  it('eval reads the main thread’s value, a frame on the worker reads the worker’s', async () => {
    await value(`${T}.StartWorker()`);
    expect(await value(`${T}.PerThread`)).toBe('1');
    expect(await value(`${T}.PerThreadName`)).toBe('"main"');
    expect(await value(`${T}.PerThread + 10`)).toBe('11');

    await call('debug_set_breakpoint', {
      type: T,
      method: 'WorkerLoop',
      line: mark('values-worker'),
    });
    const w = (await call('debug_wait', { timeout_ms: 10_000 })) as {
      stopped: boolean;
      stop: { thread: number };
    };
    expect(w.stopped).toBe(true);
    const frame = async (code: string) =>
      ((await call('debug_evaluate', { code })) as { value: string }).value;
    expect(await frame('loops == Game.ValueTargets.WorkerLoops + 1')).toBe('True');
    expect(await frame(`${T}.PerThread`)).toBe('2');
    expect(await frame(`${T}.PerThreadName`)).toBe('"worker"');
    // `eval` while the worker is paused still reads the main thread's
    expect(await value(`${T}.PerThread`)).toBe('1');
  });

  it('assigning a thread-static field is refused with a clear message, nothing written', async () => {
    const v = await run(`${T}.PerThread = 5`).catch((e: Error) => e);
    expect(v).toBeInstanceOf(Error);
    expect((v as Error & { code?: string }).code).not.toBe('INTERNAL');
    expect((v as Error).message).toMatch(/thread-static/);
    expect(await value(`${T}.PerThread`)).toBe('1');
  });
});

describe('arrays with non-zero lower bounds', () => {
  it('print with their bounds', async () => {
    expect(await value(`${T}.Based`)).toBe('int[5..7] { 10, 20, 30 }');
    expect(await value(`${T}.Based2`)).toBe('int[1..2,10..12] { 110, 111, 112, 210, 211, 212 }');
    expect(await value(`${T}.Negative2`)).toBe('int[-1..0,0..1] { -10, -9, 0, 1 }');
    // zero-based arrays print as before
    expect(await value('new int[2, 3]')).toBe('int[2,3] { 0, 0, 0, 0, 0, 0 }');
  });

  it('index with their bounds, out of range is IndexOutOfRangeException', async () => {
    expect(await value(`${T}.Based2[1, 10]`)).toBe('110');
    expect(await value(`${T}.Based2[2, 12]`)).toBe('212');
    expect(await value(`${T}.Based2[2, 11]`)).toBe('211');
    expect(await thrown(`${T}.Based2[0, 10]`)).toBe('System.IndexOutOfRangeException');
    expect(await thrown(`${T}.Based2[1, 13]`)).toBe('System.IndexOutOfRangeException');
    expect(await thrown(`${T}.Based2[3, 10]`)).toBe('System.IndexOutOfRangeException');
    expect(await value(`${T}.Negative2[-1, 1]`)).toBe('-9');
    expect(await thrown(`${T}.Negative2[1, 0]`)).toBe('System.IndexOutOfRangeException');
    // the game agrees on what each index holds
    expect(await value(`(int)${T}.Based2.GetValue(2, 11) == ${T}.Based2[2, 11]`)).toBe('True');
    expect(await value(`${T}.Based.GetValue(5)`)).toBe('10');
  });

  it('assign an element by its bounds, read back', async () => {
    expect(await value(`${T}.Based2[2, 10] = 999; ${T}.Based2[2, 10]`)).toBe('999');
    expect(await value(`${T}.Based2.GetValue(2, 10)`)).toBe('999');
    expect(await value(`${T}.Based2[1, 10]`)).toBe('110');
    await value(`${T}.Based2[2, 10] = 210`);
  });
});

describe('structs holding a boxed value, pointer-sized fields, a box containing itself', () => {
  it('KeyValuePair<int, object> holding a long: read, invoke on', async () => {
    expect(await value(`${T}.Pair`)).toBe('[7, 5000000000]');
    expect(await value(`${T}.Pair.Value`)).toBe('5000000000');
    expect(await value(`${T}.Pair.Key`)).toBe('7');
    expect(await value(`${T}.Pair.ToString()`)).toBe('"[7, 5000000000]"');
  });

  it('a struct with an object field holding a long: invoke on, assign a field, read back', async () => {
    expect(await value(`${T}.Held.Describe()`)).toBe('"1:Int64=42"');
    // writing another field sends the boxed one back as it was
    expect(await value(`${T}.Held.A = 2; ${T}.Held.Describe()`)).toBe('"2:Int64=42"');
    expect(await value(`${T}.Held.Boxed = 7.5; ${T}.Held.Describe()`)).toBe('"2:Double=7.5"');
    expect(await value(`${T}.Held`)).toBe('Game.ValueTargets.Holder { A = 2, Boxed = 7.5 }');
    await value(`${T}.Held.A = 1; ${T}.Held.Boxed = 42L`);
    expect(await value(`${T}.Held.Describe()`)).toBe('"1:Int64=42"');
  });

  it('IntPtr and UIntPtr fields: read, invoke on, assign a field, read back', async () => {
    expect(await value(`${T}.Handle.Ptr.ToInt64()`)).toBe('4660');
    expect(await value(`${T}.Handle.Sum()`)).toBe(String(0x1234 + 0x5678 + 3));
    expect(await value(`${T}.Handle.Tag = 4; ${T}.Handle.Sum()`)).toBe(String(0x1234 + 0x5678 + 4));
    expect(await value(`${T}.Handle.Ptr = new System.IntPtr(16); ${T}.Handle.Ptr.ToInt64()`)).toBe(
      '16',
    );
    expect(await value(`${T}.Handle.Sum()`)).toBe(String(16 + 0x5678 + 4));
    expect(await value(`${T}.Handle.UPtr.ToUInt64()`)).toBe(String(0x5678));
    expect(await value('new System.IntPtr(16)')).toBe('16');
    expect(await value(`${T}.Handle`)).toMatch(
      /^Game\.ValueTargets\.Handles \{ Ptr = .*Tag = 4 \}$/,
    );
  });

  it('a box that contains itself: read, invoke on, assign a field, read back', async () => {
    expect(await value(`${T}.SelfBox`)).toMatch(/^Game\.ValueTargets\.SelfRef \{ A = 5, Self = /);
    expect(await value(`((${T}.SelfRef)${T}.SelfBox).A`)).toBe('5');
    expect(await value(`((${T}.SelfRef)${T}.SelfBox).Loops()`)).toBe('True');
    expect(await value(`((${T}.SelfRef)((${T}.SelfRef)${T}.SelfBox).Self).A`)).toBe('5');

    expect(await value(`${T}.SelfHolder.Loops()`)).toBe('True');
    expect(await value(`${T}.SelfHolder.InnerA()`)).toBe('8');
    // written back: the box it holds still contains itself
    expect(await value(`${T}.SelfHolder.A = 3; ${T}.SelfHolder.A`)).toBe('3');
    expect(await value(`${T}.SelfHolder.Loops()`)).toBe('True');
    expect(await value(`${T}.SelfHolder.InnerA()`)).toBe('8');
    // the box itself assigned back (boxed again): a box that still contains itself
    expect(await value(`${T}.SelfBox = (${T}.SelfRef)${T}.SelfBox; 0`)).toBe('0');
    expect(await value(`((${T}.SelfRef)${T}.SelfBox).Loops()`)).toBe('True');
    expect(await value(`((${T}.SelfRef)${T}.SelfBox).InnerA()`)).toBe('5');
  });
});
