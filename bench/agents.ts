// The "agents" benchmark: several agents (real MCP front-ends, `unity-devtools mcp --port N`,
// driven by the SDK's client) sharing one game through one broker of the bench's own (a fresh
// UNITY_DEVTOOLS_HOME, stopped at the end whatever happened: bench/broker-harness.ts).
//   latency:    one probe agent alternates an instant call (`status`) and a one-field `eval`
//               (Game.Probe.SInt), PROBES of each, timed alone, while 0, 1 and 3 other agents run
//               the mixed load back to back; p50 and p99 of each;
//   mix:        the mixed load's own calls timed by kind while 3 agents run it: the longest smooth
//               operation in the mix (its p99) bounds what an eval may wait for under load;
//   throughput: calls per second of the mixed load, 1 agent alone and 4 agents at once, over
//               THROUGHPUT_MS each (aggregate: the game is one resource, 4 agents should keep at
//               least 0.8x the rate of one).
// The mixed load, one call each in turn: an eval read, an eval that invokes (Time.frameCount), an
// ECS read and an ECS write (one of the agent's own entities, its value read back by the tool), a
// hold (suspend, an eval under it, resume), a breakpoint set and removed (on a method the game
// never calls), an advance of 2 frames. Each call must succeed: a failure ends the run with its
// code, it is never counted as a sample; the one exception is an advance refused because
// another agent holds the game (HOLD_NOT_OWNED, as designed: the game cannot run), counted.
// The reference client (Mono.Debugger.Soft) cannot share the game's debugger with anyone; it is
// measured alone, in the same round, at its best: the same static field read (RefBench's `mcp`
// scenario), the floor of any eval through us.
// The game takes one debugger at a time: each round our agents detach (the last frees the slot)
// and exit before the reference attaches.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { FixtureProcess } from '../fixtures/launch.js';
import { processAlive } from '../unity/lifetime.js';
import {
  ensureNoBroker,
  ensureServerBuilt,
  exitHook,
  sleep,
  startBroker,
  spawnFrontEnd,
  started,
  waitGone,
} from './broker-harness.js';
import { runReference } from './reference.js';
import { got, median, round, type Line, type Options } from './scenario.js';

const PROGRAM = 'Game.Probe.SInt';
const EXPECTED = '-123456789';
const PROBES = 100;
const LOADS = [0, 1, 3] as const;
const THROUGHPUT_MS = 5000;
const WARMUP = 20;
/** Targets of issue 13. */
const INSTANT_P99_TARGET_MS = 50;
const THROUGHPUT_TARGET = 0.8;

const textOf = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The p-th percentile (nearest rank) of `xs`. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('a percentile of no samples');
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

interface Agent {
  name: string;
  pid: number;
  /** Calls a tool that must succeed; its structured content. */
  tool<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  stderr(): string;
  close(): Promise<void>;
}

async function startAgent(port: number, home: string, name: string): Promise<Agent> {
  const { client, pid, stderr } = await spawnFrontEnd(port, home, name);
  return {
    name,
    pid,
    stderr,
    async tool<T>(tool: string, args: Record<string, unknown> = {}): Promise<T> {
      const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      if (r.isError)
        throw Object.assign(
          new Error(`${name}: ${tool} ${JSON.stringify(args)} failed: ${textOf(r)}`),
          { code: (r._meta as { code?: string } | undefined)?.code },
        );
      return r.structuredContent as T;
    },
    async close() {
      await client.close();
      await waitGone(pid, `${name}'s front-end`);
    },
  };
}

/** One kind of call in the mixed load; `run` makes it (one or more tool calls) and checks it. */
interface Step {
  kind: string;
  /** smooth: one bounded suspend window per call; heavy: runs the game. */
  tier: 'smooth' | 'heavy';
  /** `refused`: a refusal the tool is right to make under this load (counted, not a failure). */
  run(a: Agent, entity: string): Promise<void | 'refused'>;
}

async function evalValue(a: Agent, code: string): Promise<string> {
  const r = await a.tool<{ value?: string }>('eval', { code });
  if (r.value === undefined) throw new Error(`${a.name}: eval ${code} returned no value`);
  return r.value;
}

const MIX: readonly Step[] = [
  {
    kind: 'eval_read',
    tier: 'smooth',
    async run(a) {
      const v = await evalValue(a, PROGRAM);
      if (v !== EXPECTED) throw new Error(`${a.name}: ${PROGRAM} = ${v}`);
    },
  },
  {
    kind: 'eval_invoke',
    tier: 'smooth',
    async run(a) {
      if (!/^\d+$/.test(await evalValue(a, 'Time.frameCount')))
        throw new Error(`${a.name}: Time.frameCount is not a frame number`);
    },
  },
  {
    kind: 'ecs_read',
    tier: 'smooth',
    async run(a, entity) {
      await a.tool('ecs_get_component', { entity, component: 'Unit' });
    },
  },
  {
    kind: 'ecs_write',
    tier: 'smooth',
    async run(a, entity) {
      const level = 1 + Math.floor(Math.random() * 90);
      const r = await a.tool<{
        applied: boolean;
        changes: { after: { Stats: { Level: number } } }[];
      }>('ecs_set_component', { entity, component: 'Unit', field: 'Stats.Level', value: level });
      if (!r.applied || r.changes[0]?.after.Stats.Level !== level)
        throw new Error(`${a.name}: ecs_set_component did not read back ${level}`);
    },
  },
  {
    kind: 'hold',
    tier: 'smooth',
    async run(a) {
      await a.tool('suspend');
      try {
        await evalValue(a, PROGRAM);
      } finally {
        await a.tool('resume');
      }
    },
  },
  {
    kind: 'breakpoint',
    tier: 'smooth',
    async run(a) {
      const r = await a.tool<{ breakpoint: { id: number } }>('debug_set_breakpoint', {
        type: 'Game.DebugTargets',
        method: 'StartWorker',
      });
      await a.tool('debug_remove_breakpoint', { id: r.breakpoint.id });
    },
  },
  {
    kind: 'advance',
    tier: 'heavy',
    async run(a) {
      let r;
      try {
        r = await a.tool<{ frames_advanced: number }>('advance', { frames: 2 });
      } catch (e) {
        // the game cannot run while another agent holds it: advance says so (HOLD_NOT_OWNED)
        if ((e as { code?: string }).code === 'HOLD_NOT_OWNED') return 'refused';
        throw e;
      }
      if (r.frames_advanced < 1) throw new Error(`${a.name}: advance ran no frame`);
      return undefined;
    },
  },
];

/** Runs the mixed load until `stop` says so; the time of each call by kind. */
async function mixedLoad(
  a: Agent,
  entity: string,
  stop: () => boolean,
  times: Map<string, number[]>,
): Promise<number> {
  let calls = 0;
  for (let i = Math.floor(Math.random() * MIX.length); !stop(); i++) {
    const step = MIX[i % MIX.length]!;
    const t = performance.now();
    const refused = (await step.run(a, entity)) === 'refused';
    const ms = performance.now() - t;
    if (refused) {
      const k = `${step.kind}_refused`;
      times.set(k, [...(times.get(k) ?? []), ms]);
      calls++;
      continue;
    }
    let list = times.get(step.kind);
    if (!list) times.set(step.kind, (list = []));
    list.push(ms);
    calls++;
  }
  return calls;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** One round of ours: every figure of the scenario, the agents started and gone again. */
async function ourRound(port: number, home: string): Promise<Record<string, number>> {
  const agents: Agent[] = [];
  const out: Record<string, number> = {};
  try {
    for (let i = 0; i < 4; i++) agents.push(await startAgent(port, home, `agent-${i + 1}`));
    const probe = agents[0]!;
    // each agent writes only its own entity: ECS writes of different agents never collide
    const q = await probe.tool<{ entities: { index: number; version: number }[] }>('ecs_query', {
      all: ['Unit'],
      limit: agents.length,
    });
    if (q.entities.length < agents.length) throw new Error('the fixture has too few Unit entities');
    const entities = q.entities.map((e) => `${e.index}:${e.version}`);
    for (const a of agents) for (let i = 0; i < WARMUP; i++) await evalValue(a, PROGRAM);

    for (const k of LOADS) {
      let done = false;
      const mix = new Map<string, number[]>();
      const loaders = agents
        .slice(1, 1 + k)
        .map((a, i) => mixedLoad(a, entities[i + 1]!, () => done, mix));
      const instant: number[] = [];
      const evals: number[] = [];
      try {
        await sleep(200); // the load under way
        for (let i = 0; i < PROBES; i++) {
          instant.push(await timed(() => probe.tool('status')));
          evals.push(
            await timed(async () => {
              if ((await evalValue(probe, PROGRAM)) !== EXPECTED) throw new Error('probe eval');
            }),
          );
        }
      } finally {
        done = true;
        await Promise.all(loaders);
      }
      out[`instant_p50_load${k}_ms`] = percentile(instant, 50);
      out[`instant_p99_load${k}_ms`] = percentile(instant, 99);
      out[`eval_p50_load${k}_ms`] = percentile(evals, 50);
      out[`eval_p99_load${k}_ms`] = percentile(evals, 99);
      if (k === 3) {
        let longest = 0;
        for (const step of MIX) {
          const xs = mix.get(step.kind);
          if (!xs?.length) throw new Error(`the mixed load made no ${step.kind} call`);
          out[`mix_${step.kind}_p50_ms`] = percentile(xs, 50);
          out[`mix_${step.kind}_p99_ms`] = percentile(xs, 99);
          if (step.tier === 'smooth') longest = Math.max(longest, percentile(xs, 99));
        }
        out.longest_smooth_p99_ms = longest;
        out.advance_refused = mix.get('advance_refused')?.length ?? 0;
      }
    }

    for (const n of [1, 4]) {
      let done = false;
      const timer = setTimeout(() => (done = true), THROUGHPUT_MS);
      const t = performance.now();
      const calls = await Promise.all(
        agents.slice(0, n).map((a, i) => mixedLoad(a, entities[i]!, () => done, new Map())),
      );
      clearTimeout(timer);
      out[`throughput_${n}_per_s`] =
        calls.reduce((x, y) => x + y, 0) / ((performance.now() - t) / 1000);
    }
    // the last caller's detach frees the slot for the reference at once
    for (const a of agents) await a.tool('detach');
  } finally {
    for (const a of agents) await a.close().catch(() => undefined);
  }
  return out;
}

export const agents = {
  async run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const port = fixture.sdbPort;
    await ensureServerBuilt();
    const home = mkdtempSync(path.join(tmpdir(), 'ud-bench-agents-'));
    const hook = exitHook(home);
    process.once('exit', hook);
    const ours: Record<string, number[]> = {};
    const reference: number[] = [];
    try {
      await startBroker(home);
      for (let r = 0; r < o.rounds; r++) {
        process.stderr.write(`agents: round ${r + 1}/${o.rounds}:`);
        const order = r % 2 === 0 ? ['ours', 'reference'] : ['reference', 'ours'];
        for (const who of order) {
          process.stderr.write(` ${who}...`);
          if (who === 'reference') {
            const ref = await runReference({
              port,
              scenario: 'mcp',
              iterations: 100,
              timeoutMs: 120_000,
            });
            const ms = ref.field_read_ms;
            if (ms === undefined) throw new Error('the reference client reported no field_read_ms');
            reference.push(ms);
          } else {
            for (const [k, v] of Object.entries(await ourRound(port, home)))
              (ours[k] ??= []).push(v);
          }
          await sleep(1500);
        }
        process.stderr.write('\n');
      }
    } finally {
      try {
        await ensureNoBroker(home);
        for (const pid of started) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
      } finally {
        rmSync(home, { recursive: true, force: true });
        process.off('exit', hook);
      }
    }
    const g = (k: string): number[] => got(ours, k, 'our agents');
    const lines: Line[] = [];
    for (const k of LOADS) {
      lines.push(
        {
          name: `instant_p50_load${k}_ms`,
          what: `status, one agent, ${k} other agent(s) running the mixed load`,
          ours: g(`instant_p50_load${k}_ms`),
          reference: undefined,
          unit: 'ms',
        },
        {
          name: `instant_p99_load${k}_ms`,
          ours: g(`instant_p99_load${k}_ms`),
          reference: undefined,
          unit: 'ms',
          target: { kind: 'below', value: INSTANT_P99_TARGET_MS },
        },
        {
          name: `eval_p50_load${k}_ms`,
          what: `eval ${PROGRAM} through MCP, ${k} other agent(s) loading the game; reference: the same read alone, at its best`,
          ours: g(`eval_p50_load${k}_ms`),
          reference,
          unit: 'ms',
        },
        {
          name: `eval_p99_load${k}_ms`,
          ours: g(`eval_p99_load${k}_ms`),
          reference: undefined,
          unit: 'ms',
          ...(k === 0
            ? {}
            : {
                // at most the longest smooth operation in the mix plus the eval's own cost
                target: {
                  kind: 'below' as const,
                  value: round(
                    median(g('longest_smooth_p99_ms')) + median(g('eval_p50_load0_ms')),
                    2,
                  ),
                },
              }),
        },
      );
    }
    for (const step of MIX)
      lines.push({
        name: `mix_${step.kind}_p99_ms`,
        what: `${step.tier}: its p50 ${round(median(g(`mix_${step.kind}_p50_ms`)), 2)} ms, with 3 agents loading`,
        ours: g(`mix_${step.kind}_p99_ms`),
        reference: undefined,
        unit: 'ms',
      });
    lines.push({
      name: 'advance_refused',
      what: 'advances refused (HOLD_NOT_OWNED: another agent held the game) in the 3-agent mix',
      ours: g('advance_refused'),
      reference: undefined,
      unit: 'calls',
    });
    const t1 = g('throughput_1_per_s');
    const t4 = g('throughput_4_per_s');
    lines.push(
      { name: 'throughput_1_agent_per_s', ours: t1, reference: undefined, unit: 'calls/s' },
      { name: 'throughput_4_agents_per_s', ours: t4, reference: undefined, unit: 'calls/s' },
      {
        name: 'throughput_4_to_1',
        what: 'aggregate calls per second of 4 agents over 1 agent alone',
        ours: t4.map((x, i) => x / t1[i]!),
        reference: undefined,
        unit: 'x',
        target: { kind: 'atLeast', value: THROUGHPUT_TARGET },
      },
    );
    return {
      lines,
      json: {
        probes: PROBES,
        throughput_ms: THROUGHPUT_MS,
        ours,
        reference_field_read_ms: reference,
      },
    };
  },
};
