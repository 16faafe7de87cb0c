// The "mcp" benchmark: the built server as an MCP host runs it. `unity-devtools mcp --port N` is
// a thin stdio relay (broker/front-end.ts) of the per-user broker (broker/broker.ts), which runs
// the tools; the bench starts one broker of its own (`node dist/cli/cli.js broker`, its home a
// fresh temporary UNITY_DEVTOOLS_HOME), stopped (`broker/stop`: games resumed, DISPOSE sent) and
// its home removed at the end, whatever happened.
//   startup:      spawn of a front-end to its tools/list reply arriving (initialize included) while the
//                 broker runs, median of STARTUP_SPAWNS spawns, of dist's cli.js and of the
//                 plugin's bundle (plugin/server/unity-devtools.mjs); cold: the same with no broker
//                 running (the front-end starts it), COLD_SPAWNS spawns, the broker stopped
//                 between them;
//   memory:       resident sets (/proc/<pid>/status VmRSS): the front-end idle, the broker idle,
//                 once attached and after MEMORY_CALLS back-to-back `eval` calls;
//   eval:         `eval {code: 'Game.Probe.SInt'}` end to end through MCP (front-end + broker),
//                 the same call on an SDK client straight on the broker's socket (no front-end:
//                 broker hop = through MCP minus that), the same static read by the reference
//                 client (RefBench's `mcp` scenario: VM.SUSPEND, one TYPE.GET_VALUES, VM.RESUME,
//                 what our evaluator does for that program) and the same evaluation made
//                 in-process with our library (evaluateInSession on a GameSession, the call the
//                 eval tool makes). MCP overhead = through MCP minus in-process. For the record:
//                 the server's own wall time for the call, bare MCP round trips (ping) through
//                 each path paced the same way, and calls made back to back;
//   release:      a front-end holding the game (`suspend`) is killed (SIGKILL); a broker-direct
//                 client polls `status` until the game's holds are empty, RELEASE_KILLS times.
// The game takes one debugger at a time: the four clients run one after the other, each leaving
// (ours: the `detach` tool, which frees the slot at once when it is the last caller, then the
// connection closed; the in-process session shut down) before the next attaches, in an order
// rotated each round. Each call is timed alone after the eval scenario's 20 ms pause; per client
// the median of the calls, then the median of the rounds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { openBrokerClient } from '../broker/cli-client.js';
import { brokerPaths } from '../broker/home.js';
import type { FixtureProcess } from '../fixtures/launch.js';
import { evaluateInSession } from '../unity/eval-bridge/evaluate-in-session.js';
import { processAlive } from '../unity/lifetime.js';
import { GameSession } from '../unity/session/session.js';
import {
  BUILT_CLI,
  brokerPidOf,
  PLUGIN_ENTRY,
  VERSION,
  ensureNoBroker,
  ensureServerBuilt,
  exitHook,
  rssMb,
  spawnFrontEnd,
  sleep,
  startBroker,
  started,
  stopBrokerOf,
  waitGone,
  type Broker,
} from './broker-harness.js';
import { runReference } from './reference.js';
import { got, median, round, type Line, type Options } from './scenario.js';

const PROGRAM = 'Game.Probe.SInt';
const EXPECTED = '-123456789';
const STARTUP_SPAWNS = 10;
const COLD_SPAWNS = 4;
const MEMORY_CALLS = 1000;
const RELEASE_KILLS = 5;
/** Untimed calls before the timed ones: a server is long-lived, so it is measured JIT-warm. */
const WARMUP = 300;
const GAP_MS = 20;
const OVERHEAD_TARGET_MS = 1;
const HOP_TARGET_MS = 0.3;
const STARTUP_TARGET_MS = 300;
const RELEASE_TARGET_MS = 1000;
const RELEASE_BOUND_MS = 10_000;
const RELEASE_POLL_MS = 5;

/** Progress on stderr: seconds since the scenario started. */
let scenarioStart = 0;
const seconds = (): string => ((performance.now() - scenarioStart) / 1000).toFixed(1);

// ---- the clients -------------------------------------------------------------------------------

const textOf = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

interface EvalSample {
  ms: number;
  wireCommands: number;
  serverWallMs: number;
}

/** One MCP connection to the broker (through a front-end, or straight on its socket). */
interface Caller {
  client: Client;
  who: string;
  evalOnce(): Promise<EvalSample>;
  /** Calls a tool that must succeed; its structured content. */
  tool<T>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** `detach` (the slot must be freed: no other caller is attached), then the connection closed. */
  leave(): Promise<void>;
}

function caller(
  client: Client,
  who: string,
  diagnostics: () => string,
  close: () => Promise<unknown>,
): Caller {
  const tool = async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (r.isError)
      throw new Error(`${name} ${who} failed: ${textOf(r)}\ndiagnostics: ${diagnostics()}`);
    return r.structuredContent as T;
  };
  return {
    client,
    who,
    tool,
    async evalOnce() {
      const t = performance.now();
      const r = (await client.callTool({
        name: 'eval',
        arguments: { code: PROGRAM },
      })) as CallToolResult;
      const ms = performance.now() - t;
      const s = r.structuredContent as
        { value?: string; cost?: { wire_commands: number; wall_ms: number } } | undefined;
      if (r.isError || s?.value !== EXPECTED || !s.cost)
        throw new Error(`eval ${PROGRAM} ${who}: ${textOf(r)}\ndiagnostics: ${diagnostics()}`);
      return { ms, wireCommands: s.cost.wire_commands, serverWallMs: s.cost.wall_ms };
    },
    async leave() {
      const d = await tool<{ freed: boolean; still_attached: string[] }>('detach');
      if (!d.freed)
        throw new Error(
          `detach ${who} did not free the slot: still attached for ${d.still_attached.join(', ')}`,
        );
      await close();
    },
  };
}

interface FrontEnd extends Caller {
  pid: number;
  /** Closes stdin and waits until the process is gone; how long that took (ms). */
  close(): Promise<number>;
}

/**
 * Spawns a front-end (`script mcp`: dist's cli.js, or the plugin's bundle) of `home`'s broker on
 * the endpoint; resolves after initialize + tools/list.
 */
async function startFrontEnd(
  port: number,
  home: string,
  script = BUILT_CLI,
): Promise<{ fe: FrontEnd; startupMs: number; sdkStartupMs: number }> {
  const t0 = performance.now();
  const { client, transport, pid, stderr } = await spawnFrontEnd(port, home, 'bench', script);
  // the reply's arrival, not the SDK's parsing of it (zod, then a JSON Schema validator compiled
  // per tool: the client's cost, an MCP host's own)
  let replyAt: number | undefined;
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (replyAt === undefined && 'result' in message && 'tools' in message.result)
      replyAt = performance.now();
    deliver?.(message);
  };
  const { tools } = await client.listTools();
  const listedAt = performance.now();
  transport.onmessage = deliver;
  if (replyAt === undefined) throw new Error('no tools/list reply was seen on the transport');
  const startupMs = replyAt - t0;
  const sdkStartupMs = listedAt - t0;
  if (!tools.some((t) => t.name === 'eval'))
    throw new Error(`the server lists no eval tool (${tools.map((t) => t.name).join(', ')})`);
  const close = async (): Promise<number> => {
    const t = performance.now();
    await client.close(); // ends stdin; the SDK waits up to 2 s, then SIGTERM
    await waitGone(pid, 'the front-end');
    return performance.now() - t;
  };
  const c = caller(client, 'through MCP', () => `front-end stderr: ${stderr()}`, close);
  return { fe: { ...c, pid, close }, startupMs, sdkStartupMs };
}

/** An SDK client straight on the broker's socket (no front-end), calls going to the endpoint. */
async function openDirect(port: number, home: string, broker: Broker): Promise<Caller> {
  const b = await openBrokerClient({
    paths: brokerPaths(home),
    version: VERSION,
    kind: 'cli',
    spawn: false,
    brokerArgs: [],
    target: { kind: 'endpoint', host: '127.0.0.1', port },
    clientName: 'bench-direct',
  });
  return caller(
    b.client,
    'broker direct',
    () => `broker stderr: ${broker.stderr()}`,
    () => b.close(),
  );
}

// ---- the measurements --------------------------------------------------------------------------

/** Spawns of `script mcp` to tools/list with the broker running (it serves them all). */
async function measureStartup(port: number, home: string, script = BUILT_CLI) {
  const startup: number[] = [];
  const sdk: number[] = [];
  const exit: number[] = [];
  for (let i = 0; i < STARTUP_SPAWNS; i++) {
    const { fe, startupMs, sdkStartupMs } = await startFrontEnd(port, home, script);
    startup.push(startupMs);
    sdk.push(sdkStartupMs);
    exit.push(await fe.close());
  }
  return { startup, sdk, exit };
}

/** Spawns to tools/list with no broker running: each front-end starts one, stopped after. */
async function measureColdStartup(port: number, home: string): Promise<number[]> {
  const startup: number[] = [];
  for (let i = 0; i < COLD_SPAWNS; i++) {
    if (brokerPidOf(home) !== undefined) throw new Error('a broker runs before a cold spawn');
    const { fe, startupMs } = await startFrontEnd(port, home);
    startup.push(startupMs);
    await fe.close();
    if ((await stopBrokerOf(home)) === undefined)
      throw new Error('the cold front-end started no broker');
    await sleep(500);
  }
  return startup;
}

async function measureMemory(port: number, home: string, broker: Broker) {
  const { fe } = await startFrontEnd(port, home);
  try {
    const frontEndIdle = await rssMb(fe.pid);
    const idle = await rssMb(broker.pid);
    await fe.evalOnce(); // attaches
    const attached = await rssMb(broker.pid);
    const t = performance.now();
    for (let i = 0; i < MEMORY_CALLS; i++) await fe.evalOnce();
    const perCallMs = (performance.now() - t) / MEMORY_CALLS;
    const after = await rssMb(broker.pid);
    const frontEndAfter = await rssMb(fe.pid);
    await fe.leave();
    return { frontEndIdle, frontEndAfter, idle, attached, after, perCallMs };
  } finally {
    if (processAlive(fe.pid)) await fe.close();
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

/** For the record: the median of n calls made back to back (no pause: every process awake). */
async function backToBack(call: () => Promise<Sample>, n: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push((await call()).ms);
  return median(samples);
}

/** The eval rows of one MCP caller, keys prefixed (`mcp_`, `direct_`). */
async function overMcp(c: Caller, prefix: string, n: number): Promise<Record<string, number>> {
  const call = async (): Promise<Sample> => {
    const r = await c.evalOnce();
    return { ms: r.ms, commands: r.wireCommands, serverWallMs: r.serverWallMs };
  };
  const samples = await timedCalls(call, n);
  // the bare MCP round trip (ping: no tool, no game), paced like the evaluations
  const pings: number[] = [];
  for (let i = 0; i < n; i++) {
    await sleep(GAP_MS);
    const t = performance.now();
    await c.client.ping();
    pings.push(performance.now() - t);
  }
  return {
    [`${prefix}_ms`]: median(samples.map((s) => s.ms)),
    [`${prefix}_server_wall_ms`]: median(samples.map((s) => s.serverWallMs!)),
    [`${prefix}_commands`]: samples.reduce((a, s) => a + s.commands, 0) / n,
    [`${prefix}_ping_ms`]: median(pings),
    [`${prefix}_back_to_back_ms`]: await backToBack(call, n),
  };
}

async function throughMcp(port: number, home: string, n: number) {
  const { fe } = await startFrontEnd(port, home);
  try {
    const out = await overMcp(fe, 'mcp', n);
    await fe.leave();
    return out;
  } finally {
    if (processAlive(fe.pid)) await fe.close();
  }
}

async function brokerDirect(port: number, home: string, broker: Broker, n: number) {
  const c = await openDirect(port, home, broker);
  try {
    const out = await overMcp(c, 'direct', n);
    await c.leave();
    return out;
  } finally {
    await c.client.close();
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

/** Each round runs the four clients in a rotated order, with a pause after each. */
async function rounds(
  port: number,
  home: string,
  broker: Broker,
  o: Options,
  n: number,
): Promise<Record<string, number[]>> {
  const clients: [string, () => Promise<Record<string, number>>][] = [
    [
      'reference client',
      () => runReference({ port, scenario: 'mcp', iterations: n, timeoutMs: 120_000 }),
    ],
    ['through MCP', () => throughMcp(port, home, n)],
    ['broker direct', () => brokerDirect(port, home, broker, n)],
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

interface GameRow {
  endpoint: string;
  holds: { caller: string; count: number }[];
}

/**
 * A front-end holds the game and is killed (SIGKILL): how long until the broker has released
 * its hold, as a broker-direct client sees in `status` (polled every RELEASE_POLL_MS).
 */
async function measureRelease(port: number, home: string, broker: Broker): Promise<number[]> {
  const endpoint = `127.0.0.1:${port}`;
  const out: number[] = [];
  for (let i = 0; i < RELEASE_KILLS; i++) {
    const watcher = await openDirect(port, home, broker);
    try {
      await watcher.evalOnce(); // attached: it stays the game's caller after the kill
      const holds = async (): Promise<GameRow['holds']> => {
        const s = await watcher.tool<{ games: GameRow[] }>('status');
        const g = s.games.find((x) => x.endpoint === endpoint);
        if (!g) throw new Error(`status lists no game at ${endpoint}`);
        return g.holds;
      };
      const { fe } = await startFrontEnd(port, home);
      try {
        await fe.tool('suspend');
        if ((await holds()).length !== 1) throw new Error('the front-end holds no game');
        const t = performance.now();
        process.kill(fe.pid, 'SIGKILL');
        while ((await holds()).length > 0) {
          if (performance.now() - t > RELEASE_BOUND_MS)
            throw new Error(`the killed front-end's hold was held ${RELEASE_BOUND_MS} ms on`);
          await sleep(RELEASE_POLL_MS);
        }
        out.push(performance.now() - t);
        await waitGone(fe.pid, 'the killed front-end');
      } finally {
        await fe.client.close().catch(() => undefined);
        if (processAlive(fe.pid)) process.kill(fe.pid, 'SIGKILL');
      }
      // the watcher is the game's last caller: its detach frees the slot
      await watcher.leave();
    } finally {
      await watcher.client.close();
    }
    await sleep(500);
  }
  return out;
}

// ---- the scenario ------------------------------------------------------------------------------

const minMax = (xs: readonly number[], digits: number) => ({
  median_ms: round(median(xs), digits),
  min_ms: round(Math.min(...xs), digits),
  max_ms: round(Math.max(...xs), digits),
});

export const mcp = {
  async run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const port = fixture.sdbPort;
    const n = Math.max(20, Math.min(o.iterations, 100));
    scenarioStart = performance.now();
    const built = await ensureServerBuilt();

    const home = mkdtempSync(path.join(tmpdir(), 'ud-bench-'));
    const hook = exitHook(home);
    process.once('exit', hook);
    let cold: number[];
    let st: Awaited<ReturnType<typeof measureStartup>>;
    let stPlugin: Awaited<ReturnType<typeof measureStartup>>;
    let mem: Awaited<ReturnType<typeof measureMemory>>;
    let per: Record<string, number[]>;
    let release: number[];
    try {
      process.stderr.write(`mcp: cold startup, ${COLD_SPAWNS} spawns...`);
      cold = await measureColdStartup(port, home);
      const broker = await startBroker(home);
      process.stderr.write(` broker pid ${broker.pid}; startup, ${STARTUP_SPAWNS} spawns...`);
      st = await measureStartup(port, home);
      process.stderr.write(` the plugin's, ${STARTUP_SPAWNS} spawns...`);
      stPlugin = await measureStartup(port, home, PLUGIN_ENTRY);
      process.stderr.write(` memory, ${MEMORY_CALLS} eval calls...`);
      mem = await measureMemory(port, home, broker);
      process.stderr.write(` done (${seconds()} s in)\n`);
      await sleep(1500);
      per = await rounds(port, home, broker, o, n);
      process.stderr.write(`mcp: release after a front-end's kill, ${RELEASE_KILLS} kills...`);
      release = await measureRelease(port, home, broker);
      process.stderr.write(` done (${seconds()} s in)\n`);
    } finally {
      try {
        await ensureNoBroker(home);
        for (const pid of started) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
      } finally {
        rmSync(home, { recursive: true, force: true });
        process.off('exit', hook);
      }
    }
    const m = Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));

    const mcpMs = m.mcp_ms!;
    const directMs = m.direct_ms!;
    const inProcessMs = m.in_process_ms!;
    const referenceMs = m.field_read_ms;
    if (referenceMs === undefined)
      throw new Error('the reference client reported no field_read_ms');
    const perRound = (a: string, b: string): number[] =>
      got(per, a).map((x, i) => x - got(per, b)[i]!);
    const hop = perRound('mcp_ms', 'direct_ms');
    const overhead = perRound('mcp_ms', 'in_process_ms');
    const json = [
      {
        name: 'startup',
        unit: 'ms',
        what: 'spawn of `node dist/cli/cli.js mcp --port N` to the tools/list reply, initialize included, while the broker runs',
        ...minMax(st.startup, 1),
        spawns: STARTUP_SPAWNS,
        target_ms: STARTUP_TARGET_MS,
        sdk_listed_median_ms: round(median(st.sdk), 1),
        exit_median_ms: round(median(st.exit), 1),
        exit_max_ms: round(Math.max(...st.exit), 1),
        built_dist: built,
      },
      {
        name: 'startup_plugin',
        unit: 'ms',
        what: "the same spawn of the Claude Code plugin's `node plugin/server/unity-devtools.mjs mcp --port N` (the committed bundle)",
        ...minMax(stPlugin.startup, 1),
        spawns: STARTUP_SPAWNS,
        target_ms: STARTUP_TARGET_MS,
      },
      {
        name: 'cold_startup',
        unit: 'ms',
        what: 'the same spawn with no broker running: the front-end starts one (stopped after each)',
        ...minMax(cold, 1),
        spawns: COLD_SPAWNS,
      },
      {
        name: 'memory',
        unit: 'MB',
        what: `VmRSS: the front-end idle after tools/list and after the evals; the broker idle (a front-end connected), attached after its first eval, then after ${MEMORY_CALLS} back-to-back eval calls through the front-end`,
        front_end_idle_mb: round(mem.frontEndIdle.rss, 1),
        front_end_after_mb: round(mem.frontEndAfter.rss, 1),
        broker_idle_mb: round(mem.idle.rss, 1),
        broker_attached_mb: round(mem.attached.rss, 1),
        broker_after_mb: round(mem.after.rss, 1),
        broker_growth_mb: round(mem.after.rss - mem.attached.rss, 1),
        broker_peak_mb: round(mem.after.peak, 1),
        calls: MEMORY_CALLS,
        back_to_back_ms_per_call: round(mem.perCallMs, 3),
      },
      {
        name: 'eval_field_read',
        unit: 'ms',
        program: PROGRAM,
        mcp_ms: round(mcpMs, 3),
        broker_direct_ms: round(directMs, 3),
        reference_ms: round(referenceMs, 3),
        ratio: round(mcpMs / referenceMs, 3),
        in_process_ms: round(inProcessMs, 3),
        in_process_ratio: round(inProcessMs / referenceMs, 3),
        broker_hop_ms: round(median(hop), 3),
        hop_target_ms: HOP_TARGET_MS,
        mcp_overhead_ms: round(median(overhead), 3),
        overhead_target_ms: OVERHEAD_TARGET_MS,
        mcp_server_wall_ms: round(m.mcp_server_wall_ms!, 3),
        broker_direct_server_wall_ms: round(m.direct_server_wall_ms!, 3),
        mcp_ping_ms: round(m.mcp_ping_ms!, 3),
        broker_direct_ping_ms: round(m.direct_ping_ms!, 3),
        back_to_back: {
          mcp_ms: round(m.mcp_back_to_back_ms!, 3),
          broker_direct_ms: round(m.direct_back_to_back_ms!, 3),
          in_process_ms: round(m.in_process_back_to_back_ms!, 3),
          broker_hop_ms: round(m.mcp_back_to_back_ms! - m.direct_back_to_back_ms!, 3),
          mcp_overhead_ms: round(m.mcp_back_to_back_ms! - m.in_process_back_to_back_ms!, 3),
        },
        mcp_commands: round(m.mcp_commands!, 2),
        broker_direct_commands: round(m.direct_commands!, 2),
        in_process_commands: round(m.in_process_commands!, 2),
        iterations: n,
        rounds: o.rounds,
        per_round: Object.fromEntries(
          (
            [
              ['mcp_ms', 'mcp_ms'],
              ['direct_ms', 'broker_direct_ms'],
              ['in_process_ms', 'in_process_ms'],
              ['field_read_ms', 'reference_ms'],
              ['mcp_ping_ms', 'mcp_ping_ms'],
              ['direct_ping_ms', 'broker_direct_ping_ms'],
            ] as [string, string][]
          ).map(([k, name]) => [name, got(per, k).map((x) => round(x, 3))]),
        ),
      },
      {
        name: 'release_after_frontend_kill',
        unit: 'ms',
        what: 'a front-end holding the game (suspend) is killed with SIGKILL: until a broker-direct client sees no hold in status',
        ...minMax(release, 1),
        kills: RELEASE_KILLS,
        poll_ms: RELEASE_POLL_MS,
        target_ms: RELEASE_TARGET_MS,
      },
    ];
    const r = (x: number): number => round(x, 3);
    const ref = (): number[] => got(per, 'field_read_ms', 'the reference client');
    const lines: Line[] = [
      {
        name: 'startup_ms',
        what: `spawn to the tools/list reply with the broker running, over ${STARTUP_SPAWNS} spawns`,
        ours: st.startup,
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: STARTUP_TARGET_MS },
      },
      {
        name: 'startup_plugin_ms',
        what: `the same spawning the plugin's bundle (plugin/server/unity-devtools.mjs), over ${STARTUP_SPAWNS} spawns`,
        ours: stPlugin.startup,
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: STARTUP_TARGET_MS },
      },
      {
        name: 'startup_sdk_listed_ms',
        what: "the same to the SDK client's listTools resolving (its parsing and per-tool schema compiling included)",
        ours: st.sdk,
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'cold_startup_ms',
        what: `the same with no broker running (the front-end starts it), over ${COLD_SPAWNS} spawns`,
        ours: cold,
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'exit_after_stdin_close_ms',
        ours: st.exit,
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'front_end_rss_idle_mb',
        ours: r(mem.frontEndIdle.rss),
        reference: undefined,
        unit: 'MB',
      },
      { name: 'broker_rss_idle_mb', ours: r(mem.idle.rss), reference: undefined, unit: 'MB' },
      {
        name: 'broker_rss_attached_mb',
        ours: r(mem.attached.rss),
        reference: undefined,
        unit: 'MB',
      },
      {
        name: `broker_rss_after_${MEMORY_CALLS}_evals_mb`,
        ours: r(mem.after.rss),
        reference: undefined,
        unit: 'MB',
      },
      {
        name: 'broker_rss_growth_mb',
        ours: r(mem.after.rss - mem.attached.rss),
        reference: undefined,
        unit: 'MB',
      },
      {
        name: 'eval_field_read_mcp_ms',
        what: 'through the front-end and the broker',
        ours: got(per, 'mcp_ms'),
        reference: ref(),
        unit: 'ms',
      },
      {
        name: 'eval_field_read_broker_direct_ms',
        what: "an SDK client on the broker's socket, no front-end",
        ours: got(per, 'direct_ms'),
        reference: ref(),
        unit: 'ms',
      },
      {
        name: 'eval_field_read_in_process_ms',
        ours: got(per, 'in_process_ms'),
        reference: ref(),
        unit: 'ms',
      },
      {
        name: 'broker_hop_ms',
        what: 'through MCP minus broker direct, per round (the relay hop)',
        ours: hop,
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: HOP_TARGET_MS },
      },
      {
        name: 'mcp_overhead_ms',
        what: 'through MCP minus in-process, per round',
        ours: overhead,
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: OVERHEAD_TARGET_MS },
      },
      {
        name: 'release_after_frontend_kill_ms',
        what: `a holding front-end killed (SIGKILL) to its hold gone from status, over ${RELEASE_KILLS} kills`,
        ours: release,
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: RELEASE_TARGET_MS },
      },
      // for the record: the server's own account, the bare round trips, and calls back to back
      {
        name: 'mcp_server_wall_ms',
        ours: got(per, 'mcp_server_wall_ms'),
        reference: undefined,
        unit: 'ms',
      },
      { name: 'mcp_ping_ms', ours: got(per, 'mcp_ping_ms'), reference: undefined, unit: 'ms' },
      {
        name: 'broker_direct_ping_ms',
        ours: got(per, 'direct_ping_ms'),
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'broker_hop_back_to_back_ms',
        ours: perRound('mcp_back_to_back_ms', 'direct_back_to_back_ms'),
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'mcp_overhead_back_to_back_ms',
        ours: perRound('mcp_back_to_back_ms', 'in_process_back_to_back_ms'),
        reference: undefined,
        unit: 'ms',
      },
    ];
    return { lines, json };
  },
};
