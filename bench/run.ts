// `npm run bench [-- scenario...] [--rounds N] [--iterations N]`: our client and the reference C#
// client (Mono.Debugger.Soft, via bench/reference/RefBench.cs) against the same fixture in one
// run, alternating, several rounds. Prints a table per scenario (each figure the median of the
// rounds, with the rounds' min and max, and a verdict per target: met, MISSED, or within noise
// when the rounds fall on both sides of it) and writes bench/results/<scenario>.json with the
// commit it was measured at and the machine's load. Figures are reported, never asserted.
//
// `npm run bench -- --check`: lists the result files older than the code they measure (a commit
// since theirs touched a folder the scenario exercises, see SOURCES), or measured on uncommitted
// changes to it, and exits 1 if there is any.

import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildFixture } from '../fixtures/build.js';
import { startFixture, type FixtureProcess } from '../fixtures/launch.js';
import { buildReference, runReference } from './reference.js';
import { agents } from './agents.js';
import { ecs } from './ecs.js';
import { debug } from './debug.js';
import { observe } from './observe.js';
import { scene } from './scene.js';
import { ELEMENT_PROGRAM, SEQUENCE_PROGRAMS, measureEval, sequenceErrors } from './eval.js';
import { mcp } from './mcp.js';
import { measureSession } from './session.js';
import { measurePipelinedBurst, measureWire } from './wire.js';
import {
  alternate,
  describeTarget,
  evaluateRow,
  got,
  medians,
  round,
  type Line,
  type Options,
  type RowResult,
} from './scenario.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

/**
 * Untimed calls before each light wire row, for both clients. Mono compiles a method fully on
 * its first call; V8 needs a few thousand calls to reach its optimising tier. A server process
 * is long-lived, so both are measured warm.
 */
const WARMUP = 2000;

interface Scenario {
  run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }>;
}

/** What every scenario runs on: the harness, the reference client and the fixture game. */
const HARNESS = [
  'bench/run.ts',
  'bench/scenario.ts',
  'bench/reference.ts',
  'bench/reference',
  'fixtures',
];

/**
 * The code each scenario measures, as paths of the repository: a result file is stale once a
 * commit after the one it records touched any of them.
 */
const SOURCES: Record<string, readonly string[]> = {
  wire: [...HARNESS, 'sdb-protocol', 'bench/wire.ts'],
  session: [...HARNESS, 'sdb-protocol', 'unity', 'bench/session.ts', 'bench/hitch.ts'],
  eval: [...HARNESS, 'sdb-protocol', 'unity', 'eval', 'bench/eval.ts'],
  mcp: [
    ...HARNESS,
    'sdb-protocol',
    'unity',
    'eval',
    'mcp',
    'broker',
    'cli',
    'bench/mcp.ts',
    'bench/broker-harness.ts',
    'tsconfig.build.json',
  ],
  ecs: [...HARNESS, 'sdb-protocol', 'unity', 'bench/ecs.ts', 'bench/hitch.ts'],
  debug: [...HARNESS, 'sdb-protocol', 'unity', 'eval', 'bench/debug.ts'],
  observe: [...HARNESS, 'sdb-protocol', 'unity', 'eval', 'bench/observe.ts'],
  agents: [
    ...HARNESS,
    'sdb-protocol',
    'unity',
    'eval',
    'mcp',
    'broker',
    'cli',
    'bench/agents.ts',
    'bench/broker-harness.ts',
    'tsconfig.build.json',
  ],
  scene: [...HARNESS, 'sdb-protocol', 'unity', 'eval', 'bench/scene.ts'],
};

const wire: Scenario = {
  async run(fixture, o) {
    const bursts = Math.min(o.iterations, 10);
    const port = fixture.sdbPort;
    const m = await alternate(
      'wire',
      o.rounds,
      () =>
        runReference({
          port,
          scenario: 'wire',
          iterations: o.iterations,
          burstIterations: bursts,
          warmup: WARMUP,
          timeoutMs: 240_000,
        }),
      async () => {
        const w = await measureWire({ port, iterations: o.iterations, bursts, warmup: WARMUP });
        w.burst_1000_reads_pipelined_only_us = await measurePipelinedBurst({ port, bursts });
        return { ...w };
      },
    );
    const ours = (k: string): number[] => got(m.ours, k, 'our client');
    const ref = (k: string): number[] => got(m.reference, k, 'the reference client');
    // target: ours/reference at most this
    const rows: [string, number | undefined][] = [
      ['static_field_read_us', 1.0],
      ['object_field_read_us', 1.0],
      ['array_10k_read_us', 0.5],
      ['string_1mb_read_us', 0.5],
      ['invoke_parked_us', 1.0],
    ];
    const lines: Line[] = rows.map(([name, t]) => ({
      name,
      ours: ours(name),
      reference: ref(name),
      unit: 'us',
      ...(t === undefined ? {} : { target: { kind: 'ratio', value: t } }),
    }));
    lines.push(
      {
        name: 'burst_1000_reads_vs_best_us',
        what: "1,000 reads of a static in flight at once, against the reference's best form of them: TypeMirror.GetValues with the field 1,000 times (one request)",
        ours: ours('burst_1000_reads_us'),
        reference: ref('burst_1000_reads_batched_us'),
        unit: 'us',
        target: { kind: 'ratio', value: 1.0 },
      },
      {
        name: 'burst_1000_reads_vs_sequential_us',
        what: "the same burst against the reference's sequential loop of 1,000 TypeMirror.GetValue calls",
        ours: ours('burst_1000_reads_us'),
        reference: ref('burst_1000_reads_us'),
        unit: 'us',
        target: { kind: 'ratio', value: 0.25 }, // at least 4x faster than the sequential loop
      },
      {
        // pipelining alone (read coalescing off), for the record
        name: 'burst_1000_reads_pipelined_only_us',
        what: "the burst with read coalescing off (pipelining alone), against the reference's sequential loop",
        ours: ours('burst_1000_reads_pipelined_only_us'),
        reference: ref('burst_1000_reads_us'),
        unit: 'us',
      },
    );
    return { lines, json: { rounds: m } };
  },
};

const session: Scenario = {
  async run(fixture, o) {
    const port = fixture.sdbPort;
    const n = Math.max(10, Math.min(o.iterations, 40));
    const m = await alternate(
      'session',
      o.rounds,
      () => runReference({ port, scenario: 'session', iterations: n, timeoutMs: 240_000 }),
      async () => ({ ...(await measureSession({ port, iterations: n })) }),
    );
    const names: [string, string][] = [
      ['idle_freeze_ms', "nothing (the frame loop's own lateness)"],
      ['field_read_freeze_ms', 'one field read in a suspend window'],
      ['one_invoke_freeze_ms', 'one invoke on the main thread'],
      ['ten_invokes_freeze_ms', 'ten invokes in one exclusive window'],
    ];
    const lines = names.map(([name, what]): Line => ({
      name,
      what,
      ours: got(m.ours, name, 'our client'),
      reference: got(m.reference, name, 'the reference client'),
      unit: 'ms',
      // idle is the baseline both share; the field read is held to 2 ms absolute
      ...(name === 'idle_freeze_ms'
        ? {}
        : name === 'field_read_freeze_ms'
          ? { target: { kind: 'below', value: 2 } }
          : { target: { kind: 'ratio', value: 1 } }),
    }));
    return { lines, json: { rounds: m } };
  },
};

const evaluation: Scenario = {
  async run(fixture, o) {
    const port = fixture.sdbPort;
    const n = Math.max(20, Math.min(o.iterations, 100));
    const m = await alternate(
      'eval',
      o.rounds,
      () => runReference({ port, scenario: 'eval', iterations: n, timeoutMs: 240_000 }),
      () => measureEval({ port, iterations: n }),
    );
    const programs = ['field_chain', 'property_chain', 'ecs_read'];
    const invokeTargets: Record<string, number> = {
      field_chain: 0,
      property_chain: 2,
      ecs_read: 3,
    };
    const o1 = medians(m.ours);
    const r1 = medians(m.reference);
    const json = programs.map((p) => ({
      program: p,
      ours_ms: round(o1[`${p}_ms`]!, 3),
      reference_ms: round(r1[`${p}_ms`]!, 3),
      ratio: round(o1[`${p}_ms`]! / r1[`${p}_ms`]!, 3),
      first_ms: round(o1[`${p}_first_ms`]!, 1),
      // the game is held only for the run: binding (the slow part of a first evaluation) is not
      first_freeze_ms: round(o1[`${p}_first_freeze_ms`]!, 2),
      second_to_first: round(o1[`${p}_ms`]! / o1[`${p}_first_ms`]!, 3),
      commands: round(o1[`${p}_commands`]!, 2),
      invokes: round(o1[`${p}_invokes`]!, 2),
      first_commands: o1[`${p}_first_commands`],
      first_invokes: o1[`${p}_first_invokes`],
      invokes_target: invokeTargets[p],
    }));
    const lines: Line[] = [];
    for (const p of programs) {
      const ours = (k: string): number[] => got(m.ours, `${p}_${k}`, 'our client');
      // an evaluation against the same work written by hand: parse, bind and format cost this much
      lines.push({
        name: `${p}_ms`,
        ours: ours('ms'),
        reference: got(m.reference, `${p}_ms`, 'the reference client'),
        unit: 'ms',
        target: { kind: 'ratio', value: 1.5 },
      });
      lines.push({
        name: `${p}_first_ms`,
        ours: ours('first_ms'),
        reference: undefined,
        unit: 'ms',
      });
      lines.push({
        name: `${p}_invokes`,
        ours: ours('invokes'),
        reference: undefined,
        unit: 'invokes',
        target: { kind: 'below', value: invokeTargets[p]! + 0.5 },
      });
      lines.push({
        name: `${p}_commands`,
        ours: ours('commands'),
        reference: undefined,
        unit: 'commands',
      });
    }
    // the sequence programs (issue 17): at most 10 invokes, at least 20x faster than the
    // reference's element-by-element loop; a program the evaluator cannot run yet has no rows,
    // its error is in the results instead
    const sequences = Object.entries(SEQUENCE_PROGRAMS).map(([p, { source }]) => {
      if (m.ours[`${p}_ms`] === undefined)
        return { program: p, source, error: sequenceErrors[p] ?? 'not measured' };
      const freeze = o1[`${p}_freeze_ms`]!;
      return {
        program: p,
        source,
        ours_ms: round(o1[`${p}_ms`]!, 2),
        reference_ms: round(r1[`${p}_ms`]!, 2),
        speedup: round(r1[`${p}_ms`]! / o1[`${p}_ms`]!, 1),
        speedup_target: 20,
        freeze_ms: round(freeze, 2),
        fits_default_freeze_budget: freeze < 2000,
        commands: o1[`${p}_commands`],
        invokes: o1[`${p}_invokes`],
        invokes_target: 10,
        first_ms: round(o1[`${p}_first_ms`]!, 1),
        ...(sequenceErrors[p] ? { error_in_last_round: sequenceErrors[p] } : {}),
      };
    });
    for (const p of Object.keys(SEQUENCE_PROGRAMS)) {
      if (m.ours[`${p}_ms`] === undefined) continue;
      const ours = (k: string): number[] => got(m.ours, `${p}_${k}`, 'our client');
      lines.push(
        {
          name: `${p}_ms`,
          what: `${SEQUENCE_PROGRAMS[p as keyof typeof SEQUENCE_PROGRAMS].source}, against the reference reading the 10,000 elements one by one`,
          ours: ours('ms'),
          reference: got(m.reference, `${p}_ms`, 'the reference client'),
          unit: 'ms',
          target: { kind: 'ratio', value: 0.05 }, // at least 20x faster
        },
        { name: `${p}_freeze_ms`, ours: ours('freeze_ms'), reference: undefined, unit: 'ms' },
        {
          name: `${p}_invokes`,
          ours: ours('invokes'),
          reference: undefined,
          unit: 'invokes',
          target: { kind: 'below', value: 10.5 },
        },
        { name: `${p}_commands`, ours: ours('commands'), reference: undefined, unit: 'commands' },
        { name: `${p}_row_chunks`, ours: ours('row_chunks'), reference: undefined, unit: 'chunks' },
      );
    }
    if (m.ours.linq_by_element_ms !== undefined) {
      const ours = (k: string): number[] => got(m.ours, `linq_by_element_${k}`, 'our client');
      lines.push(
        {
          name: 'linq_by_element_ms',
          what: `${ELEMENT_PROGRAM.source}: outside the row subset, against linq_sum's reference loop`,
          ours: ours('ms'),
          reference: got(m.reference, 'linq_sum_ms', 'the reference client'),
          unit: 'ms',
        },
        {
          name: 'linq_by_element_invokes',
          ours: ours('invokes'),
          reference: undefined,
          unit: 'invokes',
        },
        {
          name: 'linq_by_element_row_chunks',
          ours: ours('row_chunks'),
          reference: undefined,
          unit: 'chunks',
        },
      );
    }
    return { lines, json: { programs: json, sequences, rounds: m } };
  },
};

const scenarios: Record<string, Scenario> = {
  wire,
  session,
  eval: evaluation,
  mcp,
  ecs,
  debug,
  observe,
  agents,
  scene,
};

function printTable(name: string, rows: RowResult[], rounds: number): void {
  const fig = (x: number): string => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(3));
  const cell = (sp: RowResult['ours'] | undefined): string =>
    sp === undefined
      ? '-'
      : sp.rounds.length === 1
        ? fig(sp.median)
        : `${fig(sp.median)} [${fig(sp.min)}-${fig(sp.max)}]`;
  console.log(`\n${name} (median of ${rounds} rounds [min-max over the rounds])`);
  console.log(
    `${'row'.padEnd(36)}${'ours'.padStart(26)}${'reference'.padStart(26)}${'ours/ref'.padStart(24)}  target`,
  );
  for (const r of rows) {
    const target = r.target ? `${describeTarget(r.target, r.unit)}: ${r.verdict}` : '';
    console.log(
      `${r.name.padEnd(36)}${cell(r.ours).padStart(26)}${cell(r.reference).padStart(26)}${cell(r.ratio).padStart(24)}  ${target}`,
    );
  }
}

function parseArgs(argv: string[]): Options & { names: string[]; check: boolean } {
  const names: string[] = [];
  let rounds = 3;
  let iterations = 200;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--rounds') rounds = Number(argv[++i]);
    else if (a === '--iterations') iterations = Number(argv[++i]);
    else if (a === '--check') check = true;
    else names.push(a);
  }
  for (const n of names)
    if (!scenarios[n])
      throw new Error(`unknown scenario ${n} (known: ${Object.keys(scenarios).join(', ')})`);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error('--rounds takes a whole number >= 1');
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new Error('--iterations takes a whole number >= 1');
  return { names: names.length ? names : Object.keys(scenarios), rounds, iterations, check };
}

function git(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: ROOT, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`git ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/** The commit the code is at, and which of the scenario's sources differ from it. */
async function provenance(name: string): Promise<{ commit: string; uncommitted: string[] }> {
  const commit = (await git(['rev-parse', 'HEAD'])).trim();
  const status = await git(['status', '--porcelain', '--', ...SOURCES[name]!]);
  const uncommitted = status
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3));
  return { commit, uncommitted };
}

const load = (): number[] => os.loadavg().map((x) => round(x, 2));

/** `--check`: which result files are older than the code they measure. */
async function check(names: string[]): Promise<string[]> {
  const files = new Set(
    (await readdir(RESULTS).catch(() => [])).filter((f) => f.endsWith('.json')),
  );
  const stale: string[] = [];
  for (const name of names) {
    const file = `${name}.json`;
    const say = (why: string): void => {
      stale.push(name);
      console.log(`STALE bench/results/${file}: ${why}`);
    };
    if (!files.has(file)) {
      say('no result file');
      continue;
    }
    files.delete(file);
    const data = JSON.parse(await readFile(path.join(RESULTS, file), 'utf8')) as {
      measured?: { commit?: string; uncommitted?: string[] };
    };
    const commit = data.measured?.commit;
    if (commit === undefined) {
      say('it records no commit (measured before results recorded one)');
      continue;
    }
    const known = await git(['cat-file', '-e', `${commit}^{commit}`]).then(
      () => true,
      () => false,
    );
    if (!known) {
      say(`its commit ${commit} is not in this repository`);
      continue;
    }
    const since = (await git(['log', '--format=%h %s', `${commit}..HEAD`, '--', ...SOURCES[name]!]))
      .split('\n')
      .filter(Boolean);
    const dirty = data.measured?.uncommitted ?? [];
    const now = (await provenance(name)).uncommitted;
    if (since.length > 0)
      say(
        `${since.length} commit(s) since ${commit.slice(0, 10)} touch what it measures, newest: ${since[0]}`,
      );
    else if (dirty.length > 0) say(`measured with uncommitted changes to ${dirty.join(', ')}`);
    else if (now.length > 0) say(`the working tree changes what it measures: ${now.join(', ')}`);
    else console.log(`ok    bench/results/${file}: measured at ${commit.slice(0, 10)}`);
  }
  return stale;
}

async function main(): Promise<void> {
  const { names, check: checking, ...o } = parseArgs(process.argv.slice(2));
  if (checking) {
    const stale = await check(names);
    if (stale.length > 0) {
      console.log(
        `${stale.length} result file(s) to re-measure: npm run bench -- ${stale.join(' ')}`,
      );
      process.exitCode = 1;
    }
    return;
  }
  await Promise.all([buildFixture(), buildReference()]);
  await mkdir(RESULTS, { recursive: true });
  const cpus = os.cpus();
  const machine = `${cpus.length} x ${cpus[0]?.model ?? 'cpu'}`;
  console.log(`machine: ${machine}, load ${load().join(' ')}`);
  for (const name of names) {
    const fixture = await startFixture();
    try {
      const before = { load: load(), at: new Date().toISOString() };
      const started = performance.now();
      const { lines, json } = await scenarios[name]!.run(fixture, o);
      const rows = lines.map(evaluateRow);
      printTable(name, rows, o.rounds);
      const p = await provenance(name);
      if (p.uncommitted.length > 0)
        console.log(`note: measured with uncommitted changes to ${p.uncommitted.join(', ')}`);
      const result = {
        scenario: name,
        measured: {
          commit: p.commit,
          uncommitted: p.uncommitted,
          sources: SOURCES[name],
          at: before.at,
          seconds: round((performance.now() - started) / 1000, 1),
          machine,
          // os.loadavg(): 1, 5 and 15 minute load averages, before and after the scenario
          load_before: before.load,
          load_after: load(),
          rounds: o.rounds,
          iterations: o.iterations,
          node: process.version,
        },
        rows,
        details: json,
      };
      await writeFile(path.join(RESULTS, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    } catch (e) {
      // what the game said last tells a crash of the game from a refusal of its agent
      const state = fixture.alive() ? 'still running' : 'exited';
      console.error(`${name}: failed; the fixture game ${state}; its last output:`);
      console.error(fixture.output().slice(-4000));
      throw e;
    } finally {
      await fixture.stop();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
