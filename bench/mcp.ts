// The "mcp" benchmark: the built server as an MCP host runs it (`node dist/cli/cli.js mcp --port
// N`, spoken to with the SDK's Client over stdio, as test-integration/support/mcp-client.ts does).
//   startup: spawn to the tools/list reply (initialize included), median of STARTUP_SPAWNS spawns;
//   memory:  the server's resident set (/proc/<pid>/status VmRSS) idle, once attached, and after
//            MEMORY_CALLS back-to-back `eval` calls;
//   eval:    `eval {code: 'Game.Probe.SInt'}` end to end through MCP, against the same static read
//            by the reference client (RefBench's `mcp` scenario: VM.SUSPEND, one TYPE.GET_VALUES,
//            VM.RESUME, what our evaluator does for that program) and against the same evaluation
//            made in-process with our library (evaluateInSession on a GameSession, the call the
//            server's eval tool makes). MCP overhead = through MCP minus in-process. For the
//            record, not held to anything: the server's own wall time for the call, a bare MCP
//            round trip (ping) paced the same way, and both of ours made back to back.
// The game takes one debugger at a time: the three clients run one after the other, each
// detaching (our server: its stdin closed, then waited for until it exited) before the next
// attaches, in an order rotated each round. Each call is timed alone after the eval scenario's
// 20 ms pause; per client the median of the calls, then the median of the rounds.

import { execFile } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { FixtureProcess } from '../fixtures/launch.js';
import { evaluateInSession } from '../unity/eval-bridge/evaluate-in-session.js';
import { GameSession } from '../unity/session/session.js';
import { runReference } from './reference.js';
import { got, median, round, type Line, type Options } from './scenario.js';
import { processAlive } from '../unity/lifetime.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT_CLI = path.join(ROOT, 'dist', 'cli', 'cli.js');
/** What tsconfig.build.json compiles into dist/. */
const SERVER_SOURCES = ['sdb-protocol', 'unity', 'eval', 'mcp'];

const PROGRAM = 'Game.Probe.SInt';
const EXPECTED = '-123456789';
const STARTUP_SPAWNS = 10;
const MEMORY_CALLS = 1000;
/** Untimed calls before the timed ones: a server is long-lived, so it is measured JIT-warm. */
const WARMUP = 300;
const GAP_MS = 20;
const OVERHEAD_TARGET_MS = 1;
/** A server that takes longer than this to exit after its stdin closed is reported. */
const EXIT_BOUND_MS = 5000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Progress on stderr: seconds since the scenario started. */
let scenarioStart = 0;
const seconds = (): string => ((performance.now() - scenarioStart) / 1000).toFixed(1);

// ---- the build -----------------------------------------------------------------------------

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing' && entry.name !== 'node_modules')
        newest = Math.max(newest, await newestSource(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, (await stat(full)).mtimeMs);
    }
  }
  return newest;
}

/**
 * Compiles the server (typescript's tsc, tsconfig.build.json) unless dist/cli/cli.js is newer
 * than every source it is made from. Returns whether it built.
 */
async function ensureServerBuilt(): Promise<boolean> {
  const built = await stat(BUILT_CLI).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  let newest = 0;
  for (const f of ['tsconfig.json', 'tsconfig.build.json'])
    newest = Math.max(newest, (await stat(path.join(ROOT, f))).mtimeMs);
  for (const d of SERVER_SOURCES) newest = Math.max(newest, await newestSource(path.join(ROOT, d)));
  if (built > newest) return false;
  process.stderr.write(`mcp: dist/ is ${built ? 'stale' : 'missing'}; building it...`);
  const started = performance.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`building the server failed:\n${stdout}${stderr}`)) : resolve(),
    );
  });
  process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

// ---- the server ----------------------------------------------------------------------------

interface Server {
  client: Client;
  pid: number;
  stderr(): string;
  evalOnce(): Promise<{ ms: number; wireCommands: number; serverWallMs: number }>;
  /** Closes stdin and waits until the process is gone; returns how long that took (ms). */
  close(): Promise<number>;
}

/** Spawns the built server on the endpoint; resolves after initialize and tools/list. */
async function startServer(port: number): Promise<{ server: Server; startupMs: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_CLI, 'mcp', '--port', String(port)],
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const startupMs = performance.now() - started;
  const pid = transport.pid;
  if (pid === null) throw new Error('the server has no pid');
  if (!tools.some((t) => t.name === 'eval'))
    throw new Error(`the server lists no eval tool (${tools.map((t) => t.name).join(', ')})`);
  const server: Server = {
    client,
    pid,
    stderr: () => err,
    async evalOnce() {
      const t = performance.now();
      const r = (await client.callTool({
        name: 'eval',
        arguments: { code: PROGRAM },
      })) as CallToolResult;
      const ms = performance.now() - t;
      const s = r.structuredContent as
        { value?: string; cost?: { wire_commands: number; wall_ms: number } } | undefined;
      if (r.isError || s?.value !== EXPECTED || !s.cost) {
        const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
        throw new Error(`eval ${PROGRAM} through MCP: ${text}\nserver stderr: ${err}`);
      }
      return { ms, wireCommands: s.cost.wire_commands, serverWallMs: s.cost.wall_ms };
    },
    async close() {
      const t = performance.now();
      await client.close(); // ends stdin; the SDK waits up to 2 s, then SIGTERM
      while (processAlive(pid)) {
        if (performance.now() - t > EXIT_BOUND_MS) {
          process.kill(pid, 'SIGKILL');
          throw new Error(`the server (pid ${pid}) did not exit within ${EXIT_BOUND_MS} ms`);
        }
        await sleep(5);
      }
      return performance.now() - t;
    },
  };
  return { server, startupMs };
}

async function rssMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => {
    const m = new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(m[1]) / 1024;
  };
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

// ---- the measurements ----------------------------------------------------------------------

async function measureStartup(port: number) {
  const startup: number[] = [];
  const exit: number[] = [];
  for (let i = 0; i < STARTUP_SPAWNS; i++) {
    const { server, startupMs } = await startServer(port);
    startup.push(startupMs);
    exit.push(await server.close());
  }
  return { startup, exit };
}

async function measureMemory(port: number) {
  const { server } = await startServer(port);
  try {
    const idle = await rssMb(server.pid);
    await server.evalOnce(); // attaches
    const attached = await rssMb(server.pid);
    const t = performance.now();
    for (let i = 0; i < MEMORY_CALLS; i++) await server.evalOnce();
    const perCallMs = (performance.now() - t) / MEMORY_CALLS;
    const after = await rssMb(server.pid);
    return { idle, attached, after, perCallMs };
  } finally {
    await server.close();
  }
}

interface Sample {
  ms: number;
  commands: number;
  serverWallMs?: number;
}

async function timedCalls(call: () => Promise<Sample>, n: number): Promise<Sample[]> {
  for (let i = 0; i < WARMUP; i++) await call();
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) {
    await sleep(GAP_MS);
    samples.push(await call());
  }
  return samples;
}

/** For the record: the median of n calls made back to back (no pause: both processes awake). */
async function backToBack(call: () => Promise<Sample>, n: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push((await call()).ms);
  return median(samples);
}

async function throughMcp(port: number, n: number): Promise<Record<string, number>> {
  const { server } = await startServer(port);
  try {
    const call = async (): Promise<Sample> => {
      const r = await server.evalOnce();
      return { ms: r.ms, commands: r.wireCommands, serverWallMs: r.serverWallMs };
    };
    const samples = await timedCalls(call, n);
    // the bare MCP round trip (ping: no tool, no game), paced like the evaluations
    const pings: number[] = [];
    for (let i = 0; i < n; i++) {
      await sleep(GAP_MS);
      const t = performance.now();
      await server.client.ping();
      pings.push(performance.now() - t);
    }
    return {
      mcp_ms: median(samples.map((s) => s.ms)),
      mcp_server_wall_ms: median(samples.map((s) => s.serverWallMs!)),
      mcp_commands: samples.reduce((a, s) => a + s.commands, 0) / n,
      mcp_ping_ms: median(pings),
      mcp_back_to_back_ms: await backToBack(call, n),
    };
  } finally {
    await server.close();
  }
}

async function inProcess(port: number, n: number): Promise<Record<string, number>> {
  const session = new GameSession();
  try {
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port });
    // exactly the eval tool's call: no options, the default usings
    const call = async (): Promise<Sample> => {
      const t = performance.now();
      const r = await evaluateInSession(session, 'mcp:bench', PROGRAM);
      const ms = performance.now() - t;
      if (r.value.kind !== 'value' || r.value.text !== EXPECTED)
        throw new Error(`${PROGRAM} in-process: ${JSON.stringify(r.value)}`);
      return { ms, commands: r.cost.wireCommands };
    };
    const samples = await timedCalls(call, n);
    return {
      in_process_ms: median(samples.map((s) => s.ms)),
      in_process_commands: samples.reduce((a, s) => a + s.commands, 0) / n,
      in_process_back_to_back_ms: await backToBack(call, n),
    };
  } finally {
    await session.shutdown();
  }
}

/** Each round runs the three clients in a rotated order, with a pause after each. */
async function rounds(port: number, o: Options, n: number): Promise<Record<string, number[]>> {
  const clients: [string, () => Promise<Record<string, number>>][] = [
    [
      'reference client',
      () => runReference({ port, scenario: 'mcp', iterations: n, timeoutMs: 120_000 }),
    ],
    ['through MCP', () => throughMcp(port, n)],
    ['in-process', () => inProcess(port, n)],
  ];
  const out: Record<string, number[]> = {};
  for (let r = 0; r < o.rounds; r++) {
    process.stderr.write(`mcp: round ${r + 1}/${o.rounds}:`);
    for (let i = 0; i < clients.length; i++) {
      const [label, run] = clients[(r + i) % clients.length]!;
      process.stderr.write(` ${label}...`);
      for (const [k, v] of Object.entries(await run())) (out[k] ??= []).push(v);
      await sleep(1500); // a client still exiting must not compete with the next one
    }
    process.stderr.write(` done (${seconds()} s in)\n`);
  }
  return out;
}

export const mcp = {
  async run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const port = fixture.sdbPort;
    const n = Math.max(20, Math.min(o.iterations, 100));
    scenarioStart = performance.now();
    const built = await ensureServerBuilt();

    process.stderr.write(`mcp: startup, ${STARTUP_SPAWNS} spawns...`);
    const st = await measureStartup(port);
    process.stderr.write(` memory, ${MEMORY_CALLS} eval calls...`);
    const mem = await measureMemory(port);
    process.stderr.write(` done (${seconds()} s in)\n`);
    await sleep(1500);
    const per = await rounds(port, o, n);
    const m = Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));

    const mcpMs = m.mcp_ms!;
    const inProcessMs = m.in_process_ms!;
    const referenceMs = m.field_read_ms;
    if (referenceMs === undefined)
      throw new Error('the reference client reported no field_read_ms');
    const overhead = mcpMs - inProcessMs;
    const json = [
      {
        name: 'startup',
        unit: 'ms',
        what: 'spawn of `node dist/cli/cli.js mcp --port N` to the tools/list reply, initialize included',
        median_ms: round(median(st.startup), 1),
        min_ms: round(Math.min(...st.startup), 1),
        max_ms: round(Math.max(...st.startup), 1),
        spawns: STARTUP_SPAWNS,
        exit_median_ms: round(median(st.exit), 1),
        exit_max_ms: round(Math.max(...st.exit), 1),
        built_dist: built,
      },
      {
        name: 'memory',
        unit: 'MB',
        what: `VmRSS of the server: idle after tools/list, attached after its first eval, then after ${MEMORY_CALLS} back-to-back eval calls`,
        idle_mb: round(mem.idle.rss, 1),
        before_mb: round(mem.attached.rss, 1),
        after_mb: round(mem.after.rss, 1),
        growth_mb: round(mem.after.rss - mem.attached.rss, 1),
        peak_mb: round(mem.after.peak, 1),
        calls: MEMORY_CALLS,
        back_to_back_ms_per_call: round(mem.perCallMs, 3),
      },
      {
        name: 'eval_field_read',
        unit: 'ms',
        program: PROGRAM,
        mcp_ms: round(mcpMs, 3),
        reference_ms: round(referenceMs, 3),
        ratio: round(mcpMs / referenceMs, 3),
        in_process_ms: round(inProcessMs, 3),
        in_process_ratio: round(inProcessMs / referenceMs, 3),
        mcp_overhead_ms: round(overhead, 3),
        overhead_target_ms: OVERHEAD_TARGET_MS,
        overhead_target_met: overhead < OVERHEAD_TARGET_MS,
        mcp_server_wall_ms: round(m.mcp_server_wall_ms!, 3),
        mcp_ping_ms: round(m.mcp_ping_ms!, 3),
        back_to_back: {
          mcp_ms: round(m.mcp_back_to_back_ms!, 3),
          in_process_ms: round(m.in_process_back_to_back_ms!, 3),
          mcp_overhead_ms: round(m.mcp_back_to_back_ms! - m.in_process_back_to_back_ms!, 3),
        },
        mcp_commands: round(m.mcp_commands!, 2),
        in_process_commands: round(m.in_process_commands!, 2),
        iterations: n,
        rounds: o.rounds,
        per_round: Object.fromEntries(
          ['mcp_ms', 'in_process_ms', 'field_read_ms'].map((k) => [
            k === 'field_read_ms' ? 'reference_ms' : k,
            per[k]!.map((x) => round(x, 3)),
          ]),
        ),
      },
    ];
    const r = (x: number): number => round(x, 3);
    const lines: Line[] = [
      {
        name: 'startup_ms',
        what: `spawn to the tools/list reply, over ${STARTUP_SPAWNS} spawns`,
        ours: st.startup,
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'exit_after_stdin_close_ms',
        ours: r(median(st.exit)),
        reference: undefined,
        unit: 'ms',
      },
      { name: 'rss_idle_mb', ours: r(mem.idle.rss), reference: undefined, unit: 'MB' },
      { name: 'rss_before_evals_mb', ours: r(mem.attached.rss), reference: undefined, unit: 'MB' },
      {
        name: `rss_after_${MEMORY_CALLS}_evals_mb`,
        ours: r(mem.after.rss),
        reference: undefined,
        unit: 'MB',
      },
      {
        name: 'rss_growth_mb',
        ours: r(mem.after.rss - mem.attached.rss),
        reference: undefined,
        unit: 'MB',
      },
      {
        name: 'eval_field_read_mcp_ms',
        ours: got(per, 'mcp_ms'),
        reference: got(per, 'field_read_ms', 'the reference client'),
        unit: 'ms',
      },
      {
        name: 'eval_field_read_in_process_ms',
        ours: got(per, 'in_process_ms'),
        reference: got(per, 'field_read_ms', 'the reference client'),
        unit: 'ms',
      },
      {
        name: 'mcp_overhead_ms',
        what: 'through MCP minus in-process, per round',
        ours: got(per, 'mcp_ms').map((x, i) => x - got(per, 'in_process_ms')[i]!),
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: OVERHEAD_TARGET_MS },
      },
      // for the record: the server's own account, the bare round trip, and calls back to back
      {
        name: 'mcp_server_wall_ms',
        ours: r(m.mcp_server_wall_ms!),
        reference: undefined,
        unit: 'ms',
      },
      { name: 'mcp_ping_ms', ours: r(m.mcp_ping_ms!), reference: undefined, unit: 'ms' },
      {
        name: 'mcp_overhead_back_to_back_ms',
        ours: r(m.mcp_back_to_back_ms! - m.in_process_back_to_back_ms!),
        reference: undefined,
        unit: 'ms',
      },
    ];
    return { lines, json };
  },
};
